"""uts58.output.display: shortening the shown text of a link (D79-D81).

Property tests run over every link found in the conformance files and in
generated text; grapheme boundaries are checked with the ``regex`` module's
``\\X`` (an independent UAX #29 segmenter), escapes with a plain pattern.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from counting import count_grapheme_lookups
from hypothesis import given
from hypothesis import strategies as st

import uts58
from uts58.conformance import data_file, read_detection_test
from uts58.detect.link import Link
from uts58.errors import OptionError
from uts58.output.display import DisplayOptions, Shown, check_display, shorten
from uts58.unicode.graphemes import is_boundary

regex = pytest.importorskip("regex", reason="the grapheme oracle `regex` is in the dev extra (pip install -e .[dev])")

MARK = "\ue000"  # a private-use ellipsis: never in a display form, so it can be found again
LINKS = sorted(
    {
        link
        for v in ("17.0.0", "18.0.0")
        for line in read_detection_test(data_file(v, "LinkDetectionTest.txt"))
        for link in uts58.find_links(line.text)
    },
    key=lambda link: (link.text, link.start),
)
STRIPS = [{}, {"strip_scheme": True, "strip_www": True, "strip_trailing_slash": True}]


def oracle(text: str) -> set[int]:
    return {0, *(m.end() for m in regex.finditer(r"\X", text))}


def in_escape(text: str, p: int) -> bool:
    return any(m.start() < p < m.end() for m in re.finditer(r"%[0-9A-Fa-f]{2}", text))


def host_as_shown(link: Link) -> str:
    """The host as it stands in link.display (Unicode or ASCII form, any case)."""
    shown = link.display.lower()
    for form in (link.host.unicode.lower(), link.host.ascii):
        if form in shown:
            return form
    raise AssertionError(f"no host in {link.display!r}")


def authority_end(full: str, link: Link) -> int:
    """Where the host and its port end in the shown form."""
    host = host_as_shown(link)
    at = full.lower().find(host)
    if at < 0:
        host = host[4:]  # strip_www
        at = full.lower().find(host)
    end = at + len(host)
    m = re.compile(r":[0-9]*").match(full, end)
    return m.end() if m else end


def check(link: Link, options: dict[str, Any]) -> Shown:
    """Every promise of D79-D81 for one link and one set of options."""
    href = link.href
    shown = shorten(link, options)  # type: ignore[arg-type]
    strips = {k: v for k, v in options.items() if k.startswith("strip")}
    full = shorten(link, strips).text  # type: ignore[arg-type]
    text, title = shown
    assert link.href == href  # only the shown text changes
    if link.kind == "email":
        assert shown == (link.display, None)
        return shown
    if not strips or not any(strips.values()):
        assert full == link.display
    ellipsis = options.get("ellipsis", "\u2026")
    limit = options.get("max_length")
    if title is None:  # not truncated
        assert text == full
        if limit is not None and len(text) > limit:
            # Truncating would not shorten it: what must stay (through the
            # host and port) plus the ellipsis is as long as the whole.
            rest = full[authority_end(full, link) :]
            assert len(rest) <= len(ellipsis) + 1 or not rest.isascii(), (full, rest)
        return shown
    assert title == link.display
    assert limit is not None and len(full) > limit
    head, sep, tail = text.partition(ellipsis) if ellipsis == MARK else (None, None, None)
    if ellipsis == MARK:
        assert sep and MARK not in tail
        assert full.startswith(head) and full.endswith(tail) and len(head) + len(tail) < len(full)
        cuts = [len(head), len(full) - len(tail)]
        # Never inside a grapheme cluster (of the full shown form), never inside %XX.
        if all(ord(ch) not in (0x1CF5, 0x1CF6, 0x11A3A) for ch in full):
            assert set(cuts) <= oracle(full), (full, cuts)
        assert not any(in_escape(full, p) for p in cuts)
    # At most max_length, unless it is the shortest text that keeps the host whole.
    if len(text) > limit:
        assert text == shorten(link, {**strips, "max_length": 1, "ellipsis": ellipsis}).text
    host = host_as_shown(link)
    if options.get("strip_www") and host.startswith("www.") and host not in text.lower():
        host = host[4:]
    assert host in text.lower()
    return shown


@pytest.mark.parametrize("location", ["end", "middle", "smart"])
def test_every_conformance_link(location: str) -> None:
    assert len(LINKS) > 200
    truncated = 0
    for link in LINKS:
        for strips in STRIPS:
            for limit in (1, 8, 15, 25, 40):
                for ellipsis in (MARK, "\u2026"):
                    shown = check(link, {**strips, "location": location, "max_length": limit, "ellipsis": ellipsis})
                    truncated += shown.title is not None
    assert truncated > len(LINKS)


WORDS = st.sampled_from(
    [
        "a",
        "docs",
        "パス",
        "مسار",
        "%E2%82%AC",
        "%20",
        "e\u0301",
        "\u0915\u094d\u0937",
        "👨\u200d👩\u200d👧",
        "🇫🇷",
        "x=1",
        "café",
        "ü",
        "\u0d4e",
    ]
)
HOSTS = st.sampled_from(
    [
        "example.com",
        "www.example.com",
        "bücher.de",
        "例え.jp",
        "مثال.مصر",
        "www.com",
        "[2001:db8::1]",
        "192.0.2.1",
        "xn--r8jz45g.jp",
        "www.xn--bcher-kva.de",
    ]
)


@given(
    st.sampled_from(["https://", "http://", "HTTP://", "ftp://", ""]),
    HOSTS,
    st.sampled_from(["", ":8080"]),
    st.lists(WORDS, max_size=6),
    st.lists(WORDS, max_size=3),
    st.lists(WORDS, max_size=2),
    st.fixed_dictionaries(
        {"location": st.sampled_from(["end", "middle", "smart"]), "max_length": st.integers(1, 60)},
        optional={
            "strip_scheme": st.booleans(),
            "strip_www": st.booleans(),
            "strip_trailing_slash": st.booleans(),
            "ellipsis": st.sampled_from([MARK, "...", "\u2026"]),
        },
    ),
)
def test_generated_links(
    scheme: str, host: str, port: str, path: list[str], query: list[str], fragment: list[str], options: dict[str, Any]
) -> None:
    url = scheme + host + port + "/" + "/".join(path)
    if query:
        url += "?" + "&".join(query)
    if fragment:
        url += "#" + "/".join(fragment)
    for link in uts58.find_links("see " + url + " now", bare_ipv4=True):
        check(link, options)


def test_examples() -> None:
    def show(text: str, **options: Any) -> tuple[str, str | None]:
        link = next(uts58.find_links(text))
        return tuple(shorten(link, options))  # type: ignore[arg-type,return-value]

    url = "https://example.com/a/b/c/d/e?x=1&y=2#top"
    assert show(url) == (url, None)
    assert show(url, max_length=100) == (url, None)
    assert show(url, max_length=24) == ("https://example.com/a/b…", url)
    assert show(url, max_length=24, location="middle") == ("https://example.com…#top", url)
    assert show(url, max_length=38, location="smart") == ("https://example.com/a/b/c/d/e?x=1&y=2…", url)
    assert show(url, max_length=36, location="smart") == ("https://example.com/a/b/c/d/e?x=1&y…", url)
    assert show(url, max_length=33, location="smart") == ("https://example.com/a/b/c/d/e?x…", url)
    assert show(url, max_length=30, location="smart") == ("https://example.com/a/b/c/d/e…", url)
    assert show(url, max_length=28, location="smart") == ("https://example.com/a/b/…/e", url)
    assert show(url, max_length=25, location="smart") == ("https://example.com/a/…/e", url)
    # The host is never cut, whatever max_length says.
    assert show("https://paypal.com.evil.example/login", max_length=12) == (
        "https://paypal.com.evil.example…",
        "https://paypal.com.evil.example/login",
    )
    assert show("http://[2001:db8::1]:8080/p/q/r", max_length=10, location="middle")[0] == (
        "http://[2001:db8::1]:8080…"
    )
    # Stripping changes no title: nothing was cut.
    assert show("https://www.example.com/", strip_scheme=True, strip_www=True, strip_trailing_slash=True) == (
        "example.com",
        None,
    )
    assert show("https://www.com/", strip_www=True) == ("https://www.com/", None)  # "com" alone: kept
    assert show("http://www.example.com/a/", strip_trailing_slash=True)[0] == "http://www.example.com/a/"
    # Japanese, Arabic, IDN, emoji: whole characters only.
    assert show("https://例え.jp/パス/ファイル/名前?キー=値", max_length=20) == (
        "https://例え.jp/パス/ファ…",
        "https://例え.jp/パス/ファイル/名前?キー=値",
    )
    assert show("https://مثال.مصر/مسار/طويل/جدا", max_length=22, location="middle")[0] == "https://مثال.مصر…ل/جدا"
    assert show("xn--bcher-kva.de/straße/und/mehr", max_length=14)[0] == "bücher.de/str…"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert show(f"https://example.com/{family}{family}", max_length=26)[0] == f"https://example.com/{family}…"
    assert show("https://example.com/%E2%82%AC%20x%20y", max_length=26)[0] == "https://example.com/€%20x…"
    assert show("https://example.com/%E2%82%AC%20x%20y", max_length=23)[0] == "https://example.com/€…"
    # Emails are shown whole.
    assert show("write to someone.with.a.long.name@example.com", max_length=5) == (
        "someone.with.a.long.name@example.com",
        None,
    )


def test_userinfo_and_non_special_schemes() -> None:
    link = Link(0, 37, "url", "https://paypal.com@evil.example/login", "https", "evil.example")
    assert shorten(link, {"max_length": 10}).text == "https://paypal.com@evil.example…"
    # No scheme stripping before userinfo: "paypal.com@evil.example" would read as an email address.
    assert shorten(link, {"strip_scheme": True}).text == link.display
    ssh = next(uts58.find_links("ssh://git@example.com/some/long/repository.git", schemes=["https", "ssh"]))
    assert shorten(ssh, {"max_length": 5, "location": "smart"}).text == "ssh://git@example.com…"


def test_check_display() -> None:
    assert check_display({}) == {}
    options: DisplayOptions = {"max_length": None, "ellipsis": "..."}
    assert check_display(options) == options
    with pytest.raises(TypeError, match="display"):
        check_display(["max_length"])
    with pytest.raises(OptionError, match="'max_len'"):
        check_display({"max_len": 3})
    with pytest.raises(OptionError, match="max_length"):
        check_display({"max_length": 0})
    with pytest.raises(TypeError, match="max_length"):
        check_display({"max_length": True})
    with pytest.raises(OptionError, match="location"):
        check_display({"location": "start"})
    with pytest.raises(TypeError, match="strip_www"):
        check_display({"strip_www": 1})
    with pytest.raises(OptionError, match="ellipsis"):
        check_display({"ellipsis": ""})
    with pytest.raises(TypeError, match="link"):
        shorten("https://example.com", {})  # type: ignore[arg-type]


@pytest.mark.parametrize("location", ["end", "middle", "smart"])
def test_a_million_character_url_shortens_in_linear_steps(monkeypatch: pytest.MonkeyPatch, location: str) -> None:
    """Steps (character classes looked up) grow with the length at most
    linearly; in fact the walks stop within max_length of a cut, even in a
    path with no certain boundary (Devanagari letters, each of which may be
    Prepend; ZWJs) or full of escapes."""
    lookups = count_grapheme_lookups(monkeypatch)
    steps = []
    for n in (500_000, 1_000_000):
        # ("=\u200d": delimiters in a run with no certain boundary, which made "smart" quadratic once.)
        runs = ("a" * n, "\u0915" * n, "/%41" * (n // 4), "x\u200d" * (n // 2), "(" * n, "?=\u200d" * (n // 3))
        total = 0
        for tail in runs:
            link = next(uts58.find_links("https://example.com/x/" + tail))
            assert len(link.text) > n or tail[0] == "("  # (brackets: the §3.5.1 stack limit ends the link)
            link.display  # noqa: B018 (computed before counting)
            lookups.count = 0
            shown = shorten(link, {"max_length": 40, "location": location})
            assert len(shown.text) <= 40 and shown.title == link.display
            total += lookups.count
        steps.append(total)
    # The walks stop within max_length of a cut: the steps do not grow with the URL.
    assert steps[1] <= steps[0] + 100 and steps[1] <= 5000


def test_smart_on_delimiters_without_a_boundary_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long max_length over a query of "=" and ZWJ (no certain boundary
    anywhere): each legal-cut test looks at two characters, not at the rest
    of the run (review of issue 13: this was max_length × run length)."""
    lookups = count_grapheme_lookups(monkeypatch)
    steps = []
    for n in (20_000, 40_000):
        link = next(uts58.find_links("https://example.com/a?" + "=\u200d" * n))
        link.display  # noqa: B018 (computed before counting)
        lookups.count = 0
        shown = shorten(link, {"max_length": 2000, "location": "smart"})
        assert len(shown.text) <= 2000
        steps.append(lookups.count)
    assert steps[1] <= steps[0] + 100 and steps[0] <= 20 * 2000


