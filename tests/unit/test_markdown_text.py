"""linkify(format="markdown") and uts58.output.markdown_text: Markdown that renders to the text and links
of the HTML format.

The round trip: the Markdown of a text, rendered by markdown-it-py (the
"commonmark" preset with raw HTML on and off, and the "default" preset, which
adds tables and strikethrough) and by Python-Markdown (default settings), is
parsed by an HTML5 parser that uts58 does not use (justhtml; html5lib as a
second opinion on the smaller inputs).  Its text content must equal that of
``linkify(text)`` (HTML format, parsed the same way), whitespace runs
collapsed; its links (href, text) must be those of the HTML format; and its
only elements must be ``p`` and ``a``.

The expected hrefs are the HTML format's hrefs as markdown-it itself
normalizes them (``MarkdownIt.normalizeLink``), and for the hrefs of hostile
callbacks, percent-encoded by urllib: both are independent of uts58.
"""

from __future__ import annotations

import itertools
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import uts58
import uts58.output.markdown_text
from uts58 import Policy, linkify
from uts58.errors import UnsafeAttributeError
from uts58.output.markdown_text import escape_link_text, escape_text, link_destination, markdown_link

markdown = pytest.importorskip("markdown")
markdown_it = pytest.importorskip("markdown_it")
html5lib = pytest.importorskip("html5lib")
justhtml = pytest.importorskip("justhtml")
from justhtml.parser.context import FragmentContext  # noqa: E402

HTMLSAFETY = Path(__file__).resolve().parents[3] / "shared" / "data" / "htmlsafety"

_COMMONMARK = markdown_it.MarkdownIt("commonmark")  # raw HTML on
_PYTHON_MARKDOWN = markdown.Markdown()

RENDERERS: dict[str, Callable[[str], str]] = {
    "commonmark": _COMMONMARK.render,
    "commonmark-no-html": markdown_it.MarkdownIt("commonmark", {"html": False}).render,
    "markdown-it-default": markdown_it.MarkdownIt("default", {"html": True}).render,
    "python-markdown": lambda s: _PYTHON_MARKDOWN.reset().convert(s),
}

# What a rendered document is made of: its text (whitespace runs collapsed),
# its links (href, text) and the names of its elements.
View = tuple[str, list[tuple[str, str]], set[str]]


def collapse(s: str) -> str:
    return " ".join(s.split())


def _justhtml_view(html: str) -> View:
    doc = justhtml.JustHTML(html, fragment=True, fragment_context=FragmentContext("div"), sanitize=False)
    texts: list[str] = []
    links: list[tuple[str, str]] = []
    names: set[str] = set()
    open_links: list[tuple[int, int]] = []  # (index in links, len(texts) at its start)
    # (node, entering): an explicit stack, no recursion.
    stack: list[tuple[Any, bool]] = [(child, True) for child in reversed(doc.root.children or ())]
    while stack:
        node, entering = stack.pop()
        kind = type(node).__name__
        if not entering:  # the end of an a
            index, start = open_links.pop()
            links[index] = (links[index][0], collapse("".join(texts[start:])))
        elif kind == "Text":
            texts.append(node.data)
        elif kind in ("Element", "Template"):
            names.add(node.name)
            if node.name == "a":
                links.append((node.attrs.get("href") or "", ""))
                open_links.append((len(links) - 1, len(texts)))
                stack.append((node, False))
            stack.extend((child, True) for child in reversed(node.children or ()))
        else:
            names.add("#" + kind)
    return collapse("".join(texts)), links, names


def _html5lib_view(html: str) -> View:
    root = html5lib.parseFragment(html, container="div", treebuilder="etree", namespaceHTMLElements=False)
    texts: list[str] = []
    links: list[tuple[str, str]] = []
    names: set[str] = set()

    def walk(element: ET.Element) -> Iterator[tuple[ET.Element, bool]]:
        # Pre-order with an explicit stack: (element, entering)
        stack: list[tuple[ET.Element, bool]] = [(element, True)]
        while stack:
            node, entering = stack.pop()
            yield node, entering
            if entering:
                stack.append((node, False))
                stack.extend((child, True) for child in reversed(list(node)))

    open_links: list[tuple[int, int]] = []  # (index in links, len(texts) at start)
    for node, entering in walk(root):
        if node is root:
            if entering and node.text:
                texts.append(node.text)
            continue
        if entering:
            if not isinstance(node.tag, str):
                names.add("#comment")
            else:
                names.add(node.tag)
                if node.tag == "a":
                    links.append((node.get("href") or "", ""))
                    open_links.append((len(links) - 1, len(texts)))
                if node.text:
                    texts.append(node.text)
        else:
            if isinstance(node.tag, str) and node.tag == "a":
                index, start = open_links.pop()
                links[index] = (links[index][0], collapse("".join(texts[start:])))
            if node.tail:
                texts.append(node.tail)
    return collapse("".join(texts)), links, names


