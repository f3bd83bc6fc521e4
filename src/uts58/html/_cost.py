"""An upper bound of what an HTML5 parser does with a fragment, in one pass.

HTML5 tree construction is not linear on hostile input: for many tokens the
parser walks its stack of open elements (40,000 nested ``<div>`` cost lexbor
3 s), reconstructs the active formatting elements that are no longer open
(``<p><b id=1>t</p><p><b id=2>t</p>…``: quadratic time *and* a quadratic
DOM, in every conformant parser), and compares attributes pairwise.
:func:`parse_cost` follows the tokenizer exactly (comments, bogus comments,
tags and their attribute quoting, raw text) and the tree builder loosely,
so that its stack is never shallower and its list of formatting elements
never shorter than the parser's, and returns the deepest stack and the sum,
over the tokens, of the work they may cause.  :func:`uts58.linkify_html`
leaves a fragment alone when that exceeds a budget linear in its length
(docs/decisions.md D40).  Foreign content (svg, math) is modelled so that
its stack too is never shallower than the parser's (D109).
"""

from __future__ import annotations

import re
import sys
from typing import NamedTuple

from .raw import RAW_TEXT, raw_text_end

__all__ = ["Cost", "parse_cost"]

_SPACE = "\t\n\f\r "
# One construct at a "<" (or the text before the next "<").
_COMMENT = re.compile(r"<!--(?:-?>|[\s\S]*?(?:--!?>|\Z))")
_BOGUS = re.compile(r"<(?:[!?]|/(?=[^A-Za-z>]))[^>]*>?")
# A tag as the tokenizer reads it: the name, then attributes whose names may
# hold quotes and start with "=", values quoted (to the same quote or the
# end of input) or not (to white space or ">"); "/" separates.
_TAG = re.compile(
    r"<(/?)([A-Za-z][^\t\n\f\r />]*)"
    r"((?:[\t\n\f\r /]+"
    r"|[^\t\n\f\r />][^\t\n\f\r /=>]*"
    r"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*(?:"|\Z)|'[^']*(?:'|\Z)|[^\t\n\f\r >]*))?"""
    r")*)(>|\Z)"
)
_ATTRIBUTE = re.compile(
    r"""[^\t\n\f\r />][^\t\n\f\r /=>]*(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*(?:"|\Z)|'[^']*(?:'|\Z)|[^\t\n\f\r >]*))?"""
)
_VOID = frozenset(
    "area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr".split()
)
_FORMATTING = frozenset("a b big code em font i nobr s small strike strong tt u".split())
_SPECIAL = frozenset(
    """address applet area article aside base basefont bgsound blockquote body br button caption center col
    colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6
    head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes
    noscript object ol p param plaintext pre script search section select source style summary table tbody td
    template textarea tfoot th thead title tr track ul wbr xmp"""
    # (and foreign content's special elements)
    """ foreignobject desc mi mo mn ms mtext annotation-xml""".split()
)
# Elements an end tag of a special element does not look past (the scopes of
# the standard, together: more boundaries mean fewer pops, a deeper model).
_BOUNDARIES = frozenset(
    "applet caption html table td th marquee object template button ol ul select"
    # (and foreign content's integration points, which bound every scope)
    " foreignobject desc title mi mo mn ms mtext annotation-xml".split()
)
# Start tags that close a p element in button scope (table is left out: in
# quirks mode it does not; li, dd and dt do after closing their siblings).
_CLOSES_P = frozenset(
    """address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form
    h1 h2 h3 h4 h5 h6 header hgroup hr listing main menu nav ol p plaintext pre search section summary ul xmp
    li dd dt""".split()
)
_MARKERS = frozenset("applet object marquee td th caption template".split())
# Start tags that first close the open element on top if it is one of these.
_SIBLINGS = {
    "li": ("li", "p"),
    "dd": ("dd", "dt", "p"),
    "dt": ("dd", "dt", "p"),
    "p": ("p",),
    "option": ("option",),
    "optgroup": ("option", "optgroup"),
    "tr": ("tr", "td", "th"),
    "td": ("td", "th"),
    "th": ("td", "th"),
    "rb": ("rb", "rt", "rp"),
    "rt": ("rb", "rt", "rp"),
    "rp": ("rb", "rt", "rp"),
}
_SECTIONS = ("tbody", "thead", "tfoot")
# Start tags that end foreign content (HTML 13.2.6.5), outside its HTML
# integration points (where HTML's rules hold).
BREAKOUT = frozenset(
    """b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing
    menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var""".split()
)
_INTEGRATION = {
    "svg": frozenset({"foreignobject", "desc", "title"}),
    "math": frozenset({"mi", "mo", "mn", "ms", "mtext", "annotation-xml"}),
}


