"""Counting the scans an adapter makes (bounded work is tested in steps, D38)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from uts58.detect.finder import Finder


class Scans:
    """How often a finder scanned a text (``Finder.find_links``), and how many characters."""

    def __init__(self) -> None:
        self.calls = 0
        self.chars = 0


def count_scans(monkeypatch: pytest.MonkeyPatch, module: ModuleType | None = None) -> Scans:
    """Replace ``Finder.find_links`` (what the adapters scan with) by a
    counting wrapper while the test runs.  (``module``: the adapter under
    test, named for the reader; every scan is counted.)"""
    counts = Scans()
    real = Finder.find_links

    def counting(self: Finder, text: str) -> Any:
        counts.calls += 1
        counts.chars += len(text)
        return real(self, text)

    monkeypatch.setattr(Finder, "find_links", counting)
    return counts


class Lookups:
    """How many characters' grapheme classes were looked up (``uts58.unicode.graphemes._class``)."""

    def __init__(self) -> None:
        self.count = 0


def count_grapheme_lookups(monkeypatch: pytest.MonkeyPatch) -> Lookups:
    """Count the grapheme-class lookups while the test runs: the steps of
    every walk from an offset of :mod:`uts58.unicode.graphemes` (``is_boundary``,
    ``boundary_at_or_before``, ``boundary_at_or_after``) and so of the
    shortening (D79, D81).  (``boundaries`` reads its text in one pass with
    the lookup inlined: its steps are the characters it reads.)"""
    from uts58.unicode import graphemes

    counts = Lookups()
    real = graphemes._class

    def counting(seg: Any, ch: str) -> int:
        counts.count += 1
        return real(seg, ch)

    monkeypatch.setattr(graphemes, "_class", counting)
    return counts


def profile_steps(fn: Callable[[], object]) -> int:
    """The Python calls and calls into C that ``fn()`` makes: the steps of
    an adapter's own loops (a loop per pair of tokens, a rescan per node
    would show up; seconds on a busy machine would not tell, D38).  The
    work inside one C call is not counted: the characters the finder
    scans are, by :func:`count_scans` (each adapter's scanned-once tests)."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(previous)
    return count
