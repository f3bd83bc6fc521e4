"""linkify_html on HTML as people have it (issue 25): whole documents, large
input checked piece by piece, opt-out markers (D109, D110).

The promise is the one of tests/browser/test_html5.py, judged the same way by
headless Chromium: the DOM of the output is the DOM of the input plus links,
now also for documents (doctype, quirks mode, ``html``/``head``/``body``
and their attributes, comments outside ``html``).
"""

from __future__ import annotations

import functools
import html
import os
import re

import hermetic
import pytest
from bench_modules import load_bench
from browser import compare_in_browser
from conftest import C_KERNELS_WHY_NOT
from html5dom import corpus, justhtml_document, texts_to_link
from test_html5 import MARK, linked_corpus, unmarked, variants

import uts58.html._check
import uts58.html.linkify
from uts58 import find_links, linkify_html
from uts58.errors import OptionError
from uts58.html.linkify import DEFAULT_SKIP, DEFAULT_SKIP_TAGS

debian = load_bench("debian")

# The big browser checks test the splice, the scan and the check, which the
# kernels do not touch: they run in the pass with the C kernels, not again
# in CI's pass with the Python ones (whose detection the kernel tests compare).
once = pytest.mark.skipif(
    C_KERNELS_WHY_NOT is not None,
    reason="the HTML machinery is the same with either kernels: checked in the pass with the C ones",
)

WRAP = '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body class="b">{}</body></html>'


def test_a_document_keeps_its_frame_byte_for_byte() -> None:
    page = (
        "\ufeff<!-- generated -->\n"
        '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">\n'
        "<HTML LANG=en dir='ltr'><HEAD><meta charset=utf-8><TITLE>about example.com</TITLE>"
        "<link rel=stylesheet href=a.css></HEAD>\n"
        '<BODY class=doc onload="">\n<p>Read example.com or write to x@example.org.</p>\n'
        "<pre>not.linked.com</pre></BODY></HTML>\n<!-- after the end: example.net -->\n"
    )
    out = linkify_html(page, attrs={MARK: ""})
    assert unmarked(out) == page  # everything but the links, as it was
    assert out.count(MARK) == 2
    assert ">example.com</a>" in out and "mailto:x@example.org" in out
    assert "<TITLE>about example.com</TITLE>" in out and "example.net -->" in out


def test_document_or_fragment() -> None:
    framed = "<!-- x -->\n <!doctype html><frameset> www.a.com/<script>alert(1)</script></frameset>"
    # A document: in a frameset the text (and the script) are dropped, so
    # nothing is linked; read as a fragment, the text would be.
    assert linkify_html(framed) == framed
    assert linkify_html(framed, document=False) != framed
    plain = "<frameset> www.a.com/</frameset>"
    assert linkify_html(plain) != plain  # no doctype or <html> first: a fragment
    assert linkify_html(plain, document=True) == plain
    assert linkify_html("<html><p>x.com").count("<a ") == 1
    with pytest.raises(TypeError, match="document"):
        linkify_html("x.com", document="yes")  # type: ignore[arg-type]


def test_script_escapes_no_longer_stop_linking() -> None:
    page = '<script><!--\ndocument.write("<script>a.com</script>");\n--></script><p>b.com</p>'
    out = linkify_html(page, attrs={MARK: ""})
    assert unmarked(out) == page and out.count(MARK) == 1 and ">b.com</a>" in out


def test_skip_selectors() -> None:
    html = (
        '<div class="x no-linkify">a.com <b>b.com</b></div> c.com <span data-nolinkify>d.com</span>'
        ' <p contenteditable="true">e.com</p> <i translate="no">f.com</i> <span class="nolinkify-not">g.com</span>'
    )
    out = linkify_html(html, attrs={MARK: ""})
    assert unmarked(out) == html
    assert re.findall(r'">([a-z.]+)</a>', out) == ["c.com", "f.com", "g.com"]
    # Selectors replace the defaults: a tag, a class, presence, a value, a word, together.
    for skip, linked in (
        ((), ["a.com", "b.com", "c.com", "d.com", "e.com", "f.com", "g.com"]),
        (("[translate=no]",), ["a.com", "b.com", "c.com", "d.com", "e.com", "g.com"]),
        (('[translate="no"]', "div.no-linkify"), ["c.com", "d.com", "e.com", "g.com"]),
        (("i", "[class~=x]"), ["c.com", "d.com", "e.com", "g.com"]),
        (("span[data-nolinkify]",), ["a.com", "b.com", "c.com", "e.com", "f.com", "g.com"]),
        ((*DEFAULT_SKIP, "[translate=no]"), ["c.com", "g.com"]),
    ):
        out = linkify_html(html, skip=skip)
        assert re.findall(r'">([a-z.]+)</a>', out) == linked, skip
    # Nested elements of the same name end where the skipped one ends.
    nested = "<div class=no-linkify><div>a.com</div> b.com</div> c.com"
    assert re.findall(r'">([a-z.]+)</a>', linkify_html(nested)) == ["c.com"]
    # Values are read as the parser reads them (references decoded).
    assert linkify_html("<p data-x='a&amp;b'>a.com</p>", skip=["[data-x='a&b']"]).count("<a ") == 0