def breaks_out(name: str, attrs: str) -> bool:
    """Does this start tag end foreign content (outside integration points)?
    ``attrs``: its source after the name (<font> breaks out with a color,
    face or size attribute)."""
    if name != "font":
        return name in BREAKOUT
    names = {m.group().partition("=")[0].rstrip(_SPACE).lower() for m in _ATTRIBUTE.finditer(attrs)}
    return not names.isdisjoint({"color", "face", "size"})


class Foreign:
    """The open elements of foreign content, each with its namespace
    (``svg``, ``math``, or ``html`` under an integration point), as far
    as the tokenizer needs them: is the current node HTML?"""

    __slots__ = ("open",)

    def __init__(self) -> None:
        self.open: list[tuple[str, str]] = []

    def __bool__(self) -> bool:
        return bool(self.open)

    @property
    def integration(self) -> bool:
        """Are HTML's rules the ones in force (an integration point, or an
        HTML element under one, is the current node)?"""
        if not self.open:
            return False
        name, ns = self.open[-1]
        return ns == "html" or name in _INTEGRATION.get(ns, ())

    @property
    def cdata(self) -> bool:
        """Is ``<![CDATA[`` a CDATA section here (the adjusted current node
        is not an HTML element: integration points included)?"""
        return bool(self.open) and self.open[-1][1] != "html"

    @property
    def pure(self) -> bool:
        """Are all the open elements foreign, none an integration point?"""
        return all(ns != "html" and name not in _INTEGRATION[ns] for name, ns in self.open)

    def push(self, name: str) -> None:
        # <svg> and <math> open their namespace from HTML; inside the other
        # one (not at an integration point) they are its elements.
        html = not self.open or self.integration
        ns = (name if name in ("svg", "math") else "html") if html else self.open[-1][1]
        self.open.append((name, ns))

    def close(self, name: str) -> bool:
        """An end tag: pop to the innermost element of that name, if it is
        sure to close (HTML's rules, in force under an integration point,
        stop at special elements: only the current node is sure there;
        foreign content's stop at an HTML element)."""
        if self.integration:
            if self.open[-1][0] == name:
                self.open.pop()
                return True
            return False
        for k in range(len(self.open) - 1, -1, -1):
            if self.open[k][0] == name:
                del self.open[k:]
                return True
            if self.open[k][1] == "html":
                return False
        return False

    def clear(self) -> None:
        self.open.clear()

    def break_out(self) -> int:
        """A tag that breaks out: pop the foreign elements down to an HTML
        element or an integration point (or all); how many were popped."""
        k = len(self.open)
        while k and not (self.open[k - 1][1] == "html" or self.open[k - 1][0] in _INTEGRATION[self.open[k - 1][1]]):
            k -= 1
        popped = len(self.open) - k
        del self.open[k:]
        return popped


def self_closing(attrs: str) -> bool:
    """Does a tag whose source after the name is ``attrs`` end with the
    self-closing flag?  A "/" that ends an unquoted value is the value's."""
    if not attrs.endswith("/"):
        return False
    ends = [m.end() for m in _ATTRIBUTE.finditer(attrs)]
    return not ends or ends[-1] < len(attrs)


