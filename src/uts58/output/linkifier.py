"""Turning plain text into HTML or Markdown with links (applications' entry point).

A :class:`Linkifier` holds the options of the output side, checked once —
the :class:`~uts58.Finder` that detects, the §8 :class:`~uts58.Policy`, the
attributes, the callback, the kinds, the display options, the format and
the link text — and has the one loop every output goes through:
:meth:`Linkifier.anchors`, each link of a text as an
:class:`~uts58.output.anchor.Anchor` (where it is, its href, attributes, text).
:meth:`Linkifier.render` writes HTML (``<a href="HREF">TEXT</a>``,
everything escaped) or Markdown; :func:`linkify` is the same with the
options as keyword arguments.  The adapters (:func:`uts58.linkify_html`,
markdown-it, Python-Markdown, mistune, the template filters, the command
line) take a Linkifier and only turn its anchors into their own nodes.
"""

from __future__ import annotations

import html
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from ..base.caches import bounded, options_key
from ..base.checks import check_str, given_alone
from ..detect.finder import Finder, Link, finder_for, resolve_finder
from ..detect.options import FINDER_OPTIONS, PRESETS, DetectionOptions
from ..errors import OptionError, about
from ..kernels import escape_html as _escape_html
from .anchor import (
    Anchor,
    Callback,
    LinkAttributes,
    anchor_html,
    apply_callback,
    attributes_html,
    link_attributes,
    shown,
)
from .display import DisplayOptions
from .markdown_text import escape_text, markdown_link
from .options import LINKIFIER_OPTIONS
from .policy import Policy, admitted

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = [
    "Anchor",
    "Callback",
    "DetectionOptions",
    "LinkAttributes",
    "Linkifier",
    "LinkifierOptions",
    "OutputOptions",
    "linkify",
]


class OutputOptions(TypedDict, total=False):
    """The options of what a :class:`Linkifier` writes (besides its finder and policy), for type
    checkers; ``tests/meta/test_options.py`` checks it against :data:`~uts58.output.options.LINKIFIER_OPTIONS`."""

    attrs: Mapping[str, str] | None
    rel: str | None
    target: str | None
    external_only: bool
    internal_hosts: Iterable[str]
    rel_target_on: Literal["web", "all"]
    callback: Callback | None
    kinds: Iterable[str]
    display: DisplayOptions | None
    format: Literal["html", "markdown"]
    link_text: Literal["display", "original"]
    link_class: str | None


class LinkifierOptions(DetectionOptions, OutputOptions, total=False):
    """The keyword arguments of :class:`Linkifier` and :func:`linkify` (and
    of every adapter that takes them), for type checkers."""

    finder: Finder | None
    policy: Policy | None


_DETECTION_NAMES = frozenset(DetectionOptions.__annotations__)
_FIELDS = LINKIFIER_OPTIONS.names
_UNSEEN = object()
_NO_ATTRIBUTES: Mapping[str, str] = MappingProxyType({})
# The function a user called, for the errors of the Linkifier it makes
# (``linkify() got an unexpected keyword argument``): set around the call.
_CALLER: ContextVar[str] = ContextVar("uts58 linkifier caller", default="Linkifier")


