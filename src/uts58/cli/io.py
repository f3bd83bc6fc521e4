"""The command line's files: reading UTF-8 input (whole, or streamed in
pieces, with the byte offset of an undecodable byte), writing the output
atomically, and the progress bar."""

from __future__ import annotations

import argparse
import codecs
import errno
import html
import json
import os
import re
import secrets
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, TYPE_CHECKING, Any, TextIO, cast

from ..base.decoding import check_utf8, decode
from ..errors import DecodeError
from ..output.terminal import CRHold, held_cr, is_terminal, linkify_osc8, picture, supports_hyperlinks, visible
from ..stream import pieces

if TYPE_CHECKING:
    from ..output.linkifier import Linkifier

__all__ = ["STDIN", "CLIError", "Shown", "Terminated", "output", "pieces_of", "read_text", "standard_output"]


STDIN = "-"  # as a file name: standard input
READ_SIZE = 1 << 18  # bytes per read of a streamed input


class CLIError(Exception):
    """A one-line error for the user; the command exits with status 2."""


class Shown:
    """A terminal's text stream for a command that writes no escapes of its
    own: everything written goes through :func:`uts58.output.terminal.visible`
    (D127), a CR ending one write held for the next (so a CRLF cut between
    two writes stays a line end; :meth:`finish` shows one left at the end).

    >>> import io
    >>> tty = io.StringIO()
    >>> shown = Shown(tty)
    >>> for text in ("a\\x1b[2Jb\\r", "\\nc\\x9b\\r"):
    ...     _ = shown.write(text)
    >>> shown.finish()
    >>> tty.getvalue()
    'a␛[2Jb\\r\\nc<U+009B>␍'
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._hold = CRHold()

    def write(self, text: str) -> int:
        self.stream.write(visible(self._hold.feed(text)))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return True

    def finish(self) -> None:
        if rest := self._hold.rest():
            self.stream.write(visible(rest))


def stdin() -> IO[bytes]:
    """Standard input's bytes, or CLIError when it is closed (``<&-``: Python gives None)."""
    if sys.stdin is None:
        raise CLIError("<stdin>: standard input is closed")
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
    white space (``uts58.stream.pieces``): no link crosses a cut, and
    memory holds a read plus the longest run without white space."""
    if name == STDIN:
        yield from pieces(_text_chunks(stdin(), "<stdin>", errors))
        return
    try:
        f = open(name, "rb")
    except OSError as exc:
        raise CLIError(f"{name}: {exc.strerror or exc}") from None
    with f:
        yield from pieces(_text_chunks(f, name, errors))


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


# A path that names an open file descriptor (Linux's /proc/<pid>/fd/N,
# reached through /dev/stdout, /dev/fd/N, /proc/self/fd/N): the file behind
# it is whatever the shell opened, opened as the shell opened it (>> appends).
_FD_DIRECTORY = re.compile(r"/proc/\d+(?:/task/\d+)?/fd\Z")
_DEV_FD = re.compile(r"/dev/(?:fd/(\d+)|(stdin|stdout|stderr))\Z")
_STANDARD_FDS = {"stdin": 0, "stdout": 1, "stderr": 2}


def descriptor(path: str) -> int | None:
    """The file descriptor ``path`` names (``-``: 1), or None for a file.

    >>> descriptor("-"), descriptor("/dev/stdout"), descriptor("/dev/fd/3"), descriptor("out.html")
    (1, 1, 3, None)
    """
    if path == STDIN:
        return 1
    current = os.path.abspath(path)
    for _ in range(40):  # (ELOOP's bound)
        m = _DEV_FD.match(current)
        if m:  # (named so on every Unix, whether /dev/fd is a folder or links to /proc)
            return int(m.group(1)) if m.group(1) else _STANDARD_FDS[m.group(2)]
        folder, name = os.path.split(current)
        if name.isdigit() and _FD_DIRECTORY.match(os.path.realpath(folder)):
            return int(name)
        if not os.path.islink(current):
            return None
        current = os.path.normpath(os.path.join(folder, os.readlink(current)))
    return None


@contextmanager
def output(path: str | None) -> Iterator[tuple[TextIO, bool]]:
    """(stream, atomic): standard output, or ``path``.

    A regular file (or a new one) is written atomically (D37, D50): a temporary file in
    its directory, with the file's mode (a new file: 0666 less the umask),
    renamed over it only when the command ends well; on any error, Ctrl-C
    or termination signal it is removed and ``path`` is untouched.  A symlink is
    followed: its target is written so, the link stays.  ``-`` and a path
    naming an open descriptor (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``) are written to that descriptor, as the shell opened
    it (D132); what is not a regular file (a pipe, /dev/null, a terminal) is
    written through as the output comes.  Neither is ever renamed over.
    """
    if path is None or path == STDIN:
        yield standard_output(), False
        return
    fd = descriptor(path)
    if fd is not None:
        try:  # (a descriptor of its own: closing it leaves the shell's open)
            own = os.dup(fd)
        except OSError as exc:
            raise CLIError(f"{path}: {exc.strerror or exc}") from None
        with os.fdopen(own, "w", encoding="utf-8", newline="") as f:
            yield f, False
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
        with _signals_raise():
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


class Terminated(BaseException):
    """A termination signal (SIGTERM, SIGHUP, SIGQUIT) arrived: unwound as
    Ctrl-C is, so that a temporary file is removed; :func:`uts58.cli.main.main`
    then ends the process by that signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_CAUGHT = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name))


