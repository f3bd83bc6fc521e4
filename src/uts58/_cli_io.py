"""The command line's files: reading UTF-8 input (whole, or streamed in
pieces, with the byte offset of an undecodable byte), writing the output
atomically, and the progress bar."""

from __future__ import annotations

import argparse
import codecs
import os
import secrets
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, TYPE_CHECKING, TextIO

from ._decoding import check_utf8, decode
from .errors import DecodeError
from .stream import _pieces

if TYPE_CHECKING:
    from .linkifier import Linkifier

__all__ = ["STDIN", "CLIError", "output", "pieces_of", "read_text"]


STDIN = "-"  # as a file name: standard input
READ_SIZE = 1 << 18  # bytes per read of a streamed input


class CLIError(Exception):
    """A one-line error for the user; the command exits with status 2."""


def stdin() -> IO[bytes]:
    return sys.stdin.buffer


def read_text(path: str, errors: str = "strict") -> str:
    """A UTF-8 file's text (``-``: standard input's), or CLIError naming the file (and byte offset)."""
    try:
        if path == STDIN:
            data, path = stdin().read(), "<stdin>"
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as exc:
        raise CLIError(f"{path}: {exc.strerror or exc}") from None
    try:
        return decode(data, path, errors=errors)
    except DecodeError as exc:
        raise CLIError(str(exc)) from None


def _text_chunks(f: IO[bytes], name: str, errors: str) -> Iterator[str]:
    """The text of a binary file, read ``READ_SIZE`` bytes at a time; an
    undecodable byte raises CLIError with its offset in the whole input."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors)
    fed = 0  # bytes read before this read
    while True:
        try:
            data = f.read(READ_SIZE)
        except OSError as exc:
            raise CLIError(f"{name}: {exc.strerror or exc}") from None
        pending = decoder.getstate()[0]  # bytes of an unfinished character, held by the decoder
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise CLIError(str(DecodeError(name, fed - len(pending) + exc.start, exc.reason))) from None
        fed += len(data)
        if text:
            yield text
        if not data:
            return


def pieces_of(name: str, errors: str) -> Iterator[str]:
    """The text of input ``name`` (``-``: standard input) in pieces cut after
    white space (:func:`uts58.stream._pieces`): no link crosses a cut, and
    memory holds a read plus the longest run without white space."""
    if name == STDIN:
        yield from _pieces(_text_chunks(stdin(), "<stdin>", errors))
        return
    try:
        f = open(name, "rb")
    except OSError as exc:
        raise CLIError(f"{name}: {exc.strerror or exc}") from None
    with f:
        yield from _pieces(_text_chunks(f, name, errors))


def streamed(name: str) -> bool:
    """Standard input, or a file that can be read only once (a FIFO, ``<(cmd)``, /dev/stdin)."""
    if name == STDIN:
        return True
    try:
        return not stat.S_ISREG(os.stat(name).st_mode)
    except OSError:
        return False  # reported when the file is opened


def check_inputs(names: list[str], errors: str) -> None:
    """Every regular file can be read and (with ``errors="strict"``) is UTF-8:
    checked before anything is written.  Streams are checked as they are read."""
    for name in names:
        if streamed(name):
            continue
        try:
            if errors == "strict":
                check_utf8(name)
            else:
                with open(name, "rb"):
                    pass
        except OSError as exc:
            raise CLIError(f"{name}: {exc.strerror or exc}") from None
        except DecodeError as exc:
            raise CLIError(str(exc)) from None


def encodable(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def progress(total: int, err: TextIO) -> Callable[[int | None], None]:
    """A progress bar on a terminal (tqdm, when installed); nothing otherwise."""
    if not (hasattr(err, "isatty") and err.isatty()):
        return lambda done: None
    try:
        from tqdm import tqdm
    except ImportError:
        return lambda done: None
    bar = tqdm(total=total, unit="B", unit_scale=True, file=err, desc="uts58 detect")

    def update(done: int | None) -> None:
        if done is None:
            bar.close()
        else:
            bar.update(done)

    return update


@contextmanager
def output(path: str | None) -> Iterator[tuple[TextIO, bool]]:
    """(stream, atomic): standard output, or ``path``.

    A regular file (or a new one) is written atomically (D37, D50): a temporary file in
    its directory, with the file's mode (a new file: 0666 less the umask),
    renamed over it only when the command ends well; on any error or Ctrl-C
    it is removed and ``path`` is untouched.  A symlink is followed: its
    target is written so, the link stays.  What is not a regular file (a
    FIFO, /dev/null, a terminal) is written through as the output comes,
    like standard output; it is never renamed over.
    """
    if path is None:
        yield sys.stdout, False
        return
    target = os.path.realpath(path)
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise CLIError(f"{path}: {exc.strerror or exc}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise CLIError(f"{path}: Is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        try:  # no O_CREAT, no O_TRUNC: write into what is there
            fd = os.open(target, os.O_WRONLY | os.O_NOCTTY)
        except OSError as exc:
            raise CLIError(f"{path}: {exc.strerror or exc}") from None
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            yield f, False
        return
    fd, tmp = _temporary(os.path.dirname(target), path)
    try:
        if mode is not None:
            os.fchmod(fd, stat.S_IMODE(mode))
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            yield f, True
            f.flush()
            os.fsync(f.fileno())  # the data is on disk before the name points to it
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


def _temporary(directory: str, path: str) -> tuple[int, str]:
    """A new file in ``directory`` created with mode 0666, which the kernel
    reduces by the umask (tempfile.mkstemp would make it 0600)."""
    for _ in range(100):
        tmp = os.path.join(directory, f".uts58-{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as exc:
            raise CLIError(f"{path}: {exc.strerror or exc}") from None
    raise CLIError(f"{path}: no free temporary name in {directory}")


def html_arguments(p: argparse.ArgumentParser) -> None:
    """``uts58 linkify``'s options for HTML input."""
    p.add_argument(
        "--html",
        action="store_true",
        help="the input is HTML: link the text of each input (uts58.linkify_html); a document (doctype or <html>"
        " first) is written back whole, a fragment as a fragment, the bytes around the links as they were",
    )
    p.add_argument(
        "--html-as",
        choices=("auto", "document", "fragment"),
        default="auto",
        help="with --html: read each input as a document or a fragment (auto: a document when a doctype or <html>"
        " comes first)",
    )
    p.add_argument(
        "--skip",
        metavar="SELECTOR",
        action="append",
        default=[],
        help="with --html: leave the text of elements matching SELECTOR alone (repeatable; tag, .class, [attr],"
        " [attr=value], [attr~=word]; on top of .no-linkify, .nolinkify, [data-nolinkify], [contenteditable])",
    )


def html_options(args: argparse.Namespace) -> None:
    """``--skip`` checked (an OptionError naming it) and put on top of the defaults."""
    from ._htmltext import parse_selectors
    from .html5 import DEFAULT_SKIP  # (selectolax loads only for --html: D31)

    args.skip_selectors = (*DEFAULT_SKIP, *args.skip)
    parse_selectors(args.skip_selectors)


def write_html(names: list[str], args: argparse.Namespace, linkifier: Linkifier, out: TextIO) -> None:
    """``uts58 linkify --html``: each input read whole (an element, a comment
    or a <pre> may run over any number of lines: D88) and linkified as a
    document or a fragment; a document stays a document (D109)."""
    from .html5 import linkify_html

    document = {"auto": None, "document": True, "fragment": False}[args.html_as]
    for name in names:
        text = read_text(name, args.errors)
        out.write(linkify_html(text, skip=args.skip_selectors, document=document, linkifier=linkifier))
