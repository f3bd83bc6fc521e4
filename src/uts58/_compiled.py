"""The optional C accelerator, ``uts58._speedups`` (built by setup.py).

None where it is not built, or when the environment variable
``UTS58_PURE_PYTHON`` is set to anything but ``0``: uts58 then runs the
same algorithms in Python.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def _load() -> ModuleType | None:
    if os.environ.get("UTS58_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("uts58._speedups")
    except ImportError:
        return None


speedups = _load()
