"""What a test may read, and the audit that fails a test reading anything
else (issue 35, D131).

A test's data comes from the repository, from ``../shared``, from what the
test generates (the temporary directory), from the virtual environment and
the standard library, or from a step of the project's own set-up that
installs it by name (``MACHINE_INPUTS``).  Everything else on the machine
is what someone happened to install, and a test that reads it passes on one
machine and fails on the next.

The audit is a ``sys.addaudithook`` hook (``install``): it sees every file a
Python process opens, every folder it lists and every program it starts.
The root ``conftest.py`` installs it in the test process and, through
``tests/hermetic_site/sitecustomize.py`` on ``PYTHONPATH``, in the Python
processes the tests start (the CLI, pip, Spark's workers), which append what
they saw to a log the test process reads after each test.  A read outside
the allowed places fails the test that made it.  What C code reads on its
own (the dynamic loader, OpenSSL's configuration, readline's terminfo) and
what other programs read (Chromium, Java) is not seen here:
``tools/external_reads.py`` lists those from an ``strace`` of the suite.

This module imports only the standard library: it is loaded into every
child Python process before anything else.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SITE = Path(__file__).resolve().parent / "hermetic_site"  # (its sitecustomize.py installs the hook in children)
LOG_VARIABLE = "UTS58_HERMETIC_LOG"
ROOTS_VARIABLE = "UTS58_HERMETIC_ROOTS"  # (the test process's allowed places, for its children)
# The Debian packages whose HTML pages tests/browser/test_html5_documents.py links;
# .ci/run installs them by name (one list, read by both).
DOC_PACKAGES_FILE = ROOT / "tests" / "doc-packages.txt"

# What every process needs to run, whatever the project: the loader and
# shared libraries, the kernel's files, the C library's configuration.
RUNTIME = (
    "/dev/",
    "/proc/",
    "/sys/",
    "/lib/",
    "/lib64/",
    "/usr/lib/",
    "/usr/lib64/",
    "/usr/libexec/",
    "/etc/ld.so.",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/host.conf",
    "/etc/hosts",
    "/etc/resolv.conf",
    "/etc/gai.conf",
    "/etc/mime.types",  # (mimetypes' table: the playground's file types come from its own map)
    "/usr/share/locale/",
    "/usr/share/zoneinfo/",
    "/etc/locale.alias",
)

# Programs the tests start, by the name they are looked up under, and what
# puts them on a machine of the project's kind.  A test starting another
# program fails: add it here with where it comes from, and have .ci/run
# install it by name when the image does not ship it.
PROGRAMS = {
    "chromium": ".ci/run (apt-get install chromium); tests skip without it, fail under UTS58_REQUIRE_BROWSER",
    "java": "the image (openjdk-17); .ci/run installs default-jre-headless where it is missing (Spark, D126)",
    "node": "the image (Node.js 20); tests skip without it",
    "make": "the image (GNU make, the README's first command)",
    "cc": "the image (gcc, building the C accelerator)",
    "gcc": "the image (gcc, building the C accelerator)",
    "x86_64-linux-gnu-gcc": "the image (gcc, building the C accelerator)",
    "aarch64-linux-gnu-gcc": "the image (gcc, building the C accelerator)",
    "git": "the image (git, which the clone came with)",
    "dpkg-query": "the image (Debian's package database: the named documentation packages' files)",
    "sh": "the image",
    "bash": "the image",
    "uname": "the image (platform.uname, asked by pip and Spark)",
    "ldconfig": "the image (ctypes.util.find_library)",
    "lsb_release": "the image (pip asks it, for its user agent, in test_wheel's installs)",
    "rustc": "the image (pip asks its version, for its user agent, in test_wheel's installs)",
}

# What the system says it is (os-release; distro lists /etc for its
# *-release files): pip reads it for its user agent.  No result depends on it.
IDENTITY = frozenset({"/etc", "/etc/os-release", "/etc/debian_version", "/etc/lsb-release", "/etc/system-release"})


def _bench_node() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "uts58-bench", "node") + "/"


def _pip_configuration(path: str) -> bool:
    home = os.path.expanduser("~")
    return path in (
        "/etc/pip.conf",
        f"{home}/.pip/pip.conf",
        f"{home}/.config/pip/pip.conf",
        # Where its cache does not exist yet (a fresh machine), pip opens the
        # nearest folder above it for its owner (check_path_owner): no content.
        home,
        f"{home}/.cache",
    ) or (path + "/").startswith(("/etc/xdg/pip/", f"{home}/.cache/pip/", "/opt/pypi"))


def _absent_fallback(path: str) -> bool:
    # mypy's fallback stub folder (mypy/modulefinder.py): on its search path,
    # so allowed only where it does not exist (where it does, it could change
    # what test_finder's mypy run says).
    return path == "/usr/local/lib/mypy" and not os.path.exists(path)


# Machine paths a test may read because a step of the project's own set-up
# installs them by name: (name, test of a path, how it gets there).
MACHINE_INPUTS: list[tuple[str, Callable[[str], bool], str]] = [
    (
        "documentation pages",
        lambda path: path in _doc_files(),
        "the HTML files dpkg lists for the packages of tests/doc-packages.txt, which .ci/run installs by name",
    ),
    (
        "the bench's JS peers",
        lambda path: path.startswith(_bench_node()),
        "installed by make bench (bench/precision.py setup) at the versions bench/node/package-lock.json pins;"
        " the test skips when they are absent or not those",
    ),
    (
        "pdb's commands file",
        lambda path: path == os.path.join(os.path.expanduser("~"), ".pdbrc"),
        "read by the debugger that doctest makes for each example; run only at a breakpoint, which no test has",
    ),
    ("mypy's fallback stubs, absent", _absent_fallback, "looked for by mypy, absent on the image"),
    (
        "the system's identity",
        lambda path: path in IDENTITY,
        "the image's /etc/os-release and the like, which pip reads for its user agent",
    ),
    (
        "pip's configuration and package index",
        _pip_configuration,
        "the image's pip set-up, which make test's own installs use too (test_wheel and test_install run pip)",
    ),
]


@functools.cache
def _doc_files() -> frozenset[str]:
    return frozenset(str(p) for p in doc_package_files())


def doc_packages() -> list[str]:
    """The names in tests/doc-packages.txt."""
    lines = DOC_PACKAGES_FILE.read_text(encoding="utf-8").splitlines()
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def doc_package_files() -> list[Path]:
    """The files dpkg lists for the documentation packages (none without dpkg)."""
    from bench_modules import load_bench  # (not at the top: a child process never needs it)

    return load_bench("debian").files(doc_packages())


def allowed_roots() -> tuple[str, ...]:
    """The places a test may read, each ending in ``/``: in a child process,
    those of the test process that started it (a child running another
    Python must not widen them to its own prefix)."""
    inherited = os.environ.get(ROOTS_VARIABLE)
    if inherited:
        return tuple(json.loads(inherited))
    places = {
        ROOT,
        SHARED,
        Path(sys.prefix),
        Path(sys.base_prefix),
        Path(sysconfig.get_paths()["stdlib"]),
        Path(tempfile.gettempdir()),
    }
    roots = set()
    for place in places:
        for form in (str(place), os.path.realpath(place)):
            roots.add(form.rstrip("/") + "/")
    return tuple(sorted(roots))


def external(path: str, roots: tuple[str, ...]) -> bool:
    """Whether ``path`` (absolute, normalised) is outside what any process may read."""
    return not (path + "/").startswith(roots) and not (path + "/").startswith(RUNTIME)


def known(path: str) -> str | None:
    """The name of the MACHINE_INPUTS entry that allows ``path``, or None."""
    for name, test, _ in MACHINE_INPUTS:
        if test(path):
            return name
    return None


# --- the hook ---------------------------------------------------------------------------------------------------------

_WATCHED = frozenset(
    {"open", "os.listdir", "os.scandir", "glob.glob", "glob.glob/2", "subprocess.Popen", "os.posix_spawn", "os.exec"}
)
_PROGRAM_EVENTS = frozenset({"subprocess.Popen", "os.posix_spawn", "os.exec"})


def _path_of(value: object) -> str | None:
    if isinstance(value, int) or value is None:
        return None  # (a descriptor, or os.listdir() of the current folder)
    try:
        text = os.fsdecode(value)  # type: ignore[arg-type]
    except TypeError:
        return None
    return os.path.normpath(os.path.join(os.getcwd(), text))


class Audit:
    """The reads outside the allowed places, as they happen: (event, path)."""

    def __init__(self, sink: Callable[[str, str], None]) -> None:
        self.roots = allowed_roots()
        self.sink = sink
        self.on = True

    def __call__(self, event: str, args: tuple[object, ...]) -> None:
        if event not in _WATCHED or not self.on:
            return
        self.on = False  # (what the check itself does is not audited)
        try:
            if event in _PROGRAM_EVENTS:
                program = args[0]
                if program is None:  # (subprocess.Popen without executable=: the first argument)
                    argv = args[1]
                    program = argv if isinstance(argv, (str, bytes, os.PathLike)) else next(iter(argv), None)  # type: ignore[call-overload]
                if program is None:
                    return
                name = os.fsdecode(program)  # type: ignore[arg-type]
                if "/" not in name:  # (looked up on PATH)
                    name = shutil.which(name) or name
                path = _path_of(name) if "/" in name else name
                if path is not None and external(path, self.roots) and Path(path).name not in PROGRAMS:
                    self.sink("program", path)
                return
            path = _path_of(args[0])
            if path is not None and external(path, self.roots):
                self.sink(event, path)
        except Exception:  # (an audit hook must never break the code it watches)
            pass
        finally:
            self.on = True


_PID_VARIABLE = "UTS58_HERMETIC_PID"  # (the test process: it has its hook, and no child's)


def install(sink: Callable[[str, str], None]) -> Audit:
    audit = Audit(sink)
    sys.addaudithook(audit)
    os.environ[_PID_VARIABLE] = str(os.getpid())
    return audit


def install_child(log: str) -> None:
    """In a child process: append what the hook sees to ``log``, one JSON line each."""
    if os.environ.get(_PID_VARIABLE) == str(os.getpid()):
        return  # (sitecustomize imported again in the test process itself)
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    pid = os.getpid()
    argv0 = sys.argv[0] if sys.argv else ""

    def sink(event: str, path: str) -> None:
        os.write(fd, (json.dumps([event, path, pid, argv0]) + "\n").encode())

    install(sink)


class ChildLog:
    """What the child processes appended to the log since the last ``take``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        path.touch()

    def take(self) -> list[tuple[str, str]]:
        with self.path.open("rb") as f:
            f.seek(self.offset)
            data = f.read()
        end = data.rfind(b"\n") + 1  # (a line still being written waits for the next take)
        self.offset += end
        found = []
        for line in data[:end].splitlines():
            event, path, _pid, argv0 = json.loads(line)
            found.append((event, f"{path}  (in the child {Path(argv0).name or 'python'})"))
        return found


def unexpected(found: Iterable[tuple[str, str]]) -> list[str]:
    """The reads that no MACHINE_INPUTS entry allows, as lines of a message."""
    out = []
    for event, where in found:
        path = where.split("  (in the child", 1)[0]
        if event == "program" or known(path) is None:
            out.append(f"{event}: {where}")
    return sorted(set(out))
