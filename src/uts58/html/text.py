"""Where the text of HTML source is, as a browser's tokenizer reads it.

:func:`uts58.linkify_html` writes its links into the source itself, so that
everything else stays byte for byte (a document keeps its doctype, its
``html``/``head``/``body`` and their attributes, comments, quoting).
:func:`scan` finds, in one pass, the runs of source text that may gain links
(:class:`Run`) and the places where the source may be cut into pieces that
are checked one by one (:class:`Cut`).  It follows the tokenizer exactly
(comments, bogus comments, tags and their attributes, RAWTEXT, RCDATA,
script data with its escapes, CDATA in foreign content) and the tree
builder only roughly (a stack of open elements with the usual implied
ends); where it cannot tell, it stops: nothing after is linked.  The parse
of the output is what decides (``uts58.html._check``); a mistake here can
only cost links.

Skipping is by tag name and by :class:`Selector` (D110): ``tag``,
``.class``, ``[attr]``, ``[attr=value]``, ``[attr~=word]``, or several of
these together (``span.no-linkify``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from html import unescape
from typing import NamedTuple

from ..errors import OptionError
from ._cost import (
    _ATTRIBUTE,
    _BOGUS,
    _CLOSES_P,
    _COMMENT,
    _FORMATTING,
    _SIBLINGS,
    _SPECIAL,
    _TAG,
    _VOID,
    Foreign,
    breaks_out,
    self_closing,
)
from .raw import RAW_TEXT, raw_text_end

__all__ = [
    "DEFAULT_SKIP",
    "Cut",
    "Run",
    "Selector",
    "attributes",
    "document_start",
    "open_elements",
    "parse_selectors",
    "scan",
]

# The opt-out markers skipped by default (D110): the classes linkify
# libraries use, a data attribute, and editable content (whose editor owns
# its DOM).  translate="no" is not among them: it asks not to translate.
DEFAULT_SKIP = (".no-linkify", ".nolinkify", "[data-nolinkify]", "[contenteditable]")

_SPACE = "\t\n\f\r "
# Open elements under which the source is never cut: the tree builder's
# state there (tables, select, formatting elements it may reconstruct,
# templates, framesets) is more than a stack of start tags can give back.
_NO_CUT = _FORMATTING | {
    "table", "caption", "colgroup", "tbody", "thead", "tfoot", "tr", "td", "th", "select", "option", "optgroup",
    "template", "frameset", "head", "applet", "object", "marquee", "form", "button", "ruby", "li", "dd", "dt",
}  # fmt: skip
_MAX_CUT_DEPTH = 32
_NAME = r"[^\s=~|^$*\]\"']+"  # an attribute name in a selector
_VALUE = r"(?:\"([^\"]*)\"|'([^']*)'|([^\s\]]+))"
_PART = re.compile(r"\.([A-Za-z0-9_-]+)|\[\s*(" + _NAME + r")\s*(?:(~?=)\s*" + _VALUE + r"\s*)?\]")
_SELECTOR = re.compile(r"\s*([A-Za-z][A-Za-z0-9-]*)?((?:" + _PART.pattern + r")*)\s*\Z")


class Selector(NamedTuple):
    """One opt-out selector: a tag name (or None) and attribute tests
    ``(name, op, value)``, op ``""`` (present), ``"="`` or ``"~="``.

    >>> Selector.parse('span.no-linkify').matches("span", {"class": "x no-linkify"})
    True
    """

    tag: str | None
    tests: tuple[tuple[str, str, str], ...]
    text: str

    @classmethod
    def parse(cls, text: str) -> Selector:
        m = _SELECTOR.match(text)
        if not isinstance(text, str) or m is None or not (m.group(1) or m.group(2)):
            raise OptionError(
                f"skip: {text!r} is not a selector (tag, .class, [attr], [attr=value], [attr~=word])", option="skip"
            )
        tests = []
        for part in _PART.finditer(m.group(2)):
            if part.group(1) is not None:
                tests.append(("class", "~=", part.group(1)))
            else:
                value = next((v for v in part.group(4, 5, 6) if v is not None), "")
                tests.append((part.group(2).lower(), part.group(3) or "", value))
        return cls(m.group(1).lower() if m.group(1) else None, tuple(tests), text.strip())

    def matches(self, tag: str, attrs: Mapping[str, str | None]) -> bool:
        if self.tag is not None and self.tag != tag:
            return False
        for name, op, value in self.tests:
            got = attrs.get(name)
            if name not in attrs:
                return False
            got = got or ""
            if (op == "=" and got != value) or (op == "~=" and value not in got.split()):
                return False
        return True


def parse_selectors(skip: object) -> tuple[Selector, ...]:
    """``skip`` (an iterable of selector strings) checked and parsed."""
    if isinstance(skip, str):
        raise TypeError("skip must be an iterable of selectors (str), not a str")
    try:
        items = list(skip)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"skip must be an iterable of selectors (str), not {type(skip).__name__}") from None
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"skip must hold selectors (str), not {type(item).__name__}")
    return tuple(Selector.parse(item) for item in items)


def attributes(source: str) -> dict[str, str]:
    """The attributes of a start tag's source after its name, as the
    tokenizer reads them: names lowercased, the first of a name wins,
    values with their character references decoded."""
    found: dict[str, str] = {}
    for m in _ATTRIBUTE.finditer(source):
        name, _, value = m.group().partition("=")
        name = name.rstrip(_SPACE).lower()
        value = value.strip(_SPACE)
        if value[:1] in ("'", '"'):
            value = value[1:-1] if len(value) > 1 and value[-1] == value[0] else value[1:]
        found.setdefault(name, unescape(value) if "&" in value else value)
    return found


_FIRST = re.compile(r"(?i)<(?:!doctype|html)[\t\n\f\r />]")


def document_start(html: str) -> tuple[bool, str]:
    r"""Is ``html`` a document (a doctype or ``<html>`` first, after a BOM,
    white space and comments), and its doctype (or "").  One pass, no
    backtracking.

    >>> document_start("\ufeff<!-- x -->\n<!DOCTYPE html><p>")
    (True, '<!DOCTYPE html>')
    """
    i = 1 if html.startswith("\ufeff") else 0
    n = len(html)
    while i < n:
        if html[i] in _SPACE:
            i += 1
        elif html.startswith("<!--", i):
            m = _COMMENT.match(html, i)
            assert m is not None  # (a comment runs to the end of input at worst)
            i = m.end()
        else:
            break
    if _FIRST.match(html, i) is None:
        return False, ""
    if html[i + 1] in "hH":  # <html
        return True, ""
    end = html.find(">", i)
    return True, html[i : n if end < 0 else end + 1]


def open_elements(prefix: tuple[str, ...]) -> list[tuple[str, dict[str, str]]]:
    """The elements the start tags of a :class:`Cut` open: names and
    attributes, as the parser reads them."""
    found = []
    for tag in prefix:
        m = _TAG.match(tag)
        if m is not None:
            found.append((m.group(2).lower(), attributes(m.group(3))))
    return found


class Run(NamedTuple):
    """Source text that may gain links: ``html[start:end]``."""

    start: int
    end: int


class Cut(NamedTuple):
    """A place where the source may be cut: the tokenizer is in its data
    state, outside foreign content, and ``open`` (the start tags' sources,
    outermost first) rebuilds the tree builder's state."""

    at: int
    open: tuple[str, ...]