class Linkifier:
    """A configured linkifier (D108): the options of :func:`linkify`, checked once,
    and the one loop that turns a text's links into anchors.  Immutable,
    hashable, equal when the options are, picklable (with a picklable
    callback); one may serve many threads.

    * ``finder`` or the detection options (``schemes``, ``preset``, …, as
      :class:`uts58.Finder`; not both, D62), ``policy`` (§8, default
      :meth:`Policy.default`), ``kinds`` (``"url"``, ``"email"`` or both);
    * ``attrs``, ``rel``, ``target``, ``external_only``, ``internal_hosts``,
      ``rel_target_on``: the attributes of each ``<a>`` (D82, D83, D113); ``link_class``: its
      ``class`` (``attrs={"class": ...}`` in short); ``callback(link, attrs)``
      (D28, D84); ``display``: the shortened text (D90);
    * ``format``: ``"html"`` or ``"markdown"`` (:meth:`render`);
      ``link_text``: ``"display"`` (the §4 display form) or ``"original"``
      (the text as found; what the HTML and Markdown adapters show).

    A wrong type raises TypeError, a wrong value :class:`uts58.OptionError`
    whose ``option`` names the keyword.

    >>> lk = Linkifier(rel="nofollow", kinds=["url"])
    >>> [(a.text, a.href, dict(a.attrs)) for a in lk.anchors("see bücher.de or x@example.com")]
    [('bücher.de', 'https://xn--bcher-kva.de/', {'rel': 'nofollow'})]
    >>> lk.render("see <b> bücher.de")
    'see &lt;b&gt; <a href="https://xn--bcher-kva.de/" rel="nofollow">bücher.de</a>'
    """

    __slots__ = (*_FIELDS, "_attributes", "_detection", "_keeps_text", "_kinds_filter", "_schemes", "_shortening")

    format: Literal["html", "markdown"]
    link_text: Literal["display", "original"]
    callback: Callback | None
    display: Mapping[str, Any] | None
    attrs: Mapping[str, str]
    rel: str | None
    target: str | None
    external_only: bool
    internal_hosts: tuple[str, ...]
    rel_target_on: Literal["web", "all"]
    kinds: frozenset[str]
    policy: Policy
    finder: Finder
    link_class: str | None
    # What the options make (not compared, hashed, shown or pickled).
    _attributes: LinkAttributes
    _shortening: DisplayOptions | None
    _schemes: frozenset[str]
    _keeps_text: bool
    _kinds_filter: frozenset[str] | None
    _detection: Mapping[str, Any] | None  # (the options the finder was made of; None: a finder given)

    def __init__(
        self,
        *,
        finder: Finder | None = None,
        policy: Policy | None = None,
        attrs: Mapping[str, str] | None = None,
        rel: str | None = None,
        target: str | None = None,
        external_only: bool = False,
        internal_hosts: Iterable[str] = (),
        rel_target_on: Literal["web", "all"] = "web",
        callback: Callback | None = None,
        kinds: Iterable[str] = ("url", "email"),
        display: DisplayOptions | None = None,
        format: Literal["html", "markdown"] = "html",
        link_text: Literal["display", "original"] = "display",
        link_class: str | None = None,
        **options: Unpack[DetectionOptions],
    ) -> None:
        caller = _CALLER.get()
        values = LINKIFIER_OPTIONS.checked(locals())  # (the signature's names are the table's: D136)
        attributes = link_attributes(
            attrs,
            rel=rel,
            target=target,
            external_only=external_only,
            internal_hosts=values["internal_hosts"],
            rel_target_on=rel_target_on,
            link_class=link_class,
            markdown=format == "markdown",
        )
        for name in options:  # (a name Linkifier does not take, before any is read)
            if name not in _DETECTION_NAMES:
                raise TypeError(f"{caller}() got an unexpected keyword argument {name!r}")
        own = None if finder is not None else _own_options(options, caller)  # (normalized: iterators read once)
        found_by = resolve_finder(finder, options if own is None else own, caller)
        values["finder"] = found_by
        for name, value in values.items():
            object.__setattr__(self, name, value)
        shortening = values["display"]
        object.__setattr__(self, "_attributes", attributes)
        object.__setattr__(self, "_shortening", shortening)
        object.__setattr__(self, "_schemes", found_by.schemes)
        object.__setattr__(self, "_keeps_text", link_text == "original" and shortening is None)
        object.__setattr__(self, "_kinds_filter", values["kinds"] if len(values["kinds"]) < 2 else None)
        object.__setattr__(self, "_detection", own)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Linkifier is immutable: use with_options({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Linkifier is immutable")

    def _key(self) -> tuple[Any, ...]:
        return tuple(
            tuple(value.items()) if isinstance(value, MappingProxyType) else value
            for value in (getattr(self, name) for name in _FIELDS)
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Linkifier) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (self._options(),)

    def __repr__(self) -> str:
        defaults = LINKIFIER_OPTIONS.defaults
        changed = [
            f"{name}={dict(value) if isinstance(value, MappingProxyType) else value!r}"
            for name, value in self._options().items()
            if name == "finder" or value != defaults.get(name)
        ]
        return f"Linkifier({', '.join(changed)})"

    def _options(self) -> dict[str, Any]:
        """The options that make this linkifier again: the finder, or the
        detection options it was made of (so that a new policy makes it anew)."""
        options = {name: getattr(self, name) for name in _FIELDS}
        for name in ("attrs", "display"):
            if options[name] is not None:
                options[name] = dict(options[name])
        if self._detection is not None:
            del options["finder"]
            options.update(self._detection)
        return options

    def with_options(self, **changes: Unpack[LinkifierOptions]) -> Linkifier:
        """A linkifier with some options changed, as if made with them:
        ``lk.with_options(rel="ugc", schemes={"ssh"})``.  A finder made of
        options is made again of them and the changes; a finder given takes
        the detection options changed (``finder.with_options``).  A new
        ``policy`` judges what the same finder finds (D65)."""
        options = self._options()
        detection = {name: value for name, value in changes.items() if name in _DETECTION_NAMES}
        if "finder" in changes:
            options = {name: value for name, value in options.items() if name not in _DETECTION_NAMES}
        elif self._detection is None and detection:
            with about(next(iter(detection))):
                options["finder"] = self.finder.with_options(**detection)  # type: ignore[arg-type]
            changes = {name: value for name, value in changes.items() if name not in detection}  # type: ignore[assignment]
        options.update(changes)
        return Linkifier(**options)

    @property
    def keeps_text(self) -> bool:
        """Do the anchors show the text as found (``link_text="original"``,
        no ``display``), unless a callback changes it?"""
        return bool(self._keeps_text)

    def anchors(self, text: str) -> Iterator[Anchor]:
        """The links of ``text`` that the kinds, the policy and the callback
        let through, in order, as anchors: the one loop of every output.

        >>> [a.href for a in Linkifier(kinds="email").anchors("x@example.com, example.org")]
        ['mailto:x@example.com']
        """
        check_str(text, "text")  # (here, at the call: the loop runs at the first next())
        return (Anchor(link.start, link.end, link, *written[:3]) for link, written in self._written(text, False))

    def render(self, text: str, *, escape: bool = True) -> str:
        """``text`` as HTML (escaped) or Markdown (escaped where it could be
        special) with its links: what :func:`linkify` returns.
        ``escape=False`` (HTML): the text around the links as it is, for a
        template engine whose autoescape is off (not safe HTML).

        >>> Linkifier().render("<b> a.com", escape=False)
        '<b> <a href="https://a.com/">a.com</a>'
        """
        check_str(text, "text")
        if not isinstance(escape, bool):
            raise TypeError(f"escape must be bool, not {type(escape).__name__}")
        markdown = self.format == "markdown"
        plain = _keep if markdown or not escape else _escape_html
        out: list[str] = []
        last = 0
        for link, written in self._written(text, True):
            out.append(plain(text[last : link.start]))
            out.append(written[3])
            last = link.end
        out.append(plain(text[last:]))
        if markdown:
            # out alternates text and links: the text is escaped knowing whether
            # it starts a line and whether a link follows it.
            n = len(out) - 1
            for i in range(0, n + 1, 2):
                out[i] = escape_text(out[i], starts_line=i == 0, ends_line=i == n)
        return "".join(out)

    def _written(self, text: str, markup: bool) -> Iterator[tuple[Link, tuple[str, Mapping[str, str], str, str]]]:
        """Each link that gets an anchor, with its href, attributes, text
        and (with ``markup``) its HTML or Markdown."""
        # Detection first, then the anchors: two tight loops instead of one
        # interleaved loop, each keeping its code and data in the CPU caches
        # (measured on 2 MB of prose: the interleaved loop took 1.9x the time
        # of detection alone, the two phases 1.5x, with the same per-link code).
        links = list(self.finder.find_links(text))  # D36: detect all, then write
        wanted = self._kinds_filter
        if wanted is not None:
            links = [link for link in links if link.kind in wanted]
        policy = self.policy
        # D95: links repeat in a text.  Without a callback (which may answer
        # differently each time) each distinct link is checked and written
        # once (None: refused); else each is checked once.
        memo: dict[tuple[object, ...], Any] | None = {} if self.callback is None else None
        checked: dict[tuple[object, ...], bool] = {}
        for link in links:
            if memo is not None:
                key = (link.kind, link.text, link.scheme, link.host, link.unicode_version)
                written = memo.get(key, _UNSEEN)
                if written is _UNSEEN:
                    written = memo[key] = self._write(link, markup) if admitted(link, policy) else None
            elif admitted(link, policy, checked):
                written = self._write(link, markup)
            else:
                continue
            if written is not None:
                yield link, written

    def _write(self, link: Link, markup: bool) -> tuple[str, Mapping[str, str], str, str] | None:
        """The href, attributes, text and markup of ``link``'s anchor; None
        when the callback leaves it as text."""
        if self._keeps_text:
            text, title = link.text, None
        else:
            text, title = shown(link, self._shortening, self.policy)
        href = link.href
        callback = self.callback
        attrs: Mapping[str, str]
        if callback is not None or title is not None:
            attrs = self._attributes.of(link, title)
            if callback is not None:
                result = apply_callback(callback, link, href, attrs, text, self._schemes)
                if result is None:
                    return None
                href, attrs, text = result
            extra = attributes_html(attrs) if markup else ""
            attrs = MappingProxyType(dict(attrs))  # (an anchor's attributes are read, not changed)
        elif markup:
            attrs, extra = _NO_ATTRIBUTES, self._attributes.html_of(link)  # (render writes the serialized form)
        else:
            attrs, extra = self._attributes.of(link), ""
        if not markup:
            return href, attrs, text, ""
        if self.format == "markdown":
            return href, attrs, text, markdown_link(text, href)  # attributes have no Markdown form
        return href, attrs, text, anchor_html(href, extra, html.escape(text, quote=False))


def _own_options(options: Mapping[str, Any], caller: str) -> Mapping[str, Any]:
    """The detection options given, as a finder of them alone holds them
    (normalized: an iterator is read once), a preset's as if given one by
    one."""
    own = finder_for(options, caller)
    names = set(options) - {"preset"}
    if "preset" in options:
        names |= set(PRESETS[options["preset"]])
    return MappingProxyType({name: getattr(own, name) for name in FINDER_OPTIONS.names if name in names})


def _restore(options: dict[str, Any]) -> Linkifier:
    return Linkifier(**options)


def _keep(s: str) -> str:
    return s


@bounded(64, "linkifiers")
def _cached_linkifier(key: tuple[Any, ...], options: _Options) -> Linkifier:
    return _made(options.value, options.caller)


class _Options:
    """Keyword options riding along a cache key (not compared: the key is)."""

    __slots__ = ("caller", "value")

    def __init__(self, value: dict[str, Any], caller: str) -> None:
        self.value, self.caller = value, caller

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Options)

    def __hash__(self) -> int:
        return 0


def _made(options: dict[str, Any], caller: str) -> Linkifier:
    """``Linkifier(**options)``, its errors naming ``caller``."""
    token = _CALLER.set(caller)
    try:
        return Linkifier(**options)
    finally:
        _CALLER.reset(token)


def linkifier_for(options: dict[str, Any], caller: str = "linkify") -> Linkifier:
    """The :class:`Linkifier` of keyword options, through a small bounded
    cache (the sugar of :func:`linkify` and the adapters): a call with
    options costs what a call with a linkifier does.  Options with a
    callback are not kept (a callback made per call, a closure over a
    request, would only fill the cache and keep what it holds alive)."""
    if not options:
        return default_linkifier()
    if options.get("callback") is not None:
        return _made(options, caller)
    key = options_key(options, (Finder, Policy))
    if key is None:
        return _made(options, caller)  # (a value that is no key: an iterator, a mapping of another type)
    return _cached_linkifier(key, _Options(options, caller))


@cache
def default_linkifier() -> Linkifier:
    """The linkifier of :func:`linkify` without options (made at its first use, not at import)."""
    return Linkifier()


def adapter_linkifier(linkifier: object, options: dict[str, Any], caller: str) -> Linkifier:
    """The Linkifier of an adapter that writes HTML: ``linkifier``, or the
    one its keyword options make, where ``link_text`` is ``"original"``
    unless given (an adapter keeps the text that was there).  Both at once
    is an OptionError naming ``linkifier``, as is a linkifier that writes Markdown."""
    if "format" in options:
        raise TypeError(f"{caller}() got an unexpected keyword argument 'format' (it writes HTML)")
    if linkifier is None:
        return linkifier_for({"link_text": "original", **options}, caller)
    given = given_alone(linkifier, Linkifier, "linkifier", options, caller, "its options")
    if given.format != "html":
        raise OptionError(f"{caller} writes HTML: the linkifier's format must be 'html'", option="linkifier")
    return given


def linkify(text: str, **options: Unpack[LinkifierOptions]) -> str:
    """Plain text to HTML (or Markdown) with its links made clickable.

    * ``attrs``: extra attributes of every ``<a>``, written as given
      (``{"data-x": "1"}``); ``link_class``: its ``class`` (``"ext"``).
    * ``rel``, ``target``: the ``rel`` and ``target`` of web links (URLs
      with a host; ``rel_target_on="all"``: every link, ``mailto:`` too,
      D113) (``rel="nofollow ugc"``); ``target="_blank"`` adds ``noopener``
      to ``rel`` (D82).  With ``external_only=True`` they go only on URLs
      whose host is neither one of ``internal_hosts`` nor a subdomain of one
      (``internal_hosts=["example.com"]``: ``www.example.com`` is internal
      too, D83).
    * ``callback(link, attrs)``: may change the attributes (``href`` too)
      or the text (key ``"_text"``), or return None to leave the link as
      text; it must return a mapping of str to str, or None (TypeError
      otherwise; what it raises goes through unchanged).  An href may be
      relative (``/out?to=…``, ``#x``, ``//cdn.example/x``): one with no
      scheme.  An href with a scheme that is not one of ``schemes``, nor
      ``https``, ``http`` or ``mailto`` (which uts58 writes for links
      without a scheme), or with a control or space, leaves the link as
      text: no ``javascript:``, ``data:``, ``vbscript:`` or ``file:`` ever
      gets out (D84).
    * ``display``: shorten the text a link shows, never its href
      (:class:`uts58.output.display.DisplayOptions`: ``max_length``, ``location``
      ``"end"``/``"middle"``/``"smart"``, ``strip_scheme``, ``strip_www``,
      ``strip_trailing_slash``, ``ellipsis``); a truncated link gets a
      ``title`` with its whole display form (D79-D81, D90).
    * ``kinds``: ``"url"``, ``"email"`` or both.
    * ``link_text``: ``"display"`` (the default: the §4 display form) or
      ``"original"`` (the text as written).
    * ``policy``: the §8 checks (default :meth:`Policy.default`; pass
      :meth:`Policy.none` to link everything detection finds).
    * ``finder``: the :class:`uts58.Finder` that detects the links; or, as
      keyword arguments, ``schemes``, ``require_scheme``, ``known_tlds``,
      ``bare_ipv4``, ``bare_localhost``, ``single_label_hosts`` and
      ``unicode_version`` (as for :func:`uts58.find_links`).  Not both (D62).

    The options are those of :class:`Linkifier` (a call with options uses
    one, made once for each distinct set of options).

    ``format="markdown"`` takes plain text and returns Markdown that renders,
    with a CommonMark renderer (raw HTML on or off) and with Python-Markdown,
    to the same text and the same links (href, text) as the HTML format
    (with whitespace runs collapsed; U+0000 renders U+FFFD and U+0002 and
    U+0003 are dropped, as CommonMark and Python-Markdown do).  Every Markdown special
    character of the text and of the link text is escaped where it could be
    special (:func:`uts58.output.markdown_text.escape_text`: nothing becomes
    emphasis, code, a heading, list, quote, rule, code block, HTML, entity,
    link, image, autolink, line break, table or ``~~`` strikethrough); each link is
    ``[TEXT](<HREF>)`` with ``&`` written ``&amp;`` and ``<``, ``>``, ``\\``,
    ``"``, spaces, controls, non-ASCII and the other characters markdown-it
    would percent-encode percent-encoded
    (:func:`uts58.output.markdown_text.link_destination`).  A Markdown link has no
    attributes: ``attrs``, ``rel`` or ``target`` is an OptionError, and the
    attributes a callback returns (other than ``href`` and ``_text``) are left out.

    >>> linkify("bücher.de/straße, <mail> x@example.com!", attrs={"rel": "ugc"})  # doctest: +NORMALIZE_WHITESPACE
    '<a href="https://xn--bcher-kva.de/stra%C3%9Fe" rel="ugc">bücher.de/straße</a>,
     &lt;mail&gt; <a href="mailto:x@example.com" rel="ugc">x@example.com</a>!'
    >>> linkify("docs.example.com, other.org", rel="nofollow", target="_blank", external_only=True,
    ...         internal_hosts=["example.com"])  # doctest: +NORMALIZE_WHITESPACE
    '<a href="https://docs.example.com/">docs.example.com</a>,
     <a href="https://other.org/" rel="nofollow noopener" target="_blank">other.org</a>'
    >>> print(linkify("2*3*4 <b> example.com/a_(b)?x&y", format="markdown"))
    2\\*3\\*4 &lt;b> [example.com/a\\_(b)?x&y](<https://example.com/a_(b)?x&amp;y>)
    """
    check_str(text, "text")
    return linkifier_for(dict(options)).render(text)  # (default_linkifier() without options)
