"""Detection over text of any size, in bounded memory.

No link spans a white-space character (white space is Link_Term=Hard, not
Link_Email and no label character), and nothing in :func:`uts58.find_links`
looks across one.  So text can be cut after any white space and the pieces
detected on their own: the links are exactly those of the whole text, with
the same offsets once the pieces' positions are added.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TextIO

from .base.checks import check_str
from .detect.finder import Finder, FinderOptions, Link, resolve_finder
from .errors import OptionError

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["find_links_in_file", "find_links_in_stream"]

_LAST_SPACE = re.compile(r"\s(?=\S*\Z)")
DEFAULT_CHUNK = 1 << 20


def find_links_in_stream(
    chunks: Iterable[str], finder: Finder | None = None, **options: Unpack[FinderOptions]
) -> Iterator[Link]:
    """:func:`~uts58.find_links` over the concatenation of ``chunks``, with
    offsets into the whole text, with ``finder`` or the options of
    :func:`~uts58.find_links`.  Memory holds one chunk plus the longest run
    of text without white space.

    >>> [(l.start, l.text) for l in find_links_in_stream(["see exam", "ple.com/a", "b x@y.org"])]
    [(4, 'example.com/ab'), (19, 'x@y.org')]
    """
    if isinstance(chunks, str) or not isinstance(chunks, Iterable):
        raise TypeError(f"chunks must be an iterable of str, not {type(chunks).__name__}")
    found = resolve_finder(finder, options, "find_links_in_stream")  # checked now, not at the first chunk
    return _stream(iter(chunks), found)


def _stream(chunks: Iterator[str], finder: Finder) -> Iterator[Link]:
    base = 0
    for text in pieces(check_str(chunk, "each chunk") for chunk in chunks):
        yield from _moved(finder.find_links(text), base)
        base += len(text)


def pieces(chunks: Iterable[str]) -> Iterator[str]:
    """The concatenation of ``chunks`` in pieces that end after white space (D32)
    (but the last): what detection sees in a piece is what it sees in the
    whole.  Holds one chunk plus the longest run without white space."""
    pending: list[str] = []
    for chunk in chunks:
        m = _LAST_SPACE.search(chunk)
        if m is None:
            pending.append(chunk)
            continue
        yield "".join(pending) + chunk[: m.end()]
        pending = [chunk[m.end() :]]
    yield "".join(pending)


def _moved(links: Iterable[Link], delta: int) -> Iterator[Link]:
    for link in links:
        yield link._moved(delta) if delta else link


def find_links_in_file(
    file: str | os.PathLike[str] | TextIO,
    *,
    encoding: str = "utf-8",
    chunk_size: int = DEFAULT_CHUNK,
    finder: Finder | None = None,
    **options: Unpack[FinderOptions],
) -> Iterator[Link]:
    """:func:`find_links_in_stream` over a text file (a path or an open text file).

    Offsets count characters from the start of the file.
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise OptionError(f"chunk_size must be a positive int, not {chunk_size!r}")
    found = resolve_finder(finder, options, "find_links_in_file")
    if hasattr(file, "read"):  # an open text file (or any reader)
        return _stream(_read(file, chunk_size), found)  # type: ignore[arg-type]
    if not isinstance(file, (str, os.PathLike)):
        raise TypeError(f"file must be a path or a text file, not {type(file).__name__}")
    return _from_path(file, encoding, chunk_size, found)


def _read(f: TextIO, size: int) -> Iterator[str]:
    while chunk := f.read(size):
        yield chunk


def _from_path(path: str | os.PathLike[str], encoding: str, size: int, finder: Finder) -> Iterator[Link]:
    with open(path, encoding=encoding) as f:
        yield from _stream(_read(f, size), finder)
