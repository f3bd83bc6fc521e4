"""uts58.compat.django against Django's own urlize and urlizetrunc (D114).

The same generated inputs (plain URLs, ``www.``, bare domains, emails,
trailing punctuation, brackets, quotes, IDNs and non-Latin text, HTML
special characters; values marked safe; autoescape on and off, nofollow,
trim limits) go through ``django.utils.html.urlize`` /
``django.template.defaultfilters`` and through ``uts58.compat.django``.
Where the two outputs are not the same string, each link that differs is
put in one of the intended differences of :data:`CLASSES` by a predicate
of its own; a difference no predicate explains fails the test.  The counts
are those of docs/migrating-from-django.md (``python
tests/unit/test_compat_django.py`` prints the table).
"""

from __future__ import annotations

import html
import inspect
import itertools
import random
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

import pytest
from ada_url import URL

import uts58
from uts58 import Linkifier, Policy
from uts58.compat import django as compat
from uts58.output.display import DisplayOptions

django_html = pytest.importorskip("django.utils.html", reason="Django is the reference of the comparison")
from django.template import defaultfilters  # noqa: E402
from django.utils.safestring import SafeData, SafeString, mark_safe  # noqa: E402

URLIZER = django_html.Urlizer()
DOCS = Path(__file__).resolve().parents[2] / "docs" / "migrating-from-django.md"

# --------------------------------------------------------------------------
# The inputs

URLS = [
    "http://example.com",
    "https://example.com/",
    "https://example.com/path?q=1&r=2#frag",
    "http://example.com/a_(b)",
    "https://en.wikipedia.org/wiki/Foo_(bar)",
    "http://127.0.0.1:8000/x",
    "HTTP://EXAMPLE.COM/A",
    "https://example.com/a%20b",
    "http://example.com/~user/",
    "https://example.com/search?q=a+b&lang=en",
    "https://docs.djangoproject.com/en/5.2/ref/templates/",
    "http://example.com:8080/",
    "https://user@example.com/",
    "https://example.com/ä/ö?x=ü",
    "http://localhost:8000/",
    "https://例え.jp/パス",
    "http://[::1]/",
    "https://example.com/a.b.c/",
    "https://example.com/'quoted'",
    "https://example.com/x;y",
    "https://example.com/x!",
    "ftp://example.com/file",
    "https://example.com/#/route",
    "https://example.com/?flag",
]
WWW = ["www.example.com", "www.example.org/path", "www.bücher.de", "WWW.EXAMPLE.NET", "www.example.com/a?b=c"]
BARE = [
    "example.com",
    "example.org/x",
    "djangoproject.com",
    "sub.example.net",
    "example.de",
    "example.co.uk",
    "example.io",
    "example.edu/courses",
    "bücher.de",
    "пример.рф",
    "例え.jp",
    "exa_mple.com",
    "example.com/a/b/c/d/e/f/g",
    "x.com",
    "a.b.c.d.example.mil",
    "setup.py",
    "раураl.com",
]
EMAILS = [
    "x@example.com",
    "first.last@sub.example.org",
    "a+b@example.net",
    "x@bücher.de",
    "user@localhost",
    "x@example",
    "user.name+tag@example.co.uk",
    "名前@例え.jp",
    "mailto:x@example.com",
]
WORDS = ["see", "and", "visit", "Hello", "the", "日本語", "по-русски", "note:", "or", "—", "text", "العربية", "😀"]
LEAD = ["(", "[", "<", '"', "'", "「", "（", "«", "*"]
TRAIL = [".", ",", "!", "?", ":", ";", ")", "]", "'", '"', "…", "。", "」", "）", "»", ">", "...", ").", "),"]
SPECIAL = ["<", ">", "&", "&amp;", '"', "'", "<b>", "&lt;", "a&b", "x<y", "&#39;", "&copy;"]
SEPARATORS = [" ", " ", " ", "\n", "\t", "  ", ""]


