"""Whole URLs for display (uts58.spec.formatting.format_url, UTS #58 §4), and their fully escaped form."""

from __future__ import annotations

import ada_url
import pytest
from counting import profile_steps
from hypothesis import given
from hypothesis import strategies as st

from uts58 import LinkTerm, OptionError, URLError, find_links, format_url, link_term
from uts58.conformance import data_file, read_formatting_test
from uts58.spec.escaping import format_parts
from uts58.unicode.parts import FRAGMENT, PATH, QUERY

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


# ---------------------------------------------------------------- escape="maximal": the fully escaped form (D122)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://en.wikipedia.org/wiki/Antonín_Dvořák", "https://en.wikipedia.org/wiki/Anton%C3%ADn_Dvo%C5%99%C3%A1k"),
        # the host in A-labels, as the URL parser serializes it; no scheme stays none
        ("bücher.de/bücher.", "xn--bcher-kva.de/b%C3%BCcher%2E"),
        ("HTTPS://Bücher.DE:443/a", "https://xn--bcher-kva.de/a"),
        ("https://例え。みんな/パス", "https://xn--r8jz45g.xn--q9jyb4c/%E3%83%91%E3%82%B9"),
        ("https://[::1]:8080/é", "https://[::1]:8080/%C3%A9"),
        ("http://192.168.0.1/é", "http://192.168.0.1/%C3%A9"),
        ("https://user:pä@example.com/", "https://user:p%C3%A4@example.com/"),
        # each part's percent-encode set, as the parser writes it
        (
            "https://example.com/\"<>^`{}'|x?\"<>'^`{}|#\"<>`'^{}|",
            "https://example.com/%22%3C%3E%5E%60%7B%7D'|x?%22%3C%3E%27^`{}|#%22%3C%3E%60'^{}|",
        ),
        ("https://example.com/a\x01\x7fb c", "https://example.com/a%01%7Fb%20c"),
        # §4.1's escapes are kept: the final Soft, an unmatched Close, Hard
        ("https://example.com/α(β))", "https://example.com/%CE%B1(%CE%B2)%29"),
        ("https://example.com/a.b.?c..#d!", "https://example.com/a.b.?c..#d%21"),
        ("https://example.com#a%3A~:text=x,y.", "https://example.com#a%3A~:text=x,y%2E"),
        ("https://example.com/a\u3000b", "https://example.com/a%E3%80%80b"),
        # escapes the parser keeps stay as written; UTF-8 is written in upper case
        ("https://example.com/%FF%e3%81/%2F%2e%41", "https://example.com/%FF%e3%81/%2F%2e%41"),
        ("https://example.com/%e3%81%82", "https://example.com/%E3%81%82"),
        ("https://example.com/100%", "https://example.com/100%"),
        ("https://example.com?a%3Db%26c%2Bd%23e", "https://example.com?a%3Db%26c%2Bd%23e"),
        # absent and empty parts as in the minimal form
        ("https://example.com", "https://example.com"),
        ("https://example.com?", "https://example.com?"),
        ("https://example.com/", "https://example.com/"),
        ("https://example.com/a\ud800", "https://example.com/a%EF%BF%BD"),  # lone surrogate (D9)
    ],
)
def test_format_url_maximal(url: str, expected: str) -> None:
    got = format_url(url, escape="maximal")
    assert got == expected and got.isascii()
    # The same URL as the minimal form, and its own fully escaped form.
    assert ada_url.URL(_schemed(got)).href == ada_url.URL(_schemed(format_url(url))).href
    assert format_url(got, escape="maximal") == got


def _schemed(url: str) -> str:
    return url if "://" in url else "https://" + url


def test_maximal_writes_ascii_as_the_parser_does() -> None:
    # Inside a part (not last, not an unmatched Close), every printable ASCII
    # character is written as ada serializes it: the sets are the parser's.
    for template in ("https://h.com/a{}b/c", "https://h.com/?a{}b#c", "https://h.com/#a{}b/c"):
        for cp in range(0x20, 0x7F):
            ch = chr(cp)
            if ch in "/\\?#%" or link_term(ch) is LinkTerm.Close:
                continue
            url = template.format(ch)
            assert format_url(url, escape="maximal") == ada_url.URL(url).href, repr(ch)


@pytest.mark.parametrize(
    ("escape", "error", "message"),
    [
        ("full", OptionError, "escape must be 'minimal' or 'maximal', not 'full'"),
        ("MAXIMAL", OptionError, "escape must be 'minimal' or 'maximal'"),
        (None, TypeError, "escape must be str, not NoneType"),
        (True, TypeError, "escape must be str, not bool"),
    ],
)
def test_format_url_escape_errors(escape: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message) as caught:
        format_url("https://example.com/", escape=escape)  # type: ignore[arg-type]
    if error is OptionError:
        assert caught.value.option == "escape"  # type: ignore[attr-defined]
    with pytest.raises(error, match=message):
        format_parts(path_segments=["a"], escape=escape)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="url must be str, not bytes"):
        format_url(b"https://example.com", escape="maximal")  # type: ignore[arg-type]
    with pytest.raises(URLError, match="scheme 'mailto'"):
        format_url("mailto:a@example.com", escape="maximal")


