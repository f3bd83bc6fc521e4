"""uts58.compat.bleach against bleach itself (D115-D117).

Unit tests of the drop-in (callbacks, chaining, existing links, ignored
arguments, errors), and a comparison suite: bleach's own ``Linker`` and
uts58's on the same generated inputs (fragments with URLs, www. and bare
domains, emails, punctuation, brackets, quotes, IDNs, non-Latin text,
existing links, skip_tags, entities, nested markup, callbacks that drop
links and change href, text or attributes).  The outputs are compared as
DOMs (html5lib), not as strings.  Every disagreement must be one of the
intended differences of DIFFERENCES, each checked by its own predicate;
docs/migrating-from-bleach.md lists them with the counts.
"""

from __future__ import annotations

import ast
import html
import random
import re
import unicodedata
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import pytest
from html5dom import _add_text as add_text
from html5dom import corpus, justhtml_dom, without_marked_links

import uts58.compat.bleach as compat
from uts58 import Linkifier, Policy
from uts58.compat.bleach import DEFAULT_CALLBACKS, IgnoredArgumentWarning, Linker, linkify, nofollow, target_blank
from uts58.detect.evidence import CODE_TLDS, EXTENSION_TLDS
from uts58.errors import UnsafeAttributeError

bleach = pytest.importorskip("bleach", reason="bleach is the reference of the comparison (pip install bleach)")
html5lib = pytest.importorskip("html5lib")
ada_url = pytest.importorskip("ada_url")
bleach_linkifier = pytest.importorskip("bleach.linkifier")
bleach_callbacks = pytest.importorskip("bleach.callbacks")
bleach_shim = pytest.importorskip("bleach.html5lib_shim")

SOURCE = Path(compat.__file__)
BLEACH_TLDS = frozenset(bleach_linkifier.TLDS)
# TLDs that are file extensions too (uts58.detect.evidence, D97).
FILE_TLDS = CODE_TLDS | EXTENSION_TLDS


# ---------------------------------------------------------------- generated inputs

# Things to link, or not: (text, needs parse_email).  Scheme URLs, www. and
# bare domains, paths with brackets and queries, IDNs, new and IDN TLDs, file
# names, IP addresses and localhost, emails; and look-alikes that are none.
CANDIDATES = [
    "http://example.com",
    "https://www.example.org/path/to/page?q=1&x=2#frag",
    "ftp://ftp.example.net/pub/file.txt",
    "http://example.com:8080/a/b",
    "HTTPS://EXAMPLE.COM/UP",
    "svn://svn.example.org/trunk",
    "irc://irc.example.net/chan",
    "https://example.com/a%20b",
    "www.example.com",
    "www.example.co.uk/page.html",
    "example.com",
    "docs.python.org/3/library/re.html",
    "github.com/user/repo/issues/12",
    "sub.domain.example.io/x",
    "en.wikipedia.org/wiki/Foo_(bar)",
    "example.com/a_(b)_c",
    "example.com/?a=1&b=2",
    "example.com/path/",
    "example.com/~user/",
    "bücher.de",
    "münchen.de/straße",
    "пример.рф",
    "www.例子.中国/页",
    "xn--bcher-kva.de",
    "example.dev",
    "my.site.app/login",
    "shop.store",
    "company.tech/about",
    "setup.py",
    "README.md",
    "run.sh",
    "archive.zip",
    "main.rs",
    "notes.txt",
    "http://127.0.0.1:8000/",
    "http://[::1]/x",
    "192.168.0.1",
    "http://localhost:3000/app",
    "exаmple.com",  # a Cyrillic а
    "1.2.3",
    "e.g.",
    "node.js",
    "config.json",
    "obj.method()",
    "user@example.com",
    "first.last+tag@sub.example.org",
    "a_b@example.co.uk",
    "user@bücher.de",
    "имя@пример.рф",
    "x@localhost",
    "mailto:user@example.com",
    "user@example.com/path",
]
# What goes around a candidate: punctuation, brackets and quotes of several scripts.
WRAPPERS = [
    "{}",
    "{}.",
    "{},",
    "{}!",
    "{}?",
    "{}:",
    "{};",
    "{}...",
    "({})",
    "({}).",
    "(see {})",
    "[{}]",
    "&lt;{}&gt;",
    '"{}"',
    "'{}'",
    "«{}»",
    "“{}”",
    "„{}“",
    "「{}」",
    "请访问{}。",
    "{})",
    "{}'s",
    "**{}**",
]
WORDS = ["see", "visit", "the", "and", "siehe", "смотрите", "сайт", "参见", "網站", "انظر", "δείτε", "und", "or", "😀"]
ENTITIES = ["&amp;", "&lt;", "&copy;", "&nbsp;", "&#8212;", "&quot;", "&hellip;"]
EXISTING = [
    '<a href="http://a.example.com/x">a.example.com/x</a>',
    '<a href="/relative">relative link</a>',
    '<a href="mailto:x@example.com">x@example.com</a>',
    '<a rel="nofollow" href="https://b.example.com/">b.example.com</a>',
    '<a rel="external" href="https://c.example.com/">c.example.com</a>',
    "<a>no href c.example.com</a>",
    '<a href="https://d.example.com/" title="t">d <b>bold</b> e.example.com</a>',
    '<a href="#top" class="nav">top</a>',
    '<a href="https://e.example.com/?a=1&amp;b=2">query</a>',
]
BLOCKS = ["p", "div", "li", "blockquote", "h2", "td", "span", "em", "b", "strong", "small", "q", "section", "custom-el"]
BLOCK_ATTRS = ["", ' class="c"', ' title="example.com"', " data-x=1", ' class="note no-linkify"', " contenteditable"]
SKIPPABLE = ["pre", "code", "kbd"]
RAW = ["textarea", "title", "script", "style", "option", "xmp"]

