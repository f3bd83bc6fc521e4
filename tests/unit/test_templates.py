"""The template filter (uts58.templates) in Jinja2 and Django.

Rendered output is read back with html5lib (an HTML5 tree builder that shares
no code with uts58); the text around the links is compared with the value, the
links with what detection (uts58.find_links) finds in it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import html5lib
import jinja2
import markupsafe
import pytest
from django.utils.safestring import SafeData
from hypothesis import given
from hypothesis import strategies as st

import uts58
import uts58.templates
from uts58 import Policy, find_links, linkify
from uts58.output.policy import escape_bidi_controls
from uts58.templates import django_filter, linkify_filter, parse_argument

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "data" / "htmlsafety"
SAFE_SCHEMES = ("http:", "https:", "mailto:")


def corpus(name: str) -> list[str]:
    path = CORPORA / name
    if not path.exists():
        pytest.skip(f"{path} is not here (public corpus, read at test time only)")
    with path.open(encoding="utf-8") as f:
        return [json.loads(line)["input"] for line in f if line.strip()]


def hostile_values() -> list[str]:
    return corpus("payloadbox.jsonl") + corpus("h5sc.jsonl")


def jinja_env(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(autoescape=autoescape)
    uts58.templates.install(env)
    return env


@pytest.fixture(scope="module")
def django_engine() -> Any:
    from django.conf import settings

    if not settings.configured:
        settings.configure(TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates"}])
    import django
    from django import template

    django.setup()
    # As an app does it: a templatetags module whose ``register`` is uts58's Library.
    return template.Engine(libraries={"links": "uts58.templates"})


def render_django(engine: Any, source: str, **context: Any) -> str:
    from django import template

    return str(engine.from_string("{% load links %}" + source).render(template.Context(context)))


# --------------------------------------------------------------------------
# An independent reading of the output


def html_items(markup: str) -> list[str | tuple[dict[str, str], str]]:
    """The fragment as html5lib builds it: text (str) and links (attributes,
    text); any other element fails the test."""
    root = html5lib.parseFragment(markup, container="div", namespaceHTMLElements=False)
    items: list[str | tuple[dict[str, str], str]] = [root.text or ""]
    for child in root:
        assert child.tag == "a", f"element <{child.tag}> in {markup!r}"
        assert len(child) == 0, f"an element inside a link in {markup!r}"
        items.append((dict(child.attrib), child.text or ""))
        items.append(child.tail or "")
    return items


def as_parsed(text: str) -> str:
    """Text as the HTML5 input stream and tree builder see it (CR LF and CR
    read as LF, NUL dropped from text)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "")


def shown(link: uts58.Link) -> str:
    return escape_bidi_controls(link.display)  # what the default policy shows


def expected_attributes(href: str, extra: dict[str, str] | None) -> dict[str, str]:
    """``extra`` for a web link; without ``rel`` and ``target`` for ``mailto:`` (D113)."""
    if href.startswith("mailto:"):
        return {k: v for k, v in (extra or {}).items() if k not in ("rel", "target")}
    return extra or {}


def check_linkified(value: str, markup: str, extra: dict[str, str] | None = None) -> int:
    """``markup`` is ``value`` as text, in which links (and nothing else) are
    elements ``a`` with an http(s)/mailto href and the attributes ``extra``
    (:func:`expected_attributes`), each at a link that detection finds, with
    its href and display.  Returns the number of links."""
    links = list(find_links(value, file_extensions=()))  # (Policy.none() lets "helpers.py" through, D56)
    pos, pending, count = 0, "", 0
    for item in html_items(markup):
        if isinstance(item, str):
            pending += item
            continue
        attrs, text = item
        href = attrs.pop("href")
        assert href.startswith(SAFE_SCHEMES)
        assert attrs == expected_attributes(href, extra), f"attributes {attrs} in {markup!r}"
        # The next link in the value with this text before it, this href and this display.
        match = [
            link
            for link in links
            if link.start >= pos
            and as_parsed(value[pos : link.start]) == pending
            and link.href == href
            and shown(link) == text
        ]
        assert match, f"link {text!r} is not one detection finds after {value[:pos]!r}"
        pos, pending, count = match[0].end, "", count + 1
    assert pending == as_parsed(value[pos:])
    return count


