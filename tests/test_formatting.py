"""Whole URLs for display (uts58.formatting.format_url, UTS #58 §4)."""

from __future__ import annotations

import ada_url
import pytest

from uts58 import URLError, format_url
from uts58.parts import FRAGMENT, PATH, QUERY

# Every test here runs with the C kernels and with the Python ones.
pytestmark = pytest.mark.usefixtures("kernel_mode")


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # §1.1 and §4 examples
        ("https://www.youtube.com/@%ED%95%91%ED%81%AC%ED%90%81", "https://www.youtube.com/@핑크퐁"),
        ("https://en.wikipedia.org/wiki/Anton%C3%ADn_Dvo%C5%99%C3%A1k", "https://en.wikipedia.org/wiki/Antonín_Dvořák"),
        (
            "https://ja.wikipedia.org/wiki/%E3%82%A2%E3%83%AB%E3%83%99%E3%83%AB%E3%83%88%29%E3%82%A2",
            "https://ja.wikipedia.org/wiki/アルベルト%29ア",
        ),
        ("xn--bcher-kva.de/b%C3%BCcher", "bücher.de/bücher"),
        ("abc.com/path1./path2.", "abc.com/path1./path2%2E"),
        # host and scheme as customary
        ("HTTPS://EXAMPLE.com:443/a", "https://example.com/a"),
        ("http://example.com:8080/a", "http://example.com:8080/a"),
        ("https://例え。テスト/パス", "https://例え.テスト/パス"),
        ("https://[::1]:8080/a", "https://[::1]:8080/a"),
        ("http://192.168.0.1/a", "http://192.168.0.1/a"),
        ("https://user:pw@example.com/", "https://user:pw@example.com/"),
        # absent path stays absent, present empty parts stay present
        ("https://example.com", "https://example.com"),
        ("https://example.com/", "https://example.com/"),
        ("https://example.com?", "https://example.com?"),
        ("https://example.com#", "https://example.com#"),
        ("https://example.com#:~:text=a", "https://example.com#:~:text=a"),
        # any escaping state
        ("https://example.com/a b", "https://example.com/a%20b"),
        ("https://example.com/%E3%81%82%E3%81%84", "https://example.com/あい"),
        ("https://example.com/あ%E3%81%84", "https://example.com/あい"),
        ("https://example.com/%e3%81%82", "https://example.com/あ"),
        # legacy (invalid UTF-8) bytes stay escaped, as written
        ("https://example.com/%FF%C2%C2%e3%81", "https://example.com/%FF%C2%C2%e3%81"),
        ("https://example.com/%82%A0%E3%81%82", "https://example.com/%82%A0あ"),
        ("https://example.com/%ED%A0%80", "https://example.com/%ED%A0%80"),  # encoded surrogate
        ("https://example.com/%C0%AF", "https://example.com/%C0%AF"),  # overlong '/'
        # syntax characters stay escaped in their part
        ("https://example.com/a%2Fb%3Fc%23d", "https://example.com/a%2Fb%3Fc%23d"),
        ("https://example.com?a%3Db%26c%2Bd%23e", "https://example.com?a%3Db%26c%2Bd%23e"),
        ("https://example.com#a%3A~:b", "https://example.com#a%3A~:b"),
        # '%25' and stray '%' are kept
        ("https://example.com/100%25", "https://example.com/100%25"),
        ("https://example.com/100%", "https://example.com/100%"),
        # ASCII escapes are decoded only where the URL parser would re-encode them
        ("https://example.com/%22a%22", 'https://example.com/"a%22'),  # final Soft re-escaped
        ("https://example.com/%7Ba%7D", "https://example.com/{a}"),
        ("https://example.com/%41%28%2E", "https://example.com/%41%28%2E"),
        ("https://example.com?q=%27a%27b", "https://example.com?q='a'b"),
        # whitespace handling of the URL parser
        ("  https://example.com/a\tb\n ", "https://example.com/ab"),
        ("https://example.com/a\x01b", "https://example.com/a%01b"),
        ("https://example.com/a\x01", "https://example.com/a"),  # trailing C0 is stripped
    ],
)
def test_format_url(url: str, expected: str) -> None:
    assert format_url(url) == expected


def test_format_url_keeps_the_resource() -> None:
    # Decoding never changes what the URL parser makes of the URL; the only
    # differences come from §4.1's own escapes of characters the parser
    # leaves literal (here the final ')' and '.').
    for url in [
        "https://example.com/%E3%81%82?q=%E3%81%84#%E3%81%86",
        "https://example.com/%22%3C%3E%60%7B%7D%5E?%22%27%3C%3E#%22%3C%3E%60",
        "https://example.com/%FF%e3%81/%2F",
        "https://example.com/a%20b?c%20d#e%20f",
    ]:
        assert ada_url.URL(format_url(url)).href == ada_url.URL(url).href


def test_decodable_sets_match_the_url_parser() -> None:
    """The ASCII characters format_url decodes are exactly those that ada
    percent-encodes when written literally in that part (less syntax)."""
    templates = {PATH: "https://h/a{}b", QUERY: "https://h/?a{}b", FRAGMENT: "https://h/#a{}b"}
    for part, template in templates.items():
        encoded = set()
        for cp in range(0x21, 0x7F):
            ch = chr(cp)
            if ch in "/\\?#%":
                continue
            if "a" + ch + "b" not in ada_url.URL(template.format(ch)).href:
                encoded.add(ch)
        printable = {ch for ch in part.decodable if 0x21 <= ord(ch) < 0x7F}
        assert printable == encoded, part.name


def test_idempotent() -> None:
    for url in [
        "https://example.com/α(β))?γ(δ))#ε(ζ))",
        "https://example.com/a.b.?c..#d!",
        "https://example.com/%FF%20x%25y",
        "abc.com/path1./path2.",
    ]:
        once = format_url(url)
        assert format_url(once) == once


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mailto:a@example.com", "scheme 'mailto'"),
        ("javascript:alert(1)", "scheme 'javascript'"),
        ("https://exa mple.com/", "not a valid URL"),
        ("https://", "not a valid URL"),
        ("", "not a valid URL"),
    ],
)
def test_format_url_errors(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        format_url(url)


def test_format_url_type_error_names_the_argument() -> None:
    with pytest.raises(TypeError, match="url must be str, not bytes"):
        format_url(b"https://example.com")  # type: ignore[arg-type]


def test_errors_are_url_errors() -> None:
    for url in ("mailto:a@example.com", "https://exa mple.com/", "https://", "ftp://"):
        with pytest.raises(URLError):
            format_url(url)
