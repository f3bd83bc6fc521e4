"""Whole URLs for people: the display form of UTS #58 §4.

:func:`format_url` parses a URL with the WHATWG URL parser
(:mod:`uts58.hosts.whatwg`), shows its host in Unicode form and its path, query
and fragment percent-decoded where that keeps the URL, then minimally
escaped (§4.1).  Every decision (which schemes, whether the input had a
path, how the host is shown, D39) is made here, once; the parsing, decoding
and escaping are kernels (D70).  ``escape="maximal"`` gives the fully
escaped form of the same URL instead: ASCII only, the host in A-labels.
"""

from __future__ import annotations

import re

from ..base.checks import check_str
from ..errors import URLError
from ..hosts.domains import domain_to_ascii, domain_to_unicode
from ..hosts.whatwg import displayer
from ..unicode.parts import LABEL_SEPARATORS
from ..unicode.properties import DEFAULT_UNICODE_VERSION, LinkProperties, link_properties
from .escaping import Escape, check_escape, full_escape_tail

__all__ = ["SPECIAL_SCHEMES", "format_url"]

# WHATWG special schemes with hosts (file: has none) that format_url accepts.
SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})

# As the WHATWG parser reads a scheme; ":" then a digit is a port ("example.com:80").
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(?![0-9])")
# After the slashes that follow the scheme, a "/" or "\\" comes before any
# "?" or "#": the URL has a path of its own.
_HAS_PATH = re.compile(r"[/\\]*(?![/\\])[^/\\?#]*[/\\]")
_STRIP = "".join(map(chr, range(0x21)))
_TAB_NEWLINE = re.compile("[\t\n\r]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def format_url(url: str, *, unicode_version: str = DEFAULT_UNICODE_VERSION, escape: Escape = "minimal") -> str:
    """The minimally escaped display form of an http(s) URL (UTS #58 §4),
    or with ``escape="maximal"`` its fully escaped, ASCII-only form.

    ``url`` may be fully escaped, unescaped or anything between, with or
    without a scheme.  It is parsed with the WHATWG URL parser (ada-url); the
    host is shown in Unicode form (UTS #46 ToUnicode), percent-escapes are
    decoded where that does not change the parsed URL, and §4.1 escapes what
    detection needs escaped.

    >>> format_url("https://en.wikipedia.org/wiki/Anton%C3%ADn_Dvo%C5%99%C3%A1k")
    'https://en.wikipedia.org/wiki/Antonín_Dvořák'
    >>> format_url("xn--bcher-kva.de/b%C3%BCcher.")
    'bücher.de/bücher%2E'

    ``escape="maximal"``: the same URL for places that take ASCII only
    (logs, SMS, plain-text mail): the host in A-labels (UTS #46 ToASCII, as
    the parser serializes it), every non-ASCII code point of the path, query
    and fragment and every character the parser percent-encodes there
    escaped, and §4.1's escapes kept (the final Soft character, an
    unmatched Close), so that it is detected whole wherever the minimal form
    is, and parses to the same href.  It is the form of the source (first)
    line of each pair of LinkFormattingTest.txt, except that an unmatched
    Close stays escaped where the file leaves it literal (D122).

    >>> format_url("bücher.de/bücher.", escape="maximal")
    'xn--bcher-kva.de/b%C3%BCcher%2E'
    >>> format_url("https://例え.みんな/パス?q=«a b»#frag)", escape="maximal")
    'https://xn--r8jz45g.xn--q9jyb4c/%E3%83%91%E3%82%B9?q=%C2%ABa%20b%C2%BB#frag%29'

    Raises :class:`uts58.URLError` (a ValueError) when the URL does not
    parse or has another scheme; :class:`uts58.OptionError` for another
    ``escape``.
    """
    check_str(url, "url")
    maximal = check_escape(escape) == "maximal"
    return format_url_with(url, link_properties(unicode_version), maximal=maximal)[1]


def format_url_with(
    url: str, props: LinkProperties, detected: tuple[str, str] | None = None, *, maximal: bool = False
) -> tuple[str, str]:
    """(WHATWG href, minimally escaped display form) of ``url``: one parse for
    both.  ``detected``: ``url`` is the text of a detected link, and this is
    its host's (ASCII, display) forms.  ``maximal``: the fully escaped form
    instead of the display form (D122)."""
    if detected is None:
        # WHATWG URL parsing works on scalar values and strips C0 and space
        # at both ends and tabs and newlines anywhere.  (The text of a
        # detected link has none of these: they are all Link_Term=Hard.)
        cleaned = url.strip(_STRIP)
        if not cleaned.isascii() or "\t" in cleaned or "\n" in cleaned or "\r" in cleaned:
            cleaned = _SURROGATE.sub("\ufffd", _TAB_NEWLINE.sub("", cleaned))
    else:
        cleaned = url
    # The scheme as written, if any: where it ends (after its ":"), or 0.
    if cleaned.startswith("https://"):
        after_scheme = 6
    elif cleaned.startswith("http://"):
        after_scheme = 5
    else:
        m = _SCHEME.match(cleaned)
        after_scheme = 0 if m is None else m.end()
        if m is not None and m.group(1).lower() not in SPECIAL_SCHEMES:
            scheme = m.group(1).lower()
            raise URLError(f"url has scheme {scheme!r}; format_url handles {', '.join(sorted(SPECIAL_SCHEMES))}")
    full = cleaned if after_scheme else "https://" + cleaned
    parsed = displayer(props)(full, True)
    if parsed is None and (bridged := _bridged_host(full, props.version)) is not None:
        parsed = displayer(props)(bridged, True)
    if parsed is None:
        raise URLError(f"url is not a valid URL: {url!r}")
    href, scheme, userinfo, host, port, tail = parsed
    if not host:
        raise URLError(f"url has no host: {url!r}")
    if tail[:1] == "/" and tail[1:2] in ("", "?", "#") and not _HAS_PATH.match(cleaned, after_scheme):
        # D8: WHATWG serializes an absent path of a special URL as "/": keep
        # the input's choice (https://example.com?q, not https://example.com/?q).
        # (§4.1 escapes each part on its own: dropping the empty path changes
        # nothing else.)
        tail = tail[1:]
    if maximal:
        # D122: the host as the parser serializes it (A-labels, ASCII), the
        # rest §4.1's output with what the parser would encode escaped.
        tail = full_escape_tail(tail)
    elif detected is not None and host == detected[0]:
        host = detected[1]  # the display form detection found already
    elif "xn--" in host:  # (the WHATWG parser lower-cases hosts)
        host = domain_to_unicode(host, unicode_version=props.version)  # (an IP address has none: it stays)
    if userinfo is not None:
        host = userinfo + "@" + host
    if port is not None:
        host += ":" + port
    if after_scheme:
        return href, scheme + "://" + host + tail
    display = host + tail
    if userinfo is not None and _SCHEME.match(display):
        # D39: userinfo that reads as a scheme ("a:b@host"): show the scheme,
        # so that the display form parses back to this URL.  (Without
        # userinfo the display form starts with a host, never a scheme.)
        display = scheme + "://" + display
    return href, display


# The host as written in a URL with a scheme: after the "//" and any userinfo.
_WRITTEN_HOST = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[/\\]*(?:[^@/\\?#]*@)?([^:/\\?#@]+)")


def _bridged_host(url: str, version: str) -> str | None:
    """``url`` with its host in A-label form, when the host has characters
    newer than the URL parser's IDNA data that ``version`` has (D118); else None."""
    m = _WRITTEN_HOST.match(url)
    if m is None:
        return None
    written = m.group(1)
    name = written.rstrip(LABEL_SEPARATORS)  # (a final separator stays, as ".")
    ascii_name = domain_to_ascii(name, unicode_version=version) if name else None
    if ascii_name is None:
        return None
    host = ascii_name + ("." if name != written else "")
    return None if host == written else url[: m.start(1)] + host + url[m.end(1) :]
