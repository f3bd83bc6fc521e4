"""Terminal output and standalone pages: ``uts58 linkify --format osc8|auto``,
``--standalone``, ``--pre`` and ``uts58 detect --color`` (D127, D128).

The escapes are read back by the small parser below (written from the OSC 8
convention and ECMA-48, not from uts58.output.terminal); the pages by html5lib and
justhtml, and by headless Chromium for what is rendered."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import html5lib
import pytest
from browser import _FLAGS, chromium
from hypothesis import given, settings
from hypothesis import strategies as st

import uts58.output.terminal
from uts58 import Linkifier, find_links, linkify
from uts58.cli.main import main
from uts58.conformance import CLOSE_MARK, OPEN_MARK
from uts58.output.terminal import hyperlink, linkify_osc8, osc8_uri, supports_hyperlinks, visible, wants_color

ESC, ST = "\x1b", "\x1b\\"
# Environment variables the terminal detection reads: cleared in every test that runs the CLI.
TERMINAL_ENV = (
    "FORCE_HYPERLINK",
    "TERM",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "VTE_VERSION",
    "WT_SESSION",
    "KITTY_WINDOW_ID",
    "DOMTERM",
    "NO_COLOR",
)


# --------------------------------------------------------------------------
# An independent reader of the escapes


def read_escapes(s: str) -> dict[str, Any]:
    """The visible text of terminal output ``s``, its hyperlinks (uri, params,
    text), its underlined runs, and the escapes seen.  Fails on any escape
    other than OSC 8 (ended by ESC \\) and SGR 4 / 24, on a hyperlink left
    open or nested, on a byte outside 32–126 in an OSC, on any other C0 or
    C1 control (newline, tab and CR excepted)."""
    text: list[str] = []
    links: list[tuple[str, str, str]] = []
    underlined: list[str] = []
    open_link: tuple[str, str, int] | None = None
    underline_from: int | None = None
    i = 0
    while i < len(s):
        c = s[i]
        if c == ESC:
            if s.startswith(ESC + "]", i):
                end = s.find(ST, i)
                assert end > 0, f"an OSC not ended by ST at {i}"
                body = s[i + 2 : end]
                assert all(32 <= ord(ch) <= 126 for ch in body), repr(body)
                assert "\x07" not in body
                number, _, rest = body.partition(";")
                assert number == "8", f"an OSC other than 8: {body!r}"
                params, sep, uri = rest.partition(";")
                assert sep, repr(body)
                if uri:
                    assert open_link is None, "a hyperlink opened inside another"
                    open_link = (uri, params, len(text))
                else:
                    assert open_link is not None, "a hyperlink closed that was not open"
                    links.append((open_link[0], open_link[1], "".join(text[open_link[2] :])))
                    open_link = None
                i = end + 2
                continue
            m = re.compile(r"\x1b\[(\d*)m").match(s, i)
            assert m is not None, f"an escape that is neither OSC 8 nor SGR at {i}: {s[i : i + 10]!r}"
            if m.group(1) == "4":
                assert underline_from is None
                underline_from = len(text)
            else:
                assert m.group(1) == "24" and underline_from is not None
                underlined.append("".join(text[underline_from:]))
                underline_from = None
            i = m.end()
            continue
        code = ord(c)
        assert not (code < 0x20 and c not in "\n\t\r"), f"a C0 control in the output: {c!r} at {i}"
        assert not (0x7F <= code <= 0x9F), f"DEL or a C1 control in the output: {c!r} at {i}"
        text.append(c)
        i += 1
    assert open_link is None and underline_from is None, "a hyperlink or underline left open"
    return {"text": "".join(text), "links": links, "underlined": underlined}


def pictures(text: str) -> str:
    """D127's mapping, written out character by character."""
    out = []
    for k, c in enumerate(text):
        code = ord(c)
        if c in "\n\t" or (c == "\r" and text[k + 1 : k + 2] == "\n"):
            out.append(c)
        elif code < 0x20:
            out.append(chr(0x2400 + code))
        elif code == 0x7F:
            out.append("␡")
        elif 0x80 <= code <= 0x9F or 0xD800 <= code <= 0xDFFF:
            out.append(f"<U+{code:04X}>")
        else:
            out.append(c)
    return "".join(out)


def uri_of(href: str) -> str:
    """The href with every character outside 33–126 percent-encoded (urllib's quoting)."""
    from urllib.parse import quote

    return quote(href, safe="".join(map(chr, range(33, 127))))


def check_round_trip(text: str, out: str, linkifier: Linkifier | None = None) -> dict[str, Any]:
    """``out`` (OSC 8 output of ``text``) shows ``text`` (D127's mapping) and
    links exactly the anchors' hrefs, each around the link's own text."""
    read = read_escapes(out)
    assert read["text"] == pictures(text)
    anchors = list((linkifier or Linkifier()).anchors(text))
    assert [(uri, text) for uri, _, text in read["links"]] == [
        (uri_of(a.href), pictures(text[a.start : a.end])) for a in anchors
    ]
    assert all(params == "" for _, params, _ in read["links"])  # D127: no id
    return read


