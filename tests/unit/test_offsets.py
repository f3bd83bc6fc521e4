"""Link offsets in UTF-8 bytes and UTF-16 code units (uts58.output.offsets, D73) and ``uts58 detect --offsets`` (D74).

Every expected offset here is computed by ``str.encode`` of the text before
it (and checked by slicing the encoded text), never by the code under test.
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import uts58.cli.main
import uts58.output.offsets
from uts58 import Link, OffsetError, OptionError, find_links
from uts58.cli.main import main
from uts58.conformance import TEST_VERSIONS, data_file, read_detection_test
from uts58.output.offsets import UNITS, Unit, link_offsets, unit_length

CODECS = {"utf8": ("utf-8", 1), "utf16": ("utf-16-le", 2)}


def expected(text: str, pairs: list[tuple[int, int]], unit: Unit) -> list[tuple[int, int]]:
    """The offsets by encoding each prefix (quadratic: the reference, for short texts)."""
    if unit == "codepoints":
        return list(pairs)
    codec, width = CODECS[unit]

    def at(i: int) -> int:
        return len(text[:i].encode(codec, "surrogatepass")) // width

    return [(at(s), at(e)) for s, e in pairs]


def sliced(text: str, span: tuple[int, int], unit: Unit) -> str:
    """``text`` encoded in ``unit``, sliced at ``span`` and decoded."""
    codec, width = CODECS[unit]
    return text.encode(codec, "surrogatepass")[span[0] * width : span[1] * width].decode(codec, "surrogatepass")


# --------------------------------------------------------------------------
# Exact on the conformance files


@pytest.mark.parametrize("version", TEST_VERSIONS)
@pytest.mark.parametrize("unit", ["utf8", "utf16"])
def test_every_conformance_line(version: str, unit: Unit) -> None:
    lines = read_detection_test(data_file(version, "LinkDetectionTest.txt"))
    assert len(lines) > 100
    astral = non_ascii = 0
    for line in lines:
        text = line.text
        marked = [(link.start, link.end) for link in line.links]
        got = link_offsets(text, marked, unit)
        assert got == expected(text, marked, unit), line.line
        for span, link in zip(got, line.links, strict=True):
            assert sliced(text, span, unit) == link.text, line.line
        # What detection finds (the Link values themselves), and every position, last first.
        found = list(find_links(text))
        assert [sliced(text, span, unit) for span in link_offsets(text, found, unit)] == [f.text for f in found]
        every = [(i, i) for i in range(len(text), -1, -1)]
        assert link_offsets(text, every, unit) == expected(text, every, unit), line.line
        astral += any(ord(ch) > 0xFFFF for ch in text)
        non_ascii += not text.isascii()
    assert astral and non_ascii  # the files do exercise both units


# --------------------------------------------------------------------------
# The cases that differ between units

CASES = [
    "",
    "example.com",
    "😀 example.com/😀 x@example.org 😀",
    "𠀀𠀀.com and 𠀀@𠀀.jp",
    "see e\u0301xample.com/cafe\u0301?q=n\u0303 now",  # combining marks
    "👩\u200d👩\u200d👧 family.example/👨\u200d👩\u200d👦",  # ZWJ sequences, astral
    "bücher.de",  # a link that is the whole text
    "a \ud800 b.com/\udfff \udbff\udc00 x@y.com \ud83d",  # lone surrogates, and a "pair" of code points
    "ﬀ.com ǅ.com ﷺ straße.de \u0800\uffff.com",  # 3-byte UTF-8, BMP edge
]


@pytest.mark.parametrize("text", CASES)
@pytest.mark.parametrize("unit", UNITS)
def test_cases_against_encode(text: str, unit: Unit) -> None:
    found = list(find_links(text))
    pairs = [(link.start, link.end) for link in found] + [(0, len(text)), (0, 0), (len(text), len(text))]
    got = link_offsets(text, pairs, unit)
    assert got == expected(text, pairs, unit)
    assert link_offsets(text, found, unit) == got[: len(found)]
    if unit != "codepoints":
        assert [sliced(text, span, unit) for span in got[: len(found)]] == [link.text for link in found]
    assert unit_length(text, unit) == expected(text, [(0, len(text))], unit)[0][1]


def test_astral_and_links_at_start_and_end() -> None:
    text = "😀.com 😀"
    pairs = [(0, 5), (6, 7)]  # "😀.com" from the start, "😀" at the very end
    assert link_offsets(text, pairs, "utf16") == [(0, 6), (7, 9)]
    assert link_offsets(text, pairs, "utf8") == [(0, 8), (9, 13)]
    assert link_offsets(text, pairs, "codepoints") == pairs
    assert link_offsets("", [(0, 0)], "utf8") == [(0, 0)] and link_offsets("", [], "utf16") == []


def test_lone_surrogates_count_as_surrogatepass_encodes_them() -> None:
    # A lone surrogate: 3 bytes (as surrogatepass; as the U+FFFD TextEncoder writes), 1 UTF-16 unit (D73).
    text = "\ud800x.com"
    assert link_offsets(text, [(1, 6)], "utf8") == [(3, 8)]
    assert link_offsets(text, [(1, 6)], "utf16") == [(1, 6)]
    assert len("\ufffd".encode()) == len("\ud800".encode("utf-8", "surrogatepass")) == 3
    # Two surrogate code points in a str are two lone ones: 6 bytes, and the same 2 units as the astral character.
    pair = "\ud83d\ude00a.com"
    assert link_offsets(pair, [(2, 7)], "utf8") == [(6, 11)]
    assert link_offsets(pair, [(2, 7)], "utf16") == link_offsets("😀a.com", [(1, 6)], "utf16") == [(2, 7)]
    assert unit_length("\udfff", "utf8") == 3 and unit_length("\udfff", "utf16") == 1


def test_any_order_and_repeats() -> None:
    text = "é x.com 😀 y.org ü z@w.de"
    found = list(find_links(text))
    assert len(found) == 3
    in_order = link_offsets(text, found, "utf8")
    rng = random.Random(58)
    for _ in range(20):
        order = list(range(3)) * 2
        rng.shuffle(order)
        assert link_offsets(text, [found[k] for k in order], "utf8") == [in_order[k] for k in order]
    # Overlapping and nested spans are converted too (not only detection's).
    assert link_offsets(text, [(0, 10), (2, 7), (1, 1)], "utf16") == expected(text, [(0, 10), (2, 7), (1, 1)], "utf16")


def test_accepts_iterators_lists_and_hand_built_links() -> None:
    text = "ü a.com"
    assert link_offsets(text, iter([[2, 7]]), "utf8") == [(3, 8)]
    assert link_offsets(text, find_links(text), "utf8") == [(3, 8)]
    assert link_offsets(text, (p for p in [(2, 7)]), "utf16") == [(2, 7)]
    assert link_offsets(text, [Link(2, 7, "url", "a.com", None, "a.com")], "utf8") == [(3, 8)]


# --------------------------------------------------------------------------
# Errors


def test_wrong_types_name_the_argument() -> None:
    with pytest.raises(TypeError, match="text must be str, not bytes"):
        link_offsets(b"a.com", [], "utf8")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="links must be an iterable"):
        link_offsets("a.com", 5, "utf8")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="links must be an iterable"):
        link_offsets("a.com", "a.com", "utf8")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"links\[1\] must be a Link or a \(start, end\) pair, not dict"):
        link_offsets("a.com", [(0, 1), {"start": 0, "end": 1}], "utf8")  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"links\[0\] must be a Link or a \(start, end\) pair, not tuple"):
        link_offsets("a.com", [(0, 1, 2)], "utf8")  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"links\[0\] start must be int, not bool"):
        link_offsets("a.com", [(True, 1)], "utf8")
    with pytest.raises(TypeError, match=r"links\[0\] end must be int, not float"):
        link_offsets("a.com", [(0, 1.0)], "utf8")  # type: ignore[list-item]
    with pytest.raises(TypeError, match="unit must be str, not NoneType"):
        link_offsets("a.com", [], None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be str, not NoneType"):
        unit_length(None, "utf8")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unit must be str, not int"):
        unit_length("a", 8)  # type: ignore[arg-type]


@pytest.mark.parametrize("unit", ["utf-8", "UTF16", "bytes", ""])
def test_bad_unit_is_an_option_error(unit: str) -> None:
    with pytest.raises(OptionError, match=f"unit must be one of 'codepoints', 'utf8', 'utf16', not '{unit}'"):
        link_offsets("ü a.com", [(2, 7)], unit)  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        unit_length("abc", unit)  # type: ignore[arg-type]


def test_bad_offsets_are_offset_errors() -> None:
    # Checked whatever the unit and even when the text is ASCII (no fast path skips the checks).
    for text in ("a.com", "ü.com"):
        for unit in UNITS:
            with pytest.raises(OffsetError, match=r"links\[0\] end=6 is outside the text \(length 5\)"):
                link_offsets(text, [(0, 6)], unit)
            with pytest.raises(OffsetError, match=r"links\[1\] start=-1 is outside"):
                link_offsets(text, [(0, 1), (-1, 2)], unit)
            with pytest.raises(OffsetError, match=r"links\[0\]: end 1 is before start 3"):
                link_offsets(text, [(3, 1)], unit)
    assert issubclass(OffsetError, ValueError)


# --------------------------------------------------------------------------
# Linear: one pass over the text for all links


class Steps:
    def __init__(self) -> None:
        self.calls = 0
        self.chars = 0


def count_units(monkeypatch: pytest.MonkeyPatch) -> Steps:
    steps = Steps()
    real = uts58.output.offsets._units

    def counting(segment: str, unit: Any) -> int:
        steps.calls += 1
        steps.chars += len(segment)
        return real(segment, unit)

    monkeypatch.setattr(uts58.output.offsets, "_units", counting)
    return steps


@pytest.mark.parametrize("unit", ["utf8", "utf16"])
def test_one_pass_for_many_links(monkeypatch: pytest.MonkeyPatch, unit: Unit) -> None:
    steps = count_units(monkeypatch)
    chunk = "😀 bücher.de/x "
    results = {}
    for n in (2000, 4000):
        text = chunk * n
        many = list(find_links(text))
        assert len(many) == n
        for name, links in (("one", many[-1:]), ("many", many), ("shuffled", random.Random(n).sample(many, n))):
            steps.calls = steps.chars = 0
            got = link_offsets(text, links, unit)
            assert got[0] == expected(text, [(links[0].start, links[0].end)], unit)[0]
            # Each character before the last boundary is counted exactly once, in at most 2 segments per link.
            assert steps.chars == max(link.end for link in links)
            assert steps.calls <= 2 * len(links)
            results[name, n] = steps.chars, steps.calls
    for name in ("one", "many", "shuffled"):
        chars, calls = results[name, 4000]
        # Twice the text (and twice the links): at most twice the steps (plus one chunk: the last link's end).
        assert chars <= 2 * results[name, 2000][0] + len(chunk) and calls <= 2 * results[name, 2000][1]
    assert results["one", 4000][1] == 2 and results["many", 4000][1] <= 2 * 4000


def test_fast_paths_count_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = count_units(monkeypatch)
    ascii_text = "see a.com and b.org " * 100
    bmp_text = "see bücher.de and ü.org " * 100  # no astral character: UTF-16 offsets are code points
    for text, unit in ((ascii_text, "utf8"), (ascii_text, "utf16"), (bmp_text, "utf16"), (bmp_text, "codepoints")):
        pairs = [(link.start, link.end) for link in find_links(text)]
        assert link_offsets(text, pairs, unit) == expected(text, pairs, unit)  # type: ignore[arg-type]
    assert steps.calls == 0
    pairs = [(link.start, link.end) for link in find_links(bmp_text)]
    assert link_offsets(bmp_text, pairs, "utf8") == expected(bmp_text, pairs, "utf8")
    assert steps.calls > 0


# --------------------------------------------------------------------------
# uts58 detect --json --offsets (D74)

TEXT = "😀 see bücher.de/straße, x@example.com\n𠀀 and https://example.org/𠀀 ok\né ü.com\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def check_records(records: list[dict[str, Any]], text: str, unit: Unit) -> None:
    assert records
    for record in records:
        span = record["start"], record["end"]
        got = text[span[0] : span[1]] if unit == "codepoints" else sliced(text, span, unit)
        assert got == record["text"]


@pytest.mark.parametrize("unit", UNITS)
def test_cli_offsets_of_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, unit: Unit) -> None:
    f = tmp_path / "a.txt"
    f.write_text(TEXT * 50, encoding="utf-8")
    code, records, err = run(capsys, "detect", "--json", "--offsets", unit, str(f))
    assert code == 0 and err == "" and len(records) == 200
    check_records(records, TEXT * 50, unit)
    # Small blocks (so several, with one or two processes): offsets into the whole file all the same.
    for jobs in ("1", "2"):
        code, blocked, _ = run(capsys, "detect", "--json", "--offsets", unit, "-j", jobs, "--block-size", "300", str(f))
        assert code == 0 and blocked == records
    if unit == "utf8":  # UTF-8 offsets of a UTF-8 file are its byte offsets
        data = f.read_bytes()
        assert all(data[r["start"] : r["end"]].decode() == r["text"] for r in records)


def test_cli_offsets_default_is_codepoints(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text(TEXT, encoding="utf-8")
    _, default, _ = run(capsys, "detect", "--json", str(f))
    _, codepoints, _ = run(capsys, "detect", "--json", "--offsets", "codepoints", str(f))
    _, utf16, _ = run(capsys, "detect", "--json", "--offsets", "utf16", str(f))
    assert default == codepoints and default != utf16
    check_records(default, TEXT, "codepoints")
    assert [{**r, "start": 0, "end": 0} for r in default] == [{**r, "start": 0, "end": 0} for r in utf16]


@pytest.mark.parametrize("unit", ["utf8", "utf16"])
def test_cli_offsets_of_many_files_and_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, unit: Unit
) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(TEXT, encoding="utf-8")
    b.write_text("𠀀𠀀 " + TEXT, encoding="utf-8")
    monkeypatch.setattr(uts58.cli.io, "READ_SIZE", 7)  # standard input in many pieces
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((TEXT * 3).encode()), encoding="utf-8"))
    code, records, _ = run(capsys, "detect", "--json", "--offsets", unit, str(a), "-", str(b))
    assert code == 0
    texts = {str(a): TEXT, "-": TEXT * 3, str(b): "𠀀𠀀 " + TEXT}  # offsets start again in each file
    assert {r["file"] for r in records} == set(texts)
    for name, text in texts.items():
        check_records([r for r in records if r["file"] == name], text, unit)


def test_cli_offsets_need_json_and_a_known_unit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text(TEXT, encoding="utf-8")
    assert main(["detect", "--offsets", "utf8", str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "uts58 detect: --offsets applies to --json output only\n"
    with pytest.raises(SystemExit) as exc:
        main(["detect", "--json", "--offsets", "utf-8", str(f)])
    assert exc.value.code == 2
    assert "invalid choice: 'utf-8'" in capsys.readouterr().err


def test_cli_help_says_offsets_count_code_points(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["detect", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "start and end count code points unless --offsets says otherwise" in help_text
    assert "--offsets {codepoints,utf8,utf16}" in help_text
