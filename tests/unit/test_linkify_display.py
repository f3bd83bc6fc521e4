"""linkify(display=...): the shown text shortened, the href never (D90, with D79-D81)."""

from __future__ import annotations

from typing import Any

import pytest
from html5dom import justhtml_dom
from markdown_it import MarkdownIt
from test_finder import CONFORMANCE_LINES

import uts58
from uts58 import OptionError, Policy, linkify, linkify_html
from uts58.output.display import shorten

LONG = "Docs: https://www.example.com/guide/2024/setup/install.html?lang=en#linux and x@example.com, bücher.de/straße"
OPTIONS: list[dict[str, Any]] = [
    {"max_length": 12},
    {"max_length": 20, "location": "middle"},
    {"max_length": 24, "location": "smart", "strip_scheme": True, "strip_www": True},
    {"strip_scheme": True, "strip_trailing_slash": True},
    {"max_length": 1, "ellipsis": "..."},
]


def anchors(html: str) -> list[dict[str, Any]]:
    """Each <a> as an independent HTML5 parser reads it: its attributes and text."""
    out: list[dict[str, Any]] = []
    stack = list(reversed(justhtml_dom(html)))
    while stack:
        node = stack.pop()
        if node[0] == "html" and node[1] == "a":
            text = "".join(child[1] for child in node[3] if child[0] == "#text")
            out.append({"attrs": dict(node[2]), "text": text})
        elif node[0] not in ("#text", "#comment"):
            stack.extend(reversed(node[3]))
    return out


def test_justhtml_reader_sees_text_inside_anchors() -> None:
    (a,) = anchors('<a href="x" title="t">y&amp;z</a>')
    assert a == {"attrs": {"href": "x", "title": "t"}, "text": "y&z"}


@pytest.mark.parametrize("display", OPTIONS, ids=repr)
def test_display_changes_the_text_only(display: dict[str, Any]) -> None:
    texts = [*CONFORMANCE_LINES, LONG]
    compared = truncated = 0
    for text in texts:
        whole, short = anchors(linkify(text)), anchors(linkify(text, display=display))
        assert [a["attrs"]["href"] for a in short] == [a["attrs"]["href"] for a in whole]
        links = [link for link in uts58.find_links(text, file_extensions=Policy.default().file_extensions)]
        by_href = {link.href: link for link in links}
        for a, b in zip(whole, short, strict=True):
            link = by_href.get(a["attrs"]["href"])
            if link is None:
                continue  # (the §8 adjustment moved its start: another Link)
            text_shown, title = shorten(link, display)
            assert b["text"] == text_shown
            compared += 1
            truncated += title is not None
            # A title exactly when the text was truncated: the whole display form.
            assert b["attrs"].get("title") == title
            assert title is None or title == a["text"]
    assert compared > 200 and (truncated > 50) is ("max_length" in display)


def test_title_does_not_override_a_given_one() -> None:
    out = anchors(linkify(LONG, display={"max_length": 12}, attrs={"Title": "mine"}))
    assert all(a["attrs"].get("title") == "mine" for a in out)


def test_callbacks_see_the_shortened_text_and_the_title() -> None:
    seen = []

    def cb(link: uts58.Link, attrs: dict[str, str]) -> dict[str, str]:
        seen.append((attrs["_text"], attrs.get("title")))
        return attrs

    linkify(LONG, display={"max_length": 12}, callback=cb)
    assert seen and seen[0][0].endswith("…") and seen[0][1] is not None and seen[0][1].startswith("https://www.")
    assert ("x@example.com", None) in seen  # (an address is shown whole, D80)


def test_markdown_shows_the_shortened_text_with_the_same_href() -> None:
    md = MarkdownIt("commonmark")
    for display in OPTIONS:
        html = md.render(linkify(LONG, format="markdown", display=display))
        whole = md.render(linkify(LONG, format="markdown"))
        assert [a["attrs"]["href"] for a in anchors(html)] == [a["attrs"]["href"] for a in anchors(whole)]
        assert [a["text"] for a in anchors(html)] == [a["text"] for a in anchors(linkify(LONG, display=display))]


def test_bidi_controls_are_escaped_in_the_text_and_the_title() -> None:
    text = "see https://example.com/" + "a" * 30 + "\u202eb/c"
    (a,) = anchors(linkify(text, display={"max_length": 50, "location": "middle"}))
    assert "\u202e" not in a["text"] and "\u202e" not in a["attrs"]["title"]


def test_linkify_html_shortens_the_display_form() -> None:
    html = "<p>" + LONG.replace("&", "&amp;") + " <code>x.com/aaaaaaaaaaaaaaaa</code></p>"
    out = anchors(linkify_html(html, display={"max_length": 12}))
    expected = anchors(linkify(LONG, display={"max_length": 12}))
    assert out == expected


@pytest.mark.parametrize(
    ("display", "error", "message"),
    [
        (12, TypeError, "display must be a mapping"),
        ({"max_length": 0}, OptionError, "display['max_length']"),
        ({"location": "left"}, OptionError, "display['location']"),
        ({"colour": 1}, OptionError, "colour"),
        ({"strip_www": 1}, TypeError, "display['strip_www']"),
    ],
)
def test_bad_display_options_fail_before_any_work(display: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message.replace("[", r"\[").replace("]", r"\]")):
        linkify("", display=display)
    with pytest.raises(error):
        linkify_html("<p>x</p>", display=display)


def test_hostile_input_keeps_its_steps_linear() -> None:
    # One huge URL and many short ones: the shortening looks at a bounded
    # window of each (D81); linkify's own work is linear (the bench rows).
    huge = "https://example.com/" + "(a" * 100_000 + "\x00\ud800" + ")" * 100_000
    out = linkify(huge + " " + "x.com/abcdefghijkl " * 2000, display={"max_length": 10, "location": "middle"})
    shown = anchors(out)
    assert len(shown) >= 2000 and all(len(a["text"]) <= len("https://example.com") + 2 for a in shown)