@dataclass(frozen=True)
class Case:
    text: str
    autoescape: bool
    nofollow: bool
    limit: int | None
    safe: bool  # the value is the text escaped and marked safe
    filter: bool  # Django's template filters (nofollow always) instead of the function

    @property
    def value(self) -> str:
        return django_html.escape(self.text) if self.safe else self.text

    def untrimmed(self) -> Case:
        return Case(self.text, self.autoescape, self.nofollow, None, self.safe, self.filter)


def _fragment(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.5:
        link = rng.choice(URLS if r < 0.17 else WWW if r < 0.24 else BARE if r < 0.4 else EMAILS)
        if rng.random() < 0.3:
            link = rng.choice(LEAD) + link
        if rng.random() < 0.4:
            link += rng.choice(TRAIL)
        return link
    return rng.choice(WORDS) if r < 0.87 else rng.choice(SPECIAL)


def _text(rng: random.Random) -> str:
    out = _fragment(rng)
    for _ in range(rng.randint(0, 5)):
        out += rng.choice(SEPARATORS) + _fragment(rng)
    return out


@cache
def cases() -> tuple[Case, ...]:
    """1,440 cases, deterministic: each text under one of 36 configurations
    in turn (the function with and without nofollow, and the filters)."""
    rng = random.Random(58)
    configs = [
        (autoescape, nofollow, limit, safe, filter)
        for autoescape in (True, False)
        for limit in (None, 12, 24)
        for safe in (False, True)
        for nofollow, filter in ((False, False), (True, False), (True, True))
    ]
    found: dict[Case, None] = {}
    while len(found) < 1440:
        found.setdefault(Case(_text(rng), *configs[len(found) % len(configs)]))
    return tuple(found)


def django_output(case: Case) -> str:
    if case.filter:
        if case.limit is None:
            return str(defaultfilters.urlize(case.value, autoescape=case.autoescape))
        return str(defaultfilters.urlizetrunc(case.value, case.limit, autoescape=case.autoescape))
    return str(django_html.urlize(case.value, case.limit, case.nofollow, case.autoescape))


def uts58_output(case: Case) -> str:
    if case.filter:
        if case.limit is None:
            return str(compat.urlize_filter(case.value, autoescape=case.autoescape))
        return str(compat.urlizetrunc(case.value, case.limit, autoescape=case.autoescape))
    return compat.urlize(case.value, case.limit, case.nofollow, case.autoescape)


# --------------------------------------------------------------------------
# Reading an output back: its links, placed in the text

ANCHOR = re.compile(r'<a href="([^"]*)"((?: [a-z-]+="[^"]*")*)>(.*?)</a>', re.S)
ATTRIBUTE = re.compile(r' ([a-z-]+)="([^"]*)"')


@dataclass
class Anchor:
    start: int  # in Case.text
    end: int
    href: str
    attrs: dict[str, str]
    shown: str  # the text shown, as a reader sees it
    written: str  # as the output writes it


def _keep(s: str) -> str:
    return s


def parse(case: Case, out: str, ours: bool) -> tuple[str, list[Anchor]]:
    """The text a reader of ``out`` sees (escaped text read back) and its
    links, placed in that text."""
    raw = not case.autoescape and not case.safe
    plain = _keep if raw else html.unescape
    # (with autoescape off Django writes a link's text as it was; uts58 escapes it)
    link_text = html.unescape if ours or not raw else _keep
    seen = ""
    found: list[Anchor] = []
    last = 0
    for m in ANCHOR.finditer(out):
        seen += plain(out[last : m.start()])
        shown = link_text(m.group(3))
        attrs = {k: html.unescape(v) for k, v in ATTRIBUTE.findall(m.group(2))}
        found.append(Anchor(len(seen), len(seen) + len(shown), html.unescape(m.group(1)), attrs, shown, m.group(3)))
        seen += shown
        last = m.end()
    return seen + plain(out[last:]), found


def _places(seen: str, text: str) -> list[int] | None:
    """Where each position of ``seen`` is in ``text``, when ``seen`` is
    ``text`` without some of Django's trailing punctuation (".,:;!"), else None."""
    places, j = [], 0
    for c in seen:
        while j < len(text) and text[j] != c and text[j] in ".,:;!":
            j += 1
        if j == len(text) or text[j] != c:
            return None
        places.append(j)
        j += 1
    if any(c not in ".,:;!" for c in text[j:]):
        return None
    return [*places, j]


def read(case: Case, out: str, ours: bool) -> tuple[list[Anchor], bool]:
    """The links of ``out``, placed in the case's text, and whether the
    output lost some of that text.  A shortened link is placed where the
    output without a limit has it (a limit changes no link's place)."""
    whole = out if case.limit is None else uts58_output(case.untrimmed()) if ours else django_output(case.untrimmed())
    seen, placed = parse(case, whole, ours)
    lost = seen != case.text
    who = "uts58" if ours else "Django"
    places = None if ours else _places(seen, case.text)
    assert not lost or places is not None, f"{who}: {whole!r} does not show {case.text!r}"
    if case.limit is not None:
        shortened = parse(case, out, ours)[1]
        assert len(shortened) == len(placed), f"{who}: {out!r} has other links than {whole!r}"
        for a, b in zip(shortened, placed, strict=True):
            a.start, a.end = b.start, b.end
        placed = shortened
    if places is not None and lost:
        for a in placed:
            a.start, a.end = places[a.start], places[a.end - 1] + 1
    return placed, lost


# --------------------------------------------------------------------------
# The intended differences, each with its predicate

HTTPS = "https:// for links written without a scheme"
WHATWG = "hrefs as the WHATWG URL parser serializes them"
IDN = "IDN hosts as A-labels"
QUERY = "the query as written"
MAILTO = "mailto: as UTS #58 §5.3 formats it"
TRIM = "a shortened link keeps its host, shows the display form, has a title"
ESCAPED = "a link's text is escaped with autoescape off"
POLICY = "the §8 policy leaves deceptive links as text"
NOT_A_LINK = "Django links words in which UTS #58 finds no link"
TLDS = "bare domains under every TLD"
EMAIL = "email addresses Django does not link"
GLUED = "links glued to text or punctuation"
ENDS = "UTS #58 starts or ends links elsewhere"
UNSAFE = "autoescape off: the filters' result is not marked safe"
LOST = "Django loses a comma or period after a closing bracket"
IPV6 = "URLs with an IPv6 host"
PATTERN = "bare domains Django's pattern misses"
DJANGO_TLDS = ("com", "edu", "gov", "int", "mil", "net", "org")
CLASSES = (
    HTTPS,
    WHATWG,
    IDN,
    QUERY,
    MAILTO,
    TRIM,
    ESCAPED,
    UNSAFE,
    POLICY,
    TLDS,
    PATTERN,
    IPV6,
    EMAIL,
    GLUED,
    ENDS,
    NOT_A_LINK,
    LOST,
)


class Unexplained(AssertionError):
    pass


@cache
def _linkifier(policy: Policy | None, limit: int | None) -> Linkifier:
    display: DisplayOptions | None = None if limit is None else {"max_length": max(1, limit)}
    return Linkifier(schemes=("http", "https"), link_text="original", policy=policy, display=display)


def django_view(case: Case) -> tuple[str, list[int]]:
    """The string Django reads and where each position of the text is in it."""
    if not case.safe:
        return case.text, list(range(len(case.text) + 1))
    offsets = [0]
    for c in case.text:
        offsets.append(offsets[-1] + len(django_html.escape(c)))
    return case.value, offsets


def django_word(case: Case, start: int, end: int) -> tuple[str, str, bool]:
    """The word Django reads around a span (words split at whitespace and
    ``<>"\'``), after its punctuation trimming; the text of that trimmed
    word outside the span (as the text is, not escaped); whether the word
    is the span."""
    seen, offsets = django_view(case)
    s, e = offsets[start], offsets[end]
    while s > 0 and not URLIZER.word_split_re.match(seen[s - 1]):
        s -= 1
    while e < len(seen) and not URLIZER.word_split_re.match(seen[e]):
        e += 1
    lead, middle, trail = URLIZER.trim_punctuation(seen[s:e])
    s, e = s + len(lead), e - len(trail)
    decode = html.unescape if case.safe else _keep
    outside = decode(seen[s : max(s, offsets[start])] + seen[min(e, offsets[end]) : e])
    return middle, outside, middle == seen[offsets[start] : offsets[end]]


def href_classes(case: Case, d: Anchor, u: Anchor) -> set[str]:
    """Why the hrefs of one link differ: each difference is undone in
    Django's href in turn, and what is left must be the same URL to the
    WHATWG URL parser."""
    found: set[str] = set()
    dh, uh = d.href, u.href
    if dh.startswith("mailto:") and uh.startswith("mailto:"):
        d_local, _, d_domain = dh[7:].rpartition("@")
        u_local, _, u_domain = uh[7:].rpartition("@")
        if unquote(d_local) != u_local or uts58.hosts.whatwg.idna_to_ascii(unquote(d_domain)) != u_domain:
            raise Unexplained(f"mailto: {dh} / {uh}")
        if d_local != u_local:
            found.add(MAILTO)  # Django percent-encodes "+" and others in the local part
        if d_domain != u_domain:
            found.add(IDN)  # Django: percent-encoded UTF-8
        return found
    if not re.match(r"(?i)https?://", case.text[d.start : d.end]) and dh.startswith("http://"):
        if uh.startswith("https://"):
            found.add(HTTPS)
            dh = "https://" + dh[7:]
    if not URL.can_parse(dh) or not URL.can_parse(uh):
        raise Unexplained(f"href {dh} / {uh}")
    du, uu, parts = URL(dh), URL(uh), urlsplit(dh)
    if "%" in parts.netloc and du.hostname == uu.hostname != parts.hostname:
        found.add(IDN)  # Django writes the host percent-encoded, the parser makes an A-label of it
        dh = dh.replace(parts.netloc, parts.netloc.replace(parts.hostname or "", uu.hostname), 1)
    if du.search != uu.search or (uh.endswith("?") and not dh.endswith("?")):
        # Django's smart_urlquote: urlencode(parse_qsl(query, keep_blank_values=True)).
        if urlencode(parse_qsl(uu.search[1:], keep_blank_values=True)) != du.search[1:]:
            raise Unexplained(f"query {dh} / {uh}")
        found.add(QUERY)
        du.search = uu.search
        dh = du.href if uu.search or not uh.endswith("?") else du.href + "?"
    if dh != uh:
        if URL(dh).href != uh:
            raise Unexplained(f"href {dh} / {uh}")
        found.add(WHATWG)
    return found


def same_place_classes(case: Case, d: Anchor, u: Anchor) -> set[str]:
    """Why one link, at the same place in both, is written differently."""
    found = href_classes(case, d, u) if d.href != u.href else set()
    raw = not case.autoescape and not case.safe
    if case.limit is not None:
        seen, offsets = django_view(case)
        django_shown = URLIZER.trim_url(seen[offsets[d.start] : offsets[d.end]], limit=case.limit)
        if case.autoescape and not case.safe:
            django_shown = django_html.escape(django_shown)
        (own,) = [a for a in _linkifier(None, case.limit).anchors(case.text) if a.start == u.start]
        if d.written != django_shown or (u.shown, u.attrs.get("title")) != (own.text, own.attrs.get("title")):
            raise Unexplained(f"shortened {d} / {u}")
        if (d.shown, d.attrs.get("title")) != (u.shown, u.attrs.get("title")):
            found.add(TRIM)
    elif d.shown != u.shown:
        raise Unexplained(f"text {d.shown!r} / {u.shown!r}")
    elif raw and d.written != u.written:
        if html.unescape(u.written) != d.written:
            raise Unexplained(f"written {d.written!r} / {u.written!r}")
        found.add(ESCAPED)
    others = ({**d.attrs}, {k: v for k, v in u.attrs.items() if k != "title"})
    others[0].pop("title", None)
    if others[0] != others[1]:
        raise Unexplained(f"attributes {d.attrs} / {u.attrs}")
    return found


def django_only(case: Case, d: Anchor) -> str:
    """A link of Django's where uts58 has none."""
    unchecked = _linkifier(Policy.none(), None).anchors(case.text)
    if any(a.start < d.end and d.start < a.end for a in unchecked):
        return POLICY
    return NOT_A_LINK  # (not even without the policy: no URL to UTS #58 there)


def uts58_only(case: Case, u: Anchor) -> str:
    """A link of uts58's where Django has none."""
    middle, outside, alone = django_word(case, u.start, u.end)
    if not alone:
        # Django's word holds more than the link: letters or digits glued to
        # it, or punctuation it does not trim (」, », …) where UTS #58 ends the link.
        return GLUED if any(c.isalnum() for c in outside) else ENDS
    if u.href.startswith("mailto:"):
        if ":" in middle or not URLIZER.is_email_simple(middle):
            return EMAIL
    elif not URLIZER.simple_url_re.match(middle) and not URLIZER.simple_url_2_re.match(middle):
        if u.href.startswith(("http://[", "https://[")):
            return IPV6
        if "." in middle and not middle.lower().startswith("www."):
            tld = re.split(r"[/?#:]", middle, maxsplit=1)[0].rstrip(".").rpartition(".")[2].lower()
            return PATTERN if tld in DJANGO_TLDS else TLDS
    raise Unexplained(f"uts58 links {middle!r}, Django does not")


def other_place(case: Case, ds: list[Anchor], us: list[Anchor]) -> str:
    """Links that overlap but start or end elsewhere, or are cut in two."""
    text = case.text
    ones, many = (ds, us) if len(ds) == 1 else (us, ds)
    if len(ones) != 1:
        raise Unexplained(f"{ds} / {us}")
    (one,) = ones
    # Where the two readings part: the starts, the ends, the gaps between the many.
    edges = [(min(one.start, many[0].start), max(one.start, many[0].start))]
    edges += [(a.end, b.start) for a, b in itertools.pairwise(many)]
    edges += [(min(one.end, many[-1].end), max(one.end, many[-1].end))]
    parts = [text[a:b] for a, b in edges if a < b]
    if all(unicodedata.category(part[0])[0] in "PS" for part in parts):
        return ENDS  # each at a punctuation mark: UTS #58 §3.5 against Django's word splitting and trimming
    if not any(c.isspace() for c in text[edges[0][0] : edges[-1][1]]):
        return GLUED  # letters glued to a link: one word to Django
    raise Unexplained(f"{ds} / {us}")


def _same_place(a: Anchor, b: Anchor) -> bool:
    return (a.start, a.end) == (b.start, b.end)


@dataclass
class Outcome:
    case: Case
    same: bool  # the same HTML
    same_links: bool  # links at the same places (their hrefs or texts may differ)
    classes: frozenset[str]


def compare(case: Case) -> Outcome:
    d_out, u_out = django_output(case), uts58_output(case)
    found: set[str] = set()
    if case.filter and not isinstance(u_out, SafeData):
        found.add(UNSAFE)
    if d_out == u_out:
        return Outcome(case, True, True, frozenset(found))
    (ds, lost), (us, _) = read(case, str(d_out), False), read(case, str(u_out), True)
    if lost:
        found.add(LOST)
    # Group the links that overlap.
    groups: list[tuple[list[Anchor], list[Anchor]]] = []
    for a, ours in sorted([(a, False) for a in ds] + [(a, True) for a in us], key=lambda x: x[0].start):
        if groups and a.start < max(x.end for x in groups[-1][0] + groups[-1][1]):
            groups[-1][ours].append(a)
        else:
            groups.append(([], [a]) if ours else ([a], []))
    for d_links, u_links in groups:
        if not u_links:
            found.update(django_only(case, d) for d in d_links)
        elif not d_links:
            found.update(uts58_only(case, u) for u in u_links)
        elif len(d_links) == len(u_links) == 1 and (d_links[0].start, d_links[0].end) == (
            u_links[0].start,
            u_links[0].end,
        ):
            found |= same_place_classes(case, d_links[0], u_links[0])
        else:
            found.add(other_place(case, d_links, u_links))
    if not found - {UNSAFE}:
        raise Unexplained(f"{d_out!r} / {u_out!r}")
    same_links = [(a.start, a.end) for a in ds] == [(a.start, a.end) for a in us]
    return Outcome(case, False, same_links, frozenset(found))


@cache
def comparison() -> tuple[Outcome, ...]:
    return tuple(compare(case) for case in cases())


def counts() -> Counter[str]:
    found: Counter[str] = Counter()
    for outcome in comparison():
        found["the same HTML" if outcome.same else "different HTML"] += 1
        found["links at the same places"] += outcome.same_links
        found.update(outcome.classes)
    return found


def table() -> str:
    """The counts as the migration guide shows them (Markdown)."""
    found = counts()
    names = ("the same HTML", "different HTML", "links at the same places", *CLASSES)
    rows = [f"| {name} | {found[name]} |" for name in names]
    return "\n".join(["| | inputs |", "|---|---|", *rows])


# --------------------------------------------------------------------------
# The comparison


def test_the_inputs_are_many_and_of_every_kind() -> None:
    all_cases = cases()
    assert len(all_cases) >= 1000 and len(set(all_cases)) == len(all_cases)
    texts = " ".join(case.text for case in all_cases)
    for kind in (URLS, WWW, BARE, EMAILS, LEAD, TRAIL, SPECIAL):
        assert sum(item in texts for item in kind) >= len(kind) - 1, kind
    assert any(not c.isascii() for c in texts)
    for field in ("autoescape", "nofollow", "safe", "filter"):
        assert {getattr(case, field) for case in all_cases} == {True, False}
    assert {case.limit for case in all_cases} == {None, 12, 24}


def test_every_difference_from_django_is_intended(capsys: pytest.CaptureFixture[str]) -> None:
    """Each case is the same HTML, or each of its differences is one of
    CLASSES by that class's predicate (compare() raises Unexplained otherwise)."""
    outcomes = comparison()
    found = counts()
    with capsys.disabled():
        print(f"\nuts58.compat.django against Django {django_version()}, {len(outcomes)} inputs:\n{table()}")
    same = found["the same HTML"]
    assert same + found["different HTML"] == len(outcomes) >= 1000
    assert 0.1 < same / len(outcomes) < 1  # a measured share: neither nothing nor everything
    assert same < found["links at the same places"] < len(outcomes)
    assert all(outcome.classes for outcome in outcomes if not outcome.same)
    # Every listed difference occurs: the list (and the guide) has no stale entry.
    assert [name for name in CLASSES if not found[name]] == []


def test_the_migration_guide_has_these_counts() -> None:
    guide = DOCS.read_text(encoding="utf-8")
    assert table() in guide, "update docs/migrating-from-django.md: python tests/unit/test_compat_django.py"
    for name in CLASSES:
        assert f"**{name}**" in guide, f"the guide does not explain {name!r}"


def django_version() -> str:
    import django

    return str(django.__version__)


# --------------------------------------------------------------------------
# The same interface


def test_the_signatures_are_djangos() -> None:
    for ours, theirs in (
        (compat.urlize, django_html.urlize),
        (compat.urlize_filter, defaultfilters.urlize),
        (compat.urlizetrunc, defaultfilters.urlizetrunc),
    ):
        ours_params = [(p.name, p.default) for p in inspect.signature(ours).parameters.values()]
        theirs_params = [(p.name, p.default) for p in inspect.signature(inspect.unwrap(theirs)).parameters.values()]
        assert ours_params == theirs_params
    for name in ("urlize_filter", "urlizetrunc"):
        theirs = getattr(defaultfilters, name.removesuffix("_filter"))
        assert (getattr(compat, name).is_safe, getattr(compat, name).needs_autoescape) == (
            theirs.is_safe,
            theirs.needs_autoescape,
        )


@pytest.mark.parametrize("autoescape", [True, False])
@pytest.mark.parametrize("safe", [True, False])
def test_safe_strings_in_and_out(autoescape: bool, safe: bool) -> None:
    """As Django: urlize() returns a plain str; the filters mark their
    result safe, but (D49) not text nobody escaped (autoescape off, a value
    not marked safe): Django marks that safe too."""
    value = mark_safe("x &amp; <b>example.com</b>") if safe else "x & <b>example.com</b>"
    assert type(compat.urlize(value, autoescape=autoescape)) is str
    assert type(django_html.urlize(value, autoescape=autoescape)) is str
    for ours, theirs in (
        (compat.urlize_filter(value, autoescape), defaultfilters.urlize(value, autoescape)),
        (compat.urlizetrunc(value, "8", autoescape), defaultfilters.urlizetrunc(value, "8", autoescape)),
    ):
        assert isinstance(theirs, SafeString)
        assert isinstance(ours, SafeString) is (autoescape or safe)
        if safe:  # (HTML read as HTML: the <b> stays an element, its text is linked)
            assert "<b><a href=" in ours and "&lt;" not in ours
        elif autoescape:
            assert ours.startswith("x &amp; &lt;b&gt;<a href=") and theirs.startswith("x &amp; &lt;b&gt;")
        else:
            assert ours.startswith("x & <b><a href=")


def test_a_safe_value_is_read_as_html() -> None:
    """Nothing is linked inside a tag, an attribute or an existing link
    (Django splits a safe value into words and links inside attributes)."""
    value = mark_safe('<img alt="www.example.com"> <a href="/go" title="see x.org">here example.org</a> see b.org')
    for out in (compat.urlize(value), compat.urlize_filter(value), compat.urlizetrunc(value, 5)):
        assert out.startswith('<img alt="www.example.com"> <a href="/go" title="see x.org">here example.org</a> see ')
        assert out.count("<a ") == 2 and 'href="https://b.org/"' in out


def test_nofollow_and_limits() -> None:
    text = "see example.com/a/long/path and x@example.org"
    out = compat.urlize(text, nofollow=True)
    assert out.count('rel="nofollow"') == 1 and '<a href="mailto:x@example.org">' in out  # as Django
    assert django_html.urlize(text, nofollow=True).count('rel="nofollow"') == 1
    assert compat.urlize(text, 15) == compat.urlizetrunc(text, "15", autoescape=False).replace(' rel="nofollow"', "")
    # Django shows "…" alone below 2; the host is never cut, so 0 and 1 show the same.
    assert compat.urlize(text, 0) == compat.urlize(text, 1) != compat.urlize(text)
    with pytest.raises(TypeError, match="trim_url_limit must be int or None, not str"):
        compat.urlize(text, "15")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="invalid literal"):
        compat.urlizetrunc(text, "x")  # as Django's int(limit)
    assert compat.urlize(None) == "None" == django_html.urlize(None)  # (str(value), as Django)
    assert compat.urlize_filter(42) == "42"


