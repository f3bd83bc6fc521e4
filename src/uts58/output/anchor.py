"""What goes on an ``<a>``: its href, attributes and text (D28, D82-D84, D90).

The pieces every output of uts58 shares, whatever it writes (HTML,
Markdown, markdown-it tokens, mistune tokens, an element tree):
:class:`LinkAttributes` (``attrs`` and the ``rel``/``target`` presets, with
``external_only``), the callback and its checks (:func:`apply_callback`,
:func:`safe_href`), what a link shows (:func:`shown`), and the
:class:`Anchor` that :meth:`uts58.Linkifier.anchors` yields.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from ..base.checks import check_str
from ..detect.finder import Link
from ..detect.options import FORBIDDEN_SCHEMES
from ..errors import OptionError, UnsafeAttributeError
from ..hosts.domains import domain_to_ascii
from ..hosts.whatwg import ip_host
from ..kernels import escape_html
from .display import DisplayOptions, shorten_checked
from .policy import Policy, escape_bidi_controls

__all__ = [
    "Anchor",
    "Callback",
    "LinkAttributes",
    "apply_callback",
    "check_attribute",
    "check_callback",
    "link_attributes",
    "refused_attribute",
    "safe_href",
    "shown",
]

# callback(link, attrs) -> attrs, or None to leave the link as plain text.
# attrs holds "href", the extra attributes, and "_text" (the link text).
Callback = Callable[[Link, dict[str, str]], "dict[str, str] | None"]

ATTR_NAME = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]*\Z")
# D134: what no link carries, whichever way an attribute gets on it.  Names
# that load or submit to a URL, hold a document, or change the base URL the
# href resolves against (none of them has a meaning on <a> but as an attack).
_REFUSED_NAMES = {
    "srcdoc": "holds a document",
    "formaction": "is a form's target URL",
    "action": "is a form's target URL",
    "src": "is a URL the browser loads",
    "xlink:href": "is a link's URL in SVG (href is uts58's)",
    "xml:base": "changes the base URL of the href",
}
# A value a URL attribute would run: what the URL parser reads as a
# javascript:, vbscript: or data: URL (it strips controls and spaces at the
# start, tabs and newlines anywhere: D84).
_SCRIPT_URL = re.compile(
    r"[\x00-\x20]*(?:" + "|".join(r"\s*".join(scheme) for scheme in ("javascript", "vbscript", "data")) + r")\s*:", re.I
)
# CSS that loads or runs something (url(), @import, expression(), bindings)
# or hides it behind an escape or a comment.
_STYLE_RISK = re.compile(r"url\s*\(|@import|expression|javascript|vbscript|binding|behavior|[\\<>]|/\*", re.I)
_IMPLIED_SCHEMES = frozenset({"https", "http", "mailto"})
_HREF_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# The first segment of a relative href: a character reference there
# ("javascript&colon;x") is a scheme to a renderer that decodes twice (mistune).
_FIRST_SEGMENT = re.compile(r"[^/?#]*")
# Controls and spaces are never in a serialized URL; a lone surrogate is
# dropped by HTML serializers and UTF-8 encoders ("\udcffjavascript:").
_CONTROL_OR_SPACE = re.compile("[\x00-\x20\x7f\ud800-\udfff]")


class Anchor(NamedTuple):
    """One link as an output writes it (:meth:`uts58.Linkifier.anchors`):
    where it is in the text (``start``, ``end``), the :class:`~uts58.Link`
    found there, the ``href``, the other attributes (``rel``, ``target``,
    ``title``…; a read-only mapping) and the ``text`` it shows,
    all after the policy, the presets, ``display`` and the callback."""

    start: int
    end: int
    link: Link
    href: str
    attrs: Mapping[str, str]
    text: str


def refused_attribute(name: str, value: str) -> str | None:
    """Why no link may carry ``name="value"`` (D134), or None: one rule for
    ``attrs``, ``--attr``, the template filters' ``attr:``, the callbacks.

    >>> refused_attribute("rel", "ugc"), refused_attribute("OnClick", "x()")
    (None, 'is an event handler (it runs script)')
    >>> refused_attribute("data-x", " JavaScript:alert(1)"), refused_attribute("style", "background:url(x)")
    ('holds a javascript:, vbscript: or data: URL', 'is CSS that loads or runs something')
    """
    if not ATTR_NAME.match(name):
        return "is not an attribute name"
    lowered = name.lower()
    if lowered.startswith("on"):
        return "is an event handler (it runs script)"
    if lowered in _REFUSED_NAMES:
        return _REFUSED_NAMES[lowered]
    if _SCRIPT_URL.match(value):
        return "holds a javascript:, vbscript: or data: URL"
    if lowered == "style" and _STYLE_RISK.search(value):
        return "is CSS that loads or runs something"
    return None


def check_attribute(name: str, value: str, option: str) -> None:
    """UnsafeAttributeError naming ``option`` and the attribute when :func:`refused_attribute` refuses it."""
    why = refused_attribute(name, value)
    if why is not None:
        raise UnsafeAttributeError(f"{option}: {name!r} {why}", option=option, attribute=name)


def check_callback(callback: object) -> None:
    """TypeError unless ``callback`` is None or callable (checked before any
    detection, by linkify and the adapters)."""
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable, not {type(callback).__name__}")


def apply_callback(
    callback: Callback, link: Link, href: str, attrs: Mapping[str, str], text: str, schemes: frozenset[str]
) -> tuple[str, dict[str, str], str] | None:
    """What ``callback(link, attrs)`` makes of a link (D28, D84): its href,
    attributes and text (``"_text"``), or None to leave the link as text, as
    also when the href is missing or empty or fails :func:`safe_href`.
    A callback that returns neither a mapping nor None, or a key or value
    that is not a str, raises TypeError; an attribute no link carries
    (:func:`refused_attribute`: ``onclick``, ``srcdoc``…) raises
    UnsafeAttributeError naming it (D134); what the callback raises goes
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
    for name, value in result.items():
        check_attribute(name, value, "callback")
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
    """The attributes of each link's ``<a>`` (D82, D83, D113): ``attrs`` on
    every link as given, and the ``rel`` and ``target`` presets on web links
    (URLs with a host: not ``mailto:``), on every link with
    ``rel_target_on="all"``, or with ``external_only`` only on URLs whose
    host is not internal.  ``target="_blank"`` adds ``noopener`` to ``rel``.
    Checked and built once (``internal_hosts`` converted to A-labels once);
    :meth:`of` costs a few set lookups per link.

    >>> from uts58 import find_links
    >>> la = LinkAttributes(rel="nofollow", target="_blank", external_only=True, internal_hosts=["bücher.de"])
    >>> [dict(la.of(link)) for link in find_links("a.xn--bcher-kva.de other.org x@other.org")]
    [{}, {'rel': 'nofollow noopener', 'target': '_blank'}, {}]
    >>> [dict(LinkAttributes(rel="ugc", rel_target_on=on).of(link)) for on in ("web", "all")
    ...  for link in find_links("a.org x@a.org")]
    [{'rel': 'ugc'}, {}, {'rel': 'ugc'}, {'rel': 'ugc'}]
    """

    __slots__ = (
        "_depth",
        "_domains",
        "_ips",
        "_longest",
        "_split",
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
        rel_target_on: str = "web",
    ) -> None:
        inside = attrs_dict(attrs)
        for name, value in inside.items():
            if not isinstance(name, str) or not ATTR_NAME.match(name) or name.lower() == "href":
                raise OptionError(f"attrs: {name!r} is not an attribute name linkify may set", option="attrs")
            check_str(value, f"attrs[{name!r}]")
            check_attribute(name, value, "attrs")
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
                raise OptionError(f"{name} is given twice (as {name}= and in attrs[{given!r}])", option=name)
            outside[name] = preset
        if rel is None:
            rel_key = next((key for key in inside if key.lower() == "rel"), "rel")
        # D82: a page opened by target=_blank gets no window.opener (tabnabbing).
        if target is not None and target.lower() == "_blank":
            tokens = outside.get(rel_key, "").split()
            if "noopener" not in (t.lower() for t in tokens):
                outside[rel_key] = " ".join([*tokens, "noopener"])
        if external_only and rel is None and target is None:
            raise OptionError("external_only: needs rel= or target= (attrs go on every link)", option="external_only")
        if rel_target_on not in ("web", "all"):
            check_str(rel_target_on, "rel_target_on")
            raise OptionError(f"rel_target_on must be 'web' or 'all', not {rel_target_on!r}", option="rel_target_on")
        if rel_target_on == "all" and (external_only or (rel is None and target is None)):
            why = "external_only puts them on external web links only" if external_only else "needs rel= or target="
            raise OptionError(f"rel_target_on='all': {why}", option="rel_target_on")
        domains, ips = _internal_hosts(internal_hosts)
        if (domains or ips) and not external_only:
            raise OptionError("internal_hosts: needs external_only=True", option="internal_hosts")
        self.external_only = external_only
        # D113: the presets go on web links only unless rel_target_on="all";
        # _split: some links get them and others not.
        self._split = rel_target_on == "web" and outside != inside
        # (read-only: every anchor of these attributes holds them)
        self.inside: Mapping[str, str] = MappingProxyType(inside)
        self.outside: Mapping[str, str] = MappingProxyType(outside)
        self.inside_html = attributes_html(self.inside)
        self.outside_html = attributes_html(outside)
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

    def of(self, link: Link, title: str | None = None) -> Mapping[str, str]:
        """The attributes of ``link``'s ``<a>`` (read-only), with ``title``
        (a truncated link's whole display form) unless they hold a title
        already, in any letter case (D90)."""
        attrs = self.outside if not self._split or self.gets_presets(link) else self.inside
        if title is not None and not any(name.lower() == "title" for name in attrs):
            return {**attrs, "title": title}
        return attrs

    def html_of(self, link: Link) -> str:
        """:meth:`of` serialized: `` name="value"`` for each, escaped."""
        if not self._split or self.gets_presets(link):
            return self.outside_html
        return self.inside_html

    def gets_presets(self, link: Link) -> bool:
        """Does ``link`` get the ``rel``/``target`` presets?  A web link (a
        URL with a host: not ``mailto:``, ``tel:``) does, an external one
        with ``external_only`` (D83, D113)."""
        if self.external_only:
            return self.external(link)
        return link.kind == "url" and bool(link.host)


