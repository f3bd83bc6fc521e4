"""UTS #58 §4.1 minimal escaping: the algorithm and the interior escaping of
decoded data; the fully escaped form of the same parts (D122)."""

from __future__ import annotations

import pytest

from uts58 import find_link_end
from uts58.errors import OptionError
from uts58.spec.escaping import (
    format_parts,
    full_escape_tail,
    maximal_escape_parts,
    minimal_escape_parts,
    percent_escape,
)
from uts58.spec.termination import OPEN_STACK_LIMIT

# Every test here runs with the C kernels and with the Python ones.
pytestmark = pytest.mark.usefixtures("kernel_mode")

# ---------------------------------------------------------------- §4.1 itself


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"path": "a b"}, "/a%20b"),  # Hard
        ({"path": "a)b"}, "/a%29b"),  # unmatched Close
        ({"path": "a(b)c"}, "/a(b)c"),  # matched
        ({"path": "a(b/c)"}, "/a(b/c%29"),  # '/' clears the stack
        ({"path": "a.b."}, "/a.b%2E"),  # last Soft of the last part
        ({"path": "a..."}, "/a..%2E"),  # only the final one of a Soft run
        ({"path": "a.", "query": "b."}, "/a.?b%2E"),  # Soft at the end of a non-last part stays
        ({"path": "a?b#c"}, "/a%3Fb%23c"),  # literal terminators are Hard
        ({"query": "a#b"}, "?a%23b"),
        ({"query": "a(=b)"}, "?a(=b%29"),
        ({"fragment": "a:~:b"}, "#a%3A~:b"),  # fragment terminator
        ({"fragment": "a", "directives": ["text=(b,c)"]}, "#a:~:text=(b,c%29"),
        ({"fragment": "", "directives": ["text=x"]}, "#:~:text=x"),  # empty part kept (decision)
        ({"directives": ["text=x"]}, "#:~:text=x"),  # directives imply a fragment
        ({"path": ""}, "/"),
        ({"query": ""}, "?"),
        ({"path": "", "query": "", "fragment": ""}, "/?#"),
        ({}, ""),
        ({"path": "a\u00a0b\u3000c"}, "/a%C2%A0b%E3%80%80c"),  # non-ASCII Hard
        ({"path": "a\ud800"}, "/a%EF%BF%BD"),  # lone surrogate -> U+FFFD (decision)
        ({"path": "x\u202ey"}, "/x\u202ey"),  # Bidi_Control is Include in the 17.0 data
    ],
)
def test_minimal_escape_parts(kwargs: dict, expected: str) -> None:  # type: ignore[type-arg]
    assert minimal_escape_parts(**kwargs) == expected


def test_open_stack_limit_in_escaping() -> None:
    opens = "(" * OPEN_STACK_LIMIT
    assert minimal_escape_parts(path=opens + "a") == "/" + opens + "a"
    assert minimal_escape_parts(path=opens + "(a") == "/" + opens + "%28a"


def test_section_4_and_3_disagree_on_mismatched_close() -> None:
    # docs/decisions.md: §4.1 pops the stack on a mismatched Close (so the
    # later ')' matches) while §3.5.1 stops there; each is followed literally.
    formatted = minimal_escape_parts(path="(x[y)z)")
    assert formatted == "/(x[y%29z)"
    text = "example.com" + formatted
    assert find_link_end(text, 11) == len(text) - 1


def test_percent_escape() -> None:
    assert percent_escape("a") == "%61"
    assert percent_escape("😎") == "%F0%9F%98%8E"
    assert percent_escape("\udfff") == "%EF%BF%BD"


# ---------------------------------------------------------------- interior escaping


def test_format_parts_escapes_syntax_as_data() -> None:
    assert format_parts(path_segments=["a/b", "c?d#e"]) == "/a%2Fb/c%3Fd%23e"
    assert format_parts(query_pairs=[("a+b", "c=d&e#f"), ("", "x"), ("k", None)]) == "?a%2Bb=c%3Dd%26e%23f&=x&k"
    assert format_parts(fragment="a:~:b") == "#a%3A~:b"
    # '%' is escaped only before two hex digits.
    assert format_parts(path_segments=["β%41γ%ε%"]) == "/β%2541γ%ε%"
    assert format_parts(path_segments=[]) == "/"


