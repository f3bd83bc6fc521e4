"""Install paths: ``uts58.accelerated()`` (D78) tells the kernels in use in
both modes, and ``make demo`` installs only the runtime install, which is
all the demo needs (D77), while ``make test`` installs the dev extras into the
same ``.venv`` (two stamps; neither install undoes the other)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from conftest import ROOT

import uts58
from uts58 import kernels as _kernels

MAKEFILE = ROOT / "Makefile"


def _env(**changes: str | None) -> dict[str, str]:
    env = dict(os.environ)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _python(code: str, **env: str | None) -> str:
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        capture_output=True,
        text=True,
        env=_env(**env),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# --------------------------------------------------------------------------
# uts58.accelerated()


def test_accelerated_is_the_kernels_in_use() -> None:
    was_python = not _kernels.accelerated()
    try:
        _kernels.use_python(True)
        assert uts58.accelerated() is False and _kernels.status().startswith("off")
        _kernels.use_python(False)  # the accelerator where it is built, whatever the environment says
        assert uts58.accelerated() is (_kernels._BUILT is not None)
        assert uts58.accelerated() is (_kernels.status() == "on")
    finally:
        _kernels.use_python(was_python)
    assert uts58.accelerated is _kernels.accelerated
    assert "accelerated" in uts58.__all__


_REPORT = (
    "import importlib.util, uts58, uts58.kernels as k;"
    "print(uts58.accelerated(), k.accelerated(), importlib.util.find_spec('uts58.kernels._c') is not None)"
)


@pytest.mark.parametrize("pure", ["1", "0", None])
def test_accelerated_in_a_new_process(pure: str | None) -> None:
    # UTS58_PURE_PYTHON is read once, at import: a fresh interpreter per mode.
    public, kernels, built = _python(_REPORT, UTS58_PURE_PYTHON=pure).split()
    assert public == kernels
    assert public == ("False" if pure == "1" else built)


@pytest.mark.parametrize("pure", ["1", None])
def test_version_says_what_accelerated_says(pure: str | None) -> None:
    out = _python(
        "import uts58; from uts58.cli.main import version_report; print(uts58.accelerated()); print(version_report())",
        UTS58_PURE_PYTHON=pure,
    )
    flag, report = out.split("\n", 1)
    line = next(x for x in report.splitlines() if x.startswith("accelerator: "))
    assert (line == "accelerator: on") is (flag == "True")
    if pure == "1":
        assert line == "accelerator: off: UTS58_PURE_PYTHON is set"


def test_import_stays_lazy_and_quiet_in_pure_mode() -> None:
    # D78: no flag computed and no warning at import (-W error would raise it);
    # the kernels load with the first name that needs them (D31).
    out = _python(
        "import sys, uts58; print('uts58.kernels' in sys.modules);"
        "uts58.find_links('see example.com'); print(uts58.accelerated(), 'uts58.kernels' in sys.modules)",
        UTS58_PURE_PYTHON="1",
    )
    assert out.split() == ["False", "False", "True"]


# --------------------------------------------------------------------------
# make demo: the runtime install, and all the demo needs


def _recipe(target: str) -> tuple[str, list[str]]:
    """(prerequisites, recipe lines) of ``target`` in the Makefile."""
    lines = MAKEFILE.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    recipe = []
    for line in lines[k + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line[1:])
    return lines[k].split(":", 1)[1].strip(), recipe


def _runtime_distributions() -> set[str]:
    """The installed distributions that ``pip install .`` brings: uts58's
    dependencies (no extra) and theirs, normalised."""
    from importlib import metadata

    from packaging.requirements import Requirement  # (pytest's own dependency)

    def norm(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    runtime = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    todo = [Requirement(r) for r in runtime]
    seen: set[str] = set()
    while todo:
        req = todo.pop()
        name = norm(req.name)
        if name in seen or (req.marker is not None and not req.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        todo.extend(Requirement(r) for r in metadata.requires(req.name) or ())
    return seen


def test_demo_runs_on_the_runtime_install_alone() -> None:
    # Every module of an installed distribution outside the runtime install
    # (pytest, the dev extras and their dependencies) fails to import in the
    # child, which runs the demo's commands as the Makefile has them.
    from importlib import metadata

    allowed = _runtime_distributions() | {"uts58"}
    blocked = sorted(
        top
        for top, dists in metadata.packages_distributions().items()
        if not {re.sub(r"[-_.]+", "-", d).lower() for d in dists} & allowed and top.isidentifier()
    )
    assert {"pytest", "markdown_it", "dask", "jinja2"} <= set(blocked)
    prerequisites, recipe = _recipe("demo")
    assert prerequisites == "$(RUNTIME_STAMP)"
    install = [line for line in _recipe("$(RUNTIME_STAMP)")[1] if "PIP" in line or "pip" in line]
    assert install == ["$(PIP) -e ."]
    commands = [line.split()[1:] for line in recipe]
    assert commands and all(line.startswith("$(BIN)/uts58 ") for line in recipe)
    code = f"""