def test_skip_selector_errors() -> None:
    for bad in ("", "div >p", "[x", ".", "*", "a,b", "[x|=y]"):
        with pytest.raises(OptionError, match="skip") as info:
            linkify_html("x.com", skip=[bad])
        assert info.value.option == "skip"
    with pytest.raises(TypeError, match="skip"):
        linkify_html("x.com", skip=".no-linkify")
    with pytest.raises(TypeError, match="skip"):
        linkify_html("x.com", skip=[3])  # type: ignore[list-item]


def test_large_input_is_checked_piece_by_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above CHUNK characters the parser never sees more than a piece (plus
    the start tags that rebuild its state), and the output is the same as
    when the whole is checked at once."""
    page = WRAP.format(
        "".join(f"<div class=s{k}><p>see a{k}.com and <b>b</b> x{k}@y.org</p></div>\n" for k in range(3000))
    )
    whole = linkify_html(page)
    sizes: list[int] = []
    real = uts58.html._check.LexborHTMLParser
    monkeypatch.setattr(uts58.html._check, "LexborHTMLParser", lambda h, **k: sizes.append(len(h)) or real(h, **k))
    monkeypatch.setattr(uts58.html.linkify, "CHUNK", 4096)
    assert linkify_html(page) == whole
    assert whole.count("<a ") == 6000
    # (a piece after linking is longer: its links' markup)
    assert len(sizes) >= 2 * len(page) // 4096 and max(sizes) < 3 * 4096


def _corpus_documents() -> list[tuple[str, str]]:
    """The htmlsafety and html5lib inputs as whole documents: wrapped in a
    page, and as they are (html5lib's tree-construction inputs are documents)."""
    out = []
    for ident, source in corpus():
        for k, fragment in enumerate(variants(source)):
            out.append((f"{ident}/{k}/wrapped", WRAP.format(fragment)))
            out.append((f"{ident}/{k}/as-document", fragment))
    return out


@once
@pytest.mark.parametrize("scripting", [True, False], ids=["scripting", "no-scripting"])
def test_browser_documents_are_input_plus_links(scripting: bool) -> None:
    cases = []
    for ident, page in _corpus_documents():
        out = linkify_html(page, document=True, attrs={MARK: ""})
        assert unmarked(out) == page, ident
        if out != page:
            cases.append((ident, "#document", page, out))
    result = compare_in_browser(cases, MARK, scripting=scripting)
    assert result["checked"] == len(cases) > 20_000
    assert result["links"] > 150_000
    assert result["failures"] == []


@once
def test_browser_pieces_are_input_plus_links(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every input cut into pieces of 64 characters where it may be: the
    start tags that rebuild the parser's state are right, in Chromium."""
    monkeypatch.setattr(uts58.html.linkify, "CHUNK", 64)
    pieces = 0
    real = uts58.html.linkify._piece

    def counting(*args: object) -> str:
        nonlocal pieces
        pieces += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(uts58.html.linkify, "_piece", counting)
    cases = linked_corpus()  # (the fragments, linked in pieces of 64 characters)
    for ident, page in _corpus_documents()[::7]:
        out = linkify_html(page, document=True, attrs={MARK: ""})
        if out != page:
            cases.append((ident, "#document", page, out))
    assert pieces > 2 * len(cases)
    result = compare_in_browser(cases, MARK)
    assert result["checked"] == len(cases) > 20_000
    assert result["failures"] == []


@functools.cache
def _real_pages(limit: int = 400_000) -> list[tuple[str, str, list[str]]]:
    """(path, page, the texts of the links it should gain) of the UTF-8 HTML
    pages of the packages in tests/doc-packages.txt: only the files dpkg
    lists for them, never a folder of whatever a machine has (issue 35).
    The links are an independent count: find_links on each text node that
    justhtml builds outside the elements linkify_html skips."""
    names = hermetic.doc_packages()
    missing = debian.not_installed(names)
    if missing:
        reason = f"the documentation packages {', '.join(missing)} are not installed (.ci/run installs them by name)"
        if os.environ.get("UTS58_REQUIRE_DOC_PAGES"):
            pytest.fail(reason + " and UTS58_REQUIRE_DOC_PAGES is set (.ci/run sets it)")
        pytest.skip(reason)
    pages = []
    for path in hermetic.doc_package_files():
        if path.suffix not in (".html", ".htm") or path.stat().st_size > limit:
            continue
        try:
            page = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        texts = texts_to_link(justhtml_document(page), DEFAULT_SKIP_TAGS, DEFAULT_SKIP)
        pages.append((str(path), page, sorted(link.text for text in texts for link in find_links(text))))
    assert pages, f"no UTF-8 HTML page in {', '.join(names)}"
    return pages


_LINKED = re.compile(r'<a href="[^"]*" ' + MARK + r'="">([^<]*)</a>')


@once
@pytest.mark.parametrize("chunk", [uts58.html.linkify.CHUNK, 2048], ids=["whole", "pieces"])
def test_real_pages_gain_exactly_their_links(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """Each page, as a document, whole and cut into pieces: the output is the
    page plus links (byte for byte), and the links are those of its text."""
    monkeypatch.setattr(uts58.html.linkify, "CHUNK", chunk)
    for path, page, want in _real_pages():
        out = linkify_html(page, attrs={MARK: ""})
        assert unmarked(out) == page, path
        assert sorted(html.unescape(text) for text in _LINKED.findall(out)) == want, path


@once
@pytest.mark.parametrize("chunk", [uts58.html.linkify.CHUNK, 2048], ids=["whole", "pieces"])
def test_browser_real_pages(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """The same pages in Chromium: the DOM of each output is the DOM of its
    page plus the links, with scripting on and off."""
    monkeypatch.setattr(uts58.html.linkify, "CHUNK", chunk)
    cases = []
    for path, page, _ in _real_pages():
        out = linkify_html(page, attrs={MARK: ""})
        if out != page:
            cases.append((path, "#document", page, out))
    for scripting in (True, False):
        result = compare_in_browser(cases, MARK, scripting=scripting)
        assert result["checked"] == len(cases)
        assert result["failures"] == []


# A hostile review (issue 25): inputs where the scan's idea of the parser's
# state at a cut was wrong.  Each piece is now cut only where a probe
# element, parsed after the piece, sits under exactly the start tags the
# next piece is given (D109).
Z = "z" * 600
REVIEW = [
    '<h1><svg></h1><![CDATA[><img alt="' + Z + ']]></svg><!----> a.com <img src=x onerror=alert(1)>">',
    '<svg><font title="x color=1"></font><style><img alt="'
    + Z
    + '</style><!----> a.com <img src=x onerror=alert(1)>">',
    '<svg><font a="x"color><![CDATA[><img alt="' + Z + ']]></svg><!----> a.com <img src=x onerror=alert(1)>">',
    "<svg><foreignObject><![CDATA[ " + Z + " > </foreignObject></svg><!----> a.com ]]>",
    "<th><a href=/x></table>" + "z " * 300 + "<!---->w.com",
    "<span contenteditable><p></span><p>" + "x " * 300 + "</p><!----> see a.com",
    "<span class=no-linkify><div></span><p>" + "x " * 300 + "</p><!----> see a.com",
    "<!doctype html><p>see a.com <p>" + "x " * 300 + "</p><!----><body contenteditable>",
    '<svg><title><img alt="' + Z + '</title></svg><!----> a.com <img src=x onerror=alert(1)>">',
]


@pytest.mark.parametrize("chunk", [64, 257, 4096])
def test_review_cuts_never_change_the_dom(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(uts58.html.linkify, "CHUNK", chunk)
    cases = []
    for k, fragment in enumerate(REVIEW):
        out = linkify_html(fragment, attrs={MARK: ""})
        assert unmarked(out) == fragment
        assert out.count("onerror") == fragment.count("onerror")
        assert "see <a" not in out  # (inside an opt-out element)
        cases.append((str(k), "#document" if fragment.startswith("<!doctype") else "div", fragment, out))
    for scripting in (True, False):
        assert compare_in_browser(cases, MARK, scripting=scripting)["failures"] == []


def test_document_detection_is_linear_and_a_context_means_a_fragment() -> None:
    from uts58.html.text import document_start

    assert document_start("\n" * 200_000 + " " * 200_000 + "<p>") == (False, "")
    assert document_start("<!---->" * 100_000 + "<html>") == (True, "")
    assert document_start("<!-- x" + "-" * 100_000) == (False, "")
    # A context given: a fragment, even when it starts like a document.
    assert linkify_html("<!doctype html> see a.com", context="textarea") == "<!doctype html> see a.com"
    assert linkify_html("<html> see a.com", context="td").count("<a ") == 1
    with pytest.raises(OptionError, match="context"):
        linkify_html("<p>a.com", context="td", document=True)