VOID = ["<br>", "<hr>", "<!-- example.com -->", '<img src="http://x.example.com/a.png" alt="example.com">']
SKIP_TAG_SETS: list[frozenset[str] | None] = [None, frozenset({"pre"}), frozenset({"pre", "code"})]


def _redirect(attrs: dict[Any, str], new: bool) -> dict[Any, str]:
    """Changes the href of new links to a path made of their text."""
    if new:
        attrs[(None, "href")] = "/go/" + quote(attrs["_text"], safe="")
    return attrs


def _shorten(attrs: dict[Any, str], new: bool) -> dict[Any, str]:
    """Changes the text of long links."""
    text = attrs["_text"]
    if len(text) > 14:
        attrs["_text"] = text[:12] + "…"
    return attrs


def _drop_example(attrs: dict[Any, str], new: bool) -> dict[Any, str] | None:
    """Drops every link whose href holds 'example.com'."""
    return None if "example.com" in attrs.get((None, "href"), "") else attrs


def _drop_existing(attrs: dict[Any, str], new: bool) -> dict[Any, str] | None:
    """Keeps new links, leaves the existing ones as text."""
    return attrs if new else None


def _add_attributes(attrs: dict[Any, str], new: bool) -> dict[Any, str]:
    """Adds a class and a data attribute, and marks new links."""
    attrs[(None, "class")] = "link"
    attrs[(None, "data-new")] = "yes" if new else "no"
    return attrs


CALLBACK_SETS: dict[str, list[Any]] = {
    "default": [],  # (the default: no callbacks argument)
    "none": [],
    "nofollow+target_blank": ["nofollow", "target_blank"],
    "target_blank": ["target_blank"],
    "redirect": [_redirect],
    "shorten": [_shorten],
    "drop-example": [_drop_example],
    "drop-existing": [_drop_existing],
    "attributes+nofollow": [_add_attributes, "nofollow"],
}


def _callbacks(name: str, side: str) -> list[Any]:
    """The callbacks of a named set for bleach or for uts58 (their own nofollow and target_blank)."""
    module = bleach_callbacks if side == "bleach" else compat
    return [getattr(module, c) if isinstance(c, str) else c for c in CALLBACK_SETS[name]]


@dataclass
class Case:
    fragment: str
    callbacks: str
    skip_tags: frozenset[str] | None
    parse_email: bool


def _text(rng: random.Random) -> str:
    """A run of words, candidates in wrappers and entities."""
    parts = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.55:
            parts.append(rng.choice(WRAPPERS).format(rng.choice(CANDIDATES)))
        elif r < 0.9:
            parts.append(rng.choice(WORDS))
        else:
            parts.append(rng.choice(ENTITIES))
    return " ".join(parts)


def _fragment(rng: random.Random, depth: int = 0) -> str:
    pieces = []
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        if r < 0.45 or depth > 2:
            pieces.append(_text(rng))
        elif r < 0.7:
            tag = rng.choice(BLOCKS)
            if tag == "li":
                pieces.append(f"<ul><li>{_fragment(rng, depth + 1)}</li></ul>")
            elif tag == "td":
                pieces.append(f"<table><tr><td>{_fragment(rng, depth + 1)}</td></tr></table>")
            else:
                attrs = rng.choice(BLOCK_ATTRS)
                pieces.append(f"<{tag}{attrs}>{_fragment(rng, depth + 1)}</{tag}>")
        elif r < 0.82:
            pieces.append(rng.choice(EXISTING))
        elif r < 0.9:
            tag = rng.choice(SKIPPABLE)
            pieces.append(f"<{tag}>{_text(rng)}</{tag}>")
        elif r < 0.95:
            tag, inner = rng.choice(RAW), _text(rng)
            pieces.append(
                f"<select><option>{inner}</option></select>" if tag == "option" else f"<{tag}>{inner}</{tag}>"
            )
        else:
            pieces.append(rng.choice(VOID))
    return rng.choice([" ", "\n"]).join(pieces)


def generated_cases(n: int = 1200, seed: int = 58) -> list[Case]:
    rng = random.Random(seed)
    names = list(CALLBACK_SETS)
    return [Case(_fragment(rng), rng.choice(names), rng.choice(SKIP_TAG_SETS), rng.random() < 0.5) for _ in range(n)]


def run_bleach(case: Case, **extra: Any) -> str:
    options: dict[str, Any] = {"skip_tags": case.skip_tags, "parse_email": case.parse_email, **extra}
    if case.callbacks != "default":
        options["callbacks"] = _callbacks(case.callbacks, "bleach")
    return bleach_linkifier.Linker(**options).linkify(case.fragment)


def run_uts58(case: Case) -> str:
    options: dict[str, Any] = {"skip_tags": case.skip_tags, "parse_email": case.parse_email}
    if case.callbacks != "default":
        options["callbacks"] = _callbacks(case.callbacks, "uts58")
    return Linker(**options).linkify(case.fragment)


# ---------------------------------------------------------------- DOMs


@dataclass(frozen=True)
class Anchor:
    start: int
    end: int
    attrs: tuple[tuple[str, str], ...]

    def get(self, name: str) -> str | None:
        return dict(self.attrs).get(name)


@dataclass
class Flat:
    """A DOM as its text, its structure with the ``a`` elements unwrapped, and its links."""

    tree: Any
    skeleton: Any
    text: str
    anchors: list[Anchor] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)  # the text inside elements uts58 never links inside
    marked: list[tuple[int, int]] = field(default_factory=list)  # the text inside opt-out markers