HOSTILE = [
    "see example.com\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ done",  # a forged hyperlink
    "bell\x07 example.com\x07x@example.org\x1b]8;;https://evil.example\x07x\x1b]8;;\x07",  # BEL as the ST
    "csi\u009b2J example.com osc\u009d8;;https://evil.example\u009cx\u009d8;;\u009c",  # C1 CSI, OSC, ST
    "lines\u2028example.com\u2029x@example.org\u0085next",  # U+2028/9, NEL
    "bidi \u202eexample.com/abc\u202c \u2066x.org\u2069 \u200fexample.net\u200e",
    "nul\x00 del\x7f example.com/\x1b[31mred\x1b[0m",
    "crlf example.com\r\nlone cr example.org\rover\r",
    "tab\texample.com\t\x0b\x0c\x1f",
    "https://bücher.de/straße?q=ü#ü x@bücher.de http://例え.jp/パス mailto:ü@x.de",
    "",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_osc8_round_trips_hostile_text(text: str) -> None:
    out = linkify_osc8(text)
    read = check_round_trip(text, out)
    # No escape of the input survives: every ESC in the output is one of ours.
    assert out.count(ESC) == 4 * len(read["links"])
    assert "\x07" not in out and not re.search("[\x80-\x9f]", out)
    out.encode("utf-8")  # (a terminal stream can hold it)


def test_the_mapping_of_controls() -> None:
    """D127: every C0/C1 control but newline, tab and the CR of a CRLF is a picture."""
    every = "".join(map(chr, range(0xA0))) + "\r\n\r"
    assert visible(every) == pictures(every)
    assert visible("\x1b]8;;x\x07") == "␛]8;;x␇" and visible("a\r\nb\rc") == "a\r\nb␍c"
    assert visible("\ud800x\udfff") == "<U+D800>x<U+DFFF>"  # (lone surrogates: the library can be given them)
    with pytest.raises(TypeError, match="text"):
        visible(b"x")  # type: ignore[arg-type]


PARTS = [
    "a",
    " ",
    "example.com",
    "x@y.org",
    "/",
    "(",
    ")",
    "\x1b",
    "\x07",
    "\x9b",
    "\r",
    "\n",
    "é",
    "\u202e",
    "http://",
    ".",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PARTS), max_size=40))
def test_osc8_round_trips_generated_text(parts: list[str]) -> None:
    text = "".join(parts)
    check_round_trip(text, linkify_osc8(text))


def test_link_hrefs_are_printable_ascii() -> None:
    """What detection gives as href is what an OSC 8 URI may hold (33–126),
    so the URI is the href itself; anything else is percent-encoded."""
    text = " ".join(HOSTILE) + " ftp://x.org/%ZZ http://[::1]:8080/a mailto:a.b+c@example.com ssh://host.example/x"
    finder_links = list(find_links(text, schemes=["ssh", "https", "http", "ftp"]))
    assert len(finder_links) > 10
    for link in finder_links:
        assert all(33 <= ord(c) <= 126 for c in link.href), link
        assert osc8_uri(link.href) == link.href
    assert osc8_uri("https://x.example/a b\x1bc\u00e9") == uri_of("https://x.example/a b\x1bc\u00e9")
    assert osc8_uri("https://x.example/\ud800") is None and osc8_uri("") is None
    # A link with no URI is its text alone, never a broken escape.
    assert hyperlink("\ud800", "x\x1b") == "x␛"
    assert read_escapes(hyperlink("https://x.example/\x07", "x", underline=True)) == {
        "text": "x",
        "links": [("https://x.example/%07", "", "x")],
        "underlined": ["x"],
    }


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                ["https://", "http://", "ftp://", "mailto:", "www.", "@", ".com", ".de", "/", "?", "#", " "]
            ),
            st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6),
        ),
        max_size=20,
    )
)
def test_hrefs_of_any_text_are_printable_ascii(parts: list[str]) -> None:
    """Link.href is ASCII without controls or spaces for any text: an OSC 8 URI as it is."""
    for link in find_links("".join(parts), schemes=["https", "http", "ftp", "ssh", "tel"]):
        assert all(33 <= ord(c) <= 126 for c in link.href), link
        assert osc8_uri(link.href) == link.href


def test_osc8_with_options_and_policy() -> None:
    text = "a.example.com x@example.org ssh://h.example/x helpers.py"
    for linkifier in (Linkifier(kinds="email"), Linkifier(schemes=["ssh"]), Linkifier(policy=None)):
        check_round_trip(text, linkify_osc8(text, linkifier), linkifier)
    assert read_escapes(linkify_osc8(text, hyperlinks=False)) == {"text": text, "links": [], "underlined": []}
    with pytest.raises(TypeError, match="linkifier"):
        linkify_osc8(text, "html")  # type: ignore[arg-type]


