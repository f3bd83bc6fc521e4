"""Streaming detection: the same links as find_links, however the text is cut."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from uts58 import find_links
from uts58.conformance import data_file, read_detection_test
from uts58.stream import find_links_in_file, find_links_in_stream

LINES = [line.text for v in ("17.0.0", "18.0.0") for line in read_detection_test(data_file(v, "LinkDetectionTest.txt"))]


def spans(links) -> list[tuple[int, int, str, str]]:  # type: ignore[no-untyped-def]
    return [(link.start, link.end, link.kind, link.text) for link in links]


def test_every_split_position_of_the_conformance_lines() -> None:
    for text in LINES:
        expected = spans(find_links(text))
        for k in range(len(text) + 1):
            assert spans(find_links_in_stream([text[:k], text[k:]])) == expected, (text, k)


def test_many_random_cuts_of_the_whole_file() -> None:
    text = "\n".join(LINES)
    expected = spans(find_links(text))
    rng = random.Random(58)
    for _ in range(30):
        cuts = sorted(rng.sample(range(len(text)), rng.randint(1, 200)))
        chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        assert spans(find_links_in_stream(chunks)) == expected
    assert spans(find_links_in_stream(iter(text))) == expected  # one character at a time


def test_offsets_and_attributes_survive() -> None:
    (link,) = find_links_in_stream(["x " * 1000, "bücher.de/straße"])
    assert (link.start, link.end) == (2000, 2016)
    assert link.href == "https://xn--bcher-kva.de/stra%C3%9Fe" and link.host == "bücher.de"


def test_options_pass_through_and_are_checked_at_once() -> None:
    assert spans(find_links_in_stream(["a@b.com c.com"], urls=False)) == [(0, 7, "email", "a@b.com")]
    with pytest.raises(TypeError, match="chunks must be an iterable of str"):
        find_links_in_stream("text")
    with pytest.raises(ValueError, match="schemes"):
        find_links_in_stream([], schemes={"javascript"})
    with pytest.raises(TypeError, match="each chunk must be str, not bytes"):
        list(find_links_in_stream([b"x"]))  # type: ignore[list-item]


def test_file_api(tmp_path: Path) -> None:
    text = "\n".join(LINES)
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    expected = spans(find_links(text))
    assert spans(find_links_in_file(path, chunk_size=97)) == expected
    assert spans(find_links_in_file(str(path))) == expected
    assert spans(find_links_in_file(io.StringIO(text), chunk_size=1000)) == expected
    with pytest.raises(ValueError, match="chunk_size"):
        find_links_in_file(path, chunk_size=0)
    with pytest.raises(TypeError, match="file must be a path"):
        find_links_in_file(42)  # type: ignore[arg-type]


def test_memory_is_bounded_by_chunk_and_token() -> None:
    # A generator of 20 MB of text is consumed lazily: no chunk is kept once
    # detected (the generator below would fail if the stream read ahead).
    produced = 0

    def chunks():  # type: ignore[no-untyped-def]
        nonlocal produced
        for k in range(2000):
            produced += 1
            yield f"line {k} see example{k}.com/a and more words " * 250

    stream = find_links_in_stream(chunks())
    first = next(stream)
    assert first.text == "example0.com/a" and produced == 1
    assert sum(1 for _ in stream) == 2000 * 250 - 1