def test_indic_and_thai_paths_are_cut_between_exact_clusters() -> None:
    """A Devanagari and a Thai path shortened to every width, in every mode,
    by finders of both Unicode versions: each cut is an extended grapheme-
    cluster boundary of the link's version (D121).  And cuts now fall
    between two letters: D79's segmenter took every letter of a script with a
    virama (Devanagari, Thai) for a possible Prepend and cut only after a
    '/', a '_' or a mark there (the D79 output is in each comment below)."""
    from unicodedata import category

    from uts58.unicode.graphemes import boundaries

    devanagari = "https://hi.wikipedia.org/wiki/हिन्दी_भाषा_का_इतिहास"
    thai = "https://th.wikipedia.org/wiki/ภาษาไทย_ประวัติศาสตร์"
    for version in ("17.0.0", "18.0.0"):
        finder = uts58.Finder(unicode_version=version)
        for url in (devanagari, thai):
            link = next(finder.find_links(f"see {url} now"))
            assert link.display == url and link.unicode_version == version
            clusters = set(boundaries(url, unicode_version=version))
            between_letters = set()
            for width in range(1, len(url)):
                for location in ("end", "middle", "smart"):
                    shown = shorten(link, {"max_length": width, "location": location, "ellipsis": MARK})
                    if shown.title is None:
                        continue
                    head, _, tail = shown.text.partition(MARK)
                    for p in (len(head), len(url) - len(tail)):
                        assert p in clusters, (version, width, location, shown.text)
                        if 0 < p < len(url) and category(url[p - 1]) == category(url[p]) == "Lo":
                            between_letters.add(p)
            assert between_letters, url
        hindi, thai_link = (next(finder.find_links(url)) for url in (devanagari, thai))
        # D79: 'https://hi.wikipedia.org/wiki/हिन्दी_भाषा_का_…' (no cut after the letter इ)
        assert shorten(hindi, {"max_length": 47}).text == "https://hi.wikipedia.org/wiki/हिन्दी_भाषा_का_इ…"
        # D79: 'https://th.wikipedia.org/wiki/…' (no cut after any Thai letter)
        assert shorten(thai_link, {"max_length": 36}).text == "https://th.wikipedia.org/wiki/ภาษาไ…"
        assert (
            shorten(thai_link, {"max_length": 36, "location": "smart"}).text == "https://th.wikipedia.org/wiki/ภาษาไ…"
        )
        # D79: 'https://th.wikipedia.org…ประวัติศาสตร์'
        assert (
            shorten(thai_link, {"max_length": 40, "location": "middle"}).text == "https://th.wikipedia.org…ย_ประวัติศาสตร์"
        )
    # The link's own version decides: GB9c joins a virama to the next consonant
    # after any character since Unicode 18.0, only after a consonant before.
    url = "https://example.com/a/" + "\u25cc\u094d\u0915" * 4
    cut = {
        v: shorten(next(uts58.Finder(unicode_version=v).find_links(url)), {"max_length": 25}).text
        for v in ("17.0.0", "18.0.0")
    }
    assert cut == {"17.0.0": "https://example.com/a/\u25cc\u094d…", "18.0.0": "https://example.com/a/…"}


def test_smart_drops_the_query_only_at_a_boundary() -> None:
    """Found by the review of issue 26: "smart" dropped the query at its "?"
    without asking whether a cluster ends there.  U+0D4E MALAYALAM LETTER DOT
    REPH is Prepend (GB9b): no boundary between it and the "?"."""
    link = next(uts58.find_links("https://example.com/aaaa/bbbbbbbbbbbbbbbbbbbb/cc\u0d4e?q=1"))
    assert not is_boundary(link.display, link.display.index("?"))
    shown = shorten(link, check_display({"max_length": 40, "location": "smart"})).text
    head = shown.removesuffix("\u2026")
    assert shown != head and link.display.startswith(head)  # (the "end" fallback: a head)
    assert is_boundary(link.display, len(head)) and "\u0d4e" not in head
