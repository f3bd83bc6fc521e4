"""Finding URLs and email addresses in plain text (UTS #58 §3 and §5).

A :class:`Finder` holds the detection options, checked once, and what they
make (the property tables, the domain rules, the candidate pattern);
:func:`find_links` is the same with the options as keyword arguments.

A finder scans the text once, left to right.  A compiled regular
expression jumps to the places where a link can be — ``://``, ``@``, or a
label separator followed by a label character — and only there does Python
look closer: the scheme, the host (:mod:`uts58.hosts`), the port, then
:func:`~uts58.termination.find_link_end` (§3.5.1) for URLs or the backward
scan of §5.2 for email addresses.  Every backward scan is bounded by the end
of what was already processed, so the whole pass is linear in the text.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypedDict, TypeVar

from ._checks import check_str
from ._kernels import Scan, candidate_scan, engine, speedups
from ._regex import char_class
from .caches import bounded
from .email import _find_email_start
from .errors import OptionError
from .evidence import (
    CODE_TLDS,
    PLACEHOLDER,
    address_evidence,
    evidence,
    message_id,
    message_id_unbracketed,
    placeholder,
)
from .formatting import SPECIAL_SCHEMES
from .hosts import (
    FILE_EXTENSION_TLDS,
    HOST_CACHE_NAME_LIMIT,
    HOST_CACHE_SIZE,
    LABEL_SEPARATORS,
    PATH_START,
    DomainRules,
    HostPatterns,
    default_tlds,
    domain_rules,
    host_patterns,
    host_span,
    normalize_tlds,
    run_start,
)
from .link import NO_HOST, Host, HostKind, Kind, Link, _host, link_forms, link_maker
from .properties import DEFAULT_UNICODE_VERSION, LinkProperties, link_properties
from .whatwg import ip_host, is_valid

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = [
    "DEFAULT_SCHEMES",
    "Finder",
    "FinderOptions",
    "Link",
    "Span",
    "find_emails",
    "find_links",
    "find_urls",
    "has_links",
    "spans",
    "why_not",
]

DEFAULT_SCHEMES = frozenset({"http", "https", "ftp"})
# Schemes that run code or read local files: never linked, whatever the caller asks.
FORBIDDEN_SCHEMES = frozenset({"javascript", "data", "vbscript", "file"})
_SCHEME_SYNTAX = re.compile(r"[a-z][a-z0-9+.\-]*")  # RFC 3986 §3.1

_PORT = re.compile(r":([0-9]{1,5})(?![0-9])")  # D21: 1-5 digits, at most 65535 (_port_end)
# What ends userinfo (besides a space and "@"); no host character is one of them.
_USERINFO_ENDS = frozenset("/?#\\[]")
_USERINFO = re.compile("[^\\s@" + re.escape("".join(sorted(_USERINFO_ENDS))) + "]*@")
_CIDR_SUFFIX = re.compile(r"/[0-9]{1,2}(?![0-9A-Za-z/._~%-])")
_DOTTED_QUAD = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9.])")
_MESSAGE_ID_HEADER = re.compile(r"(?i)(?:message-id|in-reply-to|references|content-id|resent-message-id):[ \t]*\Z")
_SEPARATOR_SPLIT = re.compile("([.\u3002\uff0e\uff61])")
_SEPARATOR = re.compile("[.\u3002\uff0e\uff61]")
_SCHEME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-."
_SCHEME_CHAR = frozenset(_SCHEME_CHARS)
# A scheme is a word of its own: no letter, digit, '+' or '-' just before it
# ("xhttp://" is not http); a '.' may be ("site.https://…" lacks a space).
_BEFORE_SCHEME = _SCHEME_CHAR - {"."}
# D51: characters of paths, file names, identifiers and markup that a
# scheme-less domain may not follow ("debian/rules.mk", "pam_unix.so",
# "Foo::Bar.pm", "WantedBy=multi-user.target", ":meth:`~os.path`").
_GLUED_BEFORE = frozenset("/\\@:=%$&#+~")
# ... nor run on into ("user.name=x"): the name goes on.
_GLUED_AFTER = frozenset("\\=$%")
_IDEOGRAPHIC_STOPS = "\u3002\uff61\uff0e"  # (the label separators beyond ASCII: the C scan's view of them)
_IDEOGRAPHIC_STOP = re.compile("[" + _IDEOGRAPHIC_STOPS + "]")
_CJK_RANGES = (
    *((0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3040, 0x30FF), (0x3100, 0x318F), (0x31A0, 0x31FF)),
    *((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF)),
    *((0xFF66, 0xFFDC), (0x20000, 0x3FFFF)),
)
_CJK = re.compile(char_class(list(_CJK_RANGES)))
# D102: ideographic and fullwidth clause and sentence punctuation before a CJK character.
_CJK_CLAUSE_END = re.compile("[\u3001\u3002\uff0c\uff01\uff1f\uff1b\uff1a](?=" + char_class(list(_CJK_RANGES)) + ")")
_CJK_RUN_END = re.compile(char_class(list(_CJK_RANGES)) + "+(?=[\\x21-\\x7e]+\\Z)")
# The characters the C scan decides with (_kernels.candidate_scan), by the
# names of its classes: the sets above, given as the kernels are given
# their tables, so that C has no character of its own (issue 24).
_SCAN_CLASSES = (
    ("scheme", _SCHEME_CHARS),
    ("before_scheme", "".join(sorted(_BEFORE_SCHEME))),
    ("userinfo_end", "".join(sorted(_USERINFO_ENDS))),
    ("path_start", PATH_START),
    ("ip_open", "["),  # (an IPv6 literal after "://": ip_host)
    ("message_id_close", ">"),  # (D55: _message_id)
    ("at", "@"),
    ("colon", ":"),
    ("slash", "/"),
)
# (and the label separators: the ASCII one splits labels, the others are D22's stops)
assert set(LABEL_SEPARATORS) - set(_IDEOGRAPHIC_STOPS) == {"."} and set(_IDEOGRAPHIC_STOPS) < set(LABEL_SEPARATORS)


def _after_cjk(text: str, start: int, at: int) -> int:
    """D102: where a local-part ``text[start:at]`` that starts with CJK
    characters and ends in ASCII starts when CJK prose is glued before it
    (``メールはtaro`` is ``taro``); ``start`` when it is not that shape
    (``アルベルト`` is one name)."""
    m = _CJK_RUN_END.match(text, start, at)
    return m.end() if m is not None else start


class Span(NamedTuple):
    """Where a link is, and its kind: what :func:`spans` gives, without
    the :class:`Link` (its text, host, href, display)."""

    start: int
    end: int
    kind: Kind


class _Found(Protocol):
    """What the scanner makes of a link: a :class:`Link`, or for
    :func:`spans` a :class:`_Place` (the same fields, nothing built)."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def scheme(self) -> str | None: ...


