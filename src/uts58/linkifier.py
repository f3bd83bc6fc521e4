"""Turning plain text into HTML or Markdown with links (applications' entry point).

:func:`linkify` detects links (:func:`uts58.find_links`), keeps those that
pass the security :class:`~uts58.security.Policy` of UTS #58 §8, and writes
``<a href="HREF">DISPLAY</a>``: HREF is the absolute ASCII URL, DISPLAY the
minimally escaped form of §4; everything is HTML-escaped.
:func:`uts58.linkify_html` (module :mod:`uts58.html5`) does the same inside the text of an HTML fragment.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ._checks import check_str
from ._kernels import escape_html as _escape_html
from .detection import Finder, Link, finder_for, resolve_finder
from .display import DisplayOptions, check_display, shorten_checked
from .errors import OptionError
from .hosts import domain_to_ascii
from .markdown_text import escape_text, markdown_link
from .options import FORBIDDEN_SCHEMES, DetectionOptions
from .security import Policy, admitted, escape_bidi_controls
from .whatwg import ip_host

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["Callback", "LinkAttributes", "LinkifyOptions", "linkify"]

# callback(link, attrs) -> attrs, or None to leave the link as plain text.
# attrs holds "href", the extra attributes, and "_text" (the link text).
Callback = Callable[[Link, dict[str, str]], "dict[str, str] | None"]

_ATTR_NAME = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]*\Z")
_IMPLIED_SCHEMES = frozenset({"https", "http", "mailto"})
_HREF_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# The first segment of a relative href: a character reference there
# ("javascript&colon;x") is a scheme to a renderer that decodes twice (mistune).
_FIRST_SEGMENT = re.compile(r"[^/?#]*")
# Controls and spaces are never in a serialized URL; a lone surrogate is
# dropped by HTML serializers and UTF-8 encoders ("\udcffjavascript:").
_CONTROL_OR_SPACE = re.compile("[\x00-\x20\x7f\ud800-\udfff]")


class LinkifyOptions(DetectionOptions, total=False):
    """The detection options :func:`linkify` takes as keyword arguments
    (those of :class:`uts58.Finder` but ``urls`` and ``emails``, which
    ``kinds`` says), and ``preset`` (:meth:`uts58.Finder.preset`)."""

    file_extensions: Iterable[str] | None
    file_names: bool
    bare_domains: bool
    cjk_prose: bool
    preset: str


_OPTION_NAMES = frozenset(LinkifyOptions.__annotations__)
# linkify's own keyword arguments (the adapters pass them through).
_OWN_NAMES = frozenset(
    {"format", "attrs", "callback", "kinds", "policy", "rel", "target", "external_only", "internal_hosts", "display"}
)


def linkify_finder(finder: object, options: Mapping[str, Any], policy: Policy, caller: str = "linkify") -> Finder:
    """The Finder of :func:`linkify` and the adapters: ``finder``, or one
    made of the keyword ``options`` (:class:`LinkifyOptions`), with the
    policy's ``file_extensions`` when it has its own and the options set
    none (D27, D97).  A finder and options at once is an OptionError (D62)."""
    for name in options:
        if name not in _OPTION_NAMES:
            raise TypeError(f"{caller}() got an unexpected keyword argument {name!r}")
    if finder is None:
        return finder_for(with_policy_extensions(options, policy, caller), caller)
    return resolve_finder(finder, options, caller)


def with_policy_extensions(options: Mapping[str, Any], policy: Policy, caller: str) -> Mapping[str, Any]:
    """Detection options with the policy's ``file_extensions`` when it has
    its own and the options say nothing of file names (D97): an explicit
    ``file_extensions`` or ``preset`` wins, and the policy still checks its
    list (``Policy(file_extensions={"py"})`` rejects ``helpers.py`` found
    with ``file_extensions=()``)."""
    if policy.file_extensions is None or "file_extensions" in options or "preset" in options:
        return options
    return {**options, "file_extensions": policy.file_extensions}


def split_options(options: Mapping[str, Any], caller: str) -> tuple[dict[str, Any], Finder]:
    """The keyword arguments of an adapter that go to :func:`linkify`:
    linkify's own ones, and the Finder that the others (or ``finder``) make.
    Check them first with ``linkify("", **options)``."""
    own = {name: value for name, value in options.items() if name in _OWN_NAMES}
    rest = {name: value for name, value in options.items() if name not in _OWN_NAMES and name != "finder"}
    policy = own.get("policy")
    finder = linkify_finder(options.get("finder"), rest, Policy.default() if policy is None else policy, caller)
    return own, finder


def linkify(
    text: str,
    *,
    format: Literal["html", "markdown"] = "html",
    attrs: Mapping[str, str] | None = None,
    callback: Callback | None = None,
    kinds: Iterable[str] = ("url", "email"),
    policy: Policy | None = None,
    finder: Finder | None = None,
    rel: str | None = None,
    target: str | None = None,
    external_only: bool = False,
    internal_hosts: Iterable[str] = (),
    display: DisplayOptions | None = None,
    **options: Unpack[LinkifyOptions],
) -> str:
    """Plain text to HTML (or Markdown) with its links made clickable.

    * ``attrs``: extra attributes of every ``<a>``, written as given
      (``{"class": "ext"}``).
    * ``rel``, ``target``: the ``rel`` and ``target`` of the links
      (``rel="nofollow ugc"``); ``target="_blank"`` adds ``noopener`` to
      ``rel`` (D82).  With ``external_only=True`` they go only on URLs whose
      host is neither one of ``internal_hosts`` nor a subdomain of one
      (``internal_hosts=["example.com"]``: ``www.example.com`` is internal
      too); email addresses and URLs without a host then get neither (D83).
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
      (:class:`uts58.display.DisplayOptions`: ``max_length``, ``location``
      ``"end"``/``"middle"``/``"smart"``, ``strip_scheme``, ``strip_www``,
      ``strip_trailing_slash``, ``ellipsis``); a truncated link gets a
      ``title`` with its whole display form (D79-D81, D90).
    * ``kinds``: ``"url"``, ``"email"`` or both.
    * ``policy``: the §8 checks (default :meth:`Policy.default`; pass
      :meth:`Policy.none` to link everything detection finds).
    * ``finder``: the :class:`uts58.Finder` that detects the links; or, as
      keyword arguments, ``schemes``, ``require_scheme``, ``known_tlds``,
      ``bare_ipv4``, ``bare_localhost``, ``single_label_hosts`` and
      ``unicode_version`` (as for :func:`uts58.find_links`; detection then
      also leaves out the policy's ``file_extensions``).  Not both (D62).

    ``format="markdown"`` takes plain text and returns Markdown that renders,
    with a CommonMark renderer (raw HTML on or off) and with Python-Markdown,
    to the same text and the same links (href, text) as the HTML format
    (with whitespace runs collapsed; U+0000 renders U+FFFD and U+0002 and
    U+0003 are dropped, as CommonMark and Python-Markdown do).  Every Markdown special
    character of the text and of the link text is escaped where it could be
    special (:func:`uts58.markdown_text.escape_text`: nothing becomes
    emphasis, code, a heading, list, quote, rule, code block, HTML, entity,
    link, image, autolink, line break, table or ``~~`` strikethrough); each link is
    ``[TEXT](<HREF>)`` with ``&`` written ``&amp;`` and ``<``, ``>``, ``\\``,
    ``"``, spaces, controls, non-ASCII and the other characters markdown-it
    would percent-encode percent-encoded
    (:func:`uts58.markdown_text.link_destination`).  A Markdown link has no
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
    if format not in ("html", "markdown"):
        raise OptionError(f"format must be 'html' or 'markdown', not {format!r}")
    check_callback(callback)
    if format == "markdown":
        for name, value in (("attrs", attrs or None), ("rel", rel), ("target", target)):
            if value is not None:
                raise OptionError(f"{name}: a Markdown link has no attributes ({name} needs format='html')")
    shortening = None if display is None else check_display(display)
    attributes = LinkAttributes(
        attrs, rel=rel, target=target, external_only=external_only, internal_hosts=internal_hosts
    )
    if isinstance(kinds, str):
        kinds = (kinds,)
    wanted = set(kinds)
    if not wanted <= {"url", "email"}:
        raise OptionError(f"kinds must hold 'url' and/or 'email', not {sorted(wanted)}")
    policy = Policy.default() if policy is None else policy
    if not isinstance(policy, Policy):
        raise TypeError(f"policy must be a uts58.Policy, not {type(policy).__name__}")
    found_by = linkify_finder(finder, options, policy)
    enabled = found_by.schemes
    plain = _escape_html if format == "html" else _keep
    out: list[str] = []
    last = 0
    # Detection first, then the anchors: two tight loops instead of one
    # interleaved loop, each keeping its code and data in the CPU caches
    # (measured on 2 MB of prose: the interleaved loop took 1.9x the time of
    # detection alone, the two phases 1.5x, with the same per-link code).
    links = list(found_by.find_links(text))  # D36: detect all, then write
    if len(wanted) < 2:
        links = [link for link in links if link.kind in wanted]
    # D95: links repeat in a text.  Without a callback (which may answer
    # differently each time) or a CJK boundary to move, each distinct link is
    # checked and written once (None: refused); else each is checked once.
    once = callback is None and not policy.cjk_boundary
    written: dict[tuple[object, ...], str | None] = {}
    checked: dict[tuple[object, ...], bool] = {}
    for link in links:
        if once:
            if link.start < last:
                continue
            found = link
            key = (link.kind, link.text, link.scheme, link.host, link.unicode_version)
            if key not in written:
                written[key] = _anchor_if_admitted(text, link, attributes, policy, format, enabled, shortening)
            anchor = written[key]
        else:
            adjusted = admitted(text, link, policy, checked)
            if adjusted is None or adjusted.start < last:
                continue
            found = adjusted
            anchor = _anchor(found, attributes, callback, policy, format, enabled, shortening)
        if anchor is None:
            continue
        out.append(plain(text[last : found.start]))
        out.append(anchor)
        last = found.end
    out.append(plain(text[last:]))
    if format == "markdown":
        # out alternates text and links: the text is escaped knowing whether
        # it starts a line and whether a link follows it.
        n = len(out) - 1
        for i in range(0, n + 1, 2):
            out[i] = escape_text(out[i], starts_line=i == 0, ends_line=i == n)
    return "".join(out)


def check_callback(callback: object) -> None:
    """TypeError unless ``callback`` is None or callable (checked before any
    detection, by linkify and the adapters)."""
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable, not {type(callback).__name__}")


class AdapterSettings(NamedTuple):
    """What a Markdown adapter links with, made once by :func:`adapter_settings`."""

    policy: Policy
    attributes: LinkAttributes
    callback: Callback | None
    kinds: frozenset[str]
    finder: Finder
    link_text: str
    shortening: DisplayOptions | None


def adapter_settings(
    caller: str,
    *,
    policy: Policy | None,
    attrs: Mapping[str, str] | None,
    callback: Callback | None,
    kinds: Iterable[str],
    link_text: str,
    finder: Finder | None,
    rel: str | None,
    target: str | None,
    external_only: bool,
    internal_hosts: Iterable[str],
    display: DisplayOptions | None,
    options: Mapping[str, Any],
) -> AdapterSettings:
    """The options of the Python-Markdown extension and the mistune plugin
    (``link_text`` and linkify's), checked as :func:`linkify` checks them,
    with the same errors, and made once: the Finder, the attributes (D82,
    D83), the display options (D90)."""
    check_str(link_text, "link_text")
    if link_text not in ("original", "display"):
        raise OptionError(f"link_text must be 'original' or 'display', not {link_text!r}")
    check_callback(callback)
    if policy is not None and not isinstance(policy, Policy):
        raise TypeError(f"policy must be a uts58.Policy, not {type(policy).__name__}")
    policy = Policy.default() if policy is None else policy
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    if not isinstance(internal_hosts, (str, bytes)) and isinstance(internal_hosts, Iterable):
        internal_hosts = tuple(internal_hosts)  # (read twice: by linkify's check and here)
    found_by = linkify_finder(finder, options, policy, caller)
    # linkify checks every other option as it would here (and on no text, finds nothing).
    linkify("", attrs=attrs, kinds=kinds, policy=policy, finder=found_by, rel=rel, target=target,
            external_only=external_only, internal_hosts=internal_hosts, display=display)  # fmt: skip
    attributes = LinkAttributes(
        attrs, rel=rel, target=target, external_only=external_only, internal_hosts=internal_hosts
    )
    shortening = None if display is None else check_display(display)
    return AdapterSettings(policy, attributes, callback, frozenset(kinds), found_by, link_text, shortening)


def apply_callback(
    callback: Callback, link: Link, href: str, attrs: Mapping[str, str], text: str, schemes: frozenset[str]
) -> tuple[str, dict[str, str], str] | None:
    """What ``callback(link, attrs)`` makes of a link (D28, D84): its href,
    attributes and text (``"_text"``), or None to leave the link as text, as
    also when the href is missing or empty, an attribute name is not a plain
    name or is an ``on…`` handler, or the href fails :func:`safe_href`.
    A callback that returns neither a mapping nor None, or a key or value
    that is not a str, raises TypeError; what the callback raises goes
    through unchanged."""
    changed = callback(link, {"href": href, **attrs, "_text": text})
    if changed is None:
        return None
    if not isinstance(changed, Mapping):
        raise TypeError(f"callback must return a mapping of attributes or None, not {type(changed).__name__}")
    result: dict[str, str] = {}
    for key, value in changed.items():
        # D84: no str() of what the callback returns: {"href": None} is a bug to report, not an href "None".
        if not isinstance(key, str):
            raise TypeError(f"callback returned a key that is not str: {key!r}")
        if not isinstance(value, str):
            raise TypeError(f"callback returned {type(value).__name__} for {key!r}, not str")
        result[key] = value
    href = result.pop("href", "")
    text = result.pop("_text", text)
    if any(not _ATTR_NAME.match(name) or name.lower().startswith("on") for name in result):
        return None
    if not href or not safe_href(href, schemes):
        return None
    return href, result, text


def safe_href(href: str, schemes: frozenset[str]) -> bool:
    """``href`` holds no control or space (D19), and either has no scheme
    (a relative URL: ``/out?to=x``, ``?ref=1``, ``#x``, ``//cdn.example/x``,
    D84) or has one of the enabled ``schemes`` or a scheme of the hrefs
    uts58 writes itself (``https:`` and ``http:`` for links written without
    one, ``mailto:``), never javascript:, data:, vbscript: or file:.

    >>> safe_href("/out?to=https%3A%2F%2Fx.example", frozenset()), safe_href("JavaScript:x", frozenset({"https"}))
    (True, False)
    """
    # The WHATWG URL parser strips leading C0 controls and spaces and removes
    # tabs and newlines anywhere: refusing them all, the scheme the parser
    # sees is the one this match sees (its "scheme state").
    if _CONTROL_OR_SPACE.search(href):
        return False
    m = _HREF_SCHEME.match(href)
    if m is None:
        # No scheme: relative to the page (D84), unless its first segment
        # holds "&" or ":", which a decoding renderer could make a scheme of.
        first = _FIRST_SEGMENT.match(href)
        return first is None or not any(c in first.group() for c in "&:")
    scheme = m.group(1).lower()
    return (scheme in schemes or scheme in _IMPLIED_SCHEMES) and scheme not in FORBIDDEN_SCHEMES


class LinkAttributes:
    """The attributes of each link's ``<a>`` (D82, D83): ``attrs`` on every
    link as given, and the ``rel`` and ``target`` presets on every link or,
    with ``external_only``, only on URLs whose host is not internal.
    ``target="_blank"`` adds ``noopener`` to ``rel``.  Checked and built
    once (``internal_hosts`` converted to A-labels once); :meth:`of` costs a
    few set lookups per link.

    >>> from uts58 import find_links
    >>> la = LinkAttributes(rel="nofollow", target="_blank", external_only=True, internal_hosts=["bücher.de"])
    >>> [la.of(link) for link in find_links("a.xn--bcher-kva.de other.org x@other.org")]
    [{}, {'rel': 'nofollow noopener', 'target': '_blank'}, {}]
    """

    __slots__ = (
        "_depth",
        "_domains",
        "_ips",
        "_longest",
        "external_only",
        "inside",
        "inside_html",
        "outside",
        "outside_html",
    )

    def __init__(
        self,
        attrs: Mapping[str, str] | None = None,
        *,
        rel: str | None = None,
        target: str | None = None,
        external_only: bool = False,
        internal_hosts: Iterable[str] = (),
    ) -> None:
        if attrs is not None and not isinstance(attrs, Mapping):
            raise TypeError(f"attrs must be a mapping, not {type(attrs).__name__}")
        inside = dict(attrs or {})
        for name, value in inside.items():
            if not isinstance(name, str) or not _ATTR_NAME.match(name) or name.lower() == "href":
                raise OptionError(f"attrs: {name!r} is not an attribute name linkify may set")
            check_str(value, f"attrs[{name!r}]")
        if not isinstance(external_only, bool):
            raise TypeError(f"external_only must be bool, not {type(external_only).__name__}")
        outside = dict(inside)
        rel_key = "rel"
        for name, preset in (("rel", rel), ("target", target)):
            if preset is None:
                continue
            check_str(preset, name)
            given = next((key for key in inside if key.lower() == name), None)
            if given is not None:
                raise OptionError(f"{name} is given twice (as {name}= and in attrs[{given!r}])")
            outside[name] = preset
        if rel is None:
            rel_key = next((key for key in inside if key.lower() == "rel"), "rel")
        # D82: a page opened by target=_blank gets no window.opener (tabnabbing).
        if target is not None and target.lower() == "_blank":
            tokens = outside.get(rel_key, "").split()
            if "noopener" not in (t.lower() for t in tokens):
                outside[rel_key] = " ".join([*tokens, "noopener"])
        if external_only and rel is None and target is None:
            raise OptionError("external_only: needs rel= or target= (attrs go on every link)")
        domains, ips = _internal_hosts(internal_hosts)
        if (domains or ips) and not external_only:
            raise OptionError("internal_hosts: needs external_only=True")
        self.external_only = external_only
        self.inside = inside if external_only else outside
        self.outside = outside
        self.inside_html = _attributes(self.inside)
        self.outside_html = _attributes(outside)
        self._domains = domains
        self._ips = ips
        # Only the last _depth labels of a host can equal an internal name
        # of at most _longest characters: the check is bounded per link.
        self._depth = max((name.count(".") + 1 for name in domains), default=0)
        self._longest = max(map(len, domains), default=0)

    def external(self, link: Link) -> bool:
        """Is ``link`` a URL with a host that is not internal?  (Email
        addresses and hostless URLs — ``tel:``, ``magnet:`` — are not, D83.)"""
        host = link.host
        if link.kind != "url" or not host:
            return False
        name = host.ascii
        if host.kind in ("ipv4", "ipv6"):
            return name not in self._ips
        if name.endswith("."):
            name = name[:-1]
        domains = self._domains
        pos = len(name)
        for _ in range(self._depth):
            dot = name.rfind(".", 0, pos)
            if len(name) - dot - 1 > self._longest:
                break
            if name[dot + 1 :] in domains:
                return False
            if dot < 0:
                break
            pos = dot
        return True

    def of(self, link: Link, title: str | None = None) -> dict[str, str]:
        """The attributes of ``link``'s ``<a>`` (a dict to read, not to
        change), with ``title`` (a truncated link's whole display form)
        unless they hold a title already, in any letter case (D90)."""
        attrs = self.outside if not self.external_only or self.external(link) else self.inside
        if title is not None and not any(name.lower() == "title" for name in attrs):
            return {**attrs, "title": title}
        return attrs

    def html_of(self, link: Link) -> str:
        """:meth:`of` serialized: `` name="value"`` for each, escaped."""
        if not self.external_only or self.external(link):
            return self.outside_html
        return self.inside_html


def _internal_hosts(hosts: object) -> tuple[frozenset[str], frozenset[str]]:
    """The internal domains (A-labels, no final dot) and IP addresses (as
    serialized) of ``internal_hosts`` (D83)."""
    if isinstance(hosts, (str, bytes)) or not isinstance(hosts, Iterable):
        raise TypeError(f"internal_hosts must be an iterable of host names, not {type(hosts).__name__}")
    domains: set[str] = set()
    ips: set[str] = set()
    for entry in hosts:
        if not isinstance(entry, str):
            raise TypeError(f"internal_hosts must hold host names (str), not {type(entry).__name__}")
        name = entry[:-1] if entry.endswith(".") else entry
        if name.startswith("*."):
            raise OptionError(f"internal_hosts: {entry!r}: write {name[2:]!r} (its subdomains are internal too)")
        ip = ip_host(name) if name and not any(c in name for c in "/?#@\\") else None
        if ip is not None:
            ips.add(ip)
            continue
        ascii_name = domain_to_ascii(name) if name else None
        if not ascii_name or ascii_name.endswith("."):
            raise OptionError(f"internal_hosts: {entry!r} is not a host name")
        domains.add(ascii_name)
    return frozenset(domains), frozenset(ips)


def shown(link: Link, shortening: DisplayOptions | None, policy: Policy) -> tuple[str, str | None]:
    """What ``link``'s anchor shows, and its ``title`` (the whole display
    form when ``shortening`` truncated it, else None), with Bidi controls
    escaped as the ``policy`` says: for linkify and the adapters (D90)."""
    if shortening is None:
        text, title = link.display, None
    else:
        text, title = shorten_checked(link, shortening)
    if policy.bidi == "escape":
        text = escape_bidi_controls(text, unicode_version=link.unicode_version)
        if title is not None:
            title = escape_bidi_controls(title, unicode_version=link.unicode_version)
    return text, title


def _keep(s: str) -> str:
    return s


def _attributes(attrs: Mapping[str, str]) -> str:
    return "".join(f' {name}="{html.escape(value, quote=True)}"' for name, value in attrs.items())


def _anchor_if_admitted(
    text: str,
    link: Link,
    attributes: LinkAttributes,
    policy: Policy,
    format: str,
    schemes: frozenset[str],
    shortening: DisplayOptions | None,
) -> str | None:
    """The anchor of ``link`` (no callback), or None when the policy refuses it."""
    if admitted(text, link, policy) is None:
        return None
    return _anchor(link, attributes, None, policy, format, schemes, shortening)


def _anchor(
    link: Link,
    attributes: LinkAttributes,
    callback: Callback | None,
    policy: Policy,
    format: str,
    schemes: frozenset[str],
    shortening: DisplayOptions | None = None,
) -> str | None:
    """The ``<a>`` element (or Markdown link) of ``link``, with its
    ``attributes``; None when the callback leaves it as text."""
    display, title = shown(link, shortening, policy)
    href = link.href
    if callback is not None or (title is not None and format == "html"):
        attrs = attributes.of(link, title)
        if callback is not None:
            result = apply_callback(callback, link, href, attrs, display, schemes)
            if result is None:
                return None
            href, attrs, display = result
        extra_html = _attributes(attrs)
    else:
        extra_html = attributes.html_of(link)
    if format == "markdown":
        return markdown_link(display, href)  # attributes have no Markdown form
    return '<a href="' + _escape_html(href) + '"' + extra_html + ">" + html.escape(display, quote=False) + "</a>"
