"""Migration (UTS #58 §10.1): keep another link detector, fix where its links end.

:func:`refine_end` takes the span another library found and returns the end
UTS #58 gives it; :func:`refine_linkify_it` post-processes the matches of
linkify-it-py (the detector behind markdown-it-py's ``linkify``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .base.checks import check_offset, check_str
from .errors import OffsetError
from .output.linkify_it import LinkifyItMatch
from .spec.termination import find_link_end_with
from .unicode.properties import DEFAULT_UNICODE_VERSION, LinkTerm, link_properties

__all__ = ["LinkifyItMatch", "refine_end", "refine_linkify_it"]

_AUTHORITY = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.\-]*://)?[^/?#\s]*")


def refine_end(text: str, start: int, end: int, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> int:
    """The UTS #58 end of a URL that another detector found at ``text[start:end]``.

    §10.1: when the other detector stopped at the end of the text or before
    a Hard character, its end stands.  Otherwise termination (§3.5.1) runs
    again — from the end of the host (D30), which gives the same result as the
    §10.1 wording "from the last initiator" without mistaking a ``/`` inside
    a query for a path.  The result may be before or after ``end``.

    >>> text = "https://ja.wikipedia.org/wiki/アルベルト)アインシュタイン"
    >>> text[:refine_end(text, 0, 30)]
    'https://ja.wikipedia.org/wiki/アルベルト'
    """
    check_str(text, "text")
    check_offset(start, "start", text)
    check_offset(end, "end", text)
    if end < start:
        raise OffsetError(f"end={end} is before start={start}")
    props = link_properties(unicode_version)
    if end == len(text) or props.link_term(text[end]) is LinkTerm.Hard:
        return end
    m = _AUTHORITY.match(text, start, end)
    host_end = m.end() if m is not None else start
    if "@" in text[start:host_end]:
        return end  # an email address: §10.1 is about URLs
    # A port belongs to the authority; termination starts after it.
    return find_link_end_with(text, host_end, props)


def refine_linkify_it(text: str, matches: Iterable[Any] | None) -> list[LinkifyItMatch]:
    """Fix the ends of ``linkify_it.LinkifyIt().match(text)`` per §10.1.

    Email matches are kept as they are; URL matches get :func:`refine_end`,
    and their ``text``/``url`` follow (``http://`` is added to a URL without
    a scheme, as linkify-it-py does).
    """
    check_str(text, "text")
    out = []
    for match in matches or ():
        if match.schema == "mailto:":
            out.append(LinkifyItMatch(match.schema, match.index, match.last_index, match.raw, match.text, match.url))
            continue
        end = refine_end(text, match.index, match.last_index)
        raw = text[match.index : end]
        url = raw if match.schema else "http://" + raw
        out.append(LinkifyItMatch(match.schema, match.index, end, raw, raw, url))
    return out
