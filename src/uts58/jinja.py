"""A ``linkify`` template filter for Jinja2 and Django, autoescape-safe.

Jinja2::

    env.filters["linkify"] = uts58.jinja.linkify_filter
    {{ comment.body | linkify }}

Django (in a ``templatetags`` module of an app)::

    from django import template
    import uts58.jinja
    register = template.Library()
    register.filter("linkify", uts58.jinja.linkify_filter, is_safe=True)

The filter HTML-escapes the text itself, so its result is marked safe:
``markupsafe.Markup`` when markupsafe (Jinja2's) is installed, Django's
``SafeString`` when Django is, a plain ``str`` otherwise.  Neither library
is a dependency of uts58.
"""

from __future__ import annotations

from typing import Any

from .linkifier import linkify

__all__ = ["linkify_filter", "mark_safe"]


def mark_safe(html: str) -> str:
    """Mark already-escaped HTML as safe for the template engine in use."""
    try:
        from django.utils.safestring import SafeString
    except ImportError:
        pass
    else:
        safe: str = SafeString(html)
        return safe
    try:
        from markupsafe import Markup
    except ImportError:
        return html
    return Markup(html)


def linkify_filter(value: Any, **options: Any) -> str:
    """Template filter: ``value`` (any object, as ``str``) linkified and marked safe.

    A value that is already marked safe (``Markup``, ``SafeString``: HTML the
    template trusts) is linkified as HTML with :func:`uts58.linkify_html`.
    """
    if value is None:
        return mark_safe("")
    if hasattr(value, "__html__"):
        from .linkifier import linkify_html

        return mark_safe(linkify_html(str(value.__html__()), **options))
    return mark_safe(linkify(str(value), **options))
