"""The linkify_html of uts58 0.1 (Python's html.parser, text re-written), kept
only so that the benchmark can compare the HTML5-parser version with it.
Not used by the package: it is unsafe (issue 10; docs/decisions.md D40).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from html.parser import HTMLParser

from uts58 import linkify

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
    if options.get("format", "html") != "html":
        raise ValueError("linkify_html writes HTML: format must be 'html'")
    skip = frozenset(t.lower() for t in skip_tags) | _RAW_TEXT
    parser = _Linkifier(skip, lambda data: linkify(data, **options))  # type: ignore[arg-type]
    parser.feed(fragment)
    parser.close()
    return "".join(parser.out)
