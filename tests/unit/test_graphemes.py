"""uts58.unicode.graphemes: exact UAX #29 extended grapheme clusters for Unicode
17.0.0 and 18.0.0 (D121, superseding D79).

The reference is each version's GraphemeBreakTest.txt, every line.  The
``regex`` module's ``\\X`` (dev extra, an independent segmenter) is a test
oracle only, for generated text.  Its Unicode data is 18.0.0 (its
Grapheme_Cluster_Break, InCB and Extended_Pictographic equal ours on every
character assigned in 18.0.0: checked below), so for 17.0.0 the comparison
leaves out characters unassigned in 17.0.0 and the three whose InCB changed
(VERSION_GAP), and allows for the GB9c of 17.0 (a Linker joins a following
consonant only after a consonant: GB9C_17).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import SupportsIndex

import pytest
from conftest import DATA
from counting import count_grapheme_lookups
from hypothesis import given
from hypothesis import strategies as st

from uts58.conformance import data_file, read_detection_test, read_formatting_test
from uts58.errors import OffsetError, OptionError
from uts58.unicode import graphemes
from uts58.unicode.graphemes import boundaries, boundary_at_or_after, boundary_at_or_before, is_boundary
from uts58.unicode.properties import DEFAULT_UNICODE_VERSION

regex = pytest.importorskip("regex", reason="the grapheme oracle `regex` is in the dev extra (pip install -e .[dev])")

VERSIONS = ("17.0.0", "18.0.0")


def _break_test(version: str) -> Iterator[tuple[int, str, list[int]]]:
    """(line number, text, boundaries) of every test line of GraphemeBreakTest.txt."""
    path = DATA / version / "GraphemeBreakTest.txt"
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        text, expected = "", []
        for token in line:
            if token == "÷":
                expected.append(len(text))
            elif token != "×":
                text += chr(int(token, 16))
        yield number, text, expected


@pytest.mark.parametrize("version", VERSIONS)
def test_every_line_of_grapheme_break_test(version: str) -> None:
    """Every line of the version's GraphemeBreakTest.txt (÷ a boundary, ×
    none), through each of the four functions; every failing line reported."""
    failures, lines = [], 0
    for number, text, expected in _break_test(version):
        lines += 1
        n = len(text)
        found = {
            "boundaries": list(boundaries(text, unicode_version=version)),
            "is_boundary": [i for i in range(n + 1) if is_boundary(text, i, unicode_version=version)],
            "at_or_before": [boundary_at_or_before(text, i, unicode_version=version) for i in range(n + 1)],
            "at_or_after": [boundary_at_or_after(text, i, unicode_version=version) for i in range(n + 1)],
        }
        wanted = {
            "boundaries": expected,
            "is_boundary": expected,
            "at_or_before": [max(b for b in expected if b <= i) for i in range(n + 1)],
            "at_or_after": [min(b for b in expected if b >= i) for i in range(n + 1)],
        }
        failures += [
            f"line {number}: {name} {found[name]} != {wanted[name]}" for name in found if found[name] != wanted[name]
        ]
    raw = (DATA / version / "GraphemeBreakTest.txt").read_text(encoding="utf-8").splitlines()
    assert lines == sum(1 for r in raw if r.strip() and not r.startswith("#")) > 700  # every line read
    assert not failures, "\n".join(failures)


def test_gb9c_of_each_version() -> None:
    """GB9c changed in 18.0: a Linker (and the Vedic signs and the Zanabazar
    Square letter that became Linkers) joins the next consonant whatever precedes it."""
    for text in ("\u094d\u0915", "\u25cc\u094d\u0915", "a\u094d\u0308\u0924"):
        assert list(boundaries(text, unicode_version="18.0.0")) == [0, len(text)]
        assert list(boundaries(text, unicode_version="17.0.0")) == [0, len(text) - 1, len(text)]
    assert list(boundaries("\u1cf5\u0995", unicode_version="18.0.0")) == [0, 2]
    assert list(boundaries("\u1cf5\u0995", unicode_version="17.0.0")) == [0, 1, 2]
    for version in VERSIONS:  # consonant, virama, consonant: one cluster in both
        assert list(boundaries("\u0915\u094d\u0937\u093f", unicode_version=version)) == [0, 4]


@cache
def _assigned(version: str) -> frozenset[int]:
    """Code points assigned in UnicodeData.txt (read here, not by the generator)."""
    out: set[int] = set()
    first = None
    for raw in (DATA / version / "UnicodeData.txt").read_text(encoding="utf-8").splitlines():
        cp_hex, name = raw.split(";")[:2]
        cp = int(cp_hex, 16)
        if name.endswith(", First>"):
            first = cp
        elif name.endswith(", Last>") and first is not None:
            out.update(range(first, cp + 1))
        else:
            out.add(cp)
    return frozenset(out - set(range(0xD800, 0xE000)))


def _incb(path: Path) -> dict[int, str]:
    out = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        fields = [f.strip() for f in raw.split("#", 1)[0].split(";")]
        if len(fields) == 3 and fields[1] == "InCB":
            first, _, last = fields[0].partition("..")
            for cp in range(int(first, 16), int(last or first, 16) + 1):
                out[cp] = fields[2]
    return out


@cache
def _all(version: str) -> str:
    return "".join(map(chr, sorted(_assigned(version))))


def _with(prop: str, version: str) -> set[int]:
    return {ord(m.group()) for m in regex.finditer(rf"\p{{{prop}}}", _all(version))}


INCB_17 = _incb(DATA / "17.0.0" / "DerivedCoreProperties.txt")
VERSION_GAP = frozenset(
    cp
    for value in ("Consonant", "Linker", "Extend")
    for cp in _with(f"InCB={value}", "17.0.0") ^ {c for c, v in INCB_17.items() if v == value}
)
REGEX_INFO = (
    f"regex {regex.__version__}: Unicode 18.0.0 data; InCB differs from 17.0.0 for {len(VERSION_GAP)} characters"
)
# Where the GB9c of 18.0 joins and that of 17.0 does not: before a consonant
# after Linker Extend*, in a run of Extend/Linker that follows no consonant.
GB9C_17 = regex.compile(
    r"(?:^|(?<=[^\p{InCB=Consonant}\p{InCB=Extend}\p{InCB=Linker}]))"
    r"[\p{InCB=Extend}\p{InCB=Linker}]*\p{InCB=Linker}\p{InCB=Extend}*(?=\p{InCB=Consonant})"
)


def oracle(text: str, version: str) -> set[int]:
    found = {0, *(m.end() for m in regex.finditer(r"\X", text))}
    if version == "17.0.0":
        found |= {m.end() for m in GB9C_17.finditer(text)}  # GB999 there in 17.0 (the left side is Extend)
    return found


def comparable(text: str, version: str) -> bool:
    assigned = _assigned(version)
    return all(ord(ch) in assigned and ord(ch) not in VERSION_GAP for ch in text)


def test_oracle_version_gap_is_small_and_known() -> None:
    """Every character assigned in 17.0.0 or 18.0.0 is assigned for the
    oracle too; the InCB differences from 17.0.0 are the two Vedic signs and
    the Zanabazar Square letter that became Linkers (REGEX_INFO)."""
    for version in VERSIONS:
        assert not regex.search(r"\p{Cn}", _all(version)), REGEX_INFO
    assert VERSION_GAP == {0x1CF5, 0x1CF6, 0x11A3A}, REGEX_INFO


@pytest.mark.parametrize("version", VERSIONS)
def test_properties_against_the_oracle(version: str) -> None:
    """Grapheme_Cluster_Break, InCB and Extended_Pictographic of every
    assigned character, as the tables give them, are the oracle's."""
    seg = graphemes._load(version)
    codes = sorted({0, *_flat(version)[2::3]})
    code = {cp: codes[graphemes._class(seg, chr(cp))] for cp in _assigned(version)}
    for k, name in enumerate(graphemes._GCB):
        assert {cp for cp, c in code.items() if c & 15 == k} == _with(f"Grapheme_Cluster_Break={name}", version), name
    for k, name in enumerate(graphemes._INCB[1:], 1):
        ours = {cp for cp, c in code.items() if c >> 4 & 3 == k}
        assert ours - VERSION_GAP == _with(f"InCB={name}", version) - VERSION_GAP, name
        if version == "17.0.0":
            assert ours == {cp for cp, v in INCB_17.items() if v == name}, name
    assert {cp for cp, c in code.items() if c & 64} == _with("Extended_Pictographic", version)


