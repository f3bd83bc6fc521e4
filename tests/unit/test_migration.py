"""UTS #58 §10.1: refine_end and the linkify-it-py adapter."""

from __future__ import annotations

import pytest
from linkify_it import LinkifyIt

from uts58.conformance import data_file, read_detection_test
from uts58.migration import refine_end, refine_linkify_it


@pytest.mark.parametrize(
    ("text", "start", "end", "expected"),
    [
        # stopped too early inside a non-ASCII path: extended
        ("https://example.com/αβγ/δεζ x", 0, 20, 27),
        ("see example.com/α(β)γ x", 4, 18, 21),
        # went too far (an unmatched bracket): trimmed
        ("(example.com/αβ). x", 1, 16, 15),
        ("(example.com/αβ) x", 1, 16, 16),  # before a Hard character §10.1 keeps the end
        # at the end of the text or before a Hard character: kept (§10.1)
        ("https://example.com/a", 0, 21, 21),
        ("https://example.com/a. b", 0, 22, 22),
        # an email address is left alone
        ("x@example.com/y", 0, 11, 11),
        # the authority with a port
        ("example.com:8080/αβ!γ x", 0, 17, 21),
    ],
)
def test_refine_end(text: str, start: int, end: int, expected: int) -> None:
    assert refine_end(text, start, end) == expected


def test_refine_end_arguments() -> None:
    with pytest.raises(ValueError, match="before start"):
        refine_end("example.com", 5, 2)
    with pytest.raises(ValueError, match="end=99"):
        refine_end("example.com", 0, 99)
    with pytest.raises(TypeError, match="text must be str"):
        refine_end(None, 0, 0)  # type: ignore[arg-type]


def test_adapter_fixes_linkify_it_on_the_conformance_file() -> None:
    """linkify-it-py ends several links of LinkDetectionTest.txt in the wrong
    place (brackets across separators, quotes inside non-ASCII paths);
    refine_linkify_it puts every one of those ends where the file says,
    and breaks none that linkify-it-py had right."""
    li = LinkifyIt()
    fixed, broken = [], []
    for line in read_detection_test(data_file("17.0.0", "LinkDetectionTest.txt")):
        matches = li.match(line.text) or []
        expected = {(link.start, link.end) for link in line.links if "@" not in link.text}
        before = {(m.index, m.last_index) for m in matches if m.schema != "mailto:"}
        after = {(m.index, m.last_index) for m in refine_linkify_it(line.text, matches) if m.schema != "mailto:"}
        if before != expected and after == expected:
            fixed.append(line.line)
        if before == expected and after != expected:
            broken.append(line.line)
    assert broken == []
    assert len(fixed) >= 7
    # e.g. a non-ASCII path with an apostrophe, from the Wikipedia list:
    text = "https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta'_artikli_li_kull_Wikipedija_għandu_jkollha"
    (match,) = refine_linkify_it(text, li.match(text))
    assert match.text == text and match.url == text


def test_adapter_keeps_fields() -> None:
    text = "mail x@example.com or see example.com/α)"
    refined = refine_linkify_it(text, LinkifyIt().match(text))
    assert [(m.schema, m.text) for m in refined] == [("mailto:", "x@example.com"), ("", "example.com/α")]
    assert refined[1].url == "http://example.com/α"
    assert refine_linkify_it(text, None) == []
