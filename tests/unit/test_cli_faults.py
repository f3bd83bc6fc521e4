"""The command line under faults (D132): ``-o`` naming a descriptor, closed
standard streams, a reader that goes away, termination signals.  Each case
runs ``python -m uts58`` in a child process, on temporary files, with a
timeout: a case that hangs fails."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from uts58.cli.io import descriptor

TIMEOUT = 60
UTS58 = [sys.executable, "-m", "uts58"]
LINKED = 'see <a href="https://example.com/">example.com</a> today\n'


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` in sh, where ``uts58`` is this Python's ``-m uts58``."""
    env = {**os.environ, "UTS58": " ".join(UTS58)}
    return subprocess.run(
        ["sh", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    f = tmp_path / "f.txt"
    f.write_text("see example.com today\n", encoding="utf-8")
    return f


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "-"])
def test_output_naming_standard_output_appends(tmp_path: Path, sample: Path, name: str) -> None:
    """``-o /dev/stdout >> log`` appends to ``log``: before D132 the writer
    followed the link to ``log`` and renamed a temporary file over it."""
    if name.startswith("/proc") and not Path("/proc/self/fd").is_dir():
        pytest.skip("no /proc on this system")
    log = tmp_path / "log"
    log.write_text("kept\n", encoding="utf-8")
    done = shell(f"$UTS58 linkify f.txt -o {name} >> log", tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert log.read_text(encoding="utf-8") == "kept\n" + LINKED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt", "log"]  # no temporary file beside it


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "-"])
def test_output_naming_standard_output_in_a_pipe(tmp_path: Path, sample: Path, name: str) -> None:
    done = shell(f"$UTS58 linkify f.txt -o {name} | cat", tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, LINKED, "")


def test_output_naming_another_descriptor(tmp_path: Path, sample: Path) -> None:
    done = shell("$UTS58 linkify f.txt -o /dev/fd/3 3>> log", tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert (tmp_path / "log").read_text(encoding="utf-8") == LINKED
    done = shell("$UTS58 linkify f.txt -o /dev/fd/7", tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "uts58 linkify: /dev/fd/7: Bad file descriptor\n"


def test_descriptor_names() -> None:
    assert descriptor("/dev/stderr") == 2 and descriptor("/dev/fd/12") == 12
    assert descriptor("/dev/null") is None and descriptor("fd/1") is None
    if Path("/proc/self/fd").is_dir():
        assert descriptor(f"/proc/{os.getpid()}/fd/4") == 4


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("$UTS58 linkify f.txt >&-", "uts58 linkify: <stdout>: standard output is closed\n"),
        ("$UTS58 detect f.txt >&-", "uts58 detect: <stdout>: standard output is closed\n"),
        ("$UTS58 linkify <&-", "uts58 linkify: <stdin>: standard input is closed\n"),
        ("$UTS58 detect - <&-", "uts58 detect: <stdin>: standard input is closed\n"),
        ("$UTS58 --version >&-", "uts58: standard output is closed\n"),
        ("$UTS58 serve --port 0 -q >&-", "uts58 serve: <stdout>: standard output is closed\n"),
    ],
)
def test_closed_standard_streams(tmp_path: Path, sample: Path, command: str, message: str) -> None:
    done = shell(command, tmp_path)
    assert (done.returncode, done.stderr) == (2, message)


def test_closed_standard_error_keeps_the_status(tmp_path: Path, sample: Path) -> None:
    assert shell("$UTS58 linkify f.txt 2>&-", tmp_path).stdout == LINKED
    done = shell("$UTS58 linkify missing.txt 2>&-", tmp_path)
    assert done.returncode == 2 and done.stdout == ""


BIG_TEXT = "see example.com and more words here\n" * 60_000


@pytest.mark.parametrize(
    "argv",
    [["linkify"], ["linkify", "--html"], ["linkify", "--markdown"], ["linkify", "--standalone"], ["detect"],
     ["detect", "--json"], ["linkify", "--html", "--html-as", "document"]],
    ids=lambda argv: " ".join(argv),
)  # fmt: skip
def test_a_reader_that_goes_away(tmp_path: Path, argv: list[str]) -> None:
    """Every mode reports the broken pipe with status 1 and no traceback
    (``--html`` wrote its output in one call, whose rest CPython dropped)."""
    src = tmp_path / "big.txt"
    src.write_text(("<p>" if "--html" in argv else "") + BIG_TEXT, encoding="utf-8")
    child = subprocess.Popen([*UTS58, *argv, str(src)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.read(10)
    child.stdout.close()  # the reader goes away
    err = child.stderr.read()
    assert child.wait(TIMEOUT) == 1
    assert err == b""


def _start_writing(tmp_path: Path, **popen: object) -> tuple[subprocess.Popen[bytes], Path]:
    src = tmp_path / "big.txt"
    src.write_text(BIG_TEXT * 4, encoding="utf-8")
    target = tmp_path / "out.html"
    target.write_text("before\n", encoding="utf-8")
    child = subprocess.Popen([*UTS58, "linkify", str(src), "-o", str(target)], stderr=subprocess.PIPE, **popen)  # type: ignore[call-overload]
    deadline = time.monotonic() + TIMEOUT
    while not list(tmp_path.glob(".uts58-*.tmp")):  # the temporary file exists: the writing is under way
        assert child.poll() is None, "the command ended before its temporary file was seen"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    return child, target


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGINT])
def test_termination_signals_remove_the_temporary_file(tmp_path: Path, signum: int) -> None:
    child, target = _start_writing(tmp_path)
    child.send_signal(signum)
    status = child.wait(TIMEOUT)
    assert child.stderr is not None
    err = child.stderr.read().decode()
    if signum == signal.SIGINT:
        assert (status, err) == (130, "uts58 linkify: interrupted\n")
    else:
        assert (status, err) == (-signum, "")  # ended by the signal, as the shell expects
    assert target.read_text(encoding="utf-8") == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt", "out.html"]


def test_an_ignored_hangup_stays_ignored(tmp_path: Path) -> None:
    """Under ``nohup`` (SIGHUP ignored) a hangup does not stop the command."""
    child, target = _start_writing(tmp_path, preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    child.send_signal(signal.SIGHUP)
    assert child.wait(TIMEOUT) == 0
    assert target.read_text(encoding="utf-8").startswith('see <a href="https://example.com/">')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt", "out.html"]