def _implied(name: str, top: str) -> tuple[str, ...]:
    """The elements the parser inserts itself before ``name`` when ``top``
    is the open element on top (tbody and tr before a cell of a table)."""
    if name in ("td", "th"):
        return () if top == "tr" else ("tr",) if top in _SECTIONS else ("tbody", "tr")
    if name == "tr":
        return () if top in _SECTIONS else ("tbody",)
    if name == "col":
        return () if top == "colgroup" else ("colgroup",)
    return ()


class Cost(NamedTuple):
    depth: int  # the deepest the stack of open elements may get (with reconstructed formatting elements)
    work: int  # the stack and list entries the tokens may touch, summed
    # With bounds given: where the input first passes one (the start of a
    # tag or of a run of text, where the tokenizer is in its data state), and
    # which ("depth" or "work"); -1 and "" within them.  Parsing stops there.
    over: int = -1
    bound: str = ""


class _Model:
    """The stack of open elements and the list of active formatting
    elements, with per-name indices so that every step is O(1) amortized."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.where: dict[str, list[int]] = {}  # name -> its indices in the stack
        self.last_special: list[int] = []  # per stack entry: index of the topmost special at or below it
        self.last_boundary: list[int] = []
        self.af: list[str | None] = []  # active formatting elements (None: removed)
        self.af_open: list[bool] = []  # whether each is still on the stack
        self.af_where: dict[str, list[int]] = {}
        self.af_closed = 0  # live entries no longer on the stack: what reconstruction clones
        self.af_attrs: list[int] = []  # attributes of each entry (reconstruction copies them)
        self.af_closed_attrs = 0
        self.af_keys: dict[tuple[str, str], list[int]] = {}  # identical entries (Noah's Ark)
        self.af_live: dict[str, int] = {}  # live entries by name
        self.af_key: list[tuple[str, str]] = []
        self.markers: list[int] = []  # the list's length at each marker
        self.af_index: list[int] = []  # per stack entry: its entry in the list, or -1
        self.af_at: list[int] = []  # per stack entry: the list's length when it was pushed
        self.depth = 0

    def push(self, name: str, attributes: tuple[int, str] = (0, "")) -> None:
        i = len(self.stack)
        self.stack.append(name)
        self.where.setdefault(name, []).append(i)
        below_s = self.last_special[-1] if self.last_special else -1
        below_b = self.last_boundary[-1] if self.last_boundary else -1
        self.last_special.append(i if name in _SPECIAL else below_s)
        self.last_boundary.append(i if name in _BOUNDARIES else below_b)
        self.af_at.append(len(self.af))
        if name in _FORMATTING:
            # Noah's Ark: a fourth identical entry since the last marker
            # removes the earliest (the key is the attributes as written,
            # stricter than the parser's: never more removals than it makes).
            key = (name, attributes[1])
            same = self.af_keys.setdefault(key, [])
            marker = self.markers[-1] if self.markers else 0
            live = [k for k in same[-3:] if k >= marker and self.af[k] is not None]
            if len(live) >= 3:
                self._remove_af_at(live[0])
            self.af_index.append(len(self.af))
            self.af_where.setdefault(name, []).append(len(self.af))
            self.af_live[name] = self.af_live.get(name, 0) + 1
            same.append(len(self.af))
            self.af_key.append(key)
            self.af.append(name)
            self.af_open.append(True)
            self.af_attrs.append(attributes[0])
        else:
            self.af_index.append(-1)
        if name in _MARKERS:
            self.markers.append(len(self.af))
        # Reconstruction pushes clones of the formatting elements that are
        # no longer open.
        self.depth = max(self.depth, i + 1 + self.af_closed)

    def pop(self) -> None:
        name = self.stack.pop()
        self.where[name].pop()
        self.last_special.pop()
        self.last_boundary.pop()
        at = self.af_at.pop()
        k = self.af_index.pop()
        if 0 <= k < len(self.af) and self.af[k] is not None and self.af_open[k]:
            self.af_open[k] = False
            self.af_closed += 1
            self.af_closed_attrs += self.af_attrs[k]
        if name in _MARKERS:
            if self.markers:
                self.markers.pop()
            self._truncate_af(at)

    def pop_to(self, index: int) -> None:
        while len(self.stack) > index:
            self.pop()

    def _truncate_af(self, length: int) -> None:
        while len(self.af) > length:
            k = len(self.af) - 1
            name = self.af[k]
            if name is not None:
                self._remove_af_at(k)
            indices = self.af_where.get(self.af_key[k][0])
            if indices and indices[-1] == k:
                indices.pop()
            self.af.pop()
            self.af_open.pop()
            self.af_attrs.pop()
            self.af_keys[self.af_key.pop()].pop()

    def remove_af(self, name: str) -> None:
        indices = self.af_where.get(name)
        while indices and self.af[indices[-1]] is None:
            indices.pop()  # removed earlier by Noah's Ark (lazily dropped here)
        if indices:
            self._remove_af_at(indices.pop())

    def _remove_af_at(self, k: int) -> None:
        name = self.af[k]
        assert name is not None
        self.af_live[name] -= 1
        self.af[k] = None
        if not self.af_open[k]:
            self.af_closed -= 1
            self.af_closed_attrs -= self.af_attrs[k]

    def end_tag(self, name: str) -> None:
        indices = self.where.get(name)
        top = indices[-1] if indices else -1
        if name in _FORMATTING:
            in_scope = top >= 0 and self.last_boundary[-1] <= top
            if top < 0 or in_scope:
                self.remove_af(name)
            # A special element above it stays open (the adoption agency
            # moves it, with a clone of the formatting element): pop only
            # when nothing special is above.
            if in_scope and self.last_special[-1] < top:
                self.pop_to(top)
            return
        if top < 0:
            return
        if name == "form":
            if top == len(self.stack) - 1:
                self.pop()
            return
        if name in _SPECIAL:
            if self.last_boundary[-1] <= top:
                self.pop_to(top)
        elif self.last_special[-1] < top:
            self.pop_to(top)

    def _topmost(self, *names: str) -> int:
        return max((self.where[n][-1] for n in names if self.where.get(n)), default=-1)

    def start_tag(self, name: str, attributes: tuple[int, str]) -> None:
        closes = _SIBLINGS.get(name, ())
        while self.stack and self.stack[-1] in closes:
            self.pop()
        if name in ("td", "th", "tr"):
            # A cell or row start closes the open cell (row) up to its table.
            cell = self._topmost("td", "th") if name != "tr" else self._topmost("tr")
            table = self._topmost("table")
            if cell > table >= 0:  # (outside a table the tag is ignored)
                self.pop_to(cell)
        elif name in _CLOSES_P:
            p = self._topmost("p")
            if p >= 0 and self.last_boundary[-1] < p:  # a p in button scope is closed
                self.pop_to(p)
        elif name in ("a", "nobr") and self.af_live.get(name):
            self.end_tag(name)  # the open one is closed first (adoption agency)
        for parent in _implied(name, self.stack[-1] if self.stack else ""):
            self.push(parent)
        if name not in _VOID:
            self.push(name, attributes)


def parse_cost(
    fragment: str, *, scripting: bool = True, max_depth: int | None = None, max_work: int | None = None
) -> Cost | None:
    """The bound of the module docstring (None is kept for callers: no
    input is too hard to model since script data's escapes are followed).
    With ``max_depth`` or ``max_work``, the model stops where the input
    first passes one, and says where (``over``) and which (``bound``).

    >>> parse_cost("<p>a <b>b</b></p>").depth
    2
    >>> parse_cost("<div>" * 600).depth
    600
    >>> parse_cost("<p>x</p>" + "<div>" * 600, max_depth=512)[2:]  # (the 513th <div> starts at 8 + 512 * 5)
    (2568, 'depth')
    """
    depth_bound = sys.maxsize if max_depth is None else max_depth
    work_bound = sys.maxsize if max_work is None else max_work
    model = _Model()
    work = 0
    merged = {"html": 0, "body": 0}  # attributes added to the root elements so far
    raw_text = RAW_TEXT if scripting else RAW_TEXT - {"noscript"}
    # Foreign content (svg, math): its elements nest where HTML ones would
    # be ignored or closed (<svg><td><td>), its <style> is no raw text, it
    # has CDATA.  Modelled so that the stack is never shallower.
    foreign = Foreign()
    inside = foreign.open  # (its truth, read in the loop: a list's, not a method call)
    foreign_root = 0  # the model's index of the svg or math element that foreign content is in
    i, n = 0, len(fragment)
    tag = 0  # where the last tag modelled starts
    while i < n:
        if model.depth > depth_bound or work > work_bound:  # (that tag passed it)
            return Cost(model.depth, work, tag, "depth" if model.depth > depth_bound else "work")
        j = fragment.find("<", i)
        if j < 0:
            j = n
        if j > i:  # a run of text: one reconstruction of the formatting elements
            work += len(model.stack) + model.af_closed + model.af_closed_attrs
            if work > work_bound:
                return Cost(model.depth, work, i, "work")
        if j >= n:
            break
        if inside and foreign.cdata and fragment.startswith("<![CDATA[", j):
            cdata_end = fragment.find("]]>", j)
            if cdata_end < 0:
                return None  # CDATA to the end, or (if the model is wrong there) a bogus comment: too unsure
            i = cdata_end + 3
            continue
        if fragment.startswith("<!--", j):
            m = _COMMENT.match(fragment, j)
        else:
            m = _TAG.match(fragment, j) or _BOGUS.match(fragment, j)
        if m is None:  # "<" that starts nothing: text
            i = j + 1
            continue
        i = m.end()
        if m.re is not _TAG:
            continue
        end, name, attributes = m.group(1), m.group(2).lower(), m.group(3)
        if m.group(4) == "":  # cut by the end of input: the tag is dropped
            break
        work += len(model.stack) + model.af_closed + model.af_closed_attrs
        tag = j
        if end:
            if not inside:
                model.end_tag(name)
            elif name in ("br", "p") and not foreign.integration:
                model.pop_to(len(model.stack) - foreign.break_out())  # (they break out too)
                if name == "p" and not inside:
                    model.end_tag(name)
            elif foreign.close(name):
                # Only the foreign element of that name closes, with what is in it.
                model.pop_to(model.where[name][-1])
            elif foreign.pure and model.where.get(name) and model.where[name][-1] < foreign_root:
                # An HTML element outside the foreign content: HTML's rules (the model's).
                model.end_tag(name)
                del foreign.open[max(0, len(model.stack) - foreign_root) :]
            # (else: HTML's rules stop at the special elements of foreign content, or match no HTML element)
            continue
        found = [a.group() for a in _ATTRIBUTE.finditer(attributes)]
        count = len(found)
        work += count * count  # duplicate attributes are found pairwise
        if name in merged:  # <html>, <body> in body: merged into the root element, looked up one by one
            work += count * merged[name]
            merged[name] += count
        if name in _FORMATTING:  # Noah's Ark compares it with each entry of its name, attribute by attribute
            work += model.af_live.get(name, 0) * (count * count + 1)
        if inside and len(model.stack) < foreign_root + len(foreign.open):
            del foreign.open[max(0, len(model.stack) - foreign_root) :]  # (popped by HTML's rules)
        if inside and breaks_out(name, attributes) and not foreign.integration:
            model.pop_to(len(model.stack) - foreign.break_out())  # (as the parser does: to the HTML element below)
        if inside:
            in_html = foreign.integration  # (under an integration point the element is HTML: raw text is raw)
            if name not in _VOID if in_html else not self_closing(attributes):
                foreign.push(name)
                model.push(name, (count, ""))
            if not (name in raw_text and in_html):
                continue
        else:
            model.start_tag(name, (count, " ".join(sorted(found))))
            if name in ("svg", "math") and not self_closing(attributes):
                foreign_root = len(model.stack) - 1
                foreign.push(name)
                continue
        if name == "plaintext":
            break
        if name in raw_text:
            stop = raw_text_end(fragment, name, i)
            if stop is None:
                break
            i = stop
    if model.depth > depth_bound or work > work_bound:
        return Cost(model.depth, work, tag, "depth" if model.depth > depth_bound else "work")
    return Cost(model.depth, work)
