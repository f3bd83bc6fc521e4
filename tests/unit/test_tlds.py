"""TLD sources: the installed Public Suffix List (ICANN section), the bundled
IANA snapshot as fallback, load_tlds for a caller's list, and ``uts58 tlds``."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import publicsuffixlist
import pytest
from counting import profile_steps

from uts58.cli.main import main
from uts58.hosts import tlds as tlds_module
from uts58.hosts.domains import domain_to_ascii, domain_to_unicode, normalize_tlds
from uts58.hosts.tlds import BUNDLED, TldSource, default_source, load_source, load_tlds
from uts58.tables.tlds import TLDS

DATA = Path(__file__).resolve().parents[2] / "tools" / "data"
IANA_FILE = DATA / "tlds-alpha-by-domain.txt"

# A small Public Suffix List written by hand: wildcard and exception rules,
# a Unicode rule, a rule followed by a comment, and a private section whose
# TLD must not count.
SAMPLE_PSL = """\
// This Source Code Form is subject to the terms of the Mozilla Public License.
// VERSION: 2026-01-02_03-04-05_UTC
// COMMIT: 0123456789abcdef

// ===BEGIN ICANN DOMAINS===

// ac : http://nic.ac/
ac
com.ac

// ck
*.ck
!www.ck

// рф
рф
org   and the rest of the line is ignored
// ===END ICANN DOMAINS===
// ===BEGIN PRIVATE DOMAINS===
blogspot.com
example.privatetld
// ===END PRIVATE DOMAINS===
"""
SAMPLE_PSL_TLDS = {"ac", "ck", "xn--p1ai", "org"}


@pytest.fixture
def fresh_default() -> Iterator[None]:
    """default_source() read again inside the test, and again after it."""
    default_source.cache_clear()
    yield
    default_source.cache_clear()


def psl_tlds_line_by_line(path: str) -> tuple[set[str], str | None]:
    """An independent, plain reading of a PSL file: (TLDs of the ICANN section, VERSION)."""
    tlds: set[str] = set()
    version = None
    inside = False
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if line.startswith("// VERSION:"):
                version = line.split(":", 1)[1].strip()
            if line == "// ===BEGIN ICANN DOMAINS===":
                inside = True
            elif line == "// ===END ICANN DOMAINS===":
                inside = False
            elif inside and line and not line.startswith("//"):
                last = line.split()[0].lstrip("!").split(".")[-1]
                ascii_form = domain_to_ascii(last)
                assert ascii_form is not None, line
                tlds.add(ascii_form)
    return tlds, version


# --------------------------------------------------------------------------
# default_source


def test_default_source_is_the_installed_psl_icann_section() -> None:
    source = default_source()
    assert source.source == f"publicsuffixlist {publicsuffixlist.__version__}, ICANN section"
    expected, version = psl_tlds_line_by_line(publicsuffixlist.PSLFILE)
    assert source.tlds == expected
    assert source.date == version and version is not None
    assert default_source() is source  # read once


def test_default_source_agrees_with_the_psl_library() -> None:
    """publicsuffixlist's own parser (not ours) read the same TLDs: the last
    labels of its ICANN rules (it keeps each Unicode rule also encoded)."""
    psl = publicsuffixlist.PublicSuffixList(only_icann=True)
    rules = getattr(psl, "_publicsuffix", None)
    if not isinstance(rules, frozenset):
        pytest.skip("publicsuffixlist no longer keeps its rules in _publicsuffix")
    assert default_source().tlds == {r.lstrip("!").split(".")[-1] for r in rules if r.isascii()}
    # And it takes each as an ICANN public suffix (accept_unknown=False: only what its rules say).
    strict = publicsuffixlist.PublicSuffixList(only_icann=True, accept_unknown=False)
    assert strict.publicsuffix("example.com") == "com" and strict.publicsuffix("example.xn--p1ai") == "xn--p1ai"
    assert strict.publicsuffix("example.goo") is None


def test_every_default_tld_is_a_valid_label() -> None:
    from uts58.hosts.domains import default_tlds, domain_rules
    from uts58.unicode.properties import DEFAULT_UNICODE_VERSION

    label = domain_rules(default_tlds(), DEFAULT_UNICODE_VERSION).label
    for tld in default_source().tlds:
        assert tld == tld.lower() and tld.isascii() and "." not in tld and 2 <= len(tld) <= 63, tld
        assert domain_to_ascii(tld) == tld, tld
        unicode_form = domain_to_unicode(tld)
        assert label.fullmatch(unicode_form), tld  # what detection takes as a label
        assert domain_to_ascii(unicode_form) == tld, tld


def test_psl_and_iana_sets_mostly_agree() -> None:
    """The two lists disagree at the edges (TLDs added or retired between
    their releases, IDN variants, .onion); the bulk is the same."""
    psl, iana = default_source().tlds, frozenset(TLDS)
    common = psl & iana
    print("only in the PSL:", sorted(psl - iana), "only in the IANA snapshot:", sorted(iana - psl))
    assert len(common) >= 0.97 * len(iana) and len(common) >= 0.97 * len(psl)
    assert {"com", "org", "de", "xn--p1ai", "xn--q9jyb4c"} <= common


def test_bundled_snapshot_and_its_date() -> None:
    bundled = tlds_module._bundled(None)
    assert bundled.source == BUNDLED
    assert bundled.tlds == frozenset(TLDS)
    header = IANA_FILE.read_text(encoding="ascii").splitlines()[0]
    assert bundled.date == header.lstrip("# ") and bundled.date.startswith("Version ")


def test_fallback_when_the_psl_data_is_missing(
    fresh_default: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missing = tmp_path / "nonexistent" / "public_suffix_list.dat"
    monkeypatch.setattr(publicsuffixlist, "PSLFILE", str(missing))
    source = default_source()
    assert source.tlds == frozenset(TLDS)
    assert source.source.startswith(f"{BUNDLED}; publicsuffixlist data unusable: {missing.parent}/")
    assert source.date is not None and source.date.startswith("Version ")


def test_fallback_when_publicsuffixlist_is_not_installed(fresh_default: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "publicsuffixlist", None)  # import raises ImportError
    source = default_source()
    assert source.tlds == frozenset(TLDS) and source.source == BUNDLED + "; publicsuffixlist is not installed"


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (SAMPLE_PSL.replace("// ===END ICANN DOMAINS===\n", ""), "needs one"),  # cut short
        (SAMPLE_PSL.replace("ICANN", "OTHER"), "needs one"),  # no ICANN section
        (SAMPLE_PSL.replace("com.ac", "com.a_c"), "line 9: 'com.a_c'"),
        ("ac\ncom\n", "not a Public Suffix List"),
        (b"// x\n\xff\n", "invalid UTF-8 at byte offset 5"),
    ],
)
def test_fallback_when_the_psl_data_cannot_be_read(
    fresh_default: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: str | bytes, why: str
) -> None:
    f = tmp_path / "public_suffix_list.dat"
    if isinstance(content, str):
        f.write_text(content, encoding="utf-8")
    else:
        f.write_bytes(content)
    monkeypatch.setattr(publicsuffixlist, "PSLFILE", str(f))
    source = default_source()
    assert source.tlds == frozenset(TLDS)
    assert source.source.startswith(f"{BUNDLED}; publicsuffixlist data unusable: {f}: ")
    assert why in source.source


def test_default_source_reads_another_psl_file(
    fresh_default: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    f = tmp_path / "public_suffix_list.dat"
    f.write_text(SAMPLE_PSL, encoding="utf-8")
    monkeypatch.setattr(publicsuffixlist, "PSLFILE", str(f))
    source = default_source()
    assert source.tlds == SAMPLE_PSL_TLDS and source.date == "2026-01-02_03-04-05_UTC"
    assert source.source.endswith(", ICANN section")


# --------------------------------------------------------------------------
# load_tlds: formats and inputs


def test_iana_file_gives_the_generated_table() -> None:
    """tools/gen_tables.py wrote the table from the same file: two readers agree."""
    assert load_tlds(IANA_FILE) == frozenset(TLDS)
    assert load_tlds(str(IANA_FILE)) == frozenset(TLDS)
    source = load_source(IANA_FILE)
    assert source.source == str(IANA_FILE)
    assert source.date == IANA_FILE.read_text(encoding="ascii").splitlines()[0][2:]


def test_psl_sample_uses_only_the_icann_section() -> None:
    source = load_source(SAMPLE_PSL)
    assert source.tlds == SAMPLE_PSL_TLDS
    assert source.source == "caller" and source.date == "2026-01-02_03-04-05_UTC"


def test_psl_without_markers_is_read_whole() -> None:
    assert load_tlds("// a list of my own\n*.ck\n!www.ck\nfoo.example\n\n") == {"ck", "example"}


def test_the_installed_psl_file_by_path_bytes_and_lines() -> None:
    expected = default_source().tlds
    path = Path(publicsuffixlist.PSLFILE)
    assert load_tlds(path) == expected
    assert load_tlds(path.read_bytes()) == expected
    with open(path, encoding="utf-8") as f:
        assert load_tlds(f) == expected  # an open text file: its lines
    assert load_source(path.read_bytes()).date == default_source().date


def test_inputs_and_normalization(tmp_path: Path) -> None:
    items = ["COM", ".org", "рф", "XN--Q9JYB4C", "ＮＥＴ"]
    expected = normalize_tlds(items)
    assert expected == {"com", "org", "xn--p1ai", "xn--q9jyb4c", "net"}
    text = "# Version 2099010100, Last Updated whenever\n" + "\n".join(items) + "\n"
    assert load_tlds(text) == expected
    assert load_tlds(text.replace("\n", "\r\n")) == expected
    assert load_tlds(text.replace("\n", "\r")) == expected
    assert load_tlds(text.encode()) == expected
    assert load_tlds(b"\xef\xbb\xbf" + text.encode()) == expected  # a BOM
    assert load_tlds(bytearray(text.encode())) == expected
    assert load_tlds(items) == expected  # the TLDs themselves
    assert load_tlds(iter(items)) == expected
    assert load_tlds(tuple(line + "\n" for line in items)) == expected
    assert load_tlds(f"  com  \n\n\t\n{' ' * 3}# indented comment\n") == {"com"}
    f = tmp_path / "tlds.txt"
    f.write_text(text, encoding="utf-8")
    source = load_source(f)
    assert source.tlds == expected and source.date == "Version 2099010100, Last Updated whenever"
    assert load_source(text, name="mine").source == "mine"


# --------------------------------------------------------------------------
# load_tlds: errors


@pytest.mark.parametrize("bad", [42, None, 3.5, {"com": 1}.values(), [b"com"], ["com", 7]])
def test_wrong_types(bad: object) -> None:
    with pytest.raises(TypeError, match="source must"):
        load_tlds(bad)  # type: ignore[arg-type]


def test_wrong_name_type() -> None:
    with pytest.raises(TypeError, match="name must be str"):
        load_source("com\n", name=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "label",
    [
        "example.com",
        "123",
        "0x1f",
        "a_b",
        "-com",
        "com-",
        "a" * 64,
        "a b",
        "xn--zz",  # not valid punycode
        "com.",
        "*",
        "%41",
        "a" * 10**6,
    ],
)
def test_a_line_that_is_not_a_tld(label: str) -> None:
    text = f"# Version 1\ncom\n\norg\n{label}\nnet\n"
    with pytest.raises(ValueError, match=r"^caller: line 5: '") as info:
        load_tlds(text)
    assert "is not a top-level domain label" in str(info.value)
    assert len(str(info.value)) < 200  # a long line is shown cut


def test_psl_errors_name_the_line() -> None:
    text = SAMPLE_PSL.replace("!www.ck", "!www.c_k")
    with pytest.raises(ValueError, match=r"^caller: line 13: '!www.c_k' is not a top-level domain label$"):
        load_tlds(text)
    # The first failing line in the file, though the label repeats later.
    text = "// x\nfoo.b_d\nok\nbar.b_d\n"
    with pytest.raises(ValueError, match=r"line 2: 'foo.b_d'"):
        load_tlds(text)


def test_psl_section_errors() -> None:
    for text in (
        SAMPLE_PSL.replace("// ===END ICANN DOMAINS===\n", ""),
        SAMPLE_PSL.replace("// ===BEGIN ICANN DOMAINS===\n", ""),
        SAMPLE_PSL.replace("// ===BEGIN ICANN DOMAINS===\n", "") + "// ===BEGIN ICANN DOMAINS===\n",  # END first
        SAMPLE_PSL + "// ===BEGIN ICANN DOMAINS===\n// ===END ICANN DOMAINS===\n",  # two sections
    ):
        with pytest.raises(ValueError, match="needs one '===BEGIN ICANN DOMAINS===' line"):
            load_tlds(text)


@pytest.mark.parametrize("text", ["", "\n\n", "# Version 1\n# only comments\n", "// only\n// comments\n"])
def test_empty_lists(text: str) -> None:
    with pytest.raises(ValueError, match="holds no top-level domain"):
        load_tlds(text)
    with pytest.raises(ValueError, match="holds no top-level domain"):
        load_tlds(text.encode())


def test_empty_icann_section() -> None:
    with pytest.raises(ValueError, match="holds no top-level domain"):
        load_tlds("// ===BEGIN ICANN DOMAINS===\n// ===END ICANN DOMAINS===\nexample.com\n")


def test_undecodable_bytes_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^caller: invalid UTF-8 at byte offset 4$"):
        load_tlds(b"com\n\xffnet\n")
    with pytest.raises(FileNotFoundError):
        load_tlds(tmp_path / "missing.txt")
    with pytest.raises(FileNotFoundError):
        load_tlds(str(tmp_path / "missing.txt"))  # a str without a line break is a path


# --------------------------------------------------------------------------
# Hostile input: linear work


def test_each_distinct_label_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = tlds_module._tld_label

    def counting(label: str) -> str | None:
        calls.append(label)
        return real(label)

    monkeypatch.setattr(tlds_module, "_tld_label", counting)
    n = 20_000
    assert load_tlds("// x\n" + "".join(f"n{k}.рф\n" for k in range(n))) == {"xn--p1ai"}
    assert calls == ["рф"]
    calls.clear()
    assert load_tlds("com\n" * n) == {"com"}
    assert calls == ["com"]


# One long line, or many lines.  A long line costs a few passes over memory:
# its sizes stay within the CPU caches, whose edge would look superlinear
# (a quadratic regex would take seconds at 200,000 characters).
ONE_LINE: dict[str, Callable[[int], str]] = {
    "spaces inside an IANA line": lambda n: "com\na" + " " * n + "b\n",
    "spaces in the PSL version": lambda n: "// VERSION: a" + " " * n + "b\ncom\n",
    "many labels in a rule": lambda n: "// x\n" + "a." * (n // 2) + "com\n",
    "many dots": lambda n: "// x\n" + "." * n + "com\n",
    "marker-like comment": lambda n: "// " + "===BEGIN ICANN DOMAINS" * (n // 22) + "\ncom\n",
    "markers on one line": lambda n: "// " + "===BEGIN ICANN DOMAINS===" * (n // 25) + "\ncom\n",
}
MANY_LINES: dict[str, Callable[[int], str]] = {
    "many blank lines": lambda n: "\n" * n + "com\n",
    "many comment lines": lambda n: "// x\n" * (n // 5) + "com\n",
    "many marker lines": lambda n: "// ===END ICANN DOMAINS===\n" * (n // 27) + "com\n",
    "many distinct rules": lambda n: "// x\n" + "".join(f"x{k}.com\n" for k in range(n // 8)),
    "many distinct TLDs": lambda n: "".join(f"t{chr(97 + k % 26)}{chr(97 + k // 26 % 26)}{k}\n" for k in range(n // 8)),
}


class _CountedPattern:
    """A compiled pattern whose calls count the characters they are given to
    scan and the matches they return (the regex engine's share of the steps:
    every pattern here reads a character in one way only, see tlds._SP)."""

    def __init__(self, pattern: re.Pattern[str], seen: list[int]) -> None:
        self.pattern, self.seen = pattern, seen

    def _span(self, text: str, pos: int = 0, endpos: int | None = None) -> None:
        self.seen[0] += (len(text) if endpos is None else endpos) - pos + 1

    def search(self, text: str, *args: int) -> re.Match[str] | None:
        self._span(text, *args)
        return self.pattern.search(text, *args)

    def findall(self, text: str, *args: int) -> list[str]:
        self._span(text, *args)
        found = self.pattern.findall(text, *args)
        self.seen[0] += len(found)
        return found

    def finditer(self, text: str, *args: int) -> Iterator[re.Match[str]]:
        self._span(text, *args)
        for m in self.pattern.finditer(text, *args):
            self.seen[0] += 1
            yield m


def load_steps(monkeypatch: pytest.MonkeyPatch, text: str) -> int:
    """The steps of ``load_tlds(text)``: Python calls and calls into C (each
    ``str.find``, each ``_tld_label``, each set insertion through a call),
    plus the characters the module's patterns are given and the matches they
    return.  A Python loop per character pair, a rescan per line or a
    quadratic search would all show up here."""
    seen = [0]
    for name in ("_PSL_COMMENT", "_PSL_RULE", "_PSL_VERSION", "_IANA_LINE", "_IANA_VERSION"):
        monkeypatch.setattr(tlds_module, name, _CountedPattern(getattr(tlds_module, name), seen))

    def load() -> None:
        try:
            load_tlds(text)
        except ValueError:
            pass  # refused lines count as much as accepted ones

    calls = profile_steps(load)
    monkeypatch.undo()
    return calls + seen[0]


@pytest.mark.parametrize(
    ("kind", "size"),
    [(kind, 50_000) for kind in ONE_LINE] + [(kind, 40_000 if "distinct" in kind else 200_000) for kind in MANY_LINES],
)
def test_load_steps_grow_linearly(monkeypatch: pytest.MonkeyPatch, kind: str, size: int) -> None:
    """N against 4N characters: linear is 4, quadratic 16 (steps, not seconds: D38)."""
    make = {**ONE_LINE, **MANY_LINES}[kind]
    small_text, large_text = make(size), make(4 * size)
    small, large = load_steps(monkeypatch, small_text), load_steps(monkeypatch, large_text)
    grown = max(4, len(large_text) / len(small_text))  # (numbered rules grow a little more than 4 times)
    assert large <= grown * small * 1.05 + 100, (small, large)
    assert large <= 20 * len(large_text) + 1000  # a few steps per character, whatever the shape


def test_a_rescan_per_line_would_be_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counter sees a quadratic loader: a _parse that searches again from
    every line start (as a naive line loop over the text would)."""
    real = tlds_module._parse

    def quadratic(text: str, **kw: Any) -> Any:
        at = text.find("\n")
        while at >= 0:
            tlds_module._IANA_LINE.search(text, at)  # the rest of the text, once per line
            at = text.find("\n", at + 1)
        return real(text, **kw)

    make = MANY_LINES["many distinct TLDs"]
    monkeypatch.setattr(tlds_module, "_parse", quadratic)
    small = load_steps(monkeypatch, make(8000))
    monkeypatch.setattr(tlds_module, "_parse", quadratic)
    large = load_steps(monkeypatch, make(32_000))
    assert large > 8 * small


