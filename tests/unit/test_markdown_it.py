"""The markdown-it-py plugin (uts58.markdown.markdown_it).

Rendered HTML is read back with justhtml and html5lib (HTML5 parsers that
share no code with uts58 or markdown-it); what the plugin links is compared
with what markdown-it renders without it, and with uts58.linkify on the same
text.  Bounded work is counted in scans and characters, and in time ratios
between sizes, never in seconds.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import html5lib
import pytest
from counting import Scans, count_scans, profile_steps
from html5dom import corpus, iter_elements, justhtml_dom, without_marked_links
from hypothesis import given
from hypothesis import strategies as st
from linkify_it import LinkifyIt
from markdown_it import MarkdownIt

import uts58.markdown.markdown_it
from uts58 import Policy, linkify
from uts58.html.raw import RAW_TEXT, SKIPPED, RawHtml
from uts58.markdown.markdown_it import Linkify

ROOT = Path(__file__).resolve().parents[2]
# The project's documents, and the text of UTS #58 itself (read where present).
DOCUMENTS = ["README.md", "docs/decisions.md", "../shared/spec/tr58-2.txt"]
SOURCE = "uts58.markdown.markdown_it:source"  # meta key of the plugin's link_open tokens
MARK = "data-uts58-test"
SAFE = ("http://", "https://", "mailto:")
# Characters of Markdown inline syntax: markdown-it's inline rule takes a URL
# written with a scheme as a whole, these included (its fixtures linkify.md).
INLINE_SYNTAX = "\\`*_[]<>&!~"


def md(**options: Any) -> MarkdownIt:
    return (
        MarkdownIt("commonmark", {"linkify": True, **options}).enable("linkify").use(uts58.markdown.markdown_it.plugin)
    )


def document_text(name: str) -> str:
    path = ROOT / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path.read_text(encoding="utf-8")


def hrefs(html: str) -> list[str]:
    """The hrefs of the ``a`` elements, as an HTML5 parser reads them."""
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return [a.get("href") for a in root.iter("a")]


def added_links(html: str, plain: str) -> list[str]:
    """The hrefs that ``html`` has and ``plain`` (the same Markdown without
    the plugin) has not."""
    before = hrefs(plain)
    return [h for h in hrefs(html) if h not in before]


# --------------------------------------------------------------------------
# Rendering (moved from test_integrations.py)


def test_markdown_it_renders_unicode_links() -> None:
    html = md().render("See https://ja.wikipedia.org/wiki/アルベルト)アインシュタイン and bücher.de/straße.")
    assert html == (
        '<p>See <a href="https://ja.wikipedia.org/wiki/%E3%82%A2%E3%83%AB%E3%83%99%E3%83%AB%E3%83%88">'
        "https://ja.wikipedia.org/wiki/アルベルト</a>)アインシュタイン and "
        '<a href="https://xn--bcher-kva.de/stra%C3%9Fe">bücher.de/straße</a>.</p>\n'
    )


def test_markdown_it_emails_policy_and_existing_links() -> None:
    html = md().render("Mail x@example.com, [kept](https://a.com/b) `code.com` helpers.py раураl.com")
    assert '<a href="mailto:x@example.com">x@example.com</a>' in html
    assert '<a href="https://a.com/b">kept</a>' in html
    assert "<code>code.com</code>" in html
    assert "helpers.py" in html and 'href="https://helpers.py' not in html  # §8 policy
    assert "раураl.com</p>" in html
    loose = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    uts58.markdown.markdown_it.use(loose, Policy.none(), preset="all")
    assert loose.render("helpers.py") == '<p><a href="https://helpers.py/">helpers.py</a></p>\n'


def test_markdown_it_interface() -> None:
    linkify = uts58.markdown.markdown_it.Linkify()
    assert linkify.pretest("a.b") and not linkify.pretest("no dots here")
    assert linkify.pretest("http://localhost/x")  # no dot: the scheme says it may be a link
    assert linkify.test("see example.com") and not linkify.test("see example.invalid")
    (m,) = linkify.match("see https://example.com/α.") or []
    assert (m.index, m.last_index, m.schema, m.text) == (4, 25, "https:", "https://example.com/α")
    start = linkify.match_at_start("https://example.com/α rest")
    assert start is not None and start.url == "https://example.com/α"
    assert linkify.match_at_start("x https://example.com") is None
    assert linkify.match("nothing here") is None


def test_inline_rule_takes_urls_written_with_a_scheme_whole() -> None:
    """As markdown-it's own inline rule (its fixtures linkify.md): '_' and
    '*' in such a URL are not emphasis, a '*' at its end is."""
    html = md().render("http://example.org/foo._bar_-_baz and **https://example.com/a**")
    assert hrefs(html) == ["http://example.org/foo._bar_-_baz", "https://example.com/a"]
    assert "<strong><a" in html and "<em>" not in html
    # "site.http://…": markdown-it's rule does not take it; the core rule links it in the text.
    assert hrefs(md().render("see site.https://example.com/")) == ["https://example.com/"]


def test_link_text_is_markdown_its_normalized_text_with_bidi_controls_escaped() -> None:
    m = md()
    html = m.render("see http://xn--bcher-kva.de/a%20b and x.com/\u202eevil")
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    texts = [a.text for a in root.iter("a")]
    assert texts[0] == m.normalizeLinkText("http://xn--bcher-kva.de/a%20b")  # markdown-it shows bücher.de
    assert texts[1] == "x.com/%E2%80%AEevil"  # Policy.default(): bidi="escape"
    raw = md().use(uts58.markdown.markdown_it.plugin, Policy.none())
    assert "\u202e" in raw.render("x.com/\u202eevil")


# --------------------------------------------------------------------------
# linkify-it-py's interface


def test_set_maps_fuzzy_options() -> None:
    text = "example.com https://a.com x@example.com mailto:y@example.com"
    assert hrefs(md().render(text)) == [
        "https://example.com/",
        "https://a.com/",
        "mailto:x@example.com",
        "mailto:y@example.com",
    ]
    m = md()
    assert m.linkify.set({"fuzzy_link": False}) is m.linkify
    assert hrefs(m.render(text)) == ["https://a.com/", "mailto:x@example.com", "mailto:y@example.com"]
    m.linkify.set({"fuzzy_link": True, "fuzzy_email": False})
    assert hrefs(m.render(text)) == ["https://example.com/", "https://a.com/", "mailto:y@example.com"]
    m.linkify.set({"fuzzy_ip": False, "---": False})  # uts58's behaviour already
    assert hrefs(m.render("see 192.168.0.1:8080/x")) == []
    m.linkify.set({"fuzzy_ip": True})  # bare_ipv4 (D54): with a port or a path
    assert hrefs(m.render("see 192.168.0.1:8080/x or 1.2.3.4")) == ["http://192.168.0.1:8080/x"]


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"---": True}, NotImplementedError, "---"),
        ({"fuzzyLink": False}, ValueError, "fuzzyLink"),
        ({"fuzzy_link": "no"}, TypeError, "fuzzy_link"),
        (["fuzzy_link"], TypeError, "options"),
    ],
)
def test_set_errors_name_what(options: Any, error: type[Exception], words: str) -> None:
    linkify = Linkify()
    with pytest.raises(error, match=words):
        linkify.set(options)


def test_tlds_map_to_the_finder() -> None:
    text = "intranet.corp, printer.lan and example.com"
    assert hrefs(md().render(text)) == ["https://example.com/"]
    m = md()
    assert m.linkify.tlds(["corp"]) is m.linkify
    assert m.linkify.finder.known_tlds == frozenset({"corp"})
    assert hrefs(m.render(text)) == ["https://intranet.corp/"]
    m.linkify.tlds("lan|corp")  # linkify-it-py joins a str into its pattern
    assert hrefs(m.render(text)) == ["https://intranet.corp/", "https://printer.lan/"]
    m = md()
    m.linkify.tlds(["corp"], keep_old=True)
    assert hrefs(m.render(text)) == ["https://intranet.corp/", "https://example.com/"]
    with pytest.raises(ValueError, match=r"a\.b"):
        Linkify().tlds(["a.b"])
    with pytest.raises(TypeError, match="list_tlds"):
        Linkify().tlds(3)  # type: ignore[arg-type]


def test_add_maps_schemes() -> None:
    text = "ftp://example.com/f, https://example.com/s, example.org, x@example.com"
    m = md()
    assert hrefs(m.render(text))[0] == "ftp://example.com/f"  # on by default (D19)
    m.linkify.add("ftp:", None)
    assert hrefs(m.render(text)) == ["https://example.com/s", "https://example.org/", "mailto:x@example.com"]
    assert m.linkify.add("ftp:", "http:") is m.linkify
    assert hrefs(m.render(text))[0] == "ftp://example.com/f"
    m.linkify.add("git:", "http:")  # any scheme but javascript:, data:, vbscript:, file:
    assert hrefs(m.render("git://example.com/r.git")) == ["git://example.com/r.git"]
    m.linkify.add("ftp:", None)
    assert "ftp://example.com/f" not in hrefs(m.render(text))
    m.linkify.add("mailto:", None)
    assert hrefs(m.render(text)) == ["https://example.com/s", "https://example.org/"]
    m.linkify.add("http:", None)  # as in linkify-it-py: no links without a scheme either
    assert hrefs(m.render(text)) == ["https://example.com/s"]
    m.linkify.add("//", None).add("skype:", None)  # never linked by uts58: nothing to stop


@pytest.mark.parametrize(
    ("schema", "definition", "error", "words"),
    [
        ("skype:", {"validate": r"^[a-z]+"}, NotImplementedError, "validators"),
        ("@", {"validate": lambda self, text, pos: 0}, NotImplementedError, "validators"),
        ("javascript:", "http:", ValueError, "never linked"),
        ("//", "http:", NotImplementedError, "'//'"),
        ("ftp:", {"validate": r"^//x"}, NotImplementedError, "'ftp:'"),
        (1, None, TypeError, "schema"),
        ("ftp:", 5, TypeError, "definition"),
    ],
)
def test_add_errors_name_what(schema: Any, definition: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        Linkify().add(schema, definition)


def test_options_set_before_use_are_kept() -> None:
    m = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    assert isinstance(m.linkify, LinkifyIt)
    m.linkify.set({"fuzzy_email": False}).tlds(["corp"], keep_old=True).add("ftp:", None).add("wss:", "http:")
    m.use(uts58.markdown.markdown_it.plugin)
    assert isinstance(m.linkify, Linkify)
    text = "x@example.com intranet.corp example.com wss://example.com/w ftp://example.com/f"
    assert hrefs(m.render(text)) == [
        "https://intranet.corp/",
        "https://example.com/",
        "wss://example.com/w",
    ]
    m = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    m.linkify.set({"fuzzy_link": False}).tlds(["corp"])
    m.use(uts58.markdown.markdown_it.plugin)
    assert m.linkify.finder.known_tlds == frozenset({"corp"})
    assert hrefs(m.render("intranet.corp https://intranet.corp/x example.com")) == ["https://intranet.corp/x"]


def test_linkify_it_defaults_change_nothing() -> None:
    """Only what differs from linkify-it-py's defaults is taken (its default
    ftp: alias is uts58's default too)."""
    m = MarkdownIt("commonmark", {"linkify": True}).enable("linkify").use(uts58.markdown.markdown_it.plugin)
    plain = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    plain.linkify = Linkify()
    text = "ftp://example.com/f https://example.com example.org x@example.com"
    assert m.render(text) == uts58.markdown.markdown_it.use(plain).render(text)
    assert "ftp://example.com/f" in hrefs(m.render(text))


