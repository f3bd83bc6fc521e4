"""Shared fixtures: paths of the vendored data and an independent reader of
the UCD-style property files (independent of tools/gen_tables.py, so the
tests check the generator rather than reuse it)."""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tools" / "data"  # the generator inputs (D67); the conformance files are in the package
SHARED = ROOT.parent / "shared" / "unicode"


def read_property_file(path: Path, default: str) -> dict[int, str]:
    """{code point: value} for every code point listed; others get ``default``
    from the caller.  Lines are 'XXXX[..YYYY] [; value] # comment'."""
    values: dict[int, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(";")]
        first, _, last = fields[0].partition("..")
        value = fields[1] if len(fields) > 1 else "Yes"
        for cp in range(int(first, 16), int(last or first, 16) + 1):
            assert cp not in values, f"{path.name}: U+{cp:04X} listed twice"
            values[cp] = value
    return values


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


def missing_default(path: Path) -> str | None:
    m = re.search(r"^# @missing: 0000\.\.10FFFF; (\S+)", path.read_text(encoding="utf-8"), re.M)
    return m.group(1) if m else None


# Hypothesis: a deterministic profile for `make test` and CI, a long one for
# `make fuzz` (HYPOTHESIS_PROFILE=fuzz).
import os  # noqa: E402

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci", derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("fuzz", max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# --------------------------------------------------------------------------
# Kernels: the C accelerator and the Python reference (uts58.kernels).
# A test module that runs every test in both modes says
# ``pytestmark = pytest.mark.usefixtures("kernel_mode")``.

from uts58 import kernels as _kernels  # noqa: E402

C_KERNELS_WHY_NOT = (
    "UTS58_PURE_PYTHON is set: the C kernels are not used in this run"
    if os.environ.get("UTS58_PURE_PYTHON", "") not in ("", "0")
    else None
    if _kernels.accelerated()
    else "uts58.kernels._c is not built here"
)


@pytest.fixture(scope="module", params=["c", "python"])
def kernel_mode(request: pytest.FixtureRequest) -> object:
    """Each test of the module once with the C kernels, once with the Python ones."""
    if request.param == "c" and C_KERNELS_WHY_NOT is not None:
        pytest.skip(C_KERNELS_WHY_NOT)
    was_python = not _kernels.accelerated()
    _kernels.use_python(request.param == "python")
    yield request.param
    _kernels.use_python(was_python)


# --------------------------------------------------------------------------
# Issue 38: a test that counts the calls inside the decision path patches the
# names of its modules, which compiled modules call natively.  Such a test is
# marked ``counts_calls``; where the decision path runs compiled it is skipped
# here and run by tests/unit/test_compiled.py, in a child with the decision
# path interpreted and the C kernels on (UTS58_INTERPRETED=1).

from uts58.base.compiled import compiled as _compiled  # noqa: E402

DECISION_PATH_COMPILED = bool(_compiled())


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "counts_calls: counts calls inside the decision path (runs it interpreted)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not DECISION_PATH_COMPILED:
        return
    skip = pytest.mark.skip(
        reason="counts calls inside the decision path, which runs compiled here: "
        "tests/unit/test_compiled.py runs it with UTS58_INTERPRETED=1"
    )
    for item in items:
        if item.get_closest_marker("counts_calls"):
            item.add_marker(skip)


# --------------------------------------------------------------------------
# Parquet (D125): what pandas, Dask and pyarrow give for a links column when
# each reads a file with its default arguments (tests/unit/test_dask.py, tests/unit/test_spark.py).


def parquet_links_everywhere(path: Path, column: str) -> dict[str, list[list[dict[str, object]]]]:
    """{reader: the link records of each row} of the Parquet file or directory
    ``path``, rows in the order of its ``id`` column, as ``pd.read_parquet``,
    ``dd.read_parquet`` and ``pq.read_table`` read it with no arguments; checks
    on the way the type each gives ``column`` (an Arrow list of structs;
    pandas and Dask: an object column of arrays of dicts)."""
    import dask.dataframe as dd
    import pandas as pd
    import pyarrow.parquet as pq

    from uts58.frames._schema import arrow_type

    table = pq.read_table(path)
    assert table.schema.field(column).type == arrow_type()
    frame = pd.read_parquet(path)
    lazy = dd.read_parquet(path)
    assert frame[column].dtype == "object" and lazy.dtypes[column] == "object"
    return {
        "pyarrow": table.sort_by("id").column(column).to_pylist(),
        "pandas": [list(cell) for cell in frame.sort_values("id")[column]],
        "dask": [list(cell) for cell in lazy.compute().sort_values("id")[column]],
    }


@contextlib.contextmanager
def playground_running(log: Any = None, **limits: float) -> Iterator[Any]:
    """A ``uts58 serve`` server on a free port of 127.0.0.1 (logging to
    ``log``; some of its limits, D130, set to ``limits``), serving in a thread
    until the block ends; then no request may have met a bug (a 500)."""
    from uts58.cli.serve import make_server

    running = make_server(port=0, log=log)
    for name, value in limits.items():
        assert hasattr(running, name)
        setattr(running, name, value)
    thread = threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield running
    finally:
        running.shutdown()
        running.server_close()
        thread.join(10)
    assert running.failures == 0  # no request met a bug (a 500)
