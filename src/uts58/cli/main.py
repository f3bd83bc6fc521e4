"""Command line: ``uts58 detect|linkify|check|format|props|conformance|tlds|serve`` (also ``python -m uts58``)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import unicodedata
from collections.abc import Sequence
from contextlib import suppress
from typing import Any, NoReturn, TextIO, cast

from ..detect.finder import Finder, why_not
from ..detect.options import DEFAULT_SCHEMES, FINDER_OPTIONS, PRESETS, SWITCHES, scheme_set
from ..errors import OptionError, TLDListError
from ..hosts.tlds import load_source
from ..output.linkifier import Linkifier
from ..output.offsets import UNITS
from ..output.options import LINKIFIER_OPTIONS
from ..output.policy import NAMED_POLICIES, check_link
from ..output.terminal import is_terminal, visible
from ..parallel import DEFAULT_BLOCK
from ..unicode.properties import DEFAULT_UNICODE_VERSION, available_versions, link_properties
from .detect import color_argument, run_detect
from .format import run_format
from .info import Version, run_conformance, run_tlds, version_report
from .io import (
    STDIN,
    CLIError,
    Shown,
    Terminated,
    check_format,
    check_inputs,
    encodable,
    format_arguments,
    html_arguments,
    html_options,
    output,
    stdin,
    write_html,
    write_linkified,
)
from .playground import DEFAULT_HOST, DEFAULT_PORT

__all__ = ["main", "version_report"]


_POLICIES = NAMED_POLICIES


def _cmd_linkify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    names = args.files or [STDIN]
    check_inputs(names, args.errors)
    linkifier: Linkifier = args.linkifier
    if args.html:
        write_html(names, args, linkifier, out, err)
        return 0
    write_linkified(names, args, linkifier, out)  # HTML, a page, Markdown or OSC 8 (D127, D128)
    return 0


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    policy = _POLICIES[args.policy]()
    try:
        finder = _finder_of(args, unicode_version=args.unicode_version)
    except (OptionError, TypeError) as exc:
        _usage_error(args.parser, exc)
    status = 0
    for item in args.items:
        links = list(finder.find_links(item))
        whole = [link for link in links if (link.start, link.end) == (0, len(item))]
        if not whole:
            found = ", ".join(repr(link.text) for link in links) or "nothing"
            out.write(f"{item}: not a link (detection finds {found})\n")
            for refusal in why_not(item, finder):
                out.write(f"  {refusal.text}: {refusal.reason} (rule: {refusal.rule}, {refusal.decision})\n")
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


def _io_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write here instead of standard output (- is standard output): a regular file atomically (all or"
        " nothing, keeping its mode; a new one gets 0666 less the umask; removed on an error, Ctrl-C or a"
        " termination signal); a symlink is followed and its target written so; a descriptor (/dev/stdout,"
        " /dev/fd/N), a FIFO or a device such as /dev/null is written through as the output comes, never replaced",
    )
    p.add_argument(
        "--errors",
        choices=("strict", "replace"),
        default="strict",
        help="undecodable input: stop with its file and byte offset (strict), or read U+FFFD (replace)",
    )


def _schemes(value: str) -> frozenset[str]:
    """``--schemes LIST``: comma-separated, checked as ``Finder(schemes=...)`` checks them."""
    names = [name.strip() for name in value.split(",")] if value.strip() else []
    try:
        return scheme_set(names)
    except (OptionError, TypeError) as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("schemes: ")) from None


def _positive(value: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {number}")
    return number


def _attr(value: str) -> tuple[str, str]:
    """``--attr NAME=VALUE``, checked as ``Linkifier(attrs=...)`` checks it."""
    name, eq, attr_value = value.partition("=")
    if not eq:
        raise argparse.ArgumentTypeError(f"{value!r} is not NAME=VALUE")
    if not encodable(value):  # (an argument of bytes that are not UTF-8: the output could not hold it)
        raise argparse.ArgumentTypeError(f"{value!r} is not UTF-8")
    try:
        Linkifier(attrs={name: attr_value})
    except (OptionError, TypeError) as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("attrs: ")) from None
    return name, attr_value


# The flag of each keyword argument a library error names (OptionError.option),
# from the options' tables (D136): a combination the parser let through is
# reported with its flag.
_FLAG_OF = {**FINDER_OPTIONS.flags(), **LINKIFIER_OPTIONS.flags(), "skip": "--skip", "preset": "--preset"}
# The Finder's switches that are flags of their own (off by default: the flag turns one on).
_SWITCHES = tuple(FINDER_OPTIONS.by_name[name] for name in SWITCHES)


def _usage_error(parser: argparse.ArgumentParser, exc: Exception) -> NoReturn:
    """Exit 2 with a usage error naming the flag of the option ``exc`` (a library error) is about."""
    flag = _FLAG_OF.get(getattr(exc, "option", None) or "")
    parser.error(f"argument {flag}: {exc}" if flag else str(exc))


def _prepare(args: argparse.Namespace) -> None:
    """Turn ``detect``'s and ``linkify``'s options into one Finder (one per
    run, pickled to the workers of -j), a Policy, and linkify's keyword
    arguments; a bad value or combination is a usage error naming the option."""
    parser: argparse.ArgumentParser = args.parser
    names = args.files or [STDIN]
    known_tlds = None
    if args.tlds is not None:
        if args.tlds == STDIN and STDIN in names:
            parser.error("argument --tlds: - (standard input) is the input to read already; give the list as a file")
        try:
            source = load_source(stdin().read(), name="<stdin>") if args.tlds == STDIN else load_source(args.tlds)
        except OSError as exc:
            parser.error(f"argument --tlds: {args.tlds}: {exc.strerror or exc}")
        except (TLDListError, TypeError) as exc:
            parser.error(f"argument --tlds: {exc}")
        known_tlds = source.tlds
    policy = None if args.policy is None else _POLICIES[args.policy]()
    linkifying = args.command == "linkify"
    try:
        args.finder = _finder_of(
            args,
            urls=linkifying or args.only != "emails",  # (linkify: kinds says, below)
            emails=linkifying or args.only != "urls",
            schemes=DEFAULT_SCHEMES if args.schemes is None else args.schemes,
            known_tlds=known_tlds,
            unicode_version=args.unicode_version,
        )
    except (OptionError, TLDListError, TypeError) as exc:
        _usage_error(parser, exc)
    args.policy_object = policy
    if not linkifying:
        return
    check_format(args)  # --format, --markdown, --standalone, --pre
    attrs: dict[str, str] = {}
    for name, value in args.attr:
        if name.lower() in map(str.lower, attrs):  # (HTML attribute names are case-insensitive)
            parser.error(f"argument --attr: {name!r} given twice")
        attrs[name] = value
    if args.markdown and attrs:
        parser.error("argument --attr: a Markdown link has no attributes (--attr needs HTML output)")
    if args.markdown and args.html:
        parser.error("argument --html: writes HTML, not Markdown (--html and --markdown exclude each other)")
    if (args.skip or args.html_as != "auto") and not args.html:
        parser.error(f"argument {'--skip' if args.skip else '--html-as'}: only with --html")
    if args.html:
        try:
            html_options(args)
        except OptionError as exc:
            _usage_error(parser, exc)
    options: dict[str, Any] = {
        "attrs": attrs,
        "kinds": ("url", "email") if args.only is None else (args.only[:-1],),
        "policy": policy,
        "finder": args.finder,
        "format": "markdown" if args.markdown else "html",
    }
    for keyword, value in (
        ("rel", args.rel),
        ("target", args.target),
        ("link_class", args.link_class),
        ("rel_target_on", args.rel_target_on),
    ):
        if value is not None:
            options[keyword] = value
    if args.external_only or args.internal_host:
        options["external_only"] = args.external_only
        options["internal_hosts"] = args.internal_host
    if args.html:
        options["link_text"] = "original"  # (linkify_html's: a link keeps the text that was there)
    if args.truncate_location is not None and args.truncate is None:
        parser.error("argument --truncate-location: needs --truncate N")
    display: dict[str, Any] = {}
    if args.truncate is not None:
        display["max_length"] = args.truncate
        display["location"] = args.truncate_location or "end"
    if args.strip_prefix:
        display["strip_scheme"] = display["strip_www"] = True
    if args.strip_trailing_slash:
        display["strip_trailing_slash"] = True
    if display:
        options["display"] = display
    try:
        args.linkifier = Linkifier(**options)  # every check, once, before any input is read
    except (OptionError, TypeError) as exc:
        _usage_error(parser, exc)


def _finder_of(args: argparse.Namespace, **options: Any) -> Finder:
    """The Finder of the options, ``--preset`` and ``--file-extensions`` (D97:
    one switch for file names, the same in every command, whatever the
    policy: a policy judges what is found, D65)."""
    for switch in _SWITCHES:
        if getattr(args, switch.name, False):  # (check has --cjk-prose alone)
            options[switch.name] = True
    if args.file_extensions is not None:
        options["file_extensions"] = args.file_extensions
    if args.preset is not None:
        options["preset"] = args.preset
    preset = options.pop("preset", None)
    return Finder(**options) if preset is None else Finder.preset(preset, **options)


def _file_extensions(value: str) -> tuple[str, ...]:
    """``--file-extensions``: a comma-separated list of TLDs, or ``none``."""
    if value.strip().lower() == "none":
        return ()
    return tuple(name.strip() for name in value.split(",") if name.strip())


def _file_name_options(g: argparse._ArgumentGroup) -> None:
    """``--preset`` and ``--file-extensions`` (D97), for detect, linkify and check."""
    g.add_argument(
        "--preset",
        choices=tuple(sorted(PRESETS)),
        help="a named option set of uts58.Finder: technical (every TLD that is also a file extension needs a"
        " scheme, www. or a path: change logs, code review), gfm (GitHub's autolinks: a scheme or www., and"
        " emails), all (no file-name judgement)",
    )
    g.add_argument(
        "--file-extensions",
        metavar="LIST",
        type=_file_extensions,
        help="comma-separated TLDs whose bare names are files (default: py,rs,ts,sh,target,… see uts58.detect.evidence."
        "CODE_TLDS); none for no such TLD; names under other TLDs are still judged by what the text shows",
    )
    _switch(g, "cjk_prose")


def _switch(g: argparse._ArgumentGroup, name: str) -> None:
    """A Finder switch as its flag, with its table's text (D136)."""
    option = FINDER_OPTIONS.by_name[name]
    assert option.flag is not None  # (a switch of SWITCHES)
    g.add_argument(option.flag, action="store_true", help=option.doc)


