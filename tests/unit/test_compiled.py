"""Issue 38: the decision path compiled by mypyc from its own source
(:mod:`uts58.base.compiled`, built by default) gives the answers of the
interpreted source, which stays the reference; pure-Python mode loads the
sources even where compiled modules are installed, and so does a source
edited since its build.  The compiled modules are the installed ones where
this install compiled them, else compiled here, into a copy of the package,
as a build compiles them."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import uts58
from uts58.base.compiled import COMPILED, RECORD_FILE, compiled

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(uts58.__file__).resolve().parent

# What the child prints: every link of every input, with its derived forms.
_PROBE = r"""
import json, sys
import uts58
from uts58.base.compiled import compiled
from uts58.cli.info import version_report
texts = json.loads(open(sys.argv[1], encoding="utf-8").read())
finders = [uts58.Finder(), uts58.Finder(cjk_prose=True, cjk_boundary=True), uts58.Finder(file_names=False)]
out = [
    [[l.start, l.end, l.kind, l.text, l.href, l.host.ascii, str(l.host), l.display] for l in f.find_links(t)]
    for f in finders
    for t in texts
]
report = version_report()
print(json.dumps({"file": uts58.__file__, "compiled": list(compiled()), "links": out, "version": report}))
"""


def _inputs() -> list[str]:
    sys.path.insert(0, str(ROOT / "bench"))
    import corpus

    texts = corpus.fresh_lines(1500, "dev") + corpus.fresh_lines(600, "held-out")
    texts += corpus.fresh_prose(60_000, "dev") + corpus.fresh_prose(60_000, "held-out")
    texts += [make(20_000) for make in (*corpus.DENSE.values(), *corpus.ADVERSARIAL.values()) if make]
    for version in ("17.0.0", "18.0.0"):
        test_file = PACKAGE / "data" / version / "LinkDetectionTest.txt"
        texts += [line.split("#")[0] for line in test_file.read_text(encoding="utf-8").splitlines() if line.strip()]
    return texts


def _child_env(**switches: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("UTS58_PURE_PYTHON", "UTS58_INTERPRETED")}
    return {**env, **switches}


def _installed_runs_compiled() -> bool:
    """Whether this install's decision path runs compiled where nothing switches it off."""
    probe = "from uts58.base.compiled import compiled; print(len(compiled()))"
    done = subprocess.run([sys.executable, "-c", probe], env=_child_env(), capture_output=True, text=True, check=True)
    return int(done.stdout) == len(COMPILED)


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A source tree with COMPILED built by mypyc beside the sources: this
    install's, or a copy of the package compiled here."""
    if _installed_runs_compiled():
        return PACKAGE.parent
    if importlib.util.find_spec("mypyc") is None:  # (not imported here: it imports setuptools, which patches distutils)
        pytest.skip("mypyc is not installed (it comes with mypy, a dev dependency)")
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    root = tmp_path_factory.mktemp("compiled")
    copy = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(PACKAGE, root / "src" / "uts58", ignore=copy)
    shutil.copytree(ROOT / "src" / "kernels", root / "src" / "kernels", ignore=copy)
    for stale in (root / "src" / "uts58").rglob("*.so"):
        if stale.name.split(".")[0] != "_c":  # (the C kernels stay; no earlier compiled module does)
            stale.unlink()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, root)
    env = _child_env()
    env.pop("UTS58_MYPYC", None)  # (the default build)
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return root / "src"


