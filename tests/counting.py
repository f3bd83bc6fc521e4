"""Counting the scans an adapter makes (bounded work is tested in steps, D38)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest


class Scans:
    """How often ``find_links`` was called, and on how many characters."""

    def __init__(self) -> None:
        self.calls = 0
        self.chars = 0


def count_scans(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> Scans:
    """Replace ``module.find_links`` by a counting wrapper."""
    counts = Scans()
    real = module.find_links

    def counting(text: str, **options: Any) -> Any:
        counts.calls += 1
        counts.chars += len(text)
        return real(text, **options)

    monkeypatch.setattr(module, "find_links", counting)
    return counts
