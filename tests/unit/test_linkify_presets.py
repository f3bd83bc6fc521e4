"""linkify's rel/target presets, relative callback hrefs and callback errors (issue 13; D82, D83, D84).

The HTML is read back with two independent HTML5 parsers (tests/html5dom.py);
where an href is resolved, the WHATWG URL parser (ada) resolves it against a
page's URL, as a browser would.
"""

from __future__ import annotations

import re
from typing import Any

import ada_url
import pytest
from html5dom import html5lib_dom, iter_elements, justhtml_dom

import uts58
from uts58 import Link, linkify, linkify_html
from uts58.detect.finder import Finder
from uts58.errors import OptionError
from uts58.output.linkifier import LinkAttributes

PAGE = "https://site.example/dir/page"


def anchors(markup: str) -> list[dict[str, str]]:
    """The attributes of each ``a`` of ``markup`` (with "#text": its text), as
    both parsers read them; they must agree."""
    found = []
    for dom in (justhtml_dom(markup), html5lib_dom(markup)):
        found.append(
            [
                {**dict(node[2]), "#text": "".join(t[1] for t in node[3] if t[0] == "#text")}
                for node, _ in iter_elements(dom)
                if node[1] == "a"
            ]
        )
    assert found[0] == found[1], markup
    return found[0]


# --------------------------------------------------------------------------
# rel and target (D82)


def test_rel_and_target_go_on_every_link_and_blank_adds_noopener() -> None:
    text = "see example.com and x@example.org"
    links = anchors(linkify(text, rel="nofollow ugc", target="_blank", rel_target_on="all"))
    assert [a["rel"] for a in links] == ["nofollow ugc noopener"] * 2  # emails too, when asked (D113)
    assert [a["target"] for a in links] == ["_blank"] * 2
    for target in ("_BLANK", "_Blank"):  # a browsing-context keyword is ASCII case-insensitive
        assert anchors(linkify(text, target=target))[0]["rel"] == "noopener"
    assert anchors(linkify(text, rel="NoOpener", target="_blank"))[0]["rel"] == "NoOpener"  # not twice
    assert "rel" not in anchors(linkify(text, target="frame"))[0]  # only _blank opens a new context
    assert "target" not in anchors(linkify(text, rel="nofollow"))[0]
    # A rel in attrs gets the noopener too; attrs alone are written as given (as before).
    assert anchors(linkify(text, attrs={"rel": "ugc", "class": "x"}, target="_blank"))[0]["rel"] == "ugc noopener"
    assert "noopener" not in linkify(text, attrs={"target": "_blank"})
    # Values are attribute-escaped.
    assert anchors(linkify("a.com", rel='x"><b>'))[0]["rel"] == 'x"><b>'


def test_rel_and_target_go_on_web_links_only_unless_asked() -> None:
    """D113: mailto: and hostless URLs (tel:) get the presets only with
    rel_target_on="all"; attrs and link_class stay on every link."""
    text = "see example.com, x@example.org, mailto:y@example.org and tel:+12015550123"
    options: dict[str, Any] = {"rel": "nofollow", "target": "_blank", "schemes": {"https", "tel"}}
    links = anchors(linkify(text, **options))
    assert [(a["href"][:4], a.get("rel"), a.get("target")) for a in links] == [
        ("http", "nofollow noopener", "_blank"),
        ("mail", None, None),
        ("mail", None, None),
        ("tel:", None, None),
    ]
    links = anchors(linkify(text, **options, rel_target_on="all"))
    assert [a.get("rel") for a in links] == ["nofollow noopener"] * 4
    links = anchors(linkify(text, **options, attrs={"data-x": "1"}, link_class="ext"))
    assert [(a["data-x"], a["class"]) for a in links] == [("1", "ext")] * 4
    with pytest.raises(OptionError, match="rel_target_on must be 'web' or 'all'") as info:
        linkify("a.com", rel="x", rel_target_on="email")  # type: ignore[arg-type]
    assert info.value.option == "rel_target_on"
    with pytest.raises(OptionError, match="rel_target_on='all': needs rel= or target="):
        linkify("a.com", rel_target_on="all")
    with pytest.raises(OptionError, match="rel_target_on='all': external_only"):
        linkify("a.com", rel="x", rel_target_on="all", external_only=True)
    with pytest.raises(TypeError, match="rel_target_on must be str"):
        linkify("a.com", rel="x", rel_target_on=True)  # type: ignore[arg-type]