# --------------------------------------------------------------------------
# TldSource


def test_tld_source_is_frozen_and_short_in_repr() -> None:
    source = TldSource(frozenset({"com"}), "caller", "v1")
    with pytest.raises(AttributeError):
        source.tlds = frozenset()  # type: ignore[misc]
    assert repr(source) == "TldSource(source='caller', date='v1', tlds=<1 TLDs>)"
    assert repr(default_source()).endswith(f"tlds=<{len(default_source().tlds)} TLDs>)")


# --------------------------------------------------------------------------
# uts58 tlds


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tlds")
    source = default_source()
    assert code == 0 and err == ""
    assert out.splitlines() == [f"source: {source.source}", f"date: {source.date}", f"count: {len(source.tlds)}"]


def test_cli_list_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    tlds = default_source().tlds
    code, out, _ = run(capsys, "tlds", "--list")
    assert code == 0 and out.endswith("\n")
    assert out.splitlines() == sorted(tlds)
    code, out, _ = run(capsys, "tlds", "--json")
    record = json.loads(out)
    assert record == {"source": default_source().source, "date": default_source().date, "count": len(tlds)}
    code, out, _ = run(capsys, "tlds", "--json", "--list")
    record = json.loads(out)
    assert record["tlds"] == sorted(tlds) and record["count"] == len(tlds)