def test_unsupported_options_set_before_use_raise_at_use() -> None:
    m = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    m.linkify.add("@", {"validate": lambda self, text, pos: 0})
    with pytest.raises(NotImplementedError, match="'@'"):
        m.use(uts58.markdown.markdown_it.plugin)
    m = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    m.linkify.set({"---": True})
    with pytest.raises(NotImplementedError, match="---"):
        m.use(uts58.markdown.markdown_it.plugin)


def test_constructor_arguments_are_checked() -> None:
    with pytest.raises(TypeError, match="require_scheme"):
        Linkify(require_scheme="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="javascript"):
        Linkify(schemes=["javascript"])
    with pytest.raises(TypeError, match="schemes"):
        Linkify(schemes="https")
    with pytest.raises(TypeError, match="policy"):
        Linkify("strict")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text"):
        Linkify().match(b"example.com")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unexpected keyword"):
        md().use(uts58.markdown.markdown_it.plugin, known_tlds={"com"})
    linkify = Linkify(require_scheme=True, emails=False, schemes=["https", "wss"])
    assert [m.url for m in linkify.match("example.com wss://e.com x@e.com https://e.com/") or []] == [
        "wss://e.com/",
        "https://e.com/",
    ]


def test_assigning_a_policy_forgets_what_was_found() -> None:
    linkify = Linkify()
    assert linkify.test("раураl.com") is False
    linkify.policy = Policy.none()
    assert linkify.test("раураl.com")
    assert not linkify.test("helpers.py")  # (detection's: a policy judges what is found, D65)
    with pytest.raises(TypeError, match="policy"):
        linkify.policy = None  # type: ignore[assignment]


# --------------------------------------------------------------------------
# What is not linked


AFTER = ["https://after.com/", "http://after.com/y"]


@pytest.mark.parametrize("html_option", [True, False])
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("`code.com` and ``http://code.com/x``", "markdown"),
        ("    indented.com http://indented.com\n", "markdown"),
        ("```\nfenced.com http://fenced.com\n```", "markdown"),
        ("~~~ info.com\nfenced.com\n~~~", "markdown"),
        ("[label.com http://label.com](http://target.com) ![alt.com](http://img.com/x.png)", "markdown"),
        ("<http://autolink.com/x> <x@autolink.com>", "markdown"),
        ("[ref.com]\n\n[ref.com]: http://target.com", "markdown"),
        ("<a href='http://target.com'>inline.com http://inline.com/x</a>", "raw"),
        ("<code>code.com http://code.com</code>", "raw"),
        ("<textarea>area.com http://area.com/_x_</textarea>", "raw"),
        ("<title>title.com</title> <script>script.com</script>", "raw"),
        ("<svg><text>svg.com http://svg.com</text></svg>", "raw"),
        ("<!-- comment.com http://comment.com -->", "raw"),
        ("<pre>\npre.com http://pre.com\n</pre>", "raw"),
        ("<div>\nblock.com http://block.com\n</div>", "raw"),
        ("<!--\n\ncomment.com http://comment.com\n\n-->", "raw"),
        # Raw HTML open across paragraphs, closed in a later one.
        ("x <code>\n\nopen.com http://open.com\n\n</code>", "raw"),
        ("x <textarea>\n\nopen.com http://open.com/*x*\n\n</textarea>", "raw"),
        ("x <a href='t'>\n\nopen.com http://open.com\n\n</a>", "raw"),
        # Left open: what follows is inside it (or unknown) to the end.
        ("x <code>\n\nopen.com http://open.com", "open"),
        ("x <plaintext>\n\nopen.com http://open.com", "open"),
    ],
)
def test_nothing_linked_inside_code_links_and_raw_html(text: str, kind: str, html_option: bool) -> None:
    """Only "after.com http://after.com/y" after the text is plain text;
    with HTML off, raw HTML is text and its URLs are linked too."""
    source = text + "\n\nafter.com http://after.com/y"
    html = md(html=html_option).render(source)
    added = added_links(html, MarkdownIt("commonmark", {"html": html_option}).render(source))
    if kind == "markdown" or (html_option and kind == "raw"):
        assert added == AFTER
    elif html_option:
        assert added == []
    else:
        assert added[-2:] == AFTER and len(added) > 2
    for node, path in iter_elements(justhtml_dom(html)):
        if node[1] == "a":
            assert not ({"a", "code", "pre"} | RAW_TEXT | SKIPPED) & set(path)


