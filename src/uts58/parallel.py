"""Detection over many or large files on several processes (``uts58 detect --jobs``).

Files are cut into blocks of about ``block_size`` bytes that end after a
newline, so that no link crosses a block (see :mod:`uts58.stream`); the
blocks go to a process pool and come back in order, so the output does not
depend on the number of processes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from .base.decoding import check_utf8, decode
from .detect.finder import Finder, resolve_finder
from .errors import DecodeError, OptionError

__all__ = ["Block", "BlockResult", "DecodeError", "check_utf8", "decode", "detect_blocks", "plan_blocks"]

DEFAULT_BLOCK = 4 << 20


@dataclass(frozen=True)
class Block:
    path: str
    start: int  # byte offsets in the file
    end: int


@dataclass(frozen=True)
class BlockResult:
    block: Block
    chars: int  # length of the block's text in characters
    links: list[dict[str, Any]]  # start, end relative to the block; kind, text, href, display
    text: str | None  # the block's text, when the caller wants to mark it


def plan_blocks(path: str, block_size: int = DEFAULT_BLOCK) -> list[Block]:
    """Byte ranges of ``path`` of about ``block_size`` bytes, each ending after a newline."""
    if block_size < 1:
        raise OptionError(f"block_size must be at least 1, not {block_size}")
    size = os.path.getsize(path)
    blocks = []
    with open(path, "rb") as f:
        start = 0
        while start < size:
            f.seek(min(start + block_size, size))
            rest = f.read(1 << 16)
            cut = size
            while rest:
                k = rest.find(b"\n")
                if k >= 0:
                    cut = f.tell() - len(rest) + k + 1
                    break
                rest = f.read(1 << 16)  # a very long line: the block grows to its end
            if start + block_size >= size:
                cut = size
            blocks.append(Block(path, start, cut))
            start = cut
    return blocks or [Block(path, 0, 0)]


def _detect(job: tuple[Block, Finder, bool, str]) -> BlockResult:
    block, finder, keep_text, errors = job
    with open(block.path, "rb") as f:
        f.seek(block.start)
        text = decode(f.read(block.end - block.start), block.path, block.start, errors)
    return BlockResult(block, len(text), finder.records(text), text if keep_text else None)


def detect_blocks(
    blocks: Sequence[Block],
    options: Mapping[str, Any] | None = None,
    *,
    finder: Finder | None = None,
    jobs: int,
    keep_text: bool,
    errors: str = "strict",
) -> Iterator[BlockResult]:
    """Results of the blocks, in order, computed on ``jobs`` processes, with
    ``finder`` (a :class:`uts58.Finder`, pickled to the workers) or the
    options of :func:`uts58.find_links`.  With ``errors="replace"``
    undecodable bytes read as U+FFFD."""
    found = resolve_finder(finder, options or {}, "detect_blocks")
    work = [(b, found, keep_text, errors) for b in blocks]
    if jobs <= 1:
        yield from map(_detect, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_detect, work, chunksize=1)