# --------------------------------------------------------------------------
# Jinja2


@pytest.mark.parametrize("autoescape", [True, False])
def test_jinja_escapes_text_and_links_it(autoescape: bool) -> None:
    env = jinja_env(autoescape)
    out = env.from_string("<p>{{ body | linkify }}</p>").render(body='<b>"hi"</b> example.com/α')
    # Jinja's own urlize escapes with autoescape off too, and so does this filter:
    # Environment() has autoescape off by default, pages rendered with it stay safe.
    assert out == '<p>&lt;b&gt;&#34;hi&#34;&lt;/b&gt; <a href="https://example.com/%CE%B1">example.com/α</a></p>' or (
        out == '<p>&lt;b&gt;&quot;hi&quot;&lt;/b&gt; <a href="https://example.com/%CE%B1">example.com/α</a></p>'
    )
    assert html_items(out[3:-4]) == ['<b>"hi"</b> ', ({"href": "https://example.com/%CE%B1"}, "example.com/α"), ""]
    assert env.from_string("{{ none | linkify }}").render(none=None) == ""
    assert env.from_string("{{ n | linkify }}").render(n=42) == "42"


def test_jinja_options() -> None:
    env = jinja_env(True)
    body = "see example.com and x@example.org"
    out = env.from_string('{{ b | linkify(rel="nofollow ugc", target="_blank") }}').render(b=body)
    assert check_linkified(body, out, {"rel": "nofollow ugc noopener", "target": "_blank"}) == 2
    out = env.from_string('{{ b | linkify(target="_blank", rel="noopener") }}').render(b=body)
    assert check_linkified(body, out, {"rel": "noopener", "target": "_blank"}) == 2  # no second noopener
    out = env.from_string('{{ b | linkify(target="frame") }}').render(b=body)
    assert check_linkified(body, out, {"target": "frame"}) == 2  # only _blank needs noopener
    out = env.from_string('{{ b | linkify(kinds="email", attrs={"class": "x\\"y"}) }}').render(b=body)
    assert check_linkified(body, out, {"class": 'x"y'}) == 1 and "mailto:" in out
    # Policies by name and as objects: раураl.com is confusable to the default
    # policy; helpers.py is a file name to detection, whatever the policy (D65).
    body = "helpers.py раураl.com"
    for policy, links in (("default", 0), ("strict", 0), ("none", 1), (Policy.none(), 1)):
        out = env.from_string("{{ b | linkify(policy=p) }}").render(b=body, p=policy)
        assert check_linkified(body, out) == links
    strict = Policy.strict()
    assert linkify_filter("b\u202eadexample.com", policy=strict) == linkify("b\u202eadexample.com", policy=strict)


def test_jinja_markup_values_are_linkified_as_html() -> None:
    env = jinja_env(True)
    out = env.from_string("{{ b | linkify(rel='ugc') }}").render(b=markupsafe.Markup("<b>example.com</b>"))
    root = html5lib.parseFragment(out, container="div", namespaceHTMLElements=False)
    (b,) = list(root)
    (a,) = list(b)
    assert b.tag == "b" and a.tag == "a" and a.attrib == {"href": "https://example.com/", "rel": "ugc"}
    assert a.text == "example.com"


@pytest.mark.parametrize("autoescape", [True, False])
def test_markdown_is_never_marked_safe(autoescape: bool) -> None:
    body = "<img src=x onerror=alert(1)> example.com/a_(b)"
    result = linkify_filter(body, format="markdown")
    assert type(result) is str and not hasattr(result, "__html__")
    out = jinja_env(autoescape).from_string("{{ b | linkify(format='markdown') }}").render(b=body)
    if autoescape:
        # The engine escapes the Markdown: the page shows it as text, no element.
        assert html_items(out) == [linkify(body, format="markdown")]
    else:
        assert out == linkify(body, format="markdown")  # Markdown written by a template, as it is