def test_no_inline_rule_link_where_raw_html_allows_none() -> None:
    """The inline rule follows the raw HTML before it (a core rule before
    "inline" gives it the blocks); failing that, the core rule puts the
    Markdown back where a link may not be."""
    for text in ("x <textarea>http://a.com/_x_ `c`</textarea> y", "<script>\n\nhttp://a.com/*x*\n\n</script>"):
        without = MarkdownIt("commonmark", {"html": True, "linkify": False}).render(text)
        assert md(html=True).render(text) == without
        # Without the context rule, the core rule takes the link back.
        m = md(html=True)
        m.core.ruler.disable("uts58_context")
        assert m.render(text) == without


# --------------------------------------------------------------------------
# The raw HTML state (uts58.html.raw), against an HTML5 parser


@pytest.mark.parametrize(
    ("pieces", "linkable"),
    [
        (["<!-->"], True),
        (["<!--->"], True),
        (["<!-- x"], False),
        (["<!-- x", "--!>"], True),
        (["<textarea>", "</textareax>"], False),
        (["<TEXTAREA>", "</textarea\n>"], True),
        (["<a href='>'>"], False),
        (["<a href='>'>", "</A>"], True),
        (['<a title=">" href=x>', "</a>"], True),
        (["<svg/>"], True),
        (["<svg>"], False),
        # Outside foreign content "<![CDATA[" is a bogus comment ending at the
        # first ">" (html5lib: "<!--[CDATA[ x --> y"); what follows is markup
        # (review of issue 13: "<textarea>" after it was missed).
        (["<![CDATA[ x > y"], True),
        (["<![CDATA[ x > y ]]>"], True),
        (["<![CDATA[x><textarea>]]>"], False),
        (["<svg>", "</svg>", "<![CDATA[x>", "<textarea>"], False),
        (["<svg>", "<![CDATA[ x ]]>", "</svg>"], False),  # (in foreign content the end cannot be told)
        (["<"], False),
        (["</"], False),
        (["<b title='x"], False),
        (["<plaintext>", "</plaintext>"], False),
        (["</a>", "<b>"], True),
        (["<?php x ?>", "<!DOCTYPE html>", "</ x>"], True),
    ],
)
def test_raw_html_states(pieces: list[str], linkable: bool) -> None:
    state = RawHtml()
    for piece in pieces:
        state.feed(piece)
    assert state.linkable is linkable