def dom(
    source: str,
    *,
    blind: frozenset[str] = frozenset(),
    unescape_in: frozenset[str] = frozenset(),
    shorten: bool = False,
) -> Flat:
    """The DOM of ``source`` (html5lib); the skeleton and the text leave out
    what the ``blind`` elements hold; the text
    inside ``unescape_in`` elements has its character references read once more;
    with ``shorten``, each link holds what ``_shorten`` makes of its text."""
    root = html5lib.parseFragment(source, container="div", treebuilder="etree", namespaceHTMLElements=False)
    for a in root.iter("a") if shorten else ():
        shown = _shorten({"_text": "".join(a.itertext())}, True)["_text"]
        if shown != "".join(a.itertext()):
            for child in list(a):
                a.remove(child)
            a.text = shown
    text: list[str] = []
    anchors: list[Anchor] = []
    raw: list[str] = []
    marked: list[tuple[int, int]] = []

    def offset() -> int:
        return sum(map(len, text))

    def walk(element: Any, unescape: bool = False) -> tuple[list[Any], list[Any]]:
        """(children with a kept, children with a unwrapped) of an element, texts merged."""
        full: list[Any] = []
        bare: list[Any] = []

        def add(nodes: list[Any], node: Any) -> None:
            if isinstance(node, str) and nodes and isinstance(nodes[-1], str):
                nodes[-1] += node
            elif node != "":
                nodes.append(node)

        def add_text(value: str | None, inside: bool = unescape) -> None:
            if value and inside:
                value = html.unescape(value)
            if value:
                text.append(value)
                add(full, value)
                add(bare, value)

        add_text(element.text)
        for child in element:
            if not isinstance(child.tag, str):  # a comment
                node = ("#comment", child.text)
                add(full, node)
                add(bare, node)
            else:
                attrs = tuple(sorted((k if isinstance(k, str) else k[1], v) for k, v in child.attrib.items()))
                start = offset()
                if child.tag in NEVER_LINKED:
                    raw.append("".join(child.itertext()))
                if child.tag in blind:
                    add(full, (child.tag, attrs, ("…",)))
                    add(bare, (child.tag, attrs, ("…",)))
                    add_text(child.tail)
                    continue
                inner_full, inner_bare = walk(child, unescape or child.tag in unescape_in)
                if opted_out(dict(attrs)):
                    marked.append((start, offset()))
                add(full, (child.tag, attrs, tuple(inner_full)))
                if child.tag == "a":
                    anchors.append(Anchor(start, offset(), attrs))
                    for node in inner_bare:
                        add(bare, node)
                else:
                    add(bare, (child.tag, attrs, tuple(inner_bare)))
            add_text(child.tail)
        return full, bare

    full, bare = walk(root)
    anchors.sort(key=lambda a: (a.start, a.end))
    return Flat(tuple(full), tuple(bare), "".join(text), anchors, raw, marked)


# ---------------------------------------------------------------- the intended differences

# Each difference: its name in the migration guide, and the predicate (below)
# that must hold for every place it is counted.
DIFFERENCES = {
    "https": "a link without a scheme gets https:// and the WHATWG-serialized URL (bleach: http:// and the text)",
    "whatwg": "an href with a scheme is WHATWG-serialized (a / after the host, percent-encoding)",
    "idn": "IDNs: hosts in the href as A-labels; IDN TLDs (.рф, .中国) linked",
    "mailto": "mailto: keeps the local part as written (bleach percent-encodes +, = and the like)",
    "noopener": "target_blank adds rel=noopener",
    "ends": "UTS #58 ends links better: trailing punctuation, brackets and quotes stay outside",
    "tlds": "TLDs bleach's 2013 list does not know (.dev, .app, .tech, .store...) are linked",
    "ip-localhost": "URLs with a scheme and an IP address or localhost are linked",
    "files": "file names (setup.py, main.rs, README.md) are not linked (D97)",
    "scheme-token": "a URL of a scheme uts58 does not link (svn://, irc://) stays text, whole (D53)",
    "mailto-text": "mailto:address in the text is an email address: linked whole, and only with parse_email=True",
    "skip-entities": "character references inside skip_tags stay as they are (bleach escapes them: &amp;hellip;)",
    "callback-href": "callbacks see uts58's href (https://, WHATWG-serialized): one that tests it may decide otherwise",
    "opt-out": "no links inside .no-linkify, .nolinkify, [data-nolinkify], [contenteditable] (uts58's default skip=)",
    "policy": "hosts the §8 policy refuses (mixed scripts, confusables) are not linked",
    "cjk": "links in unspaced CJK text start and end elsewhere (bleach's \\b is no boundary there; D22, D102)",
    "raw-text": "textarea, title, script, style, xmp stay as they are (bleach writes <a> markup there, shown as text)",
    "recognized-tags": "every element is kept (bleach escapes elements outside recognized_tags)",
    "dropped-markup": "an existing link a callback drops keeps its markup, unwrapped (bleach keeps its text only)",
}

# Where uts58 never links (uts58.html.linkify.ALWAYS_SKIPPED, with what bleach's parser has of it).
NEVER_LINKED = frozenset("textarea title script style xmp iframe noembed noframes noscript plaintext".split())
# Callback sets that drop existing links or change their text (bleach then keeps only their text).
RETEXTING = frozenset({"drop-existing", "drop-example"})
MARKUP_IN_A = re.compile(r"<a\b[^>]*>[^<]*<(?!/a>)")
TAG_NAME = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")
PROTO_RE = re.compile(r"^[\w-]+:/{0,3}", re.IGNORECASE)  # bleach's: does the text have a scheme?
HOST = re.compile(r"(?:[\w+.-]+:/{0,3})?(?:[^@/?#\s]*@)?(\[[^\]]*\]|[^/?#:\s]*)")
IDEOGRAPHS = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


# uts58.html.linkify.DEFAULT_SKIP: the opt-out markers linkify_html skips by default.
OPT_OUT = (".no-linkify", ".nolinkify", "[data-nolinkify]", "[contenteditable]")


