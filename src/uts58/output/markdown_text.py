"""Plain text, link text and link destinations written as Markdown that renders to exactly them.

What :func:`uts58.linkify` writes with ``format="markdown"``, usable on its
own.  The output is for CommonMark renderers (with or without raw HTML) and
for Python-Markdown: backslash escapes are used only for the characters both
understand (``\\ ` * _ [ ] > # + - . !``; Python-Markdown knows no other),
character references (``&lt;``, ``&amp;``, ``&#61;``, ``&#124;``, ``&#58;``,
``&#126;``) for the rest.  A character is escaped only where it can be special:

* always: ``\\`` before ASCII punctuation, a line break or the end, `` ` ``,
  ``*``, ``[``, ``]``, ``_`` unless between two letters or digits,
  ``<`` unless before a space, ``&`` before ``#`` or
  before letters or digits and ``;``, ``~`` next to another ``~``
  (fences, strikethrough), ``!`` before a link;
* at the start of a line: ``#``, ``>``, ``-``, ``+``, the ``.`` or ``)`` of
  ``1.``/``1)`` before a space or the line's end, and the first ``=``,
  ``|`` or ``:`` of a line made only of ``=-|:``, spaces and tabs (setext
  underlines, table delimiter rows);
* spaces and tabs at the start and end of lines are dropped (indented code
  blocks, hard line breaks); a renderer drops them from the text anyway;
* U+0000 is written U+FFFD, as CommonMark renders it; U+0002 and U+0003
  are dropped, as Python-Markdown drops them (its placeholder markers): no
  escape keeps them there.
"""

from __future__ import annotations

import re
from functools import cache

from ..base.checks import check_str

__all__ = ["escape_link_text", "escape_text", "link_destination", "markdown_link"]

_PUNCT = r"!-/:-@\[-`{-~"  # ASCII punctuation, as a character-class body
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINES = re.compile(r"(\r\n|\r|\n)")


@cache
def _special(ends_line: bool) -> re.Pattern[str]:
    """The characters to escape (in a text that starts after a line break).
    ``ends_line``: nothing follows the text on its line (else a link
    follows, whose Markdown starts with ``[``).  Every match starts with one
    of a few characters and then checks its context: the regex engine skips
    the other characters at C speed, and nothing backtracks further than one
    line."""
    end = r"(?:[\r\n]|\Z)" if ends_line else r"[\r\n]"
    return re.compile(
        r"[`*\[\]\\_<&~!\r\n](?:(?<=[`*\[\]])"
        rf"|(?<=\\)(?=[{_PUNCT}\r\n]|\Z)"
        r"|(?<=_)(?:(?<![^\W_]_)|(?![^\W_]))"  # _ not between two letters or digits
        # < before a tab or line break can start a Python-Markdown automail.
        + (r"|(?<=<)(?! |\Z)" if ends_line else r"|(?<=<)(?! )")
        + r"|(?<=&)(?=#|[A-Za-z0-9]+;)"
        r"|(?<=~)(?:(?=~)|(?<=~~))"
        + ("" if ends_line else r"|(?<=!)\Z")
        # At a line start: block markers.
        + rf"|(?<=[\r\n])(?:[#>+\-]|[0-9]+[.)](?=[ \t\r\n]|\Z)|[=|:](?=[-=|: \t]*{end})))"
    )


# U+0000 renders as U+FFFD in CommonMark; Python-Markdown deletes U+0002 and
# U+0003 (its placeholder markers) from its input, which would join what
# they separate after the escaping was decided: deleted first.
_DROPPED = {0: "\ufffd", 2: None, 3: None}
_REFERENCES = {"<": "&lt;", "&": "&amp;", "~": "&#126;", "=": "&#61;", "|": "&#124;", ":": "&#58;"}


def _escape(m: re.Match[str]) -> str:
    s = m[0]
    if s[0] in "\r\n":  # a line break and the block marker after it
        if s[-1] in ".)":
            return s[:-1] + "\\" + s[-1]  # 1\. and 1\) are text
        return s[0] + (_REFERENCES.get(s[1]) or "\\" + s[1])
    return _REFERENCES.get(s) or "\\" + s


def _trim_lines(text: str, starts_line: bool) -> str:
    """Without the spaces and tabs at line starts and ends."""
    parts = _LINES.split(text)  # line, break, line, …, line
    last = len(parts) - 1
    for i in range(0, last + 1, 2):
        line = parts[i]
        if i or starts_line:
            line = line.lstrip(" \t")
        if i < last:
            line = line.rstrip(" \t")
        parts[i] = line
    return "".join(parts)