RAW_PIECES = [
    *("<b>", "</b>", "<a href='x>'>", "</a>", "<code>", "</code>", "<textarea>", "</textarea>", "<TITLE>"),
    *("</title >", "<script>", "</script>", "<svg>", "<svg/>", "</svg>", "<math>", "</math>", "<pre>", "</pre>"),
    *("<!--", "-->", "--!>", "<!-->", "<!x>", "<?x?>", "<![CDATA[", "]]>", "<", ">", "</", "'", '"', " x ", "="),
    *("<template>", "</template>", "<select>", "</select>", "<p>", "</p>", "<div>", "</div>", "<xmp>", "</xmp>"),
    *("<table>", "</table>", "<td>", "</td>", "<object>", "</object>", "<!", "<!-", "<![CDATA", '<b x=="y>'),
    *("<script><!--", "<a href=x>", "<a\nhref='y'>", "<plaintext>", "<noscript>", "</noscript>"),
]


@given(st.lists(st.sampled_from(RAW_PIECES), max_size=20))
def test_linkable_means_a_browser_reads_plain_text(pieces: list[str]) -> None:
    """Where RawHtml says text may gain links, an HTML5 parser reads the
    text that follows as text, outside every skipped element.  (justhtml:
    html5lib loses foster-parented text in fragments.)"""
    state = RawHtml()
    for piece in pieces:
        state.feed(piece)
    if not state.linkable:
        return
    dom = justhtml_dom("".join(pieces) + "zqmarker")
    holders = [
        path
        for node, path in iter_elements(dom)
        if any(c == ("#text", "zqmarker") or (c[0] == "#text" and c[1].endswith("zqmarker")) for c in node[3])
    ]
    top = any(n[0] == "#text" and n[1].endswith("zqmarker") for n in dom)
    assert top or holders, pieces
    for path in holders:
        assert not (SKIPPED | RAW_TEXT) & set(path), (pieces, path)


