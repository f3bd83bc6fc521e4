"""Python-Markdown extension: links in the text of the rendered Markdown, found by uts58.

>>> import markdown
>>> markdown.markdown("See bücher.de, `code.com` and [this](https://a.com).", extensions=["uts58.python_markdown"])
'<p>See <a href="https://xn--bcher-kva.de/">bücher.de</a>, <code>code.com</code> and <a href="https://a.com">this</a>.</p>'

With options: ``markdown.markdown(text, extensions=[LinkifyExtension(attrs={"rel": "nofollow"})])``
or ``extension_configs={"uts58.python_markdown": {...}}``.  It replaces
mdx_linkify (bleach's linkify run over the HTML).

A tree processor (D48), run after Python-Markdown's own (inline patterns,
unescaping), walks the element tree once in document order and links the
``text`` and ``tail`` strings with :func:`uts58.linkify`'s semantics: the
§8 :class:`~uts58.Policy`, ``attrs``, ``callback``, ``kinds``, ``schemes``,
``require_scheme``.  It skips what must not hold links: ``a`` (links and
autolinks), ``code`` and ``pre`` (code spans and blocks) and the other
elements of :data:`uts58._rawhtml.SKIPPED` and :data:`~uts58._rawhtml.RAW_TEXT`,
code text (``AtomicString``), and the raw HTML that Python-Markdown keeps
aside (its "stash"): the raw HTML itself is never touched, and the text after
it is linked only where a browser would read it as text outside any skipped
element (:class:`uts58._rawhtml.RawHtml`).  An entity (``&amp;``) is read as
the character it stands for, so a link never starts or ends inside what the
reader sees as one word.

A link's text is the text that was there (``link_text="display"``: the §4
display form), unless a callback changes it.  As :func:`uts58.linkify`, the
``rel``, ``target``, ``external_only`` and ``internal_hosts`` presets set
attributes (D82, D83) and ``display=`` shortens what a link shows (the
shortened display form replaces the text that was there, a truncated link
gets a ``title``; the href never changes: D79-D81, D90).
"""

from __future__ import annotations

import html
import re
import sys
import xml.etree.ElementTree as etree
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE, AtomicString

from ._rawhtml import RAW_TEXT, SKIPPED, RawHtml
from .detection import Finder, Link
from .display import DisplayOptions
from .linkifier import Callback, LinkAttributes, LinkifyOptions, adapter_settings, apply_callback, shown
from .options import prefilter
from .security import Policy, admitted

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["LinkifyExtension", "LinkifyTreeprocessor", "makeExtension"]

SKIPPED_TAGS = SKIPPED | RAW_TEXT | {"kbd", "samp"}
# What Python-Markdown stashes for an entity of the Markdown source.
_ENTITY = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z0-9]+);\Z")
_MARKERS = str.maketrans({"\x02": "\ufffd", "\x03": "\ufffd"})  # Python-Markdown's placeholder delimiters


def _tree_value(value: str) -> str:
    """A string for the tree that the serializer writes back exactly.

    Python-Markdown's serializer leaves an ``&`` that starts something like
    an entity as it is (the tree holds HTML there); every ``&`` written as
    ``&amp;`` makes the output read back as ``value``.  STX and ETX would
    read as placeholders."""
    return value.replace("&", "&amp;").translate(_MARKERS)