def _detection_options(p: argparse.ArgumentParser, *, linkify: bool) -> None:
    """The options of :class:`uts58.Finder` and the §8 policy, for ``detect`` and ``linkify``."""
    g = p.add_argument_group("what is a link (the options of uts58.Finder)")
    _file_name_options(g)
    g.add_argument("--only", choices=("urls", "emails"), help="report (link) only this kind of link")
    g.add_argument(
        "--schemes",
        metavar="LIST",
        type=_schemes,
        help="comma-separated schemes recognized when written (default: ftp,http,https; mailto goes with email"
        " addresses); never javascript, data, vbscript or file",
    )
    _switch(g, "require_scheme")
    g.add_argument(
        "--tlds",
        metavar="FILE",
        help="accept these TLDs without a scheme instead of the bundled set: an IANA tlds-alpha-by-domain.txt or"
        " a Public Suffix List, read as `uts58 tlds --file` reads it (- is standard input, unless it is the input)",
    )
    for name in ("bare_ipv4", "bare_localhost", "single_label_hosts"):
        _switch(g, name)
    if linkify:
        g.add_argument("--policy", choices=tuple(_POLICIES), default="default", help="§8 checks (default: %(default)s)")
    else:
        g.add_argument(
            "--policy",
            choices=tuple(_POLICIES),
            help="leave out the links this §8 policy refuses, as linkify does (default: report every link"
            " detection finds; which names are files is --preset's and --file-extensions' to say)",
        )


