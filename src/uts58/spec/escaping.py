"""Minimal escaping of URLs for display (UTS #58 §4.1), and the fully escaped form.

* :func:`minimal_escape_parts` is the §4.1 algorithm itself: it takes the
  path, query, fragment and fragment directives with their interior syntax
  already escaped and returns them minimally escaped.
* :func:`maximal_escape_parts` takes the same parts and returns them fully
  escaped, ASCII only (the first line of each pair of
  LinkFormattingTest.txt): §4.1, then every non-ASCII code point and every
  character the WHATWG URL parser percent-encodes in that part.
* :func:`format_parts` takes decoded data (path segments, query pairs, …),
  escapes the interior syntax characters of each part, then applies §4.1
  (or, with ``escape="maximal"``, :func:`maximal_escape_parts`).

Whole URLs in any escaping state are formatted by
:func:`uts58.spec.formatting.format_url`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from ..base.checks import check_str
from ..errors import OptionError
from ..kernels import engine, percent_escape
from ..unicode.parts import FRAGMENT, PATH, QUERY, Part
from ..unicode.properties import DEFAULT_UNICODE_VERSION, link_properties

__all__ = ["format_parts", "maximal_escape_parts", "minimal_escape_parts", "percent_escape"]

# The ``escape`` argument of format_parts and format_url: §4.1's minimal
# form, or the fully escaped form (D122).
Escape = Literal["minimal", "maximal"]

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
    empty string is a present, empty part (D5).  Directives imply a fragment.

    >>> minimal_escape_parts(path="wiki/Ракь_(планета)).", query="a=b c")
    '/wiki/Ракь_(планета)%29.?a=b%20c'
    """
    _check_parts(path, query, fragment, directives)
    return engine(link_properties(unicode_version)).escape_parts(path, query, fragment, directives)


def _check_parts(path: object, query: object, fragment: object, directives: object) -> None:
    for name, value in (("path", path), ("query", query), ("fragment", fragment)):
        if value is not None:
            check_str(value, name)
    if isinstance(directives, str) or not isinstance(directives, Sequence):
        raise TypeError(f"directives must be a sequence of str, not {type(directives).__name__}")
    for d in directives:
        check_str(d, "directives[]")


# --------------------------------------------------------------------------
# The fully escaped form (escape="maximal")
#
# LinkFormattingTest.txt's first line of each pair "percent-escapes all code
# points based on https://url.spec.whatwg.org/#percent-encoded-bytes [...]
# all literal syntax characters in each Part and all code points above
# ASCII. It also percent-escapes the last character, if it is
# Link_Term=Soft."  uts58 writes it as §4.1's output with, in addition,
# every character escaped that the WHATWG parser would percent-encode
# anyway (non-ASCII, C0, space, DEL and the part's percent-encode set, which
# is Part.decodable): so the fully escaped form parses to the same href as
# the minimal one, and keeps every escape §4.1 makes for detection (the final
# Soft, an unmatched Close), so that it is detected whole wherever the
# minimal form is (D122).  The sets are the WHATWG ones, checked against
# ada-url (tests/unit/test_formatting.py): with them a literal "#" is never data
# in a path or query, and "~" is kept (the reference implementation's sets
# differ in these two).  In Python, over the §4.1 kernel's output: one
# str.translate per part, linear, not a hot loop.


class _Escapes(dict[int, str]):
    """A :meth:`str.translate` table of one part: each ASCII character to
    itself or its escape; a non-ASCII character's escape (UTF-8, a lone
    surrogate as U+FFFD, D9) is added the first time it is met, so the
    translation runs in C with one Python call per distinct character."""

    __slots__ = ()

    def __missing__(self, cp: int) -> str:
        self[cp] = escaped = percent_escape(chr(cp))
        return escaped


def _ascii_table(part: Part) -> dict[int, str]:
    return {cp: percent_escape(chr(cp)) if chr(cp) in part.decodable else chr(cp) for cp in range(0x80)}


_TABLES = {part: _ascii_table(part) for part in (PATH, QUERY, FRAGMENT)}


def _full_escape(s: str, part: Part) -> str:
    # (a table per call: what it learns is bounded by the string's length)
    return s.translate(_Escapes(_TABLES[part])) if s else s


