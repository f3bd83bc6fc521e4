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

import html as html_module
import inspect
import re
import sys
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..base.checks import check_str
from ..detect.options import prefilter
from ..errors import OptionError, UnlinkedWarning
from ..output.anchor import anchor_html, attributes_html
from ..output.linkifier import Linkifier, LinkifierOptions, adapter_linkifier
from ._check import Context, Written, check, dom_text, probe, serialization
from ._cost import parse_cost
from .raw import RAW_TEXT
from .text import DEFAULT_SKIP, Run, document_start, open_elements, parse_selectors, scan
from .textview import TextView

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = [
    "ALWAYS_SKIPPED",
    "DEFAULT_SKIP",
    "DEFAULT_SKIP_TAGS",
    "LinkifiedHTML",
    "Unlinked",
    "linkify_html",
    "linkify_html_result",
]

# Elements whose content never gains links, whatever skip_tags says (D40):
# links themselves; RAWTEXT, RCDATA, script data and PLAINTEXT, whose text is
# not markup (a link would be shown as its source); template contents, which
# are not in the document; foreign content (svg, math), where `a` is another
# element and HTML parsing rules differ; select and its parts, where what the
# parser accepts has changed (the 2025 customizable <select>).
ALWAYS_SKIPPED = RAW_TEXT | {"plaintext", "a", "template", "svg", "math", "select", "option", "optgroup", "datalist"}
# Skipped by default, on top of ALWAYS_SKIPPED: code, and buttons (a link
# inside interactive content is invalid HTML).  The Markdown adapters skip
# the same elements (uts58.html.raw.SKIPPED).
DEFAULT_SKIP_TAGS = ALWAYS_SKIPPED | {"pre", "code", "button"}

_NOSCRIPT = re.compile(r"(?i)<noscript")
# A second <html> or <body> start tag adds its attributes to the element
# (an opt-out marker, late): input with one after the first cut is checked whole.
_ROOT_TAGS = re.compile(r"(?i)<(html|body)[\t\n\f\r />]")
# Lone surrogates cannot be written as UTF-8, which the parser reads: such
# input is returned as it is.
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SPACES = "[\t\n\f\r ]*"
_STANDARD = re.compile(
    rf"(?i)<!doctype[\t\n\f\r ]+html{_SPACES}(?:system{_SPACES}[\"']about:legacy-compat[\"']{_SPACES})?>"
)
# HTML5 parsing is not linear on hostile input (deep stacks, reconstructed
# formatting elements, many attributes: _htmlcost), and browsers cap the
# depth of the tree at 512 (Chromium): input whose bound exceeds either
# comes back unchanged, unparsed (D40).
MAX_DEPTH = 512
# D133: where links stop.  Chromium's 512 counts the elements the parser
# opens that the model does not (a document's implied html and body, a
# fragment's root), and a link's text is one level below its text: past
# 510 of the model's levels it builds the link elsewhere (found in Chromium).
LINK_DEPTH = MAX_DEPTH - 2
_WORK_PER_CHARACTER = 64
_WORK_FLOOR = 1 << 16
# Large input is checked piece by piece, cut where the tokenizer is in its
# data state and a few start tags give back the parser's state (D109): the
# memory a parse takes (about 12 bytes per character in lexbor) is then that
# of a piece, not of the whole input.
CHUNK = 1 << 18
# The checks spent on one piece whose links do not all check: a link found
# missing is dropped, otherwise the links are halved (then: unlinked).
_CHECKS = 16
# Cuts refused by the probe before the rest is checked as one piece (each
# refusal costs a parse of a longer piece).
_REFUSALS = 2
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*\Z")