def link_attributes(
    attrs: Mapping[str, str] | None,
    *,
    rel: str | None,
    target: str | None,
    external_only: bool,
    internal_hosts: Iterable[str],
    rel_target_on: str,
    link_class: str | None,
    markdown: bool,
) -> LinkAttributes:
    """The :class:`LinkAttributes` of a :class:`~uts58.Linkifier`'s options:
    ``link_class`` is the ``class`` of ``attrs`` (given once), and a
    Markdown link has no attributes (an OptionError naming the option)."""
    classes = attrs
    if link_class is not None:
        check_str(link_class, "link_class")
        if not link_class.strip():
            raise OptionError("link_class must name a class, not be blank", option="link_class")
        if attrs is not None and any(isinstance(k, str) and k.lower() == "class" for k in attrs):
            raise OptionError("link_class is given twice (as link_class= and in attrs)", option="link_class")
        classes = {**(attrs or {}), "class": link_class}
    if markdown:
        for name, value in (("attrs", attrs or None), ("rel", rel), ("target", target), ("link_class", link_class)):
            if value is not None:
                raise OptionError(
                    f"{name}: a Markdown link has no attributes ({name} needs format='html')", option=name
                )
    return LinkAttributes(
        classes,
        rel=rel,
        target=target,
        external_only=external_only,
        internal_hosts=internal_hosts,
        rel_target_on=rel_target_on,
    )


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
            raise OptionError(
                f"internal_hosts: {entry!r}: write {name[2:]!r} (its subdomains are internal too)",
                option="internal_hosts",
            )
        ip = ip_host(name) if name and not any(c in name for c in "/?#@\\") else None
        if ip is not None:
            ips.add(ip)
            continue
        ascii_name = domain_to_ascii(name) if name else None
        if not ascii_name or ascii_name.endswith("."):
            raise OptionError(f"internal_hosts: {entry!r} is not a host name", option="internal_hosts")
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


def attrs_dict(attrs: object) -> dict[str, str]:
    """``attrs`` (a mapping, or None for none) as a new dict; TypeError
    naming ``attrs`` for anything else.  Its names and values are checked
    by :class:`LinkAttributes`."""
    if attrs is not None and not isinstance(attrs, Mapping):
        raise TypeError(f"attrs must be a mapping, not {type(attrs).__name__}")
    return dict(attrs or {})


def attributes_html(attrs: Mapping[str, str]) -> str:
    """``attrs`` serialized after an element's name: `` name="value"``, each value escaped."""
    return "".join(f' {name}="{html.escape(value, quote=True)}"' for name, value in attrs.items())


def anchor_html(href: str, attributes: str, text: str) -> str:
    """The one writer of an ``<a>`` (D108), for every output that writes HTML:
    ``href`` escaped, ``attributes`` as :func:`attributes_html` serializes
    them, ``text`` HTML already (escaped, or the source's own).

    >>> anchor_html("https://a.com/?x&y", attributes_html({"rel": "ugc"}), "a.com")
    '<a href="https://a.com/?x&amp;y" rel="ugc">a.com</a>'
    """
    return '<a href="' + escape_html(href) + '"' + attributes + ">" + text + "</a>"