@pytest.fixture(scope="module")
def django_settings() -> None:
    from django.conf import settings

    if not settings.configured:
        settings.configure(TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates"}])
    import django

    django.setup()


def test_load_in_templates(django_settings: None) -> None:
    from django.template import Context, Engine

    value = "<i> example.com/a/long/path x@example.org"
    expected = compat.urlizetrunc(value, 12)
    engine = Engine(libraries={"uts58_urlize": "uts58.compat.django"})
    out = engine.from_string("{% load uts58_urlize %}{{ v|urlizetrunc:12 }}").render(Context({"v": value}))
    assert out == expected and 'href="https://example.com/a/long/path"' in out
    out = engine.from_string("{% load uts58_urlize %}{% autoescape off %}{{ v|urlize }}{% endautoescape %}")
    assert out.render(Context({"v": value})) == compat.urlize_filter(value, autoescape=False)
    # As a builtin, every urlize of the project is uts58's, with no {% load %}.
    engine = Engine(builtins=["uts58.compat.django"])
    assert engine.from_string("{{ v|urlize }}").render(Context({"v": value})) == compat.urlize_filter(value)
    # Without either, Django's own.
    assert 'href="http://example.com/a/long/path"' in Engine().from_string("{{ v|urlize }}").render(
        Context({"v": value})
    )


def test_django_is_imported_only_when_used() -> None:
    code = (
        "import sys, uts58.compat.django as d; d.urlize('x.org'); print('django' in sys.modules); "
        "d.register; print('django' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]


if __name__ == "__main__":
    print(table())
