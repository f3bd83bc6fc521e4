"""Where a URL ends in plain text (UTS #58 §3.5.1, Termination Algorithm)."""

from __future__ import annotations

from ._checks import check_offset, check_str
from ._compiled import engine
from .parts import CLEAR, DIRECTIVE, FRAGMENT, PARTS, PATH, SEQUENCE, TERMINATOR, Part, match_at, part_patterns
from .properties import DEFAULT_UNICODE_VERSION, LinkProperties, LinkTerm, link_properties

__all__ = ["OPEN_STACK_LIMIT", "find_link_end"]

# UTS #58 §3.5.1: "A stack limit is required for security".
OPEN_STACK_LIMIT = 125

_INITIATORS = tuple(p.initiator for p in PARTS)
_PART_BY_INITIATOR = {p.initiator: p for p in PARTS}


def find_link_end(text: str, start: int, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> int:
    """Return the end offset of the link whose host (and port) end at ``start``.

    ``start`` is the offset just after the host and optional port, where a
    path, query or fragment may begin.  The result is ``>= start``.

    >>> text = "See example.com/αβγ/δεζ?δ. εφ"
    >>> text[:find_link_end(text, 15)]
    'See example.com/αβγ/δεζ?δ'
    """
    check_str(text, "text")
    check_offset(start, "start", text)
    return _find_link_end(text, start, link_properties(unicode_version))


def _find_link_end(text: str, start: int, props: LinkProperties, in_path: bool = False) -> int:
    """§3.5.1 without argument checks: compiled where the accelerator is built.
    ``in_path``: ``start`` is inside a path, as after its initiator (the body
    of an opaque URL such as ``tel:…``, D53), not at the end of a host."""
    fast = engine(props)
    if fast is not None:
        return fast.find_link_end(text, start, in_path)
    return _find_link_end_py(text, start, props, in_path)


def _find_link_end_py(text: str, start: int, props: LinkProperties, in_path: bool = False) -> int:
    """§3.5.1 in Python; one pass, O(len) time, no recursion.

    Runs of simple characters are consumed by one regex match per run
    (see :func:`uts58.parts.part_patterns`); the loop body below runs only
    for syntax sequences, brackets and the final Hard character.
    """
    n = len(text)
    # Decision (docs/decisions.md): lastSafe starts at the end of the host.
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
