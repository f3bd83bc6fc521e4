"""One contract for every entry point that writes links (issue 24).

The options of :class:`uts58.Linkifier` — ``attrs``, ``rel``/``target``/
``external_only``/``internal_hosts``, ``callback``, ``display``, ``kinds``,
``policy`` — mean the same in every output: :func:`uts58.linkify` (HTML and
Markdown), :meth:`uts58.Linkifier.render`, :func:`uts58.linkify_html`, the
markdown-it plugin, the Python-Markdown extension, the mistune plugin (with
and without escaping), the template filter and ``uts58 linkify``.  Each
case runs on each output that can express it, and reads the output back
with an HTML5 parser (Markdown: rendered by markdown-it first).
"""

from __future__ import annotations

import html
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import html5lib
import markdown
import mistune
import pytest
from markdown_cases import PRESETS, WRONG_OPTIONS, attributes, check_internal_hosts_iterator, check_titles_and_callbacks
from markdown_it import MarkdownIt

import uts58
import uts58.markdown.markdown_it
import uts58.markdown.mistune
from uts58 import Link, Linkifier, Policy
from uts58.cli.main import main
from uts58.errors import UnsafeAttributeError
from uts58.markdown.python_markdown import LinkifyExtension
from uts58.templates import linkify_filter

Render = Callable[..., str]


def _markdown(text: str, **options: Any) -> str:
    """linkify's Markdown, rendered to HTML by a CommonMark renderer."""
    return MarkdownIt("commonmark").render(uts58.linkify(text, format="markdown", **options))


def _cli_argv(options: dict[str, Any]) -> list[str] | None:
    """The flags of ``uts58 linkify`` for ``options``, or None when a flag cannot say them."""
    argv: list[str] = []
    for name, value in options.items():
        if name == "attrs":
            argv += [arg for k, v in value.items() for arg in ("--attr", f"{k}={v}")]
        elif name in ("rel", "target"):
            argv += [f"--{name}", value]
        elif name == "link_class":
            argv += ["--class", value]
        elif name == "rel_target_on":
            argv += ["--rel-target-on", value]
        elif name == "external_only":
            argv += ["--external-only"] if value else []
        elif name == "internal_hosts" and isinstance(value, list):
            argv += [arg for host in value for arg in ("--internal-host", host)]
        elif name == "display" and set(value) == {"max_length"}:
            argv += ["--truncate", str(value["max_length"])]
        elif name == "kinds" and len(value) == 1:
            argv += ["--only", value[0] + "s"]
        elif name == "policy" and value == Policy.none():
            argv += ["--policy", "none"]
        else:
            return None
    return argv


def _cli(text: str, **options: Any) -> str:
    argv = _cli_argv(options)
    assert argv is not None
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.txt", Path(tmp) / "out.html"
        src.write_text(text, encoding="utf-8")
        assert main(["linkify", *argv, str(src), "-o", str(out)]) == 0
        return out.read_text(encoding="utf-8")


# name -> (render, writes attributes)
OUTPUTS: dict[str, tuple[Render, bool]] = {
    "linkify": (lambda text, **o: uts58.linkify(text, **o), True),
    "linkify markdown": (_markdown, False),
    "Linkifier.render": (lambda text, **o: Linkifier(**o).render(text), True),
    "linkify_html": (lambda text, **o: uts58.linkify_html(html.escape(text, quote=False), **o), True),
    "markdown-it": (lambda text, **o: MarkdownIt().use(uts58.markdown.markdown_it.plugin, **o).render(text), True),
    "python-markdown": (lambda text, **o: markdown.markdown(text, extensions=[LinkifyExtension(**o)]), True),
    "mistune": (
        lambda text, **o: mistune.create_markdown(plugins=[uts58.markdown.mistune.LinkifyPlugin(**o)])(text),
        True,
    ),
    "mistune escape=False": (
        lambda text, **o: mistune.create_markdown(escape=False, plugins=[uts58.markdown.mistune.LinkifyPlugin(**o)])(
            text
        ),
        True,
    ),
    "template filter": (lambda text, **o: str(linkify_filter(text, **o)), True),
    "uts58 linkify": (_cli, True),
}


