"""Text that holds character references, as a reader sees it.

The Markdown adapters link text whose source holds references (``&amp;``,
``&#x2F;``) that the reader sees as one character each: detection must run
on what the reader sees, so that a link never starts or ends inside what is
one word to them, and each link must then be put back into the source.
A :class:`TextView` is that pair: the text as read, and the map from its
offsets to the source's.  :meth:`TextView.anchors` is the anchors of a
:class:`uts58.Linkifier` with their places in the source.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from html import unescape
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..output.anchor import Anchor
    from ..output.linkifier import Linkifier

__all__ = ["SourceAnchor", "TextView"]


class SourceAnchor(NamedTuple):
    """An :class:`~uts58.output.anchor.Anchor` and where it is in the source;
    ``original``: it shows the text that was there (write ``source[start:end]``,
    references as written)."""

    start: int
    end: int
    anchor: Anchor
    original: bool


class TextView:
    """A source made of pieces, each plain text or a reference with the
    characters it stands for.

    >>> view = TextView([("see ", None), ("&#x62;", "b"), (".com ", None), ("&NotEqualTilde;", "\u2242\u0338")])
    >>> view.text, view.to_source(4), view.to_source(5), view.to_source(10), view.to_source(11)
    ('see b.com \u2242\u0338', 4, 10, 15, None)
    """

    __slots__ = ("_all_plain", "_plain", "_source_starts", "_view_starts", "source", "text")

    def __init__(self, pieces: Iterable[tuple[str, str | None]]) -> None:
        view_starts: list[int] = []
        source_starts: list[int] = []
        plain: list[bool] = []
        sources: list[str] = []
        shown: list[str] = []
        v = s = 0
        for source, characters in pieces:
            seen = source if characters is None else characters
            view_starts.append(v)
            source_starts.append(s)
            plain.append(characters is None)
            sources.append(source)
            shown.append(seen)
            v += len(seen)
            s += len(source)
        view_starts.append(v)
        source_starts.append(s)
        plain.append(True)
        self._view_starts = view_starts
        self._source_starts = source_starts
        self._plain = plain
        self._all_plain = all(plain)
        self.source = "".join(sources)
        self.text = "".join(shown)

    def to_source(self, offset: int) -> int | None:
        """The source offset of ``offset`` in :attr:`text`, or None when it
        falls inside a reference."""
        k = bisect_right(self._view_starts, offset) - 1
        if self._plain[k]:
            return self._source_starts[k] + offset - self._view_starts[k]
        return self._source_starts[k] if offset == self._view_starts[k] else None

    def anchors(self, linkifier: Linkifier) -> Iterator[SourceAnchor]:
        """The anchors of :attr:`text`, placed in the source; a link that
        starts or ends inside a reference is left as text."""
        identity = self._all_plain
        keeps = linkifier.keeps_text
        for anchor in linkifier.anchors(self.text):
            original = keeps and anchor.text == anchor.link.text
            if identity:
                yield SourceAnchor(anchor.start, anchor.end, anchor, original)
                continue
            s, e = self.to_source(anchor.start), self.to_source(anchor.end)
            if s is not None and e is not None:
                yield SourceAnchor(s, e, anchor, original)

    @classmethod
    def plain(cls, source: str) -> TextView:
        """A source with no reference."""
        return cls(((source, None),))

    @classmethod
    def decoding(cls, source: str, references: re.Pattern[str]) -> TextView:
        """``source`` with each match of ``references`` that HTML5 decodes
        (:func:`html.unescape`) read as what it stands for; a match it
        leaves as it is stays plain text.

        >>> TextView.decoding("a&amp;b&zz;", re.compile(r"&[a-z]+;")).text
        'a&b&zz;'
        """
        if "&" not in source:
            return cls.plain(source)
        pieces: list[tuple[str, str | None]] = []
        done = 0
        for m in references.finditer(source):
            value = unescape(m.group())
            if value == m.group():
                continue  # not a reference: plain text
            pieces.append((source[done : m.start()], None))
            pieces.append((m.group(), value))
            done = m.end()
        pieces.append((source[done:], None))
        return cls(pieces)
