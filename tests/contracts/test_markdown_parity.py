"""The three Markdown adapters against uts58.linkify on the same text (D86).

markdown-it-py (uts58.markdown.markdown_it), Python-Markdown (uts58.markdown.python_markdown)
and mistune (uts58.markdown.mistune, both HTML renderers) render plain text to one
paragraph whose content, read by an independent HTML5 parser (justhtml,
tests/html5dom.py), is what ``linkify(text)`` is read as: the same text, the
same links (href, text, attributes).  Texts come from the detection
conformance files and from prose in many scripts; those where CommonMark
interprets something are written with uts58.output.markdown_text.escape_text.
Where a renderer legitimately differs, only that is normalized:
markdown-it shows a link's text as its own ``normalizeLinkText`` makes it
and writes the href through ``normalizeLink``.
"""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any

import html5lib
import markdown
import mistune
import pytest
from html5dom import Node, iter_elements, justhtml_dom
from markdown_it import MarkdownIt

import uts58.markdown.markdown_it
import uts58.markdown.mistune
from uts58 import Link, Policy, linkify
from uts58.conformance import data_file, read_detection_test
from uts58.markdown.python_markdown import LinkifyExtension
from uts58.output.markdown_text import escape_text
from uts58.output.policy import escape_bidi_controls

ROOT = Path(__file__).resolve().parents[2]
PROSE = [
    "Mail x@example.com or see bücher.de/straße, https://ja.wikipedia.org/wiki/日本 (and www.example.org/a).",
    "東京の天気は https://tenki.jp/forecast/3/16/ をご覧ください。問い合わせ先: info@example.jp まで。",
    "详情请访问 https://zh.wikipedia.org/wiki/北京 或者 例子.中国/路径，谢谢。",
    "자세한 내용은 https://ko.wikipedia.org/wiki/서울 또는 예시.한국 을 참조하세요.",
    "Подробности на https://ru.wikipedia.org/wiki/Москва и пример.рф/путь, пишите на почта@пример.рф.",
    "Δείτε https://el.wikipedia.org/wiki/Αθήνα και παράδειγμα.ελ/διαδρομή για περισσότερα.",
    "لمزيد من المعلومات راجع https://ar.wikipedia.org/wiki/القاهرة أو مثال.مصر شكرا.",
    "למידע נוסף ראו https://he.wikipedia.org/wiki/ירושלים או כתבו ל user@example.co.il.",
    "अधिक जानकारी के लिए https://hi.wikipedia.org/wiki/दिल्ली या उदाहरण.भारत देखें।",
    "ดูรายละเอียดที่ https://th.wikipedia.org/wiki/กรุงเทพมหานคร หรือ ตัวอย่าง.ไทย ครับ",
    "Weitere Infos unter münchen.de/veranstaltungen?jahr=2025 oder per Mail an anfragen@münchen.de.",
    "Voir https://fr.wikipedia.org/wiki/Élysée, écrire à contact@société.fr ou ftp://ftp.example.fr/pub.",
    "Emoji links like https://example.com/😀/party and i❤️.ws are fine, says dev@example.org.",
    "A quoted URL 'https://example.com/a?b=c' and one in parentheses (see example.org/wiki/Foo_(bar)).",
    "IPv6 http://[2001:db8::1]:8080/path and mailto:someone@example.com?subject=hello work too.",
    "Not links: helpers.py, v1.2.3, example.invalid and a@b; but sub.example.co.uk/x is one.",
]


def conformance_texts() -> list[str]:
    lines = read_detection_test(data_file("17.0.0", "LinkDetectionTest.txt"))
    lines += read_detection_test(data_file("18.0.0", "LinkDetectionTest.txt"))
    return list(dict.fromkeys(line.text for line in lines if line.text.strip()))


TEXTS = conformance_texts() + PROSE


def is_plain(text: str) -> bool:
    """Text that CommonMark and Python-Markdown read as text: nothing to escape."""
    return escape_text(text) == text and "  " not in text


PLAIN = [t for t in TEXTS if is_plain(t)]


def markdown_it(**options: Any) -> MarkdownIt:
    return (
        MarkdownIt("commonmark", {"linkify": True}).enable("linkify").use(uts58.markdown.markdown_it.plugin, **options)
    )


def renderers(**options: Any) -> dict[str, Any]:
    """Our two plugins with the same options, as text → HTML functions."""
    extension = markdown.Markdown(extensions=[LinkifyExtension(**options)])
    return {
        "mistune escape=True": mistune.create_markdown(
            escape=True, plugins=[uts58.markdown.mistune.LinkifyPlugin(**options)]
        ),
        "mistune escape=False": mistune.create_markdown(
            escape=False, plugins=[uts58.markdown.mistune.LinkifyPlugin(**options)]
        ),
        "Python-Markdown": lambda text: extension.reset().convert(text),
    }


def paragraph(html: str) -> list[Node]:
    """The content of the one ``<p>`` that ``html`` is (an HTML5 parser's reading)."""
    dom = [n for n in justhtml_dom(html) if n != ("#text", "\n")]
    assert len(dom) == 1 and dom[0][:2] == ("html", "p"), html
    return list(dom[0][3])


