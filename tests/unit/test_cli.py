"""The command line: format, props, conformance; errors and exit codes; standard input; -o FILE."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uts58 import Policy, find_links, linkify
from uts58.cli.main import main
from uts58.conformance import mark_links


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "format", "https://en.wikipedia.org/wiki/Anton%C3%ADn_Dvo%C5%99%C3%A1k", "john doe@example.com"
    )
    assert code == 0 and err == ""
    assert out.splitlines() == ["https://en.wikipedia.org/wiki/Antonín_Dvořák", '"john doe"@example.com']


def test_format_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "urls.txt"
    f.write_text("# comment\nabc.com/path1./path2.\n\nx@xn--bcher-kva.de\n", encoding="utf-8")
    code, out, _ = run(capsys, "format", "--file", str(f))
    assert code == 0
    assert out.splitlines() == ["abc.com/path1./path2%2E", "x@bücher.de"]


def test_format_reports_bad_items_and_continues(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "format", "javascript:alert(1)", "example.com/a.")
    assert code == 1
    assert out == "example.com/a%2E\n"
    assert "scheme 'javascript'" in err


def test_format_file_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    good = b"example.com/\xc3\xa9\nexample.com/"
    bad.write_bytes(good + b"\xff\n")
    code, out, err = run(capsys, "format", "--file", str(bad))
    assert code == 2 and out == ""
    assert err.strip() == f"uts58 format: {bad}: invalid UTF-8 at byte offset {len(good)} (invalid start byte)"
    code, out, err = run(capsys, "format", "--file", str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt: No such file or directory" in err
    code, out, err = run(capsys, "format", "--file", str(tmp_path))
    assert code == 2 and "Is a directory" in err
    code, out, err = run(capsys, "format")
    assert code == 2 and "give URLs" in err


def test_props(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "props", "a.)")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4
    assert lines[1].split()[:5] == ["U+0061", "a", "Include", "-", "Yes"]
    assert lines[2].split()[:5] == ["U+002E", ".", "Soft", "-", "Yes"]
    assert lines[3].split()[:6] == ["U+0029", ")", "Close", "U+0028", "(", "No"]


def test_conformance(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "conformance", "--verbose")
    assert code == 0
    assert "18.0.0 LinkFormattingTest (structure → format_parts): 55 passed, 0 failed\n" in out
    assert "17.0.0 LinkFormattingTest (structure → format_parts): 45 passed, 0 failed, 10 documented exceptions" in out
    # the minimal forms (D11, D12), then the fully escaped ones of 17.0.0 and 18.0.0 (D122)
    assert out.count("excused line") == 10 + 15 + 5 + (29 + 29 + 24) + (12 + 12 + 7)
    assert " FAIL " not in out


def test_unknown_unicode_version_is_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--unicode-version", "9.9.9", "props", "a"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "uts58", "format", "xn--bcher-kva.de/b%C3%BCcher"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert done.returncode == 0 and done.stdout == "bücher.de/bücher\n"


def test_detect_marks_links(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "in.txt"
    f.write_text("See example.com/αβγ. Mail x@example.org!\n", encoding="utf-8")
    code, out, err = run(capsys, "detect", str(f))
    assert code == 0 and err == ""
    assert out == "See ⸠example.com/αβγ⸡. Mail ⸠x@example.org⸡!\n"
    code, out, _ = run(capsys, "detect", "--only", "emails", str(f))
    assert out == "See example.com/αβγ. Mail ⸠x@example.org⸡!\n"


def test_detect_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "in.txt"
    f.write_text("bücher.de/straße x@xn--bcher-kva.de", encoding="utf-8")
    code, out, _ = run(capsys, "detect", "--json", str(f))
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert records == [
        {
            "file": str(f),  # D88: every record names its input
            "start": 0,
            "end": 16,
            "kind": "url",
            "text": "bücher.de/straße",
            "href": "https://xn--bcher-kva.de/stra%C3%9Fe",
            "display": "bücher.de/straße",
        },
        {
            "file": str(f),
            "start": 17,
            "end": 35,
            "kind": "email",
            "text": "x@xn--bcher-kva.de",
            "href": "mailto:x@xn--bcher-kva.de",
            "display": "x@bücher.de",
        },
    ]


def test_detect_stdin_and_bad_input() -> None:
    def detect(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "uts58", "detect", *args], input=data, capture_output=True, check=False
        )

    done = detect(b"a example.com b")
    assert done.returncode == 0 and done.stdout.decode() == "a ⸠example.com⸡ b"
    done = detect(b"ok example.com \xe9 tail")
    assert done.returncode == 2 and done.stdout == b""
    assert (
        done.stderr.decode().strip()
        == "uts58 detect: <stdin>: invalid UTF-8 at byte offset 15 (invalid continuation byte)"
    )


def test_detect_undecodable_file_prints_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("example.com", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"x" * 100 + b"\x80")
    code, out, err = run(capsys, "detect", str(good), str(bad))
    assert code == 2 and out == ""
    assert err.strip() == f"uts58 detect: {bad}: invalid UTF-8 at byte offset 100 (invalid start byte)"


def test_linkify_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "in.txt"
    f.write_text("see <b> example.com/a_(b) and helpers.py\n", encoding="utf-8")
    code, out, _ = run(capsys, "linkify", str(f))
    assert code == 0
    assert out == 'see &lt;b&gt; <a href="https://example.com/a_(b)">example.com/a_(b)</a> and helpers.py\n'
    code, out, _ = run(capsys, "linkify", "--markdown", "--policy", "none", "--preset", "all", str(f))
    # The Markdown itself is linkify's (tests/unit/test_linkify.py); the command passes the options on.
    text = "see <b> example.com/a_(b) and helpers.py\n"
    assert out == linkify(text, format="markdown", policy=Policy.none(), preset="all") and out.count("](") == 2


def test_check_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "https://example.com/a", "раураl.com")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "https://example.com/a: ok (url, href https://example.com/a)"
    assert lines[1] == "раураl.com: rejected by the default policy"
    assert lines[2].startswith("  mixed-script: ") and lines[3].startswith("  confusable: ")
    code, out, _ = run(capsys, "check", "--policy", "none", "раураl.com")
    assert code == 0 and out.startswith("раураl.com: ok")
    code, out, _ = run(capsys, "check", "example.com/a b")
    assert code == 1 and out == "example.com/a b: not a link (detection finds 'example.com/a')\n"


def test_detect_jobs_blocks_and_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = [f"line {k}: see bücher{k}.de/straße and x{k}@example.com.\n" for k in range(3000)]
    big = tmp_path / "big.txt"
    big.write_text("".join(lines), encoding="utf-8")
    small = tmp_path / "small.txt"
    small.write_text("only example.org here\n", encoding="utf-8")
    code, whole, _ = run(capsys, "detect", str(big))
    assert code == 0 and whole.count("⸠") == 6000
    code, parallel, _ = run(capsys, "detect", "--jobs", "2", "--block-size", "4096", str(big))
    assert parallel == whole  # many blocks, two processes, same output
    code, out, _ = run(capsys, "detect", "--json", "-j", "2", "--block-size", "4096", str(big), str(small))
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 6001 and records[-1]["file"] == str(small)
    text = big.read_text(encoding="utf-8")
    for record in records[:-1]:
        assert text[record["start"] : record["end"]] == record["text"]  # offsets into the whole file
    assert records[-1]["start"] == 5 and records[-1]["text"] == "example.org"


def test_detect_checks_every_file_before_writing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("example.com\n" * 1000, encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes("é\n".encode() * 5000 + b"\xc3(")
    code, out, err = run(capsys, "detect", "-j", "2", str(good), str(bad))
    assert code == 2 and out == ""
    assert err.strip() == f"uts58 detect: {bad}: invalid UTF-8 at byte offset 15000 (invalid continuation byte)"
    code, out, err = run(capsys, "detect", str(tmp_path / "nope.txt"))
    assert code == 2 and out == "" and "No such file or directory" in err
    code, out, err = run(capsys, "detect", "--jobs", "0", str(good))
    assert code == 2 and "--jobs must be at least 1" in err
    code, out, err = run(capsys, "detect", "--block-size", "-5", str(good))
    assert code == 2 and "--block-size must be at least 1" in err


def test_progress_bar_only_on_a_terminal() -> None:
    import io

    from uts58.cli.io import progress as _progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    pipe = io.StringIO()
    update = _progress(100, pipe)
    update(100)
    update(None)
    assert pipe.getvalue() == ""
    term = Terminal()
    update = _progress(100, term)
    update(60)
    update(40)
    update(None)
    assert "uts58 detect" in term.getvalue() and "100/100" in term.getvalue()


def test_output_file_is_written_atomically(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("see example.com\n", encoding="utf-8")
    out = tmp_path / "out.html"
    code, stdout, _ = run(capsys, "linkify", str(src), "-o", str(out))
    assert code == 0 and stdout == ""
    assert out.read_text(encoding="utf-8") == 'see <a href="https://example.com/">example.com</a>\n'
    # A failing run leaves the previous file as it was, and no temporary file.
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok \xff")
    code, _, err = run(capsys, "linkify", str(src), str(bad), "-o", str(out))
    assert code == 2 and "invalid UTF-8 at byte offset 3" in err
    assert out.read_text(encoding="utf-8") == 'see <a href="https://example.com/">example.com</a>\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "in.txt", "out.html"]
    code, _, err = run(capsys, "detect", str(src), "-o", str(tmp_path / "no" / "dir" / "x.txt"))
    assert code == 2 and "No such file or directory" in err


def test_interrupt_leaves_no_partial_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "in.txt"
    src.write_text("a.com\n" * 100, encoding="utf-8")
    out = tmp_path / "out.txt"
    import uts58.cli.main

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(uts58.cli.detect, "mark_links", interrupted)
    code, stdout, err = run(capsys, "detect", str(src), "-o", str(out))
    assert code == 130 and stdout == "" and err.strip() == "uts58 detect: interrupted"
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_errors_replace(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"see example.com \xff and x@example.org\n")
    code, out, _ = run(capsys, "detect", "--errors", "replace", str(bad))
    assert code == 0 and out == "see ⸠example.com⸡ \ufffd and ⸠x@example.org⸡\n"
    code, out, _ = run(capsys, "linkify", "--errors", "replace", str(bad))
    assert code == 0 and "\ufffd" in out and out.count("<a ") == 2


def test_unreadable_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    real_open = builtins.open
    locked = tmp_path / "locked.txt"
    locked.write_text("x", encoding="utf-8")

    def guarded_open(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == str(locked):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", guarded_open)
    code, out, err = run(capsys, "linkify", str(locked))
    assert code == 2 and out == ""
    assert err == f"uts58 linkify: {locked}: Permission denied\n"


def test_detect_same_file_twice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("x example.com y\n" * 500, encoding="utf-8")
    code, out, _ = run(capsys, "detect", "--json", "--block-size", "1000", str(f), str(f))
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(records) == 1000
    assert [(r["start"], r["end"]) for r in records[:500]] == [(r["start"], r["end"]) for r in records[500:]]


# --------------------------------------------------------------------------
# Standard input, streamed


def feed(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


SAMPLE = (
    "See bücher.de/straße, x@example.com and https://ja.wikipedia.org/wiki/アルベルト)アインシュタイン.\n"
    "helpers.py <b>&amp;</b> example.com/a_(b) " + "long" * 40 + ".example.org/path\n"
    "\u3000全角スペース example.org\tand\r\nend https://example.com/α"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["detect"],
        ["detect", "--json"],
        ["detect", "--only", "emails"],
        ["linkify"],
        ["linkify", "--markdown", "--policy", "none"],
    ],
)
@pytest.mark.parametrize("read_size", [1, 7, 64, 1 << 18])
def test_stdin_output_equals_file_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str], read_size: int
) -> None:
    import uts58.cli.main

    data = SAMPLE.encode()
    f = tmp_path / "in.txt"
    f.write_bytes(data)
    code, from_file, _ = run(capsys, *argv, str(f))
    assert code == 0 and from_file
    # Reads of a few bytes cut characters, links and lines anywhere.
    monkeypatch.setattr(uts58.cli.io, "READ_SIZE", read_size)
    for name in ([], ["-"]):
        feed(monkeypatch, data)
        code, from_stdin, err = run(capsys, *argv, *name)
        if "--json" in argv:  # D88: the records name their input, "-" for standard input
            from_stdin = from_stdin.replace('{"file": "-", ', '{"file": ' + json.dumps(str(f)) + ", ")
        assert code == 0 and err == "" and from_stdin == from_file
    # And what the library gives for the whole text at once.
    if argv[0] == "linkify":
        markdown, policy = "--markdown" in argv, Policy.none() if "none" in argv else None
        assert from_file == linkify(SAMPLE, format="markdown" if markdown else "html", policy=policy)
    elif "--json" in argv:
        expected = [{"file": str(f), **link.as_dict()} for link in find_links(SAMPLE)]
        assert [json.loads(line) for line in from_file.splitlines()] == expected
    elif "--only" not in argv:
        assert from_file == mark_links(SAMPLE, ((link.start, link.end) for link in find_links(SAMPLE)))


def test_dash_mixed_with_files(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a = tmp_path / "a.txt"
    a.write_text("first a.com\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text("last c.com\n", encoding="utf-8")
    feed(monkeypatch, b"from stdin b.org x@y.com\n")
    code, out, _ = run(capsys, "linkify", str(a), "-", str(b))
    assert code == 0
    assert out == linkify("first a.com\n") + linkify("from stdin b.org x@y.com\n") + linkify("last c.com\n")
    feed(monkeypatch, b"from stdin b.org x@y.com\n")
    code, out, _ = run(capsys, "detect", "--json", "-j", "2", str(a), "-", str(b), str(a))
    records = [(r["file"], r["start"], r["text"]) for r in map(json.loads, out.splitlines())]
    assert records == [
        (str(a), 6, "a.com"),
        ("-", 11, "b.org"),
        ("-", 17, "x@y.com"),
        (str(b), 5, "c.com"),
        (str(a), 6, "a.com"),
    ]
    # Named files are checked before anything is written, also with standard input among them.
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff")
    feed(monkeypatch, b"a.com")
    code, out, err = run(capsys, "detect", "-", str(bad))
    assert code == 2 and out == "" and "bad.txt: invalid UTF-8 at byte offset 0" in err


@settings(max_examples=200)
@given(
    st.lists(st.sampled_from([b"a", b" ", b"x.com", b"\xc3\xa9", b"\xe2\x80", b"\xac", b"\xff", b"\xf0\x9f\x98"])),
    st.integers(1, 9),
)
def test_stdin_decoding_in_reads_is_decoding_at_once(parts: list[bytes], read_size: int) -> None:
    """Offsets of undecodable bytes and U+FFFD replacements do not depend on where reads cut."""
    import uts58.cli.main

    data = b"".join(parts)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(uts58.cli.io, "READ_SIZE", read_size)
        mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        replaced = "".join(uts58.cli.io.pieces_of("-", "replace"))
        assert replaced == data.decode("utf-8", "replace")
        mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            with pytest.raises(uts58.cli.io.CLIError, match=f"<stdin>: invalid UTF-8 at byte offset {exc.start} "):
                "".join(uts58.cli.io.pieces_of("-", "strict"))
        else:
            assert "".join(uts58.cli.io.pieces_of("-", "strict")) == data.decode()


def test_undecodable_stdin_far_in(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uts58.cli.main

    monkeypatch.setattr(uts58.cli.io, "READ_SIZE", 1000)
    good = "é example.com\n".encode() * 1000
    out = tmp_path / "out.html"
    out.write_text("before", encoding="utf-8")
    for command in ("detect", "linkify"):
        feed(monkeypatch, good + b"\xe2\x82(tail")
        code, stdout, err = run(capsys, command, "-o", str(out))
        assert code == 2 and stdout == ""
        assert (
            err == f"uts58 {command}: <stdin>: invalid UTF-8 at byte offset {len(good)} (invalid continuation byte)\n"
        )
        assert out.read_text(encoding="utf-8") == "before"  # untouched: no partial output
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out.html"]  # no temporary file left


class Generated(io.RawIOBase):
    """``size`` bytes of ``line`` repeated, made as they are read."""

    def __init__(self, line: bytes, size: int) -> None:
        self.line, self.left, self.pos, self.reads = line, size, 0, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.left)
        start = self.pos % len(self.line)
        repeated = self.line * (2 + n // len(self.line))
        buffer[:n] = repeated[start : start + n]
        self.pos += n
        self.left -= n
        self.reads += 1
        return n


class Sink(io.TextIOBase):
    """Counts what is written, and the links in it (a "</a>" may be cut between two writes)."""

    def __init__(self) -> None:
        self.chars = self.links = 0
        self.tail = ""  # (the last 3 characters: a "</a>" cut by a write ends in the next)

    def write(self, s: str) -> int:
        self.chars += len(s)
        seen = self.tail + s
        self.links += seen.count("</a>") + s.count("⸡")
        self.tail = seen[-3:]
        return len(s)


@pytest.mark.parametrize("command", ["linkify", "detect"])
def test_stdin_memory_is_bounded(monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """20 MB on standard input: the peak of Python allocations stays at a few
    reads' worth, the same as for 5 MB, and every link is written."""
    import tracemalloc

    line = ("lorem ipsum dolor sit amet, " * 40 + "see example.com/α and x@example.org.\n").encode()
    peaks = {}
    linkify("warm up: the property tables load at the first link, example.com")
    for size in (5_000_000, 20_000_000):
        size -= size % len(line)
        source = Generated(line, size)
        sink = Sink()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(source)))
        monkeypatch.setattr(sys, "stdout", sink)
        tracemalloc.start()
        try:
            assert main([command]) == 0
            peaks[size] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert source.left == 0 and sink.links == 2 * (size // len(line))
        assert sink.chars > size
    small, big = sorted(peaks)
    assert peaks[big] < 8_000_000, peaks  # the input is 20 MB
    assert peaks[big] < 1.5 * peaks[small] + 500_000, peaks  # four times the input, about the same peak


# --------------------------------------------------------------------------
# -o FILE


def test_output_to_a_fifo_is_written_through(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import threading

    src = tmp_path / "in.txt"
    src.write_text("see example.com\n" * 1000, encoding="utf-8")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    code, stdout, err = run(capsys, "linkify", str(src), "-o", str(fifo))
    reader.join(timeout=60)
    assert code == 0 and stdout == "" and err == ""
    assert received == [linkify("see example.com\n" * 1000).encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the FIFO, not renamed over
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "pipe"]


def test_output_to_devices(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("see example.com\n", encoding="utf-8")
    before = os.stat("/dev/null")
    code, stdout, err = run(capsys, "detect", str(src), "-o", "/dev/null")
    assert code == 0 and stdout == "" and err == ""
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert not [p for p in os.listdir("/dev") if p.startswith(".uts58-")]
    # Through a symlink too: the link is followed to the device.
    link = tmp_path / "null"
    link.symlink_to("/dev/null")
    code, _, _ = run(capsys, "linkify", str(src), "-o", str(link))
    assert code == 0 and link.is_symlink() and os.readlink(link) == "/dev/null"
    if os.path.exists("/dev/full"):  # a write error is one line, exit 2
        code, _, err = run(capsys, "linkify", str(src), "-o", "/dev/full")
        assert code == 2 and err == "uts58 linkify: /dev/full: No space left on device\n"
    code, _, err = run(capsys, "linkify", str(src), "-o", str(tmp_path))
    assert code == 2 and err == f"uts58 linkify: {tmp_path}: Is a directory\n"


def test_output_follows_symlinks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("see example.com\n", encoding="utf-8")
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.html"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "out.html"
    link.symlink_to(Path("real") / "out.html")
    code, _, _ = run(capsys, "linkify", str(src), "-o", str(link))
    assert code == 0 and link.is_symlink() and os.readlink(link) == str(Path("real") / "out.html")
    assert target.read_text(encoding="utf-8") == linkify("see example.com\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["out.html"]
    # A dangling link: its target is created (as the shell's > does).
    dangling = tmp_path / "new.html"
    dangling.symlink_to(Path("real") / "new.html")
    code, _, _ = run(capsys, "linkify", str(src), "-o", str(dangling))
    assert code == 0 and dangling.is_symlink() and (tmp_path / "real" / "new.html").read_text(encoding="utf-8")
    # A failed run leaves the target as it was.
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff")
    code, _, _ = run(capsys, "linkify", str(bad), "-o", str(link))
    assert code == 2 and target.read_text(encoding="utf-8") == linkify("see example.com\n")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    code, _, err = run(capsys, "linkify", str(src), "-o", str(loop))
    assert code == 2 and "Too many levels of symbolic links" in err


def test_output_mode(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("see example.com\n", encoding="utf-8")
    existing = tmp_path / "existing.html"
    existing.write_text("old", encoding="utf-8")
    existing.chmod(0o604)
    code, _, _ = run(capsys, "linkify", str(src), "-o", str(existing))
    assert code == 0 and stat.S_IMODE(existing.stat().st_mode) == 0o604  # its mode kept
    for umask, expected in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        new = tmp_path / f"new-{umask:o}.html"
        old_umask = os.umask(umask)
        try:
            code, _, _ = run(capsys, "linkify", str(src), "-o", str(new))
        finally:
            os.umask(old_umask)
        assert code == 0 and stat.S_IMODE(new.stat().st_mode) == expected  # 0666 less the umask


def test_format_file_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, b"# list\nxn--bcher-kva.de/b%C3%BCcher\n")
    code, out, _ = run(capsys, "format", "--file", "-")
    assert code == 0 and out == "bücher.de/bücher\n"
    feed(monkeypatch, b"a.com/\xff\n")
    code, out, err = run(capsys, "format", "--file", "-")
    assert code == 2 and err == "uts58 format: <stdin>: invalid UTF-8 at byte offset 6 (invalid start byte)\n"


@pytest.mark.parametrize("command", ["linkify", "detect"])
def test_fifo_inputs_are_read_once(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    """A named pipe (as ``<(cmd)`` gives) is streamed like standard input, not checked by a first read."""
    import threading

    text = "see example.com and x@example.org\n" * 500
    regular = tmp_path / "in.txt"
    regular.write_text(text, encoding="utf-8")
    code, expected, _ = run(capsys, command, "--json" if command == "detect" else "--errors=strict", str(regular))
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(text.encode()))
    writer.start()
    code, out, err = run(capsys, command, "--json" if command == "detect" else "--errors=strict", str(fifo))
    writer.join(timeout=60)
    if command == "detect":  # D88: the records name their input
        out = out.replace(json.dumps(str(fifo)), json.dumps(str(regular)))
    assert code == 0 and err == "" and out == expected and out


def test_format_maximal(capsys: pytest.CaptureFixture[str]) -> None:
    # D122: the fully escaped form, ASCII only, detected whole; hosts in A-labels.
    code, out, err = run(
        capsys,
        "format",
        "--maximal",
        "https://en.wikipedia.org/wiki/Antonín_Dvořák",
        "bücher.de/bücher.",
        "https://example.com/α(β))",
        "https://ja.wikipedia.org/wiki/%E3%82%A2%E3%83%AB%E3%83%99%E3%83%AB%E3%83%88",
    )
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "https://en.wikipedia.org/wiki/Anton%C3%ADn_Dvo%C5%99%C3%A1k",
        "xn--bcher-kva.de/b%C3%BCcher%2E",
        "https://example.com/%CE%B1(%CE%B2)%29",
        "https://ja.wikipedia.org/wiki/%E3%82%A2%E3%83%AB%E3%83%99%E3%83%AB%E3%83%88",
    ]
    assert out.isascii()
    for line in out.splitlines():
        assert [(link.start, link.end) for link in find_links(line)] == [(0, len(line))]
    # The minimal form of each is what format prints without --maximal.
    code, minimal, _ = run(capsys, "format", *out.splitlines())
    assert code == 0 and minimal.splitlines()[1] == "bücher.de/bücher%2E"


def test_format_maximal_email(capsys: pytest.CaptureFixture[str]) -> None:
    # An email address: its domain in A-labels, the local-part as format
    # writes it (quoted where need be); mailto: kept.
    code, out, err = run(
        capsys, "format", "--maximal", "info@Bücher.de", "mailto:x@例え.みんな", "john doe@example.com", "a@[127.0.0.1]"
    )
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "info@xn--bcher-kva.de",
        "mailto:x@xn--r8jz45g.xn--q9jyb4c",
        '"john doe"@example.com',
        "a@[127.0.0.1]",
    ]
    # A local-part that is not ASCII has no ASCII form: refused, and the
    # other items are still printed.
    code, out, err = run(capsys, "format", "--maximal", "σωκράτης@bücher.de", "example.com/é")
    assert code == 1
    assert out == "example.com/%C3%A9\n"
    assert err == (
        "uts58 format: 'σωκράτης@bücher.de' has no ASCII form: its local-part σωκράτης is not ASCII,"
        " and an email address cannot be percent-escaped\n"
    )


def test_format_maximal_file_and_bad_items(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "urls.txt"
    f.write_text("# comment\nabc.com/path1./path2.\nx@xn--bcher-kva.de\njavascript:alert(1)\n", encoding="utf-8")
    code, out, err = run(capsys, "format", "--maximal", "--file", str(f))
    assert code == 1
    assert out.splitlines() == ["abc.com/path1./path2%2E", "x@xn--bcher-kva.de"]
    assert "scheme 'javascript'" in err


def test_format_maximal_with_the_unicode_version(capsys: pytest.CaptureFixture[str]) -> None:
    # U+2E60 is Soft in 18.0.0 and Hard in 17.0.0: both versions escape it,
    # as the non-ASCII character it is.
    for version in ("17.0.0", "18.0.0"):
        code, out, _ = run(capsys, "--unicode-version", version, "format", "--maximal", "https://example.com/a\u2e60b")
        assert code == 0 and out == "https://example.com/a%E2%B9%A0b\n"
