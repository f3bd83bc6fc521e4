"""Where a URL ends in plain text (UTS #58 §3.5.1, Termination Algorithm)."""

from __future__ import annotations

from ..base.checks import check_offset, check_str
from ..kernels import engine
from ..unicode.parts import OPEN_STACK_LIMIT
from ..unicode.properties import DEFAULT_UNICODE_VERSION, LinkProperties, link_properties

__all__ = ["OPEN_STACK_LIMIT", "find_link_end"]


def find_link_end(text: str, start: int, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> int:
    """Return the end offset of the link whose host (and port) end at ``start``.

    ``start`` is the offset just after the host and optional port, where a
    path, query or fragment may begin.  The result is ``>= start``.

    >>> text = "See example.com/αβγ/δεζ?δ. εφ"
    >>> text[:find_link_end(text, 15)]
    'See example.com/αβγ/δεζ?δ'
    """
    check_str(text, "text")
    check_offset(start, "start", text)
    return find_link_end_with(text, start, link_properties(unicode_version))


def find_link_end_with(text: str, start: int, props: LinkProperties, in_path: bool = False) -> int:
    """§3.5.1 without argument checks, by the kernels in use (C or Python).
    ``in_path``: ``start`` is inside a path, as after its initiator (the body
    of an opaque URL such as ``tel:…``, D53), not at the end of a host."""
    return engine(props).find_link_end(text, start, in_path)
