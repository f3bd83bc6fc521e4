"""What the scanner reads besides its candidates' rules: the candidate
pattern of a finder's options; runs of host characters, cut into clauses at
ideographic full stops between CJK and ASCII labels (D22), refused at once
when their last label is no TLD (D91); the host at the start of the run
after ``://`` (D52); the end of a terminal escape sequence before a name
(D100); where an address starts in unspaced CJK prose (D102); where a
scheme-less host starts at a change between CJK and other characters (§8,
the finder's ``cjk_boundary``); and the character classes the C scan is
given (scheme characters, userinfo ends).
"""

from __future__ import annotations

import importlib
import re
from bisect import bisect_right
from functools import cache, lru_cache

from ..base.regex import char_class
from ..hosts.domains import PATH_START, DomainRules, HostPatterns, host_span
from ..unicode.parts import IDEOGRAPHIC_FULL_STOPS, LABEL_SEPARATORS
from ..unicode.properties import table_module
from .link import Host, HostKind, _host

# What ends userinfo (besides a space and "@"); no host character is one of them.
_USERINFO_ENDS = frozenset("/?#\\[]")
_USERINFO = re.compile("[^\\s@" + re.escape("".join(sorted(_USERINFO_ENDS))) + "]*@")
_SEPARATOR_SPLIT = re.compile("([" + LABEL_SEPARATORS + "])")
_SEPARATOR = re.compile("[" + LABEL_SEPARATORS + "]")
_SCHEME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-."
_SCHEME_CHAR = frozenset(_SCHEME_CHARS)
# A scheme is a word of its own: no letter, digit, '+' or '-' just before it
# ("xhttp://" is not http); a '.' may be ("site.https://…" lacks a space).
_BEFORE_SCHEME = _SCHEME_CHAR - {"."}
_IDEOGRAPHIC_STOPS = LABEL_SEPARATORS.replace(".", "")  # (the label separators beyond ASCII: the C scan's view of them)
# The separators that are dots and no sentence's end ("." and "．").
_DOTS = "".join(c for c in LABEL_SEPARATORS if c not in IDEOGRAPHIC_FULL_STOPS)
_IDEOGRAPHIC_STOP = re.compile("[" + _IDEOGRAPHIC_STOPS + "]")
_CJK_RANGES = (
    *((0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3040, 0x30FF), (0x3100, 0x318F), (0x31A0, 0x31FF)),
    *((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF)),
    *((0xFF66, 0xFFDC), (0x20000, 0x3FFFF)),
)
_CJK = re.compile(char_class(list(_CJK_RANGES)))
_CJK_RUN_END = re.compile(char_class(list(_CJK_RANGES)) + "+(?=[\\x21-\\x7e]+\\Z)")
# What the scanner's steps read (ports, IPv4, Message-ID headers, glued names, D102).
_PORT = re.compile(r":([0-9]{1,5})(?![0-9])")  # D21: 1-5 digits, at most 65535 (_port_end)
_CIDR_SUFFIX = re.compile(r"/[0-9]{1,2}(?![0-9A-Za-z/._~%-])")
_DOTTED_QUAD = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9.])")
_MESSAGE_ID_HEADER = re.compile(r"(?i)(?:message-id|in-reply-to|references|content-id|resent-message-id):[ \t]*\Z")
# D51: characters of paths, file names, identifiers and markup that a
# scheme-less domain may not follow ("debian/rules.mk", "pam_unix.so",
# "Foo::Bar.pm", "WantedBy=multi-user.target", ":meth:`~os.path`").
_GLUED_BEFORE = frozenset("/\\@:=%$&#+~")
# ... nor run on into ("user.name=x"): the name goes on.
_GLUED_AFTER = frozenset("\\=$%")
# D102: ideographic and fullwidth clause and sentence punctuation before a CJK character.
_CJK_CLAUSE_END = re.compile("[\u3001\u3002\uff0c\uff01\uff1f\uff1b\uff1a](?=" + char_class(list(_CJK_RANGES)) + ")")


