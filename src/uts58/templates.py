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

Options cannot be misread (D112): Django's short argument has a small
grammar (:func:`parse_argument`: ``"nofollow, target=_blank, 30"``: rel
values, a target, a number of characters to show, display options,
``attr:NAME=VALUE``), and an unknown word, name or value is an error naming
it — a ``TemplateSyntaxError`` in Django (:func:`template_error`), an
:class:`~uts58.OptionError` otherwise; an unknown keyword of the Jinja2
filter is a TypeError.  Both filters take the ``rel`` values of
:data:`REL_VALUES` only.  ``rel`` and ``target`` go on web links, not on
``mailto:`` (``rel_target_on="all"``: on every link, D113).

Neither Jinja2 nor Django is a dependency of uts58; Django is imported only
when ``register`` or :func:`django_filter` is used.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from .detect.options import PRESETS
from .errors import OptionError, UnsafeAttributeError
from .html.text import DEFAULT_SKIP, Selector
from .output.anchor import ATTR_NAME, check_attribute, refused_attribute
from .output.linkifier import linkifier_for
from .output.policy import NAMED_POLICIES, Policy

# ``register`` (a Django Library) is built on first use and so not in __all__: a star import must not need Django.
__all__ = ["REL_VALUES", "django_filter", "install", "linkify_filter", "mark_safe", "parse_argument", "template_error"]

_POLICIES = {name: make() for name, make in NAMED_POLICIES.items()}
# D112: the rel values the filters take: HTML's link types for <a>, and
# ugc, sponsored (search engines) and me (profile verification).
REL_VALUES = (
    "nofollow",
    "ugc",
    "sponsored",
    "noopener",
    "noreferrer",
    "opener",
    "external",
    "me",
    "alternate",
    "author",
    "bookmark",
    "help",
    "license",
    "next",
    "prev",
    "privacy-policy",
    "search",
    "tag",
    "terms-of-service",
)
_TARGETS = ("_blank", "_self", "_parent", "_top")
# The short argument's names (D112): name -> linkify_filter's keyword.
_VALUES = {
    "rel": "rel",
    "target": "target",
    "class": "link_class",
    "policy": "policy",
    "kinds": "kinds",
    "format": "format",
    "preset": "preset",
    "rel_target_on": "rel_target_on",
    "internal_hosts": "internal_hosts",
}
_CHOICES = {
    "policy": tuple(_POLICIES),
    "format": ("html", "markdown"),
    "preset": tuple(sorted(PRESETS)),
    "rel_target_on": ("web", "all"),
}
_DISPLAY_VALUES = ("max_length", "truncate", "location", "ellipsis")
_DISPLAY_FLAGS = ("strip_scheme", "strip_www", "strip_trailing_slash")
# attr: may not set these: the href is the link's, style can hide or overlay
# it, and rel/target have their own names (target=_blank brings noopener, D82).
_NO_ATTRS = ("href", "style", "rel", "target")


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
    return linkify_value(value, _options(format, rel, target, policy, kinds, attrs, options), escape=True)


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
        if isinstance(name, str) and name.lower() in ("href", "style"):
            raise UnsafeAttributeError(
                f"attrs: {name!r} is not an attribute the filter may set", option="attrs", attribute=name
            )
        if isinstance(name, str) and isinstance(extra[name], str):
            check_attribute(name, extra[name], "attrs")  # (D134: linkify's rule, whichever way attrs come)
    if target is None:
        # A target among the attrs is the filter's target option (noopener for _blank): linkify's rule, D82.
        key = next((key for key in extra if isinstance(key, str) and key.lower() == "target"), None)
        if key is not None:
            target = extra.pop(key)
    # D112: the filters take the rel values and targets they know (a typo is an error, not a rel).
    if isinstance(rel, str):
        rel = _checked_rel(rel)
    if isinstance(target, str):
        target = _checked_target(target)
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


