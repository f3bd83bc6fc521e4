"""What the wheel and the sdist carry (D67): the wheel holds the package's
modules, the generated tables and the conformance files that ``uts58
conformance`` runs, and no raw Unicode property file; the sdist also holds
the generator and its inputs, so the tables can be rebuilt and checked.

The distributions are built once per module from a copy of the source tree
(a build writes ``build/`` and ``*.egg-info`` beside the sources; a copy
keeps the checkout clean), without build isolation: no network."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, read_property_file

from uts58.base.compiled import COMPILED
from uts58.conformance import TEST_VERSIONS

PACKAGE = ROOT / "src" / "uts58"
INPUTS = ROOT / "tools" / "data"
CONFORMANCE_FILES = ("LinkDetectionTest.txt", "LinkFormattingTest.txt")

# The wheel was 811,594 bytes with the raw Unicode files (2.6 MB of them)
# and is about a third of that without; the bound leaves room for the code
# to grow, not for the raw files to come back.  (466,234 bytes with the
# host kernel of issue 23, 160 kB of it the accelerator with its debug
# information; 593,110 with 18.0.0's tables beside 17.0.0's, issue 26;
# 653,163 with the plain IDN characters and their probes, issue 38, D137;
# 1,014,043 with the decision path compiled by mypyc (base/_decision__mypyc), a 961 kB library
# without debug information, 344 kB compressed, issue 38.)
WHEEL_BOUND = 1_100_000

# What a build reads from the checkout (MANIFEST.in grafts the directories).
_SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "CHANGELOG.md", "LICENSE", "Makefile")
_TREES = ("src", "tools", "tests", "docs", "examples")
_IGNORE = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.so", "*.egg-info", "build", "dist")


def _can_build_wheels() -> bool:
    # setuptools >= 70.1 has bdist_wheel itself; older ones need the wheel package.
    return any(importlib.util.find_spec(name) is not None for name in ("wheel", "setuptools.command.bdist_wheel"))


@pytest.fixture(scope="module")
def source_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("setuptools") is None:
        pytest.skip("setuptools is not installed: no build backend to build the distributions with")
    copy = tmp_path_factory.mktemp("source") / "uts58"
    copy.mkdir()
    for name in _SOURCES:
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, copy / name)
    for name in _TREES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, copy / name, ignore=_IGNORE)
    return copy


@pytest.fixture(scope="module")
def wheel(source_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("pip") is None or not _can_build_wheels():
        pytest.skip("building a wheel needs pip and the wheel package (or setuptools >= 70.1): pip install wheel")
    out = tmp_path_factory.mktemp("wheel")
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out)]
    done = subprocess.run([*cmd, str(source_copy)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    (path,) = out.glob("uts58-*.whl")
    return path


def _infos(wheel: Path) -> list[zipfile.ZipInfo]:
    with zipfile.ZipFile(wheel) as zf:
        return zf.infolist()


def _names(wheel: Path) -> set[str]:
    return {i.filename for i in _infos(wheel)}


def _read(wheel: Path, name: str) -> bytes:
    with zipfile.ZipFile(wheel) as zf:
        return zf.read(name)


def test_wheel_has_every_module_and_generated_table(wheel: Path) -> None:
    names = _names(wheel)
    modules = {p.relative_to(PACKAGE.parent).as_posix() for p in PACKAGE.rglob("*.py")}
    tables = {m for m in modules if m.startswith("uts58/tables/") and not m.endswith("__init__.py")}
    assert tables >= {"uts58/tables/v17_0_0.py", "uts58/tables/security_v17_0_0.py", "uts58/tables/tlds.py"}
    assert modules - names == set()
    assert "uts58/py.typed" in names
    assert not any(n.endswith((".c", ".h")) for n in names)  # the built module only, not its sources
    assert {n.split("/")[0] for n in names if not n.startswith("uts58-")} == {"uts58"}  # no other top level


def test_wheel_has_the_conformance_files_unchanged(wheel: Path) -> None:
    for version in TEST_VERSIONS:
        for name in CONFORMANCE_FILES:
            member = f"uts58/data/{version}/{name}"
            assert _read(wheel, member) == (PACKAGE / "data" / version / name).read_bytes(), member


def test_wheel_has_no_raw_unicode_file(wheel: Path) -> None:
    """Not one generator input (by name, wherever it would be), and no text
    file but the conformance files."""
    inputs = {p.name for p in INPUTS.rglob("*.txt")}
    assert {"LinkTerm.txt", "IdnaMappingTable.txt", "confusables.txt", "tlds-alpha-by-domain.txt"} <= inputs
    shipped = {Path(n).name for n in _names(wheel)}
    assert shipped & inputs == set()
    texts = {n for n in _names(wheel) if n.endswith(".txt") and ".dist-info/" not in n}
    assert texts == {f"uts58/data/{v}/{name}" for v in TEST_VERSIONS for name in CONFORMANCE_FILES}


def test_wheel_size_is_bounded(wheel: Path) -> None:
    size = wheel.stat().st_size
    assert size < WHEEL_BOUND, f"the wheel is {size:,} bytes"
    unpacked_text = sum(i.file_size for i in _infos(wheel) if i.filename.endswith(".txt"))
    assert unpacked_text < 120_000  # the four conformance files (~92 kB), nothing more


def test_installed_wheel_runs_without_the_checkout(wheel: Path, tmp_path: Path) -> None:
    """Installed alone (dependencies from this environment), the wheel runs
    the conformance files and the tables load: nothing at run time needs a
    file that stayed in tools/data/."""
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", str(target)]
    done = subprocess.run([*install, str(wheel)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    # (what the wheel holds: not this run's choice, UTS58_PURE_PYTHON in CI's second pass)
    switches = ("UTS58_PURE_PYTHON", "UTS58_INTERPRETED")
    env = {**{k: v for k, v in os.environ.items() if k not in switches}, "PYTHONPATH": str(target)}
    probe = (
        "import uts58, uts58.output.policy as s; print(uts58.__file__);"
        "print(s.skeleton('p\\u0430ypal'), uts58.link_term('\\u3001').name);"
    )
    probe += "from uts58.base.compiled import compiled; print(len(compiled()))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True).stdout
    where, props, compiled = out.splitlines()
    # (the build ran where mypyc is importable, this environment: the decision path runs compiled, issue 38)
    assert int(compiled) == (len(COMPILED) if importlib.util.find_spec("mypyc") else 0)
    assert Path(where).is_relative_to(target)
    expected = read_property_file(INPUTS / "18.0.0" / "LinkTerm.txt", "Hard")[0x3001]
    assert props == f"paypal {expected}"  # UTS #39: U+0430 is confusable with "a"
    run = [sys.executable, "-m", "uts58", "conformance"]
    done = subprocess.run(run, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    # per version: two detection outcomes, two minimal and three fully escaped formatting ones (D122)
    assert done.stdout.count(", 0 failed") == 7 * len(TEST_VERSIONS) == len(done.stdout.splitlines())


def test_sdist_carries_the_generator_and_its_inputs(source_copy: Path, tmp_path: Path) -> None:
    """From the sdist alone the tables can be regenerated and checked: it
    holds tools/gen_tables.py, every file of tools/data/ and the tests."""
    hook = "import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", hook, str(tmp_path)], cwd=source_copy, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    name = done.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / name) as tf:
        members = {m.name.split("/", 1)[1] for m in tf.getmembers() if m.isfile()}
    inputs = {p.relative_to(ROOT).as_posix() for p in INPUTS.rglob("*") if p.is_file()}
    assert inputs and inputs <= members
    assert {"tools/gen_tables.py", "tests/meta/test_tables.py", "Makefile", "MANIFEST.in"} <= members
    # the accelerator builds from the sdist: its headers too, not only the .c files setup.py names
    c_sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "src").rglob("*.[ch]")}
    assert c_sources and c_sources <= members
    assert not any("__pycache__" in m or m.endswith((".pyc", ".so")) for m in members)
