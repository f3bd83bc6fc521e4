"""``uts58 conformance``, ``uts58 tlds`` and ``uts58 --version``: what uts58 knows and passes."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, TextIO

from .. import __version__
from ..conformance import TEST_VERSIONS, run_detection_file, run_formatting_file
from ..hosts.tlds import TldSource, default_source, load_source
from ..unicode.properties import DEFAULT_UNICODE_VERSION, available_versions
from .io import STDIN, CLIError, json_line, standard_output, stdin

__all__ = ["Version", "run_conformance", "run_tlds", "version_report"]


def run_conformance(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


def run_tlds(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    source: TldSource
    if args.file is None:
        source = default_source()
    else:
        try:
            if args.file == STDIN:
                source = load_source(stdin().read(), name="<stdin>")
            else:
                source = load_source(args.file)
        except OSError as exc:
            raise CLIError(f"{args.file}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise CLIError(str(exc)) from None
    tlds = sorted(source.tlds)
    if args.json:
        record: dict[str, Any] = {"source": source.source, "date": source.date, "count": len(tlds)}
        if args.list:
            record["tlds"] = tlds
        out.write(json_line(record))
    elif args.list:
        out.writelines(tld + "\n" for tld in tlds)
    else:
        out.write(f"source: {source.source}\ndate: {source.date or 'unknown'}\ncount: {len(tlds)}\n")
    return 0


def version_report() -> str:
    """What ``uts58 --version`` prints: the version, whether the C kernels and
    ada's C API are in use (and why not), whether the decision path runs
    compiled (issue 38), and the versions of the data."""
    from .. import kernels as _kernels
    from ..base.compiled import COMPILED, compiled, interpreted_because
    from ..hosts import whatwg

    done = len(compiled())
    why = interpreted_because()
    path = f"interpreted: {why}" if why else f"compiled by mypyc ({done} of {len(COMPILED)} modules)"
    return (
        f"uts58 {__version__}\n"
        f"accelerator: {_kernels.status()}\n"
        f"decision path: {path}\n"
        f"ada C API: {whatwg.ada_status()}\n"
        f"ada-url: {whatwg.ada_version()}\n"
        f"Unicode data: {', '.join(available_versions())} (default {DEFAULT_UNICODE_VERSION})\n"
    )


class Version(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        standard_output().write(version_report())
        parser.exit()