def test_option_errors() -> None:
    with pytest.raises(ValueError, match="markdown"):
        linkify_filter(markupsafe.Markup("<b>a.com</b>"), format="markdown")
    with pytest.raises(ValueError, match="format='html'"):
        linkify_filter("a.com", format="markdown", rel="nofollow")
    with pytest.raises(ValueError, match="format must be"):
        linkify_filter("a.com", format="rst")
    with pytest.raises(ValueError, match="policy must be one of"):
        linkify_filter("a.com", policy="lenient")
    with pytest.raises(TypeError, match="policy must be"):
        linkify_filter("a.com", policy=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rel must be str"):
        linkify_filter("a.com", rel=["nofollow"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rel is given twice"):
        linkify_filter("a.com", rel="ugc", attrs={"REL": "b"})
    with pytest.raises(TypeError, match="attrs must be a mapping"):
        linkify_filter("a.com", attrs="rel=x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="kinds"):
        linkify_filter("a.com", kinds="phone")
    with pytest.raises(TypeError, match="env must be"):
        uts58.templates.install(object())


# --------------------------------------------------------------------------
# Django


def test_django_autoescape_on(django_engine: Any) -> None:
    body = "<i> example.com x@example.org"
    out = render_django(django_engine, "{{ b|linkify }}", b=body)
    assert check_linkified(body, out) == 2
    out = render_django(django_engine, '{{ b|linkify:"nofollow, target=_blank, kinds=url, class=ext" }}', b=body)
    assert check_linkified(body, out, {"rel": "nofollow noopener", "target": "_blank", "class": "ext"}) == 1
    out = render_django(django_engine, '{{ b|linkify:"policy=none" }}', b="раураl.com")
    assert check_linkified("раураl.com", out) == 1
    out = render_django(django_engine, "{{ b|linkify:opts }}", b=body, opts={"rel": "ugc", "kinds": ["email"]})
    assert check_linkified(body, out, {"rel": "ugc"}) == 1
    out = render_django(django_engine, "{{ b|linkify:p }}", b="раураl.com", p=Policy.none())
    assert check_linkified("раураl.com", out) == 1
    assert render_django(django_engine, "{{ b|linkify }}", b=None) == ""


def test_django_autoescape_off_keeps_the_text_and_builds_links_safely(django_engine: Any) -> None:
    body = '<i>see</i> &amp; example.com/"<x>" x@example.org'
    out = render_django(django_engine, "{% autoescape off %}{{ b|linkify:'ugc' }}{% endautoescape %}", b=body)
    assert out == (
        '<i>see</i> &amp; <a href="https://example.com/%22%3Cx%3E" rel="ugc">example.com/"&lt;x&gt;</a>"'
        ' <a href="mailto:x@example.org">x@example.org</a>'
    )
    # Not marked safe: the result holds text nobody escaped.
    result = django_filter(body, None, autoescape=False)
    assert not isinstance(result, SafeData) and not hasattr(result, "__html__")
    assert isinstance(django_filter(body, None, autoescape=True), SafeData)
    # Markdown stays text: escaped by the engine under autoescape, as it is without.
    out = render_django(django_engine, "{{ b|linkify:'format=markdown' }}", b=body)
    assert html_items(out) == [linkify(body, format="markdown")]
    out = render_django(
        django_engine, "{% autoescape off %}{{ b|linkify:'format=markdown' }}{% endautoescape %}", b=body
    )
    assert out == linkify(body, format="markdown")


def test_django_safe_values_are_linkified_as_html(django_engine: Any) -> None:
    from django.utils.safestring import mark_safe

    for source in ("{{ b|linkify }}", "{% autoescape off %}{{ b|linkify }}{% endautoescape %}"):
        out = render_django(django_engine, source, b=mark_safe("<b>example.com</b> <a href='/'>x.org</a>"))
        root = html5lib.parseFragment(out, container="div", namespaceHTMLElements=False)
        b, kept = list(root)
        assert b.tag == "b" and [(a.tag, a.attrib, a.text) for a in b] == [
            ("a", {"href": "https://example.com/"}, "example.com")
        ]
        assert kept.attrib == {"href": "/"} and kept.text == "x.org"  # an existing link is not touched


def test_parse_argument() -> None:
    assert parse_argument("") == {}
    assert parse_argument("nofollow") == {"rel": "nofollow"}
    assert parse_argument(" kinds = url email , format=html ") == {"kinds": ["url", "email"], "format": "html"}
    assert parse_argument("attr:data-x=1,attr:TITLE=a b") == {"attrs": {"data-x": "1", "title": "a b"}}
    assert parse_argument("NoFollow UGC, Target=_blank") == {"target": "_blank", "rel": "nofollow ugc"}
    assert parse_argument("class=ext, policy=STRICT, preset=gfm") == {
        "link_class": "ext",
        "policy": "strict",
        "preset": "gfm",
    }
    for bad in (
        "attr:onclick=alert(1)",
        "attr:href=x",
        "attr:style=x",
        "rel=nofollow,rel=ugc",
        "nofollow,rel=ugc",
        "=x",
        "class=a,CLASS=b",
        "nofollow,nofollow",
    ):
        with pytest.raises(ValueError, match="linkify argument"):
            parse_argument(bad)
    with pytest.raises(TypeError, match="argument must be str"):
        parse_argument(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="argument must be str, int, a mapping or a Policy"):
        django_filter("a.com", True)


# --------------------------------------------------------------------------
# Hostile values


def test_hostile_values_are_text_with_safe_links(django_engine: Any) -> None:
    from django import template as dt

    source = '{{ b | linkify(rel="nofollow", target="_blank") }}'
    jinja_on, jinja_off = jinja_env(True).from_string(source), jinja_env(False).from_string(source)
    django_on = django_engine.from_string('{% load links %}{{ b|linkify:"nofollow,target=_blank" }}')
    extra = {"rel": "nofollow noopener", "target": "_blank"}
    links = 0
    for value in hostile_values():
        out = jinja_on.render(b=value)
        # The same HTML from each engine (read once below).
        assert jinja_off.render(b=value) == out and str(django_on.render(dt.Context({"b": value}))) == out
        try:
            links += check_linkified(value, out, extra)
        except AssertionError as exc:
            raise AssertionError(f"{value!r} -> {out!r}: {exc}") from None
    assert links > 100  # the corpora hold links: the check saw some


def check_raw_linkified(value: str, out: str, extra: dict[str, str]) -> int:
    """``out`` is ``value`` as it is, but for links that detection finds in it,
    each of which, read on its own, is one ``a`` element with a safe href,
    the attributes ``extra`` and the link's display.  Returns the number of links."""
    pos_v = pos_o = linked = 0
    for link in find_links(value):
        if link.start < pos_v:
            continue
        before = value[pos_v : link.start]
        assert out.startswith(before, pos_o), (value, out)
        pos_o += len(before)
        pos_v = link.start
        if out.startswith("<a ", pos_o):  # a link starts with a letter or digit, never "<"
            end = out.index("</a>", pos_o) + 4
            ((attrs, text),) = [item for item in html_items(out[pos_o:end]) if item != ""]
            assert isinstance(attrs, dict)
            assert attrs.pop("href") == link.href and link.href.startswith(SAFE_SCHEMES)
            assert attrs == expected_attributes(link.href, extra) and text == shown(link)
            pos_o, pos_v, linked = end, link.end, linked + 1
    assert out[pos_o:] == value[pos_v:], (value, out)
    return linked


def test_hostile_values_with_autoescape_off_in_django(django_engine: Any) -> None:
    """The text is the value as it was; the links are built safely."""
    from django import template as dt

    template = django_engine.from_string(
        "{% load links %}{% autoescape off %}{{ b|linkify:'nofollow,target=_blank' }}{% endautoescape %}"
    )
    extra = {"rel": "nofollow noopener", "target": "_blank"}
    linked = sum(
        check_raw_linkified(value, str(template.render(dt.Context({"b": value}))), extra) for value in hostile_values()
    )
    assert linked > 100


PIECES = [*"ab.co/@<>&;#\"' x\r\0é", "amp;", "lt;", "#x27;", ".com", "</a>", "<a href=x>"]


@given(st.lists(st.sampled_from(PIECES)).map("".join))
def test_autoescape_off_keeps_any_text(value: str) -> None:
    check_raw_linkified(value, django_filter(value, "ugc", autoescape=False), {"rel": "ugc"})
    check_linkified(value, django_filter(value, "ugc", autoescape=True), {"rel": "ugc"})


# --------------------------------------------------------------------------
# Bounded work


def test_one_pass_over_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The filter renders the value once through the Linkifier, whatever the
    number of links, and never reads its own output back (autoescape off:
    the text around the anchors is kept as it is, not escaped and unescaped)."""
    calls: list[tuple[int, bool]] = []
    real_render = uts58.Linkifier.render

    def counted_render(self: uts58.Linkifier, text: str, *, escape: bool = True) -> str:
        calls.append((len(text), escape))
        return real_render(self, text, escape=escape)

    monkeypatch.setattr(uts58.Linkifier, "render", counted_render)
    monkeypatch.setattr("html.unescape", None)  # (reading the output back would fail)
    for n in (1000, 2000):
        calls.clear()
        value = "<b>&</b> example.com/a x@example.org " * n
        out = django_filter(value, "nofollow", autoescape=False)
        assert calls == [(len(value), False)]
        assert out.count("<a ") == 2 * n and out.count("<b>&</b>") == n


def test_autoescape_off_keeps_the_text_and_writes_the_anchors() -> None:
    """Autoescape off: the text between the anchors is the value's, the
    anchors are the Linkifier's (attribute values and link text escaped)."""
    text = "a <a href='x'>b</a> &amp; &lt; \"'> example.com/&lt;<\" c"
    assert django_filter(text, {"attrs": {"title": "</a><a>"}}, autoescape=False) == (
        "a <a href='x'>b</a> &amp; &lt; \"'> "
        '<a href="https://example.com/&amp;lt;%3C" title="&lt;/a&gt;&lt;a&gt;">example.com/&amp;lt;&lt;</a>" c'
    )


def test_mapping_attrs_follow_the_compact_rule() -> None:
    # A review found that a mapping argument let `onclick` through while the
    # compact string refused it.
    from uts58.templates import django_filter, linkify_filter

    for name in ("onclick", "OnLoad", "href", "style"):
        with pytest.raises(ValueError, match="attrs"):
            django_filter("x.com", {"attrs": {name: "alert(1)"}})
        with pytest.raises(ValueError, match="attrs"):
            linkify_filter("x.com", attrs={name: "alert(1)"})


# --------------------------------------------------------------------------
# The short argument cannot be misread (D112); rel/target on web links (D113)

LONG = "see https://www.example.com/docs/2024/guide/install.html and x@example.org"

# The short argument and the linkify options it means.
MEANINGS: list[tuple[str, dict[str, Any]]] = [
    ("30", {"display": {"max_length": 30}}),
    ("truncate=30", {"display": {"max_length": 30}}),
    ("max_length = 30, location=middle", {"display": {"max_length": 30, "location": "middle"}}),
    (
        "24, location=smart, strip_scheme, strip_www, strip_trailing_slash, ellipsis=...",
        {
            "display": {
                "max_length": 24,
                "location": "smart",
                "strip_scheme": True,
                "strip_www": True,
                "strip_trailing_slash": True,
                "ellipsis": "...",
            }
        },
    ),
    ("nofollow ugc, target=_blank", {"rel": "nofollow ugc", "target": "_blank"}),
    ("rel=sponsored noreferrer, rel_target_on=all", {"rel": "sponsored noreferrer", "rel_target_on": "all"}),
    (
        "nofollow, external_only, internal_hosts=example.org",
        {"rel": "nofollow", "external_only": True, "internal_hosts": ["example.org"]},
    ),
    ("class=ext, attr:data-track=1", {"link_class": "ext", "attrs": {"data-track": "1"}}),
    ("kinds=email, policy=strict", {"kinds": ["email"], "policy": Policy.strict()}),
]


@pytest.mark.parametrize(("arg", "options"), MEANINGS)
def test_the_short_argument_means_linkify_options(arg: str, options: dict[str, Any]) -> None:
    out = django_filter(LONG, arg)
    assert out == linkify(LONG, **options) and out != linkify(LONG)


def test_the_misreadings_of_the_issue_are_gone(django_engine: Any) -> None:
    """issue 25: "30" gave rel="30", "truncate=30" an attribute, "nofolow" a rel."""
    from django.template import TemplateSyntaxError

    out = render_django(django_engine, '{{ b|linkify:"30" }}', b=LONG)
    ((attrs, text),) = [item for item in html_items(out) if isinstance(item, tuple)][:1]
    assert "rel" not in attrs and len(text) == 30 and text.endswith("…") and attrs["title"].startswith("https://")
    assert render_django(django_engine, '{{ b|linkify:"truncate=30" }}', b=LONG) == out
    assert render_django(django_engine, "{{ b|linkify:30 }}", b=LONG) == out  # a number, as urlizetrunc:30
    with pytest.raises(TemplateSyntaxError, match="max_length"):
        render_django(django_engine, "{{ b|linkify:0 }}", b=LONG)
    for arg, word in (("nofolow", "'nofolow'"), ("data-x=1", "'data-x'"), ("target=blank", "'blank'")):
        with pytest.raises(TemplateSyntaxError, match=word) as info:
            render_django(django_engine, f'{{{{ b|linkify:"{arg}" }}}}', b=LONG)
        assert isinstance(info.value, uts58.OptionError)  # one type, whichever way it is caught
    with pytest.raises(TemplateSyntaxError, match="did you mean 'nofollow'"):
        render_django(django_engine, '{{ b|linkify:"nofolow" }}', b=LONG)
    # A mapping argument's bad value is a template error too; a wrong type stays a TypeError.
    with pytest.raises(TemplateSyntaxError, match="kinds"):
        render_django(django_engine, "{{ b|linkify:o }}", b=LONG, o={"kinds": ["phone"]})
    with pytest.raises(TypeError, match="argument must be"):
        render_django(django_engine, "{{ b|linkify:o }}", b=LONG, o=3.0)


@pytest.mark.parametrize(
    ("arg", "words"),
    [
        ("0", "max_length=0"),
        ("-5", "'-5'"),
        ("30, 20", "'20' is given twice"),
        ("truncate=3x", "truncate=3x"),
        ("max_lenght=3", "did you mean 'max_length'"),
        ("location=left", "'left'"),
        ("rel=nofollow nofolow", "'nofolow'"),
        ("target=_blnk", "did you mean '_blank'"),
        ("target=a b", "'a b'"),
        ("kinds=urls", "'urls'"),
        ("policy=lenient", "'lenient'"),
        ("preset=gmf", "'gmf'"),
        ("format=rst", "'rst'"),
        ("rel_target_on=email", "'email'"),
        ("strip_www=yes", "strip_www takes no value"),
        ("attr:onclick=x", "attr:onclick"),
        ("attr:", "attr:"),
        ("ellipsis=", "ellipsis= needs a value"),
    ],
)
def test_bad_words_and_values_are_errors_naming_them(arg: str, words: str) -> None:
    with pytest.raises(uts58.OptionError, match=re.escape(words)) as info:
        django_filter(LONG, arg)
    assert repr(arg) in str(info.value)  # the whole argument, to find it in the template


def test_every_rel_value_and_word_is_taken() -> None:
    for word in uts58.templates.REL_VALUES:
        assert parse_argument(word.upper()) == {"rel": word}
        assert linkify_filter("a.com", rel=word.title()) == linkify("a.com", rel=word)
    for target in ("_blank", "_SELF", "_parent", "_top", "frame-1"):
        assert parse_argument(f"target={target}") == {"target": target}


def test_jinja_keywords_are_checked() -> None:
    env = jinja_env(True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_lenght'"):
        env.from_string("{{ b | linkify(max_lenght=3) }}").render(b=LONG)
    with pytest.raises(uts58.OptionError, match="did you mean 'nofollow'") as info:
        env.from_string('{{ b | linkify(rel="nofolow") }}').render(b=LONG)
    assert info.value.option == "rel"
    with pytest.raises(uts58.OptionError, match="did you mean '_blank'"):
        env.from_string('{{ b | linkify(target="blank") }}').render(b=LONG)
    out = env.from_string('{{ b | linkify(display={"max_length": 20}) }}').render(b=LONG)
    assert out == linkify(LONG, display={"max_length": 20})


def test_rel_and_target_go_on_web_links_unless_asked(django_engine: Any) -> None:
    body = "example.com x@example.org mailto:y@example.org"
    out = render_django(django_engine, '{{ b|linkify:"nofollow,target=_blank" }}', b=body)
    assert [a for a in html_items(out) if isinstance(a, tuple)] == [
        ({"href": "https://example.com/", "rel": "nofollow noopener", "target": "_blank"}, "example.com"),
        ({"href": "mailto:x@example.org"}, "x@example.org"),
        ({"href": "mailto:y@example.org"}, "mailto:y@example.org"),
    ]
    out = render_django(django_engine, '{{ b|linkify:"nofollow,target=_blank,rel_target_on=all" }}', b=body)
    assert [a[0].get("rel") for a in html_items(out) if isinstance(a, tuple)] == ["nofollow noopener"] * 3
    # attr: goes on every link, as written.
    out = render_django(django_engine, '{{ b|linkify:"attr:data-x=1" }}', b=body)
    assert [a[0].get("data-x") for a in html_items(out) if isinstance(a, tuple)] == ["1"] * 3


def test_the_template_error_is_one_class() -> None:
    from django.template import TemplateSyntaxError

    error = uts58.templates.template_error()
    assert error is uts58.templates.TemplateOptionError is uts58.templates.template_error()
    assert issubclass(error, TemplateSyntaxError) and issubclass(error, uts58.OptionError)
    with pytest.raises(error) as info:
        django_filter("a.com", "nofollow,30,rel=ugc")
    assert info.value.option == "rel" and "rel is given twice" in str(info.value)


def test_skip_selectors_in_the_short_argument_and_keywords() -> None:
    """D110 in the filters: ``skip=SELECTOR`` (repeatable, added to the
    defaults) for values marked safe; plain text has no elements to skip."""
    from markupsafe import Markup

    from uts58.html.linkify import DEFAULT_SKIP
    from uts58.templates import linkify_filter, parse_argument

    options = parse_argument("nofollow, skip=.nolink, skip=[translate=no]")
    assert options["skip"] == (*DEFAULT_SKIP, ".nolink", "[translate=no]")
    html = Markup('<p>a.com <i class=nolink>b.com</i> <b translate="no">c.com</b> <u class=no-linkify>d.com</u></p>')
    out = linkify_filter(html, **options)
    assert re.findall(r'">([a-z.]+)</a>', out) == ["a.com"]
    assert re.findall(r'">([a-z.]+)</a>', linkify_filter(html)) == ["a.com", "b.com", "c.com"]
    assert linkify_filter("a.com <i>", **options) == '<a href="https://a.com/" rel="nofollow">a.com</a> &lt;i&gt;'
    with pytest.raises(uts58.OptionError, match="skip") as info:
        parse_argument("skip=[x")
    assert info.value.option == "skip"


def test_attr_cannot_set_rel_or_target() -> None:
    """attr:target=_blank would skip the target check and the noopener D82 adds."""
    from uts58.templates import parse_argument

    for arg in ("attr:target=_blank", "attr:rel=x", "attr:TARGET=blank", "attr:href=/x", "attr:onclick=x"):
        with pytest.raises(uts58.OptionError, match="attr:"):
            parse_argument(arg)
    assert parse_argument("attr:data-x=1, target=_blank") == {"target": "_blank", "attrs": {"data-x": "1"}}
