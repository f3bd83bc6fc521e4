"""What the tests of the Markdown adapters (Python-Markdown, mistune) share:
the wrong options each must refuse naming the argument, the presets, and how
an independent HTML5 parser (html5lib) reads the links of their output."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import html5lib

from uts58 import Link

WRONG_OPTIONS: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"policy": "strict"}, TypeError, "policy"),
    ({"attrs": {"href": "x"}}, ValueError, "href"),
    ({"attrs": {"rel": 1}}, TypeError, "attrs"),
    ({"kinds": ["urls"]}, ValueError, "kinds"),
    ({"schemes": ["javascript"]}, ValueError, "javascript"),
    ({"schemes": "https"}, TypeError, "schemes"),
    ({"require_scheme": "no"}, TypeError, "require_scheme"),
    ({"callback": "f"}, TypeError, "callback"),
    ({"unicode_version": 16}, TypeError, "unicode_version"),
    ({"link_text": "shown"}, ValueError, "link_text"),
    ({"link_text": 1}, TypeError, "link_text"),
    ({"fuzzy": True}, TypeError, "fuzzy"),
    ({"finder": "x"}, TypeError, "finder"),
    ({"rel": 1}, TypeError, "rel"),
    ({"target": ["_blank"]}, TypeError, "target"),
    ({"rel": "x", "attrs": {"rel": "y"}}, ValueError, "rel"),
    ({"external_only": "yes"}, TypeError, "external_only"),
    ({"internal_hosts": "a.com"}, TypeError, "internal_hosts"),
    ({"internal_hosts": ["a b"]}, ValueError, "internal_hosts"),
    ({"display": 20}, TypeError, "display"),
    ({"display": {"max_length": 0}}, ValueError, "max_length"),
    ({"display": {"location": "left"}}, ValueError, "location"),
    ({"display": {"shorten": True}}, ValueError, "shorten"),
]

PRESETS: dict[str, Any] = {"rel": "nofollow", "target": "_blank", "external_only": True, "internal_hosts": ["a.com"]}


def attributes(html: str) -> list[dict[str, str]]:
    """The attributes of the ``a`` elements and their text (``#text``), as an HTML5 parser reads them."""
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return [{**a.attrib, "#text": "".join(a.itertext())} for a in root.iter("a")]


Render = Callable[..., str]  # render(text, **adapter options) -> HTML


def check_titles_and_callbacks(render: Render) -> None:
    """A title given wins over the shortening's; a callback sees the presets,
    the title and the shortened text (D82, D90)."""
    seen: list[dict[str, str]] = []

    def callback(link: Link, attrs: dict[str, str]) -> dict[str, str]:
        seen.append(dict(attrs))
        return attrs

    text = "see b.com/some/long/path"
    assert attributes(render(text, attrs={"Title": "mine"}, display={"max_length": 8}))[0]["title"] == "mine"
    render(text, callback=callback, display={"max_length": 8}, target="_top")
    assert seen == [
        {"href": "https://b.com/some/long/path", "target": "_top", "title": "b.com/some/long/path", "_text": "b.com/s…"}
    ]


def check_internal_hosts_iterator(render: Render) -> None:
    """``internal_hosts`` may be an iterator (read once, D83)."""
    html = render("a.com b.com", internal_hosts=iter(["a.com"]), external_only=True, rel="ugc")
    assert [a.get("rel") for a in attributes(html)] == [None, "ugc"]


def check_cdata_outside_foreign_content(render: Render) -> None:
    """``<![CDATA[`` outside svg/math is a bogus comment that ends at the
    first ``>``: markup after it counts (review of issue 13)."""
    assert attributes(render("a <![CDATA[x><textarea>]]> x@y.org")) == []
    assert [a["href"] for a in attributes(render("a <![CDATA[x>]]> x@y.org"))] == ["mailto:x@y.org"]