def test_osc8_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """1 MB of escapes and links: the pictures made are the controls there,
    one each, and the output grows with the input (steps, not seconds)."""
    calls = {"n": 0}
    real = uts58.output.terminal.picture

    def counting(m: re.Match[str]) -> str:
        calls["n"] += 1
        return real(m)

    monkeypatch.setattr(uts58.output.terminal, "picture", counting)
    unit = "\x1b]8;;https://evil.example\x07x example.com/a\x9b "
    sizes = {}
    for n in (1 << 18, 1 << 20):
        text = unit * (n // len(unit))
        calls["n"] = 0
        out = linkify_osc8(text)
        controls = sum(1 for c in text if c in "\x1b\x07\x9b")
        assert calls["n"] == controls
        sizes[n] = len(out) / len(text)
        if n == 1 << 20:
            check_round_trip(text, out)
    assert sizes[1 << 20] == pytest.approx(sizes[1 << 18], rel=0.01) and sizes[1 << 20] < 4


# --------------------------------------------------------------------------
# The command line: --format


class TTY(io.StringIO):
    """Standard output on a terminal (isatty)."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in TERMINAL_ENV:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def run_on(monkeypatch: pytest.MonkeyPatch, stdout: io.StringIO, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdout", stdout)
    code = main(list(argv))
    return code, stdout.getvalue()


SAMPLE = (
    "\nSee bücher.de/straße, x@example.com and https://ja.wikipedia.org/wiki/アルベルト)アインシュタイン.\r\n"
    "<b>&amp;</b> example.com/a_(b)?x&y=1 \x1b]8;;https://evil.example\x07forged\x1b]8;;\x07\n"
    "\u3000全角 example.org\tand\r\nend\rhttps://example.com/α\u009b\n\n"
)


def test_format_osc8_file_and_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uts58.cli.io

    f = tmp_path / "in.txt"
    f.write_bytes(SAMPLE.encode())
    code = main(["linkify", "--format", "osc8", str(f)])
    from_file, err = capsys.readouterr()
    assert code == 0 and err == ""
    check_round_trip(SAMPLE, from_file)
    assert from_file == linkify_osc8(SAMPLE)
    # Streamed in reads of a few bytes (a CRLF cut between two pieces stays a CRLF).
    for read_size in (1, 2, 7, 1 << 18):
        monkeypatch.setattr(uts58.cli.io, "READ_SIZE", read_size)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SAMPLE.encode())))
        assert main(["linkify", "--format", "osc8"]) == 0
        assert capsys.readouterr().out == from_file
    # Two inputs: each its own text (a CR ending the first is a lone CR).
    g = tmp_path / "cr.txt"
    g.write_bytes(b"last x.org\r")
    assert main(["linkify", "--format", "osc8", str(g), str(f)]) == 0
    assert capsys.readouterr().out == linkify_osc8("last x.org\r") + from_file
    # --policy and --only reach the hyperlinks as they reach <a>.
    assert main(["linkify", "--format", "osc8", "--only", "emails", "--policy", "none", str(f)]) == 0
    check_round_trip(SAMPLE, capsys.readouterr().out, Linkifier(kinds="email", policy=None))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--format", "osc8", "--attr", "rel=x"], "argument --attr: not with --format osc8"),
        (["--format", "osc8", "--truncate", "9"], "argument --truncate: not with --format osc8"),
        (["--format", "osc8", "--strip-prefix"], "argument --strip-prefix: not with --format osc8"),
        (["--format", "osc8", "--markdown"], "argument --markdown: is --format markdown"),
        (["--format", "html", "--markdown"], "argument --markdown: is --format markdown"),
        (["--markdown", "--standalone"], "argument --standalone: wraps the HTML of plain text"),
        (["--format", "markdown", "--pre"], "argument --pre: wraps the HTML of plain text"),
        (["--format", "auto", "--standalone"], "argument --standalone: wraps the HTML of plain text"),
        (["--format", "osc8", "--pre"], "argument --pre: wraps the HTML of plain text"),
        (["--html", "--standalone"], "the input is HTML already"),
        (["--html", "--format", "osc8"], "argument --html: writes HTML"),
        (["--standalone", "--pre"], "not allowed with argument --standalone"),
        (["--format", "text"], "invalid choice: 'text'"),
    ],
)
def test_format_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["linkify", *argv, "no-such-file"])
    assert exited.value.code == 2 and message in capsys.readouterr().err


def test_markdown_is_format_markdown(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "in.txt"
    f.write_text("a_b example.com/x_y", encoding="utf-8")
    outs = []
    for argv in (["--markdown"], ["--format", "markdown"], ["--markdown", "--format", "markdown"]):
        assert main(["linkify", *argv, str(f)]) == 0
        outs.append(capsys.readouterr().out)
    assert outs == [linkify("a_b example.com/x_y", format="markdown")] * 3
    for argv in ([], ["--format", "html"]):
        assert main(["linkify", *argv, str(f)]) == 0
        assert capsys.readouterr().out == linkify("a_b example.com/x_y")


# D128: what --format auto writes, by where the output goes and the environment.
AUTO_CASES = [
    ({}, True, "text"),
    ({"TERM": "xterm-256color"}, True, "text"),
    ({"TERM": "dumb", "TERM_PROGRAM": "WezTerm"}, True, "text"),
    ({"TERM": "xterm-kitty"}, True, "osc8"),
    ({"KITTY_WINDOW_ID": "1"}, True, "osc8"),
    ({"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.4.19"}, True, "osc8"),
    ({"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.0.15"}, True, "text"),
    ({"TERM_PROGRAM": "vscode", "TERM_PROGRAM_VERSION": "1.71.2"}, True, "text"),
    ({"TERM_PROGRAM": "vscode", "TERM_PROGRAM_VERSION": "1.95.0"}, True, "osc8"),
    ({"TERM_PROGRAM": "WezTerm"}, True, "osc8"),
    ({"TERM_PROGRAM": "ghostty"}, True, "osc8"),
    ({"TERM_PROGRAM": "Apple_Terminal"}, True, "text"),
    ({"VTE_VERSION": "7600"}, True, "osc8"),
    ({"VTE_VERSION": "4803"}, True, "text"),
    ({"VTE_VERSION": "junk"}, True, "text"),
    ({"WT_SESSION": "b5f2"}, True, "osc8"),
    ({"FORCE_HYPERLINK": "1", "TERM": "dumb"}, True, "osc8"),
    ({"FORCE_HYPERLINK": "0", "TERM": "xterm-kitty"}, True, "text"),
    ({"FORCE_HYPERLINK": "", "TERM": "xterm-kitty"}, True, "osc8"),  # (empty: not set)
    ({"NO_COLOR": "1", "TERM": "xterm-kitty"}, True, "osc8"),  # (a hyperlink is no colour)
    ({"TERM": "xterm-kitty"}, False, "html"),
    ({"FORCE_HYPERLINK": "1"}, False, "html"),
]


@pytest.mark.parametrize(("env", "tty", "expected"), AUTO_CASES)
def test_format_auto(clean_env: pytest.MonkeyPatch, env: dict[str, str], tty: bool, expected: str) -> None:
    for name, value in env.items():
        clean_env.setenv(name, value)
    clean_env.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SAMPLE.encode())))
    code, out = run_on(clean_env, TTY() if tty else io.StringIO(), "linkify", "--format", "auto")
    assert code == 0
    if expected == "html":
        assert out == linkify(SAMPLE)
        return
    read = check_round_trip(SAMPLE, linkify_osc8(SAMPLE))
    if expected == "osc8":
        assert out == linkify_osc8(SAMPLE) and read["links"]
    else:
        assert read_escapes(out) == {"text": pictures(SAMPLE), "links": [], "underlined": []}


def test_format_auto_to_a_file_is_html(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean_env.setenv("TERM", "xterm-kitty")
    f = tmp_path / "in.txt"
    f.write_bytes(SAMPLE.encode())
    out = tmp_path / "out.html"
    code, stdout = run_on(clean_env, TTY(), "linkify", "--format", "auto", str(f), "-o", str(out))
    assert code == 0 and stdout == "" and out.read_bytes().decode() == linkify(SAMPLE)


@pytest.mark.parametrize("argv", [["--format", "osc8"], ["--standalone"], ["--pre"], ["--format", "auto"]])
def test_undecodable_input_new_formats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str]
) -> None:
    """The CLI's rules hold: the file and byte offset, exit 2, and no
    output (a file checked before anything is written; -o untouched)."""
    import uts58.cli.io

    good = tmp_path / "good.txt"
    good.write_text("example.com\n", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"see example.com \xed\xa0\x80 (a surrogate's bytes)")
    code = main(["linkify", *argv, str(good), str(bad)])
    out, err = capsys.readouterr()
    assert (
        code == 2
        and out == ""
        and err == f"uts58 linkify: {bad}: invalid UTF-8 at byte offset 16 (invalid continuation byte)\n"
    )
    # Standard input, far in, to -o: the file is untouched, no temporary is left.
    monkeypatch.setattr(uts58.cli.io, "READ_SIZE", 1000)
    target = tmp_path / "out.txt"
    target.write_text("before", encoding="utf-8")
    data = "é example.com\r\n".encode() * 500
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data + b"\xff tail")))
    code = main(["linkify", *argv, "-o", str(target)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and f"<stdin>: invalid UTF-8 at byte offset {len(data)}" in err
    assert target.read_text(encoding="utf-8") == "before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "good.txt", "out.txt"]
    # --errors replace reads U+FFFD, shown as it is.
    assert main(["linkify", *argv, "--errors", "replace", str(bad)]) == 0
    assert "\ufffd" in capsys.readouterr().out


def test_a_big_stdin_in_osc8(monkeypatch: pytest.MonkeyPatch) -> None:
    """1 MB of hostile text on standard input, streamed: it round-trips."""
    unit = "x\x1b]8;;https://evil.example\x07y example.com/p?q=1\r\nmail a@b.org\u009b\u2028 "
    text = unit * ((1 << 20) // len(unit))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, out = run_on(monkeypatch, io.StringIO(), "linkify", "--format", "osc8")
    assert code == 0
    read = check_round_trip(text, out)
    # Three links a unit: the forged escape's URL is text of the file, linked to itself.
    assert [uri for uri, _, _ in read["links"][:3]] == [
        "https://evil.example/",
        "https://example.com/p?q=1",
        "mailto:a@b.org",
    ]
    assert len(read["links"]) == 3 * text.count("mail a@b.org")


# --------------------------------------------------------------------------
# detect on a terminal


def test_detect_underlines_on_a_terminal(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    f = tmp_path / "in.txt"
    f.write_bytes(SAMPLE.encode())
    links = list(find_links(SAMPLE))
    marked = "".join(
        f"{OPEN_MARK}{pictures(SAMPLE[link.start : link.end])}{CLOSE_MARK}" for link in links
    )  # (the marks, around each link)

    def check(out: str, *, underline: bool, hyperlinks: bool) -> None:
        read = read_escapes(out)
        assert read["text"].replace(OPEN_MARK, "").replace(CLOSE_MARK, "") == pictures(SAMPLE)
        assert "".join(re.findall(f"{OPEN_MARK}[^{CLOSE_MARK}]*{CLOSE_MARK}", read["text"])) == marked
        texts = [pictures(SAMPLE[link.start : link.end]) for link in links]
        assert read["underlined"] == (texts if underline else [])
        assert read["links"] == (
            [(uri_of(link.href), "", t) for link, t in zip(links, texts, strict=True)] if hyperlinks else []
        )

    for argv, env, tty, underline, hyperlinks in [
        ([], {}, True, True, False),
        ([], {"TERM": "xterm-kitty"}, True, True, True),
        ([], {"TERM": "xterm-kitty", "NO_COLOR": "1"}, True, False, False),
        ([], {"TERM": "dumb"}, True, False, False),
        (["--color", "never"], {"TERM": "xterm-kitty"}, True, False, False),
        (["--color", "always"], {}, False, True, False),
        (["--color", "always"], {"FORCE_HYPERLINK": "1"}, False, True, True),
        (["--color", "always", "-j", "2", "--block-size", "40"], {"WT_SESSION": "1"}, False, True, True),
    ]:
        for name in TERMINAL_ENV:
            clean_env.delenv(name, raising=False)
        for name, value in env.items():
            clean_env.setenv(name, value)
        code, out = run_on(clean_env, TTY() if tty else io.StringIO(), "detect", *argv, str(f))
        assert code == 0
        check(out, underline=underline, hyperlinks=hyperlinks)
    # Not a terminal, no --color always: the text as it is, controls too.
    code, out = run_on(clean_env, io.StringIO(), "detect", str(f))
    assert code == 0 and ESC in out and out.replace(OPEN_MARK, "").replace(CLOSE_MARK, "") == SAMPLE


def test_detect_json_never_gets_escapes(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean_env.setenv("FORCE_HYPERLINK", "1")
    f = tmp_path / "in.txt"
    f.write_bytes(SAMPLE.encode())
    code, out = run_on(clean_env, TTY(), "detect", "--json", "--color", "always", str(f))
    assert code == 0 and ESC not in out
    assert [json.loads(line)["text"] for line in out.splitlines()] == [link.text for link in find_links(SAMPLE)]


def test_detect_stdin_on_a_terminal_streams(clean_env: pytest.MonkeyPatch) -> None:
    import uts58.cli.io

    outs = []
    for read_size in (1, 3, 1 << 18):
        clean_env.setattr(uts58.cli.io, "READ_SIZE", read_size)
        clean_env.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SAMPLE.encode())))
        code, out = run_on(clean_env, TTY(), "detect")
        assert code == 0
        outs.append(out)
    assert outs[0] == outs[1] == outs[2]
    assert read_escapes(outs[0])["text"].replace(OPEN_MARK, "").replace(CLOSE_MARK, "") == pictures(SAMPLE)


def test_wants_color_and_supports_hyperlinks_checks() -> None:
    from uts58.errors import OptionError

    with pytest.raises(OptionError, match="choice"):
        wants_color("sometimes", TTY(), {})
    assert wants_color("auto", TTY(), {}) and not wants_color("auto", TTY(), {"NO_COLOR": "x"})
    assert wants_color("auto", TTY(), {"NO_COLOR": ""})  # (empty: not set, as no-color.org says)
    assert not wants_color("never", TTY(), {}) and not supports_hyperlinks({})
    for call in (lambda: supports_hyperlinks(None), lambda: wants_color("auto", TTY(), ["NO_COLOR"])):
        with pytest.raises(TypeError, match="env"):
            call()


# --------------------------------------------------------------------------
# --standalone and --pre, judged by parsers and a browser

PAGE_TEXT = (
    "\nstarts with a blank line; <tag> & &amp; bücher.de/straße?a=1&b=2\r\n"
    "\ttab, CRLF above; lone CR here:\rthen " + "long" * 60 + ".example.org/path and x@example.com\n"
    "   indented\n\n\ntwo blank lines above https://例え.jp/パス trailing spaces   \n"
)


def normalized(text: str) -> str:
    """The text of a <pre> the HTML parser reads: CRLF and CR are LF (D128)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def html5lib_check(document: str, *, fragment: bool = False) -> tuple[Any, list[Any]]:
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    tree = parser.parseFragment(document, "div") if fragment else parser.parse(document)
    return tree, parser.errors


def test_standalone_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "a<b&c.txt"
    f.write_bytes(PAGE_TEXT.encode())
    assert main(["linkify", "--standalone", str(f)]) == 0
    page = capsys.readouterr().out
    tree, errors = html5lib_check(page)
    assert errors == []  # (no parse error: a conforming page)
    metas = tree.findall(".//head/meta")
    assert any(m.get("charset") == "utf-8" for m in metas)
    assert "".join(tree.find(".//head/title").itertext()) == str(f)
    (pre,) = tree.findall(".//body/pre")
    assert "pre-wrap" in pre.get("style")
    assert "".join(pre.itertext()) == normalized(PAGE_TEXT)
    anchors = list(Linkifier().anchors(PAGE_TEXT))
    assert [(a.get("href"), "".join(a.itertext())) for a in pre.iter("a")] == [(x.href, x.text) for x in anchors]
    # justhtml agrees.
    from justhtml import JustHTML

    doc = JustHTML(page, sanitize=False, collect_errors=True)
    assert doc.errors == []
    (jpre,) = doc.query("pre")
    assert jpre.to_text(separator="", strip=False) == normalized(PAGE_TEXT)
    assert [a.attrs["href"] for a in doc.query("pre a")] == [x.href for x in anchors]
    assert [m.attrs.get("charset") for m in doc.query("meta") if "charset" in m.attrs] == ["utf-8"]


def test_standalone_titles_and_streams(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uts58.cli.io

    f = tmp_path / "in.txt"
    f.write_bytes(PAGE_TEXT.encode())
    assert main(["linkify", "--standalone", str(f)]) == 0
    from_file = capsys.readouterr().out
    for read_size in (1, 5, 1 << 18):
        monkeypatch.setattr(uts58.cli.io, "READ_SIZE", read_size)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE_TEXT.encode())))
        assert main(["linkify", "--standalone"]) == 0
        out = capsys.readouterr().out
        assert out == from_file.replace(f"<title>{f}</title>", "<title>uts58</title>")
    # Several inputs: one page, one <pre> with their texts in order; the title names them.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"from stdin x.org\n")))
    assert main(["linkify", "--standalone", str(f), "-", str(f)]) == 0
    tree, errors = html5lib_check(capsys.readouterr().out)
    assert errors == [] and tree.find(".//title").text == f"{f}, standard input, {f}"
    assert "".join(tree.find(".//pre").itertext()) == normalized(PAGE_TEXT + "from stdin x.org\n" + PAGE_TEXT)
    # A name that is not UTF-8 (surrogateescape): U+FFFD in the title, and the page is written.
    odd = os.fsencode(tmp_path) + b"/caf\xe9.txt"
    with open(odd, "wb") as handle:
        handle.write(b"x.org")
    assert main(["linkify", "--standalone", os.fsdecode(odd)]) == 0
    tree, _ = html5lib_check(capsys.readouterr().out)
    assert tree.find(".//title").text.endswith("caf\ufffd.txt")