import contextlib, io, sys
BLOCKED = set({blocked!r})
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is not in the runtime install")
sys.meta_path.insert(0, Block())
from uts58.cli.main import main
for args in {commands!r}:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            code = main(args)
        except SystemExit as e:  # (--version exits)
            code = e.code
    assert code in (0, None), (args, code)
    assert out.getvalue(), args
print("demo ok")
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["demo", "ok"]


@pytest.fixture
def make_copy(tmp_path: Path) -> Path:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    for name in ("Makefile", "pyproject.toml", "setup.py"):
        shutil.copy2(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "src" / "kernels", tmp_path / "src" / "kernels")
    return tmp_path


def _dry_run(copy: Path, target: str) -> list[str]:
    """What ``make -n target`` would install: the arguments after ``install``."""
    env = _env(MAKEFLAGS=None, MAKELEVEL=None, MFLAGS=None)
    done = subprocess.run(
        ["make", "-n", target], cwd=copy, capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return [line.split(" install ", 1)[1] for line in done.stdout.splitlines() if " -m pip install " in line]


def _at(copy: Path, seconds: float, *names: str) -> None:
    for name in names:
        path = copy / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
        os.utime(path, (seconds, seconds))


def test_make_demo_installs_no_extra(make_copy: Path) -> None:
    # D77: two stamps in one .venv; the dev install includes the runtime one.
    inputs = ["pyproject.toml", "setup.py", *(str(p.relative_to(make_copy)) for p in make_copy.glob("src/kernels/*"))]
    _at(make_copy, 1_000_000, *inputs)
    # A fresh clone: demo installs uts58 alone (editable), test the dev extras.
    (demo,) = _dry_run(make_copy, "demo")
    assert demo.endswith(" -e .") and "[" not in demo
    (test,) = _dry_run(make_copy, "test")
    assert test.endswith(" -e '.[dev]'")
    # After make demo: demo installs nothing more, test still the dev extras.
    _at(make_copy, 1_000_100, ".venv/bin/python", ".venv/.installed-runtime")
    assert _dry_run(make_copy, "demo") == []
    assert [x.endswith("'.[dev]'") for x in _dry_run(make_copy, "test")] == [True]
    # After make test: neither installs anything (demo cannot undo the dev install).
    _at(make_copy, 1_000_200, ".venv/.installed-runtime", ".venv/.installed-dev")
    assert _dry_run(make_copy, "demo") == [] and _dry_run(make_copy, "test") == []
    # The project metadata changed: each reinstalls its own install.
    _at(make_copy, 1_000_300, "pyproject.toml")
    assert [x.endswith(" -e .") for x in _dry_run(make_copy, "demo")] == [True]
    assert [x.endswith(" -e '.[dev]'") for x in _dry_run(make_copy, "test")] == [True]


def test_the_runtime_install_is_the_projects_dependencies() -> None:
    # What `make demo` installs beyond the venv is [project].dependencies and
    # what they need; none of the dev tools is among them.
    runtime = _runtime_distributions()
    assert {"ada-url", "publicsuffixlist", "selectolax"} <= runtime
    assert not runtime & {"pytest", "hypothesis", "ruff", "mypy", "dask", "pandas", "pyarrow", "django"}
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert {"markdown", "sanitize", "jinja", "dask", "spark", "progress", "dev"} <= set(extras)
