"""``uts58 serve`` end to end in headless Chromium (D129): the page loads,
text typed into it is highlighted where the library finds links, options
change the result as they change the library's, the HTML and Markdown panes
and the preview hold linkify's output, and a screenshot is taken.

Chromium is driven over its DevTools pipe (tests/cdp.py).  Without Chromium
the tests skip, unless UTS58_REQUIRE_BROWSER is set (CI), where they fail.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cdp import Browser, Page
from conftest import playground_running

from uts58 import Linkifier, check_link, find_links, format_url, linkify
from uts58.cli.serve import PlaygroundServer
from uts58.output.policy import Policy

TEXT = (
    "日本語のサイトは 日本語.jp/ガイド です。\n"
    "العربية: زوروا موقع.مصر/صفحة اليوم\n"
    "ภาษาไทย: ดูที่ ไทย.ไทย/หน้า นะครับ\n"
    "🎉👍🏽 https://example.com/a\u2e60b next, mail 𝒳@example.org or info@bücher.de\n"
    'not paypal: раураl.com <img src=x onerror=alert(1)> github.com/unicode-org/?q=<b>&x="y"'
)


@pytest.fixture(scope="module")
def server() -> Iterator[PlaygroundServer]:
    with playground_running() as running:
        yield running


@pytest.fixture
def page(server: PlaygroundServer, tmp_path: Path) -> Iterator[Page]:
    with Browser(tmp_path) as browser:
        tab = browser.new_page(width=1280, height=2200)  # (tall: the preview frame is painted in the viewport)
        tab.goto(server.url)
        settled(tab)
        yield tab
        assert tab.errors() == []  # no exception, no CSP violation, no failed load


def settled(page: Page) -> None:
    """Wait until the page shows the answer to its latest change."""
    page.wait_for(
        "document.body.dataset.state !== 'busy' && document.body.dataset.state !== 'loading'"
        " && document.body.dataset.rendered === document.body.dataset.requested"
    )
    status = page.evaluate("document.getElementById('status').textContent")
    assert page.evaluate("document.body.dataset.state") == "ready", status


def changes(page: Page) -> Callable[[], None]:
    """Call before an action that changes the form; the function it returns
    waits until the page has counted that change and shown its answer."""
    before = page.evaluate("document.body.dataset.requested")

    def wait() -> None:
        page.wait_for(f"document.body.dataset.requested !== {json.dumps(before)}")
        settled(page)

    return wait


def type_text(page: Page, text: str) -> None:
    """Select the textarea's text and type ``text`` over it."""
    done = changes(page)
    page.evaluate("(() => { const t = document.getElementById('input'); t.focus(); t.select(); })()")
    page.insert_text(text)
    done()


def click(page: Page, selector: str) -> None:
    """A real mouse click in the middle of the element."""
    box = page.evaluate(
        f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.scrollIntoView({{block: 'center'}});"
        " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
    )
    done = changes(page)
    for kind in ("mousePressed", "mouseReleased"):
        page.call(
            "Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1}
        )
    done()


def choose(page: Page, select: str, value: str) -> None:
    done = changes(page)
    page.evaluate(
        f"(() => {{ const s = document.getElementById({json.dumps(select)}); s.value = {json.dumps(value)};"
        " s.dispatchEvent(new Event('change')); })()"
    )
    done()


def rendered(page: Page) -> dict[str, Any]:
    """What the page shows: each highlight (its text, href, kind, class), the
    highlighted text without the link numbers, each table row, the panes."""
    result: dict[str, Any] = page.evaluate(
        """(() => {
        const shown = document.getElementById('highlighted');
        const marks = [...shown.querySelectorAll('mark')];
        return {
          marks: marks.map(m => [m.textContent, m.dataset.href, m.dataset.kind, m.classList.contains('rejected')]),
          text: [...shown.childNodes].filter(n => n.nodeName !== 'SUP').map(n => n.textContent).join(''),
          elements: [...new Set([...shown.querySelectorAll('*')].map(e => e.localName))].sort(),
          rows: [...document.querySelectorAll('#links tbody tr')].map(
            r => [...r.cells].map(c => c.textContent)),
          reasons: [...document.querySelectorAll('#links tbody tr')].map(
            r => [...r.querySelectorAll('ul.reasons code')].map(c => c.textContent)),
          html: document.getElementById('html-out').textContent,
          markdown: document.getElementById('markdown-out').textContent,
          srcdoc: document.getElementById('preview').srcdoc,
          sandbox: document.getElementById('preview').getAttribute('sandbox'),
          status: document.getElementById('status').textContent,
        };
    })()"""
    )
    return result


def expected_marks(text: str, **options: Any) -> list[list[Any]]:
    policy = Policy.default()
    return [[link.text, link.href, link.kind, bool(check_link(link, policy))] for link in find_links(text, **options)]


