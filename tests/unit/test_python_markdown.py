"""The Python-Markdown extension (uts58.markdown.python_markdown).

Rendered HTML is read back with justhtml and html5lib (HTML5 parsers that
share no code with uts58 or Python-Markdown) and compared with what
Python-Markdown renders without the extension: the only change allowed is
``a`` elements around text that was there.  Bounded work is counted in
scanned characters, and in time ratios between sizes, never in seconds.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import html5lib
import markdown
import pytest
from counting import Scans, count_grapheme_lookups, count_scans, profile_steps
from html5dom import corpus, iter_elements, justhtml_dom, without_marked_links
from hypothesis import given
from hypothesis import strategies as st
from markdown.extensions import Extension
from markdown_cases import (
    PRESETS,
    attributes,
    check_cdata_outside_foreign_content,
)

import uts58.markdown.python_markdown
from uts58 import Policy, find_links, linkify
from uts58.html.raw import RAW_TEXT, SKIPPED
from uts58.html.textview import TextView
from uts58.markdown.python_markdown import LinkifyExtension

ROOT = Path(__file__).resolve().parents[2]
# The project's documents, and the text of UTS #58 itself (read where present).
DOCUMENTS = ["README.md", "docs/decisions.md", "../shared/spec/tr58-2.txt"]
MARK = "data-uts58-test"
SAFE = ("http://", "https://", "mailto:")
AFTER = ["https://after.com/", "http://after.com/y"]


class NoHtml(Extension):
    """Python-Markdown with raw HTML off: it is escaped as text."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


def render(text: str, *, html: bool = True, extensions: tuple[Any, ...] = (), **options: Any) -> str:
    """``text`` with the extension (options given) and ``extensions``."""
    return markdown.markdown(text, extensions=[*extensions, *([] if html else [NoHtml()]), LinkifyExtension(**options)])


def plain(text: str, *, html: bool = True, extensions: tuple[Any, ...] = ()) -> str:
    return markdown.markdown(text, extensions=[*extensions, *([] if html else [NoHtml()])])


def anchors(html: str) -> list[tuple[str, str]]:
    """(href, text) of the ``a`` elements, as an HTML5 parser reads them."""
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return [(a.get("href"), "".join(a.itertext())) for a in root.iter("a")]


def document_text(name: str) -> str:
    path = ROOT / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path.read_text(encoding="utf-8")


def hrefs(html: str) -> list[str]:
    return [href for href, _ in anchors(html)]


def added_links(html: str, before: str) -> list[str]:
    old = hrefs(before)
    return [h for h in hrefs(html) if h not in old]


# --------------------------------------------------------------------------
# Use and options


def test_by_name_by_class_and_by_config() -> None:
    text = "See bücher.de/straße, x@example.com and https://example.com/a_b_c."
    expected = ["https://xn--bcher-kva.de/stra%C3%9Fe", "mailto:x@example.com", "https://example.com/a_b_c"]
    assert hrefs(markdown.markdown(text, extensions=["uts58.markdown.python_markdown"])) == expected
    assert hrefs(markdown.markdown(text, extensions=[LinkifyExtension()])) == expected
    configured = markdown.markdown(
        text,
        extensions=["uts58.markdown.python_markdown"],
        extension_configs={"uts58.markdown.python_markdown": {"kinds": ["email"]}},
    )
    assert hrefs(configured) == ["mailto:x@example.com"]
    # The link text is the text that was there.
    assert [t for _, t in anchors(markdown.markdown(text, extensions=[LinkifyExtension()]))] == [
        "bücher.de/straße",
        "x@example.com",
        "https://example.com/a_b_c",
    ]


def test_links_are_those_of_linkify() -> None:
    text = "bücher.de/straße, <mail> x@example.com! helpers.py раураl.com http://[::1]:8080/x ftp://example.com"
    assert hrefs(markdown.markdown(text, extensions=[LinkifyExtension()])) == hrefs(linkify(text))
    for options in (
        {"policy": Policy.none()},
        {"require_scheme": True},
        {"schemes": ["ftp", "http"]},
        {"kinds": "url"},
        {"attrs": {"rel": "nofollow", "target": "_blank"}},
    ):
        assert hrefs(render(text, **options)) == hrefs(linkify(text, **options)), options


