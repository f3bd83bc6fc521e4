"""Finding URLs and email addresses in plain text (UTS #58 §3 and §5).

A :class:`Finder` holds the detection options (:mod:`uts58.detect.options`),
checked once, and what they make (the property tables, the domain rules,
the candidate pattern, the C scan); :func:`find_links` and its siblings are
the same with the options as keyword arguments.  The text is read by the
scanner (:mod:`uts58.detect.scanner`), once, left to right, in linear time.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ..base.checks import check_str, given_alone
from ..errors import OptionError
from ..hosts.domains import default_tlds, domain_rules
from ..kernels import Scan, c_module, candidate_scan
from ..unicode.parts import LABEL_SEPARATORS
from ..unicode.properties import DEFAULT_UNICODE_VERSION
from .addresses import PLACEHOLDER_RULE, address_rule
from .candidates import _rejected_run, cjk_boundary_host, passed_over
from .evidence import name_rule, placeholder
from .link import Kind, Link, _detected_link
from .options import DEFAULT_SCHEMES, FINDER_OPTIONS, PRESETS, FinderOptions
from .plan import Plan, compile_plan
from .scanner import _NO_LINKS, _link_of, _place_of, _Scanner

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = [
    "DEFAULT_SCHEMES",
    "Finder",
    "FinderOptions",
    "Link",
    "Refusal",
    "Span",
    "adjust_cjk_start",
    "find_emails",
    "find_links",
    "find_urls",
    "has_links",
    "spans",
    "why_not",
]


class Span(NamedTuple):
    """Where a link is, and its kind: what :func:`spans` gives, without
    the :class:`Link` (its text, host, href, display)."""

    start: int
    end: int
    kind: Kind


@dataclass(frozen=True, init=False, repr=False)
class Finder:
    """A configured link detector: the options of :func:`find_links`,
    checked once, and everything they make (the property tables, the domain
    rules of the TLD set, the candidate pattern) built once and shared by
    every call.  Immutable, hashable, equal when the options are; picklable
    (the options travel, what they make is built again on arrival).  One
    finder may serve many threads at once.

    * ``urls``, ``emails``: which kinds to report.  Both are always looked
      for, so that an email address is never reported as a URL or the
      reverse (``john.doe@example.com`` is an email, never a URL).
    * ``schemes``: the schemes recognized when written (``http``, ``https``
      and ``ftp`` by default).  Any other scheme may be named (``ssh``,
      ``git``, ``magnet``, ``tel``, ``xmpp``…), except ``javascript``,
      ``data``, ``vbscript`` and ``file``.  A URL of a scheme not named is
      left alone whole: neither its host, nor its userinfo, nor a piece of
      its path is linked.  ``mailto:`` goes with email addresses.
    * ``require_scheme``: report URLs only when written with a scheme.
    * ``known_tlds``: top-level domains to accept instead of the default
      set (see :mod:`uts58.hosts.tlds`) for domains written without a scheme;
      after a scheme any TLD of TLD syntax is accepted.
    * ``file_extensions``: TLDs that a domain written without a scheme,
      ``www.``, a path or a public suffix of more than one label may not
      have, because its names are files or code in every kind of text
      (``main.py``, ``network.target``; default
      :data:`uts58.detect.evidence.CODE_TLDS`; ``()`` for none; D97).
    * ``file_names``: judge every other name written without a scheme,
      ``www.`` or a path by what the text shows (``README.md``,
      ``config.h.in``, ``pam_unix.so``, ``sci.space`` are not hosts;
      ``onet.pl``, ``flipkart.in`` are): :func:`uts58.detect.evidence.evidence`,
      D97; and leave placeholders (``www.yourdomain.com``, ``you@yourhost.com``)
      and SSH algorithm names (``sk-ssh-ed25519@openssh.com``) unlinked,
      D103.  On by default.
    * ``bare_domains``: link domains written without a scheme or ``www.``
      (``example.com``); off in the ``gfm`` preset.
    * ``cjk_prose``: for Chinese and Japanese written without spaces around
      links: a URL's path ends at ideographic punctuation followed by a CJK
      character (``…/wiki/東京を見てください。メールは…`` ends before ``。``), and
      a local-part glued to CJK text starts after it (``メールはtaro@example.jp``
      is ``taro@example.jp``).  §3.5.1 takes both into the link, which is
      right for a path that really holds them; off by default (D102).
    * ``bare_ipv4``: link an IPv4 address without a scheme when a port or a
      path follows (``192.168.0.1:8080``, ``10.0.0.1/admin``); off by default.
    * ``bare_localhost``: link ``localhost:PORT`` without a scheme.
    * ``single_label_hosts``: link a host of one label after a scheme
      (``http://intranet/``).
    * ``unicode_version``: of the property data (:func:`uts58.unicode.properties.available_versions`).

    Wrong types raise TypeError naming the option, wrong values
    :class:`uts58.OptionError` (a scheme never linked) or
    :class:`uts58.TLDListError`.  The sets are kept normalized: schemes
    lower case without ``mailto``, TLDs as A-labels, file extensions lower
    case without a dot.

    >>> finder = Finder(schemes={"https", "ssh"}, known_tlds={"corp", "com"})
    >>> [link.text for link in finder.find_links("ssh://git@intranet.corp/x.git, ftp://example.com, a.corp")]
    ['ssh://git@intranet.corp/x.git', 'a.corp']
    >>> finder == Finder(schemes=["SSH", "https"], known_tlds=[".COM", "corp"])
    True
    """

    urls: bool
    emails: bool
    schemes: frozenset[str]
    require_scheme: bool
    known_tlds: frozenset[str] | None
    bare_ipv4: bool
    bare_localhost: bool
    single_label_hosts: bool
    file_extensions: frozenset[str]
    unicode_version: str
    file_names: bool
    bare_domains: bool
    cjk_prose: bool
    cjk_boundary: bool
    if TYPE_CHECKING:
        # What _fill compiles from the options (no dataclass field: neither
        # compared, hashed, shown nor pickled).
        _plan: Plan

    def __init__(
        self,
        *,
        urls: bool = True,
        emails: bool = True,
        schemes: Iterable[str] = DEFAULT_SCHEMES,
        require_scheme: bool = False,
        known_tlds: Iterable[str] | None = None,
        bare_ipv4: bool = False,
        bare_localhost: bool = False,
        single_label_hosts: bool = False,
        file_extensions: Iterable[str] | None = None,
        unicode_version: str = DEFAULT_UNICODE_VERSION,
        file_names: bool = True,
        bare_domains: bool = True,
        cjk_prose: bool = False,
        cjk_boundary: bool = False,
    ) -> None:
        _fill(self, FINDER_OPTIONS.checked(locals()))  # (the signature's names are the table's: D136)

    def __reduce__(self) -> tuple[Any, ...]:
        # The options only: what they make is built again where it arrives.
        return _restore, (tuple(getattr(self, name) for name in FINDER_OPTIONS.names),)

    def __repr__(self) -> str:
        changed = FINDER_OPTIONS.changed({name: getattr(self, name) for name in FINDER_OPTIONS.names})
        shown = (
            f"{name}={tuple(sorted(value)) if isinstance(value, frozenset) else value!r}"
            for name, value in changed.items()
        )
        return f"Finder({', '.join(shown)})"

    @classmethod
    def preset(cls, name: str, **changes: Unpack[FinderOptions]) -> Finder:
        """A finder of a named option set (:data:`PRESETS`), with ``changes``:
        ``"technical"`` (every TLD that is also a file extension needs a
        scheme, ``www.`` or a path: change logs, code review, D97),
        ``"gfm"`` (GitHub's autolinks: a scheme or ``www.``, and emails),
        ``"all"`` (no file-name judgement).

        >>> [link.text for link in Finder.preset("gfm").find_links("www.a.com, b.com, c@d.com")]
        ['www.a.com', 'c@d.com']
        """
        if not isinstance(name, str):
            raise TypeError(f"name must be str, not {type(name).__name__}")
        if name not in PRESETS:
            raise OptionError(f"preset: {name!r} is not one of {', '.join(sorted(PRESETS))}", option="preset")
        FINDER_OPTIONS.refuse_unknown(changes, "preset")
        return cls(**{**PRESETS[name], **changes})

    @property
    def plan(self) -> Plan:
        """What this finder compiled from its options, as the scanner reads it."""
        return self._plan

    @property
    def tlds(self) -> frozenset[str]:
        """The TLDs accepted without a scheme: ``known_tlds``, or the default set."""
        return self._plan.rules.tlds

    def with_options(self, **changes: Unpack[FinderOptions]) -> Finder:
        """A finder with some options changed: ``finder.with_options(bare_ipv4=True)``."""
        current: dict[str, Any] = {name: getattr(self, name) for name in FINDER_OPTIONS.names}
        if "preset" in changes:
            # (the preset's options over the current ones, then the other changes)
            preset = changes.pop("preset")
            if not isinstance(preset, str) or preset not in PRESETS:
                Finder.preset(preset)  # (its TypeError or OptionError)
            current.update(PRESETS[preset])
        FINDER_OPTIONS.refuse_unknown(changes, "with_options")
        return Finder(**{**current, **changes})

    def find_links(self, text: str) -> Iterator[Link]:
        """The URLs and email addresses in ``text``, in order, never
        overlapping (of the kinds ``urls`` and ``emails`` ask for)."""
        if type(text) is not str:
            check_str(text, "text")  # (a str subclass passes)
        first = self._plan.candidate.search(text)
        if first is None:
            return _NO_LINKS  # (issue 14: a text with no candidate costs one scan, no scanner)
        return _Scanner(text, self._plan, self, _link_of).links(self.urls, self.emails, first)

    def find_urls(self, text: str) -> Iterator[Link]:
        """:meth:`find_links`, URLs only."""
        check_str(text, "text")
        return _Scanner(text, self._plan, self, _link_of).links(self.urls, False)

    def find_emails(self, text: str) -> Iterator[Link]:
        """:meth:`find_links`, email addresses only."""
        check_str(text, "text")
        return _Scanner(text, self._plan, self, _link_of).links(False, self.emails)

    def spans(self, text: str) -> Iterator[Span]:
        """:meth:`find_links` as ``(start, end, kind)`` only: no :class:`Link` is made."""
        check_str(text, "text")  # (here, at the call: the loop below runs at the first next())
        places = _Scanner(text, self._plan, self, _place_of).links(self.urls, self.emails)
        return (Span(p.start, p.end, p.kind) for p in places)

    def has_links(self, text: str) -> bool:
        """Whether :meth:`find_links` finds a link: the scan stops at the first."""
        check_str(text, "text")
        return next(_Scanner(text, self._plan, self, _place_of).links(self.urls, self.emails), None) is not None

    def why_not(self, text: str) -> list[Refusal]:
        """The bare names of ``text`` this finder does not link for being
        files, identifiers, newsgroups or abbreviations, with the rules that
        refuse them (D97): :func:`why_not`.

        >>> Finder().why_not("see sci.space or onet.pl")
        [Refusal(text='sci.space', rule='newsgroup', decision='D97', reason='newsgroup name')]
        """
        return why_not(text, self)

    def records(self, text: object) -> list[dict[str, Any]]:
        """The links of ``text`` as plain records (:meth:`Link.as_dict`:
        picklable, JSON- and Arrow-friendly); a value that is not a str (a
        missing value of a data frame: None, NaN) has none.  What Dask,
        PySpark, the process pool and the command line write (D66).

        >>> [r["href"] for r in Finder().records("see bücher.de")], Finder().records(None)
        (['https://xn--bcher-kva.de/'], [])
        """
        if not isinstance(text, str):
            return []
        return [link.as_dict() for link in self.find_links(text)]


def adjust_cjk_start(text: str, link: Link) -> Link | None:
    """UTS #58 §8: move the start of a scheme-less URL so that its host does
    not hold two adjacent characters of which one is ideographic or complex
    context (Line_Break ID, CJ, SA) and the other is not.  Returns the
    adjusted link, the same link when nothing moves, or None when what is
    left is not a valid domain (with the TLDs of ``link.finder``; a
    hand-built link's, D64, with the default TLDs).  What
    ``Finder(cjk_boundary=True)`` does to every link it finds (D107): for
    links found without it.

    >>> text = "ウェブサイトはexample.com です。"
    >>> adjust_cjk_start(text, next(find_links(text))).text
    'example.com'
    """
    if link.kind != "url" or link.scheme is not None:
        return link
    finder, version = link.finder, link.unicode_version
    rules = domain_rules(default_tlds(), version) if finder is None else finder._plan.rules
    start, host = cjk_boundary_host(text, link.start, link.end, link.host, version, rules)
    if host is None:
        return None
    if start == link.start:
        return link
    if finder is not None:
        return _detected_link(finder, start, link.end, "url", text[start : link.end], None, host)
    return Link(
        start,
        link.end,
        "url",
        text[start : link.end],
        None,
        host.unicode,
        ascii_host=host.ascii,
        unicode_version=version,
    )


def _fill(finder: Finder, options: dict[str, Any]) -> None:
    """Set the (checked, normalized) options of ``finder`` and compile its
    plan: once per finder (an unpickled one too: it is constructed again)."""
    for name, value in options.items():
        object.__setattr__(finder, name, value)  # (a frozen dataclass: its __init__ alone sets fields)
    object.__setattr__(finder, "_plan", compile_plan(**options))


def _restore(values: tuple[Any, ...]) -> Finder:
    """Unpickling: the options go through the constructor's checks again (a
    crafted pickle may not name ``javascript`` among the schemes)."""
    names = FINDER_OPTIONS.names
    if not isinstance(values, tuple) or len(values) != len(names):
        raise TypeError(f"a pickled Finder holds {len(names)} options")
    return Finder(**dict(zip(names, values, strict=True)))


# Types whose values make a cache key as they are (a set or a list is
# copied into a Finder each call: it could change between calls).
_KEY_TYPES = frozenset({bool, str, type(None), tuple, frozenset})


@lru_cache(maxsize=64)
def _cached_finder(key: tuple[tuple[str, type, Any], ...]) -> Finder:
    return _new_finder({name: value for name, _, value in key})


def _new_finder(options: Mapping[str, Any]) -> Finder:
    """``Finder(**options)``, or ``Finder.preset(preset, **rest)`` when the
    options name a preset (D97)."""
    if "preset" in options:
        rest = {name: value for name, value in options.items() if name != "preset"}
        return Finder.preset(options["preset"], **rest)
    return Finder(**options)


def finder_for(options: Mapping[str, Any], caller: str = "find_links") -> Finder:
    """The Finder of keyword options (the sugar of :func:`find_links` and the
    adapters): built once per distinct options through a small bounded
    cache, so that a call with options costs what a call with a finder does.
    An unknown option is a TypeError naming it."""
    if not options:
        return _cached_finder(())  # (issue 14: the common call, without sorting or hashing a key)
    FINDER_OPTIONS.refuse_unknown(options, caller, also=("preset",))
    if all(type(value) in _KEY_TYPES for value in options.values()):
        # (the type is in the key: True and 1 are equal, but 1 is refused)
        key = tuple(sorted((name, type(value), value) for name, value in options.items()))
        try:
            hash(key)
        except TypeError:
            pass  # (a tuple holding a list)
        else:
            return _cached_finder(key)
    return _new_finder(options)


def resolve_finder(finder: object, options: Mapping[str, Any], caller: str) -> Finder:
    """``finder``, or the Finder of ``options`` when it is None.  Both at
    once is an OptionError (D62); a finder that is not one a TypeError."""
    if finder is None:
        return finder_for(options, caller)
    FINDER_OPTIONS.refuse_unknown(options, caller)
    return given_alone(finder, Finder, "finder", options, caller, "detection options")


class Refusal(NamedTuple):
    """A name :func:`why_not` finds unlinked: its text, the rule that refuses
    it (a name of :data:`uts58.detect.evidence.NAME_RULES` or
    :data:`uts58.detect.addresses.ADDRESS_RULES`, ``"bare domain"`` or
    ``"overlap"``), the decision the rule implements, and what it says."""

    text: str
    rule: str
    decision: str
    reason: str


# The refusals that are no rule of the evidence: the preset's, and a name
# inside a link the finder found (D20: never overlapping).
_BARE_DOMAIN = ("bare domain", "D97", "a bare domain: this finder links only names with a scheme or www. (gfm)")
_OVERLAP = ("overlap", "D20", "overlaps a link found")


def why_not(text: str, finder: Finder | None = None) -> list[Refusal]:
    """The bare names of ``text`` that ``finder`` (default: the default
    finder) does not link for being files, identifiers, newsgroups or
    abbreviations, each with the rule that refuses it (D97, D103; what
    ``uts58 check`` prints).

    >>> [(r.text, r.rule) for r in why_not("see README.md or onet.pl")]
    [('README.md', 'upper-case name')]
    >>> why_not("README.md")[0].reason
    'file name: upper-case letters under .md, a TLD that is also a file extension'
    """
    check_str(text, "text")
    finder = _cached_finder(()) if finder is None else finder
    if not isinstance(finder, Finder):
        raise TypeError(f"finder must be a uts58.Finder, not {type(finder).__name__}")
    loose = finder.with_options(file_extensions=(), file_names=False, bare_domains=True)
    kept = {(link.start, link.end) for link in finder.find_links(text)}
    out = []
    for link in loose.find_links(text):
        if (link.start, link.end) in kept or link.scheme is not None:
            continue
        why: tuple[str, str, str] | None = None
        if link.kind == "email":
            at = link.text.rfind("@") + link.start
            rule = address_rule(text, link.start, at, link.end, link.host.ascii) if finder.file_names else None
            why = None if rule is None else (rule.name, rule.decision, rule.reason)
        elif finder.file_names and placeholder(link.host.ascii):
            why = (PLACEHOLDER_RULE.name, PLACEHOLDER_RULE.decision, PLACEHOLDER_RULE.reason)
        elif not finder.bare_domains:
            why = _BARE_DOMAIN
        else:
            found = name_rule(
                text, link.start, link.end, link.host.ascii, finder.file_extensions, judge=finder.file_names
            )
            why = None if found is None else (found[0].name, found[0].decision, found[1])
        out.append(Refusal(link.text, *(why or _OVERLAP)))
    return out


def find_links(text: str, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Iterator[Link]:
    """Find the URLs and email addresses in ``text``, in order, never overlapping.

    ``finder``: a :class:`Finder`; or the options of one as keyword
    arguments (``urls``, ``emails``, ``schemes``, ``require_scheme``,
    ``known_tlds``, ``file_extensions``, ``bare_ipv4``, ``bare_localhost``,
    ``single_label_hosts``, ``unicode_version``: see :class:`Finder`), but
    not both (:class:`uts58.OptionError`).  Errors are raised at the call,
    not at the first link.

    >>> [link.text for link in find_links("Mail アルベルト@example.com or see https://ja.wikipedia.org/wiki/日本.")]
    ['アルベルト@example.com', 'https://ja.wikipedia.org/wiki/日本']
    >>> [link.text for link in find_links("ssh://git@example.com/x.git", schemes={"ssh"})]
    ['ssh://git@example.com/x.git']
    """
    if finder is None and not options:
        # (issue 14: the common call, one call per line of a text: the
        # default finder's candidate search straight away)
        default, scan = _DEFAULT_SCANS.get(c_module()) or _default_scan()
        if type(text) is not str:
            return default.find_links(text)  # (the TypeError, naming text)
        return first_links(text, default._plan, default, scan)
    check_str(text, "text")
    return resolve_finder(finder, options, "find_links").find_links(text)


# The default finder and its C scan (None with the Python kernels), per
# kernels in use: what find_links without options looks up at each call
# (issue 14: one call per line makes many calls).
_DEFAULT_SCANS: dict[object, tuple[Finder, Scan | None]] = {}


def first_links(text: str, plan: Plan, owner: Finder, scan: Scan | None) -> Iterator[Link]:
    """The links of ``text`` for a finder whose candidates need no options
    (find_links without options: issue 14, one call per line), with the
    scan's own first steps done here, before a scanner is made: the C scan
    to the first candidate Python must look at (D106), then past the runs
    that start no link as ``_Scanner._bare`` decides them first (D91);
    most lines with a candidate have only those (``file.txt``, ``1.2.3``)."""
    search = plan.candidate.search
    pos = floor = 0
    if scan is None or "\x1b" in text:
        scan = None  # (D100: terminal escapes are separators the C scan knows not)
        first = search(text)
    else:
        pos, floor, at = scan.skip(text, 0, 0)
        if at == len(text):
            return _NO_LINKS
        first = search(text, at)
    while first is not None and (
        passed_over(first)
        or (
            text[first.start()] in LABEL_SEPARATORS
            and _rejected_run(text, first.start(), first.end(), pos, plan.quick_tlds)
        )
    ):
        if not passed_over(first):
            pos = first.end()
        first = search(text, first.end())
    if first is None:
        return _NO_LINKS
    scanner = _Scanner(text, plan, owner, _link_of)
    if scan is not None:
        scanner.floor, scanner.scan = floor, scan
    return scanner.links(plan.urls, plan.emails, first, pos)


def _default_scan() -> tuple[Finder, Scan | None]:
    default = _cached_finder(())
    found = _DEFAULT_SCANS[c_module()] = (default, candidate_scan(default._plan.props, *default._plan.scan_args))
    return found


def find_urls(text: str, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Iterator[Link]:
    """:func:`find_links` reporting URLs only.

    >>> [link.text for link in find_urls("x@example.com, example.org/a")]
    ['example.org/a']
    """
    if "emails" in options:
        raise TypeError("find_urls() got an unexpected keyword argument 'emails'")
    check_str(text, "text")
    return resolve_finder(finder, options, "find_urls").find_urls(text)  # (the method: one loop, issue 24)


def find_emails(text: str, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Iterator[Link]:
    """:func:`find_links` reporting email addresses only.

    >>> [link.text for link in find_emails("x@example.com, example.org/a")]
    ['x@example.com']
    """
    if "urls" in options:
        raise TypeError("find_emails() got an unexpected keyword argument 'urls'")
    check_str(text, "text")
    return resolve_finder(finder, options, "find_emails").find_emails(text)


def spans(text: str, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Iterator[Span]:
    """The links of :func:`find_links` as ``(start, end, kind)`` tuples
    (:class:`Span`), without making :class:`Link` objects: what an editor
    or a tokenizer needs to mark or skip the links.  The same options.

    >>> text = "Mail x@example.com or see bücher.de."
    >>> [(text[start:end], kind) for start, end, kind in spans(text)]
    [('x@example.com', 'email'), ('bücher.de', 'url')]
    """
    check_str(text, "text")
    return resolve_finder(finder, options, "spans").spans(text)


def has_links(text: str, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> bool:
    """Whether ``text`` holds a link that :func:`find_links` would find,
    stopping at the first one (a moderation rule, a "contains links" flag).
    The same options.

    >>> has_links("see example.com"), has_links("see example.com", urls=False), has_links("x@example.com")
    (True, False, True)
    """
    check_str(text, "text")
    return resolve_finder(finder, options, "has_links").has_links(text)
