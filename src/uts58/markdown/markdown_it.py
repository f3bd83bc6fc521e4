"""markdown-it-py integration: its ``linkify`` option, detected by uts58.

>>> from markdown_it import MarkdownIt
>>> import uts58.markdown.markdown_it
>>> md = MarkdownIt().use(uts58.markdown.markdown_it.plugin)
>>> md.render("See https://ja.wikipedia.org/wiki/アルベルト)アインシュタイン")
'<p>See <a href="https://ja.wikipedia.org/wiki/%E3%82%A2%E3%83%AB%E3%83%99%E3%83%AB%E3%83%88">https://ja.wikipedia.org/wiki/アルベルト</a>)アインシュタイン</p>\\n'

markdown-it-py asks ``md.linkify`` (an object with linkify-it-py's interface:
``pretest``, ``test``, ``match``, ``match_at_start``, ``set``, ``tlds``,
``add``) where links are; :class:`Linkify` answers with :func:`uts58.find_links`
and the §8 :class:`~uts58.Policy`.  :func:`plugin` also replaces markdown-it's
two ``linkify`` rules by linear ones that ask it the same questions:

* the inline rule (links written with a scheme, found while parsing so that
  ``_`` in a URL is not emphasis) looks the link up at the ``://`` it stands
  on, in one scan of the paragraph kept per source string — markdown-it's
  own rule hands the detector the rest of the paragraph at every ``://``;
* the core rule (the other links, in text tokens) splits the tokens in one
  pass instead of copying the token list per link.

Both follow raw HTML as a browser would (``uts58.html.raw``; a core rule
``uts58_context`` before ``inline`` gives the inline rule what came before):
no link inside ``<a>``, ``<code>``, ``<pre>``, ``<textarea>``, comments and
the like, whether the raw HTML is inline or a block.

markdown-it-py is not a dependency of uts58: install it to use this module.
"""

from __future__ import annotations

from typing import Any

from ..html.raw import RawHtml
from ..output.policy import Policy
from ._linkify import Linkify, LinkifyItOptions

__all__ = ["Linkify", "LinkifyItOptions", "plugin", "use"]

# markdown-it's inline rule takes as the scheme the run of these before "://".
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
# env key set while a link is parsed again as text (see _unlink); env key of
# the raw HTML context (_Context); meta key of the link_open of a link: the
# source text the link replaces.
_NO_INLINE = "uts58.markdown.markdown_it:no-inline"
_CONTEXT = "uts58.markdown.markdown_it:raw-html"
_SOURCE = "uts58.markdown.markdown_it:source"


# --------------------------------------------------------------------------
# markdown-it rules


class _Context:
    """Raw HTML seen before a position of the inline parse, for the inline
    rule: the blocks before the paragraph being parsed (markdown-it parses
    them in order), then its own ``html_inline`` tokens so far.  Each token
    is looked at once."""

    __slots__ = ("blocks", "done", "index", "paragraph", "raw", "scanned", "tokens")

    def __init__(self, blocks: list[Any]) -> None:
        self.blocks = blocks
        self.index = {id(b.children): k for k, b in enumerate(blocks) if b.type == "inline"}
        self.done = 0  # blocks before this one are in `raw`
        self.raw = RawHtml()
        self.tokens: list[Any] | None = None  # the paragraph being parsed
        self.paragraph = RawHtml()  # its state, after `scanned` of its tokens
        self.scanned = 0

    def linkable(self, tokens: list[Any]) -> bool:
        if tokens is not self.tokens:
            k = self.index.get(id(tokens), -1)
            if k < self.done:  # not a paragraph (an image's description): the current state
                return self.paragraph.linkable
            for block in self.blocks[self.done : k]:
                if block.type == "html_block":
                    self.raw.feed(block.content)
                elif block.type == "inline":
                    for child in block.children or ():
                        if child.type == "html_inline":
                            self.raw.feed(child.content)
            self.done = k
            self.tokens, self.paragraph, self.scanned = tokens, self.raw.copy(), 0
        if len(tokens) < self.scanned:  # tokens taken back: look again
            self.paragraph, self.scanned = self.raw.copy(), 0
        for token in tokens[self.scanned :]:
            if token.type == "html_inline":
                self.paragraph.feed(token.content)
        self.scanned = len(tokens)
        return self.paragraph.linkable


def _context_rule(state: Any) -> None:
    """Core rule before ``inline``: the raw HTML context of the inline rule."""
    if isinstance(state.md.linkify, Linkify) and state.md.options.linkify:
        for block in state.tokens:
            if block.type == "inline" and block.children is None:
                block.children = []  # as the inline rule does, so that the list is known now
        state.env[_CONTEXT] = _Context(state.tokens)


