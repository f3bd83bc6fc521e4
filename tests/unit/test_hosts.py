"""uts58.hosts.domains: label characters, domain validation, TLD sets, backward scans."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uts58 import kernels
from uts58.hosts.domains import (
    DomainRules,
    default_tlds,
    domain_to_ascii,
    domain_to_unicode,
    host_patterns,
    ip_host,
    normalize_tlds,
)
from uts58.kernels import _python as _kernels_py
from uts58.unicode.properties import link_properties

RULES = DomainRules(default_tlds(), host_patterns(link_properties()).label)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("example.com", "example.com"),
        ("EXAMPLE.COM", "example.com"),
        ("bücher.de", "xn--bcher-kva.de"),
        ("例え。みんな", "xn--r8jz45g.xn--q9jyb4c"),
        ("ｅｘａｍｐｌｅ．ｃｏｍ", "example.com"),
        ("xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("a.b.example.co.uk", "a.b.example.co.uk"),
        ("blogspot.com", "blogspot.com"),
        ("co.uk", None),
        ("com", None),
        ("example.invalid", None),
        ("example..com", None),
        ("-a.com", None),
        ("a-.com", None),
        ("xn--a.com", None),  # invalid punycode
        ("xn--zz.com", None),
        ("xn--ls8h.la", None),  # decodes to an emoji: not IDNA2008, not a label character
        ("xn--mxahbxey0c.xn--qxam", "xn--mxahbxey0c.xn--qxam"),
        ("a" * 64 + ".com", None),
    ],
)
def test_domain_rules(name: str, expected: str | None) -> None:
    assert RULES.check(name) == expected


def test_tld_sets() -> None:
    tlds = default_tlds()
    assert {"com", "org", "xn--p1ai", "accountants", "xn--q9jyb4c"} <= tlds
    assert "invalid" not in tlds and "example" not in tlds
    assert all(t == t.lower() and t.isascii() for t in tlds)
    assert normalize_tlds(["COM", ".рф", "xn--q9jyb4c"]) == {"com", "xn--p1ai", "xn--q9jyb4c"}
    own = DomainRules(normalize_tlds(["corp"]), RULES.label)
    assert own.check("intranet.corp") == "intranet.corp" and own.check("example.com") is None
    assert RULES.is_tld("COM") and RULES.is_tld("рф") and not RULES.is_tld("invalid")


def test_ascii_and_unicode_forms() -> None:
    assert domain_to_ascii("Bücher.DE") == "xn--bcher-kva.de"
    assert domain_to_ascii("exa mple.com") is None
    assert domain_to_ascii("192.168.0.1") is None
    assert domain_to_unicode("xn--bcher-kva.de") == "bücher.de"
    assert domain_to_unicode("example.com") == "example.com"
    assert ip_host("192.168.0.1") == "192.168.0.1"
    assert ip_host("[::1]") == "[::1]"
    assert ip_host("example.com") is None


def test_label_characters() -> None:
    pattern = host_patterns(link_properties()).run_end
    for ch in "aZ09-éßΩж例アก\u200d":
        assert pattern.match(ch).end() == 1, ch  # type: ignore[union-attr]
    for ch in "_+@!/:«»…😎 \u00ad\u2488":
        assert pattern.match(ch).end() == 0, ch  # type: ignore[union-attr]
    for ch in ".。．｡":
        assert pattern.match(ch).end() == 1, ch  # type: ignore[union-attr]


def test_run_start_is_bounded_and_exact(kernel_mode: str) -> None:
    start = kernels.run_start([(ord("a"), ord("a"))])
    text = "x" + "a" * 10_000 + "b"
    assert start(text, 0, len(text) - 1) == 1
    assert start(text, 500, len(text) - 1) == 500
    assert start("aaa", 0, 3) == 0
    assert start("xa", 0, 2) == 1
    assert start("xa", 1, 1) == 1
    assert start("", 0, 0) == 0


def test_the_python_run_start_is_linear() -> None:
    # Windows of doubling size: a run of length L costs O(log L) matches of O(window) each.
    scan = _kernels_py.RunStart((ord("a"),), (ord("a"),))
    real = scan._match
    calls: list[int] = []
    scan._match = lambda text, lo, hi: calls.append(hi - lo) or real(text, lo, hi)  # type: ignore[method-assign]
    for n in (1_000, 100_000):
        calls.clear()
        assert scan.start("x" + "a" * n, 0, n + 1) == 1
        assert len(calls) <= n.bit_length() and sum(calls) <= 4 * n, (n, calls)


def test_domain_to_ascii_takes_a_host_only() -> None:
    for not_a_domain in ["a.com:80", "a.com/x", "user@a.com", "a.com?q", "[::1]", "a%2Ecom", "a\\b.com"]:
        assert domain_to_ascii(not_a_domain) is None, not_a_domain


# --------------------------------------------------------------------------
# The host-validation cache (issue 14): bounded, thread-safe, never changing
# an answer.


def _cache_rules() -> Any:
    from uts58.hosts.domains import default_tlds, domain_rules

    return domain_rules(default_tlds(), link_properties().version)


_NAMES = st.lists(st.sampled_from([*"abcxyz-0.。éü例え", "xn--", "com", "de", "co.uk"]), max_size=20).map("".join)


@settings(max_examples=400, deadline=None)
@given(_NAMES, st.booleans(), st.booleans())
def test_the_cache_never_changes_an_answer(name: str, any_tld: bool, single_label: bool) -> None:
    rules = _cache_rules()
    direct = rules._validate(name, any_tld, single_label)
    assert rules.check_forms(name, any_tld=any_tld, single_label=single_label) == direct  # (filled, or a hit)
    assert rules.check_forms(name, any_tld=any_tld, single_label=single_label) == direct  # (a hit)


@settings(max_examples=400, deadline=None)
@given(_NAMES, st.booleans(), st.booleans(), st.booleans())
def test_the_forms_cache_never_changes_an_answer(name: str, schemed: bool, single: bool, path: bool) -> None:
    rules = _cache_rules()
    direct = rules._forms(name, schemed, single, path)
    assert rules.forms(name, schemed, single, path) == direct  # (filled, or a hit)
    assert rules.forms(name, schemed, single, path) == direct  # (a hit)


def test_the_cache_agrees_on_every_conformance_host() -> None:
    from uts58 import find_links
    from uts58.conformance import TEST_VERSIONS, data_file, read_detection_test

    rules = _cache_rules()
    hosts = {
        link.text[: len(link.host)] if link.scheme is None else link.host
        for v in TEST_VERSIONS
        for line in read_detection_test(data_file(v, "LinkDetectionTest.txt"))
        for link in find_links(line.text)
        if link.host
    }
    assert len(hosts) > 50
    for name in hosts:
        for flags in ((False, False), (True, False), (True, True)):
            assert rules.check_forms(name, any_tld=flags[0], single_label=flags[1]) == rules._validate(name, *flags)


def test_the_cache_is_bounded() -> None:
    from uts58.hosts.domains import HOST_CACHE_NAME_LIMIT, HOST_CACHE_SIZE

    rules = _cache_rules()
    for i in range(HOST_CACHE_SIZE + 1000):
        rules.check(f"host{i}.example.com")
        rules.forms(f"host{i}.example.com", True, False, False)
    assert rules._memo.cache_info().currsize <= HOST_CACHE_SIZE
    assert rules._forms_memo.cache_info().currsize <= HOST_CACHE_SIZE
    rules._memo.cache_clear()
    rules._forms_memo.cache_clear()
    long_name = "a" * 60 + ("." + "b" * 60) * 4 + ".com"
    assert len(long_name) > HOST_CACHE_NAME_LIMIT
    assert rules.check(long_name) is None
    assert rules.forms(long_name, True, False, False) is None
    assert rules._memo.cache_info().currsize == 0  # (a name that long is not kept)
    assert rules._forms_memo.cache_info().currsize == 0


def test_the_cache_is_safe_across_threads() -> None:
    import threading

    rules = _cache_rules()
    names = [f"{w}{i % 50}.{tld}" for i in range(400) for w, tld in (("bücher", "de"), ("x", "com"), ("y", "zz"))]
    expected = [rules._validate(name, False, False) for name in names]
    results: list[list[tuple[str, str] | None]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append([rules.check_forms(name) for name in names])
        except BaseException as exc:  # (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 8 and all(r == expected for r in results)


# --------------------------------------------------------------------------
# The ASCII fast path (D92): a name of ASCII letters, digits and hyphens is
# not given to the URL parser.  The same answer as the parser's, always.

_ASCII_NAMES = st.lists(
    st.sampled_from([*"aZ09-.", "x-y", "xn--", "XN--p1ai", "com", "COM", "de", "co.uk", "0x7f", "1", "255", "a" * 63]),
    max_size=16,
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_ASCII_NAMES, st.booleans(), st.booleans())
def test_the_ascii_fast_path_agrees_with_the_url_parser(name: str, any_tld: bool, single_label: bool) -> None:
    rules = _cache_rules()
    assert rules._validate(name, any_tld, single_label) == rules._validate(name, any_tld, single_label, fast=False)


def _corpus_names() -> set[str]:
    """Every run of host characters with a separator in the conformance files
    and in the real documents of this checkout (tests/unit/test_detection.py:
    real_documents), and each of its suffixes after a separator: what a
    scan may ask about, found without the code under test."""
    from test_detection import real_documents

    from uts58.conformance import TEST_VERSIONS, data_file, read_detection_test
    from uts58.unicode.parts import LABEL_SEPARATORS

    texts = [line.text for v in TEST_VERSIONS for line in read_detection_test(data_file(v, "LinkDetectionTest.txt"))]
    texts += real_documents()
    run = re.compile(_plain_run_class() + "+")
    names = set()
    for text in texts:
        for m in run.finditer(text):
            name = m.group().strip(LABEL_SEPARATORS)
            cuts = [i + 1 for i, c in enumerate(name) if c in LABEL_SEPARATORS]
            if cuts and len(name) <= 253:
                names.update(name[i:] for i in [0, *cuts[:-1]])
    return names


def test_the_ascii_fast_path_agrees_on_every_corpus_host() -> None:
    rules = _cache_rules()
    names = _corpus_names()
    plain = [h for h in names if re.fullmatch(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+", h)]
    assert len(plain) > 2000  # (the comparison covers many names, most of them where the fast path applies)
    for name in names:
        for flags in ((False, False), (True, False), (True, True)):
            assert rules._validate(name, *flags) == rules._validate(name, *flags, fast=False), (name, flags)


def test_domain_to_unicode_skips_only_what_has_no_a_label() -> None:
    from uts58.hosts.whatwg import idna_to_unicode

    ascii_hosts = [domain_to_ascii(name) for name in sorted(_corpus_names())]
    assert sum(1 for a in ascii_hosts if a and "xn--" in a) > 10
    for a in ascii_hosts:
        if a is not None:
            # ada-url's IDNA data is 17.0's: under 18.0 the bridge decodes labels with newer
            # characters (D118), whose Unicode form gives the same A-label back.
            assert domain_to_unicode(a, unicode_version="17.0.0") == idna_to_unicode(a)
            shown = domain_to_unicode(a)
            assert shown == idna_to_unicode(a) or domain_to_ascii(shown) == a, a


# The candidate pattern starts every alternative with one character of a
# small set (issue 14): it finds exactly what the plain alternation finds.


def _plain_candidate(single_label: bool = False) -> re.Pattern[str]:
    from uts58.unicode.parts import LABEL_SEPARATORS

    p = host_patterns(link_properties())
    scheme = p.after_scheme + (f"|{p.label.pattern}" if single_label else "")
    return re.compile(f"://(?={scheme})|@(?={p.after_at})|[{LABEL_SEPARATORS}](?={p.after_separator})")


def _matches(pattern: re.Pattern[str], text: str, runs: bool = False) -> list[tuple[int, str]]:
    """Where ``pattern`` finds candidates, searching on from each one (as a
    scan does after a refused candidate), with what it matched.  ``runs``
    (the pattern of detection): a separator's match goes on to the end of its
    run (``run_end``), which is checked here and left out of the comparison;
    the runs it matches to pass over them (a group closed) are left out,
    and none may hold the start of a candidate of the plain alternation."""
    from uts58.unicode.parts import LABEL_SEPARATORS

    run_end = host_patterns(link_properties()).run_end
    out = []
    skipped: list[tuple[int, int]] = []
    m = pattern.search(text)
    while m is not None:
        found = m.group()
        if runs and m.lastindex is not None:
            skipped.append(m.span())
        else:
            if runs and found[0] in LABEL_SEPARATORS:
                assert m.end() == run_end.match(text, m.start()).end()  # type: ignore[union-attr]
                found = found[0]
            out.append((m.start(), found))
        m = pattern.search(text, m.start() + 1)
    if skipped:
        starts = {start for start, _ in _matches(_plain_candidate(), text)}
        assert not any(start in starts for a, b in skipped for start in range(a, b))
    return out


def test_the_candidate_pattern_finds_what_the_plain_alternation_finds() -> None:
    from test_detection import real_documents

    from uts58 import Finder
    from uts58.conformance import TEST_VERSIONS, data_file, read_detection_test

    texts = [line.text for v in TEST_VERSIONS for line in read_detection_test(data_file(v, "LinkDetectionTest.txt"))]
    texts += real_documents()
    for single_label in (False, True):
        fast, plain = Finder(single_label_hosts=single_label).plan.candidate, _plain_candidate(single_label)
        assert fast.pattern != plain.pattern
        assert sum(len(_matches(plain, text)) for text in texts) > 5000
        for text in texts:
            assert _matches(fast, text, runs=True) == _matches(plain, text)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from([*"a.:/@[ \u3002\uff0e\uff61", "://", "localhost", "\U0001d41a", "é", "..", "@@"]), max_size=20
    )
)
def test_the_candidate_pattern_agrees_on_generated_text(pieces: list[str]) -> None:
    from uts58 import Finder

    text = "".join(pieces)
    for single_label in (False, True):
        assert _matches(Finder(single_label_hosts=single_label).plan.candidate, text, runs=True) == _matches(
            _plain_candidate(single_label), text
        )


def _plain_run_class() -> str:
    """The class of host characters (label characters and separators), as one plain class."""
    from uts58.base.regex import char_class
    from uts58.unicode.parts import LABEL_SEPARATORS

    domain = link_properties().domain_ranges()
    return char_class(sorted(domain + [(ord(c), ord(c)) for c in LABEL_SEPARATORS]))


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from([*"a.-/ 。_é例", "\U0001d41a", "\U0001f600", "\U00020000", "\u0300"]), max_size=30))
def test_run_end_is_the_plain_class(text: str) -> None:
    """run_end, written to refuse a BMP character at the cost of a bitmap
    lookup (issue 14), ends where the plain class of host characters does."""
    plain = re.compile(_plain_run_class() + "*")
    run_end = host_patterns(link_properties()).run_end
    for i in range(len(text) + 1):
        assert run_end.match(text, i).end() == plain.match(text, i).end()  # type: ignore[union-attr]