def test_typed_text_is_highlighted_where_the_library_finds_links(page: Page, tmp_path: Path) -> None:
    type_text(page, TEXT)
    shown = rendered(page)
    assert shown["marks"] == expected_marks(TEXT)
    assert len(shown["marks"]) >= 8 and any(rejected for *_, rejected in shown["marks"])
    assert shown["text"] == TEXT  # every highlight where its link is (UTF-16 offsets: emoji, 𝒳 before links)
    assert shown["elements"] == ["mark", "sup"]  # the <img> of the text is text
    links = list(find_links(TEXT))
    assert [row[2:4] for row in shown["rows"]] == [[link.text, link.href] for link in links]
    assert shown["reasons"] == [[r.code for r in check_link(link, Policy.default())] for link in links]
    assert shown["html"] == linkify(TEXT) and shown["markdown"] == linkify(TEXT, format="markdown")
    assert shown["sandbox"] == "allow-popups allow-popups-to-escape-sandbox" and shown["srcdoc"].endswith(linkify(TEXT))
    assert shown["status"].startswith(f"{len(links)} links found")
    preview = preview_links(page)
    assert preview == [a.href for a in Linkifier().anchors(TEXT)]
    png = page.screenshot(tmp_path / "playground.png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and png[12:16] == b"IHDR"
    assert int.from_bytes(png[16:20], "big") == 1280 and int.from_bytes(png[20:24], "big") >= 1200
    assert len(png) > 50_000  # (a blank page of that size compresses to a few kB)


def preview_links(page: Page) -> list[str]:
    """The hrefs of the links in the sandboxed preview frame (an out-of-process
    frame: read through its own DevTools session)."""
    browser = page.browser
    browser.call(
        "Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True}, page.session
    )
    attached = browser.event("Target.attachedToTarget", page.session)
    assert attached["targetInfo"]["url"] == "about:srcdoc"
    frame = attached["sessionId"]
    answer = browser.call(
        "Runtime.evaluate",
        {"expression": "[...document.links].map(a => a.href)", "returnByValue": True},
        frame,
    )
    links: list[str] = answer["result"]["value"]
    scripts = browser.call("Runtime.evaluate", {"expression": "document.scripts.length", "returnByValue": True}, frame)
    assert scripts["result"]["value"] == 0
    return links


def test_options_change_the_result_as_they_change_the_library(page: Page) -> None:
    type_text(page, TEXT)
    assert rendered(page)["marks"] == expected_marks(TEXT)
    click(page, "#require_scheme")  # scheme only
    assert rendered(page)["marks"] == expected_marks(TEXT, require_scheme=True) != expected_marks(TEXT)
    click(page, "#require_scheme")
    choose(page, "unicode_version", "17.0.0")  # U+2E60 ends the URL in 17.0.0 (D119)
    old = expected_marks(TEXT, unicode_version="17.0.0")
    assert rendered(page)["marks"] == old != expected_marks(TEXT)
    assert "https://example.com/a" in [text for text, *_ in old]
    choose(page, "unicode_version", "18.0.0")
    choose(page, "policy", "none")
    shown = rendered(page)
    assert not any(rejected for *_, rejected in shown["marks"]) and shown["html"] == linkify(TEXT, policy=Policy.none())
    choose(page, "policy", "default")
    done = changes(page)
    page.evaluate("document.getElementById('truncate').focus()")
    page.insert_text("12")
    done()
    assert rendered(page)["html"] == linkify(TEXT, display={"max_length": 12, "location": "end"})


def test_a_bad_option_is_reported_not_rendered(page: Page) -> None:
    type_text(page, "see example.com")
    page.evaluate("(() => { const s = document.getElementById('schemes'); s.focus(); s.select(); })()")
    page.insert_text("https, javascript")
    page.wait_for("document.body.dataset.rendered === document.body.dataset.requested")
    assert page.evaluate("document.body.dataset.state") == "error"
    assert "(schemes)" in page.evaluate("document.getElementById('status').textContent")
    assert page.errors() == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]


def test_the_format_box(page: Page, server: PlaygroundServer) -> None:
    footer = page.evaluate("document.getElementById('limits').textContent")
    assert footer.startswith(f"Served from 127.0.0.1:{server.port} by uts58 ")  # (the page's own host: location.host)
    url = "https://xn--bcher-kva.de/%E2%82%AC?q=%F0%9F%8E%89"
    page.evaluate("(() => { const f = document.getElementById('format-input'); f.focus(); f.select(); })()")
    page.insert_text(url)
    expected = format_url(url)
    page.wait_for(f"document.getElementById('format-out').textContent.includes({json.dumps(expected)})")
    assert expected == "https://bücher.de/€?q=🎉"