def test_hrefs_read_back_as_detection_wrote_them() -> None:
    """Python-Markdown's serializer leaves an ``&`` that looks like an
    entity as it is: the href must still read back exactly."""
    text = "http://example.com/?a=1&b=2&amp;c=3&lt;d x"
    html = render(text, policy=Policy.none())
    (link,) = find_links(html5lib.parseFragment(plain(text), namespaceHTMLElements=False).findtext("p"))
    assert hrefs(html) == [link.href]


def test_presets_and_display() -> None:
    """rel/target on external links only (D82, D83); display= shows the
    shortened display form instead of the text that was there, with the
    whole one as title, and leaves the href (D79-D81, D90)."""
    text = "a.com/some/long/path, B.com/some/long/path and x@b.com; www.a.com/x &amp; b.com/?p=1&amp;q=2"
    external = {"rel": "nofollow noopener", "target": "_blank"}
    assert attributes(render(text, display={"max_length": 12}, **PRESETS)) == [
        {"href": "https://a.com/some/long/path", "title": "a.com/some/long/path", "#text": "a.com/some/…"},
        {"href": "https://b.com/some/long/path", **external, "title": "b.com/some/long/path", "#text": "b.com/some/…"},
        {"href": "mailto:x@b.com", "#text": "x@b.com"},
        {"href": "https://www.a.com/x", "#text": "www.a.com/x"},
        {"href": "https://b.com/?p=1&q=2", **external, "title": "b.com/?p=1&q=2", "#text": "b.com/?p=1&…"},
    ]
    # Without display= the text that was there stays (B.com), with it the display form (b.com).
    assert [a["#text"] for a in attributes(render(text, **PRESETS))][1] == "B.com/some/long/path"
    assert [a["#text"] for a in attributes(render(text, display={}))][1] == "b.com/some/long/path"
    # Options by name, as extension_configs give them.
    configs = {"uts58.markdown.python_markdown": {"rel": "ugc", "display": {"max_length": 6, "location": "middle"}}}
    html = markdown.markdown("b.com/xyz", extensions=["uts58.markdown.python_markdown"], extension_configs=configs)
    assert attributes(html) == [{"href": "https://b.com/xyz", "rel": "ugc", "title": "b.com/xyz", "#text": "b.com…"}]


def test_unknown_options_are_refused() -> None:
    with pytest.raises(TypeError, match="fuzzy"):
        markdown.markdown(
            "x",
            extensions=["uts58.markdown.python_markdown"],
            extension_configs={"uts58.markdown.python_markdown": {"fuzzy": True}},
        )


def test_a_markdown_instance_converts_again_the_same() -> None:
    md = markdown.Markdown(extensions=["uts58.markdown.python_markdown"])
    text = "<b>x</b> a.com &amp; b.com `c.com`"
    first = md.convert(text)
    assert md.reset().convert(text) == first
    assert hrefs(first) == ["https://a.com/", "https://b.com/"]


def test_entities_are_read_as_their_characters() -> None:
    """A link never starts or ends inside what the reader sees as one word,
    and its text in the HTML is the source it replaced."""
    html = render("ex&#97;mple.com and example.co&#109; and a&amp;b.com and a&lt;b.com and x&nbsp;y.com")
    assert anchors(html) == [
        ("https://example.com/", "example.com"),
        ("https://example.com/", "example.com"),
        # (not "a&b.com": a domain glued to "&" is not one, D51)
        ("https://b.com/", "b.com"),
        ("https://y.com/", "y.com"),
    ]
    assert "ex&#97;mple.com</a>" in html  # the entity is kept
    # An entity of two characters: no offset inside it maps to the source.
    view = TextView([("a", None), ("&NotEqualTilde;", "\u2242\u0338"), ("d", None)])
    assert view.text == "a\u2242\u0338d"
    assert [view.to_source(k) for k in range(5)] == [0, 1, None, 16, 17]