# The characters the C scan decides with (_kernels.candidate_scan), by the
# names of its classes: the sets above, given as the kernels are given
# their tables, so that C has no character of its own (issue 24).
_SCAN_CLASSES = (
    ("scheme", _SCHEME_CHARS),
    ("before_scheme", "".join(sorted(_BEFORE_SCHEME))),
    ("userinfo_end", "".join(sorted(_USERINFO_ENDS))),
    ("path_start", PATH_START),
    ("ip_open", "["),  # (an IPv6 literal after "://": ip_host)
    ("message_id_close", ">"),  # (D55: _message_id)
    ("at", "@"),
    ("colon", ":"),
    ("slash", "/"),
)
# (and the label separators: the ASCII one splits labels, the others are D22's stops)
assert set(LABEL_SEPARATORS) - set(_IDEOGRAPHIC_STOPS) == {"."} and set(_IDEOGRAPHIC_STOPS) < set(LABEL_SEPARATORS)


def _after_cjk(text: str, start: int, at: int) -> int:
    """D102: where a local-part ``text[start:at]`` that starts with CJK
    characters and ends in ASCII starts when CJK prose is glued before it
    (``メールはtaro`` is ``taro``); ``start`` when it is not that shape
    (``アルベルト`` is one name)."""
    m = _CJK_RUN_END.match(text, start, at)
    return m.end() if m is not None else start


def passed_over(m: re.Match[str]) -> bool:
    """Is this match of the candidate pattern a run with no candidate in it
    (``....``, ``@@@@``, ``x@x@x@``), matched whole only to be passed over in
    one step?  Those matches, and only they, close a group
    (:meth:`~uts58.hosts.domains.HostPatterns.candidate_source`)."""
    return m.lastindex is not None


@lru_cache(maxsize=64)
def _candidate_pattern(
    patterns: HostPatterns, opaque: tuple[str, ...], localhost: bool, single_label: bool
) -> re.Pattern[str]:
    """The candidate pattern of :func:`host_patterns` with what the options
    add: ``scheme:`` of a scheme without ``//``, ``localhost:PORT``, ``://``
    before a host of one label."""
    alternatives = [patterns.candidate_source(patterns.label.pattern if single_label else "")]
    if opaque:
        names = "|".join(re.escape(name) for name in opaque)
        alternatives.append(f"(?<![A-Za-z0-9+\\-])(?i:{names}):(?!//)")
    if localhost:
        alternatives.append("(?i:localhost):(?=[0-9])")
    return re.compile("|".join(alternatives))