class _Place(NamedTuple):
    start: int
    end: int
    kind: Kind
    scheme: str | None


_T = TypeVar("_T", bound=_Found)


class DetectionOptions(TypedDict, total=False):
    """The detection options that every entry point takes as keyword
    arguments, for type checkers (a misspelt option is an error)."""

    schemes: Iterable[str]
    require_scheme: bool
    known_tlds: Iterable[str] | None
    bare_ipv4: bool
    bare_localhost: bool
    single_label_hosts: bool
    unicode_version: str


class FinderOptions(DetectionOptions, total=False):
    """The keyword arguments of :func:`find_links` (and of :class:`Finder`),
    for type checkers: a misspelt option is an error (``requires_scheme=``)."""

    urls: bool
    emails: bool
    file_extensions: Iterable[str] | None
    file_names: bool
    bare_domains: bool
    cjk_prose: bool
    preset: str


OPTION_NAMES = (
    "urls",
    "emails",
    "schemes",
    "require_scheme",
    "known_tlds",
    "bare_ipv4",
    "bare_localhost",
    "single_label_hosts",
    "file_extensions",
    "unicode_version",
    "file_names",
    "bare_domains",
    "cjk_prose",
)
_FLAGS = (
    "urls",
    "emails",
    "require_scheme",
    "bare_ipv4",
    "bare_localhost",
    "single_label_hosts",
    "file_names",
    "bare_domains",
    "cjk_prose",
)
# Named option sets (D97): Finder.preset(name).
PRESETS: dict[str, dict[str, Any]] = {
    # Technical text (change logs, code review, manuals): every TLD that is
    # also a common file extension needs a scheme, "www." or a path (D56).
    "technical": {"file_extensions": FILE_EXTENSION_TLDS},
    # GitHub-flavoured Markdown's autolinks: URLs with a scheme, names
    # starting "www.", and email addresses; no other bare domain.
    "gfm": {"bare_domains": False},
    # Everything UTS #58 and the TLD set accept: no file-name judgement.
    "all": {"file_extensions": (), "file_names": False},
}


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
      set (see :mod:`uts58.tlds`) for domains written without a scheme;
      after a scheme any TLD of TLD syntax is accepted.
    * ``file_extensions``: TLDs that a domain written without a scheme,
      ``www.``, a path or a public suffix of more than one label may not
      have, because its names are files or code in every kind of text
      (``main.py``, ``network.target``; default
      :data:`uts58.evidence.CODE_TLDS`; ``()`` for none; D97).
    * ``file_names``: judge every other name written without a scheme,
      ``www.`` or a path by what the text shows (``README.md``,
      ``config.h.in``, ``pam_unix.so``, ``sci.space`` are not hosts;
      ``onet.pl``, ``flipkart.in`` are): :func:`uts58.evidence.evidence`,
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
    * ``unicode_version``: of the property data (:func:`uts58.properties.available_versions`).

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
    if TYPE_CHECKING:
        # What _fill builds from the options (no dataclass fields: neither
        # compared, hashed, shown nor pickled).
        _props: LinkProperties
        _rules: DomainRules
        _patterns: HostPatterns
        _candidate: re.Pattern[str]
        _scheme_lengths: tuple[int, ...]
        _scan_args: tuple[
            tuple[str, ...],
            tuple[bool, ...],
            bool,
            tuple[tuple[int, int], ...],
            frozenset[str],
            bool,
            tuple[tuple[str, str], ...],
            str,
        ]
        _quick_tlds: frozenset[str] | None
        _hosts: Callable[[str, str, HostKind], Host]
        _schemed_hosts: Callable[[str], tuple[int, Host] | None]
        _link_forms: Callable[[Kind, str, str | None, Host, str], tuple[str, str]]

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
    ) -> None:
        flags = (
            *(urls, emails, require_scheme, bare_ipv4, bare_localhost, single_label_hosts),
            *(file_names, bare_domains, cjk_prose),
        )
        for name, flag in zip(_FLAGS, flags, strict=True):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be bool, not {type(flag).__name__}")
        wanted = _scheme_set(schemes)
        tlds = None if known_tlds is None else normalize_tlds(known_tlds)
        props = link_properties(unicode_version)
        extensions = CODE_TLDS if file_extensions is None else file_extension_set(file_extensions)
        values = (*flags[:2], wanted, require_scheme, tlds, *flags[3:6], extensions, props.version, *flags[6:])
        _fill(self, values)

    def __reduce__(self) -> tuple[Any, ...]:
        # The options only: what they make is built again where it arrives.
        return _restore, (tuple(getattr(self, name) for name in OPTION_NAMES),)

    def __repr__(self) -> str:
        changed = []
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if value != _DEFAULTS.get(name):
                shown = tuple(sorted(value)) if isinstance(value, frozenset) else value
                changed.append(f"{name}={shown!r}")
        return f"Finder({', '.join(changed)})"

    @classmethod
    def preset(cls, name: str, **changes: Unpack[FinderOptions]) -> Finder:
        """A finder of a named option set (:data:`PRESETS`), with ``changes``:
        ``"technical"`` (every TLD that is also a file extension needs a
        scheme, ``www.`` or a path: change logs, code review, D56),
        ``"gfm"`` (GitHub's autolinks: a scheme or ``www.``, and emails),
        ``"all"`` (no file-name judgement).

        >>> [link.text for link in Finder.preset("gfm").find_links("www.a.com, b.com, c@d.com")]
        ['www.a.com', 'c@d.com']
        """
        if not isinstance(name, str):
            raise TypeError(f"name must be str, not {type(name).__name__}")
        if name not in PRESETS:
            raise OptionError(f"preset: {name!r} is not one of {', '.join(sorted(PRESETS))}")
        _check_names(changes, "preset")
        return cls(**{**PRESETS[name], **changes})

    @property
    def tlds(self) -> frozenset[str]:
        """The TLDs accepted without a scheme: ``known_tlds``, or the default set."""
        return self._rules.tlds

    def with_options(self, **changes: Unpack[FinderOptions]) -> Finder:
        """A finder with some options changed: ``finder.with_options(bare_ipv4=True)``."""
        current: dict[str, Any] = {name: getattr(self, name) for name in OPTION_NAMES}
        if "preset" in changes:
            # (the preset's options over the current ones, then the other changes)
            preset = changes.pop("preset")
            if not isinstance(preset, str) or preset not in PRESETS:
                Finder.preset(preset)  # (its TypeError or OptionError)
            current.update(PRESETS[preset])
        _check_names(changes, "with_options")
        return Finder(**{**current, **changes})

    def find_links(self, text: str) -> Iterator[Link]:
        """The URLs and email addresses in ``text``, in order, never
        overlapping (of the kinds ``urls`` and ``emails`` ask for)."""
        if type(text) is not str:
            check_str(text, "text")  # (a str subclass passes)
        first = self._candidate.search(text)
        if first is None:
            return _NO_LINKS  # (issue 14: a text with no candidate costs one scan, no scanner)
        return _Scanner(text, self, _link_of).links(self.urls, self.emails, first)

    def find_urls(self, text: str) -> Iterator[Link]:
        """:meth:`find_links`, URLs only."""
        check_str(text, "text")
        return _Scanner(text, self, _link_of).links(self.urls, False)

    def find_emails(self, text: str) -> Iterator[Link]:
        """:meth:`find_links`, email addresses only."""
        check_str(text, "text")
        return _Scanner(text, self, _link_of).links(False, self.emails)

    def spans(self, text: str) -> Iterator[Span]:
        """:meth:`find_links` as ``(start, end, kind)`` only: no :class:`Link` is made."""
        check_str(text, "text")  # (here, at the call: the loop below runs at the first next())
        return (Span(p.start, p.end, p.kind) for p in _Scanner(text, self, _place_of).links(self.urls, self.emails))

    def has_links(self, text: str) -> bool:
        """Whether :meth:`find_links` finds a link: the scan stops at the first."""
        check_str(text, "text")
        return next(_Scanner(text, self, _place_of).links(self.urls, self.emails), None) is not None

    def why_not(self, text: str) -> list[tuple[str, str]]:
        """The bare names of ``text`` this finder does not link for being
        files, identifiers, newsgroups or abbreviations, with the reasons
        (D97): :func:`why_not`.

        >>> Finder().why_not("see sci.space or onet.pl")
        [('sci.space', 'newsgroup name')]
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
        return [link.as_dict() for link in _Scanner(text, self, _link_of).links(self.urls, self.emails)]


_DEFAULTS: dict[str, object] = {
    "urls": True,
    "emails": True,
    "schemes": DEFAULT_SCHEMES,
    "require_scheme": False,
    "known_tlds": None,
    "bare_ipv4": False,
    "bare_localhost": False,
    "single_label_hosts": False,
    "file_extensions": CODE_TLDS,
    "unicode_version": DEFAULT_UNICODE_VERSION,
    "file_names": True,
    "bare_domains": True,
    "cjk_prose": False,
}


def _fill(finder: Finder, values: tuple[Any, ...]) -> None:
    """Set the (checked, normalized) options of ``finder`` and build what
    they make: once per finder (an unpickled one too: it is constructed again)."""
    for name, value in zip(OPTION_NAMES, values, strict=True):
        object.__setattr__(finder, name, value)
    props = link_properties(finder.unicode_version)
    tlds = default_tlds() if finder.known_tlds is None else finder.known_tlds
    patterns = host_patterns(props)
    opaque = tuple(sorted(finder.schemes - SPECIAL_SCHEMES))
    derived = {
        "_props": props,
        "_rules": domain_rules(tlds, props.version),
        "_patterns": patterns,
        "_candidate": _candidate_pattern(patterns, opaque, finder.bare_localhost, finder.single_label_hosts),
        "_scheme_lengths": tuple(sorted({len(scheme) for scheme in finder.schemes}, reverse=True)),
        # The C parts of the scan (_kernels.candidate_scan): the schemes longest
        # first, which are special, whether the pattern matches names before
        # ":" (opaque schemes, localhost); the CJK characters of D22; the TLDs
        # and whether D91 applies (the candidates refused at a first look, D106).
        "_scan_args": (
            longest_first := tuple(sorted(finder.schemes, key=lambda s: (-len(s), s))),
            tuple(scheme in SPECIAL_SCHEMES for scheme in longest_first),
            bool(opaque) or finder.bare_localhost,
            _CJK_RANGES,
            tlds,
            not finder.bare_ipv4,
            _SCAN_CLASSES,
            LABEL_SEPARATORS,
        ),
        # D91: the TLDs of the quick rejection of a run whose last label is no
        # TLD; None with bare_ipv4 (a dotted quad ends in digits and is linked).
        "_quick_tlds": None if finder.bare_ipv4 else tlds,
        # The Host of each (Unicode form, A-label form, kind): hosts repeat,
        # and a Host is immutable (D93: bounded as the host caches are).
        "_hosts": bounded(HOST_CACHE_SIZE, "hosts")(_host),
        # The href and display of each link (D95): link texts repeat in real
        # text (80% of the links of the bench corpus are repeats).
        "_link_forms": bounded(HOST_CACHE_SIZE, "link forms")(link_forms),
        # The host after "://" of each run of host characters (_schemed_host).
        "_schemed_hosts": bounded(HOST_CACHE_SIZE, "schemed hosts")(
            partial(_schemed_host, patterns, domain_rules(tlds, props.version), finder.single_label_hosts)
        ),
    }
    for name, value in derived.items():
        object.__setattr__(finder, name, value)


def _restore(values: tuple[Any, ...]) -> Finder:
    """Unpickling: the options go through the constructor's checks again (a
    crafted pickle may not name ``javascript`` among the schemes)."""
    # (a finder pickled before issue 22 holds the first 10: the options added
    # since are at the end, and take their defaults)
    if not isinstance(values, tuple) or len(values) not in (10, len(OPTION_NAMES)):
        raise TypeError(f"a pickled Finder holds {len(OPTION_NAMES)} options")
    return Finder(**dict(zip(OPTION_NAMES[: len(values)], values, strict=True)))


def _scheme_set(schemes: object) -> frozenset[str]:
    """``schemes`` checked (TypeError; OptionError for a scheme that is not a
    scheme or is never linked), lower case, without ``mailto``."""
    if isinstance(schemes, str) or not isinstance(schemes, Iterable):
        raise TypeError(f"schemes must be an iterable of str, not {type(schemes).__name__}")
    wanted = frozenset(check_str(s, "schemes[]").lower().removesuffix(":") for s in schemes)
    bad = sorted(s for s in wanted if not _SCHEME_SYNTAX.fullmatch(s))
    if bad:
        raise OptionError(f"schemes: {bad} are not URL schemes (a letter, then letters, digits, '+', '-' or '.')")
    if wanted & FORBIDDEN_SCHEMES:
        raise OptionError(
            f"schemes: {sorted(wanted & FORBIDDEN_SCHEMES)} are never linked (they run code or read local files)"
        )
    return wanted - {"mailto"}  # mailto: goes with email addresses, always


def _check_names(options: Mapping[str, object], caller: str) -> None:
    for name in options:
        if name not in _DEFAULTS:
            raise TypeError(f"{caller}() got an unexpected keyword argument {name!r}")


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
    _check_names({name: None for name in options if name != "preset"}, caller)
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
    _check_names(options, caller)
    if not isinstance(finder, Finder):
        raise TypeError(f"finder must be a uts58.Finder, not {type(finder).__name__}")
    if options:
        raise OptionError(
            f"{caller}: give a finder or detection options, not both "
            f"(got finder= and {', '.join(sorted(options))}); use finder.with_options(...)"
        )
    return finder


def why_not(text: str, finder: Finder | None = None) -> list[tuple[str, str]]:
    """The bare names of ``text`` that ``finder`` (default: the default
    finder) does not link for being files, identifiers, newsgroups or
    abbreviations, each with the reason (D97; what ``uts58 check`` prints).

    >>> why_not("see README.md or onet.pl")
    [('README.md', 'file name: upper-case letters under .md, a TLD that is also a file extension')]
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
        why: str | None = None
        if link.kind == "email":
            at = link.text.rfind("@") + link.start
            if finder.file_names:
                why = address_evidence(text, link.start, at, link.end, link.host.ascii)
        elif finder.file_names and placeholder(link.host.ascii):
            why = PLACEHOLDER
        elif not finder.bare_domains:
            why = "a bare domain: this finder links only names with a scheme or www. (gfm)"
        else:
            why = evidence(text, link.start, link.end, link.host.ascii, finder.file_extensions, judge=finder.file_names)
        out.append((link.text, why or "overlaps a link found"))
    return out


