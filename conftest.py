"""The whole suite's audit of what tests read (issue 35, D131; tests/hermetic.py).

Here at the root so that it covers every test pytest collects: tests/, the
doctests of src/uts58, README.md and docs/.  A test that reads a file, lists
a folder or starts a program outside the places a test may read fails with
the paths; so does a module whose collection does.  The Python processes the
tests start report theirs through tests/hermetic_site/sitecustomize.py.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))
import compiled_doctests  # (tests/ is not a package: put on sys.path above)
import hermetic

_seen: list[tuple[str, str]] = []
_state: dict[str, Any] = {}


def pytest_configure(config: pytest.Config) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="uts58-hermetic-"))
    _state["scratch"] = scratch
    _state["log"] = hermetic.ChildLog(scratch / "children.jsonl")
    # Configuration the tests' libraries would otherwise take from the
    # machine (/etc/dask, ~/.config/dask, ~/.config/fsspec): an empty folder.
    for variable in ("DASK_CONFIG", "DASK_ROOT_CONFIG", "FSSPEC_CONFIG_DIR"):
        os.environ[variable] = str(scratch / "config")
    os.environ[hermetic.ROOTS_VARIABLE] = json.dumps(hermetic.allowed_roots())
    os.environ[hermetic.LOG_VARIABLE] = str(_state["log"].path)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(hermetic.SITE), os.environ.get("PYTHONPATH", "")) if p)
    hermetic.install(lambda event, path: _seen.append((event, path)))


def pytest_unconfigure(config: pytest.Config) -> None:
    if "scratch" in _state:
        shutil.rmtree(_state["scratch"], ignore_errors=True)


def _take() -> list[str]:
    found = _seen[:] + _state["log"].take()
    del _seen[:]
    return hermetic.unexpected(found)


def _message(bad: list[str]) -> str:
    return (
        "read outside the repository, ../shared, the venv, the standard library and the temporary folder "
        "(tests/hermetic.py: generate the input, or install it by name in .ci/run and add it to MACHINE_INPUTS):\n  "
        + "\n  ".join(bad[:40])
        + (f"\n  ... and {len(bad) - 40} more" if len(bad) > 40 else "")
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    outcome = yield
    bad = _take()
    if bad:
        report = outcome.get_result()
        report.outcome = "failed"
        report.longrepr = _message(bad)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    bad = _take()
    if bad:
        report = outcome.get_result()
        if report.outcome != "failed":
            report.outcome = "failed"
            report.longrepr = _message(bad)
        else:
            report.sections.append(("hermetic", _message(bad)))


# D138: where the decision path runs compiled, the doctests of its sources
# run against the compiled modules (tests/compiled_doctests.py).
@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Iterator[None]:
    found = yield
    if "compiled" not in _state:
        from uts58.base import compiled

        root = Path(compiled.__file__).resolve().parent.parent.parent
        _state["compiled"] = {root.joinpath(*name.split(".")).with_suffix(".py") for name in compiled.compiled()}
    if file_path.resolve() not in _state["compiled"]:
        return found
    # (a file named on the command line is also collected as a test module:
    # it holds no tests, and importing it by path is the same mismatch)
    from _pytest.doctest import DoctestModule

    doctests = (
        [compiled_doctests.CompiledDoctests.from_parent(parent, path=file_path)]
        if any(isinstance(node, DoctestModule) for node in found)
        else []
    )
    return doctests + [node for node in found if not isinstance(node, pytest.Module)]
