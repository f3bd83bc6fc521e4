"""mistune plugin: links in the text of the rendered Markdown, found by uts58.

>>> import mistune
>>> import uts58.markdown.mistune
>>> md = mistune.create_markdown(plugins=[uts58.markdown.mistune.plugin])
>>> md("See bücher.de, `code.com` and [this](https://a.com).")
'<p>See <a href="https://xn--bcher-kva.de/">bücher.de</a>, <code>code.com</code> and <a href="https://a.com">this</a>.</p>\\n'

With options: ``mistune.create_markdown(plugins=[LinkifyPlugin(attrs={"rel": "nofollow"})])``;
by name: ``plugins=["uts58.markdown.mistune.plugin"]``.  mistune 3 (``mistune>=3``)
is not a dependency of uts58: install it to use this module.

Before mistune renders (it wraps ``md.render_state``, so the footnotes that
its ``footnotes`` plugin renders afterwards are linked too), the plugin walks
the tokens once in document order, having mistune parse the inline text of
each block as rendering would (D85).  Each run of adjacent ``text``
tokens (one text node of the HTML) is scanned once, with
:func:`uts58.linkify`'s semantics: the §8 :class:`~uts58.Policy`, ``attrs``,
``callback``, ``kinds``, and ``finder`` or the detection options.  Links
become ``uts58_link`` tokens (``attrs``: ``href`` and the extra attributes;
one ``text`` child), which the plugin renders as ``<a>`` for the HTML
renderer and as their text for the Markdown and reStructuredText renderers.

Nothing is linked inside links and autolinks (``link``, and mistune's
``url`` plugin), images, code spans and code blocks (they hold no ``text``
tokens), nor after raw HTML where a browser would not read the text as text
outside any skipped element (``inline_html`` and ``block_html`` followed
with ``uts58.html.raw.RawHtml``).  When the HTML renderer escapes raw
HTML (``escape=True``, mistune's default) raw HTML is shown as text, and
is linked as text; mistune then also shows entities as written (``&amp;``
reads ``&amp;``), and the plugin reads them so.  Without escaping
(``escape=False``) an entity is read as the character it stands for, so
that a link never starts or ends inside what the reader sees as one word.

The links are the anchors of a :class:`uts58.Linkifier` (D108; its
options, or ``linkifier=``): each keeps the text that was there unless
``link_text="display"``, ``display=`` (D90) or a callback says otherwise.
"""

from __future__ import annotations

import re
import sys
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

import mistune

from ..detect.options import prefilter
from ..html.raw import RawHtml
from ..html.textview import TextView
from ..output.anchor import anchor_html, attributes_html
from ..output.linkifier import Linkifier, LinkifierOptions, adapter_linkifier

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["LINK_TOKEN", "LinkifyPlugin", "plugin"]

#: The type of the tokens the plugin adds.
LINK_TOKEN = "uts58_link"
# The plugin in use, on the Markdown instance; the raw-HTML state, in a document's env.
_PLUGIN = "_uts58_linkify"
_RAW = "uts58.markdown.mistune:raw-html"
# Tokens whose text is not linked (their raw HTML still counts), and tokens
# whose children are not written as HTML (an image's alt text is stripped of tags).
_LINKS = frozenset({"link", LINK_TOKEN})
_NOT_HTML = frozenset({"image"})
# The character references mistune.util.unescape decodes (CommonMark: with a ";").
_CHARREF = re.compile(r"&(?:#[0-9]{1,7};|#[xX][0-9a-fA-F]+;|[^\t\n\f <&#;]{1,32};)")

Token = dict[str, Any]


class _Frame:
    """A token list being walked: where, what it becomes, and the text run so far."""

    __slots__ = ("changed", "i", "link", "out", "run", "tokens", "write_html")

    def __init__(self, tokens: list[Token], link: bool, write_html: bool) -> None:
        self.tokens = tokens
        self.i = 0
        self.out: list[Token] = []
        self.run: list[Token] = []  # adjacent text tokens: one text node of the HTML
        self.link = link  # may text here be linked (not inside a link)?
        self.write_html = write_html  # is raw HTML here written as HTML (not an image's alt)?
        self.changed = False