def linkify_value(value: Any, options: dict[str, Any], *, escape: bool) -> str:
    if value is None:
        value = ""
    markdown = options["format"] == "markdown"
    if hasattr(value, "__html__"):
        if markdown:
            raise OptionError("format='markdown' takes plain text, not a value marked safe (HTML)")
        from .html.linkify import linkify_html

        options = {k: v for k, v in options.items() if k != "format"}
        return mark_safe(linkify_html(str(value.__html__()), **options))
    options.pop("skip", None)  # (opt-out selectors are for HTML: plain text has no elements)
    # Autoescape off: the text around the anchors as it was, the anchors as
    # the Linkifier writes them; not marked safe, the text in it is unescaped.
    text = linkifier_for(options, "linkify").render(str(value), escape=escape or markdown)
    if markdown:
        return text  # Markdown is text to a template engine: never marked safe
    return mark_safe(text) if escape else text


def parse_argument(arg: str) -> dict[str, Any]:
    """The options in the short argument of the Django filter (D112).

    Items are separated by commas; spaces around items and around ``=`` do
    not count, names and words are read in any letter case.  An item is:

    * a word of :data:`REL_VALUES` (``nofollow``, ``ugc``, ``sponsored``,
      ``noopener``, ``noreferrer``, ``external``…), added to ``rel``;
    * a whole number ``N`` >= 1: show at most N characters of each link
      (``display={"max_length": N}``; Django's ``urlizetrunc:N``);
    * ``strip_scheme``, ``strip_www``, ``strip_trailing_slash`` (display
      options, :class:`uts58.output.display.DisplayOptions`) or ``external_only``;
    * ``name=value`` for ``rel`` (words of :data:`REL_VALUES`), ``target``,
      ``class``, ``policy`` (``default``, ``strict``, ``none``), ``kinds``
      (``url``, ``email`` or both), ``format`` (``html``, ``markdown``),
      ``preset`` (``technical``, ``gfm``, ``all``), ``max_length`` (alias
      ``truncate``), ``location`` (``end``, ``middle``, ``smart``),
      ``ellipsis``, ``rel_target_on`` (``web``, ``all``: D113),
      ``internal_hosts`` (host names separated by spaces) and ``skip`` (an
      opt-out selector, D110, for values marked safe; repeatable, added to
      the defaults: ``skip=.nolink, skip=[translate=no]``);
    * ``attr:NAME=VALUE``: an attribute written as given on every link
      (not ``on…``, ``href``, ``style``, ``rel``, ``target``: ``rel=`` and
      ``target=`` say those).

    Anything else — an unknown word or name, a bad value, a name given
    twice — is an :class:`~uts58.OptionError` naming it (in a Django
    template, a ``TemplateSyntaxError``).

    >>> parse_argument("nofollow, ugc, target=_blank, 30, strip_www, class=ext")
    {'target': '_blank', 'link_class': 'ext', 'rel': 'nofollow ugc', 'display': {'max_length': 30, 'strip_www': True}}
    >>> parse_argument("nofolow")
    Traceback (most recent call last):
    ...
    uts58.errors.OptionError: linkify argument 'nofolow': unknown word 'nofolow' (did you mean 'nofollow'?)
    """
    if not isinstance(arg, str):
        raise TypeError(f"the linkify argument must be str, not {type(arg).__name__}")
    return _Argument(arg).read()