def _flat(version: str) -> tuple[int, ...]:
    module = __import__(f"uts58.tables.graphemes_v{version.replace('.', '_')}", fromlist=["GRAPHEME"])
    return tuple(module.GRAPHEME)


@pytest.mark.parametrize("version", VERSIONS)
def test_the_lookup_is_the_table(version: str) -> None:
    """The two-stage lookup built at load gives every code point the code of
    the generated ranges (0 where none is listed)."""
    flat = _flat(version)
    codes = sorted({0, *flat[2::3]})
    expected = bytearray(0x110000)
    for first, last, value in zip(flat[0::3], flat[1::3], flat[2::3], strict=True):
        expected[first : last + 1] = bytes([codes.index(value)]) * (last - first + 1)
    seg = graphemes._load(version)
    assert bytes(seg.stage2[seg.stage1[cp >> 8] + (cp & 255)] for cp in range(0x110000)) == expected


MIXED = (
    "aZ09./?#=&%-~ \t\r\n\x00\x7f\xad"
    "e\u0301\u0300\u0327ñ"  # Latin with combining marks
    "кирилл\u0301"
    "漢字かなカナ\u3099"
    "\u0915\u094d\u0937\u093f\u0928\u093c\u0902\u0903\u0924\u200d\u200c\u25cc\u0905"  # Devanagari, ZWJ/ZWNJ
    "\u0995\u09cd\u09b7\u09be"  # Bengali
    "\u0d4e\u0d15\u0d4d\U000111c2\u1cf5\U00011a3a\U00011a0b"  # Prepend letters; Linkers since 18.0
    "\u0600\u0661\u06dd\u0627\u064b"  # Arabic, prepended concatenation marks
    "\u1100\u1161\u11a8\uac00\uac01\ud7b0"  # Hangul jamo and syllables
    "\u0e01\u0e33\u0e48\u0e3a"  # Thai
    "\u1780\u17d2\u178f\u17b8"  # Khmer: coeng, the Linker
    "\U0001f468\U0001f469\U0001f467\U0001f3fd\ufe0f\u2764\u00a9"  # emoji, modifiers, VS16
    "\U0001f1eb\U0001f1f7\U0001f1e9"  # regional indicators
    "\U000e0067\U000e007f\U0001f3f4"  # tag sequences
    "\U00016d63\U00016d67\U00016d40"  # Kirat Rai (class V since Unicode 16)
)