class LinkifyPlugin:
    """``mistune.create_markdown(plugins=[LinkifyPlugin(...)])``: a mistune 3 plugin.

    ``linkifier``: a :class:`uts58.Linkifier`; or its options as keyword
    arguments, as :func:`uts58.linkify` takes them (``policy``, ``attrs``,
    ``rel``, ``target``, ``external_only``, ``internal_hosts``,
    ``callback``, ``kinds``, ``display``, and ``finder`` or the detection
    options), not both; wrong ones raise the same errors.  As
    :class:`uts58.markdown.python_markdown.LinkifyExtension`, a link keeps the text
    that was there (``link_text="original"``, the default with keyword
    options); ``link_text="display"`` shows the §4 display form (with Bidi
    controls escaped where the policy says so), and ``display=`` its
    shortened form.

    >>> import mistune
    >>> md = mistune.create_markdown(plugins=[LinkifyPlugin(attrs={"rel": "nofollow"})])
    >>> md("x@example.com")
    '<p><a href="mailto:x@example.com" rel="nofollow">x@example.com</a></p>\\n'
    >>> md = mistune.create_markdown(plugins=[LinkifyPlugin(target="_blank", display={"max_length": 18})])
    >>> md("See example.com/a/long/path")  # doctest: +NORMALIZE_WHITESPACE
    '<p>See <a href="https://example.com/a/long/path" target="_blank" rel="noopener"
     title="example.com/a/long/path">example.com/a/lon…</a></p>\\n'
    """

    def __init__(self, *, linkifier: Linkifier | None = None, **options: Unpack[LinkifierOptions]) -> None:
        self.linkifier = adapter_linkifier(linkifier, dict(options), "LinkifyPlugin")
        finder = self.linkifier.finder
        self._may_link = prefilter(finder.schemes, finder.bare_localhost)

    def __call__(self, md: mistune.Markdown) -> None:
        """Install on ``md`` (again: these options replace the others)."""
        if not isinstance(md, mistune.Markdown):
            raise TypeError(f"md must be a mistune.Markdown, not {type(md).__name__}")
        installed = getattr(md, _PLUGIN, None)
        setattr(md, _PLUGIN, self)
        renderer = md.renderer
        if isinstance(renderer, mistune.HTMLRenderer):
            renderer.register(LINK_TOKEN, _render_html)
        elif renderer is not None:
            renderer.register(LINK_TOKEN, _render_text)
        if installed is not None:
            return
        render_state = md.render_state

        def linked_render_state(state: mistune.BlockState) -> Any:
            getattr(md, _PLUGIN).link_tokens(md, state)
            return render_state(state)

        md.render_state = linked_render_state  # type: ignore[method-assign]

    def link_tokens(self, md: mistune.Markdown, state: mistune.BlockState) -> None:
        """Parse the inline text of ``state``'s blocks, as rendering would,
        and put the links in: one walk in document order, each text run
        scanned once (explicit stacks: tokens nest deeper than Python recursion)."""
        escaped = _escapes(md.renderer)
        raw = _raw_state(state.env)
        root = _Frame(state.tokens, True, True)
        stack = [root]
        while stack:
            frame = stack[-1]
            if frame.i == len(frame.tokens):
                self._flush(frame, raw, escaped)
                stack.pop()
                if frame.changed:
                    frame.tokens[:] = frame.out
                continue
            token = frame.tokens[frame.i]
            frame.i += 1
            kind = token.get("type")
            if kind == "text" and isinstance(token.get("raw"), str):
                frame.run.append(token)
                continue
            if kind in ("inline_html", "block_html") and isinstance(token.get("raw"), str):
                if escaped:  # shown as text: text of the run (block_html is a paragraph of its own)
                    if kind == "inline_html":
                        frame.run.append(token)
                    else:
                        self._flush(frame, raw, escaped)
                        frame.out.append(self._escaped_block(token, frame.link and raw.linkable))
                        frame.changed = True
                    continue
                self._flush(frame, raw, escaped)
                frame.out.append(token)
                if frame.write_html:
                    raw.feed(token["raw"])
                continue
            self._flush(frame, raw, escaped)
            frame.out.append(token)
            if "children" not in token and "text" in token:
                # mistune parses a block's inline text when it renders it
                # (Markdown._iter_render, which keeps "children" already
                # there): parsed here, as it would be, the walk sees the raw
                # HTML before each text in document order.
                token["children"] = md.inline(token.pop("text").strip(" \r\n\t\f"), state.env)
            children = token.get("children")
            if isinstance(children, list) and children:
                write_html = frame.write_html and kind not in _NOT_HTML
                stack.append(_Frame(children, frame.link and kind not in _LINKS and write_html, write_html))

    def _flush(self, frame: _Frame, raw: RawHtml, escaped: bool) -> None:
        """The text run of ``frame`` into its output, with links where allowed."""
        run = frame.run
        if not run:
            return
        frame.run = []
        linked = self._link_run(run, escaped) if frame.link and raw.linkable else None
        if linked is None:
            frame.out += run
        else:
            frame.out += linked
            frame.changed = True

    def _escaped_block(self, token: Token, linkable: bool) -> Token:
        """A ``block_html`` token that the renderer escapes: the same
        paragraph, with links, when it has any."""
        # HTMLRenderer.block_html with escaping: "<p>" + escape(html.strip()) + "</p>\n", as this paragraph.
        text: Token = {"type": "text", "raw": token["raw"].strip()}
        linked = self._link_run([text], True) if linkable else None
        return token if linked is None else {"type": "paragraph", "children": linked}

    def _link_run(self, run: list[Token], escaped: bool) -> list[Token] | None:
        """The tokens of one text run with its links (None: no link)."""
        source = "".join(token["raw"] for token in run)
        if not self._may_link.search(source):
            return None
        # Without escaping, mistune's HTMLRenderer.text decodes character references.
        view = TextView.plain(source) if escaped else TextView.decoding(source, _CHARREF)
        out: list[Token] = []
        done = 0  # in the source
        for s, e, anchor, original in view.anchors(self.linkifier):
            # The text that was there, references as written, or what the anchor shows (D90, a callback).
            text = source[s:e] if original else _raw_text(anchor.text, escaped)
            if s > done:
                out.append({"type": "text", "raw": source[done:s]})
            out.append(
                {
                    "type": LINK_TOKEN,
                    "children": [{"type": "text", "raw": text}],
                    "attrs": {"href": anchor.href, **anchor.attrs},
                }
            )
            done = e
        if not out:
            return None
        if done < len(source):
            out.append({"type": "text", "raw": source[done:]})
        return out