def _callback(link: Link, attrs: dict[str, str]) -> dict[str, str] | None:
    if "drop" in link.text:
        return None
    if "js" in link.text:
        return {**attrs, "href": "javascript:alert(1)"}
    if "space" in link.text:
        return {**attrs, "href": "https://a.com/x y"}
    return {**attrs, "href": attrs["href"] + "?via=md", "_text": "<" + attrs["_text"] + "> & &amp;", "rel": "x"}


EXTERNAL = {"rel": "nofollow noopener", "target": "_blank"}

# name -> (text, options, the anchors (attributes and #text) expected, needs attributes)
CASES: dict[str, tuple[str, dict[str, Any], list[dict[str, str]], bool]] = {
    "attrs are written exactly": (
        "see example.com",
        {"attrs": {"rel": "nofollow ugc", "title": 'a&lt;b "q" <x>'}},
        [{"href": "https://example.com/", "rel": "nofollow ugc", "title": 'a&lt;b "q" <x>', "#text": "example.com"}],
        True,
    ),
    "rel and target on external links only": (
        "a.com/x, b.com/x and x@b.com",
        PRESETS,
        [
            {"href": "https://a.com/x", "#text": "a.com/x"},
            {"href": "https://b.com/x", **EXTERNAL, "#text": "b.com/x"},
            {"href": "mailto:x@b.com", "#text": "x@b.com"},
        ],
        True,
    ),
    "link_class is every link's class (rel goes on web links only, D113)": (
        "a.com/x and x@b.com",
        {"link_class": "ext", "rel": "ugc"},
        [
            {"href": "https://a.com/x", "class": "ext", "rel": "ugc", "#text": "a.com/x"},
            {"href": "mailto:x@b.com", "class": "ext", "#text": "x@b.com"},
        ],
        True,
    ),
    "rel_target_on='all' puts rel and target on mailto: too": (
        "a.com/x and x@b.com",
        {"rel": "nofollow", "target": "_blank", "rel_target_on": "all"},
        [
            {"href": "https://a.com/x", **EXTERNAL, "#text": "a.com/x"},
            {"href": "mailto:x@b.com", **EXTERNAL, "#text": "x@b.com"},
        ],
        True,
    ),
    "display shortens the text, never the href": (
        "see b.com/some/long/path",
        {"display": {"max_length": 12}},
        [{"href": "https://b.com/some/long/path", "title": "b.com/some/long/path", "#text": "b.com/some/…"}],
        False,
    ),
    "a callback changes or drops links, never lets a bad href through": (
        "keep.com drop.com js.com space.com",
        {"callback": _callback},
        [{"href": "https://keep.com/?via=md", "rel": "x", "#text": "<keep.com> & &amp;"}],
        False,
    ),
    "kinds": ("a.com/x and x@b.com", {"kinds": ["email"]}, [{"href": "mailto:x@b.com", "#text": "x@b.com"}], False),
    "the default policy refuses a confusable host": (
        "раураl.com and example.com",
        {},
        [{"href": "https://example.com/", "#text": "example.com"}],
        False,
    ),
    "Policy.none() links it": (
        "раураl.com and example.com",
        {"policy": Policy.none()},
        [
            {"href": "https://xn--l-7sba6dbr.com/", "#text": "раураl.com"},
            {"href": "https://example.com/", "#text": "example.com"},
        ],
        False,
    ),
}


def _pairs() -> list[Any]:
    out = []
    for case, (_, options, _, needs_attributes) in CASES.items():
        for name, (_, writes_attributes) in OUTPUTS.items():
            if needs_attributes and not writes_attributes:
                continue
            if name == "uts58 linkify" and _cli_argv(options) is None:
                continue  # (a callback or a Policy object has no flag)
            out.append(pytest.param(case, name, id=f"{name}: {case}"))
    return out