class LinkifyTreeprocessor(Treeprocessor):  # type: ignore[misc]  # (markdown is untyped for mypy here)
    """Links the text of the tree (see the module's documentation)."""

    def __init__(
        self,
        md: Markdown,
        *,
        policy: Policy,
        attributes: LinkAttributes,
        callback: Callback | None,
        kinds: frozenset[str],
        finder: Finder,
        link_text: str,
        shortening: DisplayOptions | None = None,
    ) -> None:
        super().__init__(md)
        self.link_text = link_text
        self.policy = policy
        self.attributes = attributes
        self.shortening = shortening
        self.callback = callback
        self.kinds = kinds
        self.finder = finder
        self.schemes = finder.schemes
        self.may_link = prefilter(finder.schemes, finder.bare_localhost)
        self._raw = RawHtml()
        self._stash: list[Any] = []

    def run(self, root: etree.Element) -> None:
        self._raw = RawHtml()
        self._stash = self.md.htmlStash.rawHtmlBlocks
        # Document order, with an explicit stack (trees nest deeper than
        # Python recursion): an element's text, its children one by one,
        # each followed by its tail.  New children go into `new` lists that
        # replace the old ones when an element is done.
        root_skip = self._skipped(root)
        stack: list[tuple[etree.Element, bool, list[etree.Element], list[etree.Element]]] = []
        new: list[etree.Element] = []
        root.text = self._text(root.text, not root_skip, new)
        stack.append((root, root_skip, list(root), new))
        positions = [0]
        while stack:
            element, skip, children, new = stack[-1]
            k = positions[-1]
            if k == len(children):
                stack.pop()
                positions.pop()
                if len(new) != len(children):
                    element[:] = new
                if stack:
                    parent_skip, parent_new = stack[-1][1], stack[-1][3]
                    element.tail = self._text(element.tail, not parent_skip, parent_new)
                continue
            positions[-1] = k + 1
            child = children[k]
            new.append(child)
            child_skip = skip or self._skipped(child)
            child_new: list[etree.Element] = []
            child.text = self._text(child.text, not child_skip, child_new)
            stack.append((child, child_skip, list(child), child_new))
            positions.append(0)

    @staticmethod
    def _skipped(element: etree.Element) -> bool:
        tag = element.tag
        return not isinstance(tag, str) or tag.lower() in SKIPPED_TAGS

    def _text(self, text: str | None, linkable: bool, out: list[etree.Element]) -> str | None:
        """``text`` with links: returns the part before the first link and
        appends the links (each with the text after it as its tail) to
        ``out``.  Placeholders of raw HTML move the raw-HTML state."""
        if not text or isinstance(text, AtomicString):
            return text
        if "\x02" not in text:
            if not linkable or not self._raw.linkable or not self.may_link.search(text):
                return text
            head, anchors = self._link_segment([(text, None)], text)
            out += anchors
            return head
        # Runs of text and entities, cut by the other placeholders (raw HTML).
        first = len(out)
        head = ""

        def add(s: str) -> None:
            nonlocal head
            if len(out) > first:
                out[-1].tail = (out[-1].tail or "") + s
            else:
                head += s

        segment: list[tuple[str, str | None]] = []  # (source, the entity's characters or None)

        def flush() -> None:
            source = "".join(s for s, _ in segment)
            view = "".join(s if v is None else v for s, v in segment)
            if linkable and self._raw.linkable and self.may_link.search(view):
                before, anchors = self._link_segment(segment, source)
                add(before)
                out.extend(anchors)
            else:
                add(source)
            segment.clear()

        last = 0
        for m in HTML_PLACEHOLDER_RE.finditer(text):
            if m.start() > last:
                segment.append((text[last : m.start()], None))
            last = m.end()
            n = int(m.group(1))
            stashed = self._stash[n] if n < len(self._stash) else None
            if isinstance(stashed, str) and _ENTITY.match(stashed):
                segment.append((m.group(), html.unescape(stashed)))
                continue
            flush()
            if isinstance(stashed, str):
                self._raw.feed(stashed)
            add(m.group())
        if last < len(text):
            segment.append((text[last:], None))
        flush()
        return head

    def _link_segment(self, pieces: list[tuple[str, str | None]], source: str) -> tuple[str, list[etree.Element]]:
        """Links in one run of text and entities (``source`` is their
        concatenated source): the text before the first link, and the links
        with the text after each as its tail."""
        if all(view is None for _, view in pieces):
            view, to_source = source, None
        else:
            view, to_source = _view(pieces)
        found = self.finder.find_links(view)
        policy = self.policy
        anchors: list[etree.Element] = []
        head = source
        done = 0  # in the view
        done_source = 0
        for link in found:
            if link.kind not in self.kinds:
                continue
            candidate = admitted(view, link, policy)
            if candidate is None or candidate.start < done:
                continue
            start, end = candidate.start, candidate.end
            if to_source is not None:
                s, e = to_source(start), to_source(end)
                if s is None or e is None:
                    continue  # the link starts or ends inside an entity
            else:
                s, e = start, end
            anchor = self._anchor(candidate, source[s:e])
            if anchor is None:
                continue
            if anchors:
                anchors[-1].tail = source[done_source:s] or None
            else:
                head = source[:s]
            anchors.append(anchor)
            done, done_source = end, e
        if anchors:
            anchors[-1].tail = source[done_source:] or None
        return head, anchors

    def _anchor(self, link: Link, source: str) -> etree.Element | None:
        """The ``a`` element of ``link``, whose text in the tree was ``source``."""
        shortening = self.shortening
        if self.link_text == "original" and shortening is None:
            display, text = link.text, source  # (source: with its entities as written)
            title = None
        else:
            # D90: with display= the shortened display form replaces the text that was there.
            display, title = shown(link, shortening, self.policy)
            text = _tree_value(display)
        href = link.href
        attrs = self.attributes.of(link, title)  # (shared: read, not changed; apply_callback copies it)
        if self.callback is not None:
            result = apply_callback(self.callback, link, href, attrs, display, self.schemes)
            if result is None:
                return None
            href, attrs, new_text = result
            if new_text != display:
                text = _tree_value(new_text)
        element = etree.Element("a", {"href": _tree_value(href)})
        for name, value in attrs.items():
            element.set(name, _tree_value(value))
        element.text = text
        return element


