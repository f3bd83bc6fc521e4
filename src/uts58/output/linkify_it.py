"""The match type of linkify-it-py, for the adapters that speak its interface
(:mod:`uts58.markdown.markdown_it`, :mod:`uts58.migration`), below both of them (D66).

>>> LinkifyItMatch("", 4, 15, "example.com", "example.com", "http://example.com").last_index
15
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LinkifyItMatch"]


@dataclass(frozen=True)
class LinkifyItMatch:
    """A match with linkify-it-py's field names (what markdown-it-py reads)."""

    schema: str
    index: int
    last_index: int
    raw: str
    text: str
    url: str
