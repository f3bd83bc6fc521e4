"""Link offsets in the units of other runtimes (D73).

uts58 reports ``start`` and ``end`` in Python code points.  JavaScript, Java
and .NET index strings in UTF-16 code units; AT Protocol (Bluesky) facets,
Rust and Go in UTF-8 bytes.  :func:`link_offsets` converts the offsets of
many links of one text in one pass over the text, and :func:`unit_length`
gives a text's length in a unit (to add up pieces of a longer text).

>>> from uts58 import find_links
>>> text = "🎉 see bücher.de"
>>> link_offsets(text, find_links(text), "utf16"), link_offsets(text, find_links(text), "utf8")
([(7, 16)], [(9, 19)])
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal, get_args

from ..base.checks import check_offset, check_str
from ..detect.link import Link
from ..errors import OffsetError, OptionError

__all__ = ["UNITS", "Unit", "link_offsets", "unit_length"]

Unit = Literal["codepoints", "utf8", "utf16"]
UNITS: tuple[Unit, ...] = get_args(Unit)

# Code points outside the BMP: the only ones that take two UTF-16 code units.
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _check_unit(unit: object) -> Unit:
    if not isinstance(unit, str):
        raise TypeError(f"unit must be str, not {type(unit).__name__}")
    for known in UNITS:
        if unit == known:
            return known
    raise OptionError(f"unit must be one of {', '.join(map(repr, UNITS))}, not {unit!r}")


def _units(segment: str, unit: Unit) -> int:
    """The length of ``segment`` in ``unit`` (not "codepoints").  A lone
    surrogate counts as ``surrogatepass`` encodes it: 3 bytes, 1 code unit (D73)."""
    if segment.isascii():  # O(1) on a str
        return len(segment)
    if unit == "utf8":
        return len(segment.encode("utf-8", "surrogatepass"))
    return len(segment.encode("utf-16-le", "surrogatepass")) >> 1


def _same_as_codepoints(text: str, unit: Unit) -> bool:
    """Every offset of ``text`` is the same in ``unit`` as in code points."""
    return unit == "codepoints" or text.isascii() or (unit == "utf16" and _ASTRAL.search(text) is None)


def unit_length(text: str, unit: Unit) -> int:
    """The length of ``text`` in ``unit``: ``"codepoints"``, ``"utf8"``
    (bytes) or ``"utf16"`` (code units); lone surrogates as in :func:`link_offsets`.

    >>> unit_length("a𠀀é", "codepoints"), unit_length("a𠀀é", "utf8"), unit_length("a𠀀é", "utf16")
    (3, 7, 4)
    """
    check_str(text, "text")
    checked = _check_unit(unit)
    return len(text) if _same_as_codepoints(text, checked) else _units(text, checked)


def _pair(item: object, index: int, text: str) -> tuple[int, int]:
    """The checked (start, end) of ``links[index]``: a Link or a (start, end) pair."""
    name = f"links[{index}]"
    if isinstance(item, Link):
        start, end = item.start, item.end
    elif isinstance(item, tuple | list) and len(item) == 2:
        start, end = item
    else:
        raise TypeError(f"{name} must be a Link or a (start, end) pair, not {type(item).__name__}")
    check_offset(start, f"{name} start", text)
    check_offset(end, f"{name} end", text)
    if end < start:
        raise OffsetError(f"{name}: end {end} is before start {start}")
    return start, end


def link_offsets(text: str, links: Iterable[Link | tuple[int, int] | list[int]], unit: Unit) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each of ``links`` (:class:`~uts58.Link` values
    or code-point ``(start, end)`` pairs into ``text``, tuples or lists), in ``unit``:
    ``"codepoints"`` (as given), ``"utf8"`` (offsets into
    ``text.encode("utf-8")``) or ``"utf16"`` (into
    ``text.encode("utf-16-le")``, halved), in the order given.

    One pass over ``text`` for all the links, whatever their order (D73).  A
    lone surrogate (a ``str`` can hold one; well-formed UTF-8 and UTF-16
    cannot) counts as ``"surrogatepass"`` encodes it: 3 bytes in UTF-8 (as
    many as the U+FFFD a JavaScript ``TextEncoder`` puts in its place), 1 code
    unit in UTF-16.  A TypeError names a wrong ``text``, ``links`` or
    ``links[i]``; an offset outside the text or an end before its start is an
    :class:`~uts58.OffsetError`, an unknown unit an :class:`~uts58.OptionError`.

    >>> text = "👋 mail x@bücher.de"
    >>> link_offsets(text, [(7, 18)], "utf16"), text.encode("utf-16-le")[2 * 8 : 2 * 19].decode("utf-16-le")
    ([(8, 19)], 'x@bücher.de')
    """
    check_str(text, "text")
    checked = _check_unit(unit)
    if isinstance(links, str | bytes) or not isinstance(links, Iterable):
        raise TypeError(f"links must be an iterable of Link or (start, end) pairs, not {type(links).__name__}")
    pairs = [_pair(item, i, text) for i, item in enumerate(links)]
    if _same_as_codepoints(text, checked):
        return pairs
    if all(pairs[k][1] <= pairs[k + 1][0] for k in range(len(pairs) - 1)):
        # In order and apart, as find_links gives them: one walk, no table.
        out = []
        done = total = 0  # code points, and units, before position `done`
        for start, end in pairs:
            total += _units(text[done:start], checked)
            first = total
            total += _units(text[start:end], checked)
            done = end
            out.append((first, total))
        return out
    # Any order: every boundary once, in text order.
    positions = [p for pair in pairs for p in pair]
    positions.sort()
    converted: dict[int, int] = {}
    done = total = 0  # code points, and units, before position `done`
    for p in positions:
        if p != done:
            total += _units(text[done:p], checked)
            done = p
        converted[p] = total
    return [(converted[start], converted[end]) for start, end in pairs]