def test_cli_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "tlds", "--file", str(IANA_FILE))
    header = IANA_FILE.read_text(encoding="ascii").splitlines()[0][2:]
    assert code == 0
    assert out.splitlines() == [f"source: {IANA_FILE}", f"date: {header}", f"count: {len(TLDS)}"]
    f = tmp_path / "psl.dat"
    f.write_text(SAMPLE_PSL, encoding="utf-8")
    code, out, _ = run(capsys, "tlds", "--file", str(f), "--json", "--list")
    assert json.loads(out) == {
        "source": str(f),
        "date": "2026-01-02_03-04-05_UTC",
        "count": len(SAMPLE_PSL_TLDS),
        "tlds": sorted(SAMPLE_PSL_TLDS),
    }
    f.write_text("# no version\nmytld\n", encoding="utf-8")
    code, out, _ = run(capsys, "tlds", "--file", str(f))
    assert out.splitlines() == [f"source: {f}", "date: unknown", "count: 1"]


def test_cli_file_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("com\nрф\n".encode()), encoding="utf-8"))
    code, out, _ = run(capsys, "tlds", "--file", "-", "--list")
    assert code == 0 and out == "com\nxn--p1ai\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"com\nexample.com\n"), encoding="utf-8"))
    code, out, err = run(capsys, "tlds", "--file", "-")
    assert code == 2 and out == ""
    assert err == "uts58 tlds: <stdin>: line 2: 'example.com' is not a top-level domain label\n"


def test_cli_file_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "tlds", "--file", str(tmp_path / "missing.txt"))
    assert code == 2 and out == "" and err == f"uts58 tlds: {tmp_path / 'missing.txt'}: No such file or directory\n"
    code, out, err = run(capsys, "tlds", "--file", str(tmp_path))
    assert code == 2 and "Is a directory" in err
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"com\n\xff\n")
    code, out, err = run(capsys, "tlds", "--file", str(bad))
    assert code == 2 and err == f"uts58 tlds: {bad}: invalid UTF-8 at byte offset 4\n"
