"""The mistune plugin (uts58.markdown.mistune).

Rendered HTML is read back with justhtml and html5lib (HTML5 parsers that
share no code with uts58 or mistune) and compared with what mistune renders
without the plugin: the only change allowed is ``a`` elements around text
that was there.  Both HTML renderers are tested: ``escape=True`` (mistune's
default: raw HTML and entities shown as written) and ``escape=False`` (raw
HTML passes through).  Bounded work is counted in scanned characters, and
in time ratios between sizes, never in seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import html5lib
import mistune
import pytest
from counting import Scans, count_grapheme_lookups, count_scans, profile_steps
from html5dom import corpus, iter_elements, justhtml_dom, without_marked_links
from hypothesis import given
from hypothesis import strategies as st
from markdown_cases import (
    PRESETS,
    attributes,
    check_cdata_outside_foreign_content,
)
from mistune.renderers.markdown import MarkdownRenderer

import uts58.markdown.mistune
from uts58 import Policy, find_links, linkify
from uts58.html.raw import RAW_TEXT, SKIPPED
from uts58.html.textview import TextView
from uts58.markdown.mistune import _CHARREF, LINK_TOKEN, LinkifyPlugin

ROOT = Path(__file__).resolve().parents[2]
# The project's documents, and the text of UTS #58 itself (read where present).
DOCUMENTS = ["README.md", "docs/decisions.md", "docs/architecture.md", "../shared/spec/tr58-2.txt"]
MARK = "data-uts58-test"
SAFE = ("http://", "https://", "mailto:")
AFTER = ["https://after.com/", "http://after.com/y"]
PLUGINS = ("strikethrough", "table", "footnotes")


def md(*, escape: bool = True, plugins: tuple[Any, ...] = (), **options: Any) -> mistune.Markdown:
    return mistune.create_markdown(escape=escape, plugins=[*plugins, LinkifyPlugin(**options)])


def render(text: str, *, escape: bool = True, plugins: tuple[Any, ...] = (), **options: Any) -> str:
    """``text`` with the plugin (options given)."""
    return str(md(escape=escape, plugins=plugins, **options)(text))


def plain(text: str, *, escape: bool = True, plugins: tuple[Any, ...] = ()) -> str:
    return str(mistune.create_markdown(escape=escape, plugins=list(plugins))(text))


def anchors(html: str) -> list[tuple[str, str]]:
    """(href, text) of the ``a`` elements, as an HTML5 parser reads them."""
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return [(a.get("href"), "".join(a.itertext())) for a in root.iter("a")]


def hrefs(html: str) -> list[str]:
    return [href for href, _ in anchors(html)]


def added_links(html: str, before: str) -> list[str]:
    old = hrefs(before)
    return [h for h in hrefs(html) if h not in old]


def document_text(name: str) -> str:
    path = ROOT / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------
# Use and options


def test_as_function_as_instance_and_by_name() -> None:
    text = "See bücher.de/straße, x@example.com and https://example.com/a_b_c."
    expected = ["https://xn--bcher-kva.de/stra%C3%9Fe", "mailto:x@example.com", "https://example.com/a_b_c"]
    assert hrefs(mistune.create_markdown(plugins=[uts58.markdown.mistune.plugin])(text)) == expected
    assert hrefs(mistune.create_markdown(plugins=["uts58.markdown.mistune.plugin"])(text)) == expected
    assert hrefs(render(text)) == expected
    assert hrefs(render(text, kinds=["email"])) == ["mailto:x@example.com"]
    m = mistune.create_markdown()
    m.use(LinkifyPlugin())
    assert hrefs(m(text)) == expected
    # The link text is the text that was there.
    assert [t for _, t in anchors(render(text))] == ["bücher.de/straße", "x@example.com", "https://example.com/a_b_c"]


def test_links_are_those_of_linkify() -> None:
    text = "bücher.de/straße, <mail> x@example.com! helpers.py раураl.com http://[::1]:8080/x ftp://example.com"
    for escape in (True, False):
        assert hrefs(render(text, escape=escape)) == hrefs(linkify(text))
    for options in (
        {"policy": Policy.none()},
        {"require_scheme": True},
        {"schemes": ["ftp", "http"]},
        {"kinds": "url"},
        {"attrs": {"rel": "nofollow", "target": "_blank"}},
    ):
        assert anchors(render(text, **options)) == anchors(linkify(text, **options)), options


def test_hrefs_read_back_as_detection_wrote_them() -> None:
    """mistune's own link renderer decodes references in an href: the
    plugin's hrefs are written as detection made them."""
    for escape in (True, False):
        text = "http://example.com/?a=1&b=2&amp;c=3&lt;d x"
        html = render(text, escape=escape, policy=Policy.none())
        shown = html5lib.parseFragment(plain(text, escape=escape), namespaceHTMLElements=False).findtext("p")
        (link,) = find_links(shown)
        assert hrefs(html) == [link.href]