_PREFILTER = re.compile("[.@\u3002\uff0e\uff61]|://")
_PREFILTER_COLON = re.compile("[.@:\u3002\uff0e\uff61]")


def prefilter(schemes: Iterable[str], bare_localhost: bool = False) -> re.Pattern[str]:
    """A pattern that finds something in every text that may hold a link
    under these options (for adapters that skip text cheaply): a label
    separator, ``@`` or ``://`` (``http://localhost/``), and any ``:`` when
    a scheme without ``//`` or ``localhost:PORT`` may be linked
    (``tel:123`` has none of the others)."""
    if bare_localhost or any(s.lower() not in SPECIAL_SCHEMES for s in schemes):
        return _PREFILTER_COLON
    return _PREFILTER


def file_extension_set(names: object) -> frozenset[str]:
    """``file_extensions`` checked and normalized (lower case, no dot)."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise TypeError(f"file_extensions must be an iterable of str, not {type(names).__name__}")
    return frozenset(check_str(name, "file_extensions[]").lower().lstrip(".") for name in names)


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
        default, scan = _DEFAULT_SCANS.get(speedups()) or _default_scan()
        if type(text) is not str:
            return default.find_links(text)  # (the TypeError, naming text)
        search = default._candidate.search
        pos = floor = 0
        if scan is None or "\x1b" in text:
            scan = None  # (D100: terminal escapes are separators the C scan knows not)
            first = search(text)
        else:
            # (the C scan to the first candidate Python must look at: cheaper
            # than the regex's set-up on a short text, and it passes over
            # what Python would refuse at a first look, D106)
            pos, floor, at = scan.skip(text, 0, 0)
            if at == len(text):
                return _NO_LINKS
            first = search(text, at)
        # (Runs of host characters that start no link, decided as _bare
        # decides them first, are passed here: most lines with a candidate
        # have only those, "file.txt", "1.2.3", and need no scanner.)
        while first is not None and (
            first.lastindex is not None
            or (
                text[first.start()] in LABEL_SEPARATORS
                and _rejected_run(text, first.start(), first.end(), pos, default._quick_tlds)
            )
        ):
            if first.lastindex is None:
                pos = first.end()
            first = search(text, first.end())
        if first is None:
            return _NO_LINKS
        scanner = _Scanner(text, default, _link_of)
        if scan is not None:
            scanner.floor, scanner.scan = floor, scan
        return scanner.links(default.urls, default.emails, first, pos)
    check_str(text, "text")
    return resolve_finder(finder, options, "find_links").find_links(text)


# The default finder and its C scan (None with the Python kernels), per
# kernels in use: what find_links without options looks up at each call
# (issue 14: one call per line makes many calls).
_DEFAULT_SCANS: dict[object, tuple[Finder, Scan | None]] = {}


def _default_scan() -> tuple[Finder, Scan | None]:
    default = _cached_finder(())
    found = _DEFAULT_SCANS[speedups()] = (default, candidate_scan(default._props, *default._scan_args))
    return found


def find_urls(text: str, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Iterator[Link]:
    """:func:`find_links` reporting URLs only.

    >>> [link.text for link in find_urls("x@example.com, example.org/a")]
    ['example.org/a']
    """
    if "emails" in options:
        raise TypeError("find_urls() got an unexpected keyword argument 'emails'")
    check_str(text, "text")
    found = resolve_finder(finder, options, "find_urls")
    return _Scanner(text, found, _link_of).links(found.urls, False)


def find_emails(text: str, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Iterator[Link]:
    """:func:`find_links` reporting email addresses only.

    >>> [link.text for link in find_emails("x@example.com, example.org/a")]
    ['x@example.com']
    """
    if "urls" in options:
        raise TypeError("find_emails() got an unexpected keyword argument 'urls'")
    check_str(text, "text")
    found = resolve_finder(finder, options, "find_emails")
    return _Scanner(text, found, _link_of).links(False, found.emails)


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


@lru_cache(maxsize=64)
def _candidate_pattern(
    patterns: HostPatterns, opaque: tuple[str, ...], localhost: bool, single_label: bool
) -> re.Pattern[str]:
    """The candidate pattern of :func:`host_patterns` with what the options
    add: ``scheme:`` of a scheme without ``//``, ``localhost:PORT``, ``://``
    before a host of one label."""
    alternatives = [patterns.candidate_source(patterns.label.pattern if single_label else "")]
    if opaque:
        names = "|".join(re.escape(name) for name in opaque)
        alternatives.append(f"(?<![A-Za-z0-9+\\-])(?i:{names}):(?!//)")
    if localhost:
        alternatives.append("(?i:localhost):(?=[0-9])")
    return re.compile("|".join(alternatives))


def _link_of(scanner: _Scanner[Link], start: int, end: int, kind: Kind, scheme: str | None, host: Host) -> Link:
    """The Link the scanner found (a link of its finder: see _detected_link)."""
    finder = scanner.finder
    new_link = scanner.new_link or scanner._link_maker()
    return new_link(start, end, kind, scanner.text[start:end], scheme, host, finder, finder.unicode_version, None, None)


def _place_of(scanner: _Scanner[_Place], start: int, end: int, kind: Kind, scheme: str | None, host: Host) -> _Place:
    return _Place(start, end, kind, scheme)


def _clauses(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """D22: ``text[s:e]`` cut at each ideographic full stop between a
    label of CJK text and an ASCII label: there it ends a clause, not a
    label (``…されています。info``, ``example.com。我爱你``)."""
    if _IDEOGRAPHIC_STOP.search(text, s, e) is None:
        return [(s, e)]
    pieces = _SEPARATOR_SPLIT.split(text[s:e])
    out: list[tuple[int, int]] = []
    start = k = s
    for j in range(1, len(pieces) - 1, 2):
        k += len(pieces[j - 1])
        before, after = pieces[j - 1], pieces[j + 1]
        if (
            pieces[j] in _IDEOGRAPHIC_STOPS
            and before
            and after
            and ((before.isascii() and _CJK.search(after)) or (after.isascii() and _CJK.search(before)))
        ):
            out.append((start, k))
            start = k + 1
        k += 1
    out.append((start, e))
    return out


def _schemed_host(patterns: HostPatterns, rules: DomainRules, single_label: bool, key: str) -> tuple[int, Host] | None:
    """The host at the start of ``key``: the run of host characters after
    ``://`` (or after a user name) and the one character after it, if any:
    (its end in ``key``, its Host), or None.  A function of ``key`` alone
    (host_span reads no further: the character after the run says whether a
    path, query or port follows, D52), remembered per finder (issue 14)."""
    e = patterns.run_end.match(key).end()  # type: ignore[union-attr]  # (matches "")
    if _IDEOGRAPHIC_STOP.search(key, 0, e) is not None:
        e = _clauses(key, 0, e)[0][1]
    found = host_span(key, 0, e, rules, schemed=True, single_label=single_label)
    if found is None:
        return None
    host_end, ascii_host, unicode_host = found
    return host_end, _host(unicode_host, ascii_host, _schemed_kind(ascii_host))


def _ends_without_tld(name: str, tlds: frozenset[str]) -> bool:
    """D91: the last label of ``name`` (host characters; trailing separators
    ignored) is ASCII and none of ``tlds``: no UTS #46 mapping can make it one."""
    name = name.rstrip(LABEL_SEPARATORS)
    last = name[name.rfind(".") + 1 :]
    return last.isascii() and last.lower() not in tlds