def _view(pieces: list[tuple[str, str | None]]) -> tuple[str, Callable[[int], int | None]]:
    """The text as read (entities replaced by their characters) and the map
    from its offsets to the source's (None inside an entity)."""
    view_starts: list[int] = []
    source_starts: list[int] = []
    plain: list[bool] = []
    parts: list[str] = []
    v = s = 0
    for source, entity in pieces:
        shown = source if entity is None else entity
        view_starts.append(v)
        source_starts.append(s)
        plain.append(entity is None)
        parts.append(shown)
        v += len(shown)
        s += len(source)
    view_starts.append(v)
    source_starts.append(s)
    plain.append(True)

    def to_source(offset: int) -> int | None:
        k = bisect_right(view_starts, offset) - 1
        if plain[k]:
            return source_starts[k] + offset - view_starts[k]
        return source_starts[k] if offset == view_starts[k] else None

    return "".join(parts), to_source


class LinkifyExtension(Extension):  # type: ignore[misc]
    """``markdown.markdown(text, extensions=[LinkifyExtension(...)])``.

    Options as :func:`uts58.linkify`: ``policy``, ``attrs``, ``rel``,
    ``target``, ``external_only``, ``internal_hosts``, ``callback``,
    ``kinds``, ``display``, and ``finder`` or the detection options
    (``schemes``, ``require_scheme``, ``unicode_version``…); wrong ones
    raise the same errors.  As :func:`uts58.linkify_html`, a link keeps
    the text that was there; ``link_text="display"`` shows the §4 display form
    (with Bidi controls escaped where the policy says so), and ``display=``
    its shortened form.

    >>> import markdown
    >>> markdown.markdown("x@example.com", extensions=[LinkifyExtension(attrs={"rel": "nofollow"})])
    '<p><a href="mailto:x@example.com" rel="nofollow">x@example.com</a></p>'
    >>> ext = LinkifyExtension(target="_blank", display={"max_length": 18})
    >>> markdown.markdown("See example.com/a/long/path", extensions=[ext])  # doctest: +NORMALIZE_WHITESPACE
    '<p>See <a href="https://example.com/a/long/path" rel="noopener" target="_blank"
     title="example.com/a/long/path">example.com/a/lon…</a></p>'
    """

    def __init__(
        self,
        *,
        policy: Policy | None = None,
        attrs: Mapping[str, str] | None = None,
        callback: Callback | None = None,
        kinds: Iterable[str] = ("url", "email"),
        link_text: str = "original",
        finder: Finder | None = None,
        rel: str | None = None,
        target: str | None = None,
        external_only: bool = False,
        internal_hosts: Iterable[str] = (),
        display: DisplayOptions | None = None,
        **options: Unpack[LinkifyOptions],
    ) -> None:
        super().__init__()
        self.options = adapter_settings(
            "LinkifyExtension",
            policy=policy,
            attrs=attrs,
            callback=callback,
            kinds=kinds,
            link_text=link_text,
            finder=finder,
            rel=rel,
            target=target,
            external_only=external_only,
            internal_hosts=internal_hosts,
            display=display,
            options=options,
        )._asdict()

    def extendMarkdown(self, md: Markdown) -> None:
        # After "unescape" (0): the text is what the reader sees.
        md.treeprocessors.register(LinkifyTreeprocessor(md, **self.options), "uts58_linkify", -5)


def makeExtension(**kwargs: Any) -> LinkifyExtension:
    """``extensions=["uts58.python_markdown"]``."""
    return LinkifyExtension(**kwargs)
