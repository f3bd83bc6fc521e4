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
from collections.abc import Callable, Iterable, Mapping
from typing import Literal

from ._checks import check_str
from ._compiled import speedups
from .detection import DEFAULT_SCHEMES, FORBIDDEN_SCHEMES, Link, check_options, find_links
from .errors import OptionError
from .markdown_text import escape_text, markdown_link
from .properties import DEFAULT_UNICODE_VERSION
from .security import Policy, admitted, escape_bidi_controls

__all__ = ["Callback", "linkify"]

# callback(link, attrs) -> attrs, or None to leave the link as plain text.
# attrs holds "href", the extra attributes, and "_text" (the link text).
Callback = Callable[[Link, dict[str, str]], "dict[str, str] | None"]

_ATTR_NAME = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]*\Z")
_IMPLIED_SCHEMES = frozenset({"https", "http", "mailto"})
_HREF_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f]")  # never in a serialized URL


def linkify(
    text: str,
    *,
    format: Literal["html", "markdown"] = "html",
    attrs: Mapping[str, str] | None = None,
    callback: Callback | None = None,
    kinds: Iterable[str] = ("url", "email"),
    policy: Policy | None = None,
    schemes: Iterable[str] = DEFAULT_SCHEMES,
    require_scheme: bool = False,
    bare_ipv4: bool = False,
    bare_localhost: bool = False,
    single_label_hosts: bool = False,
    unicode_version: str = DEFAULT_UNICODE_VERSION,
) -> str:
    """Plain text to HTML (or Markdown) with its links made clickable.

    * ``attrs``: extra attributes of every ``<a>`` (``{"rel": "nofollow noopener"}``).
    * ``callback(link, attrs)``: may change the attributes (``href`` too)
      or the text (key ``"_text"``), or return None to leave the link as
      text.  An href whose scheme is not one of ``schemes``, nor ``https``,
      ``http`` or ``mailto`` (which uts58 writes for links without a
      scheme), leaves the link as text: no ``javascript:``, ``data:``,
      ``vbscript:`` or ``file:`` ever gets out.
    * ``kinds``: ``"url"``, ``"email"`` or both.
    * ``policy``: the §8 checks (default :meth:`Policy.default`; pass
      :meth:`Policy.none` to link everything detection finds).
    * ``schemes``, ``require_scheme``, ``bare_ipv4``, ``bare_localhost``,
      ``single_label_hosts``: as for :func:`uts58.find_links`.

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
    attributes: ``attrs`` raises ValueError, and the attributes a callback
    returns (other than ``href`` and ``_text``) are left out.

    >>> linkify("bücher.de/straße, <mail> x@example.com!", attrs={"rel": "ugc"})  # doctest: +NORMALIZE_WHITESPACE
    '<a href="https://xn--bcher-kva.de/stra%C3%9Fe" rel="ugc">bücher.de/straße</a>,
     &lt;mail&gt; <a href="mailto:x@example.com" rel="ugc">x@example.com</a>!'
    >>> print(linkify("2*3*4 <b> example.com/a_(b)?x&y", format="markdown"))
    2\\*3\\*4 &lt;b> [example.com/a\\_(b)?x&y](<https://example.com/a_(b)?x&amp;y>)
    """
    check_str(text, "text")
    if format not in ("html", "markdown"):
        raise OptionError(f"format must be 'html' or 'markdown', not {format!r}")
    extra = dict(attrs or {})
    if extra and format == "markdown":
        raise OptionError("attrs: a Markdown link has no attributes (attrs needs format='html')")
    for name, value in extra.items():
        if not isinstance(name, str) or not _ATTR_NAME.match(name) or name.lower() == "href":
            raise OptionError(f"attrs: {name!r} is not an attribute name linkify may set")
        check_str(value, f"attrs[{name!r}]")
    if isinstance(kinds, str):
        kinds = (kinds,)
    wanted = set(kinds)
    if not wanted <= {"url", "email"}:
        raise OptionError(f"kinds must hold 'url' and/or 'email', not {sorted(wanted)}")
    policy = Policy.default() if policy is None else policy
    if not isinstance(policy, Policy):
        raise TypeError(f"policy must be a uts58.Policy, not {type(policy).__name__}")
    enabled = check_options(
        urls=True,
        emails=True,
        require_scheme=require_scheme,
        schemes=schemes,
        bare_ipv4=bare_ipv4,
        bare_localhost=bare_localhost,
        single_label_hosts=single_label_hosts,
    )
    plain = _escape_html if format == "html" else _keep
    extra_attrs = _attributes(extra)
    out: list[str] = []
    last = 0
    # Detection first, then the anchors: two tight loops instead of one
    # interleaved loop, each keeping its code and data in the CPU caches
    # (measured on 2 MB of prose: the interleaved loop took 1.9x the time of
    # detection alone, the two phases 1.5x, with the same per-link code).
    links = list(
        find_links(
            text,
            urls="url" in wanted,
            emails="email" in wanted,
            schemes=enabled,
            require_scheme=require_scheme,
            known_tlds=policy.known_tlds,
            file_extensions=policy.file_extensions,
            bare_ipv4=bare_ipv4,
            bare_localhost=bare_localhost,
            single_label_hosts=single_label_hosts,
            unicode_version=unicode_version,
        )
    )
    for link in links:
        found = admitted(text, link, policy)
        if found is None or found.start < last:
            continue
        anchor = _anchor(found, extra, extra_attrs, callback, policy, format, enabled)
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


