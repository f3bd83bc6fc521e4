"""Whole URLs for people: the display form of UTS #58 §4.

:func:`format_url` parses a URL with the WHATWG URL parser
(:mod:`uts58.whatwg`), shows its host in Unicode form and its path, query
and fragment percent-decoded where that keeps the URL, then minimally
escaped (§4.1).  Every decision (which schemes, whether the input had a
path, how the host is shown, D39) is made here, once; the parsing, decoding
and escaping are kernels (D70).
"""

from __future__ import annotations

import re

from ._checks import check_str
from .errors import URLError
from .hosts import domain_to_unicode
from .properties import DEFAULT_UNICODE_VERSION, LinkProperties, link_properties
from .whatwg import displayer

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

    Raises :class:`uts58.URLError` (a ValueError) when the URL does not
    parse or has another scheme.
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
    parsed = displayer(props)(cleaned if after_scheme else "https://" + cleaned, True)
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
    if detected is not None and host == detected[0]:
        host = detected[1]  # the display form detection found already
    elif "xn--" in host:  # (the WHATWG parser lower-cases hosts)
        host = domain_to_unicode(host)  # (an IP address has none: it stays)
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