def opted_out(attrs: dict[str, str]) -> bool:
    classes = attrs.get("class", "").split()
    return "no-linkify" in classes or "nolinkify" in classes or "data-nolinkify" in attrs or "contenteditable" in attrs


def flatten_links(fragment: str) -> str:
    """``fragment`` with the markup inside its ``<a>`` elements taken out, their text kept."""
    return re.sub(
        r"(<a\b[^>]*>)(.*?)(</a>)", lambda m: m[1] + re.sub(r"<[^>]*>", "", m[2]) + m[3], fragment, flags=re.S
    )


def host_of(link_text: str) -> str:
    """The host of a link's text (the domain of an email address)."""
    if "@" in link_text and "/" not in link_text.split("@")[0]:
        return link_text.rpartition("@")[2].split("/")[0]
    m = HOST.match(link_text)
    return m[1] if m else ""


def tld_of(host: str) -> str:
    label = host.rstrip(".").rpartition(".")[2]
    try:
        return label.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return label.lower()


def is_ip_or_localhost(host: str) -> bool:
    return host.startswith("[") or host.lower() == "localhost" or re.fullmatch(r"[0-9.]+", host) is not None


def href_classes(text: str, b: str | None, u: str | None) -> set[str] | None:
    """Why bleach's href ``b`` and uts58's ``u`` differ for a link of ``text``; None if unexplained."""
    if b is None or u is None:
        return None
    idn = set() if host_of(text).isascii() else {"idn"}
    if b.startswith("mailto:") and u.startswith("mailto:"):
        b_local, _, b_domain = b[7:].rpartition("@")
        u_local, _, u_domain = u[7:].rpartition("@")
        if unquote(b_local) != u_local or ada_url.URL("https://" + b_domain).hostname != u_domain:
            return None
        return idn | ({"mailto"} if b_local != u_local else set())
    if PROTO_RE.match(text) is None:
        if b != "http://" + text or ada_url.URL("https://" + text).href != u:
            return None
        return idn | {"https"}
    if ada_url.URL(b).href != u:
        return None
    return idn | {"whatwg"}


def other_attributes(anchor: Anchor, classes: set[str]) -> dict[str, str]:
    """The attributes besides href, with the noopener that target_blank adds taken out."""
    attrs = dict(anchor.attrs)
    attrs.pop("href", None)
    rel = attrs.get("rel", "").split()
    if attrs.get("target") == "_blank" and "noopener" in rel:
        classes.add("noopener")
        rel.remove("noopener")
        if rel:
            attrs["rel"] = " ".join(rel)
        else:
            del attrs["rel"]
    return attrs


_POLICY_NONE = Linkifier(policy=Policy.none())


def only_bleach(case: Case, flat: Flat, anchor: Anchor) -> str | None:
    """Why bleach links this and uts58 does not; None if unexplained."""
    text = flat.text
    link = text[anchor.start : anchor.end]
    if any(start <= anchor.start and anchor.end <= end for start, end in flat.marked):
        return "opt-out"
    scheme = PROTO_RE.match(link)
    if re.search(r"[A-Za-z][\w+.-]*://\Z", text[: anchor.start]) or (
        scheme and scheme[0].split(":")[0].lower() not in ("http", "https", "ftp", "mailto")
    ):
        return "scheme-token"
    if link.lower().startswith("mailto:") and not case.parse_email:
        return "mailto-text"
    href = anchor.get("href")
    if href is not None and case.callbacks != "default":
        # The callbacks, given the href uts58 writes for this text, drop the link.
        ours = ada_url.URL(link if PROTO_RE.match(link) else "https://" + link).href
        if bleach_linkifier.LinkifyFilter(iter(()), callbacks=_callbacks(case.callbacks, "bleach")).apply_callbacks(
            {(None, "href"): ours, "_text": link}, True
        ) is None and "href" in dict(anchor.attrs):
            return "callback-href"
    if PROTO_RE.match(link) is None and tld_of(host_of(link)) in FILE_TLDS:
        return "files"
    if not list(Linkifier().anchors(link)) and [(a.start, a.end) for a in _POLICY_NONE.anchors(link)] == [
        (0, len(link))
    ]:
        return "policy"
    return None


def only_uts58(text: str, anchor: Anchor) -> str | None:
    """Why uts58 links this and bleach does not; None if unexplained."""
    host = host_of(text[anchor.start : anchor.end])
    if is_ip_or_localhost(host):
        return "ip-localhost"
    if not host.isascii():
        return "idn"
    if tld_of(host) not in BLEACH_TLDS:
        return "tlds"
    return None


def link_ends(text: str, b: Anchor, u: Anchor) -> str | None:
    """Why bleach's and uts58's overlapping links end differently; None if unexplained."""
    before = text[min(b.start, u.start) : max(b.start, u.start)]
    between = before + text[min(b.end, u.end) : max(b.end, u.end)]
    if before.lower() == "mailto:" and u.start < b.start and between == before:
        return "mailto-text"
    if all(not unicodedata.category(c).startswith(("L", "N")) for c in between):
        return "ends"
    start, end = min(b.start, u.start), max(b.end, u.end)
    if IDEOGRAPHS.search(text[max(0, start - 1) : end + 1]) and all(
        IDEOGRAPHS.match(c) or not c.isalnum() or c.isascii() for c in between
    ):
        return "cjk"
    return None


@dataclass
class Outcome:
    classes: set[str] = field(default_factory=set)
    unexplained: list[str] = field(default_factory=list)


