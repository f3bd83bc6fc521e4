"""markdown-it-py, Jinja2 and Django integrations."""

from __future__ import annotations

import jinja2
import markupsafe
from markdown_it import MarkdownIt

import uts58.jinja
import uts58.markdown_it
from uts58 import Policy


def md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"linkify": True}).enable("linkify").use(uts58.markdown_it.plugin)


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
    uts58.markdown_it.use(loose, Policy.none())
    assert loose.render("helpers.py") == '<p><a href="https://helpers.py/">helpers.py</a></p>\n'


def test_markdown_it_interface() -> None:
    linkify = uts58.markdown_it.Linkify()
    assert linkify.pretest("a.b") and not linkify.pretest("no dots here")
    assert linkify.test("see example.com") and not linkify.test("see example.invalid")
    (m,) = linkify.match("see https://example.com/α.") or []
    assert (m.index, m.last_index, m.schema, m.text) == (4, 25, "https:", "https://example.com/α")
    start = linkify.match_at_start("https://example.com/α rest")
    assert start is not None and start.url == "https://example.com/α"
    assert linkify.match_at_start("x https://example.com") is None


def test_jinja_filter_is_autoescape_safe() -> None:
    env = jinja2.Environment(autoescape=True)
    env.filters["linkify"] = uts58.jinja.linkify_filter
    out = env.from_string("<p>{{ body | linkify }}</p>").render(body='<b>"hi"</b> example.com/α')
    assert out == '<p>&lt;b&gt;&quot;hi&quot;&lt;/b&gt; <a href="https://example.com/%CE%B1">example.com/α</a></p>'
    # Markup input is trusted HTML: its tags are kept, its text linkified.
    out = env.from_string("{{ body | linkify }}").render(body=markupsafe.Markup("<b>example.com</b>"))
    assert out == '<b><a href="https://example.com/">example.com</a></b>'
    assert env.from_string("{{ none | linkify }}").render(none=None) == ""


def test_django_filter() -> None:
    from django.conf import settings

    if not settings.configured:
        settings.configure(TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates"}])
    import django
    from django import template
    from django.utils.safestring import SafeString

    django.setup()
    result = uts58.jinja.linkify_filter("<i> example.com")
    assert isinstance(result, SafeString)
    library = template.Library()
    library.filter("linkify", uts58.jinja.linkify_filter, is_safe=True)
    engine = template.Engine(builtins=[])
    engine.template_builtins.append(library)
    out = engine.from_string("{{ body|linkify }}").render(template.Context({"body": "<i> example.com"}))
    assert out == '&lt;i&gt; <a href="https://example.com/">example.com</a>'
