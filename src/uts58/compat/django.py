"""Django's ``urlize`` and the ``urlize``/``urlizetrunc`` template filters, over uts58 (D114).

Same signatures, same flags, links found by UTS #58 (:func:`uts58.linkify`)::

    from django.utils.html import urlize     # before
    from uts58.compat.django import urlize   # after: (text, trim_url_limit=None, nofollow=False, autoescape=False)

In templates, either every ``urlize``/``urlizetrunc`` of the project at once
(``TEMPLATES[0]["OPTIONS"]["builtins"] = ["uts58.compat.django"]``), or per
template with ``OPTIONS["libraries"] = {"uts58_urlize": "uts58.compat.django"}``
and ``{% load uts58_urlize %}`` (``{{ comment|urlize }}``,
``{{ comment|urlizetrunc:30 }}`` then use uts58).

What is kept from Django: plain text in, its URLs (``http://``, ``https://``,
``www.``, bare domains) and email addresses linked; ``nofollow`` on web links
only, never on ``mailto:`` (the filters always ask for it, as Django's do);
the shown text trimmed to ``limit`` characters with "…"; with autoescape the
text escaped (``&quot;``, ``&#x27;`` as Django writes them); a value marked
safe (``SafeString``) is not escaped again; the filters are ``is_safe`` and
``needs_autoescape``; ``urlize()`` returns a plain ``str``.

What differs, on purpose (docs/migrating-from-django.md lists each with an
example and the counts of the comparison with Django, tests/unit/test_compat_django.py):
links are where UTS #58 says (``https://`` for links written without a
scheme, every TLD, Unicode text, brackets and quotes that close inside a URL);
hrefs are serialized by the WHATWG URL parser (``https://example.com/``, IDN
hosts as A-labels); the §8 policy of :meth:`uts58.Policy.default` leaves
deceptive hosts as text; a trimmed link shows UTS #58's display form,
never cut inside its host, with a ``title``; a link's text is escaped even
with autoescape off, and text nobody escaped is never marked safe (D49); a
value marked safe is read as HTML (:func:`uts58.linkify_html`): no link
inside a tag, an attribute or an existing link.

Django is not needed to import this module; it is imported when
``register`` is first used or a result is marked safe.
"""

from __future__ import annotations

from functools import cache
from typing import Any

# (the template filter's rendering: one rule for autoescape off and safe values, D49)
from ..templates import linkify_value

__all__ = ["urlize", "urlize_filter", "urlizetrunc"]

# Django links http(s) URLs and email addresses, nothing else (no ftp:).
_SCHEMES = ("http", "https")


def urlize(text: Any, trim_url_limit: int | None = None, nofollow: bool = False, autoescape: bool = False) -> str:
    """``django.utils.html.urlize``: ``text`` with its URLs and email
    addresses as links (a plain ``str``, as Django returns).

    * ``trim_url_limit``: show at most that many characters of each link,
      "…" included (:class:`uts58.output.display.DisplayOptions` ``max_length``;
      below 1 counts as 1); the href is never trimmed;
    * ``nofollow``: ``rel="nofollow"`` on web links (not on ``mailto:``);
    * ``autoescape``: escape the text (else it is written as it is; the
      links are built and escaped by uts58 either way).

    A value marked safe (``SafeString``, or anything with ``__html__``) is
    HTML: it is not escaped and only its text is linked.

    >>> urlize('See example.com/a_(b), "mail" x@example.org.', nofollow=True, autoescape=True)
    ... # doctest: +NORMALIZE_WHITESPACE
    'See <a href="https://example.com/a_(b)" rel="nofollow">example.com/a_(b)</a>,
     &quot;mail&quot; <a href="mailto:x@example.org">x@example.org</a>.'
    """
    if trim_url_limit is not None and (isinstance(trim_url_limit, bool) or not isinstance(trim_url_limit, int)):
        raise TypeError(f"trim_url_limit must be int or None, not {type(trim_url_limit).__name__}")
    return str.__str__(_urlize(text, trim_url_limit, nofollow, bool(autoescape)))


def urlize_filter(value: Any, autoescape: bool = True) -> str:
    """The ``urlize`` template filter (Django's ``defaultfilters.urlize``):
    ``nofollow`` on web links, the result marked safe when it is (D49: not
    with autoescape off, unless the value was marked safe).

    >>> urlize_filter("<b> www.example.com")
    '&lt;b&gt; <a href="https://www.example.com/" rel="nofollow">www.example.com</a>'
    """
    return _urlize(value, None, True, bool(autoescape))


def urlizetrunc(value: Any, limit: Any, autoescape: bool = True) -> str:
    """The ``urlizetrunc`` template filter: :func:`urlize_filter` with the
    shown text of each link at most ``limit`` characters (``int(limit)``,
    as Django reads it), "…" included, and the whole in its ``title``.

    >>> urlizetrunc("see example.com/a/long/path", 12)  # doctest: +NORMALIZE_WHITESPACE
    'see <a href="https://example.com/a/long/path" rel="nofollow"
     title="example.com/a/long/path">example.com…</a>'
    """
    return _urlize(value, int(limit), True, bool(autoescape))


# Django's flags, on the functions as on Django's own filters.
urlize_filter.is_safe = urlizetrunc.is_safe = True  # type: ignore[attr-defined]
urlize_filter.needs_autoescape = urlizetrunc.needs_autoescape = True  # type: ignore[attr-defined]


def _urlize(value: Any, limit: int | None, nofollow: bool, escape: bool) -> str:
    """The HTML of ``value`` (any object: ``str(value)`` as Django's
    ``stringfilter`` reads it, kept safe when marked safe)."""
    if not hasattr(value, "__html__"):
        value = str(value)
    options: dict[str, Any] = {
        "format": "html",
        "kinds": ("url", "email"),
        "policy": None,
        "schemes": _SCHEMES,
        # Django shows the text as written; a trimmed link shows the display form (D90).
        "link_text": "original",
    }
    if nofollow:
        options["rel"] = "nofollow"  # (on web links only: D113, as Django)
    if limit is not None:
        options["display"] = {"max_length": max(1, limit)}
    return linkify_value(value, options, escape=escape)


def __getattr__(name: str) -> Any:
    # ``register`` imports Django, so it is made on first use.
    if name == "register":
        return _library()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _library() -> Any:
    from django import template

    library = template.Library()
    library.filter("urlize", urlize_filter, is_safe=True, needs_autoescape=True)
    library.filter("urlizetrunc", urlizetrunc, is_safe=True, needs_autoescape=True)
    return library