@pytest.mark.parametrize(("case", "output"), _pairs())
def test_every_output_keeps_the_contract(case: str, output: str) -> None:
    text, options, expected, _ = CASES[case]
    render, writes_attributes = OUTPUTS[output]
    found = attributes(render(text, **options))
    if not writes_attributes:  # (a Markdown link has an href and a text)
        expected = [{k: v for k, v in a.items() if k in ("href", "#text")} for a in expected]
    assert found == expected


HTML_OUTPUTS = [name for name, (_, attrs) in OUTPUTS.items() if attrs and name != "uts58 linkify"]


# D134: one rule for every way an attribute gets on an <a>.
REFUSED_ATTRIBUTES = [
    ("onclick", "alert(1)"),
    ("OnMouseOver", "x()"),
    ("formaction", "javascript:alert(1)"),
    ("xlink:href", "javascript:alert(1)"),
    ("srcdoc", "<script>alert(1)</script>"),
    ("style", "background:url(javascript:alert(1))"),
    ("data-next", " JaVaScRiPt:alert(1)"),
]


@pytest.mark.parametrize("output", OUTPUTS)
@pytest.mark.parametrize(("name", "value"), REFUSED_ATTRIBUTES)
def test_every_output_refuses_the_same_attributes(output: str, name: str, value: str) -> None:
    """attrs (and --attr) and a callback refuse the same attributes, each with
    an UnsafeAttributeError naming the attribute (the CLI: a usage error)."""
    render, writes_attributes = OUTPUTS[output]
    if output == "uts58 linkify":
        with pytest.raises(SystemExit) as exc:
            main(["linkify", "--attr", f"{name}={value}", "-"])
        assert exc.value.code == 2
        return
    if writes_attributes:
        with pytest.raises(UnsafeAttributeError, match=f"attrs: {name!r}") as exc:
            render("see example.com", attrs={name: value})
        assert exc.value.attribute == name
    with pytest.raises(UnsafeAttributeError, match=f"callback: {name!r}") as exc:
        render("see example.com", callback=lambda link, attrs: {**attrs, name: value})
    assert exc.value.attribute == name


@pytest.mark.parametrize("output", HTML_OUTPUTS)
def test_a_title_given_wins_and_callbacks_see_the_title(output: str) -> None:
    check_titles_and_callbacks(OUTPUTS[output][0])


@pytest.mark.parametrize("output", HTML_OUTPUTS)
def test_internal_hosts_may_be_an_iterator(output: str) -> None:
    check_internal_hosts_iterator(OUTPUTS[output][0])


@pytest.mark.parametrize("output", [*HTML_OUTPUTS, "linkify markdown"])
@pytest.mark.parametrize(("options", "error", "words"), WRONG_OPTIONS)
def test_wrong_options_name_the_argument(
    output: str, options: dict[str, Any], error: type[Exception], words: str
) -> None:
    render = OUTPUTS[output][0]
    if output == "linkify markdown" and options.keys() & {"attrs", "rel", "target"}:
        error, words = ValueError, "a Markdown link has no attributes"
    if output == "template filter" and "policy" in options:
        error, words = TypeError, "policy"  # (the filter also takes a policy's name: "strict" is one)
        options = {"policy": 1}
    with pytest.raises(error, match=words):
        render("see example.com", **options)


