"""linkify and linkify_html: escaping, attributes, callbacks, Markdown, and no injection."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import html5lib
import pytest

import uts58
from uts58 import Policy, linkify, linkify_html


class Elements(HTMLParser):
    """Every element with its attributes, and the text, of an HTML string."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(markup: str) -> tuple[list[tuple[str, dict[str, str | None]]], str]:
    p = Elements()
    p.feed(markup)
    p.close()
    return p.elements, "".join(p.text)


def test_html_output() -> None:
    out = linkify("See bücher.de/straße. Or x@example.com!")
    assert out == (
        'See <a href="https://xn--bcher-kva.de/stra%C3%9Fe">bücher.de/straße</a>. '
        'Or <a href="mailto:x@example.com">x@example.com</a>!'
    )
    elements, text = parse(out)
    assert [e[0] for e in elements] == ["a", "a"]
    assert text == "See bücher.de/straße. Or x@example.com!"


def test_display_is_minimal_and_escaped() -> None:
    out = linkify("https://ja.wikipedia.org/wiki/%E3%82%A2(%E3%83%AB)")
    assert out == (
        '<a href="https://ja.wikipedia.org/wiki/%E3%82%A2(%E3%83%AB)">https://ja.wikipedia.org/wiki/ア(ル)</a>'
    )


HOSTILE = [
    ("<script>alert(1)</script> example.com/<script>", 1),
    ('example.com/?q="><img src=x onerror=alert(1)>', 1),
    ("example.com/'onmouseover='alert(1)", 1),
    ("example.com/a&b<c>d\"e'f", 1),
    ("javascript:alert(1)//example.com", 0),  # nothing: the domain is glued to "/" (D51)
    ("JaVaScRiPt:alert(1) java\tscript:alert(1) &#106;avascript:alert(1)", 0),
    ("data:text/html,<script>alert(1)</script> vbscript:msgbox(1)", 0),
    ("example.com/\u202eexe.txt \u2066x@example.com", 2),
    ('http://example.com/"onclick=alert(1)//', 1),
    ("<a href='x'>example.com</a>", 1),
]


@pytest.mark.parametrize(("text", "count"), HOSTILE)
def test_no_injection(text: str, count: int) -> None:
    out = linkify(text, attrs={"rel": "nofollow noopener"})
    elements, rendered_text = parse(out)
    # Only <a> elements, each with exactly href and rel, href http(s) or mailto.
    assert [tag for tag, _ in elements] == ["a"] * count
    for _, attrs in elements:
        assert set(attrs) == {"href", "rel"}
        assert attrs["href"] is not None and attrs["href"].startswith(("https://", "http://", "mailto:"))
        assert attrs["href"].isascii() and " " not in attrs["href"]
    # The text a reader sees is the input (bidi controls aside, which are escaped).
    assert rendered_text.replace("%E2%80%AE", "\u202e").replace("%E2%81%A6", "\u2066") == text
    # A spec-compliant HTML5 parser sees the same elements.
    doc = html5lib.parseFragment(out, namespaceHTMLElements=False)
    assert [el.tag for el in doc.iter() if el is not doc] == [tag for tag, _ in elements]


def test_attributes_and_callback() -> None:
    out = linkify("a example.com b", attrs={"rel": "nofollow", "target": "_blank"})
    assert out == 'a <a href="https://example.com/" rel="nofollow" target="_blank">example.com</a> b'

    def cb(link, attrs):  # type: ignore[no-untyped-def]
        if link.host == "drop.com":
            return None
        attrs["_text"] = attrs["_text"].upper()
        attrs["class"] = "ext"
        return attrs

    assert linkify("example.com drop.com", callback=cb) == (
        '<a href="https://example.com/" class="ext">EXAMPLE.COM</a> drop.com'
    )
    # A callback cannot smuggle a dangerous href or an event handler in.
    assert linkify("example.com", callback=lambda link, a: {**a, "href": "javascript:alert(1)"}) == "example.com"
    # An attribute no link carries is an error naming it, as in attrs (D134).
    for bad in ({"onclick": "x()"}, {"x y": "1"}, {"srcdoc": "<b>"}, {"style": "background:url(javascript:x)"}):
        with pytest.raises(uts58.errors.UnsafeAttributeError, match=f"callback: {re.escape(repr(next(iter(bad))))}"):
            linkify("example.com", callback=lambda link, a, bad=bad: {**a, **bad})
    for bad in ({"on click": "1"}, {"href": "x"}, {'a"': "1"}):
        with pytest.raises(ValueError, match="attrs"):
            linkify("example.com", attrs=bad)


def test_kinds_and_policy() -> None:
    text = "x@example.com example.org helpers.py"
    assert linkify(text, kinds=["url"]) == 'x@example.com <a href="https://example.org/">example.org</a> helpers.py'
    assert linkify(text, kinds="email").count("<a ") == 1
    assert linkify(text, policy=Policy.none()).count("<a ") == 2  # (helpers.py: detection's, D65)
    assert linkify(text, policy=Policy.none(), preset="all").count("<a ") == 3
    with pytest.raises(ValueError, match="kinds"):
        linkify(text, kinds=["phone"])