def _inline_rule(state: Any, silent: bool) -> bool:
    """markdown-it's inline ``linkify`` rule: a link with a scheme at the
    ``://`` under ``state.pos``, looked up in the scan of ``state.src``."""
    md = state.md
    linkify = md.linkify
    if not isinstance(linkify, Linkify):
        from markdown_it.rules_inline.linkify import linkify as markdown_it_rule

        return bool(markdown_it_rule(state, silent))
    if not md.options.linkify or state.linkLevel > 0 or state.env.get(_NO_INLINE):
        return False
    pos = state.pos
    src = state.src
    if pos + 3 > state.posMax or not src.startswith("://", pos):
        return False
    anchor = linkify._found(src).at_colon.get(pos)
    if anchor is None:
        return False
    link = anchor.link
    context = state.env.get(_CONTEXT)
    if context is not None and not context.linkable(state.tokens):
        return False  # inside <textarea>, <code>, a comment…: the core rule would not link it
    # The scheme must be the end of the pending text, a word of its own (as
    # markdown-it's rule asks: "site.http://…" is left to the core rule).
    k = pos - link.start
    pending = state.pending
    if len(pending) < k or pending[len(pending) - k :] != src[link.start : pos]:
        return False
    if len(pending) > k and pending[len(pending) - k - 1] in _SCHEME_CHARS:
        return False
    url, href = link.text, anchor.href
    if url.endswith("*"):  # markdown-it: a '*' at the end is emphasis, not URL
        url = href = url.rstrip("*")
        lk = linkify.linkifier
        if lk.callback is not None or not lk.keeps_text:
            # (the anchor of the URL without its '*': its href, text and title, after the callback)
            again = next(lk.anchors(url), None)
            if again is None or again.start != 0 or again.end != len(url):
                return False
            anchor, href = again, again.href
    end = link.start + len(url)
    if end > state.posMax:
        return False
    full_url = md.normalizeLink(href)
    if not md.validateLink(full_url):
        return False
    if not silent:
        state.pending = pending[: len(pending) - k]
        token = state.push("link_open", "a", 1)
        token.attrs = {"href": full_url, **anchor.attrs}
        token.markup = "linkify"
        token.info = "auto"
        token.meta = {**(token.meta or {}), _SOURCE: src[link.start : end]}
        token = state.push("text", "", 0)
        token.content = linkify._text(anchor, md.normalizeLinkText(url))
        token = state.push("link_close", "a", -1)
        token.markup = "linkify"
        token.info = "auto"
    state.pos = end
    return True


def _core_rule(state: Any) -> None:
    """markdown-it's core ``linkify`` rule: links in text tokens, one pass
    over the document's tokens in order (raw HTML followed as it goes)."""
    md = state.md
    linkify = md.linkify
    if not isinstance(linkify, Linkify):
        from markdown_it.rules_core.linkify import linkify as markdown_it_rule

        markdown_it_rule(state)
        return
    state.env.pop(_CONTEXT, None)
    if not md.options.linkify:
        return
    raw = RawHtml()
    for block in state.tokens:
        if block.type == "html_block":
            raw.feed(block.content)
        elif block.type == "inline" and block.children:
            children = _link_children(state, linkify, block.children, raw)
            if children is not None:
                block.children = children


def _link_children(state: Any, linkify: Linkify, tokens: list[Any], raw: RawHtml) -> list[Any] | None:
    """The children of an inline token with the links of their text tokens
    (None when nothing changes)."""
    out: list[Any] = []
    changed = False
    depth = 0  # open links of the Markdown itself
    i, n = 0, len(tokens)
    while i < n:
        token = tokens[i]
        kind = token.type
        if kind == "link_open":
            source = (token.meta or {}).get(_SOURCE) if token.markup == "linkify" else None
            if source is not None and (depth or not raw.linkable) and i + 2 < n and tokens[i + 2].type == "link_close":
                # A link of the inline rule where raw HTML allows none: its text again.
                out += _unlink(state, source, token.level)
                changed = True
                i += 3
                continue
            depth += 1
        elif kind == "link_close":
            depth = max(0, depth - 1)
        elif kind == "html_inline":
            raw.feed(token.content)
        elif kind == "text" and not depth and raw.linkable and linkify.pretest(token.content):
            nodes = _link_text(state, linkify, token, tokens[i - 1] if i else None)
            if nodes is not None:
                out += nodes
                changed = True
                i += 1
                continue
        out.append(token)
        i += 1
    return out if changed else None


