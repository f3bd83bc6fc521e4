"""Detection over many or large files on several processes (``uts58 detect --jobs``).

Files are cut into blocks of about ``block_size`` bytes that end after a
newline, so that no link crosses a block (see :mod:`uts58.stream`); the
blocks go to a process pool and come back in order, so the output does not
depend on the number of processes.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from .detection import find_links
from .errors import DecodeError, OptionError

__all__ = ["Block", "BlockResult", "DecodeError", "check_utf8", "detect_blocks", "plan_blocks"]

DEFAULT_BLOCK = 4 << 20


def decode(data: bytes, name: str, offset: int = 0, errors: str = "strict") -> str:
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        raise DecodeError(name, offset + exc.start, exc.reason) from None


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


def check_utf8(path: str, chunk: int = 1 << 22) -> None:
    """Raise DecodeError at the first byte of ``path`` that is not UTF-8,
    reading it in chunks with an incremental decoder (nothing is kept)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    fed = 0
    with open(path, "rb") as f:
        while True:
            data = f.read(chunk)
            pending = decoder.getstate()[0]
            try:
                decoder.decode(data, final=not data)
            except UnicodeDecodeError as exc:
                raise DecodeError(path, fed - len(pending) + exc.start, exc.reason) from None
            fed += len(data)
            if not data:
                return


def _detect(job: tuple[Block, dict[str, Any], bool, str]) -> BlockResult:
    block, options, keep_text, errors = job
    with open(block.path, "rb") as f:
        f.seek(block.start)
        text = decode(f.read(block.end - block.start), block.path, block.start, errors)
    links = [link.as_dict() for link in find_links(text, **options)]
    return BlockResult(block, len(text), links, text if keep_text else None)


def detect_blocks(
    blocks: Sequence[Block], options: dict[str, Any], *, jobs: int, keep_text: bool, errors: str = "strict"
) -> Iterator[BlockResult]:
    """Results of the blocks, in order, computed on ``jobs`` processes.
    With ``errors="replace"`` undecodable bytes read as U+FFFD."""
    work = [(b, options, keep_text, errors) for b in blocks]
    if jobs <= 1:
        yield from map(_detect, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_detect, work, chunksize=1)
