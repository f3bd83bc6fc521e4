"""uts58.parallel (``uts58 detect --jobs``): files cut into blocks after a
newline (D32), detected block by block on a process pool, and put back
together: the links are those of find_links on the whole text, none split,
lost or repeated, whatever the block size, the number of processes, or the
multi-byte characters at the cuts; UTF-8 errors name the byte offset in the
file."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from uts58 import find_links
from uts58.base.decoding import check_utf8, decode
from uts58.detect.finder import Finder
from uts58.errors import DecodeError, OptionError
from uts58.parallel import Block, BlockResult, detect_blocks, plan_blocks

# Lines of links and text in several scripts: multi-byte characters (2, 3
# and 4 bytes in UTF-8) next to the newlines where blocks are cut, links at
# the start and end of lines, a line with no link, an empty line.
LINES = [
    "see https://example.com/a_(b) and mail jane@example.org.",
    "日本語のサイトは https://ja.wikipedia.org/wiki/日本 です。",
    "ünïcödé bücher.de/straße?q=ä#frag, then (example.net)",
    "😎https://example.com/😎😎. x 😎",
    "",
    "no link here at all, just words — and a dash",
    "Ελληνικά: παράδειγμα.ελ/σελίδα και x@παράδειγμα.ελ",
    "ftp://ftp.example.com/pub/file.tar.gz",
    "«example.com» 「https://example.com/路径」 谢谢。example.com",
    "end with a link example.com/x",
]


def _text(seed: int, lines: int = 120) -> str:
    rng = random.Random(seed)
    return "\n".join(rng.choice(LINES) for _ in range(lines)) + rng.choice(["", "\n"])


def _records(text: str, **options: Any) -> list[dict[str, Any]]:
    return [link.as_dict() for link in find_links(text, **options)]


def _joined(results: list[BlockResult]) -> list[dict[str, Any]]:
    """The links of the blocks with offsets in the whole text."""
    out, base = [], 0
    for result in results:
        for link in result.links:
            out.append({**link, "start": link["start"] + base, "end": link["end"] + base})
        base += result.chars
    return out


def _write(tmp_path: Path, data: bytes, name: str = "in.txt") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# ---------------------------------------------------------------- plan_blocks


@pytest.mark.parametrize("block_size", [1, 2, 3, 5, 17, 64, 1000, 1 << 30])
def test_blocks_cover_the_file_and_end_after_a_newline(tmp_path: Path, block_size: int) -> None:
    data = _text(1).encode()
    blocks = plan_blocks(_write(tmp_path, data), block_size)
    assert blocks[0].start == 0 and blocks[-1].end == len(data)
    assert all(a.end == b.start for a, b in itertools.pairwise(blocks))
    for block in blocks[:-1]:
        assert data[block.end - 1 : block.end] == b"\n"  # never inside a line, so never inside a character
        assert block.end - block.start >= block_size  # about block_size: the first newline once it is reached
        assert b"\n" not in data[block.start + block_size : block.end - 1]
    if block_size == 1:
        assert len(blocks) > 100  # about one block per line


def test_block_edge_cases(tmp_path: Path) -> None:
    empty = _write(tmp_path, b"", "empty.txt")
    assert plan_blocks(empty, 10) == [Block(empty, 0, 0)]
    one_line = _write(tmp_path, b"example.com " * 10, "one.txt")
    assert plan_blocks(one_line, 1) == [Block(one_line, 0, 120)]  # no newline: one block
    # A line longer than plan_blocks' 64 KiB reads: the block grows to its end.
    long = b"x" * 200_000 + b"\nexample.com\n"
    path = _write(tmp_path, long, "long.txt")
    assert plan_blocks(path, 10) == [Block(path, 0, 200_001), Block(path, 200_001, len(long))]
    for bad in (0, -1):
        with pytest.raises(OptionError, match="block_size"):
            plan_blocks(path, bad)


# ---------------------------------------------------------------- detect_blocks


@pytest.mark.parametrize("block_size", [1, 2, 3, 7, 50, 333, 4096, 1 << 30])
def test_blocks_never_split_or_repeat_a_link(tmp_path: Path, block_size: int) -> None:
    """D32: cut after newlines, the blocks give exactly the links of the whole
    text, in order, with the same offsets once the blocks' lengths are added."""
    for seed in (1, 2):
        text = _text(seed)
        path = _write(tmp_path, text.encode(), f"{seed}.txt")
        blocks = plan_blocks(path, block_size)
        results = list(detect_blocks(blocks, {}, jobs=1, keep_text=True))
        assert [r.block for r in results] == blocks
        assert "".join(r.text or "" for r in results) == text
        assert all(r.chars == len(r.text or "") for r in results)
        whole = _records(text)
        assert len(whole) > 100
        assert _joined(results) == whole