def escape_text(text: str, *, starts_line: bool = True, ends_line: bool = True) -> str:
    """``text`` as Markdown that renders to that text (D45; whitespace at line
    edges aside).  ``starts_line=False``: the text continues a line;
    ``ends_line=False``: Markdown starting with ASCII punctuation (a link)
    follows on the same line.

    >>> print(escape_text("2*3*4 = <b> & a_b_c\\n# 1. x_"))
    2\\*3\\*4 = &lt;b> & a_b_c
    \\# 1. x\\_
    """
    check_str(text, "text")
    for name, flag in (("starts_line", starts_line), ("ends_line", ends_line)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be bool, not {type(flag).__name__}")
    if "\0" in text or "\2" in text or "\3" in text:
        text = text.translate(_DROPPED)
    if "\r" in text or "\n" in text:
        text = _trim_lines(text, starts_line)
    elif starts_line:
        text = text.lstrip(" \t")
    if starts_line:
        # A line break in front makes the text's start a line start; it is
        # taken off again (escaping never changes a line break).
        return _special(ends_line).sub(_escape, "\n" + text)[1:]
    return _special(ends_line).sub(_escape, text)


def escape_link_text(text: str) -> str:
    """The text of a link (what goes between ``[`` and ``]``): line breaks
    become spaces (a blank line would end the paragraph), the rest is
    escaped as by :func:`escape_text`.

    >>> escape_link_text("example.com/a_(b)*c*")
    'example.com/a\\\\_(b)\\\\*c\\\\*'
    """
    check_str(text, "text")
    return escape_text(_LINE_BREAK.sub(" ", text), starts_line=False, ends_line=False)


# Kept as they are in a destination: what markdown-it's normalizeLink keeps
# (RFC 3986 reserved and unreserved characters, ``%`` of an escape).  ``&``
# is written ``&amp;``: both renderers decode character references there.
_DESTINATION_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9;/?:@=+$,\-_.!~*'()#%]")
# An IPv6 host keeps its brackets (markdown-it keeps them only there).
# (The first class excludes ":" so that "[::::…" is not matched in two ways.)
_IPV6_AUTHORITY = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://(?:[^/?#\[\]@]*@)?\[[^\]/?#:]*:[^\]/?#]*\]")


def _percent(m: re.Match[str]) -> str:
    ch = m[0]
    if ch == "&":
        return "&amp;"
    if "\ud800" <= ch <= "\udfff":
        ch = "\ufffd"  # a lone surrogate has no UTF-8 form
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8"))


def link_destination(url: str) -> str:
    """``url`` as a Markdown link destination (D46), in ``<…>``: ``&`` is written
    ``&amp;``, every character markdown-it would percent-encode is
    percent-encoded (``<``, ``>``, ``\\``, ``"``, spaces, controls, ``|``,
    ``^``, `` ` ``, ``{``, ``}``, ``[`` and ``]`` outside an IPv6 host,
    non-ASCII, ``%`` not followed by two hex digits), so that CommonMark
    renderers and Python-Markdown give the same href.  (markdown-it still
    normalizes some odd hrefs a callback may return: ``mailto:@x`` becomes
    ``mailto:x``.)

    >>> link_destination('https://example.com/a_(b)?q=<"x">&y=1|2')
    '<https://example.com/a_(b)?q=%3C%22x%22%3E&amp;y=1%7C2>'
    """
    check_str(url, "url")
    m = _IPV6_AUTHORITY.match(url)
    if m is None:
        return "<" + _DESTINATION_ESCAPE.sub(_percent, url) + ">"
    host = m[0].rindex("[")
    parts = (url[:host], url[host + 1 : m.end() - 1], url[m.end() :])
    before, inside, after = (_DESTINATION_ESCAPE.sub(_percent, part) for part in parts)
    return "<" + before + "[" + inside + "]" + after + ">"


def markdown_link(text: str, url: str) -> str:
    """A Markdown inline link whose text renders to ``text`` and whose href
    is ``url`` (see :func:`link_destination`).

    >>> markdown_link("a*b", "https://example.com/a b")
    '[a\\\\*b](<https://example.com/a%20b>)'
    """
    return "[" + escape_link_text(text) + "](" + link_destination(url) + ")"
