"""Grapheme-cluster boundaries that are certain (UAX #29, Unicode 17), D79.

The bundled Unicode data lacks GraphemeBreakProperty.txt and emoji-data.txt,
so this module cannot segment exactly.  It is *conservative*:
:func:`is_boundary` says True only where UAX #29 has an extended
grapheme-cluster boundary whatever the missing properties (Prepend,
Extended_Pictographic) turn out to be.  A cut at such a position never
splits what a reader sees as one character; some true boundaries are
refused (after ZWJ, between two regional indicators, after a letter of a
script with a virama), never the other way round.

Every rule looks at two characters only, so each answer is one table
lookup per character (``bisect`` on the generated ranges) and a walk to the
nearest boundary is linear in its length.

>>> from uts58.graphemes import boundaries
>>> list(boundaries("e\\u0301a"))
[0, 2, 3]
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

from ._checks import check_offset, check_str
from ._tables.graphemes_v17_0_0 import CLASSES, GRAPHEME, INCB

__all__ = ["UNICODE_VERSION", "boundaries", "boundary_at_or_after", "boundary_at_or_before", "is_boundary"]

UNICODE_VERSION = "17.0.0"

_STARTS = GRAPHEME[0::3]
_LASTS = GRAPHEME[1::3]
_CODES = GRAPHEME[2::3]

(_OTHER, _CR, _LF, _CONTROL, _EXTEND, _ZWJ, _RI, _SPACING, _L, _V, _T, _LV, _LVT, _PREPEND) = range(14)
assert CLASSES[_PREPEND] == "Maybe_Prepend" and INCB == ("None", "Consonant", "Linker", "Extend")
_CONSONANT, _LINKER, _INCB_EXTEND = 1, 2, 3
_BREAKS = frozenset((_CR, _LF, _CONTROL))
_NO_CUT_BEFORE = frozenset((_EXTEND, _ZWJ, _SPACING))  # GB9, GB9a


def _code(ch: str) -> int:
    cp = ord(ch)
    k = bisect_right(_STARTS, cp) - 1
    return _CODES[k] if k >= 0 and cp <= _LASTS[k] else 0


_ASCII = tuple(_code(chr(cp)) for cp in range(128))


def _class(ch: str) -> int:
    return _ASCII[ord(ch)] if ch < "\x80" else _code(ch)


def _cut(a: int, b: int) -> bool:
    """Whether UAX #29 certainly breaks between characters of codes ``a`` and ``b``."""
    ca, cb = a & 15, b & 15
    if ca == _CR and cb == _LF:  # GB3
        return False
    if ca in _BREAKS or cb in _BREAKS:  # GB4, GB5
        return True
    if ca == _L and cb in (_L, _V, _LV, _LVT):  # GB6
        return False
    if ca in (_LV, _V) and cb in (_V, _T):  # GB7
        return False
    if ca in (_LVT, _T) and cb == _T:  # GB8
        return False
    if cb in _NO_CUT_BEFORE:  # GB9, GB9a (SpacingMark: a superset)
        return False
    if ca == _PREPEND:  # GB9b, for any character that may be Prepend
        return False
    if b >> 4 == _CONSONANT and a >> 4 in (_LINKER, _INCB_EXTEND):  # GB9c, without looking further back
        return False
    if ca == _ZWJ:  # GB11, whatever Extended_Pictographic is
        return False
    return not (ca == _RI and cb == _RI)  # GB12/13, whatever the parity


def is_boundary(text: str, i: int) -> bool:
    """True if UAX #29 certainly puts a grapheme-cluster boundary at
    ``text[i]`` (0 and ``len(text)`` always are, GB1/GB2).

    >>> is_boundary("a\\u0301b", 1), is_boundary("a\\u0301b", 2)
    (False, True)
    """
    check_str(text, "text")
    check_offset(i, "i", text)
    if i == 0 or i == len(text):
        return True
    return _cut(_class(text[i - 1]), _class(text[i]))


def boundaries(text: str) -> Iterator[int]:
    """Every certain boundary of ``text``, in order, 0 and ``len(text)`` included.

    >>> list(boundaries("🇫🇷x"))  # two regional indicators stay together
    [0, 2, 3]
    """
    check_str(text, "text")
    yield 0
    if not text:
        return
    a = _class(text[0])
    for i in range(1, len(text)):
        b = _class(text[i])
        if _cut(a, b):
            yield i
        a = b
    yield len(text)


def boundary_at_or_before(text: str, i: int) -> int:
    """The last certain boundary at or before ``i`` (0 at worst).

    >>> boundary_at_or_before("ne\\u0301e", 2)
    1
    """
    check_str(text, "text")
    check_offset(i, "i", text)
    if i == len(text):
        return i
    b = _class(text[i])
    while i > 0:
        a = _class(text[i - 1])
        if _cut(a, b):
            return i
        i -= 1
        b = a
    return 0


def boundary_at_or_after(text: str, i: int) -> int:
    """The first certain boundary at or after ``i`` (``len(text)`` at worst).

    >>> boundary_at_or_after("ne\\u0301e", 2)
    3
    """
    check_str(text, "text")
    check_offset(i, "i", text)
    n = len(text)
    if i == 0:
        return 0
    a = _class(text[i - 1])
    while i < n:
        b = _class(text[i])
        if _cut(a, b):
            return i
        i += 1
        a = b
    return n
