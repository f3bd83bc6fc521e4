"""The optional C accelerator, ``uts58._speedups`` (built by setup.py).

:data:`speedups` is None where it is not built, or when the environment
variable ``UTS58_PURE_PYTHON`` is set to anything but ``0``: uts58 then
runs the same algorithms in Python.  :func:`engine` gives its §3.5.1 and
§4.1 loops over one Unicode version's tables.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from .properties import LinkProperties


def _load() -> ModuleType | None:
    if os.environ.get("UTS58_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("uts58._speedups")
    except ImportError:
        return None


speedups = _load()


class Escaper(Protocol):
    """§4.1 and the percent-decoding of format_url (compiled or in Python)."""

    def escape_parts(
        self, path: str | None, query: str | None, fragment: str | None, directives: Sequence[str]
    ) -> str: ...

    def display_tail(self, path: str | None, query: str | None, fragment: str | None) -> str: ...

    def decode(self, s: str, part: int) -> str: ...


class Engine(Escaper, Protocol):
    """``uts58._speedups.Engine``: an Escaper that also runs §3.5.1."""

    def find_link_end(self, text: str, start: int, in_path: bool = False) -> int: ...

    def format_url(
        self, ada: object, url: str, known_host: str, known_display: str
    ) -> tuple[str, str] | Literal[False] | None: ...


@cache
def engine(props: LinkProperties) -> Engine | None:
    """The compiled algorithms over ``props``, or None without the accelerator."""
    if speedups is None:
        return None
    from .escaping import DECODABLE_ASCII
    from .parts import DIRECTIVE, FRAGMENT, PATH, QUERY
    from .properties import LINK_TERM_ORDER, LinkTerm
    from .termination import OPEN_STACK_LIMIT

    # The Link_Term codes of _speedups.c (its enum).
    if LINK_TERM_ORDER != (LinkTerm.Include, LinkTerm.Hard, LinkTerm.Soft, LinkTerm.Open, LinkTerm.Close):
        raise RuntimeError("uts58._speedups numbers Link_Term values in another order")
    firsts, lasts, codes = props.supplementary_ranges()
    pairs = props.bracket_pairs()
    compiled: Engine = speedups.Engine(
        props.bmp_link_term,
        firsts,
        lasts,
        codes,
        tuple(ord(close) for close, _ in pairs),
        tuple(ord(open_) for _, open_ in pairs),
        OPEN_STACK_LIMIT,
        tuple((p.initiator, p.terminators, p.clear_stack_open) for p in (PATH, QUERY, FRAGMENT, DIRECTIVE)),
        tuple("".join(sorted(chars)) for chars in DECODABLE_ASCII),
    )
    return compiled