def linkify_html(
    fragment: str,
    *,
    skip_tags: Iterable[str] = DEFAULT_SKIP_TAGS,
    skip: Iterable[str] = DEFAULT_SKIP,
    context: str | None = None,
    document: bool | None = None,
    linkifier: Linkifier | None = None,
    **options: Unpack[LinkifierOptions],
) -> str:
    """Linkify the text of HTML: a fragment (parsed as ``<context>.innerHTML``) or a whole document.

    Text inside ``skip_tags`` (default :data:`DEFAULT_SKIP_TAGS`: ``pre``,
    ``code``, ``button``; :data:`ALWAYS_SKIPPED` — ``a``, raw text, ``template``,
    ``svg``/``math``, ``select`` — is always skipped) or inside an element
    that matches one of the ``skip`` selectors (default :data:`DEFAULT_SKIP`:
    ``.no-linkify``, ``.nolinkify``, ``[data-nolinkify]``,
    ``[contenteditable]``; the syntax is ``tag``, ``.class``, ``[attr]``,
    ``[attr=value]``, ``[attr~=word]`` and their compounds) is left alone.
    The links are those of ``linkifier`` (a :class:`uts58.Linkifier`), or
    of the options of one as keyword arguments (``attrs``, ``rel``,
    ``target``, ``display``, ``callback``, ``kinds``, ``policy``, ``finder``
    or ``schemes``, ...), not both.  Each link keeps the text it had
    (``link_text="display"`` shows the §4 display form instead).

    A document (a doctype or ``<html>`` first, or ``document=True``) is
    read as a browser reads a page, a fragment as ``element.innerHTML``
    (of a ``div``, or of the ``context`` element: a context given means a
    fragment).
    The links are written into the input, which is otherwise returned byte
    for byte (doctype, ``html``/``head``/``body`` and their attributes,
    comments, quoting), and only if a parse of the output gives the DOM of
    the input plus the links (D109); a link that would not is left out.

    Input that nests deeper than a browser builds links (510 elements) or would
    cost a parse more than linear work is linked up to where it passes that
    bound and returned as it is from there, with an
    :class:`~uts58.errors.UnlinkedWarning` saying where (D133);
    :func:`linkify_html_result` reports the same as a value.

    >>> linkify_html('<p class=x>see example.com</p><a href="/">example.org</a><code>a.com</code>')
    '<p class=x>see <a href="https://example.com/">example.com</a></p><a href="/">example.org</a><code>a.com</code>'
    """
    html, unlinked = _linkified(fragment, skip_tags, skip, context, document, linkifier, options)
    if unlinked is not None:
        warnings.warn(
            UnlinkedWarning(unlinked.message(fragment), start=unlinked.start, reason=unlinked.bound), stacklevel=2
        )
    return html


_ARGUMENTS = inspect.signature(linkify_html)  # (linkify_html_result takes the same, declared once)


def linkify_html_result(fragment: str, **arguments: Any) -> LinkifiedHTML:
    """:func:`linkify_html` (the same arguments), with where it stopped
    linking as a value instead of a warning (D133).

    >>> result = linkify_html_result("<p>see example.com</p>" + "<div>" * 600 + "b.org")
    >>> result.html.count("<a "), result.unlinked
    (1, Unlinked(start=2572, bound='depth'))
    """
    try:
        bound = _ARGUMENTS.bind(fragment, **arguments)
    except TypeError as exc:
        raise TypeError(f"linkify_html_result: {exc}") from None
    bound.apply_defaults()
    a = bound.arguments
    return LinkifiedHTML(
        *_linkified(a["fragment"], a["skip_tags"], a["skip"], a["context"], a["document"], a["linkifier"], a["options"])
    )