@pytest.mark.parametrize(("options", "option"), [
    ({"kinds": ["urls"]}, "kinds"),
    ({"rel": "x", "attrs": {"rel": "y"}}, "rel"),
    ({"display": {"max_length": 0}}, "display"),
    ({"internal_hosts": ["a b"], "external_only": True, "rel": "x"}, "internal_hosts"),
    ({"schemes": ["javascript"]}, "schemes"),
    ({"unicode_version": "1.0"}, "unicode_version"),
    ({"preset": "nosuch"}, "preset"),
    ({"file_extensions": "py"}, None),  # (a TypeError: it names file_extensions in its message)
    ({"format": "rtf"}, "format"),
    ({"link_text": "shown"}, "link_text"),
    ({"attrs": {"href": "x"}}, "attrs"),
    ({"external_only": True}, "external_only"),
    ({"finder": uts58.Finder(), "schemes": ["https"]}, "finder"),
    ({"link_class": "x", "attrs": {"CLASS": "y"}}, "link_class"),
    ({"link_class": "x", "format": "markdown"}, "link_class"),
    ({"rel_target_on": "mail", "rel": "x"}, "rel_target_on"),
    ({"rel_target_on": "all"}, "rel_target_on"),
    ({"rel_target_on": "all", "rel": "x", "external_only": True}, "rel_target_on"),
])  # fmt: skip
def test_errors_name_their_option(options: dict[str, Any], option: str | None) -> None:
    """OptionError.option names the keyword (the command line maps it to its flag)."""
    with pytest.raises((uts58.OptionError, TypeError)) as info:
        Linkifier(**options)
    if option is None:
        assert isinstance(info.value, TypeError) and "file_extensions" in str(info.value)
    else:
        assert isinstance(info.value, uts58.OptionError) and info.value.option == option


def test_a_linkifier_or_its_options_not_both() -> None:
    lk = Linkifier(rel="ugc")
    for render in (
        lambda **o: uts58.linkify_html("a.com", **o),
        lambda **o: uts58.markdown.mistune.LinkifyPlugin(**o),
        lambda **o: LinkifyExtension(**o),
        lambda **o: uts58.markdown.markdown_it.Linkify(**o),
    ):
        with pytest.raises(uts58.OptionError) as info:
            render(linkifier=lk, rel="x")
        assert info.value.option == "linkifier"
        with pytest.raises(TypeError, match="linkifier"):
            render(linkifier="x")


@pytest.mark.parametrize("output", ["linkify_html", "markdown-it", "python-markdown", "mistune"])
def test_a_linkifier_is_taken_as_it_is(output: str) -> None:
    """linkifier=: its options, its link text (here the display form, as linkify's)."""
    adapters: dict[str, Callable[[str, Linkifier], str]] = {
        "linkify_html": lambda t, lk: uts58.linkify_html(t, linkifier=lk),
        "markdown-it": lambda t, lk: MarkdownIt().use(uts58.markdown.markdown_it.plugin, linkifier=lk).render(t),
        "python-markdown": lambda t, lk: markdown.markdown(t, extensions=[LinkifyExtension(linkifier=lk)]),
        "mistune": lambda t, lk: mistune.create_markdown(plugins=[uts58.markdown.mistune.LinkifyPlugin(linkifier=lk)])(
            t
        ),
    }
    lk = Linkifier(rel="ugc", kinds="url")
    found = attributes(adapters[output]("see HTTP://B\u00dcCHER.de/%C3%A4 and x@b.com", lk))
    assert found == [{"href": "http://xn--bcher-kva.de/%C3%A4", "rel": "ugc", "#text": "http://bücher.de/ä"}]


def test_the_markdown_it_plugin_turns_linkify_on() -> None:
    """MarkdownIt().use(plugin) links: the plugin enables markdown-it's linkify option and rules."""
    for md in (MarkdownIt(), MarkdownIt("zero"), MarkdownIt("commonmark", {"linkify": False})):
        assert 'href="https://a.com/"' in md.use(uts58.markdown.markdown_it.plugin).render("see a.com")
    # Without the plugin, markdown-it's commonmark preset links nothing.
    assert "href" not in MarkdownIt().render("see a.com")


