"""Top-level domains: one source of truth, and a documented way to load a newer list.

:func:`default_source` is the set of TLDs that the installed
``publicsuffixlist`` package knows, from the ICANN section of its copy of the
Public Suffix List (so each of its releases brings the current root zone),
with the IANA root zone snapshot bundled with uts58 as the fallback when that
data cannot be found or read.  :func:`load_tlds` reads a list the caller got
(a file, or the text or bytes of one): IANA's ``tlds-alpha-by-domain.txt`` or
a Public Suffix List ``.dat``, told apart by their comment syntax.

Nothing here fetches anything: to use a list newer than the installed data,
download it with your own code and pass the bytes to :func:`load_tlds`.

>>> source = default_source()
>>> "com" in source.tlds and "xn--p1ai" in source.tlds
True
>>> sorted(load_tlds("# Version 1\\nCOM\\nXN--P1AI\\n"))
['com', 'xn--p1ai']
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from ..base.checks import check_str
from ..errors import TLDListError

__all__ = ["TldSource", "default_source", "load_source", "load_tlds"]

BUNDLED = "IANA root zone snapshot (bundled)"
CALLER = "caller"
PSL_ICANN_BEGIN = "===BEGIN ICANN DOMAINS==="
PSL_ICANN_END = "===END ICANN DOMAINS==="

_LDH = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")  # letters, digits, hyphens (RFC 1123)
_NUMBER = re.compile(r"[0-9]+|0x[0-9a-f]*")  # a last label that WHATWG reads as IPv4
# The two formats are read a whole text at a time: a Python loop over the
# 7,000 rules of the PSL's ICANN section would take most of the time.  The
# text is normalized to "\n" line ends and given a leading "\n", so that every
# line starts after a "\n" (a literal the regex engine finds fast); _SP is
# white space but a line end.  Every pattern is linear: no part can match
# the same characters in two ways.
_SP = r"[^\S\n]*"
_PSL_COMMENT = re.compile(rf"\n{_SP}//")
_PSL_RULE = re.compile(rf"\n{_SP}(?=\S)(?!//)(\S+)")  # a rule is read up to its first white space
_PSL_VERSION = re.compile(rf"\n{_SP}//{_SP}VERSION:([^\n]*)")
_IANA_LINE = re.compile(rf"\n{_SP}(?=\S)(?!#)([^\n]*)")  # the whole line is the TLD
_IANA_VERSION = re.compile(rf"\n{_SP}#{_SP}(Version\b[^\n]*)")
_MAX_LABEL = 63  # octets of an A-label (RFC 1035)
_MAX_INPUT_LABEL = 4 * 253  # longer than any label could be once mapped (see hosts.DomainRules.check)


@dataclass(frozen=True)
class TldSource:
    """A set of top-level domains and where it came from.

    ``tlds`` holds lowercase A-labels (``xn--p1ai``, not ``рф``); ``source``
    says where they were read (a package and section, a file path,
    ``"caller"``, or the bundled snapshot with the reason it was used);
    ``date`` is the list's own version line, when it has one.

    >>> s = TldSource(frozenset({"com", "org"}), "caller", None)
    >>> s
    TldSource(source='caller', date=None, tlds=<2 TLDs>)
    >>> "org" in s.tlds
    True
    """

    tlds: frozenset[str]
    source: str
    date: str | None

    def __repr__(self) -> str:
        return f"TldSource(source={self.source!r}, date={self.date!r}, tlds=<{len(self.tlds)} TLDs>)"


# --------------------------------------------------------------------------
# Parsing


def _tld_label(raw: str) -> str | None:
    """The lowercase A-label of one TLD (``".COM"``, ``"рф"``, ``"XN--P1AI"``), or None when it is not one.

    The same A-label as :func:`uts58.hosts.domains.domain_to_ascii` (UTS #46 through
    ada), without loading the URL parser for the usual all-letter label.
    """
    name = raw.lstrip(".")
    if not name or len(name) > _MAX_INPUT_LABEL:
        return None  # checked before IDNA: a hostile line costs nothing
    if name.isascii() and name.isalpha() and len(name) <= _MAX_LABEL:
        return name.lower()  # nothing for IDNA to map or check
    from .whatwg import idna_to_ascii, idna_to_unicode

    a = idna_to_ascii(name)
    # What the WHATWG host parser would refuse or read as an IPv4 number,
    # a label with "_" or the like, and a separator inside are all refused here.
    if len(a) > _MAX_LABEL or not _LDH.fullmatch(a) or _NUMBER.fullmatch(a):
        return None
    if a.startswith("xn--"):
        # The URL parser lets undecodable "xn--" labels through: the label must decode and encode back.
        u = idna_to_unicode(a)
        if not u or u == a or idna_to_ascii(u) != a:
            return None
    return a


def _normalized(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "\n" + text


def _last_label(rule: str) -> str:
    """The TLD of a PSL rule: ``*.ck`` and ``!www.ck`` give ``ck``."""
    return rule.rpartition(".")[2].removeprefix("!")


def _is_psl(text: str) -> bool:
    """Whether a normalized text has a ``//`` comment line."""
    return _PSL_COMMENT.search(text) is not None