def _unlink(state: Any, source: str, level: int) -> list[Any]:
    """The tokens of ``source`` parsed without the inline linkify rule."""
    env = state.env
    tokens: list[Any] = []
    env[_NO_INLINE] = True
    try:
        state.md.inline.parse(source, state.md, env, tokens)
    finally:
        del env[_NO_INLINE]
    for token in tokens:
        token.level += level
    return tokens


def _link_text(state: Any, linkify: Linkify, token: Any, before: Any) -> list[Any] | None:
    """A text token split into text and links (None: no link), as
    markdown-it's core rule does."""
    md = state.md
    text = token.content
    found = linkify._found(text)
    pairs = list(zip(found.matches, found.anchors, strict=True))
    # markdown-it: no link right after an escape ("http\://x.com" stays text).
    if pairs and pairs[0][0].index == 0 and before is not None and before.type == "text_special":
        pairs = pairs[1:]
    if not pairs:
        return None
    make = type(token)
    level = token.level
    nodes: list[Any] = []
    last = 0
    for match, anchor in pairs:
        full_url = md.normalizeLink(match.url)
        if not md.validateLink(full_url):
            continue
        url_text = match.text
        if not match.schema:
            url_text = md.normalizeLinkText("http://" + url_text)
            url_text = url_text[7:] if url_text.startswith("http://") else url_text
        elif match.schema == "mailto:" and url_text[:7].lower() == "mailto:":
            url_text = md.normalizeLinkText("mailto:" + url_text)
            url_text = url_text[7:] if url_text.startswith("mailto:") else url_text
        else:
            url_text = md.normalizeLinkText(url_text)
        if match.index > last:
            nodes.append(_token(make, "text", "", 0, level, content=text[last : match.index]))
        link_open = _token(make, "link_open", "a", 1, level, markup="linkify", info="auto")
        link_open.attrs = {"href": full_url, **anchor.attrs}
        link_open.meta = {_SOURCE: match.raw}
        nodes.append(link_open)
        nodes.append(_token(make, "text", "", 0, level + 1, content=linkify._text(anchor, url_text)))
        nodes.append(_token(make, "link_close", "a", -1, level, markup="linkify", info="auto"))
        last = match.last_index
    if not nodes:
        return None
    if last < len(text):
        nodes.append(_token(make, "text", "", 0, level, content=text[last:]))
    return nodes


def _token(make: Any, kind: str, tag: str, nesting: int, level: int, **fields: str) -> Any:
    token = make(kind, tag, nesting)
    token.level = level
    for name, value in fields.items():
        setattr(token, name, value)
    return token


# --------------------------------------------------------------------------


def plugin(md: Any, policy: Policy | None = None, **options: Any) -> None:
    """``md.use(uts58.markdown.markdown_it.plugin)``: markdown-it's ``linkify``,
    detected by uts58, turned on (its option and its two rules: no need to
    enable them as well).

    ``options`` are those of :class:`Linkify`: ``linkifier=`` (a
    :class:`uts58.Linkifier`), or ``finder=`` or detection options, and the
    output options (``attrs``, ``rel``, ``target``, ``callback``,
    ``display``, ``link_text``, ``preset``…).  What was set on the
    linkify-it-py object in ``md.linkify`` (``md.linkify.set(…)``,
    ``.tlds(…)``, ``.add(…)``) is kept (:meth:`Linkify.adopt`).

    >>> from markdown_it import MarkdownIt
    >>> MarkdownIt().use(plugin, rel="nofollow").render("see bücher.de")
    '<p>see <a href="https://xn--bcher-kva.de/" rel="nofollow">bücher.de</a></p>\\n'
    """
    linkify = Linkify(policy, **options)
    old = getattr(md, "linkify", None)
    if old is not None and not isinstance(old, Linkify):
        linkify.adopt(old)
    md.linkify = linkify
    md.options["linkify"] = True
    md.core.ruler.at("linkify", _core_rule)
    if "uts58_context" not in md.core.ruler.get_all_rules():
        md.core.ruler.before("inline", "uts58_context", _context_rule)
    try:
        md.inline.ruler.at("linkify", _inline_rule)
    except KeyError:
        pass  # markdown-it-py before 3.0 has no inline linkify rule
    md.enable("linkify", ignoreInvalid=True)


def use(md: Any, policy: Policy | None = None, **options: Any) -> Any:
    """Same as :func:`plugin`, returning ``md`` for chaining."""
    plugin(md, policy, **options)
    return md