def _run(root: Path, texts_file: Path, pure: bool) -> dict[str, Any]:
    env = {**_child_env(**({"UTS58_PURE_PYTHON": "1"} if pure else {})), "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(texts_file)], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    assert Path(result["file"]).resolve().is_relative_to(root.resolve())
    return result


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure Python"])
def test_the_compiled_decision_path_gives_the_interpreted_answers(
    compiled_copy: Path, tmp_path: Path, pure: bool
) -> None:
    texts = _inputs()
    texts_file = tmp_path / "texts.json"
    texts_file.write_text(json.dumps(texts), encoding="utf-8")
    reference = _run(compiled_copy, texts_file, pure=True)
    assert reference["compiled"] == []  # (the sources, though compiled modules are beside them)
    assert "\ndecision path: interpreted: UTS58_PURE_PYTHON is set\n" in reference["version"]
    result = reference if pure else _run(compiled_copy, texts_file, pure=False)
    if not pure:
        assert result["compiled"] == list(COMPILED)
        assert f"\ndecision path: compiled by mypyc ({len(COMPILED)} of {len(COMPILED)} modules)\n" in result["version"]
    assert sum(len(links) for links in result["links"]) > 15_000  # (links of every shape, in every finder)
    assert result["links"] == reference["links"]


@pytest.mark.parametrize("change", ["none", "a source edited", "no record"])
def test_a_source_changed_since_its_build_runs_interpreted(compiled_copy: Path, tmp_path: Path, change: str) -> None:
    """An editable install puts the compiled modules beside their sources:
    one edited afterwards runs all of COMPILED from source (compiled modules
    call one another natively), and so does a tree without the record."""
    tree = tmp_path / "src"
    shutil.copytree(compiled_copy / "uts58", tree / "uts58", ignore=shutil.ignore_patterns("__pycache__"))
    if change == "a source edited":
        with open(tree / "uts58" / "detect" / "plan.py", "a", encoding="utf-8") as f:
            f.write("\n# edited after the build\n")
    elif change == "no record":
        (tree / RECORD_FILE).unlink()
    texts = tmp_path / "texts.json"
    texts.write_text(json.dumps(["see example.com or a@b.org"]), encoding="utf-8")
    result = _run(tree, texts, pure=False)
    why = {
        "none": None,
        "a source edited": "uts58.detect.plan changed since it was compiled",
        "no record": "no record of the sources they were compiled from",
    }[change]
    assert result["compiled"] == ([] if why else list(COMPILED))
    assert ("\ndecision path: interpreted: " + why + "\n" if why else "\ndecision path: compiled") in result["version"]
    assert [link[3] for link in result["links"][0]] == ["example.com", "a@b.org"]


@pytest.mark.parametrize("switch", ["UTS58_INTERPRETED", "UTS58_PURE_PYTHON"])
def test_the_switches_run_the_sources(compiled_copy: Path, tmp_path: Path, switch: str) -> None:
    """UTS58_INTERPRETED runs the decision path from source with the C
    kernels on; UTS58_PURE_PYTHON runs both from source."""
    code = "import uts58; from uts58.base.compiled import compiled; print(len(compiled()), uts58.accelerated())"
    env = {**_child_env(**{switch: "1"}), "PYTHONPATH": str(compiled_copy)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    kernels = switch == "UTS58_INTERPRETED" and importlib.util.find_spec("uts58.kernels._c") is not None
    assert done.stdout.split() == ["0", str(kernels)]


COUNTING = ["tests/unit/test_scan.py", "tests/unit/test_detection.py", "tests/unit/test_spans.py"]


def test_the_call_counting_tests_pass_interpreted() -> None:
    """The tests marked counts_calls patch names inside the decision path;
    where it runs compiled (tests/conftest.py skips them there) they run
    here, in a child with the decision path interpreted and the C kernels on."""
    if not compiled():
        pytest.skip("the decision path runs interpreted in this run: the counting tests ran in it")
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-o",
        "addopts=-q",
        "-p",
        "no:cacheprovider",
        "-m",
        "counts_calls",
        *COUNTING,
    ]
    env = _child_env(UTS58_INTERPRETED="1")
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 14 and "skipped" not in summary, summary


_FOUND = r"""
import doctest, importlib, json, sys
from uts58.base.compiled import COMPILED
found = {}
for name in COMPILED:
    module = importlib.import_module(name)
    assert module.__file__.endswith(".py"), module.__file__
    found[name] = sorted((t.name, len(t.examples)) for t in doctest.DocTestFinder().find(module, name) if t.examples)
print(json.dumps(found))
"""


def test_the_compiled_modules_doctests_are_the_ones_doctest_finds_in_their_sources() -> None:
    """Where the decision path runs compiled the suite reads its doctests from
    the sources (tests/compiled_doctests.py): the same examples, under the
    same names, that doctest finds in the interpreted modules."""
    sys.path.insert(0, str(ROOT / "tests"))
    import doctest

    from compiled_doctests import docstrings

    parser = doctest.DocTestParser()
    read = {}
    for name in COMPILED:
        source = ROOT / "src" / Path(*name.split(".")).with_suffix(".py")
        tests = [
            (f"{name}.{below}" if below else name, parser.get_examples(text))
            for below, text, _ in docstrings(source.read_text(encoding="utf-8"))
        ]
        read[name] = sorted((test, len(examples)) for test, examples in tests if examples)
    done = subprocess.run(
        [sys.executable, "-c", _FOUND],
        env=_child_env(UTS58_INTERPRETED="1"),
        capture_output=True,
        text=True,
        check=True,
    )
    found = {name: [tuple(pair) for pair in pairs] for name, pairs in json.loads(done.stdout).items()}
    assert read == found
    assert sum(map(len, read.values())) >= 10