def _icann_section(text: str) -> tuple[int, int]:
    """(start, end) of the ICANN section of a normalized PSL text, or ValueError."""
    found: list[tuple[int, int, str]] = []  # (line start, line end, marker)
    for marker in (PSL_ICANN_BEGIN, PSL_ICANN_END):
        at = text.find(marker)
        while at >= 0:
            line_start = text.rfind("\n", 0, at) + 1
            line_end = text.find("\n", at)
            line_end = len(text) if line_end < 0 else line_end
            if text[line_start:at].lstrip().startswith("//"):
                found.append((line_start, line_end, marker))
            at = text.find(marker, line_end)  # the next line: each line is looked at once
    found.sort()
    if [marker for _, _, marker in found] != [PSL_ICANN_BEGIN, PSL_ICANN_END]:
        raise TLDListError(
            f"a Public Suffix List needs one '{PSL_ICANN_BEGIN}' line and one '{PSL_ICANN_END}' after it"
        )
    return found[0][1], found[1][0] - 1  # from the "\n" that ends the BEGIN line to the one before END


def _parse(text: str, *, require_icann: bool = False) -> tuple[frozenset[str], str | None]:
    """(TLDs, date) of the text of an IANA list or a Public Suffix List
    (``require_icann``: only a PSL with an ICANN section)."""
    text = _normalized(text)
    psl = _is_psl(text)
    if require_icann and not psl:
        raise TLDListError("not a Public Suffix List")
    start, end = 0, len(text)
    if psl:
        if require_icann or PSL_ICANN_BEGIN in text or PSL_ICANN_END in text:
            start, end = _icann_section(text)
        version = _PSL_VERSION.search(text, 0, start or end)  # in the header
        pattern = _PSL_RULE
    else:
        version = _IANA_VERSION.search(text)
        pattern = _IANA_LINE
    # Each distinct line is read once (the PSL names most TLDs many times).
    written = {item: _last_label(item) if psl else item.strip() for item in set(pattern.findall(text, start, end))}
    tlds = {label: _tld_label(label) for label in set(written.values())}
    if None in tlds.values():
        for m in pattern.finditer(text, start, end):  # name the first line that failed
            if tlds[written[m.group(1)]] is None:
                line = m.group(1).strip()
                number = text.count("\n", 0, m.start() + 1)
                shown = line if len(line) <= 80 else line[:77] + "..."
                raise TLDListError(f"line {number}: {shown!r} is not a top-level domain label")
    if not tlds:
        raise TLDListError("the list holds no top-level domain")
    date = (version.group(1).strip() or None) if version else None
    return frozenset(t for t in tlds.values() if t is not None), date