def expected_view(text: str, parse: Callable[[str], View] = _justhtml_view, **options: Any) -> View:
    """The text and links of the HTML format.  U+0000 is written U+FFFD (an
    HTML5 parser drops it from text, CommonMark renders it U+FFFD) and
    U+0002/U+0003 are dropped (Python-Markdown deletes them); the ``p``
    keeps a leading U+FEFF from being taken for a byte order mark."""
    html = linkify(text, **options)
    html = html.replace("\0", "\ufffd").replace("\2", "").replace("\3", "")
    return parse("<p>" + html + "</p>")


def renderer_href(href: str) -> str:
    """What markdown-it makes of a detected href (its own normalization)."""
    return str(_COMMONMARK.normalizeLink(href))


def round_trip_errors(
    text: str,
    parse: Callable[[str], View] = _justhtml_view,
    href: Callable[[str], str] = renderer_href,
    renderers: tuple[str, ...] = tuple(RENDERERS),
    **options: Any,
) -> tuple[list[str], int]:
    """Where the Markdown of ``text`` does not render to the HTML format's
    text and links, or renders other elements than p and a; and the number
    of links."""
    md = linkify(text, format="markdown", **options)
    want_text, html_links, _ = expected_view(text, parse, **options)
    want_links = [(href(h), t) for h, t in html_links]
    errors = []
    for name in renderers:
        got_text, got_links, names = parse(RENDERERS[name](md))
        if got_text != want_text:
            errors.append(f"{name}: text {got_text!r} != {want_text!r} (Markdown {md!r})")
        if got_links != want_links:
            errors.append(f"{name}: links {got_links!r} != {want_links!r} (Markdown {md!r})")
        if not names <= {"p", "a"}:
            errors.append(f"{name}: elements {sorted(names)} (Markdown {md!r})")
    return errors, len(want_links)


# ---------------------------------------------------------------------------
# What the output looks like (hand-written expectations)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2*3*4", "2\\*3\\*4"),
        ("a_b_c snake_case _x_ __y__ é_é", "a_b_c snake_case \\_x\\_ \\_\\_y\\_\\_ é_é"),
        ("# not a heading #", "\\# not a heading #"),
        ("1. one\n2) two\n1.5 million\n3.", "1\\. one\n2\\) two\n1.5 million\n3\\."),
        ("- a\n+ b\n> c\n-x", "\\- a\n\\+ b\n\\> c\n\\-x"),
        ("title\n=====\n= x", "title\n&#61;====\n= x"),
        ("a|b\n|---|\n:-:|-\na|b", "a|b\n&#124;---|\n&#58;-:|-\na|b"),
        ("    indented\n\tcode", "indented\ncode"),
        ("hard  \nbreak\\\nx \t", "hard\nbreak\\\\\nx \t"),
        ("<b> &amp; &#65; AT&T a < b <\tc", "&lt;b> &amp;amp; &amp;#65; AT&T a < b &lt;\tc"),
        ("`code` ~~del~~ ~/x", "\\`code\\` &#126;&#126;del&#126;&#126; ~/x"),
        ("[x](y) ![i](j) wow!", "\\[x\\](y) !\\[i\\](j) wow!"),
        ("C:\\Users\\x \\* \\", "C:\\Users\\x \\\\\\* \\\\"),
        ("a\0b\2c\3d", "a\ufffdbcd"),
        ("{a} (b) 'c' \"d\" e.f", "{a} (b) 'c' \"d\" e.f"),
        ("See example.com/a_(b)", "See [example.com/a\\_(b)](<https://example.com/a_(b)>)"),
        ("x@example.com", "[x@example.com](<mailto:x@example.com>)"),
        ("example.com/?a=1&b=2", "[example.com/?a=1&b=2](<https://example.com/?a=1&amp;b=2>)"),
        ("wow!example.com", "wow\\![example.com](<https://example.com/>)"),
        (
            "# example.com)_\n  1. example.org",
            "\\# [example.com](<https://example.com/>))\\_\n1\\. [example.org](<https://example.org/>)",
        ),
        ("example.com/a|b[c]%zz", "[example.com/a|b\\[c\\]%zz](<https://example.com/a%7Cb%5Bc%5D%25zz>)"),
    ],
)
def test_examples(text: str, expected: str) -> None:
    assert linkify(text, format="markdown") == expected
    assert round_trip_errors(text) == ([], expected.count("](<"))