def _rejected_run(text: str, at: int, e: int, lo: int, tlds: frozenset[str] | None) -> bool:
    """The run of host characters that ends at ``e``, with a label separator
    at ``at``, starts no link, as decided before looking back for its start
    (from ``lo``, where the search resumed): it is one supplementary
    character that is no label character, or a local-part (the "@" after it
    decides); or (D91, with ``tlds``: a bare domain ends with one of them) a
    last label of ASCII that is none ("file.c", "1.2.3", "e.g.") ends it and
    no ideographic full stop may cut it into clauses (D22)."""
    if e == at + 1 or (e < len(text) and text[e] == "@"):
        return True
    return tlds is not None and _ends_without_tld(text[at:e], tlds) and _IDEOGRAPHIC_STOP.search(text, lo, e) is None


def _no_bare_domain(name: str, tlds: frozenset[str]) -> bool:
    """D91: ``name``, one clause of a run (D22), holds no domain without a
    scheme: it has one label (bare_ipv4 aside, a bare host has two), or it ends
    without a TLD and holds no ideographic full stop that could cut it."""
    name = name.rstrip(LABEL_SEPARATORS)
    if _SEPARATOR.search(name) is None:
        return True
    return _ends_without_tld(name, tlds) and _IDEOGRAPHIC_STOP.search(name) is None


