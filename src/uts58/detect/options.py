"""The options of a :class:`~uts58.detect.finder.Finder` (UTS #58 §3 leaves
them to the implementation): their names, defaults, types for type
checkers, the named presets (D97), and the checks of the values that are
sets (schemes, file extensions).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypedDict

from ..base.checks import check_str
from ..base.options import Option, Options, check_bool
from ..errors import OptionError
from ..hosts.domains import FILE_EXTENSION_TLDS, normalize_tlds
from ..spec.formatting import SPECIAL_SCHEMES
from ..unicode.parts import LABEL_SEPARATORS
from ..unicode.properties import DEFAULT_UNICODE_VERSION, link_properties
from .evidence import CODE_TLDS

DEFAULT_SCHEMES = frozenset({"http", "https", "ftp"})
# Schemes that run code or read local files: never linked, whatever the caller asks.
FORBIDDEN_SCHEMES = frozenset({"javascript", "data", "vbscript", "file"})
_SCHEME_SYNTAX = re.compile(r"[a-z][a-z0-9+.\-]*")  # RFC 3986 §3.1


class DetectionOptions(TypedDict, total=False):
    """The detection keywords of :func:`uts58.linkify` and the adapters, for
    type checkers (a misspelt option is an error): the options of
    :class:`Finder` but ``urls`` and ``emails`` (which ``kinds`` says), and
    ``preset`` (:meth:`Finder.preset`).  ``tests/meta/test_options.py``
    checks it against :data:`FINDER_OPTIONS`."""

    schemes: Iterable[str]
    require_scheme: bool
    known_tlds: Iterable[str] | None
    bare_ipv4: bool
    bare_localhost: bool
    single_label_hosts: bool
    file_extensions: Iterable[str] | None
    unicode_version: str
    file_names: bool
    bare_domains: bool
    cjk_prose: bool
    cjk_boundary: bool
    preset: str


class FinderOptions(DetectionOptions, total=False):
    """The keyword arguments of :func:`find_links` (and of :class:`Finder`),
    for type checkers: a misspelt option is an error (``requires_scheme=``)."""

    urls: bool
    emails: bool


def _tld_set(tlds: object) -> frozenset[str] | None:
    return None if tlds is None else normalize_tlds(tlds)  # type: ignore[arg-type]


def _version(version: object) -> str:
    return link_properties(version).version  # type: ignore[arg-type]


def _extensions(names: object) -> frozenset[str]:
    return CODE_TLDS if names is None else file_extension_set(names)


# Each option of a Finder, once (D136): its default, its check, its flag.
FINDER_OPTIONS = Options(
    "Finder",
    (
        Option("urls", True, check_bool("urls"), None, "report URLs"),
        Option("emails", True, check_bool("emails"), None, "report email addresses"),
        Option(
            "schemes",
            DEFAULT_SCHEMES,
            lambda schemes: scheme_set(schemes),
            "--schemes",
            "the schemes recognized when written",
        ),
        Option(
            "require_scheme",
            False,
            check_bool("require_scheme"),
            "--require-scheme",
            "URLs only when written with a scheme",
        ),
        Option("known_tlds", None, _tld_set, "--tlds", "the TLDs accepted without a scheme (None: the bundled set)"),
        Option(
            "bare_ipv4",
            False,
            check_bool("bare_ipv4"),
            "--bare-ipv4",
            "IPv4 addresses without a scheme, when a port or path follows",
        ),
        Option(
            "bare_localhost", False, check_bool("bare_localhost"), "--bare-localhost", "localhost:PORT without a scheme"
        ),
        Option(
            "single_label_hosts",
            False,
            check_bool("single_label_hosts"),
            "--single-label-hosts",
            "one-label hosts after a scheme (http://intranet/)",
        ),
        Option(
            "file_extensions",
            None,
            _extensions,
            "--file-extensions",
            "TLDs whose bare names are files (None: CODE_TLDS)",
        ),
        Option("unicode_version", DEFAULT_UNICODE_VERSION, _version, "--unicode-version", "of the property data"),
        Option("file_names", True, check_bool("file_names"), None, "judge bare names by what the text shows (D97)"),
        Option("bare_domains", True, check_bool("bare_domains"), None, "link domains without a scheme or www."),
        Option(
            "cjk_prose",
            False,
            check_bool("cjk_prose"),
            "--cjk-prose",
            "Chinese or Japanese without spaces around links: end a URL's path at ideographic punctuation"
            " before CJK text, start an address after the CJK text glued to it",
        ),
        Option(
            "cjk_boundary",
            False,
            check_bool("cjk_boundary"),
            None,
            "start a bare domain at the last change between CJK and other letters (D107)",
        ),
    ),
)
# The Finder's switches that a flag turns on (the command line's, the playground's fields).
SWITCHES = tuple(option.name for option in FINDER_OPTIONS if option.flag is not None and option.default is False)
# Named option sets (D97): Finder.preset(name).
PRESETS: dict[str, dict[str, Any]] = {
    # Technical text (change logs, code review, manuals): every TLD that is
    # also a common file extension needs a scheme, "www." or a path (D97).
    "technical": {"file_extensions": FILE_EXTENSION_TLDS},
    # GitHub-flavoured Markdown's autolinks: URLs with a scheme, names
    # starting "www.", and email addresses; no other bare domain.
    "gfm": {"bare_domains": False},
    # Everything UTS #58 and the TLD set accept: no file-name judgement.
    "all": {"file_extensions": (), "file_names": False},
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


_PREFILTER = re.compile("[@" + LABEL_SEPARATORS + "]|://")
_PREFILTER_COLON = re.compile("[@:" + LABEL_SEPARATORS + "]")


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