def read(html: str) -> list[Node]:
    return justhtml_dom(html)


def original_text(link: Link, attrs: dict[str, str]) -> dict[str, str]:
    """linkify's callback for the link text the adapters keep by default: the text that was there."""
    return {**attrs, "_text": link.text}


# --------------------------------------------------------------------------
# Plain text: all three renderers


def test_the_texts_cover_what_they_should() -> None:
    assert len(PLAIN) >= 200
    assert sum(bool(linkify(t).count("<a ")) for t in PLAIN) >= 150
    assert sum(t in PLAIN for t in PROSE) >= len(PROSE) - 2


@pytest.mark.parametrize("name", list(renderers()))
def test_plain_text_renders_as_linkify(name: str) -> None:
    display = renderers(link_text="display")[name]
    original = renderers()[name]
    for text in PLAIN:
        assert paragraph(display(text)) == read(linkify(text)), text
        assert paragraph(original(text)) == read(linkify(text, callback=original_text)), text


def markdown_it_text(m: MarkdownIt, link: Link) -> str:
    """The link text markdown-it writes (its normalizeLinkText of the text that was there)."""
    if link.scheme is None and link.kind == "url":
        shown = m.normalizeLinkText("http://" + link.text).removeprefix("http://")
    elif link.kind == "email" and link.scheme is None:
        shown = link.text
    else:
        shown = m.normalizeLinkText(link.text)
    return escape_bidi_controls(shown)


def test_plain_text_renders_as_linkify_with_markdown_it() -> None:
    """markdown-it: its own link text and href normalization (D86)."""
    m = markdown_it()

    def normalized(link: Link, attrs: dict[str, str]) -> dict[str, str]:
        return {**attrs, "href": m.normalizeLink(attrs["href"]), "_text": markdown_it_text(m, link)}

    for text in PLAIN:
        assert paragraph(m.render(text)) == read(linkify(text, callback=normalized)), text


@pytest.mark.parametrize(
    "options",
    [
        {"policy": Policy.none()},
        {"require_scheme": True},
        {"schemes": ["ftp", "http"]},
        {"kinds": "email"},
        {"attrs": {"rel": "nofollow ugc", "target": "_blank"}},
        {"unicode_version": "17.0.0", "known_tlds": ["com", "org", "de"]},
        # D82, D83: the presets, on every link and on external ones only
        {"rel": "nofollow ugc", "target": "_blank"},
        {
            "rel": "nofollow",
            "target": "_top",
            "external_only": True,
            "internal_hosts": ["example.com", "wikipedia.org"],
        },
        {"target": "_blank", "external_only": True, "attrs": {"class": "x"}},
        # D79-D81, D90: shortened text, a title on truncated links
        {"display": {"max_length": 20, "location": "middle"}},
        {"display": {"max_length": 24, "location": "smart", "strip_scheme": True, "strip_www": True}, "rel": "ugc"},
        {"display": {"max_length": 12, "ellipsis": "..."}, "attrs": {"title": "kept"}},
    ],
)
def test_options_render_as_linkify(options: dict[str, Any]) -> None:
    for name, render in renderers(link_text="display", **options).items():
        for text in PLAIN:
            assert paragraph(render(text)) == read(linkify(text, **options)), (name, text)


DISPLAY: dict[str, Any] = {"max_length": 20, "location": "middle"}


@pytest.mark.parametrize("name", list(renderers()))
def test_display_replaces_the_text_that_was_there(name: str) -> None:
    """With display= the link shows its shortened display form, whatever
    link_text says (D90, as linkify_html); the presets come along."""
    options: dict[str, Any] = {"display": DISPLAY, "rel": "nofollow", "external_only": True}
    options["internal_hosts"] = ["example.com"]
    titled = 0
    for link_text in ("original", "display"):
        render = renderers(link_text=link_text, **options)[name]
        for text in PLAIN:
            expected = read(linkify(text, **options))
            assert paragraph(render(text)) == expected, (link_text, text)
            titled += sum(node[1] == "a" and "title" in dict(node[2]) for node, _ in iter_elements(expected))
    assert titled >= 100  # (the comparison holds truncated links)


def all_hrefs(html: str) -> list[str]:
    return [a.get("href") for a in html5lib.parseFragment(html, namespaceHTMLElements=False).iter("a")]


@pytest.mark.parametrize("name", list(renderers()))
def test_display_never_changes_an_href(name: str) -> None:
    """Each conformance text and its Markdown-escaped form: the same hrefs,
    in the same order, shortened or not, in every location (D80)."""
    plain = renderers()[name]
    shortened = [renderers(display={"max_length": n, "location": loc})[name] for n, loc in ((8, "end"), (16, "middle"))]
    shortened.append(renderers(display={"max_length": 20, "location": "smart", "strip_scheme": True})[name])
    compared = 0
    for text in TEXTS:
        source = text if is_plain(text) else escape_text(text)
        if not text.strip() or (name == "mistune escape=True" and "&" in source):
            continue
        hrefs = all_hrefs(plain(source))
        for render in shortened:
            assert all_hrefs(render(source)) == hrefs, text
        compared += bool(hrefs)
    assert compared >= 250


