"""Unicode 18.0.0 as the default, 17.0.0 kept (D119), and the three changes
ICU asks of the UTS #58 test data (D120)."""

from __future__ import annotations

from pathlib import Path

import pytest

from uts58 import Finder, find_links
from uts58.cli.main import main
from uts58.conformance import (
    AMBIGUOUS_SOURCES,
    TEST_VERSIONS,
    data_file,
    read_detection_test,
    read_formatting_test,
    run_detection_file,
    run_formatting_file,
)
from uts58.hosts.domains import default_tlds
from uts58.spec import escaping
from uts58.unicode.properties import DEFAULT_UNICODE_VERSION, available_versions, is_link_email, link_bracket, link_term


def test_default_version_is_18_and_17_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    assert DEFAULT_UNICODE_VERSION == "18.0.0"
    assert available_versions() == ("17.0.0", "18.0.0") == TEST_VERSIONS
    assert Finder().unicode_version == "18.0.0"
    # The examples: today's standard takes the whole URL; 17.0.0 stops at "/a".
    for text in ("see https://example.com/a\u2e60b next", "see https://example.com/a\u2e62b\u2e63 next"):
        whole = text.split()[1]
        assert [link.text for link in find_links(text)] == [whole]
        assert [link.text for link in find_links(text, unicode_version="17.0.0")] == ["https://example.com/a"]
    assert (str(link_term("\u2e60")), str(link_term("\u2e60", unicode_version="17.0.0"))) == ("Soft", "Hard")
    assert (link_bracket("\u2e63"), link_bracket("\u2e63", unicode_version="17.0.0")) == ("\u2e62", None)
    emails = {
        v: sum(is_link_email(chr(cp), unicode_version=v) for cp in range(0x110000) if not 0xD800 <= cp < 0xE000)
        for v in TEST_VERSIONS
    }
    assert emails == {"17.0.0": 149240, "18.0.0": 162100}  # the counts the data's ReadMe gives
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert "Unicode data: 17.0.0, 18.0.0 (default 18.0.0)" in capsys.readouterr().out


def test_cli_takes_either_version(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("see https://example.com/a\u2e60b next\n", encoding="utf-8")
    assert main(["detect", str(src)]) == 0
    assert capsys.readouterr().out == "see \u2e20https://example.com/a\u2e60b\u2e21 next\n"
    assert main(["--unicode-version", "17.0.0", "detect", str(src)]) == 0
    assert capsys.readouterr().out == "see \u2e20https://example.com/a\u2e21\u2e60b next\n"


def test_both_versions_pass_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    """Every line of both versions' files; 18.0.0 with no exception but the
    five ambiguous sources (D12), 17.0.0 with its ten errata (D11) besides."""
    for version in TEST_VERSIONS:
        for outcome in run_detection_file(version):
            assert not outcome.failed and not outcome.excused and outcome.passed >= 264, outcome
        for outcome in run_formatting_file(version):
            assert not outcome.failed, outcome
            if version == "18.0.0":
                # D12's five ambiguous sources; and for the fully escaped form,
                # the seven unmatched Close the file's first field leaves literal (D122).
                limit = len(AMBIGUOUS_SOURCES) + (7 if "fully escaped" in outcome.name else 0)
                assert all("literal" in e for e in outcome.excused) and len(outcome.excused) <= limit
    assert main(["conformance"]) == 0
    out = capsys.readouterr().out
    assert "17.0.0 LinkDetectionTest" in out and "18.0.0 LinkDetectionTest" in out


ICU_DETECTION_LINE = "Lorem ipsum موريتانيا.xn-----ctdbabcfhu9c2b9l1acccr4c dolor sit amet"


def test_icu_detection_line_is_passed_by_the_tld_rule() -> None:
    """D120 (2): the line ICU asks to drop is in both files, unlinked; it is
    so because its last label is no TLD, and a caller's TLD list decides."""
    for version in TEST_VERSIONS:
        lines = read_detection_test(data_file(version, "LinkDetectionTest.txt"))
        found = [line for line in lines if line.marked == ICU_DETECTION_LINE]
        assert len(found) == 1 and found[0].links == ()
        assert list(find_links(ICU_DETECTION_LINE, unicode_version=version)) == []
    tld = "xn-----ctdbabcfhu9c2b9l1acccr4c"
    finder = Finder(known_tlds=default_tlds() | {tld})
    assert [link.text for link in finder.find_links(ICU_DETECTION_LINE)] == ["موريتانيا." + tld]


@pytest.mark.parametrize(
    "text",
    [
        "See mailto:αβγ..δεζ@example.com now",
        "See αβγ..δεζ@example.com now",
        "See .john@example.com now",
        "See john.@example.com now",
        "See abc..efg.com now",
        "See .abc..com now",
        "See a@b..example.com now",
    ],
)
def test_malformed_parts_are_skipped_whole(text: str) -> None:
    """D120 (3): a malformed local-part or domain links nothing, not its tail."""
    assert list(find_links(text)) == []
    assert [link.text for link in find_links(text.replace("..", ".").replace(" .", " ").replace(".@", "@"))]


ICU_FORMAT_PAIRS = {
    "# {𝑺=https:// 𝑯=example.com 𝑸=α=β 𝑽=γ=δ}": "https://example.com?α%3Dβ=γ=δ",
    "# {𝑺=https:// 𝑯=example.com 𝑷=α 𝑷=b/?#c 𝑸=αβ 𝑽=γ&ζ=#Ξ 𝑸=k 𝑽=v 𝑭=frag}": (
        "https://example.com/α/b%2F%3F%23c?αβ=γ%26ζ=%23Ξ&k=v#frag"
    ),
}


def test_icu_query_value_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    """D120 (1): uts58 follows the file (an "=" in a query value escaped);
    the one-line switch gives ICU's form on exactly the two pairs ICU skips
    (LinkTest.SKIP_FORMAT_TEST) and changes no other pair of either file."""
    structures = {}
    for raw in data_file("18.0.0", "LinkFormattingTest.txt").read_text(encoding="utf-8").splitlines():
        if raw.startswith("# {"):
            last = raw.strip()
        elif raw and not raw.startswith("#"):
            structures.setdefault(last, []).append(raw)
    cases = {v: read_formatting_test(data_file(v, "LinkFormattingTest.txt")) for v in TEST_VERSIONS}
    as_filed = {v: [case.build(v) for case in cases[v]] for v in TEST_VERSIONS}
    assert all(got == case.expected for got, case in zip(as_filed["18.0.0"], cases["18.0.0"], strict=True))
    monkeypatch.setattr(escaping, "QUERY_VALUE_SYNTAX", "+#&")
    changed = {}
    for v in TEST_VERSIONS:
        for before, case in zip(as_filed[v], cases[v], strict=True):
            after = case.build(v)
            if after != before:
                changed[(v, case.line)] = (case, after)
    icu = {(v, c.line): after for (v, _), (c, after) in changed.items() if v == "18.0.0"}
    assert sorted(icu.values()) == sorted(ICU_FORMAT_PAIRS.values())
    for structure, expected in ICU_FORMAT_PAIRS.items():
        assert structures[structure][1] != expected  # (the file's result line escapes the "=")
    assert {v for v, _ in changed} <= set(TEST_VERSIONS) and len(changed) <= 4  # (17.0.0 has the same two)