# --------------------------------------------------------------------------
# Public corpora: the only change is links around text that was there


def render_marked(m: MarkdownIt, text: str) -> tuple[str, list[str]]:
    """``text`` rendered with the plugin, its links marked and showing their
    source (markdown-it's normalizeLinkText is tested above), and the sources
    of its links."""
    tokens = m.parse(text)
    sources = []
    for token in tokens:
        children = token.children or []
        for k, child in enumerate(children):
            if child.type == "link_open" and child.markup == "linkify":
                child.attrSet(MARK, "")
                children[k + 1].content = child.meta[SOURCE]
                sources.append(child.meta[SOURCE])
    return m.renderer.render(tokens, m.options, {}), sources


def escaped(source: str) -> str:
    """``source`` as Markdown text without syntax: character references
    (a backslash is no escape where a code span would then close)."""
    return "".join(f"&#{ord(c)};" if c in INLINE_SYNTAX else c for c in source)


def problems(text: str, html_option: bool) -> tuple[list[str], int]:
    """What differs between ``text`` rendered with the plugin and without,
    besides links around text that was there; and the number of links."""
    html, sources = render_marked(md(html=html_option), text)
    # markdown-it's inline rule shows a URL written with a scheme as written
    # (its fixtures): the reference escapes the Markdown syntax in it.  Where
    # the same URL is also written where it is not linked (in code, say),
    # which one was linked is not known here: the DOM is not compared.
    reference: str | None = text
    for source in set(sources):
        if any(c in source for c in INLINE_SYNTAX) and reference is not None:
            written = re.compile(r"(?<![A-Za-z0-9+.\-])" + re.escape(source))
            if len(written.findall(text)) == sources.count(source):
                reference = written.sub(lambda m: escaped(m.group()), reference)
            else:
                reference = None
    dom = justhtml_dom(html)
    stripped, found = without_marked_links(dom, MARK)
    found_problems = []
    if reference is not None:
        plain = MarkdownIt("commonmark", {"html": html_option}).render(reference)
        # Unless the references made other links (an autolink's "<…>" whose
        # "<" was in the URL): then the reference is not the same Markdown.
        if hrefs(plain) == hrefs(MarkdownIt("commonmark", {"html": html_option}).render(text)):
            if stripped != justhtml_dom(plain):
                found_problems.append("DOM")
    found_problems += [href for href, _ in found if not href.startswith(SAFE)]
    for node, path in iter_elements(dom):
        if node[1] == "a" and MARK in dict(node[2]) and {"a", "code", "pre"} & set(path):
            found_problems.append(f"a inside {path}")
    return found_problems, len(found)