# URL part data in many scripts, with URL syntax, brackets, Soft characters and escapes.
_SCRIPTS = [
    (0x0041, 0x007A),  # Latin (ASCII letters and [\]^_`)
    (0x00C0, 0x024F),  # Latin-1, Extended
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x04FF),  # Cyrillic
    (0x0590, 0x05FF),  # Hebrew
    (0x0600, 0x06FF),  # Arabic
    (0x0900, 0x097F),  # Devanagari
    (0x0E00, 0x0E7F),  # Thai
    (0x0F00, 0x0FFF),  # Tibetan
    (0x1200, 0x137F),  # Ethiopic
    (0x2000, 0x206F),  # General Punctuation (quotes, bidi controls, spaces)
    (0x3000, 0x30FF),  # CJK punctuation, Hiragana, Katakana
    (0x4E00, 0x4FFF),  # CJK ideographs
    (0xAC00, 0xACFF),  # Hangul
    (0xFF00, 0xFFEF),  # fullwidth forms
    (0x1F300, 0x1F64F),  # emoji
]
_part_text = st.lists(
    st.one_of(
        st.sampled_from(_SCRIPTS).flatmap(lambda r: st.characters(min_codepoint=r[0], max_codepoint=r[1])),
        st.characters(codec="utf-8"),
        st.sampled_from(list("/?#&=+%:~.,;!()[]{}<>'\"-_ 。、（）「」«»‘’")),
        st.sampled_from(["%41", "%2F", "%25", "%FF", "%C3%A9", "%e3%81%82", ":~:", "%29"]),
    ),
    max_size=25,
).map("".join)
_HOSTS = ["example.com", "bücher.de", "пример.рф", "例え.みんな", "xn--r8jz45g.xn--q9jyb4c", "a.b.example.co.uk"]
_CONFORMANCE_URLS = sorted(
    {
        line
        for version in ("17.0.0", "18.0.0")
        for case in read_formatting_test(data_file(version, "LinkFormattingTest.txt"))
        for line in (case.source, case.expected)
    }
)


@st.composite
def _urls(draw: st.DrawFn) -> str:
    url = draw(st.sampled_from(["https://", "http://", ""])) + draw(st.sampled_from(_HOSTS))
    if draw(st.booleans()):
        url += ":" + str(draw(st.integers(1, 65535)))
    for initiator in "/?#":
        if draw(st.booleans()):
            url += initiator + draw(_part_text)
    return url


def _links(text: str) -> list[tuple[int, int, str]]:
    return [(link.start, link.end, link.href) for link in find_links(text)]


@given(st.one_of(_urls(), st.sampled_from(_CONFORMANCE_URLS)))
def test_fully_escaped_form_is_ascii_and_detected_whole(url: str) -> None:
    minimal = format_url(url)
    maximal = format_url(url, escape="maximal")
    assert maximal.isascii()
    # The same URL as the minimal form (the parser's href) ...
    assert ada_url.URL(_schemed(maximal)).href == ada_url.URL(_schemed(minimal)).href
    # ... which formats back to the minimal form and to itself.
    assert format_url(maximal) == format_url(minimal)
    assert format_url(maximal, escape="maximal") == format_url(minimal, escape="maximal")
    found, found_minimal = _links(maximal), _links(minimal)
    if found_minimal and found_minimal[0][:2] == (0, len(minimal)):
        # Detected whole wherever the minimal form is, as the same link.
        assert len(found) == 1 and found[0][:2] == (0, len(maximal))
        assert found[0][2] == found_minimal[0][2]
    if format_url(minimal) == minimal:
        assert format_url(maximal) == minimal == format_url(url)
        assert format_url(maximal, escape="maximal") == maximal
    if not (len(found) == 1 and found[0][:2] == (0, len(maximal))):
        # D6 only: §4.1 popped a mismatched Close, so the minimal form is not
        # idempotent, and detection stops at a literal Close.
        assert format_url(minimal) != minimal
        assert found and found[0][1] < len(maximal) and link_term(maximal[found[0][1]]) is LinkTerm.Close


@given(st.one_of(_urls().filter(lambda u: "://" in u), st.sampled_from(_CONFORMANCE_URLS)))
def test_fully_escaped_form_with_a_scheme_is_always_detected(url: str) -> None:
    # With a scheme and a domain host, every fully escaped form is detected
    # whole, except D6's (a Close that §4.1 met with a mismatched bracket).
    maximal = format_url(url, escape="maximal")
    found = _links(" " + maximal + " ")
    if [link[:2] for link in found] != [(1, 1 + len(maximal))]:
        assert format_url(format_url(url)) != format_url(url)  # D6 (see above)


@pytest.mark.parametrize("piece", ["é", "a\U0001f600.", "a b", "(é)", "ü'\"<>`{}^", ")"])
def test_maximal_is_linear_on_a_megabyte_path(piece: str, kernel_mode: str) -> None:
    # Hostile input: a 1 MB path, formatted and detected whole.
    def url(n: int) -> str:
        return "https://example.com/" + (piece * (n // len(piece) + 1))[:n]

    got = format_url(url(1 << 20), escape="maximal")
    assert got.isascii() and [link[:2] for link in _links(got)] == [(0, len(got))]
    # Its steps (Python calls) double at most with the length: the escaping
    # is one str.translate per part (one call per distinct character) over
    # the §4.1 kernel's output, whose Python reference loops once per
    # special character (the C kernel not at all).
    n = 1 << 19 if kernel_mode == "c" else 1 << 15
    steps = []
    for size in (n, 2 * n):
        long_url = url(size)
        steps.append(profile_steps(lambda long_url=long_url: format_url(long_url, escape="maximal")))
    assert steps[1] <= 2 * steps[0] + 100, steps


def test_maximal_steps_grow_with_distinct_characters_only() -> None:
    # One Python call per distinct non-ASCII character (its escape is learnt
    # once per call): linear even when every character is new.
    steps = []
    for n in (10_000, 20_000):
        url = "https://example.com/" + "".join(chr(0x4E00 + k) for k in range(n))
        steps.append(profile_steps(lambda url=url: format_url(url, escape="maximal")))
    assert steps[1] <= 2.2 * steps[0] and steps[1] <= 20 * 20_000, steps