def test_link_text_is_the_source_or_the_display_form() -> None:
    text = "x.com/\u202eevil and http://xn--bcher-kva.de/%C3%A4 and ex&#97;mple.com/a&amp;b"
    assert anchors(render(text)) == [
        ("https://x.com/%E2%80%AEevil", "x.com/\u202eevil"),
        ("http://xn--bcher-kva.de/%C3%A4", "http://xn--bcher-kva.de/%C3%A4"),
        ("https://example.com/a&b", "example.com/a&b"),
    ]
    # The display form, as linkify writes it (Bidi controls escaped: Policy.default()).
    assert anchors(render(text, link_text="display")) == anchors(
        linkify("x.com/\u202eevil and http://xn--bcher-kva.de/%C3%A4 and example.com/a&b")
    )
    assert [t for _, t in anchors(render(text, link_text="display"))] == [
        "x.com/%E2%80%AEevil",
        "http://bücher.de/ä",
        "example.com/a&b",
    ]
    with pytest.raises(ValueError, match="link_text"):
        LinkifyExtension(link_text="shown")


# --------------------------------------------------------------------------
# What is not linked


@pytest.mark.parametrize("html_option", [True, False])
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("`code.com` and ``http://code.com/x``", "markdown"),
        ("    indented.com http://indented.com\n", "markdown"),
        ("```\nfenced.com http://fenced.com\n```", "markdown"),
        ("[label.com http://label.com](http://target.com) ![alt.com](http://img.com/x.png)", "markdown"),
        ("<http://autolink.com/x> <x@autolink.com>", "markdown"),
        ("[ref.com]\n\n[ref.com]: http://target.com", "markdown"),
        ("<a href='http://target.com'>inline.com http://inline.com/x</a>", "raw"),
        ("x <code>code.com http://code.com</code>", "raw"),
        ("x <textarea>area.com http://area.com/_x_</textarea>", "raw"),
        ("x <title>title.com</title> <script>script.com</script>", "raw"),
        ("x <svg><text>svg.com http://svg.com</text></svg>", "raw"),
        ("x <!-- comment.com http://comment.com -->", "raw"),
        ("<pre>\npre.com http://pre.com\n</pre>", "raw"),
        ("<div>\nblock.com http://block.com\n</div>", "raw"),
        ("x <code>\n\nopen.com http://open.com\n\n</code>", "raw"),
        ("x <a href='t'>\n\nopen.com http://open.com\n\n</a>", "raw"),
        ("x <code>\n\nopen.com http://open.com", "open"),
        ("x <plaintext>\n\nopen.com http://open.com", "open"),
    ],
)
def test_nothing_linked_inside_code_links_and_raw_html(text: str, kind: str, html_option: bool) -> None:
    """Only "after.com http://after.com/y" after the text is plain text;
    with HTML off, raw HTML is text and its URLs are linked too."""
    source = text + "\n\nafter.com http://after.com/y"
    extensions = ("fenced_code",)
    html = render(source, html=html_option, extensions=extensions)
    added = added_links(html, plain(source, html=html_option, extensions=extensions))
    if kind == "markdown" or (html_option and kind == "raw"):
        assert added == AFTER
    elif html_option:
        assert added == []
    else:
        assert added[-2:] == AFTER and len(added) > 2
    for node, path in iter_elements(justhtml_dom(html)):
        if node[1] == "a":
            assert not ({"a", "code", "pre"} | RAW_TEXT | SKIPPED) & set(path)


# --------------------------------------------------------------------------
# Public corpora: the only change is links around text that was there


@pytest.mark.parametrize("name", ["markdown-it-py", "commonmark-spec"])
def test_corpus_renders_the_same_plus_links(name: str) -> None:
    failures = []
    links = 0
    for record_id, text in corpus(name):
        for html_option in (True, False):
            html = render(text, html=html_option, attrs={MARK: ""})
            dom = justhtml_dom(html)
            stripped, found = without_marked_links(dom, MARK)
            links += len(found)
            problems = []
            if stripped != justhtml_dom(plain(text, html=html_option)):
                problems.append("DOM")
            problems += [href for href, _ in found if not href.startswith(SAFE)]
            for node, path in iter_elements(dom):
                if node[1] == "a" and MARK in dict(node[2]) and {"a", "code", "pre"} & set(path):
                    problems.append(f"a inside {path}")
            if problems:
                failures.append((record_id, html_option, problems))
    assert not failures, failures[:10]
    assert links >= 5  # the corpora do hold links (the check is not empty)