def analyse(case: Case) -> Outcome:
    """Compare the DOMs of bleach's and uts58's outputs; name every difference."""
    out = Outcome()
    if case.callbacks == "shorten":
        # Each side's links show what the callback made of their text (raw
        # text and select aside, where bleach's links are text: the comparison
        # without the callback looks at them); the rest is compared without it.
        plain = Case(case.fragment, "none", case.skip_tags, case.parse_email)
        blind = NEVER_LINKED | {"select"}
        for side, run in (("bleach", run_bleach), ("uts58", run_uts58)):
            if dom(run(case), blind=blind).tree != dom(run(plain), blind=blind, shorten=True).tree:
                out.unexplained.append(f"{side}: the links do not show the callback's _text")
        return out if out.unexplained else analyse(plain)
    b, u = dom(run_bleach(case)), dom(run_uts58(case))
    if b.tree == u.tree:
        return out
    if b.skeleton != u.skeleton and case.callbacks in RETEXTING and MARKUP_IN_A.search(case.fragment):
        flat = Case(flatten_links(case.fragment), case.callbacks, case.skip_tags, case.parse_email)
        fb, fu = dom(run_bleach(flat)), dom(run_uts58(flat))
        if fb.skeleton != b.skeleton or fu.skeleton != u.skeleton:
            out.classes.add("dropped-markup")
            case, b, u = flat, fb, fu
    # bleach with the tags of the input recognized: does it escape fewer?
    b_html = run_bleach(case)
    known = frozenset(bleach_shim.HTML_TAGS) | {t.lower() for t in TAG_NAME.findall(case.fragment)}
    recognized = run_bleach(case, recognized_tags=known)
    if dom(recognized).tree != b.tree:
        out.classes.add("recognized-tags")
        b_html, b = recognized, dom(recognized)
    # bleach writes links (and escapes "&") in raw text, where they are text:
    # uts58 keeps the input's raw text, and both are compared without it.
    if b.raw != u.raw and u.raw == dom(case.fragment).raw:
        out.classes.add("raw-text")
        b, u = dom(b_html, blind=NEVER_LINKED), dom(run_uts58(case), blind=NEVER_LINKED)
    blind = NEVER_LINKED if "raw-text" in out.classes else frozenset()
    if b.skeleton != u.skeleton and case.skip_tags:
        unescaped = dom(b_html, blind=blind, unescape_in=case.skip_tags)
        if unescaped.skeleton == u.skeleton:
            out.classes.add("skip-entities")
            b = unescaped
    if b.skeleton != u.skeleton:
        out.unexplained.append("structure")
        return out
    text = u.text
    b_spans = {(a.start, a.end): a for a in b.anchors}
    u_spans = {(a.start, a.end): a for a in u.anchors}
    for span in b_spans.keys() & u_spans.keys():
        ab, au = b_spans[span], u_spans[span]
        if ab.get("href") != au.get("href"):
            why = href_classes(text[span[0] : span[1]], ab.get("href"), au.get("href"))
            if why is None:
                out.unexplained.append(f"href {ab.get('href')!r} {au.get('href')!r}")
            else:
                out.classes |= why
        if other_attributes(ab, out.classes) != other_attributes(au, out.classes):
            out.unexplained.append(f"attributes {ab.attrs} {au.attrs}")
    rest_b = [a for span, a in b_spans.items() if span not in u_spans]
    rest_u = [a for span, a in u_spans.items() if span not in b_spans]
    for ab in rest_b:
        over = [au for au in rest_u if au.start < ab.end and ab.start < au.end]
        if len(over) > 1:
            out.unexplained.append(f"{text[ab.start : ab.end]!r} overlaps several")
        elif over:
            why = link_ends(text, ab, over[0])
            if why is None or other_attributes(ab, out.classes) != other_attributes(over[0], out.classes):
                out.unexplained.append(f"ends {text[ab.start : ab.end]!r} {text[over[0].start : over[0].end]!r}")
            else:
                out.classes.add(why)
            rest_u.remove(over[0])
        else:
            why = only_bleach(case, u, ab)
            if why is None:
                out.unexplained.append(f"only bleach links {text[ab.start : ab.end]!r}")
            else:
                out.classes.add(why)
    for au in rest_u:
        why = only_uts58(text, au)
        if why is None:
            out.unexplained.append(f"only uts58 links {text[au.start : au.end]!r}")
        else:
            out.classes.add(why)
    return out


# ---------------------------------------------------------------- the comparison


@pytest.fixture(scope="module")
def comparison() -> dict[str, Any]:
    cases = generated_cases()
    counts: Counter[str] = Counter()
    unexplained: list[tuple[Case, list[str]]] = []
    for case in cases:
        outcome = analyse(case)
        if outcome.unexplained:
            unexplained.append((case, outcome.unexplained))
        counts.update(outcome.classes or ({"agree"} if not outcome.unexplained else ()))
    return {"cases": cases, "counts": counts, "unexplained": unexplained}


def test_every_difference_from_bleach_is_intended(comparison: dict[str, Any]) -> None:
    """bleach and uts58 on the same ≥1,000 inputs: the DOMs are equal, or
    every difference is one of DIFFERENCES (its predicate holds)."""
    assert len(comparison["cases"]) >= 1000
    assert [(case.fragment, case.callbacks, why) for case, why in comparison["unexplained"][:5]] == []
    counts = comparison["counts"]
    assert set(counts) <= {*DIFFERENCES, "agree"}
    assert counts["agree"] >= 200


def test_the_comparison_covers_every_difference_and_option(comparison: dict[str, Any]) -> None:
    """Each intended difference is met, and each option set is run, so that
    a predicate that stopped matching would show."""
    assert set(comparison["counts"]) == {*DIFFERENCES, "agree"}
    cases = comparison["cases"]
    assert {case.callbacks for case in cases} == set(CALLBACK_SETS)
    assert {case.skip_tags for case in cases} == set(SKIP_TAG_SETS)
    assert {case.parse_email for case in cases} == {True, False}