def test_custom_schemes_are_not_mistunes_harmful_links() -> None:
    """Schemes the caller enables are linked as linkify links them (mistune's
    sanitize_url would write "#harmful-link" for ssh:)."""
    text = "ssh://host.example/x"
    assert hrefs(render(text, schemes={"ssh"})) == hrefs(linkify(text, schemes={"ssh"})) == [text]


@pytest.mark.parametrize("escape", [True, False])
def test_presets_and_display(escape: bool) -> None:
    """rel/target on external links only (D82, D83); display= shows the
    shortened display form instead of the text that was there, with the
    whole one as title, and leaves the href (D79-D81, D90).  (With
    escape=True mistune shows "&amp;" as written: the link holds it.)"""
    text = "a.com/some/long/path, B.com/some/long/path and x@b.com; www.a.com/x &amp; b.com/?p=1&amp;q=2"
    external = {"rel": "nofollow noopener", "target": "_blank"}
    amp = "&amp;" if escape else "&"
    assert attributes(render(text, escape=escape, display={"max_length": 12}, **PRESETS)) == [
        {"href": "https://a.com/some/long/path", "title": "a.com/some/long/path", "#text": "a.com/some/…"},
        {"href": "https://b.com/some/long/path", **external, "title": "b.com/some/long/path", "#text": "b.com/some/…"},
        {"href": "mailto:x@b.com", "#text": "x@b.com"},
        {"href": "https://www.a.com/x", "#text": "www.a.com/x"},
        {"href": f"https://b.com/?p=1{amp}q=2", **external, "title": f"b.com/?p=1{amp}q=2", "#text": "b.com/?p=1&…"},
    ]
    # Without display= the text that was there stays (B.com), with it the display form (b.com).
    assert [a["#text"] for a in attributes(render(text, escape=escape, **PRESETS))][1] == "B.com/some/long/path"
    assert [a["#text"] for a in attributes(render(text, escape=escape, display={}))][1] == "b.com/some/long/path"


def test_the_ast_holds_the_presets_and_the_title() -> None:
    plugin = LinkifyPlugin(rel="ugc", display={"max_length": 6, "location": "middle"})
    tokens = mistune.create_markdown(renderer="ast", plugins=[plugin])("b.com/xyz")
    assert isinstance(tokens, list)
    assert tokens[0]["children"] == [
        {
            "type": LINK_TOKEN,
            "children": [{"type": "text", "raw": "b.com…"}],
            "attrs": {"href": "https://b.com/xyz", "rel": "ugc", "title": "b.com/xyz"},
        }
    ]


def test_finder_or_options_not_both() -> None:
    from uts58 import Finder

    assert hrefs(render("a.corp b.com", finder=Finder(known_tlds={"corp"}))) == ["https://a.corp/"]
    with pytest.raises(ValueError, match="finder"):
        LinkifyPlugin(finder=Finder(), require_scheme=True)


def test_the_plugin_wants_a_mistune_markdown() -> None:
    with pytest.raises(TypeError, match="md"):
        LinkifyPlugin()("not markdown")  # type: ignore[arg-type]


def test_installing_again_replaces_the_options() -> None:
    m = mistune.create_markdown(plugins=[LinkifyPlugin()])
    m.use(LinkifyPlugin(attrs={"rel": "ugc"}))
    html = m("a.com")
    assert html == '<p><a href="https://a.com/" rel="ugc">a.com</a></p>\n'
    assert m("a.com") == html  # linked once, render after render


