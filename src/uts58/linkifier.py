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
from typing import TYPE_CHECKING, Any, Literal

from ._checks import check_str
from ._kernels import escape_html as _escape_html
from .detection import FORBIDDEN_SCHEMES, DetectionOptions, Finder, Link, finder_for, resolve_finder
from .errors import OptionError
from .markdown_text import escape_text, markdown_link
from .security import Policy, admitted, escape_bidi_controls

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["Callback", "LinkifyOptions", "linkify"]

# callback(link, attrs) -> attrs, or None to leave the link as plain text.
# attrs holds "href", the extra attributes, and "_text" (the link text).
Callback = Callable[[Link, dict[str, str]], "dict[str, str] | None"]

_ATTR_NAME = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]*\Z")
_IMPLIED_SCHEMES = frozenset({"https", "http", "mailto"})
_HREF_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f]")  # never in a serialized URL


class LinkifyOptions(DetectionOptions, total=False):
    """The detection options :func:`linkify` takes as keyword arguments
    (those of :class:`uts58.Finder` but ``urls`` and ``emails``, which
    ``kinds`` says, and ``file_extensions``, which the policy's are)."""


_OPTION_NAMES = frozenset(LinkifyOptions.__annotations__)
# linkify's own keyword arguments (the adapters pass them through).
_OWN_NAMES = frozenset({"format", "attrs", "callback", "kinds", "policy"})


def linkify_finder(finder: object, options: Mapping[str, Any], policy: Policy, caller: str = "linkify") -> Finder:
    """The Finder of :func:`linkify` and the adapters: ``finder``, or one
    made of the keyword ``options`` (:class:`LinkifyOptions`) with the
    policy's ``file_extensions`` (as linkify has always passed them to
    detection, D27).  Both at once is an OptionError (D62)."""
    for name in options:
        if name not in _OPTION_NAMES:
            raise TypeError(f"{caller}() got an unexpected keyword argument {name!r}")
    if finder is None:
        return finder_for({**options, "file_extensions": policy.file_extensions}, caller)
    return resolve_finder(finder, options, caller)


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
    **options: Unpack[LinkifyOptions],
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
    found_by = linkify_finder(finder, options, policy)
    enabled = found_by.schemes
    plain = _escape_html if format == "html" else _keep
    extra_attrs = _attributes(extra)
    out: list[str] = []
    last = 0
    # Detection first, then the anchors: two tight loops instead of one
    # interleaved loop, each keeping its code and data in the CPU caches
    # (measured on 2 MB of prose: the interleaved loop took 1.9x the time of
    # detection alone, the two phases 1.5x, with the same per-link code).
    links = list(found_by.find_links(text))  # D36: detect all, then write
    if len(wanted) < 2:
        links = [link for link in links if link.kind in wanted]
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
        display = escape_bidi_controls(display, unicode_version=link.unicode_version)
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
