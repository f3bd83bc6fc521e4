"""A drop-in for ``bleach.linkify`` built on uts58 (D115-D117).

bleach is deprecated; code that calls its linkifier changes one import::

    from bleach.linkifier import Linker, DEFAULT_CALLBACKS     # before
    from uts58.compat.bleach import Linker, DEFAULT_CALLBACKS  # after

:class:`Linker`, :func:`linkify`, :data:`DEFAULT_CALLBACKS` and the
callbacks :func:`nofollow` and :func:`target_blank` take bleach's
arguments and follow its callback protocol: ``callback(attrs, new)``
returns ``attrs`` or None, ``attrs`` maps ``(namespace, name)`` keys such as
``(None, "href")`` to values and ``"_text"`` to the link's text, the
callbacks run in order, and None leaves a new link as text and unwraps an
existing one.  The links are those of UTS #58 (:func:`uts58.linkify_html`
finds and writes them); docs/migrating-from-bleach.md lists every place
where the output differs from bleach's on purpose.  bleach is not imported.
"""

from __future__ import annotations

import re
import secrets
import warnings
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

from ..base.checks import check_str
from ..detect.finder import Link
from ..html.linkify import beyond_bounds, linkify_html
from ..html.text import document_start
from ..output.anchor import check_attribute, safe_href
from ..output.linkifier import Linkifier

__all__ = [
    "DEFAULT_CALLBACKS",
    "BleachAttrs",
    "BleachCallback",
    "IgnoredArgumentWarning",
    "Linker",
    "linkify",
    "nofollow",
    "target_blank",
]

# bleach's attrs: (namespace, name) -> value, and "_text" -> the link's text.
BleachAttrs = dict[Any, str]
BleachCallback = Callable[[BleachAttrs, bool], "BleachAttrs | None"]

_HREF = (None, "href")
_REL = (None, "rel")


def nofollow(attrs: BleachAttrs, new: bool = False) -> BleachAttrs:
    """bleach's ``nofollow``: add ``nofollow`` to ``rel`` of every link with an
    href except ``mailto:`` links, new or existing.

    >>> nofollow({(None, "href"): "https://example.com/", "_text": "example.com"})[(None, "rel")]
    'nofollow'
    """
    if _HREF not in attrs or attrs[_HREF].startswith("mailto:"):
        return attrs
    rel = [value for value in attrs.get(_REL, "").split(" ") if value]
    if "nofollow" not in (value.lower() for value in rel):
        rel.append("nofollow")
    attrs[_REL] = " ".join(rel)
    return attrs


def target_blank(attrs: BleachAttrs, new: bool = False) -> BleachAttrs:
    """bleach's ``target_blank``: ``target="_blank"`` on every link with an
    href except ``mailto:`` links; unlike bleach, also ``noopener`` in
    ``rel``, as uts58's ``target="_blank"`` does (D82, D115).

    >>> attrs = target_blank({(None, "href"): "https://example.com/", "_text": "example.com"})
    >>> attrs[(None, "target")], attrs[(None, "rel")]
    ('_blank', 'noopener')
    """
    if _HREF not in attrs or attrs[_HREF].startswith("mailto:"):
        return attrs
    attrs[(None, "target")] = "_blank"
    rel = [value for value in attrs.get(_REL, "").split(" ") if value]
    if "noopener" not in (value.lower() for value in rel):
        rel.append("noopener")
    attrs[_REL] = " ".join(rel)
    return attrs


class _Callbacks(tuple):  # type: ignore[type-arg]
    """bleach's ``DEFAULT_CALLBACKS`` without a shared mutable list: a tuple
    that still concatenates with lists (``DEFAULT_CALLBACKS + [target_blank]``,
    bleach's documented idiom, gives a list as in bleach)."""

    __slots__ = ()

    def __add__(self, other: Iterable[BleachCallback]) -> list[BleachCallback]:  # type: ignore[override]
        return [*self, *other]

    def __radd__(self, other: Iterable[BleachCallback]) -> list[BleachCallback]:
        return [*other, *self]


#: The callbacks of :func:`linkify` and :class:`Linker` by default: ``nofollow``.
DEFAULT_CALLBACKS: tuple[BleachCallback, ...] = _Callbacks((nofollow,))