PIECES = [
    *("http://a.com/x_y_", "https://b.org/p*q*", "www.c.net", "d@e.com", "mailto:f@g.org", "e.com", ".com"),
    *("ex", "ample", "https://", "*", "_", "`", "[", "]", "(", ")", "<", ">", "!", "\\", "&amp;", "&#97;"),
    *("<b>", "</b>", "<a href='x'>", "</a>", "<code>", "</code>", "<textarea>", "</textarea>", "<!--", "-->"),
    *("<div>", "</div>", " ", "\n", "\n\n", "    ", "> ", "- ", "```\n"),
]


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), st.booleans())
def test_markdown_soup_renders_the_same_plus_links(text: str, html_option: bool) -> None:
    html = render(text, html=html_option, attrs={MARK: ""})
    dom = justhtml_dom(html)
    stripped, found = without_marked_links(dom, MARK)
    assert stripped == justhtml_dom(plain(text, html=html_option))
    assert all(href.startswith(SAFE) for href, _ in found)
    for node, path in iter_elements(dom):
        assert node[1] != "a" or MARK not in dict(node[2]) or not {"a", "code", "pre"} & set(path)


# --------------------------------------------------------------------------
# Real documents: the links of uts58.linkify on the same paragraphs


def text_nodes(root: etree.Element) -> Iterator[str]:
    """The text nodes outside ``a``, ``code`` and ``pre``, in document order."""
    stack: list[tuple[etree.Element, bool]] = [(root, False)]
    while stack:
        element, tail = stack.pop()
        if tail:
            if element.tail:
                yield element.tail
            continue
        if element.tag in ("a", "code", "pre"):
            continue
        if element.text:
            yield element.text
        for child in reversed(element):
            stack.append((child, True))
            stack.append((child, False))


@pytest.mark.parametrize("document", DOCUMENTS)
def test_documents_link_as_linkify_does(document: str) -> None:
    """The links of uts58.linkify on each text node of the rendering without
    the extension; nothing else changed."""
    text = document_text(document)
    extensions = ("fenced_code", "tables")
    html = render(text, extensions=extensions, attrs={MARK: ""})
    before = plain(text, extensions=extensions)
    stripped, _ = without_marked_links(justhtml_dom(html), MARK)
    assert stripped == justhtml_dom(before)
    nodes = list(text_nodes(html5lib.parseFragment(before, namespaceHTMLElements=False)))
    found = [
        a.get("href") for a in html5lib.parseFragment(html, namespaceHTMLElements=False).iter("a") if MARK in a.attrib
    ]
    assert found == [h for node in nodes for h in hrefs(linkify(node))]
    assert len(nodes) >= 100
    assert found or document != DOCUMENTS[-1]  # the spec has plain-text links


def test_python_markdown_and_markdown_it_agree_on_plain_paragraphs() -> None:
    from markdown_it import MarkdownIt

    import uts58.markdown.markdown_it

    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify").use(uts58.markdown.markdown_it.plugin)
    text = "Mail x@example.com or see bücher.de/straße, https://ja.wikipedia.org/wiki/日本 (and www.example.org/a)."
    assert hrefs(render(text)) == [md.normalizeLink(h) for h in hrefs(linkify(text))] == hrefs(md.render(text))


# --------------------------------------------------------------------------
# Bounded work


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> Iterator[Scans]:
    """Count the scans of uts58.find_links made by the adapter, and their length."""
    yield count_scans(monkeypatch, uts58.markdown.python_markdown)