def test_linkifier_is_a_value() -> None:
    import pickle

    a = Linkifier(attrs={"class": "x"}, display={"max_length": 9}, kinds=["url"], schemes={"ssh"})
    b = Linkifier(attrs={"class": "x"}, display={"max_length": 9}, kinds=("url",), schemes=["SSH"])
    assert a == b and hash(a) == hash(b) and a != Linkifier()
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.rel = "x"  # type: ignore[misc]
    assert a.with_options(rel="ugc").rel == "ugc" and a.with_options(schemes={"git"}).finder.schemes == {"git"}
    assert a.attrs == {"class": "x"} and a.finder.schemes == {"ssh"}
    text = "see ssh://h.example.com/x and x@y.com"
    assert [x.href for x in a.anchors(text)] == ["ssh://h.example.com/x"]
    assert a.render(text) == uts58.linkify(
        text, attrs={"class": "x"}, display={"max_length": 9}, kinds=["url"], schemes={"ssh"}
    )
    # Options given as iterators are read once, and the linkifier made again (pickled) is the same.
    c = Linkifier(known_tlds=iter(["corp", "com"]), internal_hosts=iter(["a.corp"]), external_only=True, rel="x")
    assert pickle.loads(pickle.dumps(c)) == c and c.with_options(target="_top").finder == c.finder
    assert [dict(x.attrs) for x in c.anchors("a.corp b.com")] == [{}, {"rel": "x"}]


def test_linkify_reuses_the_linkifier_of_the_same_options() -> None:
    uts58.cache_clear()
    for _ in range(3):
        uts58.linkify("a.com", rel="ugc", attrs={"class": "x"}, internal_hosts=[], kinds=["url"])
    info = uts58.cache_info()["linkifiers"]
    assert info.misses == 1 and info.hits == 2
    # a changed mapping is another set of options, not a stale answer
    attrs = {"class": "x"}
    first = uts58.linkify("a.com", attrs=attrs)
    attrs["class"] = "y"
    assert 'class="y"' in uts58.linkify("a.com", attrs=attrs) and 'class="x"' in first


def test_anchors_are_where_the_links_are() -> None:
    text = "Mail x@b.com or see https://a.com/(x) and раураl.com"
    anchors = list(Linkifier().anchors(text))
    assert [(text[a.start : a.end], a.href, a.text) for a in anchors] == [
        ("x@b.com", "mailto:x@b.com", "x@b.com"),
        ("https://a.com/(x)", "https://a.com/(x)", "https://a.com/(x)"),
    ]
    assert all(a.link.start == a.start and a.link.end == a.end for a in anchors)
    with pytest.raises(TypeError, match="text"):
        list(Linkifier().anchors(b"a.com"))  # type: ignore[arg-type]


def test_the_cli_error_names_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "a.txt"
    src.write_text("a.com", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["linkify", "--external-only", str(src)])
    assert "argument --external-only: external_only: needs rel= or target=" in capsys.readouterr().err


def test_html_outputs_parse_as_their_anchors() -> None:
    """(the reading of the contract: html5lib finds the anchors each output wrote)"""
    root = html5lib.parseFragment(uts58.linkify("a.com b.com"), namespaceHTMLElements=False)
    assert len(list(root.iter("a"))) == 2