def test_type_errors_name_the_argument() -> None:
    with pytest.raises(TypeError, match="path must be str, not int"):
        minimal_escape_parts(path=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="directives must be a sequence of str"):
        minimal_escape_parts(directives="text=a")
    with pytest.raises(TypeError, match="path_segments"):
        format_parts(path_segments=[None])  # type: ignore[list-item]


def test_whole_urls_are_formatting_s() -> None:
    import uts58.spec.escaping

    for name in ("format_url", "SPECIAL_SCHEMES"):
        assert not hasattr(uts58.spec.escaping, name)


# ---------------------------------------------------------------- the fully escaped form (D122)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"path": "αβγ/δ.εζ."}, "/%CE%B1%CE%B2%CE%B3/%CE%B4.%CE%B5%CE%B6%2E"),  # final Soft, as §4.1
        ({"path": "a)b"}, "/a%29b"),  # unmatched Close, as §4.1
        ({"path": "α(β)"}, "/%CE%B1(%CE%B2)"),  # matched brackets stay
        ({"path": "a b", "query": "c d", "fragment": "e f"}, "/a%20b?c%20d#e%20f"),
        ({"path": "\"<>^`{}'", "query": "\"<>^`{}'", "fragment": "\"<>^`{}'."}, None),
        ({"fragment": "π", "directives": ["text=ρ,σ."]}, "#%CF%80:~:text=%CF%81,%CF%83%2E"),
        ({"query": "a?b", "fragment": "c?d#e"}, "?a?b#c?d#e"),  # "?" is data after the path, "#" in a fragment
        ({"path": "%41%C3%A9%"}, "/%41%C3%A9%"),  # escapes are already escapes
        ({"path": "a\x00\x7f"}, "/a%00%7F"),
        ({"path": "a\ud800b"}, "/a%EF%BF%BDb"),  # lone surrogate (D9)
        ({"path": "😎"}, "/%F0%9F%98%8E"),
        ({}, ""),
        ({"path": "", "query": "", "fragment": ""}, "/?#"),
    ],
)
def test_maximal_escape_parts(kwargs: dict, expected: str | None) -> None:  # type: ignore[type-arg]
    got = maximal_escape_parts(**kwargs)
    assert got.isascii()
    if expected is not None:
        assert got == expected
    # §4.1's output with only the characters the URL parser encodes anyway escaped.
    assert got == full_escape_tail(minimal_escape_parts(**kwargs))


def test_maximal_parts_sets() -> None:
    # Each part's percent-encode set (WHATWG): '^`{}' in the path only, "'" in the query only.
    got = maximal_escape_parts(path="\"<>^`{}'x", query="\"<>^`{}'x", fragment="\"<>^`{}'x")
    assert got == "/%22%3C%3E%5E%60%7B%7D'x?%22%3C%3E^`{}%27x#%22%3C%3E^%60{}'x"


def test_format_parts_maximal() -> None:
    data = {"path_segments": ["β/γ", "δ?ε"], "query_pairs": [("α&", "β=γ"), ("k", None)], "fragment": "a:~:b."}
    assert format_parts(**data, escape="maximal") == (
        "/%CE%B2%2F%CE%B3/%CE%B4%3F%CE%B5?%CE%B1%26=%CE%B2%3D%CE%B3&k#a%3A~:b%2E"
    )
    assert format_parts(**data, escape="maximal") == full_escape_tail(format_parts(**data))
    assert format_parts(**data, escape="minimal") == format_parts(**data)
    with pytest.raises(OptionError, match="escape must be 'minimal' or 'maximal', not 'full'"):
        format_parts(path_segments=["a"], escape="full")  # type: ignore[arg-type]


def test_maximal_type_errors_name_the_argument() -> None:
    with pytest.raises(TypeError, match="query must be str, not bytes"):
        maximal_escape_parts(query=b"a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="directives must be a sequence of str"):
        maximal_escape_parts(directives="text=a")