def test_entities_are_read_as_the_renderer_shows_them() -> None:
    """Without escaping mistune decodes references: a link never starts or
    ends inside what the reader sees as one word, and its text is the
    source it replaced.  With escaping it shows them as written."""
    text = "ex&#97;mple.com and example.co&#109; and a&amp;b.com and a&lt;b.com and x&nbsp;y.com"
    assert anchors(render(text, escape=False)) == [
        ("https://example.com/", "example.com"),
        ("https://example.com/", "example.com"),
        # (not "a&b.com": a domain glued to "&" is not one, D51)
        ("https://b.com/", "b.com"),
        ("https://y.com/", "y.com"),
    ]
    shown = "ex&#97;mple.com and example.co&#109; and a&amp;b.com and a&lt;b.com and x&nbsp;y.com"
    assert anchors(render(text, escape=True)) == anchors(linkify(shown))
    # An entity of two characters: no offset inside it maps to the source.
    view = TextView.decoding("a&NotEqualTilde;d", _CHARREF)
    assert view.text == "a\u2242\u0338d" and view.source == "a&NotEqualTilde;d"
    assert [view.to_source(k) for k in range(5)] == [0, 1, None, 16, 17]
    # Not a reference mistune knows (no ";", unknown name): plain text.
    assert TextView.decoding("a&amp b&nosuch;c", _CHARREF).text == "a&amp b&nosuch;c"


def test_link_text_is_the_source_or_the_display_form() -> None:
    text = "x.com/\u202eevil and http://xn--bcher-kva.de/%C3%A4 and ex&#97;mple.com/a&amp;b"
    assert anchors(render(text, escape=False)) == [
        ("https://x.com/%E2%80%AEevil", "x.com/\u202eevil"),
        ("http://xn--bcher-kva.de/%C3%A4", "http://xn--bcher-kva.de/%C3%A4"),
        ("https://example.com/a&b", "example.com/a&b"),
    ]
    # The display form, as linkify writes it (Bidi controls escaped: Policy.default()).
    display = "x.com/\u202eevil and http://xn--bcher-kva.de/%C3%A4 and example.com/a&b"
    assert anchors(render(text, escape=False, link_text="display")) == anchors(linkify(display))
    assert [t for _, t in anchors(render(display, escape=True, link_text="display"))] == [
        "x.com/%E2%80%AEevil",
        "http://bücher.de/ä",
        "example.com/a&b",
    ]


def test_the_ast_holds_link_tokens() -> None:
    ast = mistune.create_markdown(renderer="ast", plugins=[LinkifyPlugin(attrs={"rel": "ugc"})])("a.com *b.com*")
    assert isinstance(ast, list)
    (paragraph,) = ast
    first, space, emphasis = paragraph["children"]
    assert first == {
        "type": LINK_TOKEN,
        "children": [{"type": "text", "raw": "a.com"}],
        "attrs": {"href": "https://a.com/", "rel": "ugc"},
    }
    assert space == {"type": "text", "raw": " "}
    assert emphasis["children"][0]["attrs"]["href"] == "https://b.com/"


def test_markdown_renderer_writes_the_text_back() -> None:
    text = "See a.com, *b.com* and [c](https://c.com).\n"
    m = mistune.create_markdown(renderer=MarkdownRenderer(), plugins=[LinkifyPlugin()])
    assert m(text) == mistune.create_markdown(renderer=MarkdownRenderer())(text)


def test_footnotes_tables_and_strikethrough_are_linked() -> None:
    text = "x[^1] ~~old.com~~\n\n| a |\n|---|\n| cell.com |\n\n[^1]: note.com and `code.com`\n"
    for escape in (True, False):
        html = render(text, escape=escape, plugins=PLUGINS)
        assert added_links(html, plain(text, escape=escape, plugins=PLUGINS)) == [
            "https://old.com/",
            "https://cell.com/",
            "https://note.com/",
        ]


def test_a_markdown_instance_renders_again_the_same() -> None:
    for escape in (True, False):
        m = md(escape=escape)
        text = "<b>x</b> a.com &amp; b.com `c.com`"
        first = m(text)
        assert m(text) == first
        assert hrefs(first) == ["https://a.com/", "https://b.com/"]


