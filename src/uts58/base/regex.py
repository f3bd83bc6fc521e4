"""Regular-expression builders over code point ranges (the generated tables').

Used by the modules that compile patterns from the properties: parts
(runs of simple characters), properties (email runs) and hosts (labels).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["char_class", "minus"]

# Characters that mean something inside a regex character class.
_CLASS_SPECIAL = frozenset("\\]^-[")


def _class_char(cp: int) -> str:
    ch = chr(cp)
    return "\\" + ch if ch in _CLASS_SPECIAL else ch


def char_class(ranges: Iterable[tuple[int, int]], negate: bool = False) -> str:
    """A regex character class for inclusive code point ranges.  Characters
    are written as themselves (escaped only where the class syntax needs it):
    long classes compile several times faster than with ``\\U`` escapes.

    >>> char_class([(0x61, 0x63), (0x2D, 0x2D)])
    '[a-c\\\\-]'
    """
    parts = []
    for first, last in ranges:
        parts.append(_class_char(first) if first == last else f"{_class_char(first)}-{_class_char(last)}")
    return ("[^" if negate else "[") + "".join(parts) + "]"


def minus(ranges: Sequence[tuple[int, int]], chars: str) -> list[tuple[int, int]]:
    """Remove single code points from a list of inclusive ranges.

    >>> minus([(0x61, 0x65)], "c")
    [(97, 98), (100, 101)]
    """
    out = list(ranges)
    for cp in sorted(map(ord, chars)):
        nxt = []
        for first, last in out:
            if first <= cp <= last:
                if first < cp:
                    nxt.append((first, cp - 1))
                if cp < last:
                    nxt.append((cp + 1, last))
            else:
                nxt.append((first, last))
        out = nxt
    return out
