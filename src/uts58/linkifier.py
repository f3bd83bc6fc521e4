"""Turning plain text into HTML or Markdown with links (applications' entry point).

:func:`linkify` detects links (:func:`uts58.find_links`), keeps those that
pass the security :class:`~uts58.security.Policy` of UTS #58 §8, and writes
``<a href="HREF">DISPLAY</a>``: HREF is the absolute ASCII URL, DISPLAY the
minimally escaped form of §4; everything is HTML-escaped.
:func:`linkify_html` does the same inside the text of an HTML fragment.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping
from html.parser import HTMLParser
from typing import Literal

from ._checks import check_str
from ._compiled import speedups
from .detection import DEFAULT_SCHEMES, Link, find_links
from .properties import DEFAULT_UNICODE_VERSION
from .security import Policy, _check, adjust_cjk_start, escape_bidi_controls

__all__ = ["Callback", "linkify", "linkify_html"]

# callback(link, attrs) -> attrs, or None to leave the link as plain text.
# attrs holds "href", the extra attributes, and "_text" (the link text).
Callback = Callable[[Link, dict[str, str]], "dict[str, str] | None"]

_ATTR_NAME = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]*\Z")
# Schemes an href may have after a callback: never javascript:, data:, …
_SAFE_HREF = re.compile(r"(?i)(?:https?|ftp|wss?|mailto):")
_CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f]")  # never in a serialized URL
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~])")


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
    unicode_version: str = DEFAULT_UNICODE_VERSION,
) -> str:
    """Plain text to HTML (or Markdown) with its links made clickable.

    * ``attrs``: extra attributes of every ``<a>`` (``{"rel": "nofollow noopener"}``).
    * ``callback(link, attrs)``: may change the attributes (``href`` too)
      or the text (key ``"_text"``), or return None to leave the link as
      text.  An href that is not http(s), ftp, ws(s) or mailto after the
      callback leaves the link as text: no ``javascript:`` ever gets out.
    * ``kinds``: ``"url"``, ``"email"`` or both.
    * ``policy``: the §8 checks (default :meth:`Policy.default`; pass
      :meth:`Policy.none` to link everything detection finds).

    >>> linkify("bücher.de/straße, <mail> x@example.com!", attrs={"rel": "ugc"})  # doctest: +NORMALIZE_WHITESPACE
    '<a href="https://xn--bcher-kva.de/stra%C3%9Fe" rel="ugc">bücher.de/straße</a>,
     &lt;mail&gt; <a href="mailto:x@example.com" rel="ugc">x@example.com</a>!'
    >>> linkify("See example.com/a_(b)", format="markdown")
    'See [example.com/a\\\\_\\\\(b\\\\)](<https://example.com/a_(b)>)'
    """
    check_str(text, "text")
    if format not in ("html", "markdown"):
        raise ValueError(f"format must be 'html' or 'markdown', not {format!r}")
    extra = dict(attrs or {})
    for name, value in extra.items():
        if not isinstance(name, str) or not _ATTR_NAME.match(name) or name.lower() == "href":
            raise ValueError(f"attrs: {name!r} is not an attribute name linkify may set")
        check_str(value, f"attrs[{name!r}]")
    if isinstance(kinds, str):
        kinds = (kinds,)
    wanted = set(kinds)
    if not wanted <= {"url", "email"}:
        raise ValueError(f"kinds must hold 'url' and/or 'email', not {sorted(wanted)}")
    policy = Policy.default() if policy is None else policy
    if not isinstance(policy, Policy):
        raise TypeError(f"policy must be a uts58.Policy, not {type(policy).__name__}")
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
            schemes=schemes,
            require_scheme=require_scheme,
            known_tlds=policy.known_tlds,
            unicode_version=unicode_version,
        )
    )
    for link in links:
        found: Link | None = link
        if policy.cjk_boundary:
            found = adjust_cjk_start(text, link, policy=policy)
        if found is None or found.start < last or _check(found, policy):
            continue
        anchor = _anchor(found, extra, extra_attrs, callback, policy, format)
        if anchor is None:
            continue
        out.append(plain(text[last : found.start]))
        out.append(anchor)
        last = found.end
    out.append(plain(text[last:]))
    return "".join(out)


def _keep(s: str) -> str:
    return s


# html.escape (quote=True), in one pass where the accelerator is built.
_escape_html: Callable[[str], str] = html.escape if speedups is None else speedups.escape_html


def _attributes(attrs: Mapping[str, str]) -> str:
    return "".join(f' {name}="{html.escape(value, quote=True)}"' for name, value in attrs.items())


def _anchor(
    link: Link, extra: dict[str, str], extra_attrs: str, callback: Callback | None, policy: Policy, format: str
) -> str | None:
    """The ``<a>`` element (or Markdown link) of ``link``; ``extra_attrs`` is
    ``extra`` serialized."""
    display = link.display
    if policy.bidi == "escape":
        display = escape_bidi_controls(display, unicode_version=policy.unicode_version)
    href = link.href
    extra_html = extra_attrs
    if callback is not None:
        changed = callback(link, {"href": href, **extra, "_text": display})
        if changed is None:
            return None
        attrs = {str(k): str(v) for k, v in changed.items()}
        href = attrs.pop("href", "")
        display = attrs.pop("_text", display)
        # What an attribute may hold after a callback: names are checked
        # (values are escaped below).
        if any(not _ATTR_NAME.match(name) or name.lower().startswith("on") for name in attrs):
            return None
        extra_html = _attributes(attrs)
        # Only the schemes a link may have pass; a serialized URL never holds
        # controls or spaces.  (Detection's own hrefs are such URLs already.)
        if not _SAFE_HREF.match(href) or _CONTROL_OR_SPACE.search(href):
            return None
    if format == "markdown":
        target = f"<{href}>" if any(c in href for c in " ()") else href
        return "[" + _MARKDOWN_SPECIAL.sub(r"\\\1", display) + "](" + target + ")"
    return '<a href="' + _escape_html(href) + '"' + extra_html + ">" + html.escape(display, quote=False) + "</a>"


# --------------------------------------------------------------------------
# HTML fragments

DEFAULT_SKIP_TAGS = frozenset({"a", "pre", "code", "script", "style", "textarea", "title"})
_RAW_TEXT = frozenset({"script", "style"})


class _Linkifier(HTMLParser):
    def __init__(self, skip: frozenset[str], convert: Callable[[str], str]) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = skip
        self.convert = convert
        self.out: list[str] = []
        self.open: list[str] = []  # skipped elements currently open

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self.get_starttag_text() or "")
        if tag in self.skip:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        self.out.append(f"</{tag}>")
        if tag in self.open:
            # Close up to the matching element (tolerates unclosed inner ones).
            while self.open and self.open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] in _RAW_TEXT:
            self.out.append(data)  # script/style content is not HTML text
        elif self.open:
            self.out.append(html.escape(data, quote=False))
        else:
            self.out.append(self.convert(data))

    def parse_html_declaration(self, i: int) -> int:
        # Python's own handling of "<!…" raises AssertionError on some input
        # ("<![qa.a!", found by fuzzing).  HTML5 makes every "<!" other than a
        # comment a declaration or a bogus comment that ends at the first ">":
        # kept as written.
        rawdata = self.rawdata
        if rawdata.startswith("<!--", i):
            return self.parse_comment(i)
        j = rawdata.find(">", i + 2)
        if j < 0:
            return -1  # incomplete: more data, or text at the end
        self.out.append(rawdata[i : j + 1])
        return j + 1

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")

    def handle_pi(self, data: str) -> None:
        self.out.append(f"<?{data}>")


def linkify_html(fragment: str, *, skip_tags: Iterable[str] = DEFAULT_SKIP_TAGS, **options: object) -> str:
    """Linkify the text of an HTML fragment; tags and attributes are kept as
    written, and nothing inside ``skip_tags`` (``a``, ``pre``, ``code``,
    ``script``, ``style``, ``textarea``, ``title`` by default) is touched.
    Text is re-serialized (``&nbsp;`` becomes the character it stands for).
    ``options`` are those of :func:`linkify` (HTML format only).

    >>> linkify_html('<p class="x">see example.com</p><a href="/">example.org</a><code>a.com</code>')
    '<p class="x">see <a href="https://example.com/">example.com</a></p><a href="/">example.org</a><code>a.com</code>'
    """
    check_str(fragment, "fragment")
    if options.get("format", "html") != "html":
        raise ValueError("linkify_html writes HTML: format must be 'html'")
    skip = frozenset(t.lower() for t in skip_tags) | _RAW_TEXT
    parser = _Linkifier(skip, lambda data: linkify(data, **options))  # type: ignore[arg-type]
    parser.feed(fragment)
    parser.close()
    return "".join(parser.out)