def counts_table(comparison: dict[str, Any]) -> str:
    """The table of docs/migrating-from-bleach.md: inputs per difference, most first."""
    counts = comparison["counts"]
    rows = [f"| inputs compared | {len(comparison['cases']):,} | |", f"| `agree` | {counts['agree']:,} | same DOM |"]
    for name in sorted(DIFFERENCES, key=lambda name: (-counts[name], name)):
        rows.append(f"| `{name}` | {counts[name]:,} | {DIFFERENCES[name]} |")
    return "\n".join(["| class | inputs | difference |", "|---|---:|---|", *rows])


def test_the_guide_has_the_counts(comparison: dict[str, Any]) -> None:
    """docs/migrating-from-bleach.md states each difference and the counts of this run."""
    guide = (Path(__file__).parents[2] / "docs" / "migrating-from-bleach.md").read_text()
    table = counts_table(comparison)
    assert table in guide, "docs/migrating-from-bleach.md should hold this table:\n" + table


# ---------------------------------------------------------------- the drop-in itself

ATTRS_SAMPLES: list[dict[Any, str]] = [
    {(None, "href"): "http://example.com", "_text": "example.com"},
    {(None, "href"): "mailto:x@example.com", "_text": "x@example.com"},
    {(None, "href"): "MAILTO:x@example.com", "_text": "x@example.com"},
    {(None, "href"): "/x", (None, "rel"): "external", "_text": "x"},
    {(None, "href"): "/x", (None, "rel"): "NoFollow  ugc", "_text": "x"},
    {(None, "title"): "no href", "_text": "x"},
    {"_text": ""},
]


@pytest.mark.parametrize("new", [True, False])
@pytest.mark.parametrize("attrs", ATTRS_SAMPLES)
def test_nofollow_is_bleachs(attrs: dict[Any, str], new: bool) -> None:
    """nofollow: rel gets nofollow on every link with an href but mailto: ones, as bleach's."""
    assert nofollow(dict(attrs), new) == bleach_callbacks.nofollow(dict(attrs), new)


@pytest.mark.parametrize("new", [True, False])
@pytest.mark.parametrize("attrs", ATTRS_SAMPLES)
def test_target_blank_is_bleachs_with_noopener(attrs: dict[Any, str], new: bool) -> None:
    """target_blank: as bleach's (not on mailto: links), and noopener in rel (D115)."""
    ours, theirs = target_blank(dict(attrs), new), bleach_callbacks.target_blank(dict(attrs), new)
    if theirs.get((None, "target")) != "_blank":
        assert ours == theirs
        return
    rel = ours.pop((None, "rel")).split()
    assert rel[-1] == "noopener" and rel.count("noopener") == 1
    assert theirs.pop((None, "rel"), "").split() == rel[:-1]
    assert ours == theirs


def test_default_callbacks_are_immutable_and_concatenate() -> None:
    """DEFAULT_CALLBACKS is nofollow alone, cannot be changed in place, and
    bleach's idiom DEFAULT_CALLBACKS + [target_blank] still gives a list."""
    assert tuple(DEFAULT_CALLBACKS) == (nofollow,)
    assert DEFAULT_CALLBACKS + [target_blank] == [nofollow, target_blank]  # noqa: RUF005 (the idiom under test)
    assert [target_blank] + DEFAULT_CALLBACKS == [target_blank, nofollow]  # noqa: RUF005
    assert not hasattr(DEFAULT_CALLBACKS, "append")
    out = linkify("a.example.com", callbacks=DEFAULT_CALLBACKS + [target_blank])  # noqa: RUF005
    assert out == '<a href="https://a.example.com/" rel="nofollow noopener" target="_blank">a.example.com</a>'


def test_callbacks_are_chained_and_none_leaves_text() -> None:
    """Each callback gets what the previous one returned, with bleach's keys
    and the new flag; None stops the chain and leaves the new link as text."""
    seen: list[tuple[str, dict[Any, str], bool]] = []

    def first(attrs: dict[Any, str], new: bool) -> dict[Any, str] | None:
        seen.append(("first", dict(attrs), new))
        return None if "drop" in attrs["_text"] else {**attrs, (None, "data-first"): "1"}

    def second(attrs: dict[Any, str], new: bool) -> dict[Any, str]:
        seen.append(("second", dict(attrs), new))
        return attrs

    out = linkify("keep.example.com drop.example.com", callbacks=[first, second])
    assert out == '<a href="https://keep.example.com/" data-first="1">keep.example.com</a> drop.example.com'
    assert seen == [
        ("first", {(None, "href"): "https://keep.example.com/", "_text": "keep.example.com"}, True),
        (
            "second",
            {(None, "href"): "https://keep.example.com/", "_text": "keep.example.com", (None, "data-first"): "1"},
            True,
        ),
        ("first", {(None, "href"): "https://drop.example.com/", "_text": "drop.example.com"}, True),
    ]


def test_a_callback_changes_href_text_and_attributes() -> None:
    """href, _text (str() of it, as bleach) and attributes, namespaced keys by their name."""

    def change(attrs: dict[Any, str], new: bool) -> dict[Any, Any]:
        attrs[(None, "href")] = "/out?to=" + quote(attrs[(None, "href")], safe="")
        attrs[("http://www.w3.org/1999/xlink", "title")] = "t"
        attrs["_text"] = 42  # type: ignore[assignment]
        return attrs

    assert linkify("see example.com.", callbacks=[change]) == (
        'see <a href="/out?to=https%3A%2F%2Fexample.com%2F" title="t">42</a>.'
    )


