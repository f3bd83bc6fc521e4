"""Command line: ``uts58 detect|linkify|check|format|props|conformance`` (also ``python -m uts58``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, TextIO

from . import __version__
from .conformance import TEST_VERSIONS, mark_links, run_detection_file, run_formatting_file
from .detection import find_links
from .email import format_email
from .escaping import format_url
from .linkifier import linkify
from .parallel import DEFAULT_BLOCK, DecodeError, check_utf8, decode, detect_blocks, plan_blocks
from .properties import DEFAULT_UNICODE_VERSION, available_versions, link_properties
from .security import Policy, check_link

__all__ = ["main"]


class CLIError(Exception):
    """A one-line error for the user; the command exits with status 2."""


def read_text(path: str, errors: str = "strict") -> str:
    """A UTF-8 file's text, or CLIError naming the file (and byte offset)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise CLIError(f"{path}: {exc.strerror or exc}") from None
    try:
        return decode(data, path, errors=errors)
    except DecodeError as exc:
        raise CLIError(str(exc)) from None


def _is_email(arg: str) -> bool:
    """An argument without a scheme whose authority holds an '@'."""
    if arg[:7].lower() == "mailto:":
        return True
    return "://" not in arg and "@" in arg.split("/", 1)[0]


def _cmd_format(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    items = list(args.items)
    if args.file is not None:
        lines = read_text(args.file, args.errors).splitlines()
        items += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if not items:
        err.write("uts58 format: give URLs as arguments or with --file\n")
        return 2
    status = 0
    for arg in items:
        try:
            if _is_email(arg):
                out.write(format_email(arg, unicode_version=args.unicode_version) + "\n")
            else:
                out.write(format_url(arg, unicode_version=args.unicode_version) + "\n")
        except ValueError as exc:
            err.write(f"uts58 format: {exc}\n")
            status = 1
    return status


def _read_inputs(files: list[str], errors: str) -> Iterator[tuple[str, str]]:
    """(name, text) of each file, or of standard input when there is none."""
    if not files:
        try:
            yield "<stdin>", decode(sys.stdin.buffer.read(), "<stdin>", errors=errors)
        except DecodeError as exc:
            raise CLIError(str(exc)) from None
        return
    for name in files:
        yield name, read_text(name, errors)


def _cmd_detect(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    options = {"urls": args.only != "emails", "emails": args.only != "urls", "unicode_version": args.unicode_version}
    if args.jobs < 1:
        raise CLIError("--jobs must be at least 1")
    if args.block_size < 1:
        raise CLIError("--block-size must be at least 1")
    if not args.files:
        _, text = next(_read_inputs([], args.errors))
        _write_links(out, args, text, [link.as_dict() for link in find_links(text, **options)], None, 0)
        return 0
    # Check every file before writing anything: an unreadable or undecodable
    # input stops the command with no partial output.
    blocks = []
    for name in args.files:
        try:
            if args.errors == "strict":
                check_utf8(name)
            blocks += plan_blocks(name, args.block_size)
        except OSError as exc:
            raise CLIError(f"{name}: {exc.strerror or exc}") from None
        except DecodeError as exc:
            raise CLIError(str(exc)) from None
    results = detect_blocks(blocks, options, jobs=args.jobs, keep_text=not args.json, errors=args.errors)
    progress = _progress(sum(b.end - b.start for b in blocks), err)
    offset = 0  # characters before the block in its file
    for result in results:
        if result.block.start == 0:
            offset = 0  # the first block of the next file
        name = result.block.path if len(args.files) > 1 else None
        _write_links(out, args, result.text, result.links, name, offset)
        offset += result.chars
        progress(result.block.end - result.block.start)
    progress(None)
    return 0


def _write_links(
    out: TextIO, args: argparse.Namespace, text: str | None, links: list[dict[str, Any]], name: str | None, base: int
) -> None:
    if args.json:
        for record in links:
            record = {**record, "start": record["start"] + base, "end": record["end"] + base}
            if name is not None:
                record = {"file": name, **record}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    else:
        assert text is not None
        out.write(mark_links(text, ((r["start"], r["end"]) for r in links)))


def _progress(total: int, err: TextIO) -> Callable[[int | None], None]:
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


_POLICIES = {"strict": Policy.strict, "default": Policy.default, "none": Policy.none}


def _cmd_linkify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    policy = _POLICIES[args.policy]().with_options(unicode_version=args.unicode_version)
    inputs = list(_read_inputs(args.files, args.errors))
    for _name, text in inputs:
        out.write(
            linkify(
                text,
                format="markdown" if args.markdown else "html",
                policy=policy,
                unicode_version=args.unicode_version,
            )
        )
    return 0


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    policy = _POLICIES[args.policy]().with_options(unicode_version=args.unicode_version)
    status = 0
    for item in args.items:
        links = list(find_links(item, known_tlds=policy.known_tlds, unicode_version=args.unicode_version))
        whole = [link for link in links if (link.start, link.end) == (0, len(item))]
        if not whole:
            found = ", ".join(repr(link.text) for link in links) or "nothing"
            out.write(f"{item}: not a link (detection finds {found})\n")
            status = 1
            continue
        reasons = check_link(whole[0], policy)
        if reasons:
            status = 1
            out.write(f"{item}: rejected by the {args.policy} policy\n")
            for reason in reasons:
                out.write(f"  {reason}\n")
        else:
            out.write(f"{item}: ok ({whole[0].kind}, href {whole[0].href})\n")
    return status


def _cmd_props(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    props = link_properties(args.unicode_version)
    out.write("code point  char  Link_Term  Link_Bracket  Link_Email  name\n")
    for ch in " ".join(args.text):
        bracket = props.link_bracket(ch)
        shown = ch if ch.isprintable() and not unicodedata.category(ch).startswith("Z") else " "
        out.write(
            f"U+{ord(ch):04X}{'':<{6 - len(f'{ord(ch):04X}')}}  {shown:<4}  {props.link_term(ch).value:<9}  "
            f"{(f'U+{ord(bracket):04X} ' + bracket) if bracket else '-':<12}  "
            f"{'Yes' if props.is_link_email(ch) else 'No':<10}  {unicodedata.name(ch, '')}\n"
        )
    return 0


def _cmd_conformance(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    failed = 0
    for version in TEST_VERSIONS:
        for outcome in run_formatting_file(version) + run_detection_file(version):
            failed += len(outcome.failed)
            out.write(
                f"{outcome.name}: {outcome.passed} passed, {len(outcome.failed)} failed"
                + (f", {len(outcome.excused)} documented exceptions" if outcome.excused else "")
                + "\n"
            )
            for line in outcome.failed:
                out.write(f"  FAIL {line}\n")
            if args.verbose:
                for line in outcome.excused:
                    out.write(f"  excused {line}\n")
    return 1 if failed else 0


def _io_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", help="write here instead of standard output (atomically: all or nothing)")
    p.add_argument(
        "--errors",
        choices=("strict", "replace"),
        default="strict",
        help="undecodable input: stop with its file and byte offset (strict), or read U+FFFD (replace)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uts58",
        description="Unicode link detection and formatting (UTS #58).",
    )
    parser.add_argument("--version", action="version", version=f"uts58 {__version__}")
    parser.add_argument(
        "--unicode-version",
        default=DEFAULT_UNICODE_VERSION,
        choices=available_versions(),
        help="Unicode version of the property data (default: %(default)s)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("detect", help="find URLs and email addresses in text files (or standard input)")
    p.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files; standard input when none")
    p.add_argument("--json", action="store_true", help="print one JSON object per link instead of the marked text")
    p.add_argument("--only", choices=("urls", "emails"), help="report only this kind of link")
    p.add_argument("-j", "--jobs", type=int, default=1, help="processes to use (default: %(default)s)")
    p.add_argument(
        "--block-size",
        type=int,
        default=DEFAULT_BLOCK,
        help="bytes per unit of work, cut at a newline (default: 4 MiB)",
    )
    _io_options(p)
    p.set_defaults(run=_cmd_detect)

    p = sub.add_parser("linkify", help="write text files (or standard input) as HTML or Markdown with links")
    p.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files; standard input when none")
    p.add_argument("--markdown", action="store_true", help="write Markdown links instead of HTML")
    p.add_argument("--policy", choices=tuple(_POLICIES), default="default", help="§8 checks (default: %(default)s)")
    _io_options(p)
    p.set_defaults(run=_cmd_linkify)

    p = sub.add_parser("check", help="tell whether each argument is a link and which §8 checks it fails")
    p.add_argument("items", nargs="+", metavar="URL")
    p.add_argument("--policy", choices=tuple(_POLICIES), default="default", help="§8 checks (default: %(default)s)")
    p.set_defaults(run=_cmd_check)

    p = sub.add_parser("format", help="print the minimally escaped form of URLs and email addresses")
    p.add_argument("items", nargs="*", metavar="URL", help="URL (any escaping) or email address")
    p.add_argument("-f", "--file", help="also read one URL or address per line (# starts a comment line)")
    _io_options(p)
    p.set_defaults(run=_cmd_format)

    p = sub.add_parser("props", help="show Link_Term, Link_Bracket and Link_Email of each character")
    p.add_argument("text", nargs="+", metavar="TEXT")
    p.set_defaults(run=_cmd_props)

    p = sub.add_parser("conformance", help="run the bundled official conformance files")
    p.add_argument("-v", "--verbose", action="store_true", help="also list the documented exceptions")
    p.set_defaults(run=_cmd_conformance)
    return parser


@contextmanager
def _output(path: str | None) -> Iterator[TextIO]:
    """Standard output, or ``path`` written atomically: a temporary file in
    the same directory, renamed over ``path`` only when the command ends
    well; on any error or Ctrl-C it is removed and ``path`` is untouched."""
    if path is None:
        yield sys.stdout
        return
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".uts58-", dir=directory)
    except OSError as exc:
        raise CLIError(f"{path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with _output(getattr(args, "output", None)) as out:
            status: int = args.run(args, out, sys.stderr)
            if status != 0 and getattr(args, "output", None) is not None:
                raise CLIError(f"not writing {args.output}: the command failed")
    except CLIError as exc:
        sys.stderr.write(f"uts58 {args.command}: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"uts58 {args.command}: interrupted\n")
        return 130
    except BrokenPipeError:
        # Output piped into e.g. `head`: stop quietly, like other Unix tools.
        sys.stderr.close()
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