@contextmanager
def _signals_raise() -> Iterator[None]:
    """Within: each termination signal whose action is the default raises
    :class:`Terminated` (one set to be ignored, as ``nohup`` sets SIGHUP,
    stays ignored).  Python can set handlers in the main thread only:
    elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for signum in _CAUGHT:
        if signal.getsignal(signum) is signal.SIG_DFL:
            previous[signum] = signal.signal(signum, _raise_terminated)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


class _Closed:
    """Standard output or error closed when the command started (``>&-``):
    Python gives None; writing to this raises the error the CLI reports."""

    def __init__(self, name: str) -> None:
        self.name = name

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, f"{self.name} is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def standard_output() -> TextIO:
    """``sys.stdout``, or (closed: ``>&-``) a stream whose first write raises OSError saying so."""
    return sys.stdout if sys.stdout is not None else cast(TextIO, _Closed("standard output"))


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


_SLICE = 4096  # characters: at most 16 KiB of UTF-8, twice a text stream's buffer at most


def write_all(out: TextIO, text: str) -> None:
    """``out.write(text)`` in slices: a single write larger than the stream's
    buffer goes to the file in one system call, and when a pipe's reader
    leaves during it CPython's buffered writer reports the part written and
    drops the rest without an error; in slices the next one raises
    BrokenPipeError, which the command reports (D132)."""
    if len(text) <= _SLICE:
        out.write(text)
        return
    for at in range(0, len(text), _SLICE):
        out.write(text[at : at + _SLICE])


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
    from ..html.linkify import DEFAULT_SKIP  # (selectolax loads only for --html: D31)
    from ..html.text import parse_selectors

    args.skip_selectors = (*DEFAULT_SKIP, *args.skip)
    parse_selectors(args.skip_selectors)


def write_html(names: list[str], args: argparse.Namespace, linkifier: Linkifier, out: TextIO, err: TextIO) -> None:
    """``uts58 linkify --html``: each input read whole (an element, a comment
    or a <pre> may run over any number of lines: D88) and linkified as a
    document or a fragment; a document stays a document (D109).  Where an
    input passes D40's bounds, standard error says from where it was left
    unlinked (D133)."""
    from ..html.linkify import linkify_html_result

    document = {"auto": None, "document": True, "fragment": False}[args.html_as]
    for name in names:
        text = read_text(name, args.errors)
        result = linkify_html_result(text, skip=args.skip_selectors, document=document, linkifier=linkifier)
        write_all(out, result.html)
        if result.unlinked is not None:
            shown = "<stdin>" if name == STDIN else name
            err.write(f"uts58 linkify: {visible(shown)}: {result.unlinked.message(text)}\n")


FORMATS = ("html", "markdown", "osc8", "auto")


def format_arguments(p: argparse.ArgumentParser) -> None:
    """``uts58 linkify``'s output forms: ``--format`` (``--markdown``), ``--standalone``, ``--pre``."""
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="html (the default); markdown; osc8: the text as it is, each link an OSC 8 terminal hyperlink and the"
        " input's control characters shown as pictures (␛); auto: osc8 on a terminal that shows hyperlinks, the"
        " text alone on another terminal, html when the output is no terminal",
    )
    p.add_argument("--markdown", action="store_true", help="the same as --format markdown")
    page = p.add_mutually_exclusive_group()
    page.add_argument(
        "--standalone",
        action="store_true",
        help="html: a whole page (<meta charset>, the file names as <title>), the text in a <pre> that wraps"
        " long lines and keeps every line break",
    )
    page.add_argument("--pre", action="store_true", help="html: the output in <pre>…</pre>, not a whole page")


# What an OSC 8 link cannot hold: each is a usage error with --format osc8 (D127).
_NOT_IN_A_TERMINAL = (
    ("--attr", "attr"),
    ("--class", "link_class"),
    ("--rel", "rel"),
    ("--target", "target"),
    ("--rel-target-on", "rel_target_on"),
    ("--external-only", "external_only"),
    ("--internal-host", "internal_host"),
    ("--truncate", "truncate"),
    ("--truncate-location", "truncate_location"),
    ("--strip-prefix", "strip_prefix"),
    ("--strip-trailing-slash", "strip_trailing_slash"),
)