@pytest.mark.parametrize("name", ["markdown-it-py", "commonmark-spec"])
def test_corpus_renders_the_same_plus_links(name: str) -> None:
    failures = []
    links = 0
    for record_id, text in corpus(name):
        for html_option in (True, False):
            found, count = problems(text, html_option)
            links += count
            if found:
                failures.append((record_id, html_option, found))
    assert not failures, failures[:10]
    assert links >= 5  # the corpora do hold links (the check is not empty)


PIECES = [
    *("http://a.com/x_y_", "https://b.org/p*q*", "www.c.net", "d@e.com", "mailto:f@g.org", "e.com", ".com"),
    *("ex", "ample", "https://", "*", "_", "`", "[", "]", "(", ")", "<", ">", "!", "\\", "&amp;", "&#97;"),
    *("<b>", "</b>", "<a href='x'>", "</a>", "<code>", "</code>", "<textarea>", "</textarea>", "<!--", "-->"),
    *(" ", "\n", "\n\n", "    ", "> ", "- ", "```\n"),
]


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), st.booleans())
def test_markdown_soup_renders_the_same_plus_links(text: str, html_option: bool) -> None:
    assert problems(text, html_option)[0] == []


# --------------------------------------------------------------------------
# Real documents: the links of uts58.linkify on the same paragraphs


@pytest.mark.parametrize("document", DOCUMENTS)
def test_documents_link_as_linkify_does(document: str) -> None:
    """Each paragraph: the links of uts58.linkify on its text tokens outside
    links, where comparable (no raw HTML, no link across Markdown syntax)."""
    text = document_text(document)
    m = md(html=True)
    with_plugin = m.parse(text)
    without = MarkdownIt("commonmark", {"html": True}).parse(text)
    assert [t.type for t in with_plugin] == [t.type for t in without]
    compared = links = 0
    for ours, theirs in zip(with_plugin, without, strict=True):
        children = theirs.children or []
        if theirs.type != "inline" or any(c.type == "html_inline" for c in children):
            continue
        texts, depth = [], 0
        for child in children:
            depth += {"link_open": 1, "link_close": -1}.get(child.type, 0)
            if child.type == "text" and not depth:
                texts.append(child.content)
        ours_links = [c for c in ours.children or [] if c.type == "link_open" and c.markup == "linkify"]
        if not all(any(c.meta[SOURCE] in t for t in texts) for c in ours_links):
            continue
        expected = [m.normalizeLink(h) for t in texts for h in hrefs(linkify(t))]
        assert [c.attrs["href"] for c in ours_links] == expected, texts
        compared += 1
        links += len(expected)
    assert compared >= 10
    assert links or document != DOCUMENTS[-1]  # the spec has plain-text links (the project's are in code)


