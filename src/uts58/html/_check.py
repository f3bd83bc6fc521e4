"""The check that HTML with links written into it parses as it did, plus the links.

:func:`uts58.linkify_html` writes ``<a>`` elements into the source (D109).
:func:`check` parses the source before and after with an HTML5 parser
(lexbor, D41), finds each written link in the tree after (an ``a`` element
with exactly the attributes written and one text child with the text
written) under no skipped element, takes it out again (its text stays),
and compares the two trees by their serializations.  Equal means: the DOM
after is the DOM before, except that text nodes gained the links.  Nothing
is re-serialized into the output: the serializations are only compared.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from html import unescape
from typing import NamedTuple

from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

from ..errors import OptionError
from .text import Selector

__all__ = ["Context", "Written", "check", "dom_text", "parse", "probe", "serialization"]

# Without events, lexbor does not run its per-insertion callbacks (which
# made <select> with many <option>s quadratic).
_OPTIONS = LexborDocumentOptions.WO_EVENTS


class Written(NamedTuple):
    """A link written into the source: its attributes, the text a reader
    gets from what was written between its tags, and the text that was
    there before (they differ when a callback or ``display`` changes it)."""

    attrs: Mapping[str, str]
    text: str
    was: str


class Context(NamedTuple):
    """How a piece of source is parsed: as a document (``prefix`` holds its
    doctype and the start tags of the elements open where the piece
    starts) or as the children of a ``context`` element."""

    document: bool
    context: str
    prefix: str
    scripting: bool
    skip_tags: frozenset[str]
    selectors: tuple[Selector, ...]


def dom_text(source: str) -> str:
    """The text a parser makes of ``source`` (text outside any tag):
    line breaks normalized, NUL dropped, character references decoded."""
    if "\r" in source:
        source = source.replace("\r\n", "\n").replace("\r", "\n")
    if "\0" in source:
        source = source.replace("\0", "")
    return unescape(source) if "&" in source else source


def parse(html: str, context: Context) -> LexborHTMLParser:
    if context.document:
        return LexborHTMLParser(context.prefix + html, scripting=context.scripting, options=_OPTIONS)
    try:
        return LexborHTMLParser(
            context.prefix + html,
            is_fragment=True,
            fragment_tag=context.context,
            scripting=context.scripting,
            options=_OPTIONS,
        )
    except ValueError:
        raise OptionError(
            f"context: the HTML parser does not know the element {context.context!r}", option="context"
        ) from None


def serialization(html: str, context: Context) -> str:
    """What the parser's tree of ``html`` serializes to (what :func:`check`
    compares with: made once for the input, whatever the tries)."""
    return parse(html, context).html or ""


def check(expected: str, after: str, written: Sequence[Written], context: Context) -> int | None:
    """None when ``after`` parses as the input whose :func:`serialization`
    is ``expected``, plus the ``written`` links; else the index of the first
    link not found as written (``len(written)`` when all were found but the
    trees differ elsewhere)."""
    tree = parse(after, context)
    found = 0
    eligible: dict[int, bool] = {}
    for node in tree.css("a"):
        if found == len(written):
            break
        link = written[found]
        if not _is(node, link) or not _eligible(node.parent, context, eligible):
            continue
        node.replace_with(link.was)
        found += 1
    if found < len(written):
        return found
    return None if (tree.html or "") == expected else len(written)


def _is(node: LexborNode, link: Written) -> bool:
    child = node.first_child
    if child is None or not child.is_text_node or child.next is not None:
        return False
    if (child.text_content or "") != link.text:
        return False
    attrs = node.attributes
    return len(attrs) == len(link.attrs) and all(attrs.get(k) == v for k, v in link.attrs.items())


def _eligible(node: LexborNode | None, context: Context, memo: dict[int, bool]) -> bool:
    """May an element with this parent hold a link: no ancestor is skipped
    (by tag, which covers foreign content and templates, or selector)?"""
    path: list[int] = []
    verdict = True
    while node is not None and node.is_element_node:
        key = node.mem_id
        if key in memo:
            verdict = memo[key]
            break
        path.append(key)
        tag = node.tag or ""
        attrs = node.attributes
        if tag in context.skip_tags or any(s.matches(tag, attrs) for s in context.selectors):
            verdict = False
            break
        node = node.parent
    for key in path:
        memo[key] = verdict
    return verdict


def probe(html: str, context: Context, expected: list[tuple[str, dict[str, str]]]) -> bool:
    """Does the parser, having read ``html`` (after the context's prefix), put
    an element that follows it under exactly the ``expected`` elements (names
    and attributes, outermost first; ``html``, ``head`` and ``body`` aside)?
    Then the tokenizer is in its data state there, outside foreign content,
    tables and templates, and those start tags give the parser's state back
    (D109).  The probe is an element of a name no input has."""
    name = "uts58-probe-" + secrets.token_hex(8)
    tree = parse(html + "<" + name + ">", context)
    node = tree.css_first(name)
    if node is None:
        return False
    found = []
    parent = node.parent
    while parent is not None and parent.is_element_node:
        tag = parent.tag or ""
        if tag not in ("html", "head", "body"):
            found.append((tag, {k: v or "" for k, v in parent.attributes.items()}))
        parent = parent.parent
    found.reverse()
    return found == [(tag, attrs) for tag, attrs in expected if tag not in ("html", "head", "body")]