# --------------------------------------------------------------------------
# What is not linked


@pytest.mark.parametrize("escape", [True, False])
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
        ("[<code>](http://t.com) x\n\nopen.com http://open.com\n\n</code>", "raw"),
        ("x <code>\n\nopen.com http://open.com", "open"),
        ("x <plaintext>\n\nopen.com http://open.com", "open"),
    ],
)
def test_nothing_linked_inside_code_links_and_raw_html(text: str, kind: str, escape: bool) -> None:
    """Only "after.com http://after.com/y" after the text is plain text;
    with escaping, raw HTML is text and its URLs are linked too."""
    source = text + "\n\nafter.com http://after.com/y"
    html = render(source, escape=escape)
    added = added_links(html, plain(source, escape=escape))
    if kind == "markdown" or (not escape and kind == "raw"):
        assert added == AFTER
    elif not escape:
        assert added == []
    else:
        assert added[-2:] == AFTER and len(added) > 2
    for node, path in iter_elements(justhtml_dom(html)):
        if node[1] == "a":
            assert not ({"a", "code", "pre"} | RAW_TEXT | SKIPPED) & set(path)


def test_url_plugin_links_are_left_alone() -> None:
    text = "see http://a.com/x and b.com"
    html = render(text, plugins=("url",))
    assert hrefs(html) == ["http://a.com/x", "https://b.com/"]
    assert html.count("<a ") == 2


# --------------------------------------------------------------------------
# Public corpora: the only change is links around text that was there


def problems(text: str, escape: bool) -> tuple[list[str], int]:
    """What differs between ``text`` rendered with the plugin and without,
    besides links around text that was there; and the number of links."""
    try:
        before = plain(text, escape=escape, plugins=PLUGINS)
    except IndexError:  # mistune's own block_code on an info string of a reference to a space
        with pytest.raises(IndexError):
            render(text, escape=escape, plugins=PLUGINS)
        return [], 0
    html = render(text, escape=escape, plugins=PLUGINS, attrs={MARK: ""})
    dom = justhtml_dom(html)
    stripped, found = without_marked_links(dom, MARK)
    found_problems = []
    if stripped != justhtml_dom(before):
        found_problems.append("DOM")
    found_problems += [href for href, _ in found if not href.startswith(SAFE)]
    for node, path in iter_elements(dom):
        if node[1] == "a" and MARK in dict(node[2]) and ({"a", "code", "pre"} | RAW_TEXT | SKIPPED) & set(path):
            found_problems.append(f"a inside {path}")
    return found_problems, len(found)


@pytest.mark.parametrize("name", ["markdown-it-py", "commonmark-spec"])
def test_corpus_renders_the_same_plus_links(name: str) -> None:
    failures = []
    links = 0
    for record_id, text in corpus(name):
        for escape in (True, False):
            found, count = problems(text, escape)
            links += count
            if found:
                failures.append((record_id, escape, found))
    assert not failures, failures[:10]
    assert links >= 5  # the corpora do hold links (the check is not empty)


PIECES = [
    *("http://a.com/x_y_", "https://b.org/p*q*", "www.c.net", "d@e.com", "mailto:f@g.org", "e.com", ".com"),
    *("ex", "ample", "https://", "*", "_", "`", "[", "]", "(", ")", "<", ">", "!", "\\", "&amp;", "&#97;"),
    *("<b>", "</b>", "<a href='x'>", "</a>", "<code>", "</code>", "<textarea>", "</textarea>", "<!--", "-->"),
    *("<div>", "</div>", " ", "\n", "\n\n", "    ", "> ", "- ", "```\n", "[^1]", "[^1]: ", "|", "~~"),
]


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), st.booleans())
def test_markdown_soup_renders_the_same_plus_links(text: str, escape: bool) -> None:
    assert problems(text, escape)[0] == []


# --------------------------------------------------------------------------
# Real documents: the links of uts58.linkify on the same text nodes