class _Open(NamedTuple):
    name: str
    start: int  # the start tag in the source
    end: int
    skipped: bool
    marks: int = -1  # a marker (td, template, ...): its entry in ``marks``


def scan(
    html: str,
    skip_tags: frozenset[str],
    selectors: Iterable[Selector],
    *,
    scripting: bool = True,
    quirks: bool = False,
    gap: int = 0,
) -> Iterator[Run | Cut]:
    """The runs of text that may gain links and, at least ``gap`` characters
    apart (none when 0), places to cut, in source order (see the module
    docstring).  ``quirks``: a document in quirks mode (<table> leaves a
    ``p`` open there).

    >>> [tuple(x) for x in scan("<p>a.com<code>b.com</code> c</p>", frozenset({"code"}), (), gap=1)]
    [(0, ()), (3, 8), (8, ('<p>',)), (26, 28), (28, ('<p>',))]
    """
    selectors = tuple(selectors)
    # The attribute names the selectors test: a start tag without any of
    # them in its source is matched only by a selector of its tag alone.
    wanted = {name for s in selectors for name, _, _ in s.tests}
    tagged = any(not s.tests for s in selectors)
    raw_text = RAW_TEXT if scripting else RAW_TEXT - {"noscript"}
    stack: list[_Open] = []
    counts = [0, 0]  # entries of the stack that are skipped; under which no cut is made
    tables: list[str] = []  # the open table parts (table ... td, caption), in order
    marks: list[dict[str, int]] = []  # the formatting counts at each open marker
    # The formatting elements that may be in the parser's list of active
    # formatting elements (which reopens them, after an end tag of another
    # element closed them): no cut while any is.
    formatting: dict[str, int] = {}  # name -> how many (a bounded set of names: O(1) steps)
    foreign = Foreign()
    inside = foreign.open  # (its truth, read in the loop: a list's, not a method call)
    i = text_from = 0
    n = len(html)
    last_cut = -gap

    def push(entry: _Open) -> None:
        stack.append(entry._replace(marks=len(marks)) if entry.name in _MARKERS else entry)
        if entry.name in _MARKERS:
            marks.append(dict(formatting))
        counts[0] += entry.skipped
        counts[1] += entry.name in _NO_CUT
        if entry.name in _TABLE_PARTS:
            tables.append(entry.name)

    def pop_to(index: int) -> None:
        while len(stack) > index:
            entry = stack.pop()
            counts[0] -= entry.skipped
            counts[1] -= entry.name in _NO_CUT
            if entry.name in _TABLE_PARTS:
                tables.pop()
            if entry.marks >= 0:  # a marker's end clears the list back to it
                formatting.clear()
                formatting.update(marks[entry.marks])
                del marks[entry.marks :]

    def close(name: str) -> bool:
        """An end tag: pop to the topmost open element of that name, unless
        a boundary of its scope is above it (then, as the parser mostly
        does, nothing closes)."""
        for k in range(len(stack) - 1, max(-1, len(stack) - 65), -1):
            if stack[k].name == name:
                pop_to(k)
                return True
            if stack[k].name in _SCOPE:
                return False
        return False

    while i < n:
        j = html.find("<", i)
        if j < 0:
            break
        if html.startswith("<!--", j):
            m = _COMMENT.match(html, j)
        elif html.startswith("</>", j):
            m = _EMPTY_END.match(html, j)
        elif inside and foreign.cdata and html.startswith("<![CDATA[", j):
            m = _CDATA.match(html, j)
        else:
            m = _TAG.match(html, j) or _BOGUS.match(html, j)
        if m is None:  # a "<" that starts nothing is text
            i = j + 1
            continue
        if text_from < j and not counts[0] and not inside and not (tables and tables[-1] in _TABLE):
            yield Run(text_from, j)
        if (
            gap
            and j - last_cut >= gap
            and not (counts[1] or inside or any(formatting.values()))
            and len(stack) <= _MAX_CUT_DEPTH
        ):
            last_cut = j
            yield Cut(j, tuple(html[e.start : e.end] for e in stack))
        i = text_from = m.end()
        if m.re is not _TAG:
            if m.re is _CDATA and not m.group(1):
                return  # CDATA to the end of input
            continue
        if m.group(4) == "":  # a tag cut by the end of input is dropped
            return
        closing, name, attrs = m.group(1), m.group(2).lower(), m.group(3)
        if name == "plaintext" and not closing:
            return
        if inside:
            if closing and name in ("br", "p") and not foreign.integration:
                foreign.break_out()  # </br> and </p> break out of foreign content too
                if not inside:
                    pop_to(len(stack) - 1)
                continue  # (</br> is read as <br>, a void element; </p> closes a p, if any, left open here)
            if closing:
                if foreign.close(name):
                    if not inside:
                        pop_to(len(stack) - 1)  # the svg or math element
                elif name in _BLOCK_END and foreign.pure and any(e.name == name for e in stack):
                    # The end tag of an open block ends the foreign content
                    # in it (other end tags may leave it open: </form>).
                    foreign.clear()
                    pop_to(len(stack) - 1)
                    close(name)
                continue
            if not breaks_out(name, attrs) or foreign.integration:
                in_html = foreign.integration  # (under an integration point the element is HTML: raw text is raw)
                if name not in _VOID if in_html else not self_closing(attrs):
                    foreign.push(name)
                if name in raw_text and in_html:
                    i = text_from = _raw_end(html, name, i)
                    if i < 0:
                        return
                continue
            foreign.break_out()  # the foreign elements end, down to an HTML element or integration point
            if inside:  # (still in foreign content, under an integration point: nothing is linked)
                if name not in _VOID:
                    foreign.push(name)
                continue
            pop_to(len(stack) - 1)  # the svg or math element; the tag is HTML
        if closing:
            if formatting.get(name):
                formatting[name] -= 1
            if name == "form":  # (it leaves the elements in it open)
                k = next((k for k in range(len(stack) - 1, -1, -1) if stack[k].name == "form"), -1)
                if k >= 0:
                    entry = stack.pop(k)
                    counts[0] -= entry.skipped
                    counts[1] -= 1
                continue
            if not close(name) and name in _TABLE_PARTS and tables:
                # An end tag of a table part closes the open cell when its
                # element was implied (<td> opens tbody and tr): what follows
                # may be table text.
                for k in range(len(stack) - 1, -1, -1):
                    if stack[k].name in _TABLE_PARTS:
                        pop_to(k if stack[k].name in ("td", "th", "caption") else k + 1)
                        break
            continue
        for other in _SIBLINGS.get(name, ()):
            if stack and stack[-1].name == other:
                pop_to(len(stack) - 1)
        if name in _CLOSES_P or (name == "table" and not quirks):
            for k in range(len(stack) - 1, max(-1, len(stack) - 5), -1):
                if stack[k].name == "p":
                    pop_to(k)
                    break
        if name == "body":
            close("head")
        if name in ("svg", "math"):
            if not self_closing(attrs):
                foreign.push(name)
                push(_Open(name, j, i, True))
            continue
        if name in raw_text:
            i = text_from = _raw_end(html, name, i)
            if i < 0:
                return
            continue
        if name in _UNDER and tables:
            # A table part closes the open parts up to the one it goes under
            # (a cell, a row, a section); <col> opens the colgroup it implies.
            while tables and tables[-1] not in _UNDER[name]:
                k = max(k for k in range(len(stack)) if stack[k].name == tables[-1])
                pop_to(k)
            if name == "col" and tables and tables[-1] == "table":
                push(_Open("colgroup", j, j, False))
        if name in _VOID:
            continue
        if name == "a" and formatting.get("a"):
            # An <a> while one is open: the adoption agency closes the open one
            # first (HTML 13.2.6.4.7), so text after the new one's end is in
            # no link.  With a special element (a div) above it, that element
            # stays open and only the a leaves the stack; else the stack is
            # popped to it (the formatting elements above are reopened later).
            for k in range(len(stack) - 1, max(-1, len(stack) - 65), -1):
                if stack[k].name == "a":
                    if any(e.name in _SPECIAL for e in stack[k + 1 :]):
                        entry = stack.pop(k)
                        counts[0] -= entry.skipped
                        counts[1] -= entry.name in _NO_CUT
                    else:
                        pop_to(k)
                    break
                if stack[k].name in _MARKERS:
                    break
        if name in _FORMATTING:
            # (an open a or nobr is closed first; Noah's Ark keeps three of a kind)
            formatting[name] = 1 if name in ("a", "nobr") else min(3, formatting.get(name, 0) + 1)
        skip = name in skip_tags
        if not skip and selectors and (tagged or (attrs and any(word in attrs.lower() for word in wanted))):
            found = attributes(attrs)
            skip = any(s.matches(name, found) for s in selectors)
        push(_Open(name, j, i, skip))
    if text_from < n and not counts[0] and not inside and not (tables and tables[-1] in _TABLE):
        yield Run(text_from, n)


