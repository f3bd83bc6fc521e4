"""Issue 23 (D106): host validation in one C call (``uts58.kernels._c.Hosts``)
gives the answers of the Python steps of ``DomainRules._validate`` and of
their reference (every name through the URL parser, each "xn--" label on
its own, the PSL through publicsuffixlist): on every conformance host and
run of the real documents, on the link-dense bench text, on generated
names in many scripts, with every flag; and it leaves to Python what it
does not decide."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import C_KERNELS_WHY_NOT
from hypothesis import given, settings
from hypothesis import strategies as st

from uts58 import find_links
from uts58 import kernels as _kernels
from uts58.hosts._idna_bridge import may_apply as bridge_may_apply
from uts58.hosts.domains import (
    LABEL_SEPARATORS,
    PLAIN_LABEL_CHARS,
    DomainRules,
    default_tlds,
    domain_rules,
    host_patterns,
)
from uts58.unicode.properties import link_properties

FLAGS = ((False, False), (True, False), (False, True), (True, True))

pytestmark = pytest.mark.skipif(C_KERNELS_WHY_NOT is not None, reason=C_KERNELS_WHY_NOT or "")


def _rules(tlds: frozenset[str] | None = None) -> DomainRules:
    return domain_rules(default_tlds() if tlds is None else tlds, link_properties().version)


def _python_steps(rules: DomainRules, name: str, any_tld: bool, single_label: bool) -> Any:
    """``_validate`` with the C call left out: the Python fast paths."""
    made = rules._c  # type: ignore[attr-defined]
    object.__setattr__(rules, "_c", (_kernels.c_module(), None))
    try:
        return rules._validate(name, any_tld, single_label)
    finally:
        object.__setattr__(rules, "_c", made)


def _agree(rules: DomainRules, name: str) -> Iterator[tuple[Any, Any]]:
    checker = rules._checker()
    assert checker is not None
    for any_tld, single_label in FLAGS:
        c = checker.validate(name, any_tld, single_label)
        python = _python_steps(rules, name, any_tld, single_label)
        reference = rules._validate(name, any_tld, single_label, fast=False)
        assert python == reference, (name, any_tld, single_label)
        if c is False:
            # (what C leaves to Python: a name of one label, when one may be a host)
            assert single_label and not any(s in name for s in ".\u3002\uff0e\uff61"), name
        elif c is None and reference is not None and bridge_may_apply(name):
            # D118: C gives ada-url's answer; the bridge, in Python, takes what ada refused
            assert rules._validate(name, any_tld, single_label) == reference, (name, any_tld, single_label)
        else:
            assert c == reference, (name, any_tld, single_label)
        yield c, reference


def test_every_conformance_host_and_document_run() -> None:
    from test_hosts import _corpus_names

    rules = _rules()
    names = _corpus_names()
    decided = sum(1 for name in names for c, ref in _agree(rules, name) if c is not False and ref is not None)
    assert len(names) > 3000 and decided > 2000  # (many names, many of them hosts)


def test_the_link_dense_bench_text() -> None:
    from test_public_suffixes import bench_host_names

    rules = _rules()
    idn = 0
    for word in bench_host_names(400):
        for c, _ in _agree(rules, word):
            idn += c is not None and c is not False and c[0] != c[1]
    assert idn > 500  # (IDNs in several scripts, decided in C)


_LABEL = st.text(
    alphabet=st.sampled_from(list("abzAZ09-_%/:@[ éßüİﬀ例えжαاก한ｘｎ－😀\u200d\u0301\U000e0041\ud800\u00ad")),
    min_size=0,
    max_size=9,
)
_NAME = st.lists(
    st.one_of(
        _LABEL,
        st.sampled_from(["xn--", "xn--p1ai", "XN--bcher-kva", "xn--a", "xn--zz-", "www", "co", "kobe", "a" * 64]),
    ),
    min_size=1,
    max_size=6,
)
_SEPARATOR = st.sampled_from([".", ".", "\u3002", "\uff0e", "\uff61"])
_TLD = st.sampled_from(
    ["com", "DE", "uk", "jp", "pl", "рф", "中国", "xn--p1ai", "co.uk", "kawasaki.jp", "ck", "zz", "1"]
)


@settings(max_examples=3000, deadline=None)
@given(_NAME, _SEPARATOR, _TLD, st.booleans())
def test_generated_names_in_many_scripts(labels: list[str], separator: str, tld: str, with_tld: bool) -> None:
    name = separator.join(labels) + (separator + tld if with_tld else "")
    list(_agree(_rules(), name))


@pytest.mark.parametrize("tlds", [frozenset({"com", "xn--p1ai"}), frozenset()], ids=["two TLDs", "none"])
def test_other_tld_sets(tlds: frozenset[str]) -> None:
    rules = _rules(tlds)
    for name in ("example.com", "пример.рф", "example.de", "bücher.de", "a.co.uk", "x.zz"):
        list(_agree(rules, name))


def test_what_it_leaves_to_python_and_its_argument_checks() -> None:
    rules = _rules()
    checker = rules._checker()
    assert checker.validate("intranet", False, True) is False  # (D54: one label, Python's rule)
    assert checker.validate("intranet", False, False) is None
    assert checker.validate("Bücher.DE", False, False) == ("xn--bcher-kva.de", "bücher.de")
    assert checker.validate("co.uk", False, False) is None  # (itself a public suffix)
    with pytest.raises(TypeError):
        checker.validate(b"example.com", False, False)
    with pytest.raises(TypeError):
        checker.validate("example.com", False)
    hosts = type(checker)
    sets = (frozenset(),) * 4
    chars = (LABEL_SEPARATORS, PLAIN_LABEL_CHARS, 63, 253)
    with pytest.raises(TypeError):
        hosts(None, *sets, True, str, *chars)
    pattern = host_patterns(link_properties()).label
    with pytest.raises(TypeError):
        hosts(_ada(), *sets, True, 1, *chars)
    assert hosts(_ada(), *sets, True, pattern.fullmatch, *chars) is not None
    # (the characters and lengths come from Python: bad ones are refused)
    for bad in ((".", "a.", 63, 253), ("\u3002.", "a", 63, 253), (".", "é", 63, 253), (".", "a", 0, 253)):
        with pytest.raises(ValueError):
            hosts(_ada(), *sets, True, pattern.fullmatch, *bad)
    # another limit given, another answer: the C code has none of its own
    short = hosts(
        _ada(), default_tlds(), *sets[1:], True, pattern.fullmatch, LABEL_SEPARATORS, PLAIN_LABEL_CHARS, 5, 253
    )
    assert (
        checker.validate("abcdef.com", False, False) is not None and short.validate("abcdef.com", False, False) is None
    )


def _ada() -> Any:
    from uts58.hosts import whatwg

    return whatwg._ada(_kernels.c_module())


def test_python_kernels_use_no_c_call() -> None:
    rules = _rules()
    _kernels.use_python(True)
    try:
        assert rules._checker() is None
        assert rules._validate("bücher.de", False, False) == ("xn--bcher-kva.de", "bücher.de")
    finally:
        _kernels.use_python(False)
    assert rules._checker() is not None


# D137: labels of plain IDN characters are encoded without ada.  Every such
# character, and names of them in every class, give the reference's answer.


def _plain_chars() -> dict[int, list[str]]:
    from uts58.tables.plain_idn import PLAIN_IDN

    classes: dict[int, list[str]] = {}
    for k in range(0, len(PLAIN_IDN), 3):
        first, last, kind = PLAIN_IDN[k : k + 3]
        classes.setdefault(kind, []).extend(chr(cp) for cp in range(first, last + 1))
    return classes


def test_every_plain_character_gives_the_reference_answer() -> None:
    from uts58.tables.plain_idn import PLAIN, PLAIN_MARK, PLAIN_RTL

    rules = _rules()
    checker = rules._checker()
    assert checker is not None
    decided = 0
    names = {  # (each alone and among others of its class: ada's Bidi data is older than its IDNA data)
        PLAIN: ("{}.com", "x{}y.de"),
        PLAIN_MARK: ("a{}.com", "a{}b{}.de"),
        PLAIN_RTL: ("{}.com", "\u0628{}\u05d0{}.de"),
    }
    for kind, chars in _plain_chars().items():
        for char in chars:
            for name in (form.replace("{}", char) for form in names[kind]):
                c = checker.validate(name, False, False)
                assert c == rules._validate(name, False, False, fast=False), (name, hex(ord(char)))
                decided += c is not None
    assert decided > 2 * 130_000  # (every name a host)


_CLASSES = _plain_chars()
_PLAIN_ALPHABET = st.one_of(
    st.sampled_from(_CLASSES[1][:3000:7] + _CLASSES[1][-2000::11]),
    st.sampled_from(_CLASSES[2]),
    st.sampled_from(_CLASSES[3]),
    st.sampled_from(list("aZ09-")),
)
_PLAIN_NAME = st.lists(
    st.one_of(
        st.text(alphabet=_PLAIN_ALPHABET, min_size=1, max_size=12),
        st.text(alphabet=st.sampled_from(_CLASSES[3]), min_size=1, max_size=8),  # (an all right-to-left label)
        st.sampled_from(["www", "1a", "a1", "a-", "Xn--abc", "x" * 60, "\u00e9" * 62]),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=4000, deadline=None)
@given(_PLAIN_NAME, _SEPARATOR, _TLD)
def test_generated_names_of_plain_characters(labels: list[str], separator: str, tld: str) -> None:
    list(_agree(_rules(), separator.join([*labels, tld])))


def test_the_table_is_what_decides_and_its_checks() -> None:
    from uts58.hosts import whatwg
    from uts58.hosts.domains import public_suffixes

    rules = _rules()
    hosts = type(rules._checker())
    pattern = host_patterns(link_properties()).label

    p = public_suffixes()
    args = (_ada(), default_tlds(), p.rules, p.nodes, p.flat, p.accept_unknown, pattern.fullmatch)
    chars = (LABEL_SEPARATORS, PLAIN_LABEL_CHARS, 63, 253)
    # a private-use character is no IDNA character: named plain, it is encoded as it is (the table decides)
    anything = (_ada(), default_tlds(), p.rules, p.nodes, p.flat, p.accept_unknown, lambda s: s, *chars)
    assert hosts(*anything).validate("a\ue000.com", False, False) is None  # (ada refuses it)
    assert hosts(*anything, ()).validate("a\ue000.com", False, False) is None  # (no table: ada decides)
    encoded = "xn--" + "a\ue000".encode("punycode").decode()
    assert hosts(*anything, (0xE000, 0xE000, 1)).validate("a\ue000.com", False, False) == (
        encoded + ".com",
        "a\ue000.com",
    )
    for bad in ((0x41, 0x41, 1), (0x100, 0xFF, 1), (0x100, 0x101, 4), (0x100, 0x101), (0x3002, 0x3002, 1)):
        with pytest.raises(ValueError):
            hosts(*args, *chars, bad)
    assert whatwg.plain_idn()  # (this ada-url encodes every range's ends as they are)


def test_an_ada_url_with_older_idna_data_decides_every_label(monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58.hosts import whatwg

    whatwg.plain_idn.cache_clear()
    from uts58.tables.plain_idn import PROBES

    real = whatwg.idna_to_ascii
    last = PROBES[-1][0]  # (an ada-url that lacks the newest characters of the table)
    monkeypatch.setattr(whatwg, "idna_to_ascii", lambda name: "" if name == last else real(name))
    try:
        assert whatwg.plain_idn() == ()
    finally:
        whatwg.plain_idn.cache_clear()
        monkeypatch.undo()
    assert whatwg.plain_idn()


def test_the_hosts_of_the_prose_bench_text() -> None:
    """The hosts of both shapes of the prose whose links are new (bench
    corpus.fresh_prose: the held-out one has scripts no other test text
    has, Hebrew, Georgian, Tamil, Armenian) give the reference's answers."""
    import sys

    from test_public_suffixes import BENCH

    sys.path.insert(0, str(BENCH))
    import corpus

    rules = _rules()
    idn = 0
    for shape in ("dev", "held-out"):
        for line in corpus.fresh_prose(120_000, shape):
            for link in find_links(line):
                for c, _ in _agree(rules, str(link.host)):
                    idn += c is not None and c is not False and c[0] != c[1]
    assert idn > 200