# What a text without a candidate has: an iterator that is exhausted, shared
# (it has no state left to change).
_NO_LINKS: Iterator[Any] = iter(())
_NO_PIECES: tuple[tuple[int, int], ...] = ()  # (the pieces of no run)


class _Scanner(Generic[_T]):
    """One left-to-right pass over a text.

    Each handler looks at one candidate and returns ``(link, resume)``:
    the link found (or None) and the offset where the search goes on.
    ``self.floor`` is the end of the last link or of a region that must not
    be linked (an invalid email's domain, a URL of a scheme not enabled):
    no link may start before it.
    """

    __slots__ = (
        "escapes",
        "finder",
        "floor",
        "host_run",
        "hosts",
        "link_end",
        "make",
        "message_id_end",
        "new_link",
        "props",
        "quick_tlds",
        "rules",
        "run_end",
        "run_pieces",
        "scan",
        "text",
    )

    def __init__(
        self, text: str, finder: Finder, make: Callable[[_Scanner[_T], int, int, Kind, str | None, Host], _T]
    ) -> None:
        # (Few attributes, in slots: one scanner is made per text with a
        # candidate, and one call per line makes many; issue 14.)
        self.text = text
        self.make = make  # a Link, or only its place (spans)
        self.finder = finder  # (its options, and what they make)
        self.props = finder._props
        self.rules = finder._rules
        self.quick_tlds = finder._quick_tlds
        self.hosts = finder._hosts
        self.host_run = finder._patterns.run_end.match  # (.end(): the end of the host characters from i)
        self.floor = 0
        # The run of label characters last split into pieces, and its pieces
        # not yet looked at (see _bare).
        self.run_end = 0
        self.run_pieces: Sequence[tuple[int, int]] = _NO_PIECES
        self.message_id_end = 0  # after the ">" of the last Message-ID (D55)
        self.link_end: Callable[[str, int, bool], int] | None = None  # (§3.5.1 by the kernels in use)
        # D100: terminal escape sequences are separators; the C scan knows
        # none (a text with an ESC is scanned in Python alone).
        self.escapes = "\x1b" in text
        self.scan: Scan | bool | None = None if self.escapes else False  # (the C parts; False: not looked up yet)
        self.new_link: Callable[..., Link] | None = None  # (link_maker(), looked up when first needed)

    def links(self, urls: bool, emails: bool, first: re.Match[str] | None = None, pos: int = 0) -> Iterator[_T]:
        """The links, in order; ``first``: the first candidate, if already
        found, from ``pos`` (where the search resumed before it)."""
        text = self.text
        search = self.finder._candidate.search
        require_scheme = self.finder.require_scheme
        scan = self.scan if self.scan is not False else self._c_scan()
        m: re.Match[str] | None
        if first is not None:
            m = first
        elif scan is None:
            m = search(text, pos)
        else:
            pos, self.floor, at = scan.skip(text, pos, self.floor)  # type: ignore[union-attr]  # (D106)
            m = search(text, at)
        while m is not None:
            if m.lastindex is not None:
                m = search(text, m.end())  # ("....", "@@@@": a run with no candidate in it; pos stays)
                continue
            at = m.start()
            first_char = text[at]
            if first_char in LABEL_SEPARATORS:
                link, pos = self._bare(at, pos, m.end())  # (the match ends where the run does)
            elif first_char == "@":
                link, pos = self._email(at)
            elif first_char == ":":
                link, pos = self._schemed(at)  # ("://")
            else:
                found = m.group()  # ("localhost:", or "scheme:" of a scheme without "//")
                link, pos = self._localhost(at) if found.lower() == "localhost:" else self._opaque(at, found)
            if link is not None:
                self.floor = link.end
                if (urls and not (require_scheme and link.scheme is None)) if link.kind == "url" else emails:
                    yield link
            if scan is None or pos < self.run_end:
                m = search(text, pos)  # (no C scan, or inside a run already split)
            else:
                # What C passes over (a "scheme://" token not linked, D53, D20:
                # "a://b)a://b)…"; D106: the candidates refused at a first look,
                # "a@a.aa", "x.zz"), and where the search begins.
                pos, self.floor, at = scan.skip(text, pos, self.floor)  # type: ignore[union-attr]
                m = search(text, at)

    # -- helpers -------------------------------------------------------

    def _run_end(self, i: int) -> int:
        return self.host_run(self.text, i).end()  # type: ignore[union-attr]  # (matches "")

    def _port_end(self, i: int) -> int:
        m = _PORT.match(self.text, i)
        return m.end() if m is not None and int(m.group(1)) <= 65535 else i

    def _url(self, start: int, host_end: int, host: Host, scheme: str | None) -> _T:
        text = self.text
        path_start = self._port_end(host_end) if text[host_end : host_end + 1] == ":" else host_end
        end = (self.link_end or self._kernel())(text, path_start, False)
        if self.finder.cjk_prose and end > path_start:
            m = _CJK_CLAUSE_END.search(text, path_start, end)  # D102: "…/東京を見てください。メールは…"
            if m is not None:
                # (§3.5.1 again on the path that ends there: a closing quote
                # or a Soft character before the punctuation stays outside;
                # §3.5.1 reads nothing before its start, so the path alone)
                end = path_start + (self.link_end or self._kernel())(text[path_start : m.start()], 0, False)
        return self.make(self, start, end, "url", scheme, host)

    def _kernel(self) -> Callable[[str, int, bool], int]:
        """§3.5.1 by the kernels in use, looked up once per scan (issue 14)."""
        self.link_end = engine(self.props).find_link_end
        return self.link_end

    def _link_maker(self) -> Callable[..., Link]:
        self.new_link = link_maker()
        return self.new_link

    def _c_scan(self) -> Scan | None:
        """The C parts of the scan (D96), or None (the Python kernels), looked
        up once per scan, when first needed."""
        self.scan = candidate_scan(self.props, *self.finder._scan_args)
        return self.scan

    def _link(self, start: int, end: int, kind: Kind, scheme: str | None, host: Host) -> _T:
        return self.make(self, start, end, kind, scheme, host)

    def _body_end(self, i: int) -> int:
        """Where §3.5.1 ends ``text[i:]`` read as a path: the end of an opaque
        URL's body, or of what follows the ``://`` of a URL not linked."""
        text = self.text
        if i >= len(text):
            return i
        return (self.link_end or self._kernel())(text, i, text[i] not in PATH_START)

    def _skip(self, i: int) -> tuple[None, int]:
        """D53: a scheme-like token that is not linked is left alone whole:
        no piece of its userinfo, host or path is linked either."""
        text = self.text  # (_body_end inlined: this is the path of hostile "a://b)a://b)…")
        end = (self.link_end or self._kernel())(text, i, text[i] not in PATH_START) if i < len(text) else i
        if end > self.floor:
            self.floor = end
        return None, end

    def _glued_before(self, i: int) -> bool:
        """D51: ``text[i - 1]`` is a character of a path, file name or
        identifier, so that a name starting at ``i`` continues a word."""
        if i <= 0:
            return False
        ch = self.text[i - 1]
        if ch.isspace():
            return False  # (the common case)
        if ch == "_":
            # "pam_unix.so" is one identifier, "…._openpgpkey.example.org" a DNS
            # service label (D97); "_example.com_" is emphasis.
            return i >= 2 and (self.text[i - 2].isalnum() or self.text[i - 2] == ".")
        if self._escape_ends_at(i):
            return False  # D100: "\x1b[1m" ends with a letter, and is no word
        return ch in _GLUED_BEFORE or ch.isalnum() or unicodedata.category(ch)[0] == "M"

    def _escape_ends_at(self, i: int) -> bool:
        """D100: a terminal control sequence ends right before ``i``."""
        return self.escapes and _csi_before(self.text, i) == i

    def _clauses(self, s: int, e: int) -> list[tuple[int, int]]:
        if _IDEOGRAPHIC_STOP.search(self.text, s, e) is None:
            return [(s, e)]  # (the common case, decided here)
        scan = self.scan if self.scan is not False else self._c_scan()
        return _clauses(self.text, s, e) if scan is None else scan.clauses(self.text, s, e)  # type: ignore[union-attr]

    # -- candidates ----------------------------------------------------

    def _schemed(self, at: int) -> tuple[_T | None, int]:
        """``://`` at ``at``: a URL with a scheme."""
        text = self.text
        h = at + 3
        if at == 0 or text[at - 1] not in _SCHEME_CHAR:
            return None, h  # "://" after no scheme
        start = None
        for n in self.finder._scheme_lengths:
            s = at - n
            if (
                s >= self.floor
                and (name := text[s:at]).isascii()  # (U+212A lowercases to "k": a URL parser takes no such scheme)
                and name.lower() in self.finder.schemes
                and (s == 0 or text[s - 1] not in _BEFORE_SCHEME or self._escape_ends_at(s))
            ):
                start = s
                break
        if start is None:
            return self._skip(h)  # another scheme (file://, foo://): D19, D53
        scheme = text[start:at]
        if text[h : h + 1] == "[":
            close = text.find("]", h, h + 64)
            ip = ip_host(text[h : close + 1]) if close > 0 else None
            if ip is None:
                return self._skip(h)
            link = self._url(start, close + 1, _host(ip, ip, "ipv6"), scheme)
            return link, link.end
        hs = h
        e = self.host_run(text, h).end()  # type: ignore[union-attr]  # (matches "")
        # (A run of host characters that ends the text or is followed by a
        # character that ends userinfo has none: the common case, one match.)
        if e < len(text) and text[e] not in _USERINFO_ENDS and not text[e].isspace():
            userinfo = _USERINFO.match(text, h)
            if userinfo is not None:
                # D20: scheme://user@host is not linked after a special scheme
                # (deprecated, a spoofing aid), nor with a password after any.
                if scheme.lower() in SPECIAL_SCHEMES or ":" in userinfo.group() or userinfo.end() == h + 1:
                    return self._skip(h)
                hs = userinfo.end()  # ssh://git@example.com/: a user name only
                e = self.host_run(text, hs).end()  # type: ignore[union-attr]
        key = text[hs : e + 1]
        if len(key) <= HOST_CACHE_NAME_LIMIT + 1:
            found = self.finder._schemed_hosts(key)
        else:
            found = _schemed_host(self.finder._patterns, self.rules, self.finder.single_label_hosts, key)
        if found is None:
            return self._skip(h)
        link = self._url(start, hs + found[0], found[1], scheme)
        return link, link.end

    def _opaque(self, at: int, found: str) -> tuple[_T | None, int]:
        """``scheme:`` of an enabled scheme without ``//`` (``tel:``, ``magnet:?``)."""
        colon = at + len(found) - 1
        if at < self.floor:
            return None, colon + 1
        end = self._body_end(colon + 1)
        if end == colon + 1:
            return None, end
        if not is_valid(self.text[at:end]):
            self.floor = end  # D53: not linked, and nothing inside it either
            return None, end
        link = self._link(at, end, "url", self.text[at:colon], NO_HOST)
        return link, end

    def _localhost(self, at: int) -> tuple[_T | None, int]:
        """``localhost:PORT`` without a scheme (``bare_localhost``)."""
        host_end = at + len("localhost")
        if at < self.floor or self._glued_before(at) or self._port_end(host_end) == host_end:
            return None, host_end
        link = self._url(at, host_end, _LOCALHOST, None)
        return link, link.end

    def _bare(self, at: int, pos: int, e: int) -> tuple[_T | None, int]:
        """A label separator at ``at``, its run of host characters ending at
        ``e``: maybe a domain without a scheme."""
        text = self.text
        if at < self.run_end:
            # Inside a run already split (D22) where a link was found: go on
            # with its next pieces, not with a new scan of the whole run.
            e, pieces = self.run_end, self.run_pieces
            tld_checked = False
        else:
            if _rejected_run(text, at, e, max(pos, self.floor), self.quick_tlds):
                self.run_end = e
                return None, e
            r = run_start(self.finder._patterns.run_start, text, max(pos, self.floor), at)
            if self.escapes:
                r = max(r, _csi_before(text, at))  # D100: "\x1b[1mwww.example.com" starts at "www"
            pieces = self._clauses(r, e)
            # (an uncut run had its last label checked just above, or kept by
            # a stop that cut nothing: D91 only saves the full check's time)
            tld_checked = self.quick_tlds is not None and len(pieces) == 1
        quick_tlds = self.quick_tlds
        for i, (a, b) in enumerate(pieces):
            if a < self.floor:
                continue  # (inside the link found in an earlier piece)
            if quick_tlds is not None:
                # D91, for each clause of a run cut at ideographic full stops
                # (first: the cheapest test that refuses most clauses).
                name = text[a:b].strip(LABEL_SEPARATORS)
                if not name or (_SEPARATOR.search(name) is None if tld_checked else _no_bare_domain(name, quick_tlds)):
                    continue
            s = a
            while s < b and text[s] in LABEL_SEPARATORS:
                s += 1  # (a run of separators can reach b: "http://[::1]/xa.com")
            if s == b or self._glued_before(a) or (s > a and any(text[k] in ".\uff0e" for k in range(a, s))):
                # D51: after a path or identifier character, or a name that
                # starts with a dot (".bashrc", "*.links.in"): not a domain.
                continue
            link = self._bare_host(s, b)
            if link is not None:
                self.run_end, self.run_pieces = e, pieces[i + 1 :]
                return link, link.end
        self.run_end = e
        return None, e

    def _bare_host(self, s: int, b: int) -> _T | None:
        """The link of the domain (or, with ``bare_ipv4``, the IPv4 address)
        at ``text[s:b]``, or None."""
        text = self.text
        if self.finder.bare_ipv4 and _DOTTED_QUAD.match(text, s, b):  # D18: without a scheme only if asked (D54)
            return self._bare_ipv4(s, b)
        host = host_span(text, s, b, self.rules, schemed=False)
        if host is None:
            return None
        host_end, ascii_host, unicode_host = host
        if host_end < len(text) and (
            text[host_end] in _GLUED_AFTER
            or (text[host_end] == "_" and host_end + 1 < len(text) and text[host_end + 1].isalnum())
        ):
            return None  # D51: "stat.st_size", "user.name=Jane": the word goes on
        finder = self.finder
        if finder.file_names and placeholder(ascii_host):
            return None  # D103: "foo.bar", "www.yourdomain.com" (a stranger's site)
        if not ascii_host.startswith("www."):
            if not finder.bare_domains:
                return None  # (gfm: a scheme or "www.", whatever follows: "github.com/x" is no autolink)
            if (
                text[host_end : host_end + 1] != "/"
                and self._port_end(host_end) == host_end
                # D97: a bare name, with no path or port to show it is a host:
                # is it a file, an identifier, a newsgroup? ("main.py", "README.md")
                and evidence(text, s, host_end, ascii_host, finder.file_extensions, judge=finder.file_names)
            ):
                return None
        return self._url(s, host_end, self.hosts(unicode_host, ascii_host, "domain"), None)

    def _bare_ipv4(self, s: int, b: int) -> _T | None:
        """``bare_ipv4``: a dotted-quad IPv4 address followed by a port or a path."""
        text = self.text
        m = _DOTTED_QUAD.match(text, s, b)
        assert m is not None
        k = m.end()
        if not (self._port_end(k) > k or text[k : k + 1] == "/") or _CIDR_SUFFIX.match(text, k):
            return None  # (192.168.1.0/24 is a network, not a page)
        ip = ip_host(m.group())
        if ip != m.group():
            return None  # not canonical (leading zeros read as octal, values over 255)
        return self._url(s, k, _host(ip, ip, "ipv4"), None)

    def _email(self, at: int) -> tuple[_T | None, int]:
        """``@`` at ``at``: an email address if a domain follows and §5.2
        finds a local-part."""
        text = self.text
        e = self._clauses(at + 1, self._run_end(at + 1))[0][1]
        start = _find_email_start(text, at, self.props)
        if start is not None and (self.escapes or text[start] in _IDENT_FIRST or text.find("!", start, at) >= 0):
            start = self._ident_start(start, at)  # D99, D100 (the test above: most addresses have nothing to strip)
        if start is not None and self.finder.cjk_prose:
            start = _after_cjk(text, start, at)  # D102: "メールはtaro@example.jp"
        scheme = None
        if start is not None and start >= self.floor:
            scheme = text[start : start + 6] if text[start : start + 7].lower() == "mailto:" else None
            if scheme is None and (self._scheme_before(start) or self._message_id(start, e)):
                # D53: the userinfo of a URI ("sip:alice@example.com"); D55: a
                # Message-ID.  (Decided before the domain is validated: cheap.)
                self.floor = max(self.floor, e)
                return None, e
        host = host_span(text, at + 1, e, self.rules, schemed=False)
        if host is None:
            return None, at + 1
        host_end, ascii_host, unicode_host = host
        if text[host_end : host_end + 1] == "_" and text[host_end + 1 : host_end + 2].isalnum():
            # D51 for an address: the name goes on ("whang@toro.kuee.kyoto_u.ac.jp"
            # is not at toro.kuee.kyoto)
            self.floor = max(self.floor, host_end)
            return None, host_end
        if host_end > at + 1 and text[host_end - 1] in LABEL_SEPARATORS:
            host_end -= 1  # an email domain never keeps a trailing dot
        if start is None or start < self.floor:
            # UTS #58 §5 test data: an invalid local-part skips the domain too.
            self.floor = host_end
            return None, host_end
        if scheme is None and (
            self._path_after(host_end)
            or (start > 0 and text[start - 1] in " \t" and _REMOTE_LOGIN.search(text, max(0, start - 40), start))
        ):
            # D55: an scp or git target ("git@example.com:org/repo.git"); D99: an
            # ssh login ("ssh user@host 'id'")
            self.floor = host_end
            return None, host_end
        if scheme is None and (
            (start > 0 and text[start - 1] == "<" and message_id(text[start:at], ascii_host))
            or (text[start].isdigit() and message_id_unbracketed(text[start:at]))
        ):
            self.floor = host_end  # D98: "-- Larry Wall in <199710161841.LAA13208@wall.org>"
            return None, host_end
        if scheme is None and self.finder.file_names and address_evidence(text, start, at, host_end, ascii_host):
            self.floor = host_end  # D103: "you@yourhost.com", "xxxx@example.de", "limits@openssh.com extension"
            return None, host_end
        return self._link(start, host_end, "email", scheme, self.hosts(unicode_host, ascii_host, "domain")), host_end

    def _ident_start(self, start: int, at: int) -> int | None:
        """Where the address of the local-part ``text[start:at]`` starts, as
        a reader sees it (D99): after a terminal escape sequence (D100);
        after the nick of an IRC ``nick!ident@host``; after the ``~ ^ + =``
        an IRC server puts before an ident (``~user@host``), and a ``-``
        there after ``!``, ``(`` or ``[``; after a leading ``*`` (emphasis,
        ``*jane@example.com*``, or a ban mask's wildcard, ``*!*@host``).
        None when nothing is left (a mask).  Not after ``mailto:``: the
        address is written out."""
        text = self.text
        if self.escapes:
            start = max(start, _csi_before(text, at))
            if start >= at:
                return None  # ("\x1b[1m@example.com": no local-part after the sequence)
        if text[start] not in _IDENT_FIRST and text.find("!", start, at) < 0:
            return start  # (the common case: nothing to strip)
        if text[start : start + 7].lower() == "mailto:" or text[max(0, start - 7) : start].lower() == "mailto:":
            return start
        bang = text.rfind("!", start, at)
        if bang >= 0:
            start = bang + 1
        while start < at and text[start] == "*":
            start += 1
        if start + 1 < at and (
            text[start] in _IDENT_MARKS or (text[start] == "-" and start > 0 and text[start - 1] in "!([")
        ):
            start += 1  # (a mark with nothing after it is the local-part itself: "~@example.com")
        return start if start < at else None

    def _scheme_before(self, start: int) -> bool:
        """``text[:start]`` ends with ``scheme:`` glued to the local-part."""
        text = self.text
        if start == 0 or text[start - 1] != ":":
            return False
        k = start - 1
        lo = max(self.floor, k - 64)
        k = lo + len(text[lo:k].rstrip(_SCHEME_CHARS))  # (back over scheme characters, not before lo)
        return k < start - 1 and text[k].isascii() and text[k].isalpha()

    def _message_id(self, start: int, end: int) -> bool:
        """``<local@domain>`` after a Message-ID, In-Reply-To, References or
        Content-ID header name: an identifier in address syntax (RFC 5322
        §3.6.4), not a mailbox."""
        text = self.text
        if start == 0 or text[start - 1] != "<" or text[end : end + 1] != ">":
            return False
        if (
            _MESSAGE_ID_HEADER.search(text, max(self.floor, start - 40), start - 1) is None
            # (the next identifier of a References: list, folded lines too)
            and not (0 < self.message_id_end <= start - 1 and text[self.message_id_end : start - 1].isspace())
        ):
            return False
        self.message_id_end = end + 1
        return True

    def _path_after(self, host_end: int) -> bool:
        """``:`` then a path after a domain: a letter or ``/ ~ . _`` (not a
        digit: the conformance file keeps ``john.doe@example.com:1234/…``;
        not ``:)`` or ``:,``)."""
        text = self.text
        return (
            host_end + 1 < len(text)
            and text[host_end] == ":"
            and (text[host_end + 1].isalpha() or text[host_end + 1] in "/~._")
        )


