"""The kernels in Python: the reference the C accelerator is tested against.

A kernel is an inner loop of the spec over one Unicode version's tables,
with no decision of its own: §3.5.1 (where a URL ends), §4.1 (minimal
escaping), the percent-decoding before §4.1, HTML escaping, and the
backward scan over a class of characters (RunStart).  Callers
never import this module: :mod:`uts58.kernels` chooses between it and
``uts58.kernels._c`` (the same methods, compiled).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from ..base.regex import char_class
from ..unicode.parts import (
    CLEAR,
    DIRECTIVE,
    FRAGMENT,
    OPEN_STACK_LIMIT,
    PARTS,
    PATH,
    QUERY,
    SEQUENCE,
    TERMINATOR,
    Part,
    match_at,
    part_patterns,
)
from ..unicode.properties import LinkProperties, LinkTerm

__all__ = ["Engine", "RunStart", "escape_html", "percent_escape"]

escape_html = html.escape

_INITIATORS = tuple(p.initiator for p in PARTS)
_PART_BY_INITIATOR = {p.initiator: p for p in PARTS}
_DECODABLE = (PATH.decodable, QUERY.decodable, FRAGMENT.decodable)


def percent_escape(ch: str) -> str:
    """``%XX`` escapes of the UTF-8 bytes of ``ch``.

    A lone surrogate cannot be encoded; like the WHATWG URL parser (which
    works on scalar values) it is written as U+FFFD (D9).

    >>> percent_escape(" "), percent_escape("。")
    ('%20', '%E3%80%82')
    """
    if "\ud800" <= ch <= "\udfff":
        ch = "\ufffd"
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8"))


class RunStart:
    """The backward scan over one class of characters: ``start(text, lo,
    hi)`` is the offset after the last character of ``text[lo:hi]`` outside
    the class (sorted, disjoint inclusive ranges ``firsts``/``lasts``), or
    ``lo``.  A regex cannot search backward, and one match from ``lo`` would
    cost O(hi - lo) for every call: windows of doubling size before ``hi``
    keep a run of length L at O(L)."""

    __slots__ = ("_match",)

    def __init__(self, firsts: Sequence[int], lasts: Sequence[int]) -> None:
        # (?s:.*)[^X] matches a window up to its last character not in X
        self._match = re.compile("(?s:.*)" + char_class(list(zip(firsts, lasts, strict=True)), negate=True)).match

    def start(self, text: str, lo: int, hi: int) -> int:
        size = 16  # (most runs before a separator are a word: "www", "example")
        while True:
            first = max(lo, hi - size)
            m = self._match(text, first, hi)
            if m is not None:
                return m.end()
            if first == lo:
                return lo
            size *= 2


class Engine:
    """The kernels over one Unicode version's properties, in Python
    (``uts58.kernels._c.Engine`` has the same methods)."""

    __slots__ = ("props",)

    def __init__(self, props: LinkProperties) -> None:
        self.props = props

    def find_link_end(self, text: str, start: int, in_path: bool = False) -> int:
        return find_link_end(text, start, self.props, in_path)

    def escape_parts(self, path: str | None, query: str | None, fragment: str | None, directives: Sequence[str]) -> str:
        return minimal_escape(path, query, fragment, directives, self.props)

    def decode(self, s: str, part: int) -> str:
        """Percent-decode ``s`` as part ``part`` (0 path, 1 query, 2 fragment)."""
        return decode(s, _DECODABLE[part])

    def display_tail(self, path: str | None, query: str | None, fragment: str | None) -> str:
        """The display form of the path (without its leading ``/``), query
        and fragment of a WHATWG-serialized URL; None means absent."""
        directives: list[str] = []
        if fragment is not None:
            # ":" is never decoded in a fragment, so a literal ":~:" here is syntax.
            fragment, *directives = self.decode(fragment, 2).split(DIRECTIVE.initiator)
        return minimal_escape(
            None if path is None else self.decode(path, 0),
            None if query is None else self.decode(query, 1),
            fragment,
            directives,
            self.props,
        )


# --------------------------------------------------------------------------
# UTS #58 §3.5.1, Termination Algorithm


def find_link_end(text: str, start: int, props: LinkProperties, in_path: bool = False) -> int:
    """§3.5.1 in Python; one pass, O(len) time, no recursion.

    ``in_path``: ``start`` is inside a path, as after its initiator (the body
    of an opaque URL such as ``tel:…``, D53), not at the end of a host.
    Runs of simple characters are consumed by one regex match per run
    (see :func:`uts58.unicode.parts.part_patterns`); the loop body below runs only
    for syntax sequences, brackets and the final Hard character.

    >>> from uts58.unicode.properties import link_properties
    >>> find_link_end("example.com/a(b)c). x", 11, link_properties())
    17
    """
    n = len(text)
    # D1: lastSafe starts at the end of the host.
    last_safe = start
    part: Part | None = PATH if in_path else None
    previous_part: Part | None = None
    open_stack: list[str] = []
    patterns = part_patterns(props, PATH)
    run, syntax = patterns.run.match, patterns.syntax
    i = start
    while i < n:
        kind = None
        if part is not None:
            m = run(text, i)
            assert m is not None  # the pattern also matches the empty string
            if m.end(1) > i:  # the run holds an Include: it is safe up to there
                last_safe = m.end(1)
            i = m.end()  # a trailing run of Soft characters is skipped, not kept
            if i == n:
                break
            kind = syntax.get(text[i])
            if kind == TERMINATOR or (kind == SEQUENCE and match_at(part.terminators, text, i) is not None):
                previous_part, part = part, None
        if part is None:
            initiator = match_at(_INITIATORS, text, i)
            if initiator is None:
                return last_safe
            part = _PART_BY_INITIATOR[initiator]
            patterns = part_patterns(props, part)
            run, syntax = patterns.run.match, patterns.syntax
            if part is DIRECTIVE and previous_part not in (FRAGMENT, DIRECTIVE):
                return last_safe
            i += len(initiator)
            last_safe = i
            open_stack.clear()
            continue
        if kind is not None:  # CLEAR, or the start of a longer sequence
            seq = text[i] if kind == CLEAR else match_at(part.clear_stack_open, text, i)
            if seq is not None:
                i += len(seq)
                last_safe = i
                open_stack.clear()
                continue
        # Not simple: Open, Close, Hard, a supplementary character (the run
        # classes hold the BMP only), or the first character of a longer
        # sequence that is not there (":" without "~:").
        ch = text[i]
        lt = props.link_term(ch)
        if lt is LinkTerm.Soft:
            i += 1
            continue
        if lt is LinkTerm.Hard:
            return last_safe
        if lt is LinkTerm.Open:
            if len(open_stack) == OPEN_STACK_LIMIT:
                return last_safe
            open_stack.append(ch)
        elif lt is LinkTerm.Close and (not open_stack or props.link_bracket(ch) != open_stack.pop()):
            return last_safe
        i += 1  # Include, or a bracket pushed or matched
        last_safe = i
    return last_safe


# --------------------------------------------------------------------------
# UTS #58 §4.1, URL Minimal Escaping Algorithm


def minimal_escape(
    path: str | None, query: str | None, fragment: str | None, directives: Sequence[str], props: LinkProperties
) -> str:
    """§4.1 over the parts (None: absent; directives imply a fragment)."""
    if directives and fragment is None:
        fragment = ""
    parts: list[tuple[Part, str]] = [
        (part, value) for part, value in ((PATH, path), (QUERY, query), (FRAGMENT, fragment)) if value is not None
    ]
    parts += [(DIRECTIVE, d) for d in directives]
    out: list[str] = []
    for k, (part, value) in enumerate(parts):
        out.append(part.initiator)
        _escape_part(value, part, k == len(parts) - 1, props, out)
    return "".join(out)


def _escape_part(s: str, part: Part, is_last: bool, props: LinkProperties, out: list[str]) -> None:
    """§4.1 for one part; appends to ``out``.  Only characters that are not
    simple for the part are visited (see :func:`uts58.unicode.parts.part_patterns`):
    Include and Soft characters are copied as they are, in slices."""
    copied = 0
    open_stack: list[str] = []
    patterns = part_patterns(props, part)
    syntax = patterns.syntax
    for m in patterns.special.finditer(s):
        i = m.start()
        ch = s[i]
        kind = syntax.get(ch)
        if kind == TERMINATOR or (kind == SEQUENCE and match_at(part.terminators, s, i)):
            lt = LinkTerm.Hard
        else:
            if kind == CLEAR or (kind == SEQUENCE and match_at(part.clear_stack_open, s, i)):
                open_stack.clear()
            lt = props.link_term(ch)
        if lt is LinkTerm.Include or lt is LinkTerm.Soft:
            continue
        if lt is LinkTerm.Open and len(open_stack) < OPEN_STACK_LIMIT:
            open_stack.append(ch)
            continue
        if lt is LinkTerm.Close:
            last_open = open_stack.pop() if open_stack else None
            if props.link_bracket(ch) == last_open:
                continue
        # Hard, an Open beyond the stack limit, or an unmatched Close.
        out.append(s[copied:i])
        out.append(percent_escape(ch))
        copied = i + 1
    n = len(s)
    if is_last and copied < n and props.link_term(s[-1]) is LinkTerm.Soft:
        # The last part ends in Soft: escape its final character so that
        # detection does not stop before it.
        out.append(s[copied : n - 1])
        out.append(percent_escape(s[-1]))
    else:
        out.append(s[copied:])


# --------------------------------------------------------------------------
# Percent-decoding before §4.1 (format_url)

_ESCAPE_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _utf8_length(lead: int) -> int:
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def decode(s: str, decodable: frozenset[str]) -> str:
    """Percent-decode valid UTF-8 sequences and the ``decodable`` ASCII
    characters; every other escape (invalid UTF-8, syntax, ``%25``) is kept
    exactly as written.

    >>> decode("a%20b%2F%C3%A9%FF", PATH.decodable)
    'a b%2Fé%FF'
    """

    def run(m: re.Match[str]) -> str:
        text = m.group()
        data = bytes.fromhex(text.replace("%", ""))
        if min(data) >= 0x80:
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                pass
        out = []
        k = 0
        while k < len(data):
            b = data[k]
            if b < 0x80:
                ch = chr(b)
                out.append(ch if ch in decodable else text[3 * k : 3 * k + 3])
                k += 1
                continue
            size = _utf8_length(b)
            if size:
                try:
                    out.append(data[k : k + size].decode("utf-8"))
                    k += size
                    continue
                except UnicodeDecodeError:
                    pass
            out.append(text[3 * k : 3 * k + 3])  # legacy byte: stays escaped
            k += 1
        return "".join(out)

    return _ESCAPE_RUN.sub(run, s) if "%" in s else s