def test_rel_and_target_errors_name_the_argument() -> None:
    for name in ("rel", "target"):
        with pytest.raises(OptionError, match=f"{name} is given twice"):
            linkify("a.com", **{name: "x"}, attrs={name.upper(): "y"})  # type: ignore[arg-type]
        with pytest.raises(OptionError, match=f"{name}: a Markdown link has no attributes"):
            linkify("a.com", format="markdown", **{name: "x"})  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=f"{name} must be str, not list"):
            linkify("a.com", **{name: ["x"]})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="external_only must be bool, not int"):
        linkify("a.com", rel="x", external_only=1)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="external_only: needs rel= or target="):
        linkify("a.com", attrs={"rel": "x"}, external_only=True)
    with pytest.raises(OptionError, match="internal_hosts: needs external_only=True"):
        linkify("a.com", rel="x", internal_hosts=["a.com"])
    with pytest.raises(TypeError, match="attrs must be a mapping, not str"):
        linkify("a.com", attrs="rel=x")  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# external_only and internal_hosts (D83)


def test_external_only_marks_other_hosts_only() -> None:
    text = (
        "example.com www.Example.COM http://a.b.example.com./y notexample.com example.com.evil.org "
        "bücher.de shop.xn--bcher-kva.de other.org x@other.org mailto:y@other.org tel:+12015550123 "
        "http://10.0.0.1/ http://10.0.0.2/ http://[::1]/x localhost:8080/x"
    )
    out = linkify(
        text,
        rel="nofollow",
        target="_blank",
        external_only=True,
        internal_hosts=["EXAMPLE.com.", "xn--bcher-kva.de", "10.0.0.1", "[0:0::1]", "localhost"],
        attrs={"class": "l"},
        schemes={"https", "http", "tel"},
        bare_localhost=True,
    )
    marked = {a["#text"]: "rel" in a for a in anchors(out)}
    assert marked == {
        "example.com": False,
        "www.example.com": False,  # (shown in lower case, §4)
        "http://a.b.example.com./y": False,  # a final dot is the same host
        "notexample.com": True,  # a subdomain is a whole label more, not a longer name
        "example.com.evil.org": True,
        "bücher.de": False,  # an A-label entry matches a link written in Unicode
        "shop.bücher.de": False,
        "other.org": True,
        "x@other.org": False,  # email addresses are not pages
        "mailto:y@other.org": False,
        "tel:+12015550123": False,  # no host
        "http://10.0.0.1/": False,
        "http://10.0.0.2/": True,
        "http://[::1]/x": False,  # IPv6 compared as serialized
        "localhost:8080/x": False,
    }
    for a in anchors(out):
        assert a["class"] == "l"  # attrs go on every link
        assert ("rel" in a) == ("target" in a)
        if "rel" in a:
            assert (a["rel"], a["target"]) == ("nofollow noopener", "_blank")
    # A U-label entry matches the A-label host (converted once per call).
    out = linkify("xn--bcher-kva.de/x", rel="nofollow", external_only=True, internal_hosts=("Bücher.DE",))
    assert "rel" not in anchors(out)[0]
    # No internal hosts: every URL with a host is external.
    assert anchors(linkify("a.com", rel="nofollow", external_only=True, internal_hosts=[]))[0]["rel"] == "nofollow"


@pytest.mark.parametrize("entry", ["", ".", "exa mple.com", "a.com/x", "a.com:80", "u@a.com", "*.a.com", "a\ud800.com"])
def test_bad_internal_hosts_name_the_entry(entry: str) -> None:
    with pytest.raises(OptionError, match=r"internal_hosts: " + re.escape(repr(entry))):
        linkify("a.com", rel="x", external_only=True, internal_hosts=[entry])


