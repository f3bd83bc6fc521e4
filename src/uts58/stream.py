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
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from ._checks import check_str
from .detection import Link, find_links
from .errors import OptionError

__all__ = ["find_links_in_file", "find_links_in_stream"]

_LAST_SPACE = re.compile(r"\s(?=\S*\Z)")
DEFAULT_CHUNK = 1 << 20


def find_links_in_stream(chunks: Iterable[str], **options: Any) -> Iterator[Link]:
    """:func:`~uts58.find_links` over the concatenation of ``chunks``, with
    offsets into the whole text.  Memory holds one chunk plus the longest
    run of text without white space.

    >>> [(l.start, l.text) for l in find_links_in_stream(["see exam", "ple.com/a", "b x@y.org"])]
    [(4, 'example.com/ab'), (19, 'x@y.org')]
    """
    if isinstance(chunks, str) or not isinstance(chunks, Iterable):
        raise TypeError(f"chunks must be an iterable of str, not {type(chunks).__name__}")
    list(find_links("", **options))  # check the options now, not at the first chunk
    return _stream(iter(chunks), options)


def _stream(chunks: Iterator[str], options: dict[str, Any]) -> Iterator[Link]:
    base = 0
    for text in _pieces(check_str(chunk, "each chunk") for chunk in chunks):
        yield from _moved(find_links(text, **options), base)
        base += len(text)


def _pieces(chunks: Iterable[str]) -> Iterator[str]:
    """The concatenation of ``chunks`` in pieces that end after white space
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
    file: str | os.PathLike[str] | TextIO, *, encoding: str = "utf-8", chunk_size: int = DEFAULT_CHUNK, **options: Any
) -> Iterator[Link]:
    """:func:`find_links_in_stream` over a text file (a path or an open text file).

    Offsets count characters from the start of the file.
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise OptionError(f"chunk_size must be a positive int, not {chunk_size!r}")
    if hasattr(file, "read"):  # an open text file (or any reader)
        return find_links_in_stream(_read(file, chunk_size), **options)  # type: ignore[arg-type]
    if not isinstance(file, (str, os.PathLike)):
        raise TypeError(f"file must be a path or a text file, not {type(file).__name__}")
    return _from_path(file, encoding, chunk_size, options)


def _read(f: TextIO, size: int) -> Iterator[str]:
    while chunk := f.read(size):
        yield chunk


def _from_path(path: str | os.PathLike[str], encoding: str, size: int, options: dict[str, Any]) -> Iterator[Link]:
    with open(path, encoding=encoding) as f:
        yield from find_links_in_stream(_read(f, size), **options)
