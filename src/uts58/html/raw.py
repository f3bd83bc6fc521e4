"""Where raw HTML inside Markdown leaves a browser's HTML5 tokenizer.

The Markdown adapters (:mod:`uts58.markdown.markdown_it`, :mod:`uts58.markdown.python_markdown`)
link text that the renderer writes escaped, between pieces of raw HTML that
it copies as they are.  Whether a browser shows that text as text depends on
the raw pieces before it: after ``<textarea>`` or ``<!--`` it is not markup,
after ``<a href=…>`` or ``<code>`` a link would be nested.  :class:`RawHtml`
follows the pieces, in document order, with the HTML5 tokenizer's states
that matter; where it cannot tell (a tag left open, ``<plaintext>``), it
stops linking for the rest of the document.  Escaped text never changes the
state: it holds no ``<`` or ``>``.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["RAW_TEXT", "SKIPPED", "RawHtml", "raw_end", "raw_text_end", "script_end"]

# Elements whose content is not markup (RAWTEXT, RCDATA, script data):
# linked text would be shown as its HTML source.
RAW_TEXT = frozenset({"script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title"})
# Elements whose content gets no links: links themselves, code, foreign
# content, templates, form controls (as uts58.linkify_html, D40).
SKIPPED = frozenset(
    {"a", "pre", "code", "svg", "math", "template", "select", "option", "optgroup", "datalist", "button"}
)

# Elements that stop the search for an element to close ("has an element in
# scope"): while one may be open, an end tag is not trusted to close anything.
SCOPE_BOUNDARIES = frozenset({"applet", "caption", "html", "table", "td", "th", "marquee", "object"})

_DATA, _RAW, _COMMENT, _BOGUS, _DEAD = range(5)
_COMMENT_END = re.compile(r"--!?>")
_TAG_NAME = re.compile(r"[^\t\n\f\r />]*")
_SPACE = "\t\n\f\r "


@cache
def raw_end(name: str) -> re.Pattern[str]:
    return re.compile("</" + re.escape(name) + r"(?=[\t\n\f\r />])", re.IGNORECASE)


# The tokens that move script data between its states (HTML 13.2.5.15-.32, D111):
# "<!--" escapes, "-->" ends an escape, "<script" in an escape
# double-escapes, "</script" ends the script or a double escape.
_SCRIPT_STEP = re.compile(r"<!--|-->|<(/?)script(?=[\t\n\f\r />])", re.IGNORECASE)


def raw_text_end(html: str, name: str, i: int) -> int | None:
    """The offset of the end tag that ends the content of the raw text
    element ``name`` starting at ``i`` (script data's escapes followed), or
    None when it runs to the end of input."""
    if name == "script":
        return script_end(html, i)
    m = raw_end(name).search(html, i)
    return None if m is None else m.start()


def script_end(html: str, i: int) -> int | None:
    """The offset of the ``</script`` that ends the script data starting at
    ``i``, or None when it runs to the end of input: one pass, with the
    escaped and double-escaped states, where ``</script>`` may end nothing.

    >>> s = "<!--<script>x</script>y--></script>z"
    >>> s[script_end(s, 0):]
    '</script>z'
    """
    escaped = double = False
    at = i
    while True:
        m = _SCRIPT_STEP.search(html, at)
        if m is None:
            return None
        token, closing = m.group(), m.group(1)
        if token == "<!--":
            escaped = escaped or not double  # (in an escape it changes nothing)
            # "<!-->" ends at once: its dashes also end the escape.
            at = m.start() + 2
        elif token == "-->":
            escaped = double = False
            at = m.end()
        elif closing:
            if not escaped:
                return m.start()
            if double:
                double = False
            else:
                return m.start()
            at = m.end()
        else:
            double = double or escaped
            at = m.end()


class RawHtml:
    """The tokenizer state after the raw HTML seen so far.

    >>> state = RawHtml()
    >>> state.feed("<textarea>"); state.linkable
    False
    >>> state.feed("</textarea>"); state.linkable
    True
    """

    __slots__ = ("boundaries", "mode", "open", "raw_name")

    def __init__(self) -> None:
        self.mode = _DATA
        self.raw_name = ""
        self.open: dict[str, int] = {}  # SKIPPED elements maybe open, by name
        self.boundaries: dict[str, int] = {}  # SCOPE_BOUNDARIES maybe open

    def copy(self) -> RawHtml:
        other = RawHtml()
        other.mode, other.raw_name = self.mode, self.raw_name
        other.open, other.boundaries = dict(self.open), dict(self.boundaries)
        return other

    @property
    def linkable(self) -> bool:
        """May text that follows gain links?"""
        return self.mode == _DATA and not self.open

    @staticmethod
    def _count(counts: dict[str, int], name: str, step: int) -> None:
        n = counts.get(name, 0) + step
        if n > 0:
            counts[name] = n
        else:
            counts.pop(name, None)

    def feed(self, html: str) -> None:
        """Move the state over one piece of raw HTML (one pass over it)."""
        i, n = 0, len(html)
        while i < n and self.mode != _DEAD:
            if self.mode == _RAW:
                m = raw_end(self.raw_name).search(html, i)
                data = html[i : len(html) if m is None else m.start()]
                if self.raw_name == "script" and ("<!" in data or data.endswith("<")):
                    # Script data has escaped states where "</script>" ends
                    # nothing (and the text after a "<" could start one).
                    self.mode = _DEAD
                    return
                if m is None:
                    return
                i = self._tag_end(html, m.end())
                if i >= 0:
                    self.mode = _DATA
            elif self.mode == _COMMENT:
                m = _COMMENT_END.search(html, i)
                if m is None:
                    return
                i, self.mode = m.end(), _DATA
            elif self.mode == _BOGUS:
                j = html.find(">", i)
                if j < 0:
                    return
                i, self.mode = j + 1, _DATA
            else:
                i = self._markup(html, i)

    def _markup(self, html: str, i: int) -> int:
        """Data state at ``i``: go past the next construct."""
        j = html.find("<", i)
        if j < 0:
            return len(html)
        if j + 1 == len(html):
            self.mode = _DEAD  # a "<" that the text after it would continue
            return j + 1
        c = html[j + 1]
        if len(html) - j < 9 and ("<!--".startswith(html[j:]) or "<![CDATA[".startswith(html[j:])):
            self.mode = _DEAD  # the start of a comment or CDATA that the text after would complete
            return len(html)
        if html.startswith("<!--", j):
            k = j + 4
            if html.startswith(">", k) or html.startswith("->", k):  # <!--> and <!--->: empty comments
                return html.index(">", k) + 1
            self.mode = _COMMENT
            return k
        if html.startswith("<![CDATA[", j):
            # Only foreign content has CDATA; elsewhere it is a bogus comment
            # that ends at the first ">", and what follows is markup ("<![CDATA[x>
            # <textarea>]]>" opens a textarea).  Inside svg or math (or an HTML
            # integration point in them) either may hold: the end cannot be told.
            self.mode = _DEAD if ("svg" in self.open or "math" in self.open) else _BOGUS
            return j + 2
        if c in "!?":
            self.mode = _BOGUS
            return j + 2
        if c == "/":
            if j + 2 == len(html):
                self.mode = _DEAD
                return j + 2
            if html[j + 2] == ">":
                return j + 3  # "</>" is dropped
            if not html[j + 2].isascii() or not html[j + 2].isalpha():
                self.mode = _BOGUS
                return j + 2
            m = _TAG_NAME.match(html, j + 2)
            assert m is not None  # the pattern also matches the empty string
            end = self._tag_end(html, m.end())
            name = m.group().lower()
            if end >= 0 and name in SKIPPED and not self.boundaries:
                self._count(self.open, name, -1)
            elif end >= 0 and name in SCOPE_BOUNDARIES:
                self._count(self.boundaries, name, -1)
            return len(html) if end < 0 else end
        if c.isascii() and c.isalpha():
            m = _TAG_NAME.match(html, j + 1)
            assert m is not None
            end = self._tag_end(html, m.end())
            if end < 0:
                return len(html)
            name = m.group().lower()
            if name in RAW_TEXT:
                self.mode, self.raw_name = _RAW, name
            elif name == "plaintext":
                self.mode = _DEAD  # everything after it is text
            elif name in SKIPPED and not (name in ("svg", "math") and html[end - 2] == "/"):
                self._count(self.open, name, 1)
            elif name in SCOPE_BOUNDARIES:
                self._count(self.boundaries, name, 1)
            return end
        return j + 1  # "<" that starts no tag is text

    def _tag_end(self, html: str, i: int) -> int:
        """The offset after the ``>`` that ends the tag whose attributes
        start at ``i``, or -1 (state dead) when the tag does not end in
        this piece: the text that follows would be read as attributes."""
        n = len(html)
        while i < n:
            c = html[i]
            if c == ">":
                return i + 1
            i += 1
            if c == "=":
                while i < n and html[i] in _SPACE:
                    i += 1
                if i < n and html[i] in "\"'":
                    close = html.find(html[i], i + 1)
                    if close < 0:
                        break
                    i = close + 1
                else:  # an unquoted value: to a space or ">" (quotes and "=" in it are data)
                    while i < n and html[i] not in _SPACE and html[i] != ">":
                        i += 1
        self.mode = _DEAD
        return -1