# Text in a table outside its cells and caption is moved before the table
# (foster parenting) or dropped: such text is not linked.
_TABLE = frozenset({"table", "tbody", "thead", "tfoot", "tr", "colgroup"})
_TABLE_PARTS = _TABLE | {"td", "th", "caption"}
_SECTION = ("tbody", "thead", "tfoot")
_UNDER = {
    "col": ("colgroup", "table"),
    "colgroup": ("table",),
    "caption": ("table",),
    **{section: ("table",) for section in _SECTION},
    "tr": (*_SECTION, "table"),
    "td": ("tr", *_SECTION, "table"),
    "th": ("tr", *_SECTION, "table"),
}
_MARKERS = frozenset({"td", "th", "caption", "template", "applet", "object", "marquee"})
# End tags that pop the foreign content inside their element (HTML 13.2.6.4.7:
# "has an element in scope", whose scope stops at integration points).
_BLOCK_END = frozenset(
    """address article aside blockquote button center details dialog dir div dl fieldset figcaption figure footer
    header hgroup listing main menu nav ol pre search section summary ul""".split()
)
_SCOPE = frozenset({"table", "td", "th", "caption", "template", "applet", "object", "marquee", "html"})
_EMPTY_END = re.compile(r"</>")  # dropped by the tokenizer
# CDATA in foreign content, to its "]]>" (group 1) or the end of input.
_CDATA = re.compile(r"<!\[CDATA\[(?:[\s\S]*?(\]\]>)|[\s\S]*)")


def _raw_end(html: str, name: str, i: int) -> int:
    """The offset after the end tag of a raw text element whose content
    starts at ``i``, or -1 when it runs to the end of input."""
    at = raw_text_end(html, name, i)
    if at is None:
        return -1
    m = _TAG.match(html, at)
    if m is None or m.group(4) == "":
        return -1
    return m.end()
