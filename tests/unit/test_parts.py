"""UTS #58 §3.5 Table 3-3 (uts58.unicode.parts): the rows against the spec's table,
the decodable sets against the WHATWG percent-encode sets, ``match_at``, and
the patterns of ``part_patterns`` against Link_Term read from the data file
itself (not through uts58.unicode.properties)."""

from __future__ import annotations

import random
import re

import pytest
from conftest import DATA, ROOT, read_property_file

from uts58.unicode.parts import (
    CLEAR,
    DIRECTIVE,
    FRAGMENT,
    OPEN_STACK_LIMIT,
    PARTS,
    PATH,
    QUERY,
    SEQUENCE,
    TERMINATOR,
    Part,
    match_at,
    part_patterns,
)
from uts58.unicode.properties import LinkProperties

SPEC = ROOT.parent / "shared" / "spec" / "tr58-2.txt"
VERSION = "17.0.0"

# Table 3-3 as printed in UTS #58 revision 2 (transcribed by hand; the first
# test checks the transcription against the spec text when it is present):
# part -> (initiator, terminator set, ClearStackOpen set).
TABLE_3_3 = {
    "path": ("/", {"?", "#"}, {"/"}),
    "query": ("?", {"#"}, {"=", "&"}),
    "fragment": ("#", {":~:"}, set()),
    "fragment directive": (":~:", set(), {"&", ",", ":~:"}),
}

# WHATWG URL Standard §1.3 "Percent-encoded bytes", restricted to ASCII.
C0_CONTROL_SET = {chr(c) for c in range(0x20)} | {"\x7f"}
FRAGMENT_SET = C0_CONTROL_SET | set(' "<>`')
QUERY_SET = C0_CONTROL_SET | set(' "#<>')
SPECIAL_QUERY_SET = QUERY_SET | {"'"}
PATH_SET = QUERY_SET | set("?^`{}")


def _spec_sequence_set(cell: str) -> set[str]:
    """'[?#]' -> {'?', '#'}; '[\\&,{:~:}]' -> {'&', ',', ':~:'}; '[]' -> set()."""
    assert cell.startswith("[") and cell.endswith("]"), cell
    return {a or b or c for a, b, c in re.findall(r"\{([^}]*)\}|\\(.)|([^{}\\])", cell[1:-1])}


def _spec_table(text: str) -> dict[str, tuple[str, set[str], set[str]]]:
    """Rows of Table 3-3 from the spec's plain text: after the caption, cells
    are lines '| value' in groups of four (a header group, then a part)."""
    start = text.index("Table 3-3. Link Termination by URL Part")
    end = text.index("Fragment directives:", start)
    cells = [line.strip()[1:].strip() for line in text[start:end].splitlines() if line.strip().startswith("|")]
    assert cells[:4] == ["Part", "Initiator", "Terminator set", "ClearStackOpen set"]
    rows = {}
    for k in range(4, len(cells), 4):
        name, initiator, terminators, clear = cells[k : k + 4]
        rows[name] = (initiator.strip("'"), _spec_sequence_set(terminators), _spec_sequence_set(clear))
    return rows


def test_transcription_is_the_spec_table() -> None:
    if not SPEC.is_file():
        pytest.skip("the spec text ../shared/spec/tr58-2.txt is not beside this checkout")
    text = SPEC.read_text(encoding="utf-8")
    assert _spec_table(text) == TABLE_3_3
    # §4.1 names the stack limit that §3.5.1 leaves open.
    assert "If openStack.length() == 125, then do the same as LT == Hard." in text


def test_spec_set_notation() -> None:
    assert _spec_sequence_set("[]") == set()
    assert _spec_sequence_set("[?#]") == {"?", "#"}
    assert _spec_sequence_set("[{:~:}]") == {":~:"}
    assert _spec_sequence_set("[\\&,{:~:}]") == {"&", ",", ":~:"}


def test_parts_are_the_rows_of_table_3_3() -> None:
    assert [p.name for p in PARTS] == list(TABLE_3_3)
    assert PARTS == (PATH, QUERY, FRAGMENT, DIRECTIVE)
    for part in PARTS:
        initiator, terminators, clear = TABLE_3_3[part.name]
        assert part.initiator == initiator, part
        assert set(part.terminators) == terminators and len(part.terminators) == len(terminators), part
        assert set(part.clear_stack_open) == clear and len(part.clear_stack_open) == len(clear), part
        assert isinstance(part, Part) and repr(part) == f"<Part {part.name}>"


def test_no_sequence_of_a_part_is_a_prefix_of_another() -> None:
    """match_at returns the first sequence that occurs: that is the right one
    only if no sequence of a set is a prefix of another."""
    for part in PARTS:
        for sequences in (part.terminators, part.clear_stack_open):
            for a in sequences:
                assert not any(b != a and b.startswith(a) for b in sequences), (part, a)


def test_stack_limit() -> None:
    assert OPEN_STACK_LIMIT == 125  # UTS #58 §4.1


def test_decodable_sets_are_the_whatwg_percent_encode_sets_minus_syntax() -> None:
    """What format_url may decode in a part (D7): the ASCII characters the
    URL parser encodes there anyway, less the part's own syntax."""
    assert PATH.decodable == PATH_SET - {"?", "#"}
    assert QUERY.decodable == SPECIAL_QUERY_SET - {"#"}
    assert FRAGMENT.decodable == FRAGMENT_SET
    assert DIRECTIVE.decodable == FRAGMENT.decodable  # a directive is part of the fragment
    for part in PARTS:
        syntax = {part.initiator, *part.terminators, *part.clear_stack_open}
        assert not {s for s in syntax if len(s) == 1} & part.decodable, part