def test_helpers() -> None:
    assert escape_text("_a", starts_line=False, ends_line=False) == "\\_a"
    assert escape_text("a_", starts_line=False, ends_line=False) == "a\\_"  # a link follows: "_[" can open
    assert escape_text("# a ") == "\\# a "
    assert escape_text("# a", starts_line=False) == "# a"  # not at a line start
    assert escape_text("x!", ends_line=False) == "x\\!"  # "![" would be an image
    assert escape_text("x!") == "x!"
    assert escape_text("a <", ends_line=False) == "a &lt;"
    assert escape_link_text("a\n\n# b\r\nc]") == "a  # b c\\]"
    assert markdown_link("a*b", "https://example.com/a b") == "[a\\*b](<https://example.com/a%20b>)"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/a_(b)", "<https://example.com/a_(b)>"),
        (
            'https://x/<a href="q">\\ &amp; b|c^{}`',
            "<https://x/%3Ca%20href=%22q%22%3E%5C%20&amp;amp;%20b%7Cc%5E%7B%7D%60>",
        ),
        ("https://x/a)b](c", "<https://x/a)b%5D(c>"),
        ("http://[::1]:8080/[x]", "<http://[::1]:8080/%5Bx%5D>"),
        ("http://u@[fe80::1]/", "<http://u@[fe80::1]/>"),
        ("http://[x]/", "<http://%5Bx%5D/>"),
        ("https://x/100%", "<https://x/100%25>"),
        ("https://x/%41%4g", "<https://x/%41%254g>"),
        ("mailto:ü@x", "<mailto:%C3%BC@x>"),
        ("https://x/\n\t\x7f\0\ud800", "<https://x/%0A%09%7F%00%EF%BF%BD>"),
    ],
)
def test_link_destination(url: str, expected: str) -> None:
    assert link_destination(url) == expected


# Each is Markdown that some renderer turns into something else than its
# text; escaped, it is its text everywhere.
CONSTRUCTS = [
    "2*3*4",
    "__a__",
    "_a_",
    "`a`",
    "# a",
    "#a",
    "a\n===",
    "a\n---",
    "- a",
    "+ a",
    "* a",
    "1. a",
    "1) a",
    "> a",
    "***",
    "- - -",
    "___",
    "    a",
    "a\n\n\ta",
    "```\na\n```",
    "~~~\na\n~~~",
    "<div>\na\n</div>",
    "a <b>c</b>",
    "a <!-- b -->",
    "<?php a ?>",
    "&copy;",
    "&#65;",
    "&#65 a",
    "&#x41;",
    "[a](https://b.example)",
    "![a](https://b.example)",
    "[a]\n\n[a]: https://u.example",
    "<https://a.example>",
    "<a@b.example>",
    "<\na@b.example>",
    "a  \nb",
    "a\\\nb",
    "a\t\nb",
    "a|b\n-|-",
    "|a|\n|-|",
    "~~a~~",
]


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_constructs_are_text(construct: str) -> None:
    # The construct really is Markdown: rendered as it is, some renderer
    # makes an element or loses text.
    raw = {name: _justhtml_view(render(construct)) for name, render in RENDERERS.items()}
    assert any(not names <= {"p"} or text != collapse(construct) for text, _, names in raw.values())
    escaped = escape_text(construct)
    for name, render in RENDERERS.items():
        text, links, names = _justhtml_view(render(escaped))
        assert (text, links, names <= {"p"}) == (collapse(construct), [], True), (name, escaped)


# ---------------------------------------------------------------------------
# The round trip on public corpora, generated text and hostile callbacks


def _corpus() -> list[tuple[str, str]]:
    files = sorted(HTMLSAFETY.glob("*.jsonl"))
    if not files:
        pytest.skip(f"the public corpora are not in {HTMLSAFETY}")
    items: list[tuple[str, str]] = []
    for path in files:
        with path.open(encoding="utf-8") as f:
            records = [json.loads(line) for line in f]
        items.extend((f"{path.stem}:{record['id']}", record["input"]) for record in records)
    return items