class IgnoredArgumentWarning(UserWarning):
    """An argument of bleach's that uts58 accepts and cannot honour (D117)."""


_IGNORED = {
    "url_re": "uts58 finds URLs by UTS #58 and the Public Suffix List, not by a regular expression",
    "email_re": "uts58 finds email addresses by UTS #58 §5, not by a regular expression",
    "recognized_tags": "uts58 parses as a browser does and keeps every element (bleach escapes the others)",
}
# An existing <a> start tag: only then is the tree walked for existing links.
_A_TAG = re.compile(r"(?i)<a[\t\n\f\r />]")
# The attribute that tells new links from existing ones in linkify_html's
# output; its value is a fresh random token per call, never in the output.
_MARK = "data-uts58-bleach-new"
# Where a re-serialization cannot be vouched for by a round trip (D116, as
# linkify_html's D40): lexbor's tree is not the browser's (NUL, surrogates,
# &#13;, a "<!" cut by the end, <image>, <search>, template contents), or the
# serialization hides what changed (namespaces: svg, math).
_UNVOUCHED = re.compile(
    r"[\x00\ud800-\udfff]|&#(?:0*13(?![0-9])|[xX]0*[dD](?![0-9a-fA-F]))|(?:<!|--!)\Z"
    r"|(?i:<(?:svg|math|template|image|search)(?=[\t\n\f\r />]|\Z))"
)
_NOSCRIPT = re.compile(r"(?i)<noscript")
_OPTIONS = LexborDocumentOptions.WO_EVENTS
_NOT_WALKED = frozenset({"a", "svg", "math", "template"})


