"""The decision path compiled from its own source (issue 38).

The modules in :data:`COMPILED` hold the per-candidate rules of detection
(the scanner, the evidence, the address rules, the quick refusals, the
plan, the host checks).  A build with ``UTS58_MYPYC=1`` in the environment
compiles them with mypyc from the same typed source (setup.py reads this
list); every other build, and every checkout, runs them interpreted, and the
interpreted source is the reference the tests compare the compiled modules
with.  With ``UTS58_PURE_PYTHON`` set, :func:`prefer_sources` (called by
``import uts58``) loads the ``.py`` files even where compiled ones are
installed, so that pure-Python mode is pure Python.  This module imports
nothing of uts58: setup.py runs it on its own.

>>> "uts58.detect.scanner" in COMPILED
True
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["COMPILED", "compiled", "prefer_sources"]

COMPILED = (
    "uts58.detect.addresses",
    "uts58.detect.candidates",
    "uts58.detect.evidence",
    "uts58.detect.plan",
    "uts58.detect.scanner",
    "uts58.hosts.domains",
)


class _Sources(importlib.abc.MetaPathFinder):
    """Finds the ``.py`` file of a module of COMPILED where a compiled one is beside it."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None or spec.origin.endswith(".py"):
            return spec
        source = os.path.join(os.path.dirname(spec.origin), fullname.rpartition(".")[2] + ".py")
        return importlib.util.spec_from_file_location(fullname, source) if os.path.isfile(source) else spec


def prefer_sources() -> None:
    """Load the modules of COMPILED from their ``.py`` files from now on."""
    if not any(isinstance(finder, _Sources) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Sources())


def compiled() -> tuple[str, ...]:
    """The modules of COMPILED that run compiled: loaded, or to be loaded,
    from a compiled file (the spec of a loaded module is the one it was
    loaded by; prefer_sources' finder answers for the others)."""
    found = []
    for name in COMPILED:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None and not spec.origin.endswith(".py"):
            found.append(name)
    return tuple(found)