def _linkified(
    fragment: str,
    skip_tags: Iterable[str],
    skip: Iterable[str],
    context: str | None,
    document: bool | None,
    linkifier: Linkifier | None,
    options: LinkifierOptions,
) -> tuple[str, Unlinked | None]:
    """linkify_html's work: the HTML written, and where linking stopped (None: it did not)."""
    left_alone = None
    check_str(fragment, "fragment")
    if context is not None:
        check_str(context, "context")
        if document:
            raise OptionError("context is the element a fragment is parsed in: not for a document", option="context")
    if isinstance(skip_tags, str):
        raise TypeError("skip_tags must be an iterable of tag names, not a str")
    if document is not None and not isinstance(document, bool):
        raise TypeError(f"document must be True, False or None, not {type(document).__name__}")
    if options.get("format", "html") != "html":
        raise OptionError("linkify_html writes HTML: format must be 'html'", option="format")
    if context is not None and not _TAG_NAME.match(context):
        raise OptionError(f"context must be an HTML element name, not {context!r}", option="context")
    skipped = frozenset(_tag_name(t) for t in skip_tags) | ALWAYS_SKIPPED
    selectors = parse_selectors(skip)
    linker = adapter_linkifier(linkifier, {k: v for k, v in options.items() if k != "format"}, "linkify_html")
    # A context given says the input is a fragment (it is never read as a document).
    is_document, doctype = document_start(fragment)
    if document is None:
        document = is_document and context is None
    context = "div" if context is None else context.lower()
    finder = linker.finder
    may_link = prefilter(finder.schemes, finder.bare_localhost)
    if (not document and context in skipped) or not may_link.search(fragment) or _SURROGATE.search(fragment):
        return fragment, None
    # Consumers that parse with scripting off (sanitizers: html5ever/nh3,
    # html5lib) read <noscript> content as markup, browsers as text: input
    # with one is checked in both readings, whole.
    noscript = _NOSCRIPT.search(fragment) is not None
    # D133: what lies past D40's bounds is left as it is, what comes before is linked.
    limit, bound = within_bounds(fragment, noscript)
    if limit < len(fragment):
        left_alone = Unlinked(limit, bound)
        if limit == 0:
            return fragment, left_alone
    if not document:
        doctype = ""
    gap = 0 if noscript or len(fragment) <= CHUNK or _late_root(fragment, CHUNK) else CHUNK
    contexts = [
        Context(document, context, "", scripting, skipped, selectors) for scripting in (True, False)[: 1 + noscript]
    ]
    out: list[str] = []
    start, prefix, runs = 0, "", []
    refused = 0
    # No doctype, or one of the HTML 4 era: quirks mode (approximately, and
    # only to know whether <table> closes a <p>; the check decides).
    quirks = document and not _STANDARD.match(doctype)
    for event in scan(fragment, skipped, selectors, quirks=quirks, gap=gap):
        if isinstance(event, Run):
            if event.end > limit:
                break
            runs.append(event)
            continue
        if event.at > limit:
            break
        if event.at <= start or refused >= _REFUSALS:
            continue
        # The cut is made only where the parser, run on this piece after its
        # own start tags, is in the state the next piece's start tags give.
        if not probe(fragment[start : event.at], contexts[0]._replace(prefix=prefix), open_elements(event.open)):
            refused += 1
            continue
        out.append(_piece(fragment, start, event.at, runs, linker, may_link, contexts, prefix))
        start, runs = event.at, []
        prefix = doctype + "".join(event.open)
    # The last piece ends at the limit: where it is not the end, the parser is
    # in its data state before a tag or text, and the links (each closed, in
    # the piece's text) leave its state as the input had it.
    out.append(_piece(fragment, start, limit, runs, linker, may_link, contexts, prefix))
    out.append(fragment[limit:])
    return "".join(out), left_alone


class Unlinked(NamedTuple):
    """Where :func:`linkify_html` stopped linking (D133): from ``start`` (a
    character offset of the input) to its end, the input passes ``bound``:
    ``"unsure"`` (foreign CDATA to the end of input, which the bound's model
    cannot follow), ``"depth"`` (it nests deeper than 510 elements, where browsers build
    another tree) or ``"work"`` (a parse would cost more than linear work)."""

    start: int
    bound: str

    def message(self, html: str) -> str:
        line = html.count("\n", 0, self.start) + 1
        column = self.start - (html.rfind("\n", 0, self.start) + 1) + 1
        why = {
            "depth": f"the HTML nests deeper than {LINK_DEPTH} elements",
            "work": "parsing it would cost more than linear work",
        }.get(self.bound, "the parser's state there cannot be followed (CDATA to the end of input)")
        return f"left unlinked from line {line}, column {column} (character {self.start}) to the end: {why} (D133)"


class LinkifiedHTML(NamedTuple):
    """What :func:`linkify_html_result` returns: the ``html`` written, and
    ``unlinked``: where linking stopped, or None when all of the input was
    looked at."""

    html: str
    unlinked: Unlinked | None


def within_bounds(html: str, noscript: bool) -> tuple[int, str]:
    """How far ``html`` parses within D40's bounds (depth, work linear in
    its whole length), with scripting on and, with a ``<noscript>``, off:
    ``(len(html), "")``, or where it first passes one and which (D133)."""
    limit, bound = len(html), ""
    work = _WORK_FLOOR + _WORK_PER_CHARACTER * len(html)
    for scripting in (True, False) if noscript else (True,):
        cost = parse_cost(html, scripting=scripting, max_depth=LINK_DEPTH, max_work=work)
        if cost is None:  # (CDATA in foreign content to the end of input: the model cannot follow it)
            return 0, "unsure"
        if 0 <= cost.over < limit:
            limit, bound = cost.over, cost.bound
    return limit, bound