# --------------------------------------------------------------------------
# Bounded work


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> Iterator[Scans]:
    """Count the scans of uts58.find_links made by the adapter, and their length."""
    yield count_scans(monkeypatch, uts58.markdown.markdown_it)


def many_urls(n: int) -> str:
    """One paragraph: n URLs with a scheme (the inline rule) and n without."""
    return " ".join(f"http://e{i}.com/a_{i}_b and w{i}.org/x" for i in range(n))


def test_a_paragraph_is_scanned_a_bounded_number_of_times(scans: Scans) -> None:
    for n in (100, 200, 400):
        scans.calls = scans.chars = 0
        text = many_urls(n)
        html = md().render(text)
        assert html.count("<a ") == 2 * n
        # Once by the inline rule (the paragraph), once by the core rule (its text tokens).
        assert scans.chars <= 2 * len(text)
        assert scans.calls <= 2 * n + 2


def test_match_at_start_on_successive_suffixes_scans_once(scans: Scans) -> None:
    text = many_urls(200)
    linkify = Linkify()
    starts = [k for k in range(len(text)) if text.startswith("://", k)]
    found = [linkify.match_at_start(text[k - 4 :]) for k in starts]
    assert all(m is not None for m in found)
    assert scans.calls == 1


def hostile(n: int) -> dict[str, str]:
    return {
        "schemes": "http://" * n,
        "schemes and hosts": "http://a" * n,
        "colons": ":" * 7 * n,
        "at signs": "a@" * n + "b.com",
        "at and domains": "@a.com" * n,
        "nested brackets": "[" * n + "http://a.com" + "]" * n,
        "nested parentheses": "http://a.com/" + "(" * n + ")" * n,
        "dots": "a." * 4 * n,
        "escapes": "\\http://a.com" * n,
        "inline html": "<b>http://a.com</b>" * (n // 4),
        "textarea": "<textarea>" + "http://a.com " * (n // 2),
    }


@pytest.mark.parametrize("kind", list(hostile(1)))
def test_hostile_paragraphs_are_scanned_linearly(scans: Scans, kind: str) -> None:
    text = hostile(15_000)[kind]
    md(html=True).render(text)
    assert scans.chars <= 2 * len(text) + 100


@pytest.mark.parametrize("kind", ["many urls", "schemes and hosts", "colons", "nested brackets", "at and domains"])
def test_render_steps_grow_linearly(kind: str) -> None:
    """N against 4N: linear is 4, quadratic 16 (the old plugin: 15 at 250 URLs).
    Steps counted, markdown-it's own included."""
    m = md(html=True)

    def text(n: int) -> str:
        return many_urls(n // 20) if kind == "many urls" else hostile(n)[kind]

    m.render(text(5_000)), m.render(text(20_000))  # warm: tables loaded, both texts' hosts in the caches
    small, large = (profile_steps(lambda n=n: m.render(text(n))) for n in (5_000, 20_000))
    assert large <= 4.4 * small + 1000, (small, large)


def test_threads_share_the_cache_and_agree() -> None:
    m = md()
    texts = [many_urls(30) + f" t{k}.com" for k in range(8)]
    expected = [m.render(t) for t in texts]
    results: dict[int, list[str]] = {}

    def work(k: int) -> None:
        results[k] = [m.render(t) for t in texts * 5]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected * 5 for r in results.values())


def test_text_without_a_dot_or_at_is_still_looked_at() -> None:
    """Schemes without "//" and http://localhost have neither "." nor "@"."""
    m = md()
    assert hrefs(m.render("see http://localhost:8000/")) == ["http://localhost:8000/"]
    m.linkify = uts58.markdown.markdown_it.Linkify(schemes={"tel", "magnet", "https"})
    assert hrefs(m.render("x tel:123 and magnet:?xt=1&dn=a")) == ["tel:123", "magnet:?xt=1&dn=a"]
