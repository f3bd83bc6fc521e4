#!/usr/bin/env python3
"""Which files a command reads outside the places a test may read (issue 35).

    python tools/external_reads.py run OUT -- make test
    python tools/external_reads.py report OUT [--all]

``run`` runs the command under ``strace -f`` (one log per process in
``OUT``), tracing the calls that read or look at a path: ``open``/``openat``,
``execve``, ``getdents64`` (a directory listed), ``stat`` and ``access``
(a path looked for).  ``report`` reads the logs and prints, per program and
per folder, every path outside

* the repository, ``../shared``, the virtual environment, the standard
  library and the temporary directory (what a test may read), and
* what the interpreter and the programs the tests start need to run: the
  dynamic loader and shared libraries, ``/dev``, ``/proc``, ``/sys`` and the
  C library's own files in ``/etc`` (``RUNTIME`` of tests/hermetic.py).

What is left is what a test or bench step reads from the machine: each must
be in ``tests/hermetic.py``'s list, with what makes it reproducible, and
the suite's audit hook fails a test that reads one that is not (that hook
sees the test process and the Python processes it starts; this tool sees
every process, the browser and the JVM included).  Paths read only by a
program the tests start (Chromium, Java, Node.js, make, a compiler) are
shown apart with the program's name: the program's own installation.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import hermetic  # (the allowed places and RUNTIME: one list, the audit hook's)

ROOT = hermetic.ROOT

_CALLS = "openat|open|execve|getdents64|newfstatat|stat|lstat|statx|access|faccessat2?"
_CALL = re.compile(rf"^(?P<call>{_CALLS})\((?P<args>.*)\) += (?P<ret>.*)$")
_DIRFD = re.compile(r"^(?:AT_FDCWD|\d+)<(?P<dir>[^>]*)>, ")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_FD_PATH = re.compile(r"^\d+<(?P<path>[^>]*)>")


def allowed_roots() -> list[str]:
    """The places a test may read (tests/hermetic.py), as seen from here."""
    return list(hermetic.allowed_roots())


def _unescape(text: str) -> str:
    return bytes(text, "latin-1").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")


def parse(line: str, cwd: str) -> tuple[str, str, bool] | None:
    """(call, absolute path, succeeded) of a traced line, or None."""
    m = _CALL.match(line)
    if m is None:
        return None
    call, args, ret = m["call"], m["args"], m["ret"]
    ok = not ret.startswith("-1")
    if call == "getdents64":
        fd = _FD_PATH.match(args)
        return (call, fd["path"], ok) if fd and fd["path"].startswith("/") else None
    base = cwd
    dirfd = _DIRFD.match(args)
    if dirfd is not None:
        base = dirfd["dir"]
        args = args[dirfd.end() :]
    s = _STRING.match(args)
    if s is None:
        return None
    path = _unescape(s[1])
    if not path:  # (AT_EMPTY_PATH: a descriptor already open)
        return None
    if not path.startswith("/"):
        path = os.path.normpath(os.path.join(base, path))
    return call, path, ok


def read_logs(out: Path) -> dict[int, tuple[str, list[tuple[str, str, bool]]]]:
    """{pid: (program, [(call, path, succeeded)])} of the logs in ``out``."""
    procs: dict[int, tuple[str, list[tuple[str, str, bool]]]] = {}
    for log in sorted(out.glob("trace.*")):
        pid = int(log.suffix[1:])
        program = "?"
        events: list[tuple[str, str, bool]] = []
        cwd = str(ROOT)
        with log.open(encoding="latin-1") as lines:
            for line in lines:
                event = parse(line.rstrip("\n"), cwd)
                if event is None:
                    continue
                if event[0] == "execve" and event[2]:
                    program = event[1]
                events.append(event)
        procs[pid] = (program, events)
    return procs


def external(path: str, roots: list[str]) -> bool:
    return hermetic.external(path, tuple(roots))


def _folder(path: str, depth: int = 4) -> str:
    return "/".join(path.split("/")[: depth + 1])


def report(out: Path, show_all: bool = False) -> str:
    roots = allowed_roots()
    python = {os.path.realpath(sys.executable), os.path.realpath(sys.base_prefix)}
    by_program: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for program, events in read_logs(out).values():
        real = os.path.realpath(program)
        who = "python" if any(real.startswith(p) for p in python) or "python" in Path(program).name else program
        for call, path, ok in events:
            if call == "execve" or not external(path, roots):
                continue
            kind = {"getdents64": "listed", "openat": "read", "open": "read"}.get(call, "looked for")
            if not ok:
                kind = "looked for"
            by_program[who][kind].add(path)
    lines = [f"allowed: {', '.join(roots)}", ""]
    for who in sorted(by_program, key=lambda w: (w != "python", w)):
        lines.append(f"## {who}")
        for kind in ("read", "listed", "looked for"):
            paths = by_program[who].get(kind, set())
            if not paths:
                continue
            folders: dict[str, int] = defaultdict(int)
            for path in paths:
                folders[path if show_all else _folder(path)] += 1
            lines.append(f"{kind}: {len(paths)} paths")
            lines += [f"  {n:6}  {folder}" for folder, n in sorted(folders.items())]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a command under strace -f")
    run.add_argument("out", type=Path)
    run.add_argument("cmd", nargs=argparse.REMAINDER)
    rep = sub.add_parser("report", help="the external paths the logs show")
    rep.add_argument("out", type=Path)
    rep.add_argument("--all", action="store_true", help="every path, not a count per folder")
    args = parser.parse_args(argv)
    if args.command == "run":
        cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
        args.out.mkdir(parents=True, exist_ok=True)
        calls = "openat,open,execve,getdents64,newfstatat,stat,lstat,statx,access,faccessat,faccessat2"
        trace = ["strace", "-f", "-ff", "-qq", "-y", "-s", "4096", "-e", f"trace={calls}", "-e", "signal=none"]
        return subprocess.call([*trace, "-o", str(args.out / "trace"), *cmd])
    print(report(args.out, args.all))
    return 0


if __name__ == "__main__":
    sys.exit(main())