def test_the_cjk_boundary_is_the_finders() -> None:
    """§8's CJK boundary moves a link's start as the finder reports it (D107);
    every output asked for it (``cjk_boundary=True``) detects so, and a
    policy never changes it (D65)."""
    text = "ウェブサイトはexample.com です。メールはtaro@example.jp、最高のSONY製品.com"
    finder = uts58.Finder(cjk_boundary=True)
    assert [link.text for link in finder.find_links(text)] == ["example.com", "メールはtaro@example.jp", "製品.com"]
    assert next(uts58.find_links(text)).text == "ウェブサイトはexample.com"
    assert [(s.start, s.end) for s in finder.spans(text)] == [(k.start, k.end) for k in finder.find_links(text)]
    assert [r["text"] for r in finder.records(text)] == ["example.com", "メールはtaro@example.jp", "製品.com"]
    # A move that leaves no valid host ("xn--a" is no A-label) leaves no link; the run whole was one.
    invalid = "ウェブサイトはxn--a.com"
    assert [link.text for link in uts58.find_links(invalid)] == [invalid]
    assert list(finder.find_links(invalid)) == [] and not finder.has_links(invalid) and finder.has_links(text)
    assert Linkifier(cjk_boundary=True).finder.cjk_boundary
    for policy in (Policy.none(), Policy.strict()):
        assert not Linkifier(policy=policy).finder.cjk_boundary
        assert Linkifier(policy=policy).finder == Linkifier().finder
    with pytest.raises(TypeError):
        Policy(cjk_boundary=True)  # type: ignore[call-arg]
    for name in ("linkify", "linkify_html", "markdown-it", "python-markdown", "mistune", "template filter"):
        found = attributes(OUTPUTS[name][0](text, cjk_boundary=True))
        assert [a["href"] for a in found] == [
            "https://example.com/",
            _href("メールはtaro@example.jp"),
            _href("製品.com"),
        ]
    # (the link a finder moved is the finder's: the policy trusts it, D64)
    moved = next(finder.find_links(text))
    assert moved.finder == finder and uts58.check_link(moved) == []


def _href(name: str) -> str:
    return next(uts58.find_links(name)).href


def test_the_linkify_cache_keys_values_by_type() -> None:
    """1, 1.0 and True are equal but not the same option: a cached linkifier
    never answers for a value its checks would refuse (review of issue 24)."""
    long = "www.example.com/abcdefghijklmnopqrstuvwxyz"
    assert "…" in uts58.linkify(long, display={"max_length": 20})
    with pytest.raises(TypeError, match="max_length"):
        uts58.linkify(long, display={"max_length": 20.0})
    uts58.linkify(long, display={"strip_www": True})
    with pytest.raises(TypeError, match="strip_www"):
        uts58.linkify(long, display={"strip_www": 1})
    with pytest.raises(TypeError, match="kinds"):
        uts58.linkify(long, kinds=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="format"):
        uts58.linkify(long, format=1)  # type: ignore[arg-type]


def test_a_callback_is_not_kept_in_the_cache() -> None:
    """A callback made per call (a closure over a request) must not fill the
    cache nor stay alive in it."""
    import gc
    import weakref

    class Request:
        pass

    uts58.cache_clear()
    refs = []
    for _ in range(10):
        request = Request()
        refs.append(weakref.ref(request))
        uts58.linkify("a.com", callback=lambda link, attrs, request=request: attrs)
    del request
    gc.collect()
    assert all(ref() is None for ref in refs) and uts58.cache_info()["linkifiers"].currsize == 0


def test_with_options_makes_the_linkifier_as_its_options_would() -> None:
    """A new policy judges what the same finder finds (D65); a finder
    given stays."""
    text = "run helpers.py then main.rs, ウェブサイトはexample.com"
    strict = Policy(file_extensions={"rs"})
    for policy in (Policy.none(), strict, Policy.default()):
        for start in (Linkifier(), Linkifier(policy=Policy.none()), Linkifier(policy=strict)):
            changed = start.with_options(policy=policy)
            assert changed == Linkifier(policy=policy) and changed.render(text) == Linkifier(policy=policy).render(text)
    given = uts58.Finder(file_extensions=())
    assert Linkifier(finder=given).with_options(policy=Policy.default()).finder == given
    assert Linkifier(finder=given).with_options(schemes={"ssh"}).finder == given.with_options(schemes={"ssh"})
    with pytest.raises(uts58.OptionError) as info:
        Linkifier().with_options(finder=given, schemes={"ssh"})
    assert info.value.option == "finder"
    lk = Linkifier(schemes={"ssh"}, rel="ugc")
    assert lk.with_options(finder=given).finder == given and lk.with_options(preset="gfm").finder.schemes == {"ssh"}


