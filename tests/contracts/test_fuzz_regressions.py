"""Inputs the fuzzer (make fuzz) found to break something, kept as tests."""

from __future__ import annotations

import pytest

from uts58 import find_links, format_url, linkify_html


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [
        # fuzz/fuzz_uts58.py linkify_html, crash fc8439467a…: Python's
        # html.parser raised AssertionError on an unknown marked section.
        # Since D40 the fragment is parsed by an HTML5 parser, and since D109
        # the output is the input's bytes with the links written in: what the
        # HTML5 tokenizer reads as a comment ("<!" other than a comment or
        # DOCTYPE is a bogus comment up to the first ">") gets no link, the
        # text after it does (written by hand from the standard).
        ("<![qa.a!", "<![qa.a!"),  # no link: returned byte for byte
        ("<![qa.a!> see example.com", '<![qa.a!> see <a href="https://example.com/">example.com</a>'),
        ("<![CDATA[ x.com ]]> y.com", '<![CDATA[ x.com ]]> <a href="https://y.com/">y.com</a>'),
        ("<!DOCTYPE html><p>a.com</p>", '<!DOCTYPE html><p><a href="https://a.com/">a.com</a></p>'),
        ("<!x y='>'> b.com", "<!x y='>'> <a href=\"https://b.com/\">b.com</a>"),
        ("<!-- c.com --> d.com", '<!-- c.com --> <a href="https://d.com/">d.com</a>'),
        ("<!", "<!"),
    ],
)
def test_declarations_never_break_linkify_html(fragment: str, expected: str) -> None:
    assert linkify_html(fragment) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # fuzz/fuzz_uts58.py format_url, crash 249e2415c0…: the scheme-less
        # display "MM:M@w/…" read back as a URL of scheme "MM" (D39).
        ("/MM:M@W/MM:M;\x00L", "https://MM:M@w/MM:M;%00L"),
        ("//a:b@example.com/x", "https://a:b@example.com/x"),
        ("user@example.com/x", "user@example.com/x"),  # no colon: no scheme to misread
        ("a:1@example.com", "a:1@example.com"),  # "a:" before a digit reads as no scheme
    ],
)
def test_display_never_reads_as_another_scheme(url: str, expected: str) -> None:
    out = format_url(url)
    assert out == expected
    assert format_url(out) == out


@pytest.mark.parametrize("text", ["http://[::1]/xa.com", "http://[::1]/x.a.com y", "http://[::1]/.com"])
def test_separator_scan_stays_inside_the_run(text: str) -> None:
    # Hypothesis (tests/unit/test_markdown_text.py) found IndexError in the scan
    # for a scheme-less host after a bracketed IPv6 URL.
    links = list(find_links(text))
    assert [link.text for link in links] == [text.split(" ")[0]]
