"""The one place that chooses the C accelerator or the Python kernels (D34, D70).

``uts58.kernels._c`` (built by setup.py where a C compiler is available) and
``uts58.kernels._python`` have the same kernels: ``Engine(props)`` with
``find_link_end`` (§3.5.1), ``escape_parts`` (§4.1), ``decode`` and
``display_tail`` (format_url's percent-decoding, then §4.1), and
``escape_html``.  Two parts have no Python twin, because the Python code
they speed up is itself the reference: :func:`candidate_scan` (two steps of
the detection scan, D96) and :func:`slot_maker` (a Link in one call); with
the Python kernels they are None and their callers do the work.
Everything else in uts58 asks this module, never the two implementations.

The Python kernels run where the accelerator is not built, or when the
environment variable ``UTS58_PURE_PYTHON`` is set to anything but ``0``
(read once, at import); tests switch with :func:`use_python`.

>>> from uts58.unicode.properties import link_properties
>>> engine(link_properties()).find_link_end("example.com/a). x", 11)
13
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from types import ModuleType
from typing import Any, Protocol

from ..unicode.parts import FRAGMENT, OPEN_STACK_LIMIT, PARTS, PATH, QUERY
from ..unicode.properties import LINK_TERM_ORDER, LinkProperties, LinkTerm
from . import _python

__all__ = [
    "Engine",
    "Scan",
    "accelerated",
    "c_module",
    "candidate_scan",
    "engine",
    "escape_html",
    "percent_escape",
    "slot_maker",
    "status",
    "use_python",
]

# Not a kernel but the one definition of %XX escaping, which both
# implementations of §4.1 write (the C one in kernels.h, out_escape).
percent_escape = _python.percent_escape


class Engine(Protocol):
    """The kernels over one Unicode version's tables (compiled or Python)."""

    def find_link_end(self, text: str, start: int, in_path: bool = False) -> int: ...

    def escape_parts(
        self, path: str | None, query: str | None, fragment: str | None, directives: Sequence[str]
    ) -> str: ...

    def display_tail(self, path: str | None, query: str | None, fragment: str | None) -> str: ...

    def decode(self, s: str, part: int) -> str: ...


def _import() -> tuple[ModuleType | None, str]:
    try:
        return importlib.import_module("uts58.kernels._c"), ""
    except ImportError as e:
        return None, f"uts58.kernels._c is not built ({e})"


_BUILT, _WHY_NOT_BUILT = _import()
_ENV_PURE = os.environ.get("UTS58_PURE_PYTHON", "") not in ("", "0")
# The module in use, or None for the Python kernels.  The only mutable state
# of the package, changed only by use_python (for tests).
_active: list[ModuleType | None] = [None if _ENV_PURE else _BUILT]


def use_python(pure: bool = True) -> None:
    """Run the Python kernels (``pure=True``) or the accelerator, where it
    is built (``pure=False``); for tests that compare the two."""
    _active[0] = None if pure else _BUILT


def c_module() -> ModuleType | None:
    """The accelerator module in use, or None."""
    return _active[0]


def accelerated() -> bool:
    """Whether the C kernels are in use; public as ``uts58.accelerated()``.

    False where ``uts58.kernels._c`` was not built (no C compiler at install
    time) or ``UTS58_PURE_PYTHON`` is set: the results are the same, only
    slower.  A function, asked each time, so never stale after
    ``use_python()``; ``uts58 --version`` also says why not (D78).

    >>> accelerated() == (status() == "on")
    True
    """
    return _active[0] is not None


def status() -> str:
    """``"on"``, or ``"off"`` and why."""
    if _active[0] is not None:
        return "on"
    if _BUILT is None:
        return "off: " + _WHY_NOT_BUILT
    return "off: UTS58_PURE_PYTHON is set" if _ENV_PURE else "off: switched off by use_python()"


def engine(props: LinkProperties) -> Engine:
    """The kernels over ``props``: compiled when the accelerator is in use."""
    return _engine(props, _active[0])


@cache
def _engine(props: LinkProperties, module: ModuleType | None) -> Engine:
    if module is None:
        return _python.Engine(props)
    # The Link_Term codes of the C kernels (their enum).
    if LINK_TERM_ORDER != (LinkTerm.Include, LinkTerm.Hard, LinkTerm.Soft, LinkTerm.Open, LinkTerm.Close):
        raise RuntimeError("uts58.kernels._c numbers Link_Term values in another order")
    firsts, lasts, codes = props.supplementary_ranges()
    pairs = props.bracket_pairs()
    compiled: Engine = module.Engine(
        props.bmp_link_term,
        firsts,
        lasts,
        codes,
        tuple(ord(close) for close, _ in pairs),
        tuple(ord(open_) for _, open_ in pairs),
        OPEN_STACK_LIMIT,
        tuple((p.initiator, p.terminators, p.clear_stack_open) for p in PARTS),
        tuple("".join(sorted(p.decodable)) for p in (PATH, QUERY, FRAGMENT)),
    )
    return compiled