def text_nodes(html: str) -> list[str]:
    """The text nodes outside ``a``, ``code`` and ``pre``, in document order (html5lib)."""
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    out: list[str] = []
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        element, tail = stack.pop()
        if tail:
            if element.tail:
                out.append(element.tail)
            continue
        if element.tag in ("a", "code", "pre") or element.tag in RAW_TEXT:
            continue
        if element.text:
            out.append(element.text)
        for child in reversed(element):
            stack.append((child, True))
            stack.append((child, False))
    return out


@pytest.mark.parametrize("escape", [True, False])
@pytest.mark.parametrize("document", DOCUMENTS)
def test_documents_link_as_linkify_does(document: str, escape: bool) -> None:
    """The links of uts58.linkify on each text node of the rendering without
    the plugin; nothing else changed; the renderer's own links all kept."""
    text = document_text(document)
    html = render(text, escape=escape, plugins=PLUGINS, attrs={MARK: ""})
    before = plain(text, escape=escape, plugins=PLUGINS)
    dom = justhtml_dom(html)
    stripped, _ = without_marked_links(dom, MARK)
    assert stripped == justhtml_dom(before)
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    found = [a.get("href") for a in root.iter("a") if MARK in a.attrib]
    nodes = text_nodes(before)
    assert found == [h for node in nodes for h in hrefs(linkify(node))]
    assert [a.get("href") for a in root.iter("a") if MARK not in a.attrib] == hrefs(before)
    for node, path in iter_elements(dom):
        assert node[1] != "a" or not ({"a", "code", "pre"} & set(path)), path
    assert len(nodes) >= 20
    assert found or document != DOCUMENTS[-1]  # the spec has plain-text links


# --------------------------------------------------------------------------
# Bounded work


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> Iterator[Scans]:
    """Count the scans of uts58.find_links made by the plugin, and their length."""
    yield count_scans(monkeypatch, uts58.markdown.mistune)