class _Parser(argparse.ArgumentParser):
    """argparse's, with its error messages (which may quote a file name or a
    file's line) shown as :func:`uts58.output.terminal.visible` shows text (D127)."""

    def error(self, message: str) -> NoReturn:
        super().error(visible(message))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="uts58",
        description="Unicode link detection and formatting (UTS #58).",
    )
    parser.add_argument("--version", action=Version, help="show the version, and which kernels and URL parser run")
    parser.add_argument(
        "--unicode-version",
        default=DEFAULT_UNICODE_VERSION,
        choices=available_versions(),
        help="Unicode version of the property data (default: %(default)s)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("detect", help="find URLs and email addresses in text files (or standard input)")
    p.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files; - (or none): standard input, streamed")
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per link instead of the marked text: file (as given; - for standard input),"
        " start, end, kind, text, href, display; its start and end count code points unless --offsets says"
        " otherwise",
    )
    p.add_argument(
        "--offsets",
        choices=UNITS,
        default="codepoints",
        help="what start and end count in --json: codepoints (Python; the default), utf16 (code units:"
        " JavaScript, Java, .NET) or utf8 (bytes: Bluesky facets, Rust, Go), in the text as read",
    )
    p.add_argument("-j", "--jobs", type=int, default=1, help="processes to use (default: %(default)s)")
    p.add_argument(
        "--block-size",
        type=int,
        default=DEFAULT_BLOCK,
        help="bytes per unit of work, cut at a newline (default: 4 MiB)",
    )
    color_argument(p)
    _detection_options(p, linkify=False)
    _io_options(p)
    p.set_defaults(run=run_detect, prepare=_prepare, parser=p, own_escapes=True)  # (D127, D128: its own mapping)

    p = sub.add_parser(
        "linkify", help="write text files (or standard input) as HTML (a page too), Markdown or terminal hyperlinks"
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files; - (or none): standard input, streamed")
    format_arguments(p)
    html_arguments(p)
    g = p.add_argument_group("the links written")
    g.add_argument(
        "--attr",
        metavar="NAME=VALUE",
        type=_attr,
        action="append",
        default=[],
        help="an attribute of every <a> (repeatable): --attr rel=nofollow --attr class=ext",
    )
    g.add_argument("--class", dest="link_class", metavar="NAME", help="the class of the links: --class ext")
    g.add_argument("--rel", metavar="VALUE", help="the rel of the links: --rel 'nofollow ugc'")
    g.add_argument("--target", metavar="VALUE", help="the target of the links; _blank adds noopener to rel")
    g.add_argument("--rel-target-on", choices=("web", "all"), help="--rel/--target on web links (default), or all")
    g.add_argument(
        "--external-only",
        action="store_true",
        help="--rel and --target only on links to other hosts than the --internal-host ones (not on emails)",
    )
    g.add_argument(
        "--internal-host",
        metavar="HOST",
        action="append",
        default=[],
        help="a host whose links (its subdomains' too) are internal under --external-only (repeatable)",
    )
    g = p.add_argument_group("the text the links show (never their href)")
    g.add_argument(
        "--truncate",
        metavar="N",
        type=_positive,
        help="show at most N characters of each link, an ellipsis included; the host is never cut, and a"
        " truncated link gets a title with its whole form",
    )
    g.add_argument(
        "--truncate-location",
        choices=("end", "middle", "smart"),
        help="where --truncate cuts: end (the default), middle, or smart (query, fragment, then middle segments)",
    )
    g.add_argument("--strip-prefix", action="store_true", help="show links without http(s):// and www.")
    g.add_argument("--strip-trailing-slash", action="store_true", help="show example.com/ as example.com")
    _detection_options(p, linkify=True)
    _io_options(p)
    p.set_defaults(run=_cmd_linkify, prepare=_prepare, parser=p)

    p = sub.add_parser("check", help="tell whether each argument is a link and which §8 checks it fails")
    p.add_argument("items", nargs="+", metavar="URL")
    p.add_argument("--policy", choices=tuple(_POLICIES), default="default", help="§8 checks (default: %(default)s)")
    _file_name_options(p.add_argument_group("what is a link"))
    p.set_defaults(run=_cmd_check, parser=p)

    p = sub.add_parser("format", help="print the minimally escaped form of URLs and email addresses")
    p.add_argument("items", nargs="*", metavar="URL", help="URL (any escaping) or email address")
    p.add_argument(
        "-f", "--file", help="also read one URL or address per line (# starts a comment line; - is standard input)"
    )
    p.add_argument(
        "--maximal",
        action="store_true",
        help="print the fully escaped form instead: ASCII only, the host in A-labels, detected whole as the"
        " minimal form is; an email address gets its domain in A-labels, and one whose local-part is not"
        " ASCII (which has no ASCII form) is refused",
    )
    _io_options(p)
    p.set_defaults(run=run_format)

    p = sub.add_parser("props", help="show Link_Term, Link_Bracket and Link_Email of each character")
    p.add_argument("text", nargs="+", metavar="TEXT")
    p.set_defaults(run=_cmd_props)

    p = sub.add_parser("conformance", help="run the bundled official conformance files")
    p.add_argument("-v", "--verbose", action="store_true", help="also list the documented exceptions")
    p.set_defaults(run=run_conformance)

    p = sub.add_parser("tlds", help="show where the set of top-level domains comes from, its date and size")
    p.add_argument("--list", action="store_true", help="print the TLDs (A-labels), one per line, instead")
    p.add_argument(
        "--file",
        metavar="F",
        help="read this list instead (IANA tlds-alpha-by-domain.txt or a Public Suffix List; - is standard input)",
    )
    p.add_argument(
        "--json", action="store_true", help="print a JSON object: source, date, count (and tlds with --list)"
    )
    p.set_defaults(run=run_tlds)

    p = sub.add_parser("serve", help="the playground page: try detection and formatting in a browser")
    p.add_argument(
        "--host", default=DEFAULT_HOST, help="the interface to listen on (default: %(default)s, this machine only)"
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="the port (default: %(default)s; 0: a free one)")
    p.add_argument("-q", "--quiet", action="store_true", help="do not log each request to standard error")
    p.set_defaults(run=_cmd_serve)
    return parser


def _cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .serve import run_serve  # (http.server is imported for this command only)

    return run_serve(args, out, err)


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stderr is None:  # (closed: >&2-; its messages are lost, the exit status is not)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    command = "uts58"
    try:
        args = build_parser().parse_args(argv)
    except OSError as exc:  # --version or --help with standard output closed (>&-)
        sys.stderr.write(f"uts58: {exc.strerror or exc}\n")
        return 2
    command = f"uts58 {args.command}"
    prepare = getattr(args, "prepare", None)
    destination = getattr(args, "output", None)
    try:
        if prepare is not None:
            prepare(args)  # usage errors (exit 2) before any input is read or output opened
        with output(destination) as (out, atomic):
            # D127: a terminal shows the controls of what a command writes (its
            # input's, a file name's) as pictures; detect and linkify --format
            # osc8|auto write escapes of their own and map the text themselves.
            shown = Shown(out) if is_terminal(out) and not getattr(args, "own_escapes", False) else None
            status: int = args.run(args, out if shown is None else cast(TextIO, shown), sys.stderr)
            if shown is not None:
                shown.finish()
            if status != 0 and atomic:
                raise CLIError(f"not writing {destination}: the command failed")
            out.flush()  # (a broken pipe or a full disk is this command's error, not the interpreter's at exit)
    except CLIError as exc:
        # (a message may name a file, or quote one: D127's mapping, terminal or not)
        sys.stderr.write(f"{command}: {visible(str(exc))}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{command}: interrupted\n")
        return 130
    except Terminated as exc:
        # The temporary file is gone: end as the signal would have (D132).
        signal.signal(exc.signum, signal.SIG_DFL)
        os.kill(os.getpid(), exc.signum)
        return 128 + exc.signum  # (where the signal does not end the process at once)
    except BrokenPipeError:
        # Output piped into e.g. `head`: stop quietly, like other Unix tools,
        # the same on every mode (D132); nothing more goes to the pipe at exit.
        _drop_stdout()
        sys.stderr.close()
        return 1
    except OSError as exc:  # writing the output failed (a full disk, a closed standard output, …)
        message = f"{destination or '<stdout>'}: {exc.strerror or exc}"
        sys.stderr.write(f"{command}: {visible(message)}\n")
        return 2
    return status


def _drop_stdout() -> None:
    """Standard output onto /dev/null: what its buffer holds is never written (the reader is gone)."""
    if sys.stdout is None:
        return
    with suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


if __name__ == "__main__":
    sys.exit(main())
