"""The ``md.linkify`` object of :mod:`uts58.markdown.markdown_it`: uts58 behind
linkify-it-py's interface (``pretest``, ``test``, ``match``,
``match_at_start``, ``set``, ``tlds``, ``add``), its answers the anchors of
a :class:`uts58.Linkifier` (D47, D108)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..base.caches import bounded
from ..base.checks import check_str, given_alone
from ..detect.finder import Finder, resolve_finder
from ..detect.options import prefilter
from ..errors import OptionError
from ..hosts.domains import normalize_tlds
from ..output.anchor import Anchor
from ..output.linkifier import DetectionOptions, Linkifier, OutputOptions
from ..output.linkify_it import LinkifyItMatch
from ..output.policy import Policy, escape_bidi_controls

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["Linkify", "LinkifyItOptions"]

_OPTIONS = ("fuzzy_link", "fuzzy_email", "fuzzy_ip", "---")


class LinkifyItOptions(DetectionOptions, OutputOptions, total=False):
    """The options :class:`Linkify` takes as keyword arguments: detection
    options (the TLDs come with :meth:`Linkify.tlds`; any option with
    ``finder=``), ``urls`` and ``emails``, and the output options of
    :class:`uts58.Linkifier` (``attrs``, ``rel``, ``target``,
    ``external_only``, ``internal_hosts``, ``callback``, ``display``,
    ``link_text``, ``kinds``)."""

    urls: bool
    emails: bool


# The options that go to the Linkifier (markdown-it writes the HTML: no format).
_OUTPUT_NAMES = frozenset(OutputOptions.__annotations__) - {"format"}
# (the TLDs come with Linkify.tlds, as in linkify-it-py)
_DETECTION_NAMES = frozenset(DetectionOptions.__annotations__) - {"known_tlds"} | {"urls", "emails"}


class _Found:
    """What one scan of one source string found: the anchors of the links
    that pass the policy, by position."""

    __slots__ = ("_matches", "anchors", "at_colon", "at_start")

    def __init__(self, anchors: list[Anchor]) -> None:
        self.anchors = anchors
        self.at_start = {a.start: a for a in anchors if a.link.kind == "url" and a.link.scheme}
        self.at_colon = {a.start + len(a.link.scheme or ""): a for a in self.at_start.values()}
        self._matches: tuple[LinkifyItMatch, ...] | None = None

    @property
    def matches(self) -> tuple[LinkifyItMatch, ...]:
        # Built on first use: the inline rule needs no match of the links it does not take.
        matches = self._matches
        if matches is None:
            matches = self._matches = tuple(_match(anchor) for anchor in self.anchors)
        return matches


def _match(anchor: Anchor) -> LinkifyItMatch:
    link = anchor.link
    if link.kind == "email":
        schema = "mailto:"
    else:
        schema = link.scheme.lower() + ":" if link.scheme else ""
    return LinkifyItMatch(schema, link.start, link.end, link.text, link.text, anchor.href)


class Linkify:
    """The ``md.linkify`` object: uts58 detection behind linkify-it-py's interface (D47).

    ``policy`` is the §8 :class:`~uts58.Policy` (default :meth:`Policy.default`);
    ``finder`` the :class:`uts58.Finder` that detects, or its options as
    keyword arguments (``schemes``, ``require_scheme``, ``urls``,
    ``emails``, ``unicode_version``), not both (D62).  :meth:`set`, :meth:`tlds`
    and :meth:`add` change the finder (:attr:`finder`).  Each source string
    is scanned once (the last few are kept), however often it is asked.

    >>> linkify = Linkify().set({"fuzzy_email": False}).add("ftp:", "http:")
    >>> [m.url for m in linkify.match("x@example.com mailto:y@example.com ftp://example.org")]
    ['mailto:y@example.com', 'ftp://example.org/']
    """

    def __init__(
        self,
        policy: Policy | None = None,
        *,
        finder: Finder | None = None,
        linkifier: Linkifier | None = None,
        **options: Unpack[LinkifyItOptions],
    ) -> None:
        for name in options:
            if name not in _DETECTION_NAMES and name not in _OUTPUT_NAMES:
                raise TypeError(f"Linkify() got an unexpected keyword argument {name!r}")
        output: dict[str, Any] = {name: value for name, value in options.items() if name in _OUTPUT_NAMES}
        detection = {name: value for name, value in options.items() if name not in _OUTPUT_NAMES}
        if linkifier is not None:
            given = [*options, *(["policy"] if policy is not None else []), *(["finder"] if finder is not None else [])]
            given_alone(linkifier, Linkifier, "linkifier", given, "Linkify", "its options")
            policy, finder = linkifier.policy, linkifier.finder
            output = {name: getattr(linkifier, name) for name in _OUTPUT_NAMES if name in Linkifier.__slots__}
        self._policy = Policy.default() if policy is None else policy
        if not isinstance(self._policy, Policy):
            raise TypeError(f"policy must be a uts58.Policy, not {type(policy).__name__}")
        self._finder = resolve_finder(finder, detection, "Linkify")
        # The output options, checked now (a Linkifier made of them and the finder).
        self._output = {"link_text": "original", **output}
        self._fuzzy_email = True
        self._changed()

    def _changed(self) -> None:
        """Forget what was found: the options changed."""
        self._linkifier = Linkifier(finder=self._finder, policy=self._policy, **self._output)
        # Thread-safe and bounded; a fresh cache per set of options.
        self._found = bounded(16, "markdown-it scans")(self._scan)
        self._suffix: tuple[str, _Found] | None = None

    @property
    def policy(self) -> Policy:
        """The §8 policy (assigning it forgets what was found)."""
        return self._policy

    @policy.setter
    def policy(self, policy: Policy) -> None:
        if not isinstance(policy, Policy):
            raise TypeError(f"policy must be a uts58.Policy, not {type(policy).__name__}")
        self._policy = policy  # (it judges what the same finder finds, D65)
        self._changed()

    @property
    def finder(self) -> Finder:
        """The :class:`uts58.Finder` that detects (assigning one forgets
        what was found)."""
        return self._finder

    @finder.setter
    def finder(self, finder: Finder) -> None:
        if not isinstance(finder, Finder):
            raise TypeError(f"finder must be a uts58.Finder, not {type(finder).__name__}")
        self._finder = finder
        self._changed()

    def _with(self, **changes: Any) -> None:
        """The finder with some options changed (set, tlds, add)."""
        self._finder = self._finder.with_options(**changes)
        self._changed()

    @property
    def linkifier(self) -> Linkifier:
        """The :class:`uts58.Linkifier` whose anchors are the links (its
        finder and policy are :attr:`finder` and :attr:`policy`)."""
        return self._linkifier

    def _scan(self, text: str) -> _Found:
        fuzzy_email = self._fuzzy_email
        return _Found(
            [a for a in self._linkifier.anchors(text) if fuzzy_email or a.link.kind != "email" or a.link.scheme]
        )

    def _text(self, anchor: Anchor, normalized: str) -> str:
        """What a link shows: markdown-it's normalized text of the link as
        found, with Bidi controls escaped where the policy says so; or the
        anchor's text when ``display``, ``link_text`` or a callback changed it."""
        if anchor.text != anchor.link.text:
            return anchor.text
        if self._policy.bidi == "escape":
            return escape_bidi_controls(normalized, unicode_version=self._finder.unicode_version)
        return normalized

    # -- linkify-it-py's interface ---------------------------------------

    def pretest(self, text: str) -> bool:
        """Cheap test: could the text hold a link at all?"""
        check_str(text, "text")
        return prefilter(self._finder.schemes, self._finder.bare_localhost).search(text) is not None

    def test(self, text: str) -> bool:
        """Does the text hold a link (that passes the policy)?"""
        return bool(self._found(check_str(text, "text")).anchors)

    def match(self, text: str) -> list[LinkifyItMatch] | None:
        """The links of the text, in order, or None."""
        return list(self._found(check_str(text, "text")).matches) or None

    def match_at_start(self, text: str) -> LinkifyItMatch | None:
        """A link with a scheme that starts at offset 0 (markdown-it's inline rule).
        Its ``url`` is the link's own text: markdown-it advances by its length.

        markdown-it calls this with the rest of the paragraph at every ``://``:
        when ``text`` ends the string asked before, that scan answers."""
        check_str(text, "text")
        cached = self._suffix
        if cached is not None and len(text) <= len(cached[0]) and cached[0].endswith(text):
            offset = len(cached[0]) - len(text)
            found = cached[1]
        else:
            offset = 0
            found = self._found(text)
            self._suffix = (text, found)
        anchor = found.at_start.get(offset)
        if anchor is None:
            return None
        link = anchor.link
        end = link.end - offset
        return LinkifyItMatch((link.scheme or "").lower() + ":", 0, end, link.text, link.text, link.text)

    def set(self, options: Mapping[str, bool]) -> Linkify:
        """linkify-it-py's options (chainable): ``fuzzy_link=False`` links URLs
        only when written with a scheme, ``fuzzy_email=False`` email
        addresses only after ``mailto:``, ``fuzzy_ip=True`` IPv4 addresses
        without a scheme when a port or a path follows (``bare_ipv4``, D54;
        linkify-it also links a bare ``1.2.3.4``).  ``"---"`` has no uts58
        counterpart (NotImplementedError)."""
        if not isinstance(options, Mapping):
            raise TypeError(f"options must be a dict, not {type(options).__name__}")
        for key, value in options.items():
            if key not in _OPTIONS:
                raise OptionError(f"set: unknown option {key!r}; linkify-it-py's are {', '.join(_OPTIONS)}")
            if not isinstance(value, bool):
                raise TypeError(f"set: {key} must be bool, not {type(value).__name__}")
            if key == "---" and value:
                raise NotImplementedError(
                    "set: '---'=True: where a URL ends is UTS #58 §3.5.1 (a '-' run belongs to it)"
                )
        changes = {}
        for key, value in options.items():
            if key == "fuzzy_link":
                changes["require_scheme"] = not value
            elif key == "fuzzy_email":
                self._fuzzy_email = value
            elif key == "fuzzy_ip":
                changes["bare_ipv4"] = value
        self._with(**changes)
        return self

    def tlds(self, list_tlds: str | Iterable[str], keep_old: bool = False) -> Linkify:
        """The top-level domains accepted (chainable): the finder's
        ``known_tlds``.  ``keep_old=True`` adds them to those accepted now
        (by default :func:`uts58.hosts.tlds.default_source`)."""
        if isinstance(list_tlds, str):
            names = list_tlds.split("|")  # linkify-it-py joins them into one pattern
        elif isinstance(list_tlds, Iterable):
            names = list(list_tlds)
        else:
            raise TypeError(f"list_tlds must be a str or a list of str, not {type(list_tlds).__name__}")
        if not isinstance(keep_old, bool):
            raise TypeError(f"keep_old must be bool, not {type(keep_old).__name__}")
        tlds = normalize_tlds(names)
        if keep_old:
            tlds |= self._finder.tlds
        self._with(known_tlds=tlds)
        return self

    def add(self, schema: str, definition: str | Mapping[str, Any] | None) -> Linkify:
        """linkify-it-py's schemas, where uts58 has them (chainable).

        * ``add("ssh:", "http:")`` (an alias of ``http:`` or ``https:``) links
          that scheme (any but javascript, data, vbscript and file);
        * ``add("ftp:", None)`` stops linking it; ``"http:"`` also stops
          links without a scheme (as in linkify-it-py), ``"mailto:"`` email
          addresses; ``add("//", None)`` changes nothing (uts58 never links
          ``//host``).

        Anything else — validators, normalizers, other schemes — raises
        NotImplementedError.
        """
        check_str(schema, "schema")
        name = schema.lower()
        scheme = name[:-1] if name.endswith(":") else None
        if definition is None:
            if scheme == "mailto":
                self._with(emails=False)
            elif scheme is not None:
                stop_fuzzy = {"require_scheme": True} if scheme == "http" else {}
                self._with(schemes=self._finder.schemes - {scheme}, **stop_fuzzy)
            # "//" is never linked by uts58: nothing to stop.
        elif scheme and isinstance(definition, str) and definition.lower() in ("http:", "https:"):
            self._with(schemes=self._finder.schemes | {scheme})
        elif isinstance(definition, (str, Mapping)):
            what = "custom validators and normalizers are" if isinstance(definition, Mapping) else "this alias is"
            raise NotImplementedError(
                f"add({schema!r}, …): {what} not supported; uts58 links the schemes added as "
                "aliases of 'http:' and mailto"
            )
        else:
            raise TypeError(f"definition must be a str, a dict or None, not {type(definition).__name__}")
        return self

    def adopt(self, other: Any) -> Linkify:
        """Take over what was set on a linkify-it-py object (``md.linkify``
        before :func:`plugin`): options, TLDs and schemas that differ from
        linkify-it-py's defaults, through :meth:`set`, :meth:`tlds` and
        :meth:`add` (so unsupported ones raise).  Chainable."""
        opts = getattr(other, "_opts", None)
        if isinstance(opts, Mapping):
            defaults = {"fuzzy_link": True, "fuzzy_email": True, "fuzzy_ip": False, "---": False}
            changed = {k: v for k, v in opts.items() if k in defaults and v != defaults[k]}
            if changed:
                self.set(changed)
        tlds = getattr(other, "_tlds", None)
        if isinstance(tlds, list):
            if getattr(other, "_tlds_replaced", False):
                self.tlds(tlds)
            else:
                extra = [t for t in tlds if t not in _linkify_it_tlds(other)]
                if extra:
                    self.tlds(extra, keep_old=True)
        schemas = getattr(other, "_schemas", None)
        if isinstance(schemas, Mapping):
            for schema, definition in schemas.items():
                if not _default_schema(other, schema, definition):
                    self.add(schema, definition)
        return self


def _linkify_it_tlds(other: Any) -> list[str]:
    """linkify-it-py's default TLDs (its ``tlds(…, keep_old=True)`` extends
    the instance's ``tlds_default`` list itself: a new instance has them)."""
    try:
        return list(type(other)().tlds_default)
    except Exception:  # another class with linkify-it-py's attributes
        return "biz|com|edu|gov|net|org|pro|web|xxx|aero|asia|coop|info|museum|name|shop|рф".split("|")


def _default_schema(other: Any, schema: str, definition: Any) -> bool:
    """Is this one of linkify-it-py's own schemas, as it comes?"""
    aliases = {"https:": "http:", "ftp:": "http:"}
    validators = {"http:": "_validate_http", "//": "_validate_double_slash", "mailto:": "_validate_mailto"}
    if schema in aliases:
        return bool(definition == aliases[schema])
    if schema in validators and isinstance(definition, Mapping) and set(definition) == {"validate"}:
        func = getattr(definition["validate"], "__func__", None)
        return func is not None and func is getattr(type(other), validators[schema], None)
    return False