def test_pre_fragment(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "in.txt"
    f.write_bytes(PAGE_TEXT.encode())
    assert main(["linkify", "--pre", str(f)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<pre>") and out.endswith("</pre>\n") and "<html" not in out
    tree, errors = html5lib_check(out, fragment=True)
    assert errors == []
    (pre,) = tree.findall("pre")
    assert "".join(pre.itertext()) == normalized(PAGE_TEXT)
    # Without the newline after <pre>, the parser would drop the text's first one.
    assert (
        "".join(html5lib_check(out.replace("<pre>\n", "<pre>"), fragment=True)[0].find("pre").itertext())
        == (normalized(PAGE_TEXT)[1:])
    )


_PROBE = """<script>
const pre = document.querySelector("pre");
const fragment = document.createElement("div");
fragment.innerHTML = %s;
document.body.appendChild(fragment);
const out = document.createElement("output");
out.id = "probe";
out.textContent = JSON.stringify({
  charset: document.characterSet, title: document.title, count: document.querySelectorAll("body > pre").length,
  whiteSpace: getComputedStyle(pre).whiteSpace, innerText: pre.innerText,
  hrefs: [...pre.querySelectorAll("a")].map(a => [a.getAttribute("href"), a.textContent]),
  fragmentText: fragment.querySelector("pre").innerText,
  wraps: pre.scrollWidth <= pre.clientWidth, longest: Math.max(...pre.innerText.split("\\n").map(l => l.length)),
});
document.body.appendChild(out);
</script>
"""


def test_standalone_and_pre_in_chromium(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Chromium shows the page as the text looked: the pre's innerText keeps
    every line break (and the first blank line), long lines wrap (the page
    is no wider than the window), the links are the anchors'."""
    browser = chromium()
    f = tmp_path / "notes & <changes>.txt"
    f.write_bytes(PAGE_TEXT.encode())
    assert main(["linkify", "--standalone", str(f)]) == 0
    page = capsys.readouterr().out
    assert main(["linkify", "--pre", str(f)]) == 0
    fragment = capsys.readouterr().out
    probe = _PROBE % json.dumps(fragment).replace("<", "\\u003c")
    # The probe runs after the page is parsed (a script after </html> goes at the end of <body>).
    (tmp_path / "page.html").write_text(page + probe, encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                browser,
                *_FLAGS,
                f"--user-data-dir={profile}",
                "--window-size=800,600",
                "--dump-dom",
                (tmp_path / "page.html").as_uri(),
            ],
            capture_output=True,
            timeout=300,
            check=False,
        )
    dom = done.stdout.decode("utf-8", "replace")
    m = re.search(r'<output id="probe">(.*?)</output>', dom, re.S)
    assert m, f"Chromium gave no result (exit {done.returncode}): {done.stderr[-2000:]!r}"
    result = json.loads(m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    expected = normalized(PAGE_TEXT)
    assert result["charset"] == "UTF-8" and result["title"] == str(f) and result["count"] == 1
    assert result["whiteSpace"] == "pre-wrap"
    assert result["innerText"] == expected and result["innerText"].count("\n") == PAGE_TEXT.count("\n") + 1
    assert result["fragmentText"] == expected
    assert result["hrefs"] == [[a.href, a.text] for a in Linkifier().anchors(PAGE_TEXT)]
    assert result["wraps"] and result["longest"] > 240  # the long line wrapped: no horizontal scroll


# --------------------------------------------------------------------------
# Review fixes: every format on a terminal, messages, --json, the environment, pages


def page_pictures(text: str) -> str:
    """What a page holds of ``text`` (D128), written out character by
    character: D127's pictures, but a CR stays (a line end the parser reads)
    and a noncharacter is ``<U+XXXX>`` too."""
    out = []
    for c in text:
        code = ord(c)
        if c in "\t\n\r":
            out.append(c)
        elif code < 0x20:
            out.append(chr(0x2400 + code))
        elif code == 0x7F:
            out.append("␡")
        elif 0x80 <= code <= 0x9F or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:
            out.append(f"<U+{code:04X}>")
        else:
            out.append(c)
    return "".join(out)


HOSTILE_HTML = "<p>hi \x1b]0;PWNED\x07 \x1b[2J see example.com\u009b6n</p>\r\n<pre>x\rexample.org\x7f</pre>\r"
# Plain text: SAMPLE's escapes, a lone CR and a CR at the very end (held, then shown as ␍).
TERMINAL_TEXT = SAMPLE + "hi \x1b]0;PWNED\x07 \x1b[2J see example.com \x00\x7f\u0085\r\nlast x.org\r"


@pytest.mark.parametrize(
    "argv",
    [[], ["--format", "html"], ["--markdown"], ["--pre"], ["--standalone"], ["--html"], ["--html", "--markdown"]],
)
def test_every_format_on_a_terminal_shows_controls(
    clean_env: pytest.MonkeyPatch, tmp_path: Path, argv: list[str]
) -> None:
    """Finding 1: what linkify writes to a terminal, in any format, is what
    it writes to a pipe with D127's mapping (the test's own) applied to the
    whole: no escape of the file's reaches the terminal, also when a CRLF is
    cut between two reads.  To a pipe or a file it stays byte for byte."""
    import uts58.cli.io

    if argv == ["--html", "--markdown"]:  # (the one form that is no form: a usage error, nothing written)
        with pytest.raises(SystemExit):
            run_on(clean_env, TTY(), "linkify", *argv, "-")
        assert sys.stdout.getvalue() == ""
        return
    text = HOSTILE_HTML if "--html" in argv else TERMINAL_TEXT
    f = tmp_path / "in.txt"
    f.write_bytes(text.encode())
    code, piped = run_on(clean_env, io.StringIO(), "linkify", *argv, str(f))
    page = "--pre" in argv or "--standalone" in argv
    # The pipe gets the file's own escapes, but for a page (D128: pictures there too).
    assert code == 0 and (ESC in piped) is not page and (page_pictures(piped) == piped) is page
    if argv in ([], ["--format", "html"]):
        assert piped == linkify(text)
    elif argv == ["--markdown"]:
        assert piped == linkify(text, format="markdown")
    code, shown = run_on(clean_env, TTY(), "linkify", *argv, str(f))
    assert code == 0
    assert shown == pictures(piped)
    assert read_escapes(shown) == {"text": shown, "links": [], "underlined": []}
    assert shown.endswith(("␍", "␍</pre>\n", "␍</pre>\n</body>\n</html>\n"))  # (the held CR at the end)
    # -o FILE is byte for byte what the pipe got, on a terminal or not.
    target = tmp_path / "out.txt"
    code, stdout = run_on(clean_env, TTY(), "linkify", *argv, str(f), "-o", str(target))
    assert code == 0 and stdout == "" and target.read_bytes().decode() == piped
    if "--html" in argv:
        return
    # Standard input in reads of a few bytes: a CRLF cut between reads stays one line end.
    for read_size in (1, 2, 7):
        clean_env.setattr(uts58.cli.io, "READ_SIZE", read_size)
        clean_env.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        code, streamed = run_on(clean_env, TTY(), "linkify", *argv)
        assert code == 0
        assert streamed == shown.replace(f"<title>{f}</title>", "<title>uts58</title>")


def test_other_commands_on_a_terminal_show_controls(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The docs' promise: everything uts58 writes to a terminal; check, tlds
    and format write no escapes of their own, so theirs are pictures too."""
    item = "http://a.example/\x1b[2J\u009b"
    for argv in (["check", item], ["check", "x\x07y.example\r"]):
        code, piped = run_on(clean_env, io.StringIO(), *argv)
        assert ESC in piped or "\x07" in piped
        code, shown = run_on(clean_env, TTY(), *argv)
        assert shown == pictures(piped) and read_escapes(shown)["text"] == shown
    name = tmp_path / "tlds\x1b[2J.txt"
    name.write_text("# Version 2024010100\nCOM\nORG\n", encoding="ascii")
    code, piped = run_on(clean_env, io.StringIO(), "tlds", "--file", str(name))
    assert code == 0 and str(name) in piped
    code, shown = run_on(clean_env, TTY(), "tlds", "--file", str(name))
    assert code == 0 and shown == pictures(piped) and ESC not in shown


@pytest.mark.parametrize("control", ["\x1b[2J", "\x07", "\u009b6n", "\r", "\x7f"])
def test_error_messages_show_file_names(capsys: pytest.CaptureFixture[str], tmp_path: Path, control: str) -> None:
    """Finding 2: a file name in a message on standard error (missing, not
    UTF-8, an argparse error naming it) is shown with D127's pictures."""
    missing = str(tmp_path / f"zz{control}")
    for argv in (["detect", missing], ["linkify", "--format", "osc8", missing], ["linkify", "--pre", missing]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == f"uts58 {argv[0]}: {pictures(missing)}: No such file or directory\n"
    bad = tmp_path / f"bad{control}.txt"
    bad.write_bytes(b"example.com \xff")
    assert main(["detect", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == f"uts58 detect: {pictures(str(bad))}: invalid UTF-8 at byte offset 12 (invalid start byte)\n"
    # (a --tlds string with a line break is a list, not a path: uts58.hosts.tlds.load_source)
    missing = missing.replace("\r", "\x1b")
    with pytest.raises(SystemExit):
        main(["detect", "--tlds", missing, "-"])
    err = capsys.readouterr().err
    assert f"argument --tlds: {pictures(missing)}: No such file" in err and ESC not in err
    read_escapes(err)  # (no control left at all)


def test_detect_json_escapes_c1_and_del(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Finding 3: DEL and the C1 controls in a file name (UTF-8 or not) are
    JSON escapes, never the characters; json.loads gives the name back."""
    names = [
        os.fsdecode(os.fsencode(tmp_path) + b"/a\xc2\x9b6n\x7f\x1b.txt"),  # UTF-8: C1 CSI, DEL, ESC
        os.fsdecode(os.fsencode(tmp_path) + b"/b\xc2\x85\xff.txt"),  # NEL, and a byte that is not UTF-8
    ]
    for name in names:
        with open(os.fsencode(name), "wb") as handle:
            handle.write(b"see example.com and x@example.org\n")
    code, out = run_on(clean_env, TTY(), "detect", "--json", *names)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 4
    for line in lines:
        assert not re.search("[\x00-\x1f\x7f-\x9f]", line), line
    assert [json.loads(line)["file"] for line in lines] == [names[0], names[0], names[1], names[1]]
    assert [os.fsencode(json.loads(line)["file"]) for line in lines[::2]] == [os.fsencode(n) for n in names]


def test_tlds_json_escapes_c1_and_del(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``tlds --json`` writes its lines as ``detect --json`` does: the source's
    name with DEL and the C1 controls as JSON escapes (D128)."""
    name = os.fsdecode(os.fsencode(tmp_path) + b"/t\xc2\x9b6n\x7f.txt")
    with open(os.fsencode(name), "wb") as handle:
        handle.write(b"# Version 2026112700\nCOM\nDE\n")
    code, out = run_on(clean_env, TTY(), "tlds", "--json", "--file", name)
    assert code == 0
    assert not re.search("[\x00-\x1f\x7f-\x9f]", out.rstrip("\n")), out
    assert json.loads(out)["count"] == 2 and "\x9b" in json.loads(out)["source"]


GARBAGE_VERSIONS = [
    {"VTE_VERSION": "²"},  # (str.isdigit, which int() refuses)
    {"VTE_VERSION": "٥٠٠٠"},  # (Arabic-Indic digits: int() reads them; not a VTE version)
    {"VTE_VERSION": "9" * 5000},  # (over int()'s 4300 digits)
    {"VTE_VERSION": "0" * 4996 + "5000"},
    {"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "9" * 5000},
    {"TERM_PROGRAM": "vscode", "TERM_PROGRAM_VERSION": "1." + "9" * 5000},
    {"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "³.¹"},
    {"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "junk"},
]


@pytest.mark.parametrize("env", GARBAGE_VERSIONS)
def test_garbage_versions_support_nothing(clean_env: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    """Finding 4: a version that is not ASCII digits, or is too long, is no
    version: no hyperlinks, and no traceback on a terminal."""
    assert supports_hyperlinks(env) is False
    for name, value in env.items():
        clean_env.setenv(name, value)
    clean_env.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"see example.com\n")))
    code, out = run_on(clean_env, TTY(), "linkify", "--format", "auto")
    assert code == 0 and out == "see example.com\n"
    clean_env.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"see example.com\n")))
    code, out = run_on(clean_env, TTY(), "detect")
    assert code == 0 and read_escapes(out) == {
        "text": f"see {OPEN_MARK}example.com{CLOSE_MARK}\n",
        "links": [],
        "underlined": ["example.com"],
    }
    # A good version next to them still counts.
    assert supports_hyperlinks({"VTE_VERSION": "7600"}) and supports_hyperlinks({"VTE_VERSION": "000005000"})
    assert supports_hyperlinks({"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.5.0beta1"})


# FORCE_HYPERLINK as npm supports-hyperlinks reads it: no when parseInt(value, 10) === 0.
FORCE_CASES = [
    ("0", False),
    ("00", False),
    ("0.0", False),
    (" 0x", False),
    ("-0", False),
    ("+000", False),
    ("\u3000\t0 ", False),
    ("\ufeff0", False),
    ("1", True),
    ("false", True),
    ("no", True),
    ("x0", True),
    (" ", True),
    ("01", True),
    ("0" * 5000 + "1", True),
    ("\x1c0", True),  # (Python's white space, not JavaScript's: NaN)
]


@pytest.mark.parametrize(("value", "expected"), FORCE_CASES)
def test_force_hyperlink_is_parse_int(value: str, expected: bool) -> None:
    """Finding 6: FORCE_HYPERLINK decides, over TERM=dumb and a known terminal alike."""
    assert supports_hyperlinks({"FORCE_HYPERLINK": value, "TERM": "dumb"}) is expected
    assert supports_hyperlinks({"FORCE_HYPERLINK": value, "TERM": "xterm-kitty"}) is expected
    assert supports_hyperlinks({"FORCE_HYPERLINK": "", "TERM": "xterm-kitty"})  # (empty: not set)


def test_force_hyperlink_cases_agree_with_node() -> None:
    """The table above is what JavaScript's own parseInt says (node, when
    installed: the table is checked by the test above either way)."""
    import shutil

    node = shutil.which("node")
    if node is None:
        if os.environ.get("UTS58_REQUIRE_NODE"):
            pytest.fail("UTS58_REQUIRE_NODE is set and there is no node")
        pytest.skip("no node to run JavaScript's parseInt (the table is still tested)")
    script = "const v = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
    script += "console.log(JSON.stringify(v.map(s => !(s.length > 0 && parseInt(s, 10) === 0))));"
    done = subprocess.run(
        [node, "-e", script],
        input=json.dumps([value for value, _ in FORCE_CASES]),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout) == [expected for _, expected in FORCE_CASES]


PAGE_CONTROLS = (
    "every control: "
    + "".join(map(chr, range(0x20)))
    + "\x7f"
    + "".join(map(chr, range(0x80, 0xA0)))
    + " example.com/a\x1b[2J b\n noncharacters \ufdd0\ufdef\ufffe\uffff\U0001fffe\U0010ffff x@example.org\r\n"
    "lone CR\rend \u2028 \u202e bidi\n"
)


@pytest.mark.parametrize("form", ["--standalone", "--pre"])
def test_pages_hold_no_invalid_code_point(capsys: pytest.CaptureFixture[str], tmp_path: Path, form: str) -> None:
    """Finding 5: a page holds the input's controls and noncharacters as
    pictures (D128), so html5lib and justhtml find no parse error; the
    <pre>'s text is the input so mapped, its line ends made \\n, and the
    links are the anchors'.  The title shows a file name's controls so too."""
    from justhtml import JustHTML

    f = tmp_path / "a\x1b[2J\x7f\u0085.txt"
    f.write_bytes(PAGE_CONTROLS.encode())
    assert main(["linkify", form, str(f)]) == 0
    out = capsys.readouterr().out
    tree, errors = html5lib_check(out, fragment=form == "--pre")
    assert errors == []
    pre = tree.find(".//pre") if form == "--standalone" else tree.find("pre")
    assert "".join(pre.itertext()) == normalized(page_pictures(PAGE_CONTROLS))
    anchors = list(Linkifier().anchors(PAGE_CONTROLS))
    assert [a.get("href") for a in pre.iter("a")] == [x.href for x in anchors] and len(anchors) == 2
    doc = JustHTML(out, sanitize=False, collect_errors=True, fragment=form == "--pre")
    assert doc.errors == []
    (jpre,) = doc.query("pre")
    assert jpre.to_text(separator="", strip=False) == normalized(page_pictures(PAGE_CONTROLS))
    if form == "--standalone":
        assert tree.find(".//title").text == page_pictures(str(f))
