"""The suite reads only what a test may read (issue 35, D131): the audit of
tests/hermetic.py catches a read outside, in the test process and in the
processes it starts, and the machine inputs it allows are installed by name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import hermetic
import pytest
from bench_modules import load_bench

ROOT = hermetic.ROOT

# Run by a pytest of its own, under the repository's conftest.py.
PROBE = """
import os, subprocess, sys

def test_reads_a_machine_file():
    open("/usr/share/common-licenses/Apache-2.0", encoding="utf-8").read()

def test_lists_a_machine_folder():
    os.listdir("/usr/share")

def test_a_child_reads_a_machine_file():
    subprocess.run([sys.executable, "-c", "open('/usr/share/common-licenses/BSD').read()"], check=True)

def test_starts_a_program_not_listed():
    subprocess.run(["true"], check=True)

def test_stays_inside(tmp_path):
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    assert open(__file__, encoding="utf-8").read()
    subprocess.run([sys.executable, "-c", "import uts58; print(open(uts58.__file__).read()[:1])"], check=True)
"""


def test_the_audit_fails_what_reads_outside(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        f"import runpy\nfor k, v in runpy.run_path({str(ROOT / 'conftest.py')!r}).items():\n"
        "    if not k.startswith('__'):\n        globals()[k] = v\n",
        encoding="utf-8",
    )
    (tmp_path / "test_probe.py").write_text(PROBE, encoding="utf-8")
    # (without this process's log: the probe's own reads must not fail this test)
    env = {k: v for k, v in os.environ.items() if k not in (hermetic.LOG_VARIABLE, hermetic.ROOTS_VARIABLE)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = done.stdout + done.stderr
    failed = set(re.findall(r"FAILED \S*::(\w+)", out))
    assert failed == {
        "test_reads_a_machine_file",
        "test_lists_a_machine_folder",
        "test_a_child_reads_a_machine_file",
        "test_starts_a_program_not_listed",
    }, out[-4000:]
    assert "1 passed" in out, out[-4000:]
    assert "open: /usr/share/common-licenses/Apache-2.0" in out and "os.listdir: /usr/share" in out
    assert re.search(r"open: /usr/share/common-licenses/BSD  \(in the child", out)
    assert re.search(r"program: /\S+/true", out)


def test_the_hook_sees_each_kind_of_read() -> None:
    seen: list[tuple[str, str]] = []
    audit = hermetic.Audit(lambda event, path: seen.append((event, path)))
    audit("open", ("/usr/share/common-licenses/BSD", "r", 0))
    audit("open", (str(ROOT / "README.md"), "r", 0))
    audit("open", (3, "r", 0))  # (a descriptor: nothing to say)
    audit("os.scandir", ("/usr/share/doc",))
    audit("glob.glob", ("/usr/share/man/*", False))
    audit("subprocess.Popen", (None, ["/usr/bin/env", "x"], None, None))
    audit("subprocess.Popen", ("/usr/bin/chromium", ["/usr/bin/chromium"], None, None))
    audit("os.posix_spawn", (sys.executable, [sys.executable], {}))
    audit("compile", (b"", "x"))
    assert seen == [
        ("open", "/usr/share/common-licenses/BSD"),
        ("os.scandir", "/usr/share/doc"),
        ("glob.glob", "/usr/share/man/*"),
        ("program", "/usr/bin/env"),
    ]
    # What the C library and the kernel give every process is not a read of a test's.
    assert not hermetic.external("/proc/self/status", audit.roots)
    assert not hermetic.external("/dev", audit.roots) and hermetic.external("/devices", audit.roots)
    assert not hermetic.external(str(ROOT.parent / "shared" / "spec" / "tr58-2.txt"), audit.roots)
    assert hermetic.external("/usr/share/doc/python3.11/html/index.html", audit.roots)


def test_machine_inputs_are_installed_by_name() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # The documentation pages: the one list, installed by .ci/run and required there.
    assert "tests/doc-packages.txt" in ci and "UTS58_REQUIRE_DOC_PAGES=1" in ci
    names = hermetic.doc_packages()
    assert names and all(re.fullmatch(r"[a-z0-9][a-z0-9.+-]+", n) for n in names)
    # A page of those packages is allowed; the same folder's other packages are not.
    files = hermetic.doc_package_files()
    if files:
        assert hermetic.known(str(files[0])) == "documentation pages"
    assert hermetic.known("/usr/share/doc/valgrind/html/index.html") is None
    # Programs that .ci/run installs are installed there by name.
    for program, source in hermetic.PROGRAMS.items():
        if ".ci/run" in source:
            package = re.search(r"apt-get install ([\w.+-]+)|installs ([\w.+-]+)", source)
            assert package is not None, program
            assert (package[1] or package[2]) in ci, program
    # The bench's JS peers: pinned in the repository, stale ones not used.
    precision = load_bench("precision")
    assert (ROOT / "bench" / "node" / "package-lock.json").exists()
    assert hermetic.known(str(precision.node_dir() / "node_modules" / "autolinker" / "x.js")) == "the bench's JS peers"


def test_bench_corpora_take_only_named_packages(tmp_path: Path) -> None:
    realtext = load_bench("realtext")
    everyday = load_bench("everyday")
    paths = [
        Path("/usr/share/man/man1/ls.1.gz"),
        Path("/usr/share/man/ja/man1/ls.1.gz"),
        Path("/usr/share/doc/coreutils/changelog.Debian.gz"),
        Path("/usr/share/doc/coreutils/examples/x.txt"),
        Path("/usr/share/info/coreutils.info.gz"),
        Path("/usr/share/debian-reference/ch01.ja.html"),
        Path("/usr/share/debian-reference/index.html"),
        Path("/usr/share/doc/debian-handbook/html/fr-FR/sect.x.html"),
        Path("/etc/passwd"),
    ]
    got = sorted((rel, kind, lang) for rel, kind, lang, _, _ in realtext.sources(paths))
    assert got == sorted(
        [
            ("reference/ja/ch01.txt", "reference", "ja"),
            ("handbook/fr/sect.x.txt", "handbook", "fr"),
            ("doc/coreutils/changelog.Debian.txt", "changelog", "en"),
            ("info/coreutils.info.txt", "info", "en"),
            ("man/ja/man1/ls.1.txt", "man", "ja"),
            ("man/en/man1/ls.1.txt", "man", "en"),
        ]
    )
    fortunes = everyday.ROOT
    picked = everyday.sources([fortunes / "zippy", fortunes / "zippy.dat", fortunes / "pl" / "irc", Path("/etc/x")])
    assert picked == [fortunes / "pl" / "irc", fortunes / "zippy"]
    # Nothing of either is read from a folder: only from what dpkg lists.
    for module in (realtext, everyday):
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert not re.search(r"\.(rglob|iterdir|glob)\(", source.split("def sources", 1)[1].split("\ndef ", 1)[0])


def test_strace_lines_are_read() -> None:
    tool = load_tool()
    cwd = str(ROOT)
    line = 'openat(AT_FDCWD</work/x>, "a/b.txt", O_RDONLY|O_CLOEXEC) = 3</work/x/a/b.txt>'
    assert tool.parse(line, cwd) == ("openat", "/work/x/a/b.txt", True)
    line = 'newfstatat(AT_FDCWD</r>, "/usr/share/doc", {st_mode=S_IFDIR|0755, ...}, 0) = 0'
    assert tool.parse(line, cwd) == ("newfstatat", "/usr/share/doc", True)
    line = 'openat(AT_FDCWD</r>, "/etc/dask", O_RDONLY) = -1 ENOENT (No such file or directory)'
    assert tool.parse(line, cwd) == ("openat", "/etc/dask", False)
    line = "getdents64(3</usr/share/doc>, 0x55 /* 12 entries */, 32768) = 400"
    assert tool.parse(line, cwd) == ("getdents64", "/usr/share/doc", True)
    assert tool.parse('newfstatat(3<pipe:[1]>, "", {st_mode=S_IFIFO}, AT_EMPTY_PATH) = 0', cwd) is None
    assert tool.parse('execve("/usr/bin/make", ["make"], 0x7ff /* 30 vars */) = 0', cwd) == (
        "execve",
        "/usr/bin/make",
        True,
    )
    assert tool.parse("+++ exited with 0 +++", cwd) is None


def load_tool():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("external_reads", ROOT / "tools" / "external_reads.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("variable", ["DASK_CONFIG", "DASK_ROOT_CONFIG", "FSSPEC_CONFIG_DIR"])
def test_library_configuration_is_not_the_machines(variable: str) -> None:
    # (dask and fsspec would read /etc/dask, ~/.config/dask, ~/.config/fsspec)
    assert os.environ[variable].startswith(hermetic.allowed_roots())