@pytest.mark.parametrize("version", VERSIONS)
@given(text=st.text(alphabet=MIXED, max_size=40))
def test_boundaries_are_the_oracle_on_mixed_scripts(version: str, text: str) -> None:
    if comparable(text, version):
        assert set(boundaries(text, unicode_version=version)) == oracle(text, version), REGEX_INFO


@cache
def _any_text(version: str) -> st.SearchStrategy[str]:
    return st.text(alphabet=st.sampled_from(sorted(_assigned(version) - VERSION_GAP)).map(chr), max_size=30)


@pytest.mark.parametrize("version", VERSIONS)
@given(data=st.data())
def test_boundaries_are_the_oracle_on_any_character(version: str, data: st.DataObject) -> None:
    text = data.draw(_any_text(version))
    assert set(boundaries(text, unicode_version=version)) == oracle(text, version), REGEX_INFO


def test_conformance_lines() -> None:
    """The texts of the UTS #58 conformance files, in both versions."""
    texts = []
    for version in VERSIONS:
        texts += [line.text for line in read_detection_test(data_file(version, "LinkDetectionTest.txt"))]
        for case in read_formatting_test(data_file(version, "LinkFormattingTest.txt")):
            texts += [case.source, case.expected]
    for version in VERSIONS:
        checked = [t for t in texts if comparable(t, version)]
        assert len(checked) > 0.95 * len(texts)
        for text in checked:
            assert set(boundaries(text, unicode_version=version)) == oracle(text, version), text


