"""Minimal escaping of URLs for display (UTS #58 §4).

* :func:`minimal_escape_parts` is the §4.1 algorithm itself: it takes the
  path, query, fragment and fragment directives with their interior syntax
  already escaped and returns them minimally escaped.
* :func:`format_parts` takes decoded data (path segments, query pairs, …),
  escapes the interior syntax characters of each part, then applies §4.1.
* :func:`format_url` takes a whole http(s) URL in any escaping state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._checks import check_str
from ._compiled import Escaper, engine
from .errors import URLError
from .hosts import domain_to_unicode
from .parts import CLEAR, DIRECTIVE, FRAGMENT, PATH, QUERY, SEQUENCE, TERMINATOR, Part, match_at, part_patterns
from .properties import DEFAULT_UNICODE_VERSION, LinkProperties, LinkTerm, link_properties
from .termination import OPEN_STACK_LIMIT
from .whatwg import ADA, parse_special

__all__ = [
    "SPECIAL_SCHEMES",
    "format_parts",
    "format_url",
    "minimal_escape_parts",
    "percent_escape",
]

# WHATWG special schemes with hosts (file: has none) that format_url accepts.
SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})


def percent_escape(ch: str) -> str:
    """``%XX`` escapes of the UTF-8 bytes of ``ch``.

    A lone surrogate cannot be encoded; like the WHATWG URL parser (which
    works on scalar values) it is written as U+FFFD.

    >>> percent_escape(" "), percent_escape("。")
    ('%20', '%E3%80%82')
    """
    if "\ud800" <= ch <= "\udfff":
        ch = "\ufffd"
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8"))


# --------------------------------------------------------------------------
# §4.1 URL Minimal Escaping Algorithm


def minimal_escape_parts(
    path: str | None = None,
    query: str | None = None,
    fragment: str | None = None,
    directives: Sequence[str] = (),
    *,
    unicode_version: str = DEFAULT_UNICODE_VERSION,
) -> str:
    """Apply UTS #58 §4.1 to the parts of a URL after its host and port.

    Each argument is one part without its initiator (``path`` without the
    leading ``/``), with the interior escaping of §4.1 already done (a
    literal ``/`` in ``path`` separates segments, a literal ``&`` in
    ``query`` separates pairs, …).  ``None`` means the part is absent; an
    empty string is a present, empty part.  Directives imply a fragment.

    >>> minimal_escape_parts(path="wiki/Ракь_(планета)).", query="a=b c")
    '/wiki/Ракь_(планета)%29.?a=b%20c'
    """
    for name, value in (("path", path), ("query", query), ("fragment", fragment)):
        if value is not None:
            check_str(value, name)
    if isinstance(directives, str) or not isinstance(directives, Sequence):
        raise TypeError(f"directives must be a sequence of str, not {type(directives).__name__}")
    for d in directives:
        check_str(d, "directives[]")
    return escaper(link_properties(unicode_version)).escape_parts(path, query, fragment, directives)


def _minimal_escape(
    path: str | None, query: str | None, fragment: str | None, directives: Sequence[str], props: LinkProperties
) -> str:
    if directives and fragment is None:
        fragment = ""
    parts: list[tuple[Part, str]] = [
        (part, value) for part, value in ((PATH, path), (QUERY, query), (FRAGMENT, fragment)) if value is not None
    ]
    parts += [(DIRECTIVE, d) for d in directives]
    out: list[str] = []
    for k, (part, value) in enumerate(parts):
        out.append(part.initiator)
        _escape_part(value, part, k == len(parts) - 1, props, out)
    return "".join(out)


def _escape_part(s: str, part: Part, is_last: bool, props: LinkProperties, out: list[str]) -> None:
    """§4.1 for one part; appends to ``out``.  Only characters that are not
    simple for the part are visited (see :func:`uts58.parts.part_patterns`):
    Include and Soft characters are copied as they are, in slices."""
    copied = 0
    open_stack: list[str] = []
    patterns = part_patterns(props, part)
    syntax = patterns.syntax
    for m in patterns.special.finditer(s):
        i = m.start()
        ch = s[i]
        kind = syntax.get(ch)
        if kind == TERMINATOR or (kind == SEQUENCE and match_at(part.terminators, s, i)):
            lt = LinkTerm.Hard
        else:
            if kind == CLEAR or (kind == SEQUENCE and match_at(part.clear_stack_open, s, i)):
                open_stack.clear()
            lt = props.link_term(ch)
        if lt is LinkTerm.Include or lt is LinkTerm.Soft:
            continue
        if lt is LinkTerm.Open and len(open_stack) < OPEN_STACK_LIMIT:
            open_stack.append(ch)
            continue
        if lt is LinkTerm.Close:
            last_open = open_stack.pop() if open_stack else None
            if props.link_bracket(ch) == last_open:
                continue
        # Hard, an Open beyond the stack limit, or an unmatched Close.
        out.append(s[copied:i])
        out.append(percent_escape(ch))
        copied = i + 1
    n = len(s)
    if is_last and copied < n and props.link_term(s[-1]) is LinkTerm.Soft:
        # The last part ends in Soft: escape its final character so that
        # detection does not stop before it.
        out.append(s[copied : n - 1])
        out.append(percent_escape(s[-1]))
    else:
        out.append(s[copied:])


# --------------------------------------------------------------------------
# Interior escaping of decoded data (the precondition of §4.1)

_PERCENT_BEFORE_HEX = re.compile(r"%(?=[0-9A-Fa-f]{2})")


def _escape_data(s: str, syntax: str) -> str:
    # UTS #58 §4.1: "%" is escaped only where it would read as an escape.
    s = _PERCENT_BEFORE_HEX.sub("%25", s)
    for ch in syntax:
        s = s.replace(ch, percent_escape(ch))
    return s


def format_parts(
    *,
    path_segments: Sequence[str] | None = None,
    query_pairs: Sequence[tuple[str, str | None]] | None = None,
    fragment: str | None = None,
    directives: Sequence[str] = (),
    unicode_version: str = DEFAULT_UNICODE_VERSION,
) -> str:
    """Minimally escaped path, query and fragment built from decoded data.

    Path segments may contain ``/ ? #``, query keys and values ``+ # = &``,
    the fragment ``:~:``: these are escaped as data.  A query pair with value
    ``None`` is written without ``=``.  Directives are given in their own
    syntax (``text=start,end``) and only minimally escaped.

    >>> format_parts(path_segments=["wiki", "AC/DC"], query_pairs=[("q", "a&b"), ("x", None)])
    '/wiki/AC%2FDC?q=a%26b&x'
    """
    path = query = frag = None
    if path_segments is not None:
        path = "/".join(_escape_data(check_str(seg, "path_segments[]"), "/?#") for seg in path_segments)
    if query_pairs is not None:
        items = []
        for key, value in query_pairs:
            item = _escape_data(check_str(key, "query key"), "+#=&")
            if value is not None:
                item += "=" + _escape_data(check_str(value, "query value"), "+#=&")
            items.append(item)
        query = "&".join(items)
    if fragment is not None:
        frag = _PERCENT_BEFORE_HEX.sub("%25", check_str(fragment, "fragment")).replace(":~:", "%3A~:")
    return minimal_escape_parts(path, query, frag, directives, unicode_version=unicode_version)


# --------------------------------------------------------------------------
# Whole URLs

# ASCII characters that the WHATWG URL parser percent-encodes in each part
# (C0 controls, DEL and the part's percent-encode set), minus the part's
# syntax characters.  Decoding exactly these never changes the parsed URL.
_C0_DEL = "".join(map(chr, range(0x20))) + "\x7f"
DECODABLE_ASCII = (  # path, query, fragment
    frozenset(_C0_DEL + ' "<>^`{}'),
    frozenset(_C0_DEL + " \"<>'"),
    frozenset(_C0_DEL + ' "<>`'),
)
_ESCAPE_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(?![0-9])")
# After the slashes that follow the scheme, a "/" or "\\" comes before any
# "?" or "#": the URL has a path of its own.
_HAS_PATH = re.compile(r"[/\\]*(?![/\\])[^/\\?#]*[/\\]")
_STRIP = "".join(map(chr, range(0x21)))
_TAB_NEWLINE = re.compile("[\t\n\r]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_IPV4 = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+\Z")


def _utf8_length(lead: int) -> int:
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _decode(s: str, decodable: frozenset[str]) -> str:
    """Percent-decode valid UTF-8 sequences and the ``decodable`` ASCII
    characters; every other escape (invalid UTF-8, syntax, ``%25``) is kept
    exactly as written."""

    def run(m: re.Match[str]) -> str:
        text = m.group()
        data = bytes.fromhex(text.replace("%", ""))
        if min(data) >= 0x80:
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                pass
        out = []
        k = 0
        while k < len(data):
            b = data[k]
            if b < 0x80:
                ch = chr(b)
                out.append(ch if ch in decodable else text[3 * k : 3 * k + 3])
                k += 1
                continue
            size = _utf8_length(b)
            if size:
                try:
                    out.append(data[k : k + size].decode("utf-8"))
                    k += size
                    continue
                except UnicodeDecodeError:
                    pass
            out.append(text[3 * k : 3 * k + 3])  # legacy byte: stays escaped
            k += 1
        return "".join(out)

    return _ESCAPE_RUN.sub(run, s) if "%" in s else s


# --------------------------------------------------------------------------
# The escaper: §4.1 and the decoding above, compiled or in Python


class PyEscaper:
    """§4.1 and the decoding of :func:`format_url` in Python: the reference
    that ``uts58._speedups.Engine`` is tested against, and the fallback
    where that is not built."""

    __slots__ = ("props",)

    def __init__(self, props: LinkProperties) -> None:
        self.props = props

    def escape_parts(self, path: str | None, query: str | None, fragment: str | None, directives: Sequence[str]) -> str:
        return _minimal_escape(path, query, fragment, directives, self.props)

    def decode(self, s: str, part: int) -> str:
        """Percent-decode ``s`` as part ``part`` (0 path, 1 query, 2 fragment)."""
        return _decode(s, DECODABLE_ASCII[part])

    def display_tail(self, path: str | None, query: str | None, fragment: str | None) -> str:
        """The display form of the path (without its leading ``/``), query
        and fragment of a WHATWG-serialized URL; None means absent."""
        directives: list[str] = []
        if fragment is not None:
            # ":" is never decoded in a fragment, so a literal ":~:" here is syntax.
            fragment, *directives = self.decode(fragment, 2).split(DIRECTIVE.initiator)
        return _minimal_escape(
            None if path is None else self.decode(path, 0),
            None if query is None else self.decode(query, 1),
            fragment,
            directives,
            self.props,
        )


def escaper(props: LinkProperties, compiled: bool = True) -> Escaper:
    """The escaper of one Unicode version: the accelerator's when it is
    built and ``compiled`` is true, else :class:`PyEscaper`."""
    fast = engine(props) if compiled else None
    return fast if fast is not None else PyEscaper(props)


def format_url(url: str, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> str:
    """The minimally escaped display form of an http(s) URL (UTS #58 §4).

    ``url`` may be fully escaped, unescaped or anything between, with or
    without a scheme.  It is parsed with the WHATWG URL parser (ada-url); the
    host is shown in Unicode form (UTS #46 ToUnicode), percent-escapes are
    decoded where that does not change the parsed URL, and §4.1 escapes what
    detection needs escaped.

    >>> format_url("https://en.wikipedia.org/wiki/Anton%C3%ADn_Dvo%C5%99%C3%A1k")
    'https://en.wikipedia.org/wiki/Antonín_Dvořák'
    >>> format_url("xn--bcher-kva.de/b%C3%BCcher.")
    'bücher.de/bücher%2E'

    Raises ValueError when the URL does not parse or has another scheme.
    """
    check_str(url, "url")
    return _format_url(url, link_properties(unicode_version))[1]


def _format_url(url: str, props: LinkProperties, detected: tuple[str, str] | None = None) -> tuple[str, str]:
    """(WHATWG href, minimally escaped display form) of ``url``: one parse for
    both.  ``detected``: ``url`` is the text of a detected link, and this is
    its host's (ASCII, display) forms."""
    if detected is None:
        # WHATWG URL parsing works on scalar values and strips C0 and space
        # at both ends and tabs and newlines anywhere.  (The text of a
        # detected link has none of these: they are all Link_Term=Hard.)
        cleaned = url.strip(_STRIP)
        if not cleaned.isascii() or "\t" in cleaned or "\n" in cleaned or "\r" in cleaned:
            cleaned = _SURROGATE.sub("\ufffd", _TAB_NEWLINE.sub("", cleaned))
        detected = ("", "")
    else:
        cleaned = url
    fast = engine(props)
    if fast is not None and ADA is not None:
        # The whole of what follows in one compiled call; it leaves the
        # errors and the rare cases (False) to the Python code below.
        forms = fast.format_url(ADA, cleaned, *detected)
        if forms is None:
            raise URLError(f"url is not a valid URL: {url!r}")
        if forms is not False:
            return forms
    return _format_cleaned_py(url, cleaned, props, detected)


def _format_cleaned_py(url: str, cleaned: str, props: LinkProperties, detected: tuple[str, str]) -> tuple[str, str]:
    """:func:`_format_url` after the cleaning, in Python (the reference of
    ``uts58._speedups.Engine.format_url``)."""
    m = _SCHEME.match(cleaned)
    if m:
        scheme = m.group(1).lower()
        if scheme not in SPECIAL_SCHEMES:
            raise URLError(f"url has scheme {scheme!r}; format_url handles {', '.join(sorted(SPECIAL_SCHEMES))}")
        to_parse, after_scheme, show_scheme = cleaned, m.end(), True
    else:
        to_parse, after_scheme, show_scheme = "https://" + cleaned, 0, False
    # The WHATWG parser (ada) does all the parsing.
    c = parse_special(to_parse)
    if c is None:
        raise URLError(f"url is not a valid URL: {url!r}")
    if not c.host:
        raise URLError(f"url has no host: {url!r}")

    out = []
    if show_scheme:
        out.append(c.scheme + "://")
    if c.userinfo is not None:
        out.append(c.userinfo + "@")
    host = c.host
    if host == detected[0]:
        out.append(detected[1])
    else:
        out.append(host if host[0] == "[" or _IPV4.match(host) else domain_to_unicode(host))
    if c.port is not None:
        out.append(":" + c.port)

    # WHATWG serializes an absent path of a special URL as "/": keep the
    # input's choice (https://example.com?q, not https://example.com/?q).
    has_path = _HAS_PATH.match(cleaned, after_scheme) is not None

    pathname = c.pathname
    path = pathname[1:] if has_path or pathname != "/" else None
    out.append(escaper(props).display_tail(path, c.query, c.fragment))
    display = "".join(out)
    if not show_scheme and _SCHEME.match(display):
        # Decision D39: userinfo that reads as a scheme ("a:b@host"): show the
        # scheme, so that the display form parses back to this URL.
        display = c.scheme + "://" + display
    return c.href, display