def beyond_bounds(html: str, noscript: bool) -> bool:
    """Would parsing ``html`` cost more than D40's bounds (depth, work
    linear in its length), with scripting on and, with a ``<noscript>``, off?"""
    for scripting in (True, False) if noscript else (True,):
        cost = parse_cost(html, scripting=scripting)
        if cost is None or cost.depth > MAX_DEPTH or cost.work > _WORK_FLOOR + _WORK_PER_CHARACTER * len(html):
            return True
    return False


def _late_root(html: str, first_cut: int) -> bool:
    """May an <html> or <body> start tag add attributes (an opt-out marker)
    to its element after the source is first cut, or twice?"""
    seen = set()
    for m in _ROOT_TAGS.finditer(html):
        name = m.group(1).lower()
        if name in seen or m.start() >= first_cut:
            return True
        seen.add(name)
    return False


def _piece(
    html: str,
    start: int,
    end: int,
    runs: list[Run],
    linker: Linkifier,
    may_link: re.Pattern[str],
    contexts: list[Context],
    prefix: str,
) -> str:
    """``html[start:end]`` with the links of its runs, as far as they check."""
    links: list[tuple[int, int, str, Written]] = []
    for run in runs:
        source = html[run.start : run.end]
        if not may_link.search(source):
            continue
        view = TextView.decoding(source, _CHARREF)
        for s, e, anchor, original in view.anchors(linker):
            text = source[s:e] if original else html_module.escape(anchor.text, quote=False)
            attrs = {"href": anchor.href, **anchor.attrs}
            was = dom_text(source[s:e])
            shown = Written(_lower(attrs), was if original else dom_text(text), was)
            written = anchor_html(anchor.href, attributes_html(anchor.attrs), text)
            links.append((run.start + s - start, run.start + e - start, written, shown))
    before = html[start:end]
    if not links:
        return before
    # Each reading of the piece, with the serialization of the input's tree.
    targets = [(c, serialization(before, c)) for c in (c._replace(prefix=prefix) for c in contexts)]
    budget = [_CHECKS]
    keep = _checked(before, links, targets, budget)
    if keep is None or (len(keep) < len(links) and _failed(_splice(before, keep), keep, targets) is not None):
        return before
    return _splice(before, keep)


_Targets = list[tuple[Context, str]]


def _checked(
    before: str, links: list[tuple[int, int, str, Written]], targets: _Targets, budget: list[int]
) -> list[tuple[int, int, str, Written]] | None:
    """The links that check: all of them, or (divide and conquer, within
    ``budget`` checks) those of the halves that do; None when none."""
    if not links or budget[0] <= 0:
        return None
    budget[0] -= 1
    failed = _failed(_splice(before, links), links, targets)
    if failed is None:
        return links
    if len(links) == 1:
        return None
    if failed < len(links):  # that link is not in the tree as written: the others may be
        rest = links[:failed] + links[failed + 1 :]
        return _checked(before, rest, targets, budget)
    half = len(links) // 2
    first = _checked(before, links[:half], targets, budget) or []
    second = _checked(before, links[half:], targets, budget) or []
    return (first + second) or None


def _failed(after: str, links: list[tuple[int, int, str, Written]], targets: _Targets) -> int | None:
    written = [link[3] for link in links]
    for context, expected in targets:
        failed = check(expected, after, written, context)
        if failed is not None:
            return failed
    return None


def _splice(source: str, links: list[tuple[int, int, str, Written]]) -> str:
    out: list[str] = []
    done = 0
    for s, e, written, _ in links:
        out.append(source[done:s])
        out.append(written)
        done = e
    out.append(source[done:])
    return "".join(out)


def _lower(attrs: dict[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in attrs.items()}


# A character reference in text, as the HTML5 tokenizer reads one (legacy
# names without ";" too: html.unescape decodes what HTML5 does).
_CHARREF = re.compile(r"&(?:#[xX][0-9A-Fa-f]+;?|#[0-9]+;?|[A-Za-z][A-Za-z0-9]*;?)")


def _tag_name(tag: object) -> str:
    if not isinstance(tag, str):
        raise TypeError(f"skip_tags must hold tag names (str), not {type(tag).__name__}")
    return tag.lower()
