"""Inputs the fuzzer (make fuzz) found to break something, kept as tests."""

from __future__ import annotations

import pytest

from uts58 import linkify_html


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [
        # fuzz/fuzz_uts58.py linkify_html, crash fc8439467a…: Python's
        # html.parser raised AssertionError on an unknown marked section.
        ("<![qa.a!", "&lt;![qa.a!"),
        ("<![qa.a!> see example.com", '<![qa.a!> see <a href="https://example.com/">example.com</a>'),
        ("<![CDATA[ x.com ]]> y.com", '<![CDATA[ x.com ]]> <a href="https://y.com/">y.com</a>'),
        ("<!DOCTYPE html><p>a.com</p>", '<!DOCTYPE html><p><a href="https://a.com/">a.com</a></p>'),
        ("<!x y='>'> b.com", '<!x y=\'>&#x27;&gt; <a href="https://b.com/">b.com</a>'),
        ("<!-- c.com --> d.com", '<!-- c.com --> <a href="https://d.com/">d.com</a>'),
        ("<!", "&lt;!"),
    ],
)
def test_declarations_never_break_linkify_html(fragment: str, expected: str) -> None:
    assert linkify_html(fragment) == expected