def full_escape_tail(tail: str) -> str:
    """The fully escaped form of ``tail``, a path, query and fragment as §4.1
    writes them (its output, or :func:`uts58.spec.formatting.format_url`'s
    minimal form after the host).  In §4.1's output a literal ``?`` or ``#``
    is an initiator (inside a part it is a terminator, escaped as Hard),
    except ``?`` in a fragment: the first ``#`` starts the fragment (and its
    directives), the first ``?`` before it the query.  Linear in ``tail``.

    >>> full_escape_tail("/wiki/Ракь_(планета)%29?q='a b'#x y")
    '/wiki/%D0%A0%D0%B0%D0%BA%D1%8C_(%D0%BF%D0%BB%D0%B0%D0%BD%D0%B5%D1%82%D0%B0)%29?q=%27a%20b%27#x%20y'
    """
    hash_ = tail.find("#")
    rest, fragment = (tail, "") if hash_ < 0 else (tail[:hash_], tail[hash_:])
    question = rest.find("?")
    path, query = (rest, "") if question < 0 else (rest[:question], rest[question:])
    return _full_escape(path, PATH) + _full_escape(query, QUERY) + _full_escape(fragment, FRAGMENT)


def maximal_escape_parts(
    path: str | None = None,
    query: str | None = None,
    fragment: str | None = None,
    directives: Sequence[str] = (),
    *,
    unicode_version: str = DEFAULT_UNICODE_VERSION,
) -> str:
    """The fully escaped form of the parts of a URL after its host and port:
    ASCII only, and detected whole wherever :func:`minimal_escape_parts`'s
    result is.

    The arguments are those of :func:`minimal_escape_parts` (interior syntax
    already escaped).  The result is §4.1's, with every non-ASCII code point
    and every ASCII character that the WHATWG URL parser percent-encodes in
    the part (C0 controls, space, DEL; path ``" < > ^ ` { }``, query
    ``" ' < >``, fragment ``" < > ```) percent-escaped as UTF-8.  It is
    the form of the source (first) line of each pair of
    LinkFormattingTest.txt, except that §4.1's escape of an unmatched Close
    is kept, where the file leaves it literal and detection stops (D122).

    >>> maximal_escape_parts(path="wiki/Ракь_(планета)).", query="a=b c")
    '/wiki/%D0%A0%D0%B0%D0%BA%D1%8C_(%D0%BF%D0%BB%D0%B0%D0%BD%D0%B5%D1%82%D0%B0)%29.?a=b%20c'
    >>> maximal_escape_parts(path="αβγ/δ.εζ.")
    '/%CE%B1%CE%B2%CE%B3/%CE%B4.%CE%B5%CE%B6%2E'
    """
    _check_parts(path, query, fragment, directives)
    return full_escape_tail(engine(link_properties(unicode_version)).escape_parts(path, query, fragment, directives))


def check_escape(escape: object) -> Escape:
    """``escape`` if it is ``"minimal"`` or ``"maximal"``: a TypeError for a
    non-str, an OptionError (naming ``escape``) for another str."""
    check_str(escape, "escape")
    if escape == "minimal":
        return "minimal"
    if escape == "maximal":
        return "maximal"
    raise OptionError(f"escape must be 'minimal' or 'maximal', not {escape!r}", option="escape")


# --------------------------------------------------------------------------
# Interior escaping of decoded data (the precondition of §4.1)

# The characters escaped as data in a query value.  D120: the test data
# escapes "=" there too; ICU asks that it not (only a key's "=" separates).
# Should the data change, this is the one line: "+#&".
QUERY_VALUE_SYNTAX = "+#=&"

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
    escape: Escape = "minimal",
) -> str:
    """Minimally (or fully) escaped path, query and fragment built from decoded data.

    Path segments may contain ``/ ? #``, query keys and values ``+ # = &``,
    the fragment ``:~:``: these are escaped as data.  A query pair with value
    ``None`` is written without ``=``.  Directives are given in their own
    syntax (``text=start,end``) and only minimally escaped.  With
    ``escape="maximal"`` the result is fully escaped
    (:func:`maximal_escape_parts`): ASCII only.

    >>> format_parts(path_segments=["wiki", "AC/DC"], query_pairs=[("q", "a&b"), ("x", None)])
    '/wiki/AC%2FDC?q=a%26b&x'
    >>> format_parts(path_segments=["wiki", "Café/Bar."], escape="maximal")
    '/wiki/Caf%C3%A9%2FBar%2E'
    """
    maximal = check_escape(escape) == "maximal"
    path = query = frag = None
    if path_segments is not None:
        path = "/".join(_escape_data(check_str(seg, "path_segments[]"), "/?#") for seg in path_segments)
    if query_pairs is not None:
        items = []
        for key, value in query_pairs:
            item = _escape_data(check_str(key, "query key"), "+#=&")
            if value is not None:
                item += "=" + _escape_data(check_str(value, "query value"), QUERY_VALUE_SYNTAX)
            items.append(item)
        query = "&".join(items)
    if fragment is not None:
        frag = _PERCENT_BEFORE_HEX.sub("%25", check_str(fragment, "fragment")).replace(":~:", "%3A~:")
    if maximal:
        return maximal_escape_parts(path, query, frag, directives, unicode_version=unicode_version)
    return minimal_escape_parts(path, query, frag, directives, unicode_version=unicode_version)