class _Argument:
    """One reading of a short argument (D112): its options as they are found."""

    def __init__(self, arg: str) -> None:
        self.arg = arg
        self.options: dict[str, Any] = {}
        self.display: dict[str, Any] = {}
        self.attrs: dict[str, str] = {}
        self.rel: list[str] = []
        self.skip: list[str] = []

    def fail(self, message: str, option: str | None = None) -> OptionError:
        return OptionError(f"linkify argument {self.arg!r}: {message}", option=option)

    def put(self, into: dict[str, Any], key: str, value: Any, written: str) -> None:
        if key in into:
            raise self.fail(f"{written!r} is given twice", key)
        into[key] = value

    def read(self) -> dict[str, Any]:
        for item in self.arg.split(","):
            name, eq, value = (part.strip() for part in item.partition("="))
            lowered = name.lower()
            if lowered.startswith("attr:"):
                attr = name[5:].strip()
                if not eq or not ATTR_NAME.match(attr) or attr.lower() in _NO_ATTRS:
                    raise self.fail(f"{item.strip()!r} is not attr:NAME=VALUE with a NAME the filter may set", "attrs")
                why = refused_attribute(attr, value)
                if why is not None:  # (D134: linkify's rule)
                    message = f"linkify argument {self.arg!r}: attr:{attr} {why}"
                    raise UnsafeAttributeError(message, option="attrs", attribute=attr)
                self.put(self.attrs, attr.lower(), value, f"attr:{attr}")
            elif not eq:
                for word in name.split():
                    self.word(word)
            elif lowered == "skip":
                try:
                    Selector.parse(value)  # D110: checked here, where the template names it
                except OptionError as exc:
                    raise self.fail(str(exc), "skip") from None
                self.skip.append(value)
            elif lowered in _DISPLAY_VALUES:
                key = "max_length" if lowered == "truncate" else lowered
                self.put(self.display, key, self.display_value(lowered, value), name)
            elif lowered in _VALUES:
                self.put(self.options, _VALUES[lowered], self.value(lowered, value), name)
            elif lowered in (*_DISPLAY_FLAGS, "external_only"):
                raise self.fail(f"{name} takes no value (write {name!r} alone)")
            else:
                hint = _did_you_mean(lowered, [*_VALUES, *_DISPLAY_VALUES]) or f" (an attribute is attr:{name}=…)"
                raise self.fail(f"unknown name {name!r}{hint}")
        options = self.options
        if self.rel:
            if "rel" in options:
                raise self.fail("rel is given twice (as words and as rel=)", "rel")
            options["rel"] = " ".join(self.rel)
        if self.display:
            options["display"] = self.display
        if self.attrs:
            options["attrs"] = self.attrs
        if self.skip:
            options["skip"] = (*DEFAULT_SKIP, *self.skip)
        return options

    def word(self, word: str) -> None:
        """An item without ``=``: a rel value, a number of characters, a flag."""
        lowered = word.lower()
        if lowered in REL_VALUES:
            if lowered in self.rel:
                raise self.fail(f"{word!r} is given twice", "rel")
            self.rel.append(lowered)
        elif lowered.isdigit() and lowered.isascii():
            self.put(self.display, "max_length", self.display_value("max_length", lowered), word)
        elif lowered in _DISPLAY_FLAGS:
            self.put(self.display, lowered, True, word)
        elif lowered == "external_only":
            self.put(self.options, lowered, True, word)
        else:
            known = [*REL_VALUES, *_DISPLAY_FLAGS, "external_only", *_VALUES, *_DISPLAY_VALUES]
            raise self.fail(f"unknown word {word!r}{_did_you_mean(lowered, known)}")

    def value(self, name: str, value: str) -> Any:
        """The value of ``name=value`` as :func:`linkify_filter` takes it, checked."""
        option = _VALUES[name]
        if not value:
            raise self.fail(f"{name}= needs a value", option)
        try:
            if name == "rel":
                return _checked_rel(value)
            if name == "target":
                return _checked_target(value)
        except OptionError as exc:
            raise self.fail(str(exc), option) from None
        if name == "kinds":
            for word in value.split():
                if word.lower() not in ("url", "email"):
                    raise self.fail(f"kinds={value}: {word!r} is not 'url' or 'email'", option)
            return value.lower().split()
        if name == "internal_hosts":
            return value.split()
        choices = _CHOICES.get(name)
        if choices is not None:
            if value.lower() not in choices:
                raise self.fail(f"{name}={value}: {value!r} is not one of {', '.join(choices)}", option)
            return value.lower()
        return value

    def display_value(self, name: str, value: str) -> Any:
        if name in ("max_length", "truncate"):
            if not (value.isdigit() and value.isascii()) or int(value) < 1:
                raise self.fail(f"{name}={value}: not a whole number of characters >= 1", "display")
            return int(value)
        if name == "location" and value.lower() not in ("end", "middle", "smart"):
            raise self.fail(f"location={value}: {value!r} is not one of end, middle, smart", "display")
        if not value:
            raise self.fail(f"{name}= needs a value", "display")
        return value.lower() if name == "location" else value


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _checked_rel(rel: str) -> str:
    """``rel``, each of its words one of :data:`REL_VALUES` (in lower case, D112)."""
    words = rel.split()
    if not words:
        raise OptionError("rel: needs a value (a word of uts58.templates.REL_VALUES)", option="rel")
    for word in words:
        if word.lower() not in REL_VALUES:
            raise OptionError(f"rel: unknown value {word!r}{_did_you_mean(word.lower(), REL_VALUES)}", option="rel")
    return " ".join(word.lower() for word in words)