def test_corpora_round_trip() -> None:
    """Every input of the public corpora (XSS vectors, html5lib tests,
    CommonMark and markdown-it examples: about 18,000) as plain text, with
    the four renderers; and every sixth input with a link put in its middle
    (the corpora hold only about 500 links).  About 15 s on one free core."""
    items = _corpus()
    failures = []
    links = 0
    for i, (name, text) in enumerate(items):
        texts = [text]
        if i % 6 == 0:
            middle = len(text) // 2
            texts.append(text[:middle] + " example.com/a_(b)?c&d=<e>" + text[middle:])
        for source in texts:
            errors, count = round_trip_errors(source)
            if errors:
                failures.append((name, errors[:2]))
            links += count
    assert not failures, (len(failures), failures[:5])
    assert len(items) > 10_000 and links > 3000  # the test saw real input


_PIECES = [
    *"\\`*_{}[]()<>#+-.!|~=:&;\"'%/@?^$",
    *[" ", "  ", "\t", "\n", "\r\n", "\r", "\n\n", "    ", "\0", "\2", "\3", "\x0b", "\x0c", "\x1c", "\x85"],
    *["\u00a0", "\ufeff", "\u2028", "\u3000", "\u200b", "＊", "é", "1", "a", "b", "x_y", "2.", "1)", "a@b"],
    *["amp;", "#35;", "#x41", "lt;", "copy", "-->", "<!--", "<a>", "</b>", "<?", "<!", "<\t", "<\n", "<a@b>"],
    *["```", "~~~", "***", "---", "===", "> ", "# ", "- ", "+ ", "|-|", ":-:", "[x]: /u", "  \n", "\\\n"],
    *["<http://a.b>", "<x@y.z>", "![", "](", "&#", "AT&T", "__a__", "*a*", "_a_", "~~a~~", "<div>", "&lt;"],
]
_LINKS = [
    "example.com",
    "example.com/a_(b)*c*",
    "http://x.org/a|b[c]",
    "user@example.com",
    "https://example.com/?a=1&b=2",
    "bücher.de/ü",
    "http://[::1]/x ",  # the space: find_links("http://[::1]/xa.com") raises IndexError (reported)
    "www.x.com/%zz",
    "example.com/a%3Cb%22c%3E",
    "example.com/a%5C",
    "x.com/a%0Ab",
    "a.b/~u",
    "https://x.com/a_b_",
    "ftp://x.com/*",
    "x.com/!",
    "x.com/a%20b",
    "helpers.py",
]
_PIECE = st.one_of(st.sampled_from(_PIECES), st.sampled_from(_LINKS), st.text(max_size=3))
_TEXTS = st.lists(_PIECE, max_size=25).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_TEXTS, st.sampled_from([Policy.default(), Policy.none()]))
def test_round_trip_generated(text: str, policy: Policy) -> None:
    assert round_trip_errors(text, policy=policy)[0] == []
    assert round_trip_errors(text, parse=_html5lib_view, policy=policy)[0] == []


def urllib_href(href: str) -> str:
    """The contract's destination encoding, by urllib: RFC 3986 reserved and
    unreserved characters and ``%XX`` kept, the rest UTF-8 percent-encoded."""
    href = re.sub("[\ud800-\udfff]", "\ufffd", href)
    return quote(re.sub("%(?![0-9A-Fa-f]{2})", "%25", href), safe=";/?:@&=+$,-_.!~*'()#%")


HOSTILE_HREFS = [
    "https://x.com/>",
    "https://x.com/)",
    "https://x.com/\\",
    "https://x.com/&lt;b&gt;",
    "https://x.com/&amp;&",
    'https://x.com/"><script>alert(1)</script>',
    "https://x.com/<script>alert(1)</script>",
    "https://x.com/a>b)c](d<e",
    "https://x.com/`a`*b*_c_",
    "https://x.com/%",
    "https://x.com/[y]",
    "https://ü.example/ü",
    "HTTPS://X.COM/A",
    "mailto:a@b.example?x=<y>",
    "https://x.com/\u2028'",
    "https://x.com/\ud800",
    "https://x.com/a b",  # a space: left as text by linkify (both formats)
    "https://x.com/\n<b>",  # a line break: the same
    "javascript:alert(1)",  # not a scheme linkify writes: the same
]
HOSTILE_TEXTS = [
    None,
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "](javascript:alert(1))",
    "\n\n# h\n",
    "\r\n> q",
    "*em* `c` ![i](x)",
    "&lt;b&gt;",
    "\\",
    "",
    "  ",
    "a\\\nb",
    "]",
    "[",
    "a\0b\2c",
    "<x@y.example>",
]