def apply_callback(
    callback: Callback, link: Link, href: str, attrs: Mapping[str, str], text: str, schemes: frozenset[str]
) -> tuple[str, dict[str, str], str] | None:
    """What ``callback(link, attrs)`` makes of a link (D28): its href,
    attributes and text (``"_text"``), or None to leave the link as text, as
    also when an attribute name is not a plain name or is an ``on…``
    handler, or the href's scheme is not one of ``schemes`` or mailto, or the
    href holds controls or spaces (a serialized URL never does)."""
    changed = callback(link, {"href": href, **attrs, "_text": text})
    if changed is None:
        return None
    result = {str(k): str(v) for k, v in changed.items()}
    href = result.pop("href", "")
    text = result.pop("_text", text)
    if any(not _ATTR_NAME.match(name) or name.lower().startswith("on") for name in result):
        return None
    if not safe_href(href, schemes):
        return None
    return href, result, text


def safe_href(href: str, schemes: frozenset[str]) -> bool:
    """``href`` has one of the enabled ``schemes`` or a scheme of the hrefs
    uts58 writes itself (``https:`` and ``http:`` for links written without
    one, ``mailto:``), never javascript:, data:, vbscript: or file:, and no
    control or space (D19)."""
    m = _HREF_SCHEME.match(href)
    if m is None or _CONTROL_OR_SPACE.search(href):
        return False
    scheme = m.group(1).lower()
    return (scheme in schemes or scheme in _IMPLIED_SCHEMES) and scheme not in FORBIDDEN_SCHEMES


def _keep(s: str) -> str:
    return s


# html.escape (quote=True), in one pass where the accelerator is built.
_escape_html: Callable[[str], str] = html.escape if speedups is None else speedups.escape_html


def _attributes(attrs: Mapping[str, str]) -> str:
    return "".join(f' {name}="{html.escape(value, quote=True)}"' for name, value in attrs.items())


def _anchor(
    link: Link,
    extra: dict[str, str],
    extra_attrs: str,
    callback: Callback | None,
    policy: Policy,
    format: str,
    schemes: frozenset[str],
) -> str | None:
    """The ``<a>`` element (or Markdown link) of ``link``; ``extra_attrs`` is
    ``extra`` serialized."""
    display = link.display
    if policy.bidi == "escape":
        display = escape_bidi_controls(display, unicode_version=policy.unicode_version)
    href = link.href
    extra_html = extra_attrs
    if callback is not None:
        result = apply_callback(callback, link, href, extra, display, schemes)
        if result is None:
            return None
        href, attrs, display = result
        extra_html = _attributes(attrs)
    if format == "markdown":
        return markdown_link(display, href)  # attributes have no Markdown form
    return '<a href="' + _escape_html(href) + '"' + extra_html + ">" + html.escape(display, quote=False) + "</a>"