def check_format(args: argparse.Namespace) -> None:
    """``--format`` and what goes with it, or a usage error naming the flag;
    sets ``args.format`` (``--markdown`` is ``--format markdown``) and ``args.markdown``."""
    parser: argparse.ArgumentParser = args.parser
    if args.markdown and args.format not in (None, "markdown"):
        parser.error(f"argument --markdown: is --format markdown (not with --format {args.format})")
    args.format = "markdown" if args.markdown else args.format or "html"
    args.markdown = args.format == "markdown"
    args.own_escapes = args.format in ("osc8", "auto")  # (else main shows controls on a terminal: D127)
    page = "--standalone" if args.standalone else "--pre" if args.pre else None
    if page and (args.format != "html" or args.html):
        why = "the input is HTML already: --html" if args.html else f"not with --format {args.format}"
        parser.error(f"argument {page}: wraps the HTML of plain text ({why})")
    if args.html and args.format in ("osc8", "auto"):
        parser.error(f"argument --html: writes HTML (not with --format {args.format})")
    if args.format == "osc8":
        for flag, name in _NOT_IN_A_TERMINAL:
            if getattr(args, name):
                parser.error(f"argument {flag}: not with --format osc8 (a terminal shows the text as it is)")


_PAGE_HEAD = """<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
</head>
<body>
<pre style="white-space: pre-wrap; overflow-wrap: break-word">
"""
_PAGE_TAIL = "</pre>\n</body>\n</html>\n"

# D128: what a page cannot hold without an HTML parse error ("control-character-
# in-input-stream", "noncharacter-in-input-stream"): the C0 controls but tab, LF,
# CR (CR and CRLF are line ends the parser makes LF), DEL, the C1 controls, the
# noncharacters; and FF (no parse error, but no line break either).  Shown as
# D127 shows them on a terminal.
_NOT_ON_A_PAGE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef"
    + "".join(f"{chr(plane | 0xFFFE)}{chr(plane | 0xFFFF)}" for plane in range(0, 0x110000, 0x10000))
    + "]"
)


def page_text(html_text: str) -> str:
    """HTML written into a ``--standalone`` or ``--pre`` page, with the
    characters a page cannot hold shown as pictures or ``<U+XXXX>`` (D128).

    >>> page_text("a\\x1b[2J\\x00b\\r\\n\\x85\\ufffe")
    'a␛[2J␀b\\r\\n&lt;U+0085&gt;&lt;U+FFFE&gt;'
    """
    return _NOT_ON_A_PAGE.sub(lambda m: html.escape(picture(m)), html_text)  # (<U+0085> is text, no tag)


def page_title(names: list[str]) -> str:
    """The ``<title>`` of ``--standalone``: the file names given (``-``:
    standard input), or ``uts58`` for standard input alone, escaped (D128)."""
    if all(name == STDIN for name in names):
        return "uts58"
    # (a name that is not UTF-8, read with surrogateescape, shows U+FFFD where the output could not hold it)
    shown = (name.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for name in names)
    return page_text(html.escape(", ".join("standard input" if name == STDIN else name for name in shown), quote=False))


def write_linkified(names: list[str], args: argparse.Namespace, linkifier: Linkifier, out: TextIO) -> None:
    """``uts58 linkify`` on plain text: each input streamed in pieces (no
    link crosses white space, so the pieces linkified, joined, are the
    whole linkified), as HTML (bare, in a ``<pre>`` or a whole page),
    Markdown, OSC 8 hyperlinks, or what ``--format auto`` chooses (D128)."""
    form = args.format
    if form == "auto":
        form = ("osc8" if supports_hyperlinks(os.environ) else "text") if is_terminal(out) else "html"
    if form in ("osc8", "text"):
        for name in names:
            # (a CRLF cut between two pieces stays a line end: D127)
            for piece in held_cr(pieces_of(name, args.errors)):
                write_all(out, linkify_osc8(piece, linkifier, hyperlinks=form == "osc8"))
        return
    # After <pre> a newline: the HTML parser drops one there, so a text
    # that starts with a blank line keeps it (D128).
    if args.standalone:
        out.write(_PAGE_HEAD.format(title=page_title(names)))
    elif args.pre:
        out.write("<pre>\n")
    page = args.standalone or args.pre
    for name in names:
        for piece in pieces_of(name, args.errors):
            html_text = linkifier.render(piece)
            write_all(out, page_text(html_text) if page else html_text)
    if args.standalone:
        out.write(_PAGE_TAIL)
    elif args.pre:
        out.write("</pre>\n")


# D128: json.dumps writes DEL and the C1 controls as they are (a terminal reading
# UTF-8 C1 takes U+009B as CSI); JSON output holds no escape, so they are \u escapes.
_JSON_RAW_CONTROLS = re.compile("[\x7f-\x9f]")


def json_line(record: dict[str, Any], ascii_only: bool = False) -> str:
    """One line of JSON output (``detect --json``, ``tlds --json``), with no raw control character."""
    line = json.dumps(record, ensure_ascii=ascii_only)
    return _JSON_RAW_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", line) + "\n"
