"""Minimal escaping of URLs for display (UTS #58 §4.1).

* :func:`minimal_escape_parts` is the §4.1 algorithm itself: it takes the
  path, query, fragment and fragment directives with their interior syntax
  already escaped and returns them minimally escaped.
* :func:`format_parts` takes decoded data (path segments, query pairs, …),
  escapes the interior syntax characters of each part, then applies §4.1.

Whole URLs in any escaping state are formatted by
:func:`uts58.formatting.format_url`.
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Sequence
from typing import Any

from ._checks import check_str
from ._kernels import engine, percent_escape
from .properties import DEFAULT_UNICODE_VERSION, link_properties

__all__ = ["format_parts", "minimal_escape_parts", "percent_escape"]

# Whole URLs moved to uts58.formatting (D72): the old names still work here,
# with a DeprecationWarning, until they are removed.
_MOVED = ("format_url", "SPECIAL_SCHEMES")


def __getattr__(name: str) -> Any:
    if name not in _MOVED:
        raise AttributeError(f"module 'uts58.escaping' has no attribute {name!r}")
    warnings.warn(
        f"uts58.escaping.{name} is uts58.formatting.{name}; the old name will be removed",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module("uts58.formatting"), name)


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
    for name, value in (("path", path), ("query", query), ("fragment", fragment)):
        if value is not None:
            check_str(value, name)
    if isinstance(directives, str) or not isinstance(directives, Sequence):
        raise TypeError(f"directives must be a sequence of str, not {type(directives).__name__}")
    for d in directives:
        check_str(d, "directives[]")
    return engine(link_properties(unicode_version)).escape_parts(path, query, fragment, directives)


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