class Scan(Protocol):
    """The C parts of the candidate scan for one finder (``src/kernels/scan.c``)."""

    def skip(self, text: str, pos: int, floor: int) -> tuple[int, int, int]: ...

    def clauses(self, text: str, s: int, e: int) -> list[tuple[int, int]]: ...


def candidate_scan(
    props: LinkProperties,
    schemes: tuple[str, ...],
    special: tuple[bool, ...],
    named: bool,
    cjk: tuple[tuple[int, int], ...],
    tlds: frozenset[str],
    quick: bool,
    classes: tuple[tuple[str, str], ...],
    separators: str,
) -> Scan | None:
    """The C parts of ``uts58.detect.scanner._Scanner`` for one finder, or
    None where the Python kernels are in use: then the scanner alone, the
    reference, does all.  ``skip`` passes over ``scheme://`` tokens not
    linked (D53, D20): ``schemes`` lowercase, longest first, ``special``
    which are, ``named`` whether the candidate pattern matches names before
    ``:`` (opaque schemes, bare localhost); it passes over, too, ``@`` and
    runs of host characters that the scanner refuses at their first look
    (D106): ``tlds`` the finder's TLDs, ``quick`` whether D91's quick
    rejection of runs applies.  ``clauses`` is D22, ``cjk`` the ranges of
    its CJK characters.  ``classes`` names the ASCII characters it decides
    with (``(name, characters)`` for each name of the module's
    ``SCAN_CLASSES``), ``separators`` the label separators: the C code has
    no character of its own (issue 24)."""
    module = _active[0]
    if module is None:
        return None
    return _candidate_scan(props, schemes, special, named, cjk, tlds, quick, classes, separators, module)


@lru_cache(maxsize=64)
def _candidate_scan(
    props: LinkProperties,
    schemes: tuple[str, ...],
    special: tuple[bool, ...],
    named: bool,
    cjk: tuple[tuple[int, int], ...],
    tlds: frozenset[str],
    quick: bool,
    classes: tuple[tuple[str, str], ...],
    separators: str,
    module: ModuleType,
) -> Scan:
    firsts = tuple(first for first, _ in cjk)
    lasts = tuple(last for _, last in cjk)
    label = _bmp_label_bits(props)
    table = _class_table(dict(classes), module.SCAN_CLASSES)
    scan: Scan = module.Scan(
        _engine(props, module),
        label,
        schemes,
        special,
        named,
        firsts,
        lasts,
        tlds,
        quick,
        props.ascii_email,
        table,
        separators,
    )
    return scan


def _class_table(classes: dict[str, str], names: tuple[str, ...]) -> tuple[int, ...]:
    """For each ASCII character, the bits of the classes it is in, bit k for
    ``names[k]`` (the order the C scan reads them in)."""
    if set(classes) != set(names):
        raise RuntimeError(f"Scan classes {sorted(classes)} are not the C scan's {sorted(names)}")
    table = [0] * 128
    for bit, name in enumerate(names):
        for ch in classes[name]:
            if ord(ch) >= 128:
                raise RuntimeError(f"Scan class {name!r} holds {ch!r}: ASCII characters only")
            table[ord(ch)] |= 1 << bit
    return tuple(table)


def run_start(ranges: Sequence[tuple[int, int]]) -> Callable[[str, int, int], int]:
    """``start(text, lo, hi)``: where the run of characters in ``ranges``
    (inclusive code point ranges) that ends at ``hi`` starts, not before
    ``lo``: the offset after the last character of ``text[lo:hi]`` outside
    them, or ``lo``.  Made anew on each call, by the kernels in use: a
    caller keeps it per mode (:func:`c_module` says which).

    >>> run_start([(0x61, 0x7A)])("12 abc", 0, 6)
    3
    """
    merged: list[list[int]] = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    firsts = tuple(first for first, _ in merged)
    lasts = tuple(last for _, last in merged)
    module = _active[0]
    scan = _python.RunStart(firsts, lasts) if module is None else module.RunStart(firsts, lasts)
    start: Callable[[str, int, int], int] = scan.start
    return start


def slot_maker(cls: type, names: tuple[str, ...]) -> Callable[..., Any] | None:
    """``maker(*values)``: a new ``cls`` (made by ``object.__new__``) with its
    slots ``names`` set to ``values``, in one call of the C accelerator; or
    None where the Python kernels are in use (the caller sets the slots)."""
    module = _active[0]
    return None if module is None else _slot_maker(cls, names, module)


@lru_cache(maxsize=16)
def _slot_maker(cls: type, names: tuple[str, ...], module: ModuleType) -> Callable[..., Any]:
    maker: Callable[..., Any] = module.SlotMaker(cls, names)
    return maker


@cache
def _bmp_label_bits(props: LinkProperties) -> bytes:
    """Bit c set for each BMP character that can stand in a domain label."""
    bits = bytearray(0x10000 // 8)
    for first, last in props.domain_ranges():
        for c in range(first, min(last, 0xFFFF) + 1):
            bits[c >> 3] |= 1 << (c & 7)
    return bytes(bits)


def escape_html(s: str) -> str:
    """``html.escape(s)`` (quote=True); one pass in C."""
    module = _active[0]
    return _python.escape_html(s) if module is None else module.escape_html(s)
