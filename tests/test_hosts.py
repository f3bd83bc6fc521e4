"""uts58.hosts: label characters, domain validation, TLD sets, backward scans."""

from __future__ import annotations

import re

import pytest

from uts58.hosts import (
    DomainRules,
    default_tlds,
    domain_to_ascii,
    domain_to_unicode,
    host_patterns,
    ip_host,
    normalize_tlds,
    run_start,
)
from uts58.properties import link_properties

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


def test_run_start_is_bounded_and_exact() -> None:
    pattern = re.compile("(?s:.*)[^a]")
    text = "x" + "a" * 10_000 + "b"
    assert run_start(pattern, text, 0, len(text) - 1) == 1
    assert run_start(pattern, text, 500, len(text) - 1) == 500
    assert run_start(pattern, "aaa", 0, 3) == 0
    assert run_start(pattern, "xa", 0, 2) == 1


def test_domain_to_ascii_takes_a_host_only() -> None:
    for not_a_domain in ["a.com:80", "a.com/x", "user@a.com", "a.com?q", "[::1]", "a%2Ecom", "a\\b.com"]:
        assert domain_to_ascii(not_a_domain) is None, not_a_domain
