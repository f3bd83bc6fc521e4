"""markdown-it-py integration: its ``linkify`` option, detected by uts58.

>>> from markdown_it import MarkdownIt
>>> import uts58.markdown_it
>>> md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify").use(uts58.markdown_it.plugin)
>>> md.render("See https://ja.wikipedia.org/wiki/アルベルト)アインシュタイン")
'<p>See <a href="https://ja.wikipedia.org/wiki/%E3%82%A2%E3%83%AB%E3%83%99%E3%83%AB%E3%83%88">https://ja.wikipedia.org/wiki/アルベルト</a>)アインシュタイン</p>\\n'

markdown-it-py calls ``md.linkify.pretest / test / match / match_at_start``
(the interface of linkify-it-py); :class:`Linkify` provides it on top of
:func:`uts58.find_links` and the §8 :class:`~uts58.Policy`.  markdown-it-py
is not a dependency of uts58: install it to use this module.
"""

from __future__ import annotations

from typing import Any

from .detection import Link, find_links
from .hosts import LABEL_SEPARATORS
from .migration import LinkifyItMatch
from .security import Policy, check_link

__all__ = ["Linkify", "plugin", "use"]


class Linkify:
    """The ``md.linkify`` object: uts58 detection behind linkify-it-py's interface."""

    def __init__(self, policy: Policy | None = None, **find_options: Any) -> None:
        self.policy = Policy.default() if policy is None else policy
        self.find_options = find_options

    def _links(self, text: str) -> list[Link]:
        return [
            link
            for link in find_links(text, known_tlds=self.policy.known_tlds, **self.find_options)
            if not check_link(link, self.policy)
        ]

    def pretest(self, text: str) -> bool:
        """Cheap test: could the text hold a link at all?"""
        return any(c in text for c in LABEL_SEPARATORS) or "@" in text

    def test(self, text: str) -> bool:
        return bool(self._links(text))

    def match(self, text: str) -> list[LinkifyItMatch] | None:
        matches = [self._match(link) for link in self._links(text)]
        return matches or None

    def match_at_start(self, text: str) -> LinkifyItMatch | None:
        """A link that starts at offset 0 (markdown-it-py's inline rule).
        Its ``url`` is the link's own text: markdown-it-py advances by its length."""
        for link in self._links(text):
            if link.start == 0 and link.kind == "url" and link.scheme:
                return LinkifyItMatch(link.scheme.lower() + ":", 0, link.end, link.text, link.text, link.text)
            break
        return None

    @staticmethod
    def _match(link: Link) -> LinkifyItMatch:
        if link.kind == "email":
            schema = "mailto:"
        else:
            schema = link.scheme.lower() + ":" if link.scheme else ""
        return LinkifyItMatch(schema, link.start, link.end, link.text, link.text, link.href)


def plugin(md: Any, policy: Policy | None = None, **find_options: Any) -> None:
    """``md.use(uts58.markdown_it.plugin)``: make ``linkify`` use uts58.
    Enable linkify as usual: ``MarkdownIt(..., {"linkify": True}).enable("linkify")``."""
    md.linkify = Linkify(policy, **find_options)


def use(md: Any, policy: Policy | None = None, **find_options: Any) -> Any:
    """Same as :func:`plugin`, returning ``md`` for chaining."""
    plugin(md, policy, **find_options)
    return md