def test_processes_give_the_same_results_in_order(tmp_path: Path) -> None:
    text = _text(3, lines=400)
    path = _write(tmp_path, text.encode())
    blocks = plan_blocks(path, 256)
    assert len(blocks) > 10
    one = list(detect_blocks(blocks, {}, jobs=1, keep_text=False))
    two = list(detect_blocks(blocks, {}, jobs=2, keep_text=False))
    assert one == two and [r.block for r in two] == blocks
    assert all(r.text is None for r in two)
    assert _joined(two) == _records(text)


def test_options_and_finders_reach_every_block(tmp_path: Path) -> None:
    text = _text(4)
    blocks = plan_blocks(_write(tmp_path, text.encode()), 100)
    urls_only = _joined(list(detect_blocks(blocks, {"emails": False}, jobs=1, keep_text=False)))
    assert urls_only == _records(text, emails=False)
    assert {link["kind"] for link in urls_only} == {"url"}
    finder = Finder(emails=False)
    assert _joined(list(detect_blocks(blocks, finder=finder, jobs=2, keep_text=False))) == urls_only  # pickled
    with pytest.raises(OptionError, match="not both"):
        list(detect_blocks(blocks, {"emails": False}, finder=finder, jobs=1, keep_text=False))


def test_undecodable_bytes_name_the_file_offset(tmp_path: Path) -> None:
    good = _text(5).encode()
    bad_at = good.index(b"\n", len(good) // 2) + 1  # the start of a line in a later block
    data = good[:bad_at] + b"\xff" + good[bad_at:]
    path = _write(tmp_path, data)
    blocks = plan_blocks(path, 64)
    assert blocks.index(next(b for b in blocks if b.start <= bad_at < b.end)) > 0
    with pytest.raises(DecodeError) as info:
        list(detect_blocks(blocks, {}, jobs=1, keep_text=False))
    assert (info.value.name, info.value.offset) == (path, bad_at)
    replaced = list(detect_blocks(blocks, {}, jobs=1, keep_text=True, errors="replace"))
    text = data.decode("utf-8", "replace")
    assert "".join(r.text or "" for r in replaced) == text and "\ufffd" in text
    assert _joined(replaced) == _records(text)


# ---------------------------------------------------------------- decoding


def test_decode() -> None:
    assert decode("日本 😎".encode(), "x") == "日本 😎"
    with pytest.raises(DecodeError) as info:
        decode(b"ab\xe6\x97", "name", offset=100)  # a cut 3-byte sequence at byte 2
    assert (info.value.name, info.value.offset) == ("name", 102)
    assert isinstance(info.value, ValueError)
    assert decode(b"a\xffb", "x", errors="replace") == "a\ufffdb"


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 1 << 22])
def test_check_utf8_offsets_whatever_the_chunks(tmp_path: Path, chunk: int) -> None:
    """The offset is the first bad byte's in the file even when a chunk ends
    inside a multi-byte character or inside the bad sequence itself."""
    good = ("😎日本ü" * 10).encode()
    check_utf8(_write(tmp_path, good, "good.txt"), chunk)
    cases = [
        (good[:12] + b"\xff" + good[12:], 12),  # between two characters
        (good[:13] + b"\xff" + good[13:], 12),  # inside the 4-byte 😎 that starts at byte 12
        (good + b"\xf0\x9f\x98", len(good)),  # a character cut by the end of the file
        (b"\x80", 0),
    ]
    for bad, at in cases:
        path = _write(tmp_path, bad, "bad.txt")
        with pytest.raises(DecodeError) as info:
            check_utf8(path, chunk)
        assert (info.value.name, info.value.offset) == (path, at), (bad[-4:], chunk)