class Linker:
    """bleach's ``Linker``: ``Linker(callbacks, skip_tags, parse_email).linkify(text)``.

    * ``callbacks``: bleach callbacks, run in order on each link, new
      (``new=True``) or already in the text (``new=False``); default
      :data:`DEFAULT_CALLBACKS`; None or ``[]``: none;
    * ``skip_tags``: tag names whose content gets no links (None: none
      besides those uts58 never links inside: ``a``, raw text, ``select``,
      ``svg``/``math``, ``template``);
    * ``parse_email``: link email addresses too;
    * ``url_re``, ``email_re``, ``recognized_tags``: accepted and ignored,
      each with an :class:`IgnoredArgumentWarning` naming it (D117).

    >>> Linker().linkify('see example.com or <a href="/x">this</a>')
    'see <a href="https://example.com/" rel="nofollow">example.com</a> or <a href="/x" rel="nofollow">this</a>'
    """

    def __init__(
        self,
        callbacks: Iterable[BleachCallback] | None = DEFAULT_CALLBACKS,
        skip_tags: Iterable[str] | None = None,
        parse_email: bool = False,
        url_re: object = None,
        email_re: object = None,
        recognized_tags: object = None,
    ) -> None:
        if callbacks is None:
            callbacks = ()
        if isinstance(callbacks, (str, bytes, Mapping)) or not isinstance(callbacks, Iterable):
            raise TypeError(f"callbacks must be an iterable of callables, not {type(callbacks).__name__}")
        chain = tuple(callbacks)
        for callback in chain:
            if not callable(callback):
                raise TypeError(f"callbacks must hold callables, not {type(callback).__name__}")
        if skip_tags is None:
            skip_tags = ()
        if isinstance(skip_tags, (str, bytes)) or not isinstance(skip_tags, Iterable):
            raise TypeError(f"skip_tags must be an iterable of tag names, not {type(skip_tags).__name__}")
        tags = []
        for tag in skip_tags:
            check_str(tag, "skip_tags[]")
            tags.append(tag.lower())
        if not isinstance(parse_email, bool):
            raise TypeError(f"parse_email must be bool, not {type(parse_email).__name__}")
        # D117: not honoured, not silently either.
        for name, value in (("url_re", url_re), ("email_re", email_re), ("recognized_tags", recognized_tags)):
            if value is not None:
                warnings.warn(f"{name} is ignored: {_IGNORED[name]}", IgnoredArgumentWarning, stacklevel=2)
        self.callbacks = chain
        self.skip_tags = frozenset(tags)
        self.parse_email = parse_email
        self._linkifier = Linkifier(
            kinds=("url", "email") if parse_email else ("url",),
            link_text="original",
            callback=partial(_new_link, chain, None) if chain else None,
        )

    def __repr__(self) -> str:
        skip = set(self.skip_tags) or None
        return f"Linker(callbacks={list(self.callbacks)!r}, skip_tags={skip!r}, parse_email={self.parse_email!r})"

    def linkify(self, text: str) -> str:
        """``text`` (an HTML fragment, or a document) with its links, after
        the callbacks; existing links run through the callbacks too (D116)."""
        check_str(text, "text")
        if not self.callbacks or not _A_TAG.search(text):
            return linkify_html(text, skip_tags=self.skip_tags, linkifier=self._linkifier)
        token = secrets.token_hex(16)
        marking = self._linkifier.with_options(callback=partial(_new_link, self.callbacks, token))
        out = linkify_html(text, skip_tags=self.skip_tags, linkifier=marking)
        plain = out.replace(f' {_MARK}="{token}"', "")
        if token in plain:  # (written otherwise than uts58 writes an attribute: start again unmarked)
            return linkify_html(text, skip_tags=self.skip_tags, linkifier=self._linkifier)
        rewritten = self._existing_links(out, token)
        return plain if rewritten is None else rewritten

    def _existing_links(self, html: str, token: str) -> str | None:
        """``html`` with the callbacks run on its existing links (``new=False``)
        and the marks of the new ones removed, re-serialized; None when no
        existing link changed or the serialization cannot be vouched for (D116)."""
        if _UNVOUCHED.search(html):
            return None
        noscript = _NOSCRIPT.search(html) is not None
        if beyond_bounds(html, noscript):
            return None
        document = document_start(html)[0]
        tree = _parse(html, document, scripting=True)
        before = (tree.html or "") if noscript else ""
        schemes = self._linkifier.finder.schemes
        edited = False
        for node in _links(tree.root):
            if node.attributes.get(_MARK) == token:
                del node.attrs[_MARK]
            elif _run_on_existing(self.callbacks, node, schemes):
                edited = True
        if not edited:
            return None
        out = tree.html or ""
        # The tree must survive the round trip, in both readings of <noscript>.
        if _reserialize(out, document, scripting=True) != out:
            return None
        if noscript and (
            _reserialize(html, document, scripting=False) != before
            or _reserialize(out, document, scripting=False) != out
        ):
            return None
        return out


def linkify(
    text: str,
    callbacks: Iterable[BleachCallback] | None = DEFAULT_CALLBACKS,
    skip_tags: Iterable[str] | None = None,
    parse_email: bool = False,
) -> str:
    """bleach's ``linkify``: ``Linker(callbacks, skip_tags, parse_email).linkify(text)``.

    >>> linkify("mail x@example.com, read www.example.org/a.", parse_email=True)  # doctest: +NORMALIZE_WHITESPACE
    'mail <a href="mailto:x@example.com">x@example.com</a>,
     read <a href="https://www.example.org/a" rel="nofollow">www.example.org/a</a>.'
    """
    check_str(text, "text")
    return Linker(callbacks=callbacks, skip_tags=skip_tags, parse_email=parse_email).linkify(text)


def _run(callbacks: tuple[BleachCallback, ...], attrs: BleachAttrs, new: bool) -> BleachAttrs | None:
    """bleach's chain: each callback gets what the one before returned; None stops it."""
    result: BleachAttrs | None = attrs
    for callback in callbacks:
        result = callback(attrs, new)
        if result is None:
            return None
        if not isinstance(result, Mapping):
            raise TypeError(f"a callback must return a dict of attributes or None, not {type(result).__name__}")
        attrs = result
    return result


def _plain(result: BleachAttrs) -> tuple[dict[str, str], str | None]:
    """A callback's attrs as ``name -> value`` and its ``_text`` (str() of
    it, as bleach writes it; None when the key is gone)."""
    attrs: dict[str, str] = {}
    text = None
    for key, value in result.items():
        if key == "_text":
            text = str(value)
            continue
        if not (isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], str)):
            raise TypeError(
                f"a callback returned the key {key!r}: bleach's keys are (namespace, name), as (None, 'href')"
            )
        attrs[key[1].lower()] = value
    return attrs, text


