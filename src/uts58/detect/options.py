"""The options of a :class:`~uts58.detect.finder.Finder` (UTS #58 §3 leaves
them to the implementation): their names, defaults, types for type
checkers, the named presets (D97), and the checks of the values that are
sets (schemes, file extensions).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from ..base.checks import check_str
from ..errors import OptionError
from ..hosts.domains import FILE_EXTENSION_TLDS
from ..spec.formatting import SPECIAL_SCHEMES
from ..unicode.properties import DEFAULT_UNICODE_VERSION
from .evidence import CODE_TLDS

DEFAULT_SCHEMES = frozenset({"http", "https", "ftp"})
# Schemes that run code or read local files: never linked, whatever the caller asks.
FORBIDDEN_SCHEMES = frozenset({"javascript", "data", "vbscript", "file"})
_SCHEME_SYNTAX = re.compile(r"[a-z][a-z0-9+.\-]*")  # RFC 3986 §3.1


class DetectionOptions(TypedDict, total=False):
    """The detection options that every entry point takes as keyword
    arguments, for type checkers (a misspelt option is an error)."""

    schemes: Iterable[str]
    require_scheme: bool
    known_tlds: Iterable[str] | None
    bare_ipv4: bool
    bare_localhost: bool
    single_label_hosts: bool
    unicode_version: str


class LinkifyOptions(DetectionOptions, total=False):
    """The detection options :func:`uts58.linkify` and the adapters take as
    keyword arguments: those of :class:`Finder` but ``urls`` and ``emails``
    (which ``kinds`` says), and ``preset`` (:meth:`Finder.preset`)."""

    file_extensions: Iterable[str] | None
    file_names: bool
    bare_domains: bool
    cjk_prose: bool
    cjk_boundary: bool
    preset: str


class FinderOptions(LinkifyOptions, total=False):
    """The keyword arguments of :func:`find_links` (and of :class:`Finder`),
    for type checkers: a misspelt option is an error (``requires_scheme=``)."""

    urls: bool
    emails: bool


OPTION_NAMES = (
    "urls",
    "emails",
    "schemes",
    "require_scheme",
    "known_tlds",
    "bare_ipv4",
    "bare_localhost",
    "single_label_hosts",
    "file_extensions",
    "unicode_version",
    "file_names",
    "bare_domains",
    "cjk_prose",
    "cjk_boundary",
)
_FLAGS = (
    "urls",
    "emails",
    "require_scheme",
    "bare_ipv4",
    "bare_localhost",
    "single_label_hosts",
    "file_names",
    "bare_domains",
    "cjk_prose",
    "cjk_boundary",
)
# Named option sets (D97): Finder.preset(name).
PRESETS: dict[str, dict[str, Any]] = {
    # Technical text (change logs, code review, manuals): every TLD that is
    # also a common file extension needs a scheme, "www." or a path (D56).
    "technical": {"file_extensions": FILE_EXTENSION_TLDS},
    # GitHub-flavoured Markdown's autolinks: URLs with a scheme, names
    # starting "www.", and email addresses; no other bare domain.
    "gfm": {"bare_domains": False},
    # Everything UTS #58 and the TLD set accept: no file-name judgement.
    "all": {"file_extensions": (), "file_names": False},
}
_DEFAULTS: dict[str, object] = {
    "urls": True,
    "emails": True,
    "schemes": DEFAULT_SCHEMES,
    "require_scheme": False,
    "known_tlds": None,
    "bare_ipv4": False,
    "bare_localhost": False,
    "single_label_hosts": False,
    "file_extensions": CODE_TLDS,
    "unicode_version": DEFAULT_UNICODE_VERSION,
    "file_names": True,
    "bare_domains": True,
    "cjk_prose": False,
    "cjk_boundary": False,
}


def scheme_set(schemes: object) -> frozenset[str]:
    """``schemes`` checked (TypeError; OptionError for a scheme that is not a
    scheme or is never linked), lower case, without ``mailto``."""
    if isinstance(schemes, str) or not isinstance(schemes, Iterable):
        raise TypeError(f"schemes must be an iterable of str, not {type(schemes).__name__}")
    wanted = frozenset(check_str(s, "schemes[]").lower().removesuffix(":") for s in schemes)
    bad = sorted(s for s in wanted if not _SCHEME_SYNTAX.fullmatch(s))
    if bad:
        raise OptionError(
            f"schemes: {bad} are not URL schemes (a letter, then letters, digits, '+', '-' or '.')", option="schemes"
        )
    if wanted & FORBIDDEN_SCHEMES:
        raise OptionError(
            f"schemes: {sorted(wanted & FORBIDDEN_SCHEMES)} are never linked (they run code or read local files)",
            option="schemes",
        )
    return wanted - {"mailto"}  # mailto: goes with email addresses, always


def _check_names(options: Mapping[str, object], caller: str) -> None:
    for name in options:
        if name not in _DEFAULTS:
            raise TypeError(f"{caller}() got an unexpected keyword argument {name!r}")


_PREFILTER = re.compile("[.@\u3002\uff0e\uff61]|://")
_PREFILTER_COLON = re.compile("[.@:\u3002\uff0e\uff61]")


def prefilter(schemes: Iterable[str], bare_localhost: bool = False) -> re.Pattern[str]:
    """A pattern that finds something in every text that may hold a link
    under these options (for adapters that skip text cheaply): a label
    separator, ``@`` or ``://`` (``http://localhost/``), and any ``:`` when
    a scheme without ``//`` or ``localhost:PORT`` may be linked
    (``tel:123`` has none of the others)."""
    if bare_localhost or any(s.lower() not in SPECIAL_SCHEMES for s in schemes):
        return _PREFILTER_COLON
    return _PREFILTER


def file_extension_set(names: object) -> frozenset[str]:
    """``file_extensions`` checked and normalized (lower case, no dot)."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise TypeError(f"file_extensions must be an iterable of str, not {type(names).__name__}")
    return frozenset(check_str(name, "file_extensions[]").lower().lstrip(".") for name in names)
