"""The command line: format, props, conformance; errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from uts58.cli import main


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
    assert "dev LinkFormattingTest (structure → format_parts): 55 passed, 0 failed\n" in out
    assert "17.0.0 LinkFormattingTest (structure → format_parts): 45 passed, 0 failed, 10 documented exceptions" in out
    assert out.count("excused line") == 10 + 15 + 5
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
            "start": 0,
            "end": 16,
            "kind": "url",
            "text": "bücher.de/straße",
            "href": "https://xn--bcher-kva.de/stra%C3%9Fe",
            "display": "bücher.de/straße",
        },
        {
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
    code, out, _ = run(capsys, "linkify", "--markdown", "--policy", "none", str(f))
    assert out == (
        "see <b> [example.com/a\\_\\(b\\)](<https://example.com/a_(b)>) and [helpers.py](https://helpers.py/)\n"
    )


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

    from uts58.cli import _progress

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
    import uts58.cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(uts58.cli, "mark_links", interrupted)
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