def test_existing_links_run_through_the_callbacks() -> None:
    """Existing links get the callbacks with new=False and their text: nofollow
    adds rel, None unwraps them (their markup kept, their text not linked),
    a new _text replaces their content (D116)."""
    source = '<p>x <a href="http://u.example.com/" title="t">u <b>b</b> v.example.com</a> y.example.com</p>'
    assert linkify(source) == (
        '<p>x <a href="http://u.example.com/" title="t" rel="nofollow">u <b>b</b> v.example.com</a>'
        ' <a href="https://y.example.com/" rel="nofollow">y.example.com</a></p>'
    )
    seen: list[tuple[str, bool]] = []

    def record(attrs: dict[Any, str], new: bool) -> dict[Any, str]:
        seen.append((attrs["_text"], new))
        return attrs

    linkify(source, callbacks=[record])
    assert seen == [("y.example.com", True), ("u b v.example.com", False)]
    assert linkify(source, callbacks=[lambda attrs, new: attrs if new else None]) == (
        '<p>x u <b>b</b> v.example.com <a href="https://y.example.com/">y.example.com</a></p>'
    )
    assert linkify("<a href=/x></a>b.example.com<a>c</a>", callbacks=[lambda attrs, new: attrs if new else None]) == (
        '<a href="https://b.example.com/">b.example.com</a>c'
    )

    def retext(attrs: dict[Any, str], new: bool) -> dict[Any, str]:
        attrs["_text"] = attrs["_text"].upper()
        return attrs

    assert linkify(source, callbacks=[retext]) == (
        '<p>x <a href="http://u.example.com/" title="t">U B V.EXAMPLE.COM</a>'
        ' <a href="https://y.example.com/">Y.EXAMPLE.COM</a></p>'
    )


def test_existing_links_keep_their_bytes_unless_a_callback_changes_them() -> None:
    """Without a change to an existing link, the input stays byte for byte
    outside the new links: mailto: links, links that have nofollow, no callbacks."""
    source = "<p class=x>a.example.com <a href=mailto:x@example.com>x</a> <a href=/y rel=nofollow>y</a>"
    assert linkify(source) == source.replace(
        "a.example.com", '<a href="https://a.example.com/" rel="nofollow">a.example.com</a>'
    )
    assert linkify("<a href=/z>z</a>", callbacks=[]) == "<a href=/z>z</a>"


def test_changes_d84_refuses_are_not_made_to_existing_links() -> None:
    """A callback that adds an unsafe href leaves an existing link as it was
    (and a new link as text, D84); one that adds an attribute no link carries
    is an error naming it, on existing links and new ones (D134)."""
    handler = [lambda attrs, new: {**attrs, (None, "onclick"): "alert(1)"}]
    script = [lambda attrs, new: {**attrs, (None, "href"): "javascript:alert(1)"}]
    no_href = [lambda attrs, new: {k: v for k, v in attrs.items() if k != (None, "href")}]
    source = "<a href=/z>z</a> a.example.com"
    for text in (source, "<a href=/z>z</a>", "a.example.com"):
        with pytest.raises(UnsafeAttributeError, match="'onclick' is an event handler"):
            linkify(text, callbacks=handler)
    assert linkify(source, callbacks=script) == source
    assert linkify(source, callbacks=no_href) == "<a>z</a> a.example.com"
    # an unsafe href the input had stays, as bleach leaves it: linkify does not sanitize
    assert linkify("<a href=javascript:x>z</a>") == '<a href="javascript:x" rel="nofollow">z</a>'


@pytest.mark.parametrize(
    "source",
    [
        "<svg><a href=/in>in</a></svg><a href=/out>out</a>",
        "<math></math><a href=/out>out</a>",
        "<template><a href=/t>t</a></template><a href=/out>out</a>",
        "<form id=a><div></form><form id=b><a href=/out>out</a>",  # (no round trip: nested forms)
    ],
)
def test_existing_links_stay_where_a_serialization_cannot_be_vouched_for(source: str) -> None:
    """Foreign content, templates, or a tree that does not survive the round
    trip: the existing links are left as they were (D116)."""
    assert linkify(source) == source


def test_documents_keep_their_frame() -> None:
    """A document's existing and new links get the callbacks; its doctype and frame stay."""
    source = '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body class="b"><a href="/x">x</a>'
    assert linkify(source + "</body></html>") == (
        source.replace('<a href="/x">', '<a href="/x" rel="nofollow">') + "</body></html>"
    )
    assert linkify(source + " a.example.com</body></html>") == (
        source.replace('<a href="/x">', '<a href="/x" rel="nofollow">')
        + ' <a href="https://a.example.com/" rel="nofollow">a.example.com</a></body></html>'
    )


def test_the_mark_of_new_links_never_shows() -> None:
    """New links are told from existing ones by a random mark, never in the
    output; an input that forges the attribute only has an existing link."""
    forged = '<a href="/f" data-uts58-bleach-new="0123">f</a> a.example.com'
    out = linkify(forged)
    assert out == (
        '<a href="/f" data-uts58-bleach-new="0123" rel="nofollow">f</a>'
        ' <a href="https://a.example.com/" rel="nofollow">a.example.com</a>'
    )
    for case in generated_cases(300, seed=7):
        assert "data-uts58-bleach-new" not in run_uts58(case)


@pytest.mark.parametrize("name", ["url_re", "email_re", "recognized_tags"])
def test_arguments_uts58_cannot_honour_warn_and_are_ignored(name: str) -> None:
    """url_re, email_re, recognized_tags: accepted, ignored, and said so (D117)."""
    value = {"url_re": bleach_linkifier.URL_RE, "email_re": bleach_linkifier.EMAIL_RE}.get(name, {"p"})
    with pytest.warns(IgnoredArgumentWarning, match=f"^{name} is ignored"):
        linker = Linker(**{name: value})
    assert linker.linkify("<x-y>example.com</x-y>") == Linker().linkify("<x-y>example.com</x-y>")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Linker(callbacks=[], skip_tags=["pre"], parse_email=True)


