"""``uts58 detect``: the links of files and streams, as marked text or JSON
records, in blocks on many processes (D66, D74, D87, D88)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TextIO

from ..base.decoding import decode
from ..conformance import CLOSE_MARK, OPEN_MARK, mark_links
from ..detect.finder import Finder
from ..output.offsets import link_offsets, unit_length
from ..output.policy import Policy, admitted
from ..output.terminal import held_cr, is_terminal, mark_terminal, supports_hyperlinks, wants_color
from ..parallel import Block, BlockResult, detect_blocks, plan_blocks
from .io import STDIN, CLIError, check_inputs, encodable, json_line, pieces_of, write_all
from .io import progress as progress_bar
from .io import streamed as is_streamed

__all__ = ["color_argument", "run_detect"]


def color_argument(p: argparse.ArgumentParser) -> None:
    """``uts58 detect --color``."""
    p.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="underline the links of the marked text (and make them OSC 8 hyperlinks where the terminal shows"
        " them): auto (the default) on a terminal unless NO_COLOR is set; never in --json",
    )


def _terminal(args: argparse.Namespace, out: TextIO) -> None:
    """What the marked text gets (D128): ``args.underline`` (SGR 4),
    ``args.hyperlinks`` (OSC 8) and ``args.visible`` (the input's control
    characters as pictures, D127: on a terminal, or wherever escapes go)."""
    env = os.environ
    args.underline = not args.json and wants_color(args.color, out, env)
    args.hyperlinks = args.underline and supports_hyperlinks(env)
    args.visible = not args.json and (args.underline or is_terminal(out))


def run_detect(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    finder, policy = args.finder, args.policy_object
    if args.jobs < 1:
        raise CLIError("--jobs must be at least 1")
    if args.block_size < 1:
        raise CLIError("--block-size must be at least 1")
    if args.offsets != "codepoints" and not args.json:
        raise CLIError("--offsets applies to --json output only")
    names = args.files or [STDIN]
    _terminal(args, out)
    # Check every file before writing anything: an unreadable or undecodable
    # input stops the command with no partial output.
    check_inputs(names, args.errors)
    streamed = [is_streamed(name) for name in names]
    plans: list[list[Block]] = []
    for name, stream in zip(names, streamed, strict=True):
        try:
            plans.append([] if stream else plan_blocks(name, args.block_size))
        except OSError as exc:
            raise CLIError(f"{name}: {exc.strerror or exc}") from None
    progress = progress_bar(sum(b.end - b.start for blocks in plans for b in blocks), err)
    i = 0
    while i < len(names):
        if streamed[i]:
            # Read once, in this process, piece by piece, with offsets into the whole input.
            base = 0
            pieces = pieces_of(names[i], args.errors)
            for piece in held_cr(pieces) if args.visible else pieces:
                links = _records(piece, finder, policy)
                _write_links(out, args, piece, links, names[i], base)
                base += unit_length(piece, args.offsets)
            i += 1
            continue
        j = i  # a run of regular files: their blocks go to the pool together
        while j < len(names) and not streamed[j]:
            j += 1
        blocks = [block for plan in plans[i:j] for block in plan]
        # --offsets utf8|utf16 converts with the block's text, so it comes back (D74).
        keep_text = not args.json or args.offsets != "codepoints"
        results = _block_results(blocks, finder, policy, args.jobs, keep_text, args.errors)
        offset = 0  # characters (--offsets: units) before the block in its file
        for result in results:
            if result.block.start == 0:
                offset = 0  # the first block of the next file
            _write_links(out, args, result.text, result.links, result.block.path, offset)
            offset += result.chars if result.text is None else unit_length(result.text, args.offsets)
            progress(result.block.end - result.block.start)
        i = j
    progress(None)
    return 0


def _records(text: str, finder: Finder, policy: Policy | None) -> list[dict[str, Any]]:
    """The records of the links of ``text``; with a policy, only those it
    admits, as :func:`uts58.linkify` would link them (D87)."""
    if policy is None:
        return finder.records(text)
    return [link.as_dict() for link in finder.find_links(text) if admitted(link, policy)]


def _admitted_block(job: tuple[Block, Finder, Policy, bool, str]) -> BlockResult:
    """:func:`uts58.parallel.detect_blocks`'s work on one block, with a policy (in a worker process)."""
    block, finder, policy, keep_text, errors = job
    with open(block.path, "rb") as f:
        f.seek(block.start)
        text = decode(f.read(block.end - block.start), block.path, block.start, errors)
    return BlockResult(block, len(text), _records(text, finder, policy), text if keep_text else None)


def _block_results(
    blocks: list[Block], finder: Finder, policy: Policy | None, jobs: int, keep_text: bool, errors: str
) -> Iterator[BlockResult]:
    """The blocks' links in order, on ``jobs`` processes; the same finder everywhere."""
    if policy is None:
        yield from detect_blocks(blocks, finder=finder, jobs=jobs, keep_text=keep_text, errors=errors)
        return
    work = [(block, finder, policy, keep_text, errors) for block in blocks]
    if jobs <= 1:
        yield from map(_admitted_block, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_admitted_block, work, chunksize=1)


def _write_links(
    out: TextIO, args: argparse.Namespace, text: str | None, links: list[dict[str, Any]], name: str, base: int
) -> None:
    if args.json:
        spans = [(r["start"], r["end"]) for r in links]
        if args.offsets != "codepoints":  # D74
            assert text is not None
            spans = link_offsets(text, spans, args.offsets)
        # Every record names its input, "-" for standard input (D88); a name
        # that is not UTF-8 (bytes read with surrogateescape) is written as
        # JSON escapes, which json.loads and os.fsencode give back.
        ascii_only = not encodable(name)
        for record, (start, end) in zip(links, spans, strict=True):
            record = {"file": name, **record, "start": start + base, "end": end + base}  # D33, D88
            out.write(json_line(record, ascii_only))
    elif args.visible:
        assert text is not None
        hrefs = ((r["start"], r["end"], r["href"]) for r in links)
        marks = (OPEN_MARK, CLOSE_MARK)
        write_all(out, mark_terminal(text, hrefs, hyperlinks=args.hyperlinks, underline=args.underline, marks=marks))
    else:
        assert text is not None
        write_all(out, mark_links(text, ((r["start"], r["end"]) for r in links)))
