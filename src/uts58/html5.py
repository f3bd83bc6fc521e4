"""Linkifying the text of an HTML fragment, parsed as a browser parses it.

:func:`linkify_html` parses the fragment with an HTML5-conformant parser
(lexbor, through selectolax: D41) in the context of an element, as
``element.innerHTML = fragment`` would, links the text nodes that may hold
links, and writes the tree back with the parser's serializer.  The promise
(docs/decisions.md D40, tested on public XSS and html5lib corpora with other
HTML5 parsers): the DOM of the output is the DOM of the input, except that
text nodes gain ``<a>`` children whose text is the text they replace.

Why a real parser: every way a hand-written or ``html.parser`` pass goes
wrong (comments that end elsewhere in a browser, RAWTEXT/RCDATA elements,
foreign content, end of input) turns inert HTML into live markup once the
linkifier writes its own idea of the tree back.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

from ._checks import check_str
from ._htmlcost import parse_cost
from ._rawhtml import RAW_TEXT
from .errors import OptionError
from .linkifier import Linkifier, LinkifierOptions, adapter_linkifier
from .options import prefilter

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["ALWAYS_SKIPPED", "DEFAULT_SKIP_TAGS", "linkify_html"]

# Elements whose content never gains links, whatever skip_tags says (D40):
# links themselves; RAWTEXT, RCDATA, script data and PLAINTEXT, whose text is
# not markup (a link would be shown as its source); template contents, which
# are not in the document; foreign content (svg, math), where `a` is another
# element and HTML parsing rules differ; select and its parts, where what the
# parser accepts has changed (the 2025 customizable <select>).
ALWAYS_SKIPPED = RAW_TEXT | {"plaintext", "a", "template", "svg", "math", "select", "option", "optgroup", "datalist"}
# Skipped by default, on top of ALWAYS_SKIPPED: code, and buttons (a link
# inside interactive content is invalid HTML).  The Markdown adapters skip
# the same elements (uts58._rawhtml.SKIPPED).
DEFAULT_SKIP_TAGS = ALWAYS_SKIPPED | {"pre", "code", "button"}

_NOSCRIPT = re.compile(r"(?i)<noscript")
# Inputs where lexbor's tree is not the browser's (found by the Chromium
# check of tests/test_html5.py), returned unchanged: NUL (lexbor reads "<\0"
# otherwise), lone surrogates (not encodable: lexbor drops them), and a
# character reference to CR (lexbor makes it LF; the DOM keeps CR, which no
# serialization can reproduce), and a "<!" or "--!" cut by the end of input
# (lexbor fills that comment with the text before it); <image> (lexbor drops
# it in tables, browsers make it <img>) and <search> (special in lexbor, not
# in Chromium 156).  Foreign content and templates, anywhere, even inside a
# skipped element: the round trip cannot vouch for them, as a serialization
# does not show namespaces (a foreign-content namespace flip, the <mglyph>
# mutation XSS, would pass unseen; lexbor also writes the text of
# <svg><style> unescaped), and lexbor's template contents differ from
# browsers' (html5lib-tests template.dat).
_UNFAITHFUL = re.compile(
    r"[\x00\ud800-\udfff]|&#(?:0*13(?![0-9])|[xX]0*[dD](?![0-9a-fA-F]))|(?:<!|--!)\Z"
    r"|(?i:<(?:svg|math|template|image|search)(?=[\t\n\f\r />]|\Z))"
)
# HTML5 parsing is not linear on hostile input (deep stacks, reconstructed
# formatting elements, many attributes: _htmlcost), and browsers cap the
# depth of the tree at 512 (Chromium): a fragment whose bound exceeds either
# comes back unchanged, unparsed (D40).
MAX_DEPTH = 512
_WORK_PER_CHARACTER = 64
_WORK_FLOOR = 1 << 16
# Without events, lexbor does not run its per-insertion callbacks (which
# made <select> with many <option>s quadratic).
_OPTIONS = LexborDocumentOptions.WO_EVENTS
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*\Z")
# A text node can only hold a link if it has a label separator or an '@'.


def linkify_html(
    fragment: str,
    *,
    skip_tags: Iterable[str] = DEFAULT_SKIP_TAGS,
    context: str = "div",
    linkifier: Linkifier | None = None,
    **options: Unpack[LinkifierOptions],
) -> str:
    """Linkify the text of an HTML fragment, parsed as ``<context>.innerHTML``.

    Text inside ``skip_tags`` (default :data:`DEFAULT_SKIP_TAGS`: ``pre``,
    ``code``, ``button``; :data:`ALWAYS_SKIPPED` — ``a``, raw text, ``template``,
    ``svg``/``math``, ``select`` — is always skipped) is left alone.  The
    links are those of ``linkifier`` (a :class:`uts58.Linkifier`), or of the
    options of one as keyword arguments (``attrs``, ``rel``, ``target``,
    ``display``, ``callback``, ``kinds``, ``policy``, ``finder`` or
    ``schemes``, ...), not both.  Each link keeps the text it had
    (``link_text="display"`` shows the §4 display form instead, as
    ``display=`` does: the display form shortened).

    The output is the parser's serialization of the linkified tree: the same
    DOM as the input plus the links.  A fragment without links is returned
    unchanged, byte for byte, and so is one whose tree the serializer cannot
    reproduce (the mutation-XSS shapes; see D40).

    >>> linkify_html('<p class=x>see example.com</p><a href="/">example.org</a><code>a.com</code>')
    '<p class="x">see <a href="https://example.com/">example.com</a></p><a href="/">example.org</a><code>a.com</code>'
    """
    check_str(fragment, "fragment")
    check_str(context, "context")
    if isinstance(skip_tags, str):
        raise TypeError("skip_tags must be an iterable of tag names, not a str")
    if options.get("format", "html") != "html":
        raise OptionError("linkify_html writes HTML: format must be 'html'", option="format")
    if not _TAG_NAME.match(context):
        raise OptionError(f"context must be an HTML element name, not {context!r}", option="context")
    skip = {_tag_name(t) for t in skip_tags} | ALWAYS_SKIPPED
    linker = adapter_linkifier(linkifier, {k: v for k, v in options.items() if k != "format"}, "linkify_html")
    context = context.lower()
    finder = linker.finder
    may_link = prefilter(finder.schemes, finder.bare_localhost)
    if context in skip or not may_link.search(fragment) or _UNFAITHFUL.search(fragment):
        return fragment
    # Consumers that parse with scripting off (sanitizers: html5ever/nh3,
    # html5lib) read <noscript> content as markup, browsers as text: a
    # fragment with one is checked in both readings.
    noscript = _NOSCRIPT.search(fragment) is not None
    for scripting in (True, False) if noscript else (True,):
        cost = parse_cost(fragment, scripting=scripting)
        if cost is None or cost.depth > MAX_DEPTH or cost.work > _WORK_FLOOR + _WORK_PER_CHARACTER * len(fragment):
            return fragment
    try:
        tree = LexborHTMLParser(fragment, is_fragment=True, fragment_tag=context, scripting=True, options=_OPTIONS)
    except ValueError:
        raise OptionError(f"context: the HTML parser does not know the element {context!r}", option="context") from None
    # With a <noscript>, linked only if both readings serialize alike.
    before = (tree.html or "") if noscript else ""
    changed = False
    for node in _text_nodes(tree.root, skip):
        text = node.text_content
        if not text or not may_link.search(text):
            continue
        snippet = linker.render(text)
        if "<a " not in snippet:
            continue
        parts = _parse_snippet(snippet)
        if parts is None:
            continue
        for part in parts:
            node.insert_before(part)
        node.decompose()
        changed = True
    if not changed:
        return fragment
    out = tree.html or ""
    # The serializer must give back this very tree: parse what it wrote and
    # serialize again.  A tree that does not survive the round trip (the
    # mutation-XSS shapes: foreign content breakouts, misnested forms, ...)
    # would reach the browser as another tree, so the input stays as it was.
    if _reserialize(out, context, scripting=True) != out:
        return fragment
    if noscript and (
        _reserialize(fragment, context, scripting=False) != before or _reserialize(out, context, scripting=False) != out
    ):
        return fragment
    return out


def _reserialize(html: str, context: str, *, scripting: bool) -> str:
    tree = LexborHTMLParser(html, is_fragment=True, fragment_tag=context, scripting=scripting, options=_OPTIONS)
    return tree.html or ""


def _tag_name(tag: object) -> str:
    if not isinstance(tag, str):
        raise TypeError(f"skip_tags must hold tag names (str), not {type(tag).__name__}")
    return tag.lower()


def _text_nodes(first: LexborNode | None, skip: set[str]) -> list[LexborNode]:
    """The text nodes of the fragment that are not inside a skipped element,
    in document order (an iterative walk: depth costs no stack)."""
    found: list[LexborNode] = []
    node = first
    depth = 0
    while node is not None:
        if node.is_text_node:
            found.append(node)
        elif node.is_element_node and (node.tag or "") not in skip:
            child = node.first_child
            if child is not None:
                node = child
                depth += 1
                continue
        while node is not None and node.next is None and depth > 0:
            node = node.parent
            depth -= 1
        node = None if node is None else node.next
    return found


def _parse_snippet(snippet: str) -> list[LexborNode] | None:
    """The nodes of ``linkify``'s output for a text node; None unless they are
    exactly text and ``a`` elements holding text (anything else is left as it
    was).  The text's parent is an ordinary element (the others are skipped),
    so a ``div`` context parses the snippet as the parent would."""
    parsed = LexborHTMLParser(snippet, is_fragment=True, fragment_tag="div", scripting=True, options=_OPTIONS)
    parts: list[LexborNode] = []
    node = parsed.root
    while node is not None:
        if not node.is_text_node:
            child = node.first_child
            if node.tag != "a" or child is None or not child.is_text_node or child.next is not None:
                return None
        parts.append(node)
        node = node.next
    return parts or None