def test_skip_tags_and_parse_email() -> None:
    """skip_tags: no links inside them (None: only where uts58 never links);
    parse_email: email addresses too."""
    source = "<pre>a.example.com</pre> <code>b.example.com</code> x@example.com"
    assert linkify(source, callbacks=[]) == (
        '<pre><a href="https://a.example.com/">a.example.com</a></pre>'
        ' <code><a href="https://b.example.com/">b.example.com</a></code> x@example.com'
    )
    assert linkify(source, callbacks=[], skip_tags={"PRE", "code"}, parse_email=True) == (
        '<pre>a.example.com</pre> <code>b.example.com</code> <a href="mailto:x@example.com">x@example.com</a>'
    )


def test_wrong_types_raise_type_errors_naming_the_argument() -> None:
    with pytest.raises(TypeError, match=r"^text must be str, not bytes"):
        linkify(b"example.com")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^text must be str"):
        Linker().linkify(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^callbacks must be an iterable"):
        Linker(callbacks=nofollow)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^callbacks must hold callables"):
        Linker(callbacks=["nofollow"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^skip_tags must be an iterable"):
        Linker(skip_tags="pre")
    with pytest.raises(TypeError, match=r"^skip_tags\[\] must be str"):
        Linker(skip_tags=[1])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^parse_email must be bool"):
        Linker(parse_email="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^a callback must return a dict"):
        linkify("example.com", callbacks=[lambda attrs, new: "x"])
    with pytest.raises(TypeError, match=r"^a callback returned the key 'rel'"):
        linkify("example.com", callbacks=[lambda attrs, new: {**attrs, "rel": "x"}])
    with pytest.raises(TypeError, match="not str"):
        linkify("example.com", callbacks=[lambda attrs, new: {**attrs, (None, "rel"): None}])
    with pytest.raises(TypeError, match="not str"):
        linkify("<a href=/x>x</a>", callbacks=[lambda attrs, new: {**attrs, (None, "rel"): 1}])


def test_linkify_is_linker_linkify() -> None:
    """The function is the Linker of the same arguments; bleach's positional order holds."""
    for case in generated_cases(60, seed=3):
        if case.callbacks == "default":
            continue
        callbacks = _callbacks(case.callbacks, "uts58")
        assert linkify(case.fragment, callbacks, case.skip_tags, case.parse_email) == Linker(
            callbacks, case.skip_tags, case.parse_email
        ).linkify(case.fragment)
    assert linkify("") == ""


def test_the_opt_out_markers_are_linkify_htmls() -> None:
    """The comparison's opt-out predicate follows uts58.html.linkify.DEFAULT_SKIP."""
    import uts58.html.linkify

    assert getattr(uts58.html.linkify, "DEFAULT_SKIP", None) == OPT_OUT
    assert linkify('<p class="a no-linkify">example.com</p><div contenteditable>example.org</div>') == (
        '<p class="a no-linkify">example.com</p><div contenteditable>example.org</div>'
    )


def test_bleach_is_not_imported() -> None:
    """uts58.compat.bleach takes bleach's signatures, not its code."""
    tree = ast.parse(SOURCE.read_text())
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert imported and not [name for name in imported if name.split(".")[0] in ("bleach", "html5lib")]
    assert len(SOURCE.read_text().splitlines()) < 600


def _same(nodes: list[Any], *, drop: str = "", unwrap: bool = False, inside_a: bool = False) -> list[Any]:
    """A justhtml DOM, comparable: attribute ``drop`` taken out; with ``unwrap``,
    each HTML ``a`` (not in another, nor in svg/math) replaced by its children."""
    out: list[Any] = []
    for node in nodes:
        if node[0] == "#text":
            add_text(out, node[1])
        elif node[0].startswith("#"):
            out.append(node)
        elif unwrap and node[0] == "html" and node[1] == "a" and not inside_a:
            for child in _same(node[3], drop=drop, unwrap=True, inside_a=True):
                if child[0] == "#text":
                    add_text(out, child[1])
                else:
                    out.append(child)
        elif unwrap and node[0] == "html" and node[1] in ("svg", "math"):
            out.append(_same([node], drop=drop)[0])
        else:
            inside = inside_a or node[1] == "a"
            kids, content = (_same(n, drop=drop, unwrap=unwrap, inside_a=inside) for n in node[3:5])
            out.append((node[0], node[1], tuple(a for a in node[2] if a[0] != drop), kids, content))
    return out


@pytest.mark.parametrize("change", ["mark", "drop"])
def test_existing_links_keep_the_dom_on_hostile_html(change: str) -> None:
    """On the public XSS/mXSS and html5lib corpora, with existing links and
    link text put between every word: the DOM of the output (justhtml, a
    parser uts58 does not use) is the input's, plus the new links, and with
    the attribute the callback gave the existing links, or without the
    existing links it dropped (D116)."""
    pytest.importorskip("justhtml")

    def callback(attrs: dict[Any, str], new: bool) -> dict[Any, str] | None:
        if not new and change == "drop":
            return None
        attrs[(None, "data-new" if new else "data-old")] = "1"
        return attrs

    linker = Linker(callbacks=[callback])
    document = re.compile(r"(?i)\A\ufeff?(?:[\t\n\f\r ]+|<!--[\s\S]*?-->)*<(?:!doctype|html)[\t\n\f\r />]")
    checked = 0
    for _, source in corpus()[::4]:
        fragment = source.replace(" ", ' <a href="/x">x</a> www.example.com ')
        if "<a" not in fragment or document.match(fragment):
            continue
        out = linker.linkify(fragment)
        nodes, _ = without_marked_links(justhtml_dom(out), "data-new")
        if change == "mark":
            if "data-old" not in out:
                continue  # (left as they were: D116's exceptions)
            assert _same(nodes, drop="data-old") == _same(justhtml_dom(fragment)), fragment
        else:
            if _same(nodes) == _same(justhtml_dom(fragment)):
                continue
            assert _same(nodes) == _same(justhtml_dom(fragment), unwrap=True), fragment
        checked += 1
    assert checked > 1500
