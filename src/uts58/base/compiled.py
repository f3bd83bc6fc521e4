"""The decision path compiled from its own source (issue 38).

The modules in :data:`COMPILED` hold the per-candidate rules of detection
(the scanner, the evidence, the address rules, the quick refusals, the
plan, the host checks).  A build compiles them with mypyc from the same
typed source where it can (setup.py reads this list; ``UTS58_MYPYC=0``
builds none) and records the SHA-256 of each source beside them
(``RECORD_FILE``); the interpreted source is the reference the tests
compare the compiled modules with.  :func:`choose` (called by
``import uts58``, before any of them loads) runs all of them from their
``.py`` files where

- ``UTS58_PURE_PYTHON`` is set: pure-Python mode is pure Python;
- ``UTS58_INTERPRETED`` is set: the decision path interpreted, the C
  kernels still on (the tests that count calls inside it run so);
- a source is not the one its module was compiled from (an editable
  install edited since its build), or the record is missing.  Compiled
  modules call one another natively, so one stale module means all run
  interpreted.

This module imports nothing of uts58: setup.py runs it on its own.

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

__all__ = ["COMPILED", "RECORD_FILE", "choose", "compiled", "interpreted_because", "prefer_sources"]

COMPILED = (
    "uts58.detect.addresses",
    "uts58.detect.candidates",
    "uts58.detect.evidence",
    "uts58.detect.plan",
    "uts58.detect.scanner",
    "uts58.hosts.domains",
)

# Where a build records the sources it compiled, relative to the package's parent.
RECORD_FILE = "uts58/base/compiled-sources.json"

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_because: str | None = None  # (set once, by choose)


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


def _switched(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def _built() -> list[str]:
    """The modules of COMPILED with a compiled file beside their source."""
    found = []
    for name in COMPILED:
        stem = os.path.join(os.path.dirname(_PACKAGE), *name.split("."))
        if any(os.path.isfile(stem + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES):
            found.append(name)
    return found


def _stale(built: list[str]) -> str | None:
    """Why the compiled modules may not run (a source changed, no record), or None."""
    import hashlib  # (here: only an install with compiled modules pays for them)
    import json

    try:
        with open(os.path.join(os.path.dirname(_PACKAGE), RECORD_FILE), encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError):
        return "no record of the sources they were compiled from"
    for name in built:
        source = os.path.join(os.path.dirname(_PACKAGE), *name.split(".")) + ".py"
        try:
            with open(source, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        except OSError:  # (an install without sources: the compiled module is all there is)
            continue
        if record.get(name) != digest:
            return f"{name} changed since it was compiled"
    return None


def choose() -> None:
    """Run COMPILED from its sources where the module doc says; once, before any of it loads."""
    global _because
    if _because is not None:
        return
    built = _built()
    if _switched("UTS58_PURE_PYTHON"):
        _because = "UTS58_PURE_PYTHON is set"
    elif _switched("UTS58_INTERPRETED"):
        _because = "UTS58_INTERPRETED is set"
    elif not built:
        _because = "not compiled by this build"
    else:
        _because = _stale(built) or ""
    if _because and built:
        prefer_sources()


def interpreted_because() -> str:
    """Why the decision path runs interpreted ('' where it runs compiled)."""
    choose()
    assert _because is not None
    return _because