def _checked_target(target: str) -> str:
    """``target``: a browsing-context keyword (``_blank``…) or a window
    name, but not a keyword without its underscore (``blank`` names one
    window: a typo, D112)."""
    lowered = target.lower()
    if lowered in ("blank", "self", "parent", "top"):
        raise OptionError(f"target: {target!r} names a window (did you mean '_{lowered}'?)", option="target")
    if lowered.startswith("_") and lowered not in _TARGETS:
        message = f"target: {target!r} is not one of {', '.join(_TARGETS)}{_did_you_mean(lowered, _TARGETS)}"
        raise OptionError(message, option="target")
    if not target or any(c.isspace() for c in target):
        raise OptionError(f"target: {target!r} is not a browsing-context name", option="target")
    return target


def django_filter(value: Any, arg: Any = None, autoescape: bool = True) -> str:
    """The Django filter (registered with ``needs_autoescape=True``).

    ``arg`` is a compact string (:func:`parse_argument`), a number of
    characters to show (``{{ c|linkify:30 }}``), a mapping of
    :func:`linkify_filter`'s keyword arguments, a :class:`~uts58.Policy`, or
    None.  A bad option is a template error (:func:`template_error`).  With
    autoescape off the text around the links is not escaped (the template's
    author turned escaping off) and the result is not marked safe.

    >>> django_filter("<b> example.com", "nofollow", autoescape=False)
    '<b> <a href="https://example.com/" rel="nofollow">example.com</a>'
    """
    if arg is not None and (isinstance(arg, bool) or not isinstance(arg, (str, int, Policy, Mapping))):
        raise TypeError(f"the linkify argument must be str, int, a mapping or a Policy, not {type(arg).__name__}")
    try:
        if arg is None:
            kwargs: dict[str, Any] = {}
        elif isinstance(arg, str):
            kwargs = parse_argument(arg)
        elif isinstance(arg, int):
            kwargs = {"display": {"max_length": arg}}  # {{ c|linkify:30 }}, as urlizetrunc:30 (D112)
        else:
            kwargs = {"policy": arg} if isinstance(arg, Policy) else dict(arg)
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
        return linkify_value(value, options, escape=bool(autoescape))
    except OptionError as exc:
        # D112: in Django a bad option is a template error (and still an OptionError).
        error = template_error()
        if isinstance(exc, error):
            raise
        raise error(str(exc), option=exc.option) from None


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


@cache
def template_error() -> type[OptionError]:
    """The error of the Django filter for a bad option: an
    :class:`~uts58.OptionError` that is also Django's
    ``TemplateSyntaxError`` (so Django reports it as a template's error), or
    OptionError alone without Django.  Also ``TemplateOptionError``.

    >>> issubclass(template_error(), OptionError)
    True
    """
    try:
        from django.template import TemplateSyntaxError
    except ImportError:
        return OptionError

    class TemplateOptionError(OptionError, TemplateSyntaxError):  # type: ignore[misc]  # (Django: untyped)
        """A bad option of the linkify filter in a Django template."""

    TemplateOptionError.__module__ = __name__
    TemplateOptionError.__qualname__ = "TemplateOptionError"
    return TemplateOptionError


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
    if name == "TemplateOptionError":
        return template_error()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
