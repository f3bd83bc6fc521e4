"""URL parts and their syntax sequences (UTS #58 §3.5, Table 3-3).

Both the termination algorithm (§3.5.1) and minimal escaping (§4.1) are
driven by this one table.  :func:`part_patterns` compiles, per part, the
regular expressions that let both algorithms skip over runs of characters
that are neither syntax of the part nor brackets nor Hard, so that their
Python loops run once per special character, not once per character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..base.regex import char_class, minus
from .properties import LinkProperties, LinkTerm

__all__ = [
    "DIRECTIVE",
    "FRAGMENT",
    "IDEOGRAPHIC_FULL_STOPS",
    "LABEL_SEPARATORS",
    "OPEN_STACK_LIMIT",
    "PARTS",
    "PATH",
    "QUERY",
    "Part",
    "PartPatterns",
    "match_at",
    "part_patterns",
]

# UTS #58 §3.5.1: "A stack limit is required for security".  One limit for
# every part, used by termination (§3.5.1) and escaping (§4.1) alike.
OPEN_STACK_LIMIT = 125
#: UTS #46 §2.3: the full stop and its ideographic and fullwidth variants (the one spelling of them).
LABEL_SEPARATORS = ".\u3002\uff0e\uff61"
#: The label separators that also end a sentence (D22).
IDEOGRAPHIC_FULL_STOPS = "\u3002\uff61"


@dataclass(frozen=True, eq=False)  # identity hash: parts are dict keys in hot loops
class Part:
    """One row of Table 3-3, and the ASCII characters that the WHATWG URL
    parser percent-encodes in the part (C0 controls, DEL and the part's
    percent-encode set) minus the part's syntax (D7): decoding exactly these
    never changes the parsed URL (format_url, §4)."""

    name: str
    initiator: str
    terminators: tuple[str, ...]
    clear_stack_open: tuple[str, ...]
    decodable: frozenset[str]

    def __repr__(self) -> str:
        return f"<Part {self.name}>"


DIRECTIVE_INITIATOR = ":~:"

_C0_DEL = "".join(map(chr, range(0x20))) + "\x7f"

PATH = Part("path", "/", ("?", "#"), ("/",), frozenset(_C0_DEL + ' "<>^`{}'))
QUERY = Part("query", "?", ("#",), ("=", "&"), frozenset(_C0_DEL + " \"<>'"))
FRAGMENT = Part("fragment", "#", (DIRECTIVE_INITIATOR,), (), frozenset(_C0_DEL + ' "<>`'))
# UTS #58 §3.5 (D3): the directive initiator only counts inside a fragment or
# directive.  Directives are decoded as the fragment they are part of.
DIRECTIVE = Part("fragment directive", DIRECTIVE_INITIATOR, (), ("&", ",", DIRECTIVE_INITIATOR), FRAGMENT.decodable)

PARTS = (PATH, QUERY, FRAGMENT, DIRECTIVE)


def match_at(sequences: tuple[str, ...], text: str, i: int) -> str | None:
    """The sequence of ``sequences`` that occurs in ``text`` at ``i``, if any."""
    for seq in sequences:
        if text.startswith(seq, i):
            return seq
    return None


@dataclass(frozen=True)
class PartPatterns:
    """Compiled patterns of one part for one Unicode version.

    A character is *simple* for a part when it is Include or Soft and does
    not start one of the part's syntax sequences.  ``run`` matches the
    longest stretch of simple characters; its group 1 ends after the last
    Include of the stretch, which is where lastSafe moves.  ``special``
    finds the next character that is not simple.
    """

    run: re.Pattern[str]
    special: re.Pattern[str]
    # First characters of the part's syntax sequences: TERMINATOR or CLEAR
    # for one-character sequences, SEQUENCE for the start of a longer one.
    syntax: dict[str, int]


TERMINATOR, CLEAR, SEQUENCE = 1, 2, 3


def _bmp(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(first, min(last, 0xFFFF)) for first, last in ranges if first <= 0xFFFF]


@cache
def part_patterns(props: LinkProperties, part: Part) -> PartPatterns:
    """The patterns of ``part`` (compiled on first use, then cached)."""
    include = _bmp(props.ranges(LinkTerm.Include))
    soft = _bmp(props.ranges(LinkTerm.Soft))
    starts = "".join(sorted({seq[0] for seq in part.terminators + part.clear_stack_open}))
    include_p = minus(include, starts)
    soft_p = minus(soft, starts)
    inc, sft = char_class(include_p), char_class(soft_p)
    # Single-character classes only, and Include/Soft disjoint: the
    # repeats are unambiguous (linear) and run in the regex engine's
    # fast single-character loop.  The classes hold the BMP only (D4): the
    # engine tests a BMP character against a bitmap, but tests each of
    # the hundreds of supplementary ranges in turn, which made every
    # miss cost ~1 µs.  Supplementary characters are rare in URLs and
    # go through the (linear) Python loop instead.
    syntax = {seq: TERMINATOR for seq in part.terminators if len(seq) == 1}
    syntax.update({seq: CLEAR for seq in part.clear_stack_open if len(seq) == 1})
    syntax.update({seq[0]: SEQUENCE for seq in part.terminators + part.clear_stack_open if len(seq) > 1})
    return PartPatterns(
        run=re.compile(f"({inc}*(?:{sft}+{inc}+)*){sft}*"),
        special=re.compile(char_class(sorted(include_p + soft_p), negate=True)),
        syntax=syntax,
    )