def hostile(n: int) -> dict[str, str]:
    return {
        "many urls": " ".join(f"http://e{i}.com/a_{i}_b and w{i}.org/x" for i in range(n // 30)),
        "schemes": "http://" * n,
        "schemes and hosts": "http://a" * n,
        "colons": ":" * 7 * n,
        "at signs": "a@" * n + "b.com",
        "at and domains": "@a.com" * n,
        "nested parentheses": "http://a.com/" + "(" * n + ")" * n,
        "dots": "a." * 4 * n,
        "entities": "a&amp;b.com&#46;" * (n // 8),
        "inline html": "<b>http://a.com</b>" * (n // 8),
        "emphasis": "*a.com* " * (n // 4),
    }


@pytest.mark.parametrize("kind", list(hostile(1)))
def test_text_is_scanned_once(scans: Scans, kind: str) -> None:
    text = hostile(20_000)[kind]
    render(text)
    assert scans.chars <= len(text)
    render(text, display={"max_length": 10, "location": "smart"}, **PRESETS)
    assert scans.chars <= 2 * len(text)


def test_shortening_a_huge_url_looks_at_few_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    """display= on a URL of n characters: the grapheme lookups do not grow with n (D81)."""
    lookups = count_grapheme_lookups(monkeypatch)
    steps = []
    for n in (100_000, 200_000):
        lookups.count = 0
        for tail in ("a" * n, "\u0915" * n, "x\u200d" * (n // 2), "\x00\ud800" * (n // 2)):
            # (Policy.none(): the default policy leaves URLs this long as text)
            options: dict[str, Any] = {"display": {"max_length": 30, "location": "middle"}, "policy": Policy.none()}
            html = render("see https://example.com/x/" + tail, **options)
            assert len(attributes(html)[0]["#text"]) <= 30
        steps.append(lookups.count)
    assert 0 < steps[0] and steps[1] <= steps[0] + 100 and steps[1] <= 2000


@pytest.mark.parametrize("kind", ["many urls", "schemes and hosts", "at and domains", "entities", "emphasis"])
def test_the_tree_processor_grows_linearly(kind: str) -> None:
    """Its own steps, N against 4N (Python-Markdown itself is not always linear:
    nested brackets are quadratic in it, with or without the extension)."""
    spent: list[int] = []
    md = markdown.Markdown(extensions=[LinkifyExtension()])
    processor = md.treeprocessors["uts58_linkify"]
    run = processor.run

    def counted(root: etree.Element) -> None:
        spent.append(profile_steps(lambda: run(root)))

    processor.run = counted  # type: ignore[method-assign]

    def cost(n: int) -> int:
        spent.clear()
        md.reset().convert(hostile(n)[kind])
        return spent[0]

    cost(10_000), cost(40_000)  # warm: tables loaded, both texts' hosts in the caches
    small, large = cost(10_000), cost(40_000)
    assert large <= 4.4 * small + 1000, (small, large)


def test_deep_trees_do_not_recurse() -> None:
    md = markdown.Markdown(extensions=[LinkifyExtension()])
    processor = md.treeprocessors["uts58_linkify"]
    root = element = etree.Element("div")
    depth = 20_000
    for _ in range(depth):
        element = etree.SubElement(element, "span")
        element.text = "see a.com"
        element.tail = " and b.com"
    processor.run(root)
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += node.tag == "a"
        stack.extend(node)
    assert count == 2 * depth


def test_a_huge_paragraph_links_everything_once() -> None:
    text = " ".join(f"http://e{i}.com/x_y_ z{i}.com" for i in range(5000))
    html = render(text)
    assert html.count("<a ") == 10_000
    assert "".join(html5lib.parseFragment(html, namespaceHTMLElements=False).itertext()) == text


def test_text_without_a_dot_or_at_is_still_looked_at() -> None:
    """Schemes without "//" and http://localhost have neither "." nor "@"."""
    assert hrefs(render("see http://localhost:8000/")) == ["http://localhost:8000/"]
    assert hrefs(render("call tel:123", schemes={"tel"})) == ["tel:123"]


def test_cdata_outside_foreign_content_is_a_bogus_comment() -> None:
    check_cdata_outside_foreign_content(render)