def test_callbacks_render_as_linkify() -> None:
    def callback(link: Link, attrs: dict[str, str]) -> dict[str, str] | None:
        if link.kind == "email":
            return None
        return {**attrs, "href": attrs["href"] + "#via", "_text": attrs["_text"].upper(), "class": "x"}

    for name, render in renderers(link_text="display", callback=callback).items():
        for text in PLAIN:
            assert paragraph(render(text)) == read(linkify(text, callback=callback)), (name, text)


def test_callbacks_see_the_presets_and_the_title() -> None:
    """The callback gets the attributes linkify gives it: the presets, and
    the title of a truncated link (D90); what it returns is written."""
    seen: dict[str, list[tuple[str, dict[str, str]]]] = collections.defaultdict(list)

    def callback_for(name: str) -> Any:
        def callback(link: Link, attrs: dict[str, str]) -> dict[str, str]:
            seen[name].append((link.text, dict(attrs)))
            return {**attrs, "data-shown": attrs["_text"]}

        return callback

    options: dict[str, Any] = {"display": DISPLAY, "target": "_blank", "external_only": True}
    expected = [read(linkify(text, callback=callback_for("linkify"), **options)) for text in PLAIN]
    for name in renderers():
        render = renderers(callback=callback_for(name), **options)[name]
        for text, dom in zip(PLAIN, expected, strict=True):
            assert paragraph(render(text)) == dom, (name, text)
    assert all(seen[name] == seen["linkify"] for name in renderers())
    assert sum("title" in attrs for _, attrs in seen["linkify"]) >= 50
    assert sum(attrs.get("target") == "_blank" for _, attrs in seen["linkify"]) >= 100


# --------------------------------------------------------------------------
# Any text, written as Markdown with escape_text


def test_escaped_text_renders_as_linkify() -> None:
    """Every text, its Markdown syntax escaped: Python-Markdown and mistune
    read it back as the text and link it as linkify does.  (mistune with
    escape=True shows references as written: only texts escaped without one.
    markdown-it splits the text at each backslash escape, and its inline
    rule reads a URL with a scheme in the source, escapes included: not
    comparable.)"""
    compared = 0
    for name, render in renderers(link_text="display").items():
        for text in TEXTS:
            source = escape_text(text)
            if is_plain(text) or not text.strip() or (name == "mistune escape=True" and "&" in source):
                continue
            assert paragraph(render(source)) == read(linkify(text)), (name, text)
            compared += 1
    assert compared >= 100


# --------------------------------------------------------------------------
# Real documents: the three renderers add the same links


def documents() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    spec = ROOT.parent / "shared" / "spec" / "tr58-2.txt"
    return [*found, spec] if spec.exists() else found


MARK = "data-uts58-test"


def rendered(name: str, text: str) -> tuple[str, str]:
    """``text`` rendered with the adapter (its links marked) and without it."""
    if name == "markdown-it":
        m = MarkdownIt("commonmark", {"linkify": True, "html": True}).enable(["linkify", "table"])
        m.use(uts58.markdown.markdown_it.plugin)
        html = m.render(text)
        # (markdown-it's plugin takes no attributes: its links are those with markup "linkify")
        return html, MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    if name == "Python-Markdown":
        extensions: list[Any] = ["fenced_code", "tables"]
        return (
            markdown.markdown(text, extensions=[*extensions, LinkifyExtension(attrs={MARK: ""})]),
            markdown.markdown(text, extensions=extensions),
        )
    escape = name == "mistune escape=True"
    plugins: list[Any] = ["table", "strikethrough"]
    return (
        str(
            mistune.create_markdown(
                escape=escape, plugins=[*plugins, uts58.markdown.mistune.LinkifyPlugin(attrs={MARK: ""})]
            )(text)
        ),
        str(mistune.create_markdown(escape=escape, plugins=plugins)(text)),
    )


RENDERERS = ["markdown-it", "Python-Markdown", "mistune escape=True", "mistune escape=False"]


def link_hrefs(html: str) -> collections.Counter[str]:
    return collections.Counter(
        a.get("href") for a in html5lib.parseFragment(html, namespaceHTMLElements=False).iter("a")
    )


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.name)
def test_documents_gain_the_same_links_in_all_three(path: Path) -> None:
    """No link inside a link, code or pre; every link the renderer made is
    still there; and the three renderers add the same links.  (The project's
    own documents hold their URLs in code: the spec holds plain-text ones.)"""
    text = path.read_text(encoding="utf-8")
    added = {}
    for name in RENDERERS:
        html, before = rendered(name, text)
        for node, ancestors in iter_elements(justhtml_dom(html)):
            assert node[1] != "a" or not {"a", "code", "pre"} & set(ancestors), (name, ancestors)
        ours, theirs = link_hrefs(html), link_hrefs(before)
        assert not theirs - ours, name  # the renderer's own links are kept
        added[name] = ours - theirs
    assert all(added[name] == added["markdown-it"] for name in RENDERERS), added
    if path.name == "tr58-2.txt":
        assert sum(added["markdown-it"].values()) >= 20