def test_markdown_output() -> None:
    # Parentheses are never special in link text; the destination is always in <…>
    # (more in tests/unit/test_markdown_text.py).
    assert linkify("See example.com/a_(b)*c*", format="markdown") == (
        "See [example.com/a\\_(b)\\*c\\*](<https://example.com/a_(b)*c*>)"
    )
    assert linkify("Mail x@example.com.", format="markdown") == "Mail [x@example.com](<mailto:x@example.com>)."
    # Markdown input is not passed through: "<b>" is text, not an HTML tag.
    assert linkify("a <b> example.org", format="markdown") == "a &lt;b> [example.org](<https://example.org/>)"
    with pytest.raises(ValueError, match="format"):
        linkify("x", format="rst")  # type: ignore[arg-type]


def test_linkify_html() -> None:
    fragment = (
        '<p class="x" data-u="example.com">see example.com &amp; more</p>'
        '<a href="/">example.org</a><pre>a.com</pre><code>b.com</code>'
        '<script>var u = "c.com"; if (a < b) {}</script><style>.x{background:url(d.com)}</style>'
        "<!-- e.com --><div>f.com<br/>g.com</div>"
    )
    out = linkify_html(fragment)
    assert out == (
        '<p class="x" data-u="example.com">see <a href="https://example.com/">example.com</a> &amp; more</p>'
        '<a href="/">example.org</a><pre>a.com</pre><code>b.com</code>'
        '<script>var u = "c.com"; if (a < b) {}</script><style>.x{background:url(d.com)}</style>'
        '<!-- e.com --><div><a href="https://f.com/">f.com</a><br/><a href="https://g.com/">g.com</a></div>'
    )  # the input's bytes around the links (D109): <br/> stays <br/>
    assert linkify_html("<p>example.com</p>", skip_tags=["p"]) == "<p>example.com</p>"
    assert linkify_html("<b>a</b> x.com", attrs={"rel": "nofollow"}) == (
        '<b>a</b> <a href="https://x.com/" rel="nofollow">x.com</a>'
    )
    with pytest.raises(ValueError, match="format"):
        linkify_html("x", format="markdown")


def test_type_errors() -> None:
    with pytest.raises(TypeError, match="text must be str"):
        linkify(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fragment must be str"):
        linkify_html(b"<p>")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"policy must be a uts58\.Policy"):
        linkify("x", policy="strict")  # type: ignore[arg-type]


def test_callback_href_follows_the_enabled_schemes() -> None:
    """D19: an href a callback returns must have an enabled scheme or mailto;
    javascript:, data:, vbscript: and file: can never be enabled."""

    def to(href: str):  # type: ignore[no-untyped-def]
        return lambda link, attrs: {**attrs, "href": href}

    text = "see example.com"
    assert 'href="ftp://x.example/"' in linkify(text, callback=to("ftp://x.example/"))  # ftp: on by default
    assert "<a " not in linkify(text, callback=to("ssh://x.example/"))
    assert 'href="ssh://x.example/"' in linkify(text, callback=to("ssh://x.example/"), schemes={"https", "ssh"})
    assert 'href="mailto:a@x.example"' in linkify(text, callback=to("mailto:a@x.example"), schemes={"https"})
    # the schemes of the hrefs uts58 writes itself stay allowed: an identity
    # callback changes nothing, whatever is enabled
    for enabled in ({"https"}, {"ftp"}, set()):
        assert linkify(text, schemes=enabled) == linkify(text, schemes=enabled, callback=lambda link, attrs: attrs)
    assert 'href="http://x.example/"' in linkify(text, callback=to("http://x.example/"), schemes={"https"})
    assert "<a " not in linkify(text, callback=to("gopher://x.example/"), schemes={"https"})
    for bad in ("javascript:alert(1)", "data:text/html,x", "vbscript:x", "file:///etc/passwd"):
        assert "<a " not in linkify(text, callback=to(bad), schemes={"https", "ftp"}), bad
    # issue 13 (D84): an href with no scheme is relative, on purpose (was refused before)
    assert 'href="//x.example/"' in linkify(text, callback=to("//x.example/"), schemes={"https", "ftp"})
    with pytest.raises(ValueError, match="never linked"):
        linkify(text, schemes={"https", "file"})
    # a scheme the caller named is linked whole, with its WHATWG href
    out = linkify("magnet:?xt=urn:btih:c12fe1&dn=a+b", schemes={"magnet"})
    assert out == '<a href="magnet:?xt=urn:btih:c12fe1&amp;dn=a+b">magnet:?xt=urn:btih:c12fe1&amp;dn=a+b</a>'


def test_each_distinct_link_written_once_gives_the_same_html() -> None:
    """D95: without a callback, linkify writes each distinct link of a text
    once; the HTML is what writing each link (a callback that changes
    nothing takes that path) gives, on real documents and repeated links."""
    from test_detection import real_documents

    texts = [*real_documents(), "раураl.com x@example.com раураl.com x@example.com helpers.py " * 3]
    for policy in (Policy.default(), Policy.strict(), Policy(max_url_length=20)):
        for text in texts:
            each = linkify(text, policy=policy, callback=lambda link, attrs: attrs)
            assert linkify(text, policy=policy) == each
            assert linkify(text, policy=policy, rel="nofollow", external_only=True) == linkify(
                text, policy=policy, rel="nofollow", external_only=True, callback=lambda link, attrs: attrs
            )