def _new_link(callbacks: tuple[BleachCallback, ...], token: str | None, link: Link, attrs: dict[str, str]) -> Any:
    """uts58's callback (D28) over bleach's chain: keys as bleach has them,
    the result back as uts58 takes it, and the mark of a new link (``token``)."""
    given: BleachAttrs = {(None, name): value for name, value in attrs.items() if name != "_text"}
    given["_text"] = attrs["_text"]
    result = _run(callbacks, given, True)
    if result is None:
        return None
    out, text = _plain(result)
    out["_text"] = attrs["_text"] if text is None else text
    if token is not None:
        out[_MARK] = token
    return out


def _run_on_existing(callbacks: tuple[BleachCallback, ...], node: LexborNode, schemes: frozenset[str]) -> bool:
    """Run the chain on an existing ``<a>`` (``new=False``) and apply what it
    returns: None unwraps it, a changed ``_text`` replaces its content.  A
    change D84 refuses on a new link (an ``on…`` handler, a name that is
    not one, an unsafe href) leaves the link as it was.  Did it change?"""
    before = {name: "" if value is None else value for name, value in node.attributes.items()}
    text = _text_of(node)
    given: BleachAttrs = {(None, name): value for name, value in before.items()}
    given["_text"] = text
    result = _run(callbacks, given, False)
    if result is None:
        node.unwrap(delete_empty=True)  # (without it, selectolax keeps an empty <a>)
        return True
    after, new_text = _plain(result)
    for name, value in after.items():
        if not isinstance(value, str):
            raise TypeError(f"a callback returned {type(value).__name__} for {name!r}, not str")
        if before.get(name) == value:
            continue
        if name == "href":
            if not safe_href(value, schemes):
                return False
            continue
        check_attribute(name, value, "callbacks")  # (D134: the rule of new links, and of attrs)
    changed = False
    if list(after.items()) != list(before.items()):
        for name in before:
            del node.attrs[name]
        for name, value in after.items():
            node.attrs[name] = value
        changed = True
    if (new_text or "") != text:  # (bleach: a callback that drops "_text" empties the link)
        for child in _children(node):
            child.decompose()
        if new_text:
            node.insert_child(new_text)
        changed = True
    return changed


def _links(first: LexborNode | None) -> list[LexborNode]:
    """The HTML ``<a>`` elements from ``first`` on, in document order, not
    inside another ``a``, ``svg``, ``math`` or ``template`` (an iterative walk)."""
    found: list[LexborNode] = []
    node = first
    depth = 0
    while node is not None:
        if node.is_element_node:
            tag = node.tag or ""
            if tag == "a":
                found.append(node)
            elif tag not in _NOT_WALKED and node.first_child is not None:
                node = node.first_child
                depth += 1
                continue
        while node is not None and node.next is None and depth > 0:
            node = node.parent
            depth -= 1
        node = None if node is None else node.next
    return found


# (Walked by hand: selectolax's text() and iter() of a fragment's top-level
# node read its following siblings too.)
def _children(node: LexborNode) -> list[LexborNode]:
    children = []
    child = node.first_child
    while child is not None:
        children.append(child)
        child = child.next
    return children


def _text_of(node: LexborNode) -> str:
    """The text content of ``node``'s subtree, in document order."""
    parts: list[str] = []
    stack = _children(node)[::-1]
    while stack:
        child = stack.pop()
        if child.is_text_node:
            parts.append(child.text_content or "")
        else:
            stack.extend(_children(child)[::-1])
    return "".join(parts)


def _parse(html: str, document: bool, *, scripting: bool) -> LexborHTMLParser:
    if document:
        return LexborHTMLParser(html, scripting=scripting, options=_OPTIONS)
    return LexborHTMLParser(html, is_fragment=True, fragment_tag="div", scripting=scripting, options=_OPTIONS)


def _reserialize(html: str, document: bool, *, scripting: bool) -> str:
    return _parse(html, document, scripting=scripting).html or ""