@pytest.mark.parametrize("version", VERSIONS)
@given(text=st.text(alphabet=MIXED, max_size=30), data=st.data())
def test_walks_agree_with_the_iterator(version: str, text: str, data: st.DataObject) -> None:
    found = list(boundaries(text, unicode_version=version))
    assert found == [i for i in range(len(text) + 1) if is_boundary(text, i, unicode_version=version)]
    i = data.draw(st.integers(0, len(text)))
    assert boundary_at_or_before(text, i, unicode_version=version) == max(b for b in found if b <= i)
    assert boundary_at_or_after(text, i, unicode_version=version) == min(b for b in found if b >= i)


def test_examples() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert list(boundaries(family + "x")) == [0, 5, 6]  # GB11
    assert list(boundaries("x\u200d\U0001f469")) == [0, 2, 3]  # GB11 needs an ExtPict before the ZWJ
    assert list(boundaries("\r\n\r")) == [0, 2, 3]  # GB3, GB4
    assert list(boundaries("\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea\U0001f1ec")) == [0, 2, 4, 5]  # GB12/GB13
    assert list(boundaries("a\U0001f1eb\U0001f1f7\U0001f1e9")) == [0, 1, 3, 4]  # GB13: parity from the run's start
    assert list(boundaries("\u0915\u094d\u0937")) == [0, 3]  # GB9c: one conjunct
    assert list(boundaries("\u0915\u0937")) == [0, 1, 2]  # no Linker: two clusters
    assert list(boundaries("\uac00\u11a8a")) == [0, 2, 3]  # LV T
    assert list(boundaries("\u0e01\u0e33\u0e02")) == [0, 2, 3]  # GB9a: Thai SARA AM is a SpacingMark
    assert not is_boundary("\u0600\u0661", 1)  # GB9b
    assert is_boundary("\u0915\u0916", 1)  # a Devanagari letter is no Prepend (D79 refused this cut)
    assert is_boundary("a\x00", 1) and is_boundary("\x00\u0301", 1)  # GB4, GB5
    assert list(boundaries("")) == [0]


def test_versions() -> None:
    """The default is the package's; each version's tables load once; a
    version that is not bundled is an OptionError, one that is no str a TypeError."""
    assert graphemes.UNICODE_VERSION == DEFAULT_UNICODE_VERSION == "18.0.0"
    assert graphemes._load("17.0.0") is graphemes._load("17.0.0") is not graphemes._load("18.0.0")
    for call in (
        lambda v: boundaries("ab", unicode_version=v),
        lambda v: is_boundary("ab", 1, unicode_version=v),
        lambda v: boundary_at_or_before("ab", 1, unicode_version=v),
        lambda v: boundary_at_or_after("ab", 1, unicode_version=v),
    ):
        for bad in ("16.0.0", "17_0_0", "", "dev"):
            with pytest.raises(OptionError, match=r"is not bundled; available: 17\.0\.0, 18\.0\.0"):
                call(bad)
        with pytest.raises(TypeError, match="unicode_version"):
            call(17)


def test_argument_errors() -> None:
    with pytest.raises(TypeError, match="text"):
        is_boundary(b"ab", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="i"):
        boundary_at_or_after("ab", "1")  # type: ignore[arg-type]
    with pytest.raises(OffsetError, match="i=3"):
        boundary_at_or_before("ab", 3)
    with pytest.raises(OffsetError, match="i=-1"):
        is_boundary("ab", -1)
    with pytest.raises(TypeError, match="text"):
        list(boundaries(None))  # type: ignore[arg-type]


