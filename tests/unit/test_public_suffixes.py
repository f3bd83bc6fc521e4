"""Issue 23 (D105): the compiled public-suffix decision gives
publicsuffixlist's answers, and the host fast paths give the reference's
(every name through the URL parser, each "xn--" label on its own, the
PSL through publicsuffixlist), on every rule of the installed list, on
generated names in many scripts, and on the link-dense bench text."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from uts58.hosts.domains import PublicSuffixes, _icann_psl, default_tlds, domain_rules, public_suffixes
from uts58.unicode.properties import link_properties

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _rules() -> Any:
    return domain_rules(default_tlds(), link_properties().version)


def _names_of_every_rule() -> list[str]:
    """Each rule of the installed list bare, under one label and under two
    (wildcards and exceptions reached from both sides)."""
    rng = random.Random(23)
    names = set()
    for rule in sorted(_icann_psl()._publicsuffix):
        base = rule.lstrip("!").removeprefix("*.")
        names |= {base, f"a.{base}", f"{rng.choice(['www', 'x-1', 'city'])}.{rng.choice(['b', 'kobe', 'zz'])}.{base}"}
    names |= {"com", "a.com", "unknowntld", "a.unknowntld", "a.b.c.d.e.f.g.jp", "xn--p1ai", "a.xn--p1ai"}
    return sorted(names)


def test_every_rule_of_the_list_as_publicsuffixlist_decides() -> None:
    psl, compiled = _icann_psl(), public_suffixes()
    names = _names_of_every_rule()
    assert len(names) > 20_000
    assert [compiled.registrable(n) for n in names] == [psl.privatesuffix(n) for n in names]
    assert [compiled.public_length(n) > 1 for n in names] == ["." in (psl.publicsuffix(n) or "") for n in names]


def test_malformed_names_and_an_unknown_tld() -> None:
    psl, compiled = _icann_psl(), public_suffixes()
    for name in ["", ".", "a..com", ".com", "com.", "a.b..de", "x.co.uk", "co.uk", "a.ck", "www.ck", "b.www.ck"]:
        assert compiled.registrable(name) == psl.privatesuffix(name), name
    # every rule again, as the review wrote them: upper case, a trailing dot,
    # a leading dot, an empty label inside
    names = _names_of_every_rule()[::7]
    variants = [v for n in names for v in (n.upper(), n + ".", "." + n, n.replace(".", "..", 1), "a." + n.title())]
    assert [compiled.registrable(v) for v in variants] == [psl.privatesuffix(v) for v in variants]
    strict = PublicSuffixes(_icann_psl()._publicsuffix, accept_unknown=False)
    assert strict.registrable("a.unknowntld") is None and strict.registrable("a.com") == "a.com"


_LABEL = st.text(
    alphabet=st.sampled_from([*"abzAZ09-", "é", "ß", "ü", "例", "え", "ж", "α", "ｘ", "ｎ", "－"]),
    min_size=1,
    max_size=8,
)
_NAME = st.lists(
    st.one_of(_LABEL, st.sampled_from(["xn--", "xn--p1ai", "XN--bcher-kva", "xn--a", "www", "co", "kobe"])),
    min_size=1,
    max_size=5,
).map(".".join)
_TLD = st.sampled_from(["com", "de", "uk", "jp", "pl", "рф", "中国", "xn--p1ai", "co.uk", "kawasaki.jp", "ck", "zz"])


@settings(max_examples=2000, deadline=None)
@given(_NAME, _TLD, st.booleans())
def test_the_fast_paths_agree_with_the_reference(name: str, tld: str, any_tld: bool) -> None:
    rules = _rules()
    full = f"{name}.{tld}"
    assert rules._validate(full, any_tld, False) == rules._validate(full, any_tld, False, fast=False), full


def bench_host_names(lines: int, *, www: bool = True) -> list[str]:
    """The dotted names of ``lines`` lines of each shape (dev, held-out) of
    the link-dense bench text: hosts and email domains, ``www.`` kept or
    not, without what follows a ``:``."""
    sys.path.insert(0, str(BENCH))
    import corpus

    names = []
    for shape in ("dev", "held-out"):
        for line in corpus.fresh_lines(lines, shape):
            for word in line.replace("/", " ").replace("@", " ").replace("<", " ").replace(">", " ").split():
                word = word.removeprefix("mailto:")
                word = (word if www else word.removeprefix("www.")).rstrip(".").split(":")[0]
                if "." in word:
                    names.append(word)
    return names


def test_the_fast_paths_agree_on_the_link_dense_bench_text() -> None:
    rules = _rules()
    names = bench_host_names(600, www=False)
    for word in names:
        assert rules._validate(word, True, False) == rules._validate(word, True, False, fast=False), word
    assert len(names) > 1500


# --- ada's C API in one call (D105): the same answers as the Python steps

_HOSTISH = st.text(
    alphabet=st.sampled_from(
        [*"aZ09-.", ".", "。", "例", "ü", "ß", "ｅ", "Ⅹ", " ", "\x00", "%", "[", "]", ":", "1", "x"]
    ),
    max_size=24,
)


def _c_api() -> Any:
    from uts58 import kernels as _kernels
    from uts58.hosts.whatwg import _ada

    return _ada(_kernels.c_module())


@settings(max_examples=3000, deadline=None)
@given(st.one_of(_HOSTISH, _NAME.map(lambda n: n + ".com")))
def test_domain_in_one_c_call_is_the_parsers_answer(name: str) -> None:
    import pytest

    from uts58.hosts.domains import _parsed_domain

    ada = _c_api()
    if ada is None:
        pytest.skip("ada's C API is not in use (pure-Python mode or no accelerator)")
    found = ada.domain(name)
    if found is not False:
        assert found == _parsed_domain(name), name


def test_to_unicode_in_one_c_call_is_ada_urls() -> None:
    import ada_url
    import pytest

    ada = _c_api()
    if ada is None:
        pytest.skip("ada's C API is not in use (pure-Python mode or no accelerator)")
    names = ["xn--bcher-kva.de", "xn--zz", "", "example.com", "XN--P1AI", "xn--r8jz45g.xn--p1ai", "a.xn--", "xn--a.com"]
    names += [f"xn--{s}" for s in ("mnchen-3ya", "80ak6aa92e", "-", "99999999999")]
    for name in names:
        assert ada.to_unicode(name) == str(ada_url.idna_to_unicode(name) or name), name
    with pytest.raises(TypeError):
        ada.to_unicode("bücher.de")