@pytest.mark.parametrize("value", ["example.com", b"example.com", 3, [3], [None]])
def test_internal_hosts_types(value: Any) -> None:
    with pytest.raises(TypeError, match="internal_hosts must"):
        linkify("a.com", rel="x", external_only=True, internal_hosts=value)


class CountingSet(frozenset[str]):
    lookups = 0

    def __contains__(self, item: object) -> bool:
        CountingSet.lookups += 1
        return super().__contains__(item)


def test_internal_host_check_is_bounded_per_link() -> None:
    """A host of 120 labels costs at most as many lookups as the deepest
    internal name has labels (no per-link IDNA, no walk over every label)."""
    la = LinkAttributes(rel="x", external_only=True, internal_hosts=["b.example.com", "b.org"])
    la._domains = CountingSet(la._domains)  # type: ignore[misc]
    (link,) = uts58.find_links("http://" + "a." * 120 + "example.com/")
    CountingSet.lookups = 0
    assert la.external(link)
    assert CountingSet.lookups <= 3
    # Linear in the links: exactly one check per link, each bounded.
    counts = []
    for n in (1000, 2000, 4000):
        CountingSet.lookups = 0
        text = " ".join(f"w{i}.b.example.com/x o{i}.other.net" for i in range(n // 2))
        links = list(uts58.find_links(text))
        assert sum(la.external(link) for link in links) == n // 2
        counts.append(CountingSet.lookups)
    # at most depth (3) lookups per link, whatever the number of links
    assert all(count <= 3 * n for count, n in zip(counts, (1000, 2000, 4000), strict=True))
    assert counts[1] <= 2.1 * counts[0] and counts[2] <= 2.1 * counts[1]


def test_presets_on_hostile_text() -> None:
    options: dict[str, Any] = {
        "rel": "nofollow",
        "target": "_blank",
        "external_only": True,
        "internal_hosts": ["a.com"],
    }
    assert linkify("\x00b.com\ud800 a.com\x00", **options) == (
        '\x00<a href="https://b.com/" rel="nofollow noopener" target="_blank">b.com</a>\ud800 '
        '<a href="https://a.com/">a.com</a>\x00'
    )
    nested = "(" * 5000 + "b.com/" + "(" * 5000 + ")" * 10000
    assert linkify(nested, **options).count('rel="nofollow noopener"') == 1
    assert linkify("b.com " * 20_000, **options).count('target="_blank"') == 20_000


# --------------------------------------------------------------------------
# The adapters pass the presets through


def test_adapters_take_the_presets() -> None:
    options: dict[str, Any] = {
        "rel": "nofollow",
        "target": "_blank",
        "external_only": True,
        "internal_hosts": ["a.com"],
    }
    out = linkify_html("<p>a.com <b>b.com</b></p>", **options)
    assert [("rel" in a, a["#text"]) for a in anchors(out)] == [(False, "a.com"), (True, "b.com")]
    from uts58.templates import django_filter, linkify_filter

    out = linkify_filter("a.com b.com x@b.com", **options)
    assert [a.get("rel") for a in anchors(out)] == [None, "nofollow noopener", None]
    # The filter's target in attrs keeps its noopener (its behaviour before linkify had presets).
    assert anchors(linkify_filter("a.com", attrs={"target": "_blank"}))[0]["rel"] == "noopener"
    assert anchors(django_filter("a.com", {"target": "_blank", "rel": "ugc"}))[0]["rel"] == "ugc noopener"
    import markdown
    import mistune

    from uts58.markdown.mistune import LinkifyPlugin
    from uts58.markdown.python_markdown import LinkifyExtension

    out = markdown.markdown("a.com b.com x@b.com", extensions=[LinkifyExtension(**options)])
    assert [a.get("rel") for a in anchors(out)] == [None, "nofollow noopener", None]
    out = mistune.create_markdown(plugins=[LinkifyPlugin(**options)])("a.com b.com x@b.com")
    assert [a.get("rel") for a in anchors(str(out))] == [None, "nofollow noopener", None]


# --------------------------------------------------------------------------
# Relative and redirecting hrefs from callbacks (D84)


def to(href: str) -> Any:
    return lambda link, attrs: {**attrs, "href": href}


RELATIVE = [
    "/out?to=https%3A%2F%2Fexample.com%2F&sig=1",
    "?ref=1",
    "#x",
    "out/here",
    "//cdn.example/x",
    "https://redirect.example/?u=https%3A%2F%2Fexample.com",
    "/r?u=java&#x09;script:alert(1)",  # (after a "/": a path, whatever a renderer decodes)
    "./%6Aavascript:alert(1)",
]


@pytest.mark.parametrize("href", RELATIVE)
def test_relative_hrefs_reach_the_browser_as_written(href: str) -> None:
    out = linkify("see example.com", callback=to(href), schemes={"https"})
    (a,) = anchors(out)
    assert a["href"] == href  # the HTML parser decodes linkify's &amp; back to the callback's '&'
    resolved = ada_url.URL(a["href"], PAGE)
    assert resolved.protocol == "https:", (href, resolved.href)


@pytest.mark.parametrize("href", ["\\\\evil.example/x", "/\\evil.example/x"])
def test_backslash_hrefs_are_protocol_relative_on_purpose(href: str) -> None:
    """In a special scheme a backslash is a slash: the callback chose another host."""
    (a,) = anchors(linkify("see example.com", callback=to(href)))
    assert a["href"] == href
    resolved = ada_url.URL(a["href"], PAGE)
    assert (resolved.protocol, resolved.hostname) == ("https:", "evil.example")


REFUSED = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "\x00javascript:alert(1)",
    "\x01javascript:alert(1)",
    "\tjavascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\rscript:alert(1)",
    "javascript:alert(1)\x7f",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:x",
    "file:///etc/passwd",
    "/a b",
    "",
    # Lone surrogates: dropped by HTML serializers and UTF-8 encoders (review of issue 13).
    "\udcffjavascript:alert(1)",
    "java\udcffscript:alert(1)",
    "/x\ud800",
    # Character references in the first segment: mistune decodes a Markdown
    # destination twice, "javascript&colon;x" became a javascript: href.
    "javascript&colon;alert(1)",
    "javascript&#58;alert(1)",
    "javascript&#x3a;alert(1)",
    "java&#x09;script:alert(1)",
    "&#106;avascript:alert(1)",
    "jav&#97;script:alert(1)",
    "%6Aavascript:alert(1)",
    "1a:b",
]


@pytest.mark.parametrize("href", REFUSED)
def test_dangerous_or_unclean_hrefs_leave_the_link_as_text(href: str) -> None:
    for format in ("html", "markdown"):
        assert linkify("see example.com", format=format, callback=to(href)) == "see example.com"  # type: ignore[arg-type]
    assert linkify_html("<p>see example.com</p>", callback=to(href)) == "<p>see example.com</p>"
    assert linkify("see example.com", callback=lambda link, attrs: {"class": "x"}) == "see example.com"  # no href

    mistune = pytest.importorskip("mistune")
    source = linkify("see example.com", format="markdown", callback=to(href))
    assert "<a " not in mistune.html(source)  # (mistune as a renderer of linkify's Markdown)


@pytest.mark.parametrize("href", [h for h in RELATIVE if "%" not in h] + ["\\\\evil.example/x"])
def test_relative_hrefs_in_markdown_render_the_same_href(href: str) -> None:
    markdown = pytest.importorskip("markdown")
    markdown_it = pytest.importorskip("markdown_it")
    source = linkify("see example.com", format="markdown", callback=to(href))
    for rendered in (
        markdown_it.MarkdownIt("commonmark").render(source),
        markdown_it.MarkdownIt("commonmark", {"html": False}).render(source),
        markdown.markdown(source),
    ):
        (a,) = anchors(rendered)
        resolved = ada_url.URL(a["href"], PAGE)
        assert resolved.protocol == "https:"
        if "\\" in href:
            # link_destination percent-encodes '\': in Markdown it stays on this host.
            assert resolved.hostname == "site.example" and "%5C" in a["href"]
        else:
            assert a["href"] == href, rendered


def test_relative_hrefs_through_the_adapters() -> None:
    href = "/out?to=a&b=1"
    assert anchors(linkify_html("<p>a.com</p>", callback=to(href)))[0]["href"] == href
    from uts58.templates import linkify_filter

    assert anchors(linkify_filter("a.com", callback=to(href)))[0]["href"] == href
    markdown = pytest.importorskip("markdown")
    from uts58.markdown.python_markdown import LinkifyExtension

    out = markdown.markdown("a.com", extensions=[LinkifyExtension(callback=to(href))])
    assert anchors(out)[0]["href"] == href


# --------------------------------------------------------------------------
# Callback errors (D84)


class Boom(Exception):
    pass


def boom(link: Link, attrs: dict[str, str]) -> dict[str, str]:
    raise Boom(link.text)


def entry_points() -> list[tuple[str, Any]]:
    from uts58.templates import linkify_filter

    points: list[tuple[str, Any]] = [
        ("linkify", lambda cb: linkify("see a.com", callback=cb)),
        ("linkify markdown", lambda cb: linkify("see a.com", format="markdown", callback=cb)),
        ("linkify_html", lambda cb: linkify_html("<p>see a.com</p>", callback=cb)),
        ("linkify_html display", lambda cb: linkify_html("<p>see a.com</p>", callback=cb, link_text="display")),
        ("linkify_filter", lambda cb: linkify_filter("see a.com", callback=cb)),
    ]
    try:
        import markdown

        from uts58.markdown.python_markdown import LinkifyExtension

        points.append(
            ("Python-Markdown", lambda cb: markdown.markdown("see a.com", extensions=[LinkifyExtension(callback=cb)]))
        )
    except ImportError:
        pass
    try:
        import mistune

        from uts58.markdown.mistune import LinkifyPlugin

        points.append(
            ("mistune", lambda cb: mistune.create_markdown(plugins=[LinkifyPlugin(callback=cb)])("see a.com"))
        )
    except ImportError:
        pass
    return points


@pytest.mark.parametrize("name", [name for name, _ in entry_points()])
def test_callback_errors_name_the_argument(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run = dict(entry_points())[name]
    scans = []
    real = Finder.find_links

    def counting(self: Finder, text: str) -> Any:
        scans.append(text)
        return real(self, text)

    monkeypatch.setattr(Finder, "find_links", counting)
    with pytest.raises(TypeError, match="callback must be callable, not int"):
        run(5)
    assert not [t for t in scans if t]  # checked before any text is scanned
    cases: list[tuple[Any, str]] = [
        (lambda link, attrs: [("href", "x")], "callback must return a mapping of attributes or None, not list"),
        (lambda link, attrs: "https://x.example/", "not str"),
        (lambda link, attrs: {**attrs, "href": None}, "callback returned NoneType for 'href', not str"),
        (lambda link, attrs: {**attrs, "_text": 3}, "callback returned int for '_text', not str"),
        (lambda link, attrs: {**attrs, "data-n": 1}, "callback returned int for 'data-n', not str"),
        (lambda link, attrs: {**attrs, 1: "x"}, "callback returned a key that is not str: 1"),
    ]
    for callback, message in cases:
        with pytest.raises(TypeError, match=re.escape(message)):
            run(callback)
    # What the callback raises goes through unchanged (not wrapped, not swallowed).
    with pytest.raises(Boom) as caught:
        run(boom)
    assert caught.value.args == ("a.com",)
    # A well-formed callback still works there.
    assert "https://a.com/" in str(run(lambda link, attrs: attrs))
