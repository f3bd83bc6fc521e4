"""A ``linkify`` template filter for Jinja2 and Django that never marks unescaped text safe (D49).

Jinja2::

    uts58.templates.install(env)            # env.filters["linkify"]
    {{ comment.body | linkify(rel="nofollow", target="_blank") }}

Django, in an app's ``templatetags/links.py``::

    from uts58.templates import register    # a template.Library with the filter
    {% load links %}{{ comment.body|linkify:"nofollow,target=_blank" }}

What comes out, for any option:

* plain text (``format="html"``, the default) is HTML-escaped and its links
  written as ``<a href=…>`` by :func:`uts58.linkify`; the result is marked safe
  (``markupsafe.Markup`` or Django's ``SafeString``);
* a value that is already marked safe (it has ``__html__``: HTML the template
  trusts) is linkified as HTML by :func:`uts58.linkify_html`;
* ``format="markdown"`` returns Markdown as a plain ``str``, never marked safe:
  with autoescape on the engine escapes it like any text;
* Django with ``{% autoescape off %}``: the text around the links is written as
  it is, like Django's own ``urlize``, the links are still escaped and
  scheme-checked, and the result is a plain ``str`` (not marked safe);
* Jinja2 escapes the text whatever its autoescape setting, like its own
  ``urlize`` (``jinja2.Environment()`` has autoescape off by default).

Neither Jinja2 nor Django is a dependency of uts58; Django is imported only
when :data:`register` or :func:`django_filter` is used.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import OptionError
from .linkifier import linkify
from .security import Policy

# ``register`` (a Django Library) is built on first use and so not in __all__: a star import must not need Django.
__all__ = ["django_filter", "install", "linkify_filter", "mark_safe", "parse_argument"]

_POLICIES = {"default": Policy.default(), "strict": Policy.strict(), "none": Policy.none()}
# The names the compact Django argument knows; any other name is an attribute
# of the links.  ("preset": Finder.preset, D97: "preset=gfm", "preset=technical".)
_KEYWORDS = frozenset({"rel", "target", "policy", "kinds", "format", "preset"})
# An anchor in linkify's HTML: its attribute values and text are escaped, so
# "<" occurs only where an anchor opens or closes.
_ANCHOR = re.compile(r"(<a [^<]*</a>)")


def mark_safe(html: str) -> str:
    """Mark HTML that is escaped already as safe for the template engine in use
    (Django's ``SafeString`` when Django is installed, else ``markupsafe.Markup``).

    >>> hasattr(mark_safe("<b>x</b>"), "__html__")
    True
    """
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


def linkify_filter(
    value: Any,
    *,
    format: str = "html",
    rel: str | None = None,
    target: str | None = None,
    policy: Policy | str | None = None,
    kinds: str | Iterable[str] = ("url", "email"),
    attrs: Mapping[str, str] | None = None,
    **options: Any,
) -> str:
    """Template filter: ``value`` (any object, as ``str``; None is empty) with its links.

    * ``rel``: the ``rel`` of every link (``"nofollow ugc"``);
    * ``target``: its ``target``; ``"_blank"`` adds ``noopener`` to ``rel``;
    * ``policy``: ``"default"``, ``"strict"``, ``"none"`` or a :class:`~uts58.Policy`;
    * ``kinds``: ``"url"``, ``"email"`` or both;
    * ``attrs``: more attributes of every link (values are escaped);
    * ``format``: ``"html"`` (marked safe) or ``"markdown"`` (a plain ``str``:
      the engine escapes it under autoescape; no ``rel``/``target``/``attrs``).

    Other keyword arguments go to :func:`uts58.linkify` (``callback``,
    ``finder`` — a :class:`uts58.Finder` made once for the application — or
    ``schemes``, ``require_scheme``…), or for a value marked safe to
    :func:`uts58.linkify_html` (also ``skip_tags``, ``context``).

    >>> linkify_filter("<b> example.com", rel="nofollow", target="_blank")
    '&lt;b&gt; <a href="https://example.com/" rel="nofollow noopener" target="_blank">example.com</a>'
    """
    return _linkify(value, _options(format, rel, target, policy, kinds, attrs, options), escape=True)


def _options(
    format: str,
    rel: str | None,
    target: str | None,
    policy: Policy | str | None,
    kinds: str | Iterable[str],
    attrs: Mapping[str, str] | None,
    options: dict[str, Any],
) -> dict[str, Any]:
    """The keyword arguments of :func:`uts58.linkify` for the filter's options."""
    if format not in ("html", "markdown"):
        raise OptionError(f"format must be 'html' or 'markdown', not {format!r}")
    if attrs is not None and not isinstance(attrs, Mapping):
        raise TypeError(f"attrs must be a mapping, not {type(attrs).__name__}")
    extra = dict(attrs or {})
    for name in extra:
        # The same rule as the compact Django argument, whichever way attrs come.
        if isinstance(name, str) and (name.lower().startswith("on") or name.lower() in ("href", "style")):
            raise OptionError(f"attrs: {name!r} is not an attribute the filter may set")
    if target is None:
        # A target among the attrs is the filter's target option (noopener for _blank): linkify's rule, D82.
        key = next((key for key in extra if isinstance(key, str) and key.lower() == "target"), None)
        if key is not None:
            target = extra.pop(key)
    if isinstance(policy, str):
        if policy not in _POLICIES:
            raise OptionError(f"policy must be one of {', '.join(map(repr, _POLICIES))} or a Policy, not {policy!r}")
        policy = _POLICIES[policy]
    elif policy is not None and not isinstance(policy, Policy):
        raise TypeError(f"policy must be a str or a uts58.Policy, not {type(policy).__name__}")
    result = {**options, "format": format, "kinds": kinds, "policy": policy}
    # rel, target and attrs are linkify's (one rule for rel/target/noopener, and its errors).
    for name, value in (("attrs", extra or None), ("rel", rel), ("target", target)):
        if value is not None:
            result[name] = value
    return result


def _linkify(value: Any, options: dict[str, Any], *, escape: bool) -> str:
    if value is None:
        value = ""
    markdown = options["format"] == "markdown"
    if hasattr(value, "__html__"):
        if markdown:
            raise OptionError("format='markdown' takes plain text, not a value marked safe (HTML)")
        from .html5 import linkify_html

        options = {k: v for k, v in options.items() if k != "format"}
        return mark_safe(linkify_html(str(value.__html__()), **options))
    text = linkify(str(value), **options)
    if markdown:
        return text  # Markdown is text to a template engine: never marked safe
    if escape:
        return mark_safe(text)
    # Autoescape off: the text around the anchors as it was (html.unescape
    # undoes html.escape exactly), the anchors as linkify built them.  Not
    # marked safe: the text in it is unescaped.
    parts = _ANCHOR.split(text)
    parts[::2] = [html.unescape(part) for part in parts[::2]]
    return "".join(parts)


def parse_argument(arg: str) -> dict[str, Any]:
    """The options in the compact argument of the Django filter.

    Items are separated by commas; ``name=value`` sets ``rel``, ``target``,
    ``policy``, ``kinds`` (``url``, ``email`` or ``url email``), ``format``
    or ``preset`` (``technical``, ``gfm``, ``all``: :meth:`uts58.Finder.preset`),
    and any other name an attribute of the links (not ``on…``, ``href``,
    ``style``); a bare word is added to ``rel``.

    >>> parse_argument("nofollow, ugc, target=_blank, policy=strict, class=ext")
    {'target': '_blank', 'policy': 'strict', 'rel': 'nofollow ugc', 'attrs': {'class': 'ext'}}
    """
    if not isinstance(arg, str):
        raise TypeError(f"the linkify argument must be str, not {type(arg).__name__}")
    options: dict[str, Any] = {}
    rel: list[str] = []
    attrs: dict[str, str] = {}
    for item in arg.split(","):
        name, eq, value = (s.strip() for s in item.partition("="))
        if not eq:
            rel += name.split()
            continue
        lowered = name.lower()
        if lowered in options or lowered in attrs or not name:
            raise OptionError(f"linkify argument: {name!r} is given twice or is empty in {arg!r}")
        if lowered in _KEYWORDS:
            options[lowered] = value.split() if lowered == "kinds" else value
        elif lowered.startswith("on") or lowered in ("href", "style"):
            raise OptionError(f"linkify argument: {name!r} is not an attribute the filter may set")
        else:
            attrs[lowered] = value
    if rel:
        if "rel" in options:
            raise OptionError(f"linkify argument: rel is given twice in {arg!r}")
        options["rel"] = " ".join(rel)
    if attrs:
        options["attrs"] = attrs
    return options


def django_filter(value: Any, arg: Any = None, autoescape: bool = True) -> str:
    """The Django filter (registered with ``needs_autoescape=True``).

    ``arg`` is a compact string (:func:`parse_argument`), a mapping of
    :func:`linkify_filter`'s keyword arguments, a :class:`~uts58.Policy`, or
    None.  With autoescape off the text around the links is not escaped
    (the template's author turned escaping off) and the result is not marked safe.

    >>> django_filter("<b> example.com", "nofollow", autoescape=False)
    '<b> <a href="https://example.com/" rel="nofollow">example.com</a>'
    """
    if arg is None:
        kwargs: dict[str, Any] = {}
    elif isinstance(arg, str):
        kwargs = parse_argument(arg)
    elif isinstance(arg, Policy):
        kwargs = {"policy": arg}
    elif isinstance(arg, Mapping):
        kwargs = dict(arg)
    else:
        raise TypeError(f"the linkify argument must be str, a mapping or a Policy, not {type(arg).__name__}")
    known = ("format", "rel", "target", "policy", "kinds", "attrs")
    named = {k: kwargs.pop(k) for k in known if k in kwargs}
    options = _options(
        named.get("format", "html"),
        named.get("rel"),
        named.get("target"),
        named.get("policy"),
        named.get("kinds", ("url", "email")),
        named.get("attrs"),
        kwargs,
    )
    return _linkify(value, options, escape=bool(autoescape))


def install(env: Any, name: str = "linkify") -> None:
    """Add the filter to a ``jinja2.Environment`` as ``name``.

    >>> import jinja2
    >>> env = jinja2.Environment(autoescape=True)
    >>> install(env)
    >>> env.from_string('{{ b | linkify(rel="ugc") }}').render(b="<i> x.org")
    '&lt;i&gt; <a href="https://x.org/" rel="ugc">x.org</a>'
    """
    filters = getattr(env, "filters", None)
    if not isinstance(filters, dict):
        raise TypeError(f"env must be a jinja2.Environment, not {type(env).__name__}")
    filters[name] = linkify_filter


_library: Any = None


def __getattr__(name: str) -> Any:
    # ``register`` imports Django, so it is built on first use.
    global _library
    if name == "register":
        if _library is None:
            from django import template

            library = template.Library()
            library.filter("linkify", django_filter, needs_autoescape=True)
            _library = library
        return _library
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