def test_hostile_callbacks() -> None:
    """Callbacks whose href or text holds Markdown or HTML syntax: the same
    links as the HTML format, and nothing else, raw HTML on or off."""
    count = 0
    for href, text in itertools.product(HOSTILE_HREFS, HOSTILE_TEXTS):

        def callback(
            link: uts58.Link, attrs: dict[str, str], href: str = href, text: str | None = text
        ) -> dict[str, str]:
            changed = {**attrs, "href": href, "title": 'x"y'}
            if text is not None:
                changed["_text"] = text
            return changed

        for source in ["see example.com now", "example.com", "a\nexample.com!\nb", "!example.com", "    example.com  "]:
            errors, links = round_trip_errors(source, href=urllib_href, callback=callback)
            assert errors == []
            count += links
    assert count > 500


def test_hostile_callbacks_html5lib() -> None:
    def callback(link: uts58.Link, attrs: dict[str, str]) -> dict[str, str]:
        return {**attrs, "href": "https://x.com/a>b)<script>\\&amp;", "_text": "<script>alert(1)</script>\n\n# h"}

    assert round_trip_errors("a example.com b", parse=_html5lib_view, href=urllib_href, callback=callback) == ([], 1)


# ---------------------------------------------------------------------------
# attrs, callbacks' attributes, wrong types


def test_attrs_have_no_markdown_form() -> None:
    with pytest.raises(ValueError, match="attrs"):
        linkify("example.com", format="markdown", attrs={"rel": "nofollow"})
    assert linkify("example.com", format="markdown", attrs={}) == "[example.com](<https://example.com/>)"
    # A callback's attributes are left out; its href and text are written.
    both = lambda link, attrs: {**attrs, "rel": "nofollow", "href": "https://e.example/", "_text": "e"}  # noqa: E731
    assert linkify("example.com", format="markdown", callback=both) == "[e](<https://e.example/>)"
    # A callback that sets an event handler is refused in both formats (D134).
    onclick = lambda link, attrs: {**attrs, "onclick": "alert(1)"}  # noqa: E731
    for form in ("html", "markdown"):
        with pytest.raises(UnsafeAttributeError, match="callback: 'onclick' is an event handler"):
            linkify("example.com", format=form, callback=onclick)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: linkify(None, format="markdown"), "text must be str"),  # type: ignore[arg-type]
        (lambda: escape_text(b"x"), "text must be str"),  # type: ignore[arg-type]
        (lambda: escape_text("x", starts_line=1), "starts_line must be bool"),  # type: ignore[arg-type]
        (lambda: escape_text("x", ends_line=None), "ends_line must be bool"),  # type: ignore[arg-type]
        (lambda: escape_link_text(1), "text must be str"),  # type: ignore[arg-type]
        (lambda: link_destination(None), "url must be str"),  # type: ignore[arg-type]
        (lambda: markdown_link("a", 1), "url must be str"),  # type: ignore[arg-type]
        (lambda: markdown_link(1, "https://x/"), "text must be str"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()


# ---------------------------------------------------------------------------
# Linear work


HOSTILE_UNITS = [
    "*",
    "_",
    "\\",
    "<",
    "&a;",
    "&#",
    "~",
    "\n# ",
    "    \n",
    " \tx",
    "1.",
    "=\n",
    "\n=",
    "|-:",
    "[",
    "![",
    "x@y.example ",
    "example.com/_ ",
    "a_b",
    "\r\n",
]


@pytest.mark.parametrize("unit", HOSTILE_UNITS)
def test_linear_output_and_one_pass(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each character is escaped once (the text given to escape_text adds
    up to the text, however many links), and the output of 2N units is
    twice that of N."""
    seen: list[int] = []
    real = uts58.output.markdown_text.escape_text

    def counting(text: str, **flags: bool) -> str:
        seen.append(len(text))
        return real(text, **flags)

    monkeypatch.setattr("uts58.output.linkifier.escape_text", counting)
    sizes = []
    for n in (20_000, 40_000):
        seen.clear()
        text = unit * n
        out = linkify(text, format="markdown", policy=Policy.none())
        assert sum(seen) <= len(text)
        sizes.append(len(out))
    assert 1.9 <= sizes[1] / sizes[0] <= 2.1


@pytest.mark.parametrize(
    "url", ["http://[" + ":" * 200_000, "http://" + "@" * 200_000 + "[:", "https://x/" + "&%" * 100_000]
)
def test_linear_destinations(url: str) -> None:
    # Hostile for a backtracking regex (a quadratic one would not finish).
    assert len(link_destination(url)) >= len(url)