def _escapes(renderer: Any) -> bool:
    """Does the renderer write raw HTML (and text) escaped, as written?"""
    if not isinstance(renderer, mistune.HTMLRenderer):
        return False  # raw HTML is written as it is (or the AST is kept): it may be live
    enabled = getattr(renderer, "escape_enabled", None)  # mistune >= 3.2; before, _escape
    return bool(getattr(renderer, "_escape", False) if enabled is None else enabled)


def _raw_state(env: MutableMapping[str, Any]) -> RawHtml:
    """The raw-HTML state of the document (shared by the footnotes' render, whose env is the document's)."""
    raw = env.get(_RAW)
    if not isinstance(raw, RawHtml):
        raw = env[_RAW] = RawHtml()
    return raw


def _raw_text(shown: str, escaped: bool) -> str:
    """The ``raw`` of a text token that the renderer writes as ``shown``."""
    # Without escaping, mistune decodes references in text: "&" as "&amp;" decodes back.
    return shown if escaped else shown.replace("&", "&amp;")


def _render_html(renderer: Any, text: str, /, **attrs: str) -> str:
    # The href as detection (or the callback, D28) wrote it: not mistune's
    # sanitize_url, which decodes references and knows fewer schemes.
    href = attrs.pop("href")
    return anchor_html(href, attributes_html(attrs), text)


def _render_text(renderer: Any, token: Token, state: mistune.BlockState) -> str:
    # (Markdown and reStructuredText renderers: the text, linked again when rendered as HTML.)
    return str(renderer.render_tokens(token["children"], state))


def plugin(md: mistune.Markdown) -> None:
    """``mistune.create_markdown(plugins=[uts58.markdown.mistune.plugin])``: the
    plugin with :func:`uts58.linkify`'s defaults (:class:`LinkifyPlugin`
    takes options).

    >>> import mistune
    >>> mistune.create_markdown(plugins=[plugin])("<x@example.com> y@example.com")
    '<p><a href="mailto:x@example.com">x@example.com</a> <a href="mailto:y@example.com">y@example.com</a></p>\\n'
    """
    LinkifyPlugin()(md)