class Reads(str):
    """A text that counts the characters read from it, by iteration or index."""

    count = 0

    def __iter__(self) -> Iterator[str]:
        for ch in str.__iter__(self):
            Reads.count += 1
            yield ch

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        item = str.__getitem__(self, key)
        Reads.count += len(item)
        return item


# Runs with few boundaries or none, each n characters long or about.
HOSTILE = {
    "regional indicators": lambda n: "\U0001f1e6" * n,
    "Extend run": lambda n: "a" + "\u0301" * n,
    "ZWJ run": lambda n: "\u200d" * n,
    "ZWJ chain": lambda n: "\U0001f468\u200d" * (n // 2),
    "InCB Linker chain": lambda n: "\u0915\u094d" * (n // 2),
    "Linker run": lambda n: "\u094d" * n + "\u0915",
    "InCB Extend run": lambda n: "\u0915\u094d" + "\u093c" * n + "\u0915",
}


def _walk_steps(text: str, version: str, lookups: object) -> dict[str, int]:
    """The grapheme lookups of each walk from its worst places in ``text``."""
    n, steps = len(text), {}
    for name, walk in (
        ("is_boundary", lambda: [is_boundary(text, i, unicode_version=version) for i in (n - 1, n // 2)]),
        ("at_or_before", lambda: boundary_at_or_before(text, n - 1, unicode_version=version)),
        ("at_or_after", lambda: boundary_at_or_after(text, 1, unicode_version=version)),
    ):
        lookups.count = 0  # type: ignore[attr-defined]
        walk()
        steps[name] = lookups.count  # type: ignore[attr-defined]
    return steps


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("run", sorted(HOSTILE))
def test_hostile_runs_are_linear(monkeypatch: pytest.MonkeyPatch, version: str, run: str) -> None:
    """Each function on a long run: steps (characters read by boundaries,
    class lookups by the walks) at most a few per character, and doubling
    the run doubles them at most.  A million regional indicators."""
    lookups = count_grapheme_lookups(monkeypatch)
    sizes = (500_000, 1_000_000) if run == "regional indicators" else (100_000, 200_000)
    steps = []
    for n in sizes:
        text = HOSTILE[run](n)
        Reads.count = 0
        found = list(boundaries(Reads(text), unicode_version=version))
        assert Reads.count == len(text) and found == list(boundaries(text, unicode_version=version))
        walks = _walk_steps(text, version, lookups)
        assert all(s <= 4 * len(text) + 10 for s in walks.values()), walks
        steps.append(walks)
    for name in steps[0]:
        assert steps[1][name] <= 2 * steps[0][name] + 10, (name, steps)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("run", sorted(set(HOSTILE) - {"regional indicators"}))
def test_walking_across_a_run_is_linear(monkeypatch: pytest.MonkeyPatch, version: str, run: str) -> None:
    """is_boundary at every offset, and boundary_at_or_before from the end to
    the start boundary by boundary: a few lookups per character in all.
    (Across regional indicators each answer needs the parity of the run
    before it: walk them with boundaries(), one pass.)"""
    lookups = count_grapheme_lookups(monkeypatch)
    text = HOSTILE[run](50_000)
    n = len(text)
    lookups.count = 0
    flags = [is_boundary(text, i, unicode_version=version) for i in range(n + 1)]
    assert lookups.count <= 5 * n
    lookups.count = 0
    b, back = n, [n]
    while b > 0:
        b = boundary_at_or_before(text, b - 1, unicode_version=version)
        back.append(b)
    assert lookups.count <= 5 * n
    assert back[::-1] == [i for i, f in enumerate(flags) if f] == list(boundaries(text, unicode_version=version))


def test_odd_input() -> None:
    """NULs, lone surrogates (Other), brackets: answers, no error."""
    odd = "\x00\ud800(" * 1000 + "\udfff\u0301"
    n = len(odd)
    for version in VERSIONS:
        assert list(boundaries(odd, unicode_version=version))[-4:] == [n - 4, n - 3, n - 2, n]
