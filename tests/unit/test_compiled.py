"""Issue 38: the decision path compiled by mypyc from its own source
(``UTS58_MYPYC=1`` builds, :mod:`uts58.base.compiled`) gives the answers of
the interpreted source, which stays the reference; pure-Python mode loads
the sources even where compiled modules are installed.  The modules are
compiled here, into a copy of the package, as such a build compiles them."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import uts58
from uts58.base.compiled import COMPILED, compiled

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


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package with COMPILED built by mypyc beside the sources."""
    if importlib.util.find_spec("mypyc") is None:  # (not imported here: it imports setuptools, which patches distutils)
        pytest.skip("mypyc is not installed (it comes with mypy, a dev dependency)")
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    root = tmp_path_factory.mktemp("compiled")
    shutil.copytree(PACKAGE, root / "src" / "uts58", ignore=shutil.ignore_patterns("__pycache__"))
    for stale in (root / "src" / "uts58").rglob("*.so"):
        if stale.name.split(".")[0] != "_c":  # (the C kernels stay; no earlier compiled module does)
            stale.unlink()
    shutil.copy(ROOT / "pyproject.toml", root)  # (the mypy settings a build reads)
    files = [f"src/{name.replace('.', '/')}.py" for name in COMPILED]  # (as setup.py names them)
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *files], cwd=root, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return root / "src"


def _run(root: Path, texts_file: Path, pure: bool) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("UTS58_PURE_PYTHON", None)
    if pure:
        env["UTS58_PURE_PYTHON"] = "1"
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
    assert "\ndecision path: interpreted\n" in reference["version"]
    result = reference if pure else _run(compiled_copy, texts_file, pure=False)
    if not pure:
        assert result["compiled"] == list(COMPILED)
        assert f"\ndecision path: compiled by mypyc ({len(COMPILED)} of {len(COMPILED)} modules)\n" in result["version"]
    assert sum(len(links) for links in result["links"]) > 15_000  # (links of every shape, in every finder)
    assert result["links"] == reference["links"]
    assert compiled() == ()  # (this interpreter: the source tree, interpreted)
