"""``uts58 format``: the minimally escaped form of URLs and email addresses,
or with ``--maximal`` their ASCII form (D122)."""

from __future__ import annotations

import argparse
from typing import TextIO

from ..errors import AddressError
from ..hosts.domains import domain_to_ascii
from ..spec.email import format_email
from ..spec.escaping import Escape
from ..spec.formatting import format_url
from .io import read_text

__all__ = ["ascii_email", "is_email", "run_format"]

_MAILTO = "mailto:"


def is_email(arg: str) -> bool:
    """An argument without a scheme whose authority holds an '@'."""
    if arg[: len(_MAILTO)].lower() == _MAILTO:
        return True
    return "://" not in arg and "@" in arg.split("/", 1)[0]


def ascii_email(address: str, unicode_version: str) -> str:
    """The ASCII form of an email address (``--maximal``, D122): as
    :func:`uts58.format_email` writes it (a ``mailto:`` kept, the local-part
    bare or quoted), with the domain in A-labels.  An address cannot be
    percent-escaped, so one whose local-part is not ASCII has no ASCII form:
    an AddressError says so.

    >>> ascii_email("mailto:Info@Bücher.de", "18.0.0")
    'mailto:Info@xn--bcher-kva.de'
    """
    formatted = format_email(address, unicode_version=unicode_version)
    prefix = formatted[: len(_MAILTO)] if formatted[: len(_MAILTO)].lower() == _MAILTO else ""
    local, _, domain = formatted[len(prefix) :].rpartition("@")
    if not local.isascii():
        raise AddressError(
            f"{address!r} has no ASCII form: its local-part {local} is not ASCII,"
            " and an email address cannot be percent-escaped"
        )
    if not domain.startswith("["):  # (an address literal is ASCII)
        domain = domain_to_ascii(domain, unicode_version=unicode_version) or domain  # (format_email checked it)
    return prefix + local + "@" + domain


def run_format(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    items = list(args.items)
    if args.file is not None:
        lines = read_text(args.file, args.errors).splitlines()
        items += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if not items:
        err.write("uts58 format: give URLs as arguments or with --file\n")
        return 2
    version = args.unicode_version
    escape: Escape = "maximal" if args.maximal else "minimal"
    status = 0
    for arg in items:
        try:
            if not is_email(arg):
                out.write(format_url(arg, unicode_version=version, escape=escape) + "\n")
            elif args.maximal:
                out.write(ascii_email(arg, version) + "\n")
            else:
                out.write(format_email(arg, unicode_version=version) + "\n")
        except ValueError as exc:
            err.write(f"uts58 format: {exc}\n")
            status = 1
    return status
