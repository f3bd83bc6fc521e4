"""uts58.graphemes: certain grapheme-cluster boundaries (D79), checked
against the ``regex`` module's ``\\X`` (an independent UAX #29 segmenter).

The oracle's Unicode data is newer than 17.0.0 (regex 2026.x ships a later
version; it does not say which): characters unassigned in 17.0.0, and those
whose InCB value changed since, are left out of the comparisons (VERSION_GAP).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA
from counting import count_grapheme_lookups
from hypothesis import given
from hypothesis import strategies as st

from uts58 import graphemes
from uts58.conformance import data_file, read_detection_test, read_formatting_test
from uts58.errors import OffsetError
from uts58.graphemes import boundaries, boundary_at_or_after, boundary_at_or_before, is_boundary

regex = pytest.importorskip("regex", reason="the grapheme oracle `regex` is in the dev extra (pip install -e .[dev])")


def _assigned_17() -> set[int]:
    """Code points assigned in UnicodeData.txt 17.0.0 (read here, not by the generator)."""
    out: set[int] = set()
    first = None
    for raw in (DATA / "17.0.0" / "UnicodeData.txt").read_text(encoding="utf-8").splitlines():
        cp_hex, name = raw.split(";")[:2]
        cp = int(cp_hex, 16)
        if name.endswith(", First>"):
            first = cp
        elif name.endswith(", Last>") and first is not None:
            out.update(range(first, cp + 1))
        else:
            out.add(cp)
    return out - set(range(0xD800, 0xE000))


def _incb_17(path: Path) -> dict[int, str]:
    out = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        fields = [f.strip() for f in raw.split("#", 1)[0].split(";")]
        if len(fields) == 3 and fields[1] == "InCB":
            first, _, last = fields[0].partition("..")
            for cp in range(int(first, 16), int(last or first, 16) + 1):
                out[cp] = fields[2]
    return out


ASSIGNED = _assigned_17()
ALL = "".join(map(chr, sorted(ASSIGNED)))
INCB = _incb_17(DATA / "17.0.0" / "DerivedCoreProperties.txt")


def _with(prop: str) -> set[int]:
    return {ord(m.group()) for m in regex.finditer(rf"\p{{{prop}}}", ALL)}


_INCB_ORACLE = {v: _with(f"InCB={v}") for v in ("Consonant", "Linker", "Extend")}
VERSION_GAP = frozenset(
    cp for v, cps in _INCB_ORACLE.items() for cp in cps ^ {c for c, w in INCB.items() if w == v} if cp in ASSIGNED
)
REGEX_INFO = f"regex {regex.__version__}: Unicode newer than 17.0.0; InCB changed for {len(VERSION_GAP)} characters"


def oracle(text: str) -> set[int]:
    return {0, *(m.end() for m in regex.finditer(r"\X", text))}


def comparable(text: str) -> bool:
    return all(ord(ch) in ASSIGNED and ord(ch) not in VERSION_GAP for ch in text)


def test_oracle_version_gap_is_small_and_known() -> None:
    """Every 17.0.0 character is assigned for the oracle too; the InCB
    differences are the Vedic signs and a Zanabazar Square letter (REGEX_INFO)."""
    assert not regex.search(r"\p{Cn}", ALL), REGEX_INFO
    assert VERSION_GAP <= {0x1CF5, 0x1CF6, 0x11A3A}, REGEX_INFO


def test_classes_against_the_oracle() -> None:
    """Exact where the data allows, and on the safe side elsewhere."""
    cls = {cp: graphemes._class(chr(cp)) & 15 for cp in ASSIGNED}
    names = graphemes.CLASSES

    def ours(name: str) -> set[int]:
        return {cp for cp, c in cls.items() if names[c] == name}

    for name in ("Control", "CR", "LF", "ZWJ", "Regional_Indicator", "L", "V", "T", "LV", "LVT"):
        assert ours(name) == _with(f"Grapheme_Cluster_Break={name}"), name
    assert ours("Extend") == _with("Grapheme_Cluster_Break=Extend")
    assert _with("Grapheme_Cluster_Break=SpacingMark") <= ours("SpacingMark")
    # GB9b: every Prepend character is a "maybe Prepend" (Lo of a virama script, or PCM).
    prepend = _with("Grapheme_Cluster_Break=Prepend")
    assert prepend and prepend <= ours("Maybe_Prepend")
    # GB9c: InCB exactly as in DerivedCoreProperties 17.0.0.
    incb = {cp: graphemes.INCB[graphemes._class(chr(cp)) >> 4] for cp in ASSIGNED}
    assert {cp for cp, v in incb.items() if v != "None"} == set(INCB)
    assert all(incb[cp] == v for cp, v in INCB.items())


MIXED = (
    "aZ09./?#=&%-~ \t\r\n\x00\x7f"
    "e\u0301\u0300\u0327ñ"  # Latin with combining marks
    "кирилл\u0301"
    "漢字かなカナ\u3099"
    "\u0915\u094d\u0937\u093f\u0928\u093c\u0902\u0903\u0924\u200d\u200c"  # Devanagari conjuncts, ZWJ/ZWNJ
    "\u0995\u09cd\u09b7\u09be"  # Bengali
    "\u0d4e\u0d15\u0d4d\u111c2\u11a3a"  # Prepend letters
    "\u0600\u0661\u06dd\u0627\u064b"  # Arabic, prepended concatenation marks
    "\u1100\u1161\u11a8\uac00\uac01\ud7b0"  # Hangul jamo and syllables
    "\u0e01\u0e33\u0e48"  # Thai
    "\U0001f468\U0001f469\U0001f467\U0001f3fd\ufe0f\u2764\u00a9"  # emoji, modifiers, VS16
    "\U0001f1eb\U0001f1f7\U0001f1e9"  # regional indicators
    "\U000e0067\U000e007f\U0001f3f4"  # tag sequences
    "\U00016d63\U00016d67\U00016d40"  # Kirat Rai (class V since Unicode 16)
)


@given(st.text(alphabet=MIXED, max_size=40))
def test_every_boundary_is_an_oracle_boundary(text: str) -> None:
    assert set(boundaries(text)) <= oracle(text), REGEX_INFO


@given(st.text(alphabet=st.sampled_from(sorted(ASSIGNED - VERSION_GAP)).map(chr), max_size=30))
def test_every_boundary_is_an_oracle_boundary_on_any_character(text: str) -> None:
    assert set(boundaries(text)) <= oracle(text), REGEX_INFO


def test_conformance_lines() -> None:
    texts = []
    for version in ("17.0.0", "dev"):
        texts += [line.text for line in read_detection_test(data_file(version, "LinkDetectionTest.txt"))]
        for case in read_formatting_test(data_file(version, "LinkFormattingTest.txt")):
            texts += [case.source, case.expected]
    checked = [t for t in texts if comparable(t)]
    assert len(checked) > 0.95 * len(texts)
    for text in checked:
        assert set(boundaries(text)) <= oracle(text), text


SIMPLE = "abcXYZ019 .,/?#:;-_()[]'\"\r\néüßÀçøœ\u0301\u0308кирилицаЖЯё漢字中文ひらがなカタカナ、。「」"


@given(st.text(alphabet=SIMPLE, max_size=60))
def test_not_conservative_on_latin_cyrillic_cjk(text: str) -> None:
    assert set(boundaries(text)) == oracle(text)


@given(st.text(alphabet=MIXED, max_size=30), st.data())
def test_walks_agree_with_the_iterator(text: str, data: st.DataObject) -> None:
    found = list(boundaries(text))
    assert found == [i for i in range(len(text) + 1) if is_boundary(text, i)]
    i = data.draw(st.integers(0, len(text)))
    assert boundary_at_or_before(text, i) == max(b for b in found if b <= i)
    assert boundary_at_or_after(text, i) == min(b for b in found if b >= i)


def test_examples() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert list(boundaries(family + "x")) == [0, 5, 6]
    assert list(boundaries("\r\n\r")) == [0, 2, 3]
    assert list(boundaries("\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea")) == [0, 4]  # pairs unknown: no cut
    assert list(boundaries("\u0915\u094d\u0937")) == [0, 3]  # GB9c: one conjunct
    assert list(boundaries("\uac00\u11a8a")) == [0, 2, 3]  # LV T
    assert not is_boundary("\u0600\u0661", 1)  # GB9b
    assert is_boundary("a\x00", 1) and is_boundary("\x00\u0301", 1)  # GB4, GB5


def test_argument_errors() -> None:
    with pytest.raises(TypeError, match="text"):
        is_boundary(b"ab", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="i"):
        boundary_at_or_after("ab", "1")  # type: ignore[arg-type]
    with pytest.raises(OffsetError, match="i=3"):
        boundary_at_or_before("ab", 3)
    with pytest.raises(TypeError, match="text"):
        list(boundaries(None))  # type: ignore[arg-type]


def test_hostile_input_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """A million characters without a certain boundary: each walk looks at
    each character once (steps counted, doubling the input doubles them)."""
    lookups = count_grapheme_lookups(monkeypatch)
    steps = []
    for n in (500_000, 1_000_000):
        text = "\u200d" * n  # ZWJ: never a cut after it
        lookups.count = 0
        assert boundary_at_or_after(text, 1) == n
        assert boundary_at_or_before(text, n - 1) == 0
        assert sum(1 for _ in boundaries(text)) == 2
        steps.append(lookups.count)
    assert steps[0] <= 3 * 500_000 + 10 and steps[1] <= 2 * steps[0] + 10
    # NULs, lone surrogates, nested brackets: answers, no error.
    odd = "\x00\ud800(" * 1000 + "\udfff\u0301"
    assert list(boundaries(odd))[-3:] == [len(odd) - 3, len(odd) - 2, len(odd)]