@pytest.mark.parametrize(
    ("sequences", "text", "i", "expected"),
    [
        (("?", "#"), "a?b", 1, "?"),
        (("?", "#"), "a?b", 0, None),
        (("?", "#"), "a#", 1, "#"),
        ((":~:",), "x:~:y", 1, ":~:"),
        ((":~:",), "x:~", 1, None),  # cut short at the end of the text
        ((":~:",), "x:~:", 2, None),
        (("&", ",", ":~:"), ":~:", 0, ":~:"),
        (("&", ",", ":~:"), "a,", 1, ","),
        (("/",), "/", 1, None),  # at the end
        (("/",), "/", 5, None),  # past the end
        ((), "abc", 0, None),
    ],
)
def test_match_at(sequences: tuple[str, ...], text: str, i: int, expected: str | None) -> None:
    assert match_at(sequences, text, i) == expected


# ---------------------------------------------------------------- part_patterns


@pytest.fixture(scope="module")
def link_term_file() -> dict[int, str]:
    """Link_Term of every code point listed in LinkTerm.txt (others Hard)."""
    return read_property_file(DATA / VERSION / "LinkTerm.txt", "Hard")


def _syntax_starts(part: Part) -> set[str]:
    return {seq[0] for seq in part.terminators + part.clear_stack_open}


def test_syntax_kinds(link_term_file: dict[int, str]) -> None:
    expected = {
        "path": {"?": TERMINATOR, "#": TERMINATOR, "/": CLEAR},
        "query": {"#": TERMINATOR, "=": CLEAR, "&": CLEAR},
        "fragment": {":": SEQUENCE},
        "fragment directive": {"&": CLEAR, ",": CLEAR, ":": SEQUENCE},
    }
    props = LinkProperties(VERSION)
    for part in PARTS:
        assert part_patterns(props, part).syntax == expected[part.name], part
        assert part_patterns(props, part) is part_patterns(props, part)  # compiled once


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.name)
def test_special_is_every_character_that_is_not_simple(part: Part, link_term_file: dict[int, str]) -> None:
    """A BMP character is simple for a part when it is Include or Soft and
    starts none of the part's sequences; ``special`` finds exactly the
    others.  Supplementary characters are always special: the Python loop
    handles them (D4)."""
    patterns = part_patterns(LinkProperties(VERSION), part)
    starts = _syntax_starts(part)
    wrong = []
    for cp in range(0x10000):
        ch = chr(cp)
        simple = link_term_file.get(cp, "Hard") in ("Include", "Soft") and ch not in starts
        if bool(patterns.special.fullmatch(ch)) == simple:
            wrong.append(f"U+{cp:04X}")
    assert wrong == []
    for ch in ("😎", "\U00010000", "\U0010ffff", "\U000e0001"):
        assert patterns.special.fullmatch(ch)


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.name)
def test_run_is_the_longest_simple_stretch_and_lastsafe(part: Part, link_term_file: dict[int, str]) -> None:
    """``run`` matches the longest stretch of simple characters, and its
    group 1 ends after the stretch's last Include (§3.5.1: lastSafe moves
    past Include, not past Soft).  Checked on every BMP character alone and
    on random strings of Include, Soft, syntax, bracket and Hard samples."""
    patterns = part_patterns(LinkProperties(VERSION), part)
    starts = _syntax_starts(part)

    def value(ch: str) -> str:
        return link_term_file.get(ord(ch), "Hard")

    def simple(ch: str) -> bool:
        return ord(ch) <= 0xFFFF and value(ch) in ("Include", "Soft") and ch not in starts

    for cp in range(0x10000):
        ch = chr(cp)
        m = patterns.run.match(ch)
        assert m is not None
        assert m.end() == (1 if simple(ch) else 0), f"U+{cp:04X}"
        assert m.end(1) == (1 if simple(ch) and value(ch) == "Include" else 0), f"U+{cp:04X}"

    by_value: dict[str, list[str]] = {}
    for cp, v in link_term_file.items():
        if cp <= 0xFFFF and not 0xD800 <= cp <= 0xDFFF:
            by_value.setdefault(v, []).append(chr(cp))
    rng = random.Random(58)
    samples = [rng.choice(by_value[v]) for v in ("Include", "Soft", "Open", "Close") for _ in range(20)]
    samples += ["a", "é", "ア", "-", ".", ",", "!", "?", "'", '"', "(", ")", "[", "]", "「", "」", "~"]
    samples += ["/", "?", "#", "=", "&", ":", " ", "\n", "\u3000", "😎", "\x00"]
    for _ in range(3000):
        text = "".join(rng.choice(samples) for _ in range(rng.randrange(12)))
        m = patterns.run.match(text)
        assert m is not None
        stretch = 0
        while stretch < len(text) and simple(text[stretch]):
            stretch += 1
        last_include = max((k + 1 for k in range(stretch) if value(text[k]) == "Include"), default=0)
        assert (m.end(), m.end(1)) == (stretch, last_include), repr(text)
        special = patterns.special.search(text)
        assert (special.start() if special else len(text)) == stretch, repr(text)
