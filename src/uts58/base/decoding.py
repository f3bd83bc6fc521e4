"""UTF-8 decoding with errors that name the file and the byte offset
(:class:`uts58.errors.DecodeError`), for the command line and
:mod:`uts58.parallel`, which both import it from here (D66).

>>> decode("bücher".encode(), "x.txt")
'bücher'
>>> decode(b"ab\\xff", "x.txt", offset=100)
Traceback (most recent call last):
  ...
uts58.errors.DecodeError: x.txt: invalid UTF-8 at byte offset 102 (invalid start byte)
"""

from __future__ import annotations

import codecs

from ..errors import DecodeError

__all__ = ["check_utf8", "decode"]


def decode(data: bytes, name: str, offset: int = 0, errors: str = "strict") -> str:
    """``data`` (bytes of file ``name`` from byte ``offset`` on) as text;
    DecodeError at the first byte that is not UTF-8 (``errors="replace"``:
    U+FFFD instead)."""
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        raise DecodeError(name, offset + exc.start, exc.reason) from None


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
