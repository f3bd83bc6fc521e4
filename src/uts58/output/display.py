"""Shortening the text a link shows (D79-D81): truncation with an ellipsis
and prefix stripping, for ``linkify(..., display=...)``.

Only the shown text changes, never the href.  The host is never cut, nor is
anything before it (a cut ``paypal.com…`` could be ``paypal.com.evil.example``);
cuts fall only on extended grapheme-cluster boundaries of the link's Unicode
version (:mod:`uts58.unicode.graphemes`) and never inside a ``%XX`` escape.  Email
addresses are shown whole.

>>> from uts58 import find_links
>>> link = next(find_links("https://www.example.com/docs/2024/guide/install.html?lang=en"))
>>> shorten(link, {"max_length": 32, "location": "smart", "strip_scheme": True, "strip_www": True}).text
'example.com/docs/…/install.html'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple, TypedDict, get_args

from ..detect.link import Link
from ..errors import OptionError
from ..unicode.graphemes import boundary_at_or_after, boundary_at_or_before, is_boundary

__all__ = ["DisplayOptions", "Location", "Shown", "check_display", "shorten", "shorten_checked"]

Location = Literal["end", "middle", "smart"]
_LOCATIONS: tuple[str, ...] = get_args(Location)
_HEX = frozenset("0123456789abcdefABCDEF")
_DELIMITERS = frozenset("/?&#=")  # D81: smart cuts fall before one of these


class DisplayOptions(TypedDict, total=False):
    """The ``display=`` options of linkify (every key optional)."""

    max_length: int | None  # the most code points shown, ellipsis included (>= 1; None: no truncation)
    location: Location  # where the ellipsis goes (default "end")
    strip_scheme: bool  # drop a leading "https://" or "http://"
    strip_www: bool  # drop "www." where the host begins, when two or more labels follow
    strip_trailing_slash: bool  # drop the "/" of a path that is "/" alone
    ellipsis: str  # default "…" (U+2026), counted in max_length


class Shown(NamedTuple):
    """What an ``<a>`` shows: ``text``, and ``title`` (the link's full
    display form) when the text was truncated, else None."""

    text: str
    title: str | None


_BOOLS = ("strip_scheme", "strip_www", "strip_trailing_slash")


def check_display(options: object) -> DisplayOptions:
    """The ``display`` options, checked: a mapping of the keys of
    :class:`DisplayOptions`.  A wrong type raises TypeError naming
    ``display``, a bad key or value OptionError naming it.

    >>> check_display({"max_length": 30, "location": "middle"})
    {'max_length': 30, 'location': 'middle'}
    """
    if not isinstance(options, Mapping):
        raise TypeError(f"display must be a mapping of display options, not {type(options).__name__}")
    checked: DisplayOptions = {}
    for key, value in options.items():
        if key == "max_length":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"display['max_length'] must be int or None, not {type(value).__name__}")
            if value is not None and value < 1:
                raise OptionError(f"display['max_length'] must be at least 1, not {value}")
            checked["max_length"] = value
        elif key == "location":
            if value not in _LOCATIONS:
                raise OptionError(
                    f"display['location'] must be one of {', '.join(map(repr, _LOCATIONS))}, not {value!r}"
                )
            checked["location"] = value
        elif key in _BOOLS:
            if not isinstance(value, bool):
                raise TypeError(f"display[{key!r}] must be bool, not {type(value).__name__}")
            checked[key] = value  # type: ignore[literal-required]
        elif key == "ellipsis":
            if not isinstance(value, str):
                raise TypeError(f"display['ellipsis'] must be str, not {type(value).__name__}")
            if not value:
                raise OptionError("display['ellipsis'] must not be empty (a shortened text must say so)")
            checked["ellipsis"] = value
        else:
            known = ", ".join(map(repr, ("max_length", "location", *_BOOLS, "ellipsis")))
            raise OptionError(f"display has no option {key!r} (known: {known})")
    return checked


class _Form(NamedTuple):
    """The shown form before truncation and where its parts begin."""

    text: str
    keep: int  # everything before it (scheme, userinfo, host) stays whole
    path: int
    query: int
    fragment: int


def _form(link: Link, options: DisplayOptions) -> _Form:
    """Find the parts of ``link.display`` and apply the strip options (D80)."""
    d = link.display
    n = len(d)
    se = 0
    scheme = link.scheme
    if scheme is not None and d[: len(scheme) + 1].lower() == scheme.lower() + ":":
        se = len(scheme) + 1
    opaque = se > 0 and not d.startswith("//", se)
    auth = se if opaque else (se + 2 if se else 0)
    auth_end = auth
    while auth_end < n and d[auth_end] not in "/?#":
        auth_end += 1
    if opaque or not link.host:
        host_start = host_end = auth_end = auth
    else:
        host_start = d.rfind("@", auth, auth_end) + 1 or auth
        if d.startswith("[", host_start):
            close = d.find("]", host_start, auth_end)
            host_end = auth_end if close < 0 else close + 1
        else:
            colon = d.find(":", host_start, auth_end)
            host_end = auth_end if colon < 0 else colon
    # D80: the host is never cut, nor the userinfo before it or the port after it.
    keep = auth_end if host_end > host_start else se
    fragment = d.find("#", auth_end)
    fragment = n if fragment < 0 else fragment
    query = d.find("?", auth_end, fragment)
    query = fragment if query < 0 else query

    no_userinfo = host_start == auth and not opaque and bool(link.host)
    # D80: "https://user@host" without its scheme would read as an email address: kept.
    drop = 0
    if options.get("strip_scheme") and no_userinfo and d[:se].lower() in ("http:", "https:") and auth == se + 2:
        drop = auth
    www = 0
    if (
        options.get("strip_www")
        and no_userinfo
        and link.host.kind == "domain"
        and d[host_start : host_start + 4].lower() == "www."
    ):
        rest = d[host_start + 4 : host_end]
        if "." in rest.rstrip("."):  # two labels or more follow: never "www.com" -> "com"
            www = 4
    end = n - 1 if options.get("strip_trailing_slash") and auth_end == n - 1 and d[auth_end] == "/" else n
    if not (drop or www or end < n):
        return _Form(d, keep, auth_end, query, fragment)
    text = d[drop:host_start] + d[host_start + www : end]

    def moved(p: int) -> int:
        return min(p - drop - (www if p >= host_start + www else 0), len(text))

    return _Form(text, moved(keep), moved(auth_end), moved(query), moved(fragment))


def _legal(text: str, p: int, version: str) -> bool:
    """A grapheme boundary of Unicode ``version``, not inside a %XX escape (D79)."""
    # (is_boundary looks at text[p-1] and text[p] only, unless they leave the
    # answer open: a regional indicator after one, an emoji after a ZWJ, a
    # consonant after a virama; then it reads back over that run alone.  A
    # walk to the next boundary here made "smart" quadratic on runs without
    # one, "=\u200d"*n.)
    return is_boundary(text, p, unicode_version=version) and not _escape_at(text, p - 1) and not _escape_at(text, p - 2)


def _escape_at(text: str, k: int) -> bool:
    """Whether a %XX escape begins at ``text[k]``."""
    return 0 <= k and k + 2 < len(text) and text[k] == "%" and text[k + 1] in _HEX and text[k + 2] in _HEX


def _floor(text: str, p: int, lo: int, version: str) -> int | None:
    """The last legal cut in [lo, p], or None."""
    while p >= lo:
        p = boundary_at_or_before(text, p, unicode_version=version)
        if p < lo:
            return None
        if _legal(text, p, version):
            return p
        p -= 1
    return None


def _ceil(text: str, p: int, version: str) -> int:
    """The first legal cut at or after p (len(text) at worst)."""
    n = len(text)
    while p < n:
        p = boundary_at_or_after(text, p, unicode_version=version)
        if p >= n or _legal(text, p, version):
            return p
        p += 1
    return n


def _head(text: str, budget: int, keep: int, version: str) -> int:
    """The end of the longest head of at most ``budget`` characters that keeps ``text[:keep]``."""
    cut = _floor(text, budget, keep, version) if budget >= keep else None
    return cut if cut is not None else _ceil(text, keep, version)


def _delimiter_cut(text: str, hi: int, lo: int, version: str) -> int | None:
    """The last legal cut in [lo, hi] just before a delimiter (D81)."""
    p = min(hi, len(text) - 1)
    while p >= lo:
        if text[p] in _DELIMITERS and _legal(text, p, version):
            return p
        p -= 1
    return None


def _smart(form: _Form, budget: int, ellipsis: str, version: str) -> str:
    text, n = form.text, len(form.text)
    # D81: drop the fragment, then the query, each cut before a delimiter.
    for start in (form.fragment, form.query):
        if start < n and start <= budget:
            cut = _delimiter_cut(text, budget, start, version)
            if cut is not None:
                return text[:cut] + ellipsis
    # Then the middle segments of the path: keep the first and the last.
    stop = form.query
    last = text.rfind("/", form.path, stop - 1 if stop - 1 > form.path and text[stop - 1] == "/" else stop)
    first_end = text.find("/", form.path + 1, stop)
    # (the query and fragment go too: their start must be a legal cut as well)
    whole_path = stop >= n or _legal(text, stop, version)
    if text.startswith("/", form.path) and 0 <= first_end < last and whole_path and _legal(text, last, version):
        tail = text[last:stop]
        # "first/…/last": the head ends after a "/", as many segments as fit.
        p = min(budget - len(tail) - 1, last - 2)
        while p >= first_end:
            if text[p] == "/" and _legal(text, p + 1, version):
                return text[: p + 1] + ellipsis + tail
            p -= 1
    return text[: _head(text, budget, form.keep, version)] + ellipsis


def shorten(link: Link, options: DisplayOptions) -> Shown:
    """The text an ``<a>`` for ``link`` shows under the display ``options``
    (see :class:`DisplayOptions`), and the title that holds the full form
    when that text was truncated.  The href is not touched; an email
    address is shown whole (D80).

    >>> from uts58 import find_links
    >>> link = next(find_links("https://example.com/a/very/long/path/index.html"))
    >>> shorten(link, {"max_length": 25})
    Shown(text='https://example.com/a/ve…', title='https://example.com/a/very/long/path/index.html')
    >>> shorten(link, {"max_length": 25, "location": "middle"}).text
    'https://example.com….html'
    """
    if not isinstance(link, Link):
        raise TypeError(f"link must be a uts58 Link, not {type(link).__name__}")
    return shorten_checked(link, check_display(options))


def shorten_checked(link: Link, options: DisplayOptions) -> Shown:
    """:func:`shorten` with ``options`` that :func:`check_display` made
    (linkify checks them once per call, not once per link)."""
    if link.kind == "email":
        return Shown(link.display, None)  # D80: a cut address is another address
    limit = options.get("max_length")
    if (limit is None or len(link.display) <= limit) and not any(options.get(name) for name in _BOOLS):
        return Shown(link.display, None)  # (short enough, nothing to strip: the common case)
    form = _form(link, options)
    text, n = form.text, len(form.text)
    if limit is None or n <= limit:
        return Shown(text, None)
    ellipsis = options.get("ellipsis", "\u2026")
    budget = max(limit - len(ellipsis), 0)
    location = options.get("location", "end")
    version = link.unicode_version  # D121: the exact boundaries of the link's Unicode version
    if location == "smart":
        shown = _smart(form, budget, ellipsis, version)
    elif location == "middle":
        head = _head(text, (budget + 1) // 2, form.keep, version)
        rest = budget - head
        tail = _ceil(text, n - rest, version) if rest > 0 else n
        shown = text[:head] + ellipsis + text[tail:]
    else:
        shown = text[: _head(text, budget, form.keep, version)] + ellipsis
    # D79: a "shortened" text that is not shorter is no help: the whole form then.
    if len(shown) >= n:
        return Shown(text, None)
    return Shown(shown, link.display)