def _clauses(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """D22: ``text[s:e]`` cut at each ideographic full stop between a
    label of CJK text and an ASCII label: there it ends a clause, not a
    label (``…されています。info``, ``example.com。我爱你``)."""
    if _IDEOGRAPHIC_STOP.search(text, s, e) is None:
        return [(s, e)]
    pieces = _SEPARATOR_SPLIT.split(text[s:e])
    out: list[tuple[int, int]] = []
    start = k = s
    for j in range(1, len(pieces) - 1, 2):
        k += len(pieces[j - 1])
        before, after = pieces[j - 1], pieces[j + 1]
        if (
            pieces[j] in _IDEOGRAPHIC_STOPS
            and before
            and after
            and ((before.isascii() and _CJK.search(after)) or (after.isascii() and _CJK.search(before)))
        ):
            out.append((start, k))
            start = k + 1
        k += 1
    out.append((start, e))
    return out


def _schemed_host(patterns: HostPatterns, rules: DomainRules, single_label: bool, key: str) -> tuple[int, Host] | None:
    """The host at the start of ``key``: the run of host characters after
    ``://`` (or after a user name) and the one character after it, if any:
    (its end in ``key``, its Host), or None.  A function of ``key`` alone
    (host_span reads no further: the character after the run says whether a
    path, query or port follows, D52), remembered per finder (issue 14)."""
    e = patterns.run_end.match(key).end()  # type: ignore[union-attr]  # (matches "")
    if _IDEOGRAPHIC_STOP.search(key, 0, e) is not None:
        e = _clauses(key, 0, e)[0][1]
    found = host_span(key, 0, e, rules, schemed=True, single_label=single_label)
    if found is None:
        return None
    host_end, ascii_host, unicode_host = found
    return host_end, _host(unicode_host, ascii_host, _schemed_kind(ascii_host))


def _ends_without_tld(name: str, tlds: frozenset[str]) -> bool:
    """D91: the last label of ``name`` (host characters; trailing separators
    ignored) is ASCII and none of ``tlds``: no UTS #46 mapping can make it one."""
    name = name.rstrip(LABEL_SEPARATORS)
    last = name[name.rfind(".") + 1 :]
    return last.isascii() and last.lower() not in tlds


def _rejected_run(text: str, at: int, e: int, lo: int, tlds: frozenset[str] | None) -> bool:
    """The run of host characters that ends at ``e``, with a label separator
    at ``at``, starts no link, as decided before looking back for its start
    (from ``lo``, where the search resumed): it is one supplementary
    character that is no label character, or a local-part (the "@" after it
    decides); or (D91, with ``tlds``: a bare domain ends with one of them) a
    last label of ASCII that is none ("file.c", "1.2.3", "e.g.") ends it and
    no ideographic full stop may cut it into clauses (D22)."""
    if e == at + 1 or (e < len(text) and text[e] == "@"):
        return True
    return tlds is not None and _ends_without_tld(text[at:e], tlds) and _IDEOGRAPHIC_STOP.search(text, lo, e) is None


def _no_bare_domain(name: str, tlds: frozenset[str]) -> bool:
    """D91: ``name``, one clause of a run (D22), holds no domain without a
    scheme: it has one label (bare_ipv4 aside, a bare host has two), or it ends
    without a TLD and holds no ideographic full stop that could cut it."""
    name = name.rstrip(LABEL_SEPARATORS)
    if _SEPARATOR.search(name) is None:
        return True
    return _ends_without_tld(name, tlds) and _IDEOGRAPHIC_STOP.search(name) is None


# D100: an ECMA-48 control sequence (CSI: ESC "[", parameters, intermediates,
# a final byte): terminal colours, "\x1b[0;36m".
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def _csi_before(text: str, i: int) -> int:
    """The end of the last control sequence that starts in the 32
    characters before ``i`` and ends at ``i`` or before it, or 0: a link
    found to start before that end starts there ("\x1b[0;36mhttps://…" at
    "https", not at the final "m")."""
    k = text.rfind("\x1b", max(0, i - 32), i)
    if k < 0:
        return 0
    m = _CSI.match(text, k, i)
    return m.end() if m is not None else 0


def _schemed_kind(ascii_host: str) -> HostKind:
    """The kind of a host :func:`~uts58.hosts.domains.host_span` validated after a
    scheme: it gives ``localhost`` and serialized IPv4 addresses as they
    are, and a domain always ends with a TLD of letters (D52)."""
    if ascii_host == "localhost":
        return "localhost"
    if ascii_host[-1:].isdigit() and all(c in "0123456789." for c in ascii_host):
        return "ipv4"
    return "domain"


# The host of a scheme-less URL's text: up to its path, query, fragment or port.
_HOST_PART = re.compile(r"[^/?#:]*")


@cache
def _wide(version: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ideographic and complex-context ranges (Line_Break ID, CJ, SA) of ``version``."""
    flat = importlib.import_module(f"uts58.tables.security_{table_module(version)}").WIDE
    return flat[0::2], flat[1::2]


def cjk_boundary_start(text: str, start: int, link_text: str, version: str) -> tuple[int, int]:
    """§8: the start of a scheme-less URL at ``start`` moved to the last
    change, inside its host, between an ideographic or complex-context
    character and another (a label separator breaks adjacency); and where
    the host ends."""
    host_end = start + len(_HOST_PART.match(link_text).group())  # type: ignore[union-attr]
    starts, ends = _wide(version)
    moved = start
    wide_before = None
    for i in range(start, host_end):
        ch = text[i]
        if ch in LABEL_SEPARATORS:
            wide_before = None  # characters on both sides of a separator are not adjacent
            continue
        cp = ord(ch)
        k = bisect_right(starts, cp) - 1
        wide = k >= 0 and cp <= ends[k]
        if wide_before is not None and wide != wide_before:
            moved = i
        wide_before = wide
    return moved, host_end


def cjk_boundary_host(
    text: str, start: int, end: int, host: Host, version: str, rules: DomainRules
) -> tuple[int, Host | None]:
    """§8 for the scheme-less URL ``text[start:end]``: where it starts after
    the CJK boundary (:func:`cjk_boundary_start`), and its host from there
    validated with ``rules`` (None: no valid domain is left); its own start
    and ``host`` when nothing moves."""
    new_start, host_end = cjk_boundary_start(text, start, text[start:end], version)
    if new_start == start:
        return start, host
    span = host_span(text, new_start, host_end, rules)
    return new_start, None if span is None else Host(span[2], span[1], "domain")