_LOCALHOST = _host("localhost", "localhost", "localhost")
# D99: a remote-login command before an address: a login, not a mailbox.
_REMOTE_LOGIN = re.compile(r"(?:^|[\s\"'`(])(?:ssh|slogin|sftp|scp|mosh|rsync)\s+(?:-\S+\s+(?:\S+\s+)?)*\Z")
# D99: what IRC servers write before an ident ("nick!~user@host").
_IDENT_MARKS = frozenset("~^+=")
_IDENT_FIRST = frozenset("~^+=-*")  # (what _ident_start may strip first)
# D100: an ECMA-48 control sequence (CSI: ESC "[", parameters, intermediates,
# a final byte): terminal colours, "\x1b[0;36m".
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def _csi_before(text: str, i: int) -> int:
    """The end of the last control sequence that starts in the 32
    characters before ``i`` and ends at ``i`` or before it, or 0: a link
    found to start before that end starts there ("\x1b[0;36mhttps://…" at
    "https", not at the final "m")."""
    k = text.rfind("\x1b", max(0, i - 32), i)
    if k < 0:
        return 0
    m = _CSI.match(text, k, i)
    return m.end() if m is not None else 0


def _schemed_kind(ascii_host: str) -> HostKind:
    """The kind of a host :func:`~uts58.hosts.host_span` validated after a
    scheme: it gives ``localhost`` and serialized IPv4 addresses as they
    are, and a domain always ends with a TLD of letters (D52)."""
    if ascii_host == "localhost":
        return "localhost"
    if ascii_host[-1:].isdigit() and all(c in "0123456789." for c in ascii_host):
        return "ipv4"
    return "domain"