def _text(source: object, name: str) -> tuple[str, str]:
    """(text, name) of a path (named by itself), text, bytes or iterable of lines (named ``name``)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _decode(bytes(source), name), name
    if isinstance(source, str) and ("\n" in source or "\r" in source or source == ""):
        return source, name
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        with open(path, "rb") as f:
            data = f.read()
        return _decode(data, path), path
    if isinstance(source, Iterable):
        lines = []
        for line in source:
            if not isinstance(line, str):
                raise TypeError(f"source must hold str lines, not {type(line).__name__}")
            lines.append(line.removesuffix("\n").removesuffix("\r"))
        return "\n".join(lines), name
    raise TypeError(f"source must be a path, str, bytes or an iterable of str, not {type(source).__name__}")


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TLDListError(f"{name}: invalid UTF-8 at byte offset {exc.start}") from None


# --------------------------------------------------------------------------
# Public API


def load_source(source: str | os.PathLike[str] | bytes | bytearray | Iterable[str], *, name: str = CALLER) -> TldSource:
    """:func:`load_tlds`, with where the list came from and its date.

    ``source`` is named by its path when it is a file, else by ``name``
    (in the result's ``source`` and in error messages).

    >>> load_source(b"// VERSION: 2026-01-01\\n// ===BEGIN ICANN DOMAINS===\\n*.ck\\n!www.ck\\n"
    ...             b"\\xd1\\x80\\xd1\\x84\\n// ===END ICANN DOMAINS===\\n")
    TldSource(source='caller', date='2026-01-01', tlds=<2 TLDs>)
    """
    name = check_str(name, "name")
    text, name = _text(source, name)
    try:
        tlds, date = _parse(text)
    except ValueError as exc:
        raise TLDListError(f"{name}: {exc}") from None
    return TldSource(tlds, name, date)


def load_tlds(source: str | os.PathLike[str] | bytes | bytearray | Iterable[str]) -> frozenset[str]:
    """The TLDs of a list: lowercase A-labels, as ``known_tlds`` takes them.

    ``source`` is a path (a ``str`` without a line break, or a path-like), the
    text or the UTF-8 bytes of a list, or its lines (an open text file, or the
    TLDs themselves).  Two formats, told apart by their comments:

    * IANA's ``tlds-alpha-by-domain.txt``: ``#`` comment lines, one TLD per
      line (any case, ``XN--`` or Unicode, an optional leading dot);
    * a Public Suffix List (``//`` comment lines): the last label of each
      rule (``*.ck`` and ``!www.ck`` give ``ck``, ``рф`` gives ``xn--p1ai``),
      only from the ICANN section when the list marks one.

    Raises TypeError for a wrong type, OSError for a file that cannot be read,
    and TLDListError (a ValueError) naming the line that is not a TLD label, for bytes that are
    not UTF-8, or for a list without a TLD.

    >>> sorted(load_tlds(["com", ".Org", "рф"]))
    ['com', 'org', 'xn--p1ai']
    >>> load_tlds("com\\nexample.com\\n")
    Traceback (most recent call last):
      ...
    uts58.errors.TLDListError: caller: line 2: 'example.com' is not a top-level domain label
    """
    return load_source(source).tlds


def _bundled(reason: str | None) -> TldSource:
    from ..tables import tlds as table

    date: str = table.VERSION
    return TldSource(frozenset(table.TLDS), BUNDLED if reason is None else f"{BUNDLED}; {reason}", date)


@cache
def default_source() -> TldSource:
    """The TLDs of the installed ``publicsuffixlist`` data (ICANN section), or
    of the bundled IANA snapshot when that data cannot be found or read
    (``source`` then says why).  Read once; a newer ``publicsuffixlist``
    release brings newer TLDs.

    >>> s = default_source()
    >>> s.source.startswith(("publicsuffixlist ", "IANA root zone snapshot")), len(s.tlds) > 1000
    (True, True)
    """
    try:
        import publicsuffixlist
    except ImportError:
        return _bundled("publicsuffixlist is not installed")
    path = getattr(publicsuffixlist, "PSLFILE", None) or os.path.join(
        os.path.dirname(publicsuffixlist.__file__ or ""), "public_suffix_list.dat"
    )
    try:
        with open(path, "rb") as f:
            text = _decode(f.read(), path)
    except OSError as exc:
        return _bundled(f"publicsuffixlist data unusable: {path}: {exc.strerror or exc}")
    except ValueError as exc:
        return _bundled(f"publicsuffixlist data unusable: {exc}")
    try:
        tlds, date = _parse(text, require_icann=True)
    except ValueError as exc:
        return _bundled(f"publicsuffixlist data unusable: {path}: {exc}")
    version = getattr(publicsuffixlist, "__version__", None)
    return TldSource(tlds, f"publicsuffixlist {version or '(unknown version)'}, ICANN section", date)