def hostile(n: int) -> dict[str, str]:
    return {
        "many urls": " ".join(f"http://e{i}.com/a_{i}_b and w{i}.org/x" for i in range(n // 30)),
        "schemes": "http://" * n,
        "schemes and hosts": "http://a" * n,
        "colons": ":" * 7 * n,
        "at signs": "a@" * n + "b.com",
        "at and domains": "@a.com" * n,
        "nested brackets": "[" * n + "http://a.com" + "]" * n,
        "nested parentheses": "http://a.com/" + "(" * n + ")" * n,
        "nested emphasis": "*_" * (n // 4) + "a.com" + "_*" * (n // 4),
        "dots": "a." * 4 * n,
        "entities": "a&amp;b.com&#46;" * (n // 8),
        "inline html": "<b>http://a.com</b>" * (n // 8),
        "unclosed html": "<a href='x" + " http://a.com" * (n // 8),
        "textarea": "<textarea>" + "http://a.com " * (n // 2),
        "emphasis": "*a.com* " * (n // 4),
        "nuls and surrogates": "a.com\x00\ud800b.com\udfff " * (n // 8),
    }


@pytest.mark.parametrize("escape", [True, False])
@pytest.mark.parametrize("kind", list(hostile(1)))
def test_text_is_scanned_once(scans: Scans, kind: str, escape: bool) -> None:
    """(With the presets and display= too.)"""
    text = hostile(20_000)[kind]
    render(text, escape=escape)
    assert scans.chars <= len(text)
    render(text, escape=escape, display={"max_length": 10, "location": "smart"}, **PRESETS)
    assert scans.chars <= 2 * len(text)


@pytest.mark.parametrize("escape", [True, False])
def test_shortening_a_huge_url_looks_at_few_characters(monkeypatch: pytest.MonkeyPatch, escape: bool) -> None:
    """display= on a URL of n characters: the grapheme lookups do not grow with n (D81)."""
    lookups = count_grapheme_lookups(monkeypatch)
    steps = []
    for n in (100_000, 200_000):
        lookups.count = 0
        for tail in ("a" * n, "\u0915" * n, "x\u200d" * (n // 2), "\x00\ud800" * (n // 2)):
            # (Policy.none(): the default policy leaves URLs this long as text)
            options: dict[str, Any] = {"display": {"max_length": 30, "location": "middle"}, "policy": Policy.none()}
            html = render("see https://example.com/x/" + tail, escape=escape, **options)
            assert len(attributes(html)[0]["#text"]) <= 30
        steps.append(lookups.count)
    assert 0 < steps[0] and steps[1] <= steps[0] + 100 and steps[1] <= 2000


def test_nuls_and_lone_surrogates_render_as_without_the_plugin() -> None:
    text = "a.com\x00b.com \ud800c.com\udfff d.com"
    for escape in (True, False):
        html = render(text, escape=escape, attrs={MARK: ""})
        assert html.replace(f' {MARK}=""', "").count("<a ") == 4
        stripped, found = without_marked_links(justhtml_dom(html), MARK)
        assert stripped == justhtml_dom(plain(text, escape=escape))
        assert [h for h, _ in found] == hrefs(linkify(text.replace("\x00", "\ufffd")))


@pytest.mark.parametrize("kind", ["many urls", "schemes and hosts", "at and domains", "entities", "nested emphasis"])
def test_the_plugin_grows_linearly(kind: str) -> None:
    """Its own steps, N against 4N, on tokens mistune has parsed (mistune's
    parse is not the plugin's: nested brackets are quadratic in it)."""
    plugin = LinkifyPlugin()
    m = mistune.create_markdown(escape=False, plugins=[plugin])
    parser = mistune.create_markdown(renderer="ast")

    def cost(n: int) -> int:
        _, state = parser.parse(hostile(n)[kind])  # (the AST renderer parses every inline text)
        return profile_steps(lambda: plugin.link_tokens(m, state))

    cost(10_000), cost(40_000)  # warm: tables loaded, both texts' hosts in the caches
    small, large = cost(10_000), cost(40_000)
    assert large <= 4.4 * small + 1000, (small, large)


def test_deep_token_trees_do_not_recurse() -> None:
    """Tokens nested deeper than Python's recursion limit (built by hand:
    mistune limits its own nesting)."""
    plugin = LinkifyPlugin()
    m = mistune.create_markdown(renderer="ast", plugins=[plugin])
    state = mistune.BlockState()
    token: dict[str, Any] = {"type": "paragraph", "children": []}
    state.tokens = [token]
    depth = 20_000
    for _ in range(depth):
        inner: dict[str, Any] = {"type": "emphasis", "children": [{"type": "text", "raw": "see a.com "}]}
        token["children"].append(inner)
        token["children"].append({"type": "text", "raw": " and b.com"})
        token = inner
    plugin.link_tokens(m, state)
    count, stack = 0, list(state.tokens)
    while stack:
        node = stack.pop()
        count += node["type"] == LINK_TOKEN
        if node["type"] != LINK_TOKEN:
            stack.extend(node.get("children", ()))
    assert count == 2 * depth


def test_a_huge_paragraph_links_everything_once() -> None:
    text = " ".join(f"http://e{i}.com/x_y_ z{i}.com" for i in range(25_000))
    html = render(text)
    assert html.count("<a ") == 50_000
    assert "".join(html5lib.parseFragment(html, namespaceHTMLElements=False).itertext()).strip() == text


def test_text_without_a_dot_or_at_is_still_looked_at() -> None:
    """Schemes without "//" and http://localhost have neither "." nor "@"."""
    assert hrefs(render("see http://localhost:8000/")) == ["http://localhost:8000/"]
    assert hrefs(render("call tel:123", schemes={"tel"})) == ["tel:123"]


def test_sanitizing_the_output_keeps_the_links() -> None:
    """Untrusted Markdown with raw HTML passing through (escape=False):
    sanitize the rendered HTML (D42); nh3 keeps the links (with its own rel)."""
    nh3 = pytest.importorskip("nh3")
    text = 'see example.com <img src=x onerror=alert(1)> <a href="javascript:x">j</a> x@example.org'
    html = nh3.clean(render(text, escape=False))
    assert hrefs(html) == ["https://example.com/", None, "mailto:x@example.org"]
    assert "onerror" not in html and "javascript" not in html


def test_cdata_outside_foreign_content_is_a_bogus_comment() -> None:
    check_cdata_outside_foreign_content(lambda text, **o: render(text, escape=False, **o))
