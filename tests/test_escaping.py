"""UTS #58 §4.1 minimal escaping: the algorithm and the interior escaping of decoded data."""

from __future__ import annotations

import pytest

from uts58 import find_link_end
from uts58.escaping import format_parts, minimal_escape_parts, percent_escape
from uts58.termination import OPEN_STACK_LIMIT

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


def test_names_that_moved_to_formatting_still_work_with_a_warning() -> None:
    import uts58.escaping
    import uts58.formatting

    for name in ("format_url", "SPECIAL_SCHEMES"):
        with pytest.warns(DeprecationWarning, match=rf"uts58\.escaping\.{name} is uts58\.formatting\.{name}"):
            assert getattr(uts58.escaping, name) is getattr(uts58.formatting, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        uts58.escaping.nothing  # noqa: B018