def test_anchors_attributes_are_read_only() -> None:
    lk = Linkifier(rel="nofollow", display={"max_length": 5})
    for anchor in lk.anchors("example.com example.com/long/path"):
        with pytest.raises(TypeError):
            anchor.attrs["rel"] = "x"  # type: ignore[index]
    assert [dict(a.attrs)["rel"] for a in lk.anchors("example.org")] == ["nofollow"]


def test_errors_name_the_function_called() -> None:
    for call, name in (
        (lambda: uts58.linkify("a.com", bogus=1), "linkify()"),
        (lambda: uts58.linkify_html("a.com", bogus=1), "linkify_html()"),
        (lambda: LinkifyExtension(bogus=1), "LinkifyExtension()"),
        (lambda: uts58.markdown.mistune.LinkifyPlugin(bogus=1), "LinkifyPlugin()"),
        (lambda: Linkifier(bogus=1), "Linkifier()"),
    ):
        with pytest.raises(TypeError, match=rf"^{re.escape(name)} got an unexpected keyword argument 'bogus'"):
            call()
    with pytest.raises(uts58.OptionError, match=r"^linkify: give a finder or detection options"):
        uts58.linkify("a.com", finder=uts58.Finder(), schemes={"ssh"})


@pytest.mark.parametrize(
    "make",
    [
        lambda **o: LinkifyExtension(**o),
        lambda **o: uts58.markdown.mistune.LinkifyPlugin(**o),
        lambda **o: uts58.linkify_html("a.com", **o),
    ],
)
def test_html_adapters_refuse_a_markdown_format(make: Callable[..., object]) -> None:
    with pytest.raises((TypeError, uts58.OptionError), match="format"):
        make(format="markdown")
    with pytest.raises(uts58.OptionError) as info:
        make(linkifier=Linkifier(format="markdown"))
    assert info.value.option == "linkifier"


def test_markdown_it_trims_a_final_star_with_the_options_applied() -> None:
    """markdown-it reads a final '*' as emphasis: the anchor is the trimmed
    URL's, after the callback and the display options (review of issue 24)."""
    render = lambda text, **o: MarkdownIt().use(uts58.markdown.markdown_it.plugin, **o).render(text)  # noqa: E731
    redirect = lambda link, attrs: {**attrs, "href": "/out?to=" + link.href}  # noqa: E731
    found = attributes(render("**https://example.com/a**", callback=redirect))
    assert found == [{"href": "/out?to=https://example.com/a", "#text": "https://example.com/a"}]
    found = attributes(render("x https://bücher.de/ä* y", linkifier=Linkifier(link_text="display")))
    assert found == [{"href": "https://xn--bcher-kva.de/%C3%A4", "#text": "https://bücher.de/ä"}]
    found = attributes(render("**https://example.com/abcdefghijkl**", display={"max_length": 12}))
    assert found[0]["title"] == "https://example.com/abcdefghijkl"
    assert attributes(render("**https://example.com/a**")) == [
        {"href": "https://example.com/a", "#text": "https://example.com/a"}
    ]


def test_importing_makes_no_finder() -> None:
    """The default linkifier is made at its first use, not when the module is imported."""
    import subprocess
    import sys

    code = "import uts58.output.linkifier as l, uts58.cli.main; print(l.default_linkifier.cache_info().currsize)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"


def test_a_scan_keeps_no_reference_to_its_text() -> None:
    """No cache holds a whole text (a misplaced cache once kept the last 64 candidates' matches)."""
    import gc
    import sys

    text = "x" * 1000 + " a.... b@@@@ x@x@x@ example.com"
    before = sys.getrefcount(text)
    list(uts58.find_links(text))
    list(uts58.Finder(schemes={"ssh"}).find_links(text))
    uts58.linkify(text)
    gc.collect()
    assert sys.getrefcount(text) == before
