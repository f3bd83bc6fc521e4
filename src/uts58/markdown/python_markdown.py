"""Python-Markdown extension: links in the text of the rendered Markdown, found by uts58.

>>> import markdown
>>> text = "See bücher.de, `code.com` and [this](https://a.com)."
>>> markdown.markdown(text, extensions=["uts58.markdown.python_markdown"])
'<p>See <a href="https://xn--bcher-kva.de/">bücher.de</a>, <code>code.com</code> and <a href="https://a.com">this</a>.</p>'

With options: ``markdown.markdown(text, extensions=[LinkifyExtension(attrs={"rel": "nofollow"})])``
or ``extension_configs={"uts58.markdown.python_markdown": {...}}``.  It replaces
mdx_linkify (bleach's linkify run over the HTML).

A tree processor (D48), run after Python-Markdown's own (inline patterns,
unescaping), walks the element tree once in document order and links the
``text`` and ``tail`` strings with :func:`uts58.linkify`'s semantics: the
§8 :class:`~uts58.Policy`, ``attrs``, ``callback``, ``kinds``, ``schemes``,
``require_scheme``.  It skips what must not hold links: ``a`` (links and
autolinks), ``code`` and ``pre`` (code spans and blocks) and the other
elements of ``uts58.html.raw.SKIPPED`` and ``RAW_TEXT``,
code text (``AtomicString``), and the raw HTML that Python-Markdown keeps
aside (its "stash"): the raw HTML itself is never touched, and the text after
it is linked only where a browser would read it as text outside any skipped
element (``uts58.html.raw.RawHtml``).  An entity (``&amp;``) is read as
the character it stands for, so a link never starts or ends inside what the
reader sees as one word.

The links are the anchors of a :class:`uts58.Linkifier` (D108; its
options, or ``linkifier=``): each keeps the text that was there unless
``link_text="display"``, ``display=`` (D90) or a callback says otherwise.
"""

from __future__ import annotations

import html
import re
import sys
import xml.etree.ElementTree as etree
from typing import TYPE_CHECKING, Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE, AtomicString

from ..detect.options import prefilter
from ..html.raw import RAW_TEXT, SKIPPED, RawHtml
from ..html.textview import TextView
from ..output.linkifier import Linkifier, LinkifierOptions, adapter_linkifier

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

    def __init__(self, md: Markdown, *, linkifier: Linkifier) -> None:
        super().__init__(md)
        self.linkifier = linkifier
        self.may_link = prefilter(linkifier.finder.schemes, linkifier.finder.bare_localhost)
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
        view = TextView(pieces)
        anchors: list[etree.Element] = []
        head = source
        done = 0  # in the source
        for s, e, anchor, original in view.anchors(self.linkifier):
            element = etree.Element("a", {"href": _tree_value(anchor.href)})
            for name, value in anchor.attrs.items():
                element.set(name, _tree_value(value))
            # The text that was there (its entities as written), or what the anchor shows (D90, a callback).
            element.text = source[s:e] if original else _tree_value(anchor.text)
            if anchors:
                anchors[-1].tail = source[done:s] or None
            else:
                head = source[:s]
            anchors.append(element)
            done = e
        if anchors:
            anchors[-1].tail = source[done:] or None
        return head, anchors


class LinkifyExtension(Extension):  # type: ignore[misc]
    """``markdown.markdown(text, extensions=[LinkifyExtension(...)])``.

    ``linkifier``: a :class:`uts58.Linkifier`; or its options as keyword
    arguments, as :func:`uts58.linkify` takes them (``policy``, ``attrs``,
    ``rel``, ``target``, ``external_only``, ``internal_hosts``,
    ``callback``, ``kinds``, ``display``, and ``finder`` or the detection
    options), not both; wrong ones raise the same errors.  As
    :func:`uts58.linkify_html`, a link keeps the text that was there
    (``link_text="original"``, the default with keyword options);
    ``link_text="display"`` shows the §4 display form (with Bidi controls
    escaped where the policy says so), and ``display=`` its shortened form.

    >>> import markdown
    >>> markdown.markdown("x@example.com", extensions=[LinkifyExtension(attrs={"rel": "nofollow"})])
    '<p><a href="mailto:x@example.com" rel="nofollow">x@example.com</a></p>'
    >>> ext = LinkifyExtension(target="_blank", display={"max_length": 18})
    >>> markdown.markdown("See example.com/a/long/path", extensions=[ext])  # doctest: +NORMALIZE_WHITESPACE
    '<p>See <a href="https://example.com/a/long/path" rel="noopener" target="_blank"
     title="example.com/a/long/path">example.com/a/lon…</a></p>'
    """

    def __init__(self, *, linkifier: Linkifier | None = None, **options: Unpack[LinkifierOptions]) -> None:
        super().__init__()
        self.linkifier = adapter_linkifier(linkifier, dict(options), "LinkifyExtension")

    def extendMarkdown(self, md: Markdown) -> None:
        # After "unescape" (0): the text is what the reader sees.
        md.treeprocessors.register(LinkifyTreeprocessor(md, linkifier=self.linkifier), "uts58_linkify", -5)


def makeExtension(**kwargs: Any) -> LinkifyExtension:
    """``extensions=["uts58.markdown.python_markdown"]``."""
    return LinkifyExtension(**kwargs)
