"""UTS #58 §3.5.1 termination: spec examples, Table 3-3, decisions, limits."""

from __future__ import annotations

import pytest

from uts58 import find_link_end
from uts58.spec.termination import OPEN_STACK_LIMIT

# Every test here runs with the C kernels and with the Python ones.
pytestmark = pytest.mark.usefixtures("kernel_mode")


def linked(text: str, host: str) -> str:
    """The link found when the host ``host`` (first occurrence) ends termination's start."""
    start = text.index(host) + len(host)
    return text[text.index(host) : find_link_end(text, start)]


@pytest.mark.parametrize(
    ("text", "link"),
    [
        # Table 3-2, Soft: '?' is included only when followed by Include.  In
        # a path the first '?' ends the path and starts a query: the
        # algorithm puts lastSafe after an initiator (docs/decisions.md), so
        # that '?' stays in the link and only the second one is Soft.
        ("https://ja.wikipedia.org/wiki/アルベルト・アインシュタイン??abc", "/wiki/アルベルト・アインシュタイン??abc"),
        ("https://ja.wikipedia.org/wiki/アルベルト・アインシュタイン?? abc", "/wiki/アルベルト・アインシュタイン?"),
        ("https://ja.wikipedia.org/wiki/アルベルト・アインシュタイン??", "/wiki/アルベルト・アインシュタイン?"),
        ("https://ja.wikipedia.org/wiki?q=アインシュタイン?? abc", "/wiki?q=アインシュタイン"),
        ("https://ja.wikipedia.org/wiki?q=アインシュタイン??", "/wiki?q=アインシュタイン"),
        # Table 3-2, Close.
        (
            "https://ja.wikipedia.org/wiki/(アルベルト)アインシュタインアインシュタイン)",
            "/wiki/(アルベルト)アインシュタインアインシュタイン",
        ),
        ("(https://ja.wikipedia.org/wiki/アルベルト)アインシュタイン", "/wiki/アルベルト"),
        ("(https://ja.wikipedia.org/wiki/アルベルトアインシュタイン", "/wiki/アルベルトアインシュタイン"),
        # Table 3-2, Hard: a space.
        ("Go to https://ja.wikipedia.org/wiki/アルベルト to find", "/wiki/アルベルト"),
    ],
)
def test_table_3_2_examples(text: str, link: str) -> None:
    assert linked(text, "ja.wikipedia.org") == "ja.wikipedia.org" + link


@pytest.mark.parametrize(
    ("text", "link"),
    [
        # §3.1 examples.
        ("See abc.com?def!", "abc.com?def"),
        ("See abc.com?def!ghi", "abc.com?def!ghi"),
        ("(See abc.com?def=a). And…", "abc.com?def=a"),
        ("See abc.com?def=(a). And…", "abc.com?def=(a)"),
        # §4: the trailing period ends the link unless escaped.
        ("See abc.com/path1./path2. for", "abc.com/path1./path2"),
        ("See abc.com/path1./path2%2E for", "abc.com/path1./path2%2E"),
        ("See Xabc.com/path1./path2%2EX for", "abc.com/path1./path2%2EX"),
    ],
)
def test_section_3_and_4_examples(text: str, link: str) -> None:
    assert linked(text, "abc.com") == link


@pytest.mark.parametrize(
    ("tail", "kept"),
    [
        # path: terminators ?#, clearStackOpen /
        ("/a(b/c)d", "/a(b/c"),  # '/' clears the stack: ')' is unmatched
        ("/a(b)c/d", "/a(b)c/d"),
        ("/a?b#c", "/a?b#c"),
        # query: terminator #, clearStackOpen = &
        ("?a(=)b", "?a(="),
        ("?a(&)b", "?a(&"),
        ("?a=(b)&c=[d]", "?a=(b)&c=[d]"),
        ("?a?b", "?a?b"),  # '?' inside a query is Soft, not an initiator
        ("?a#b?c", "?a#b?c"),
        # fragment: terminator :~:, no clearStackOpen; '/', '?', '=' are plain there
        ("#a(b/c)d", "#a(b/c)d"),
        ("#a(b:~:c)d", "#a(b:~:c"),
        ("#a:b", "#a:b"),
        ("#a:", "#a"),
        # fragment directive: clearStackOpen & , :~:
        ("#:~:text=(a,b)", "#:~:text=(a,b"),
        ("#:~:text=(a)&text=[b]", "#:~:text=(a)&text=[b]"),
        ("#f:~:text=a:~:text=b", "#f:~:text=a:~:text=b"),  # multiple directives
        ("#:~:text=(a:~:b)", "#:~:text=(a:~:b"),
        # the directive initiator needs a fragment before it (previousPart rule)
        (":~:text=a", ""),
        ("/a:~:text=b", "/a:~:text=b"),  # in a path ':~:' is just Soft, Include, Soft
        ("?a:~:text=b", "?a:~:text=b"),
        # other tails
        ("", ""),
        (" /a", ""),
        ("!", ""),
        (":8080/a", ""),  # the caller passes the offset after the port
        ("/a.b.", "/a.b"),
        ("/a. b", "/a"),
        ("/a\u3002", "/a"),  # ideographic full stop is Soft
        ("/a\u3002b", "/a\u3002b"),
        ("/（巴西）", "/（巴西）"),
        ("/«a»b", "/«a»b"),
        ("/a»", "/a"),
        ("/a<b>", "/a<b>"),
        ("/a>", "/a"),
        ("/a\x00b", "/a"),
        ("/a\ud800b", "/a"),
    ],
)
def test_table_3_3(tail: str, kept: str) -> None:
    text = "x example.com" + tail
    assert text[2 : find_link_end(text, 13)] == "example.com" + kept


def test_decision_last_safe_starts_at_host_end() -> None:
    # docs/decisions.md: never shorter than the host, even with a scheme.
    text = "see https://example.com. Then"
    assert find_link_end(text, text.index(".", 16)) == text.index(".", 16)
    assert find_link_end("example.com", 11) == 11


def test_decision_initiator_is_inside_the_link() -> None:
    # docs/decisions.md: an initiator sets lastSafe after itself.
    assert find_link_end("example.com/ x", 11) == 12
    assert find_link_end("example.com/a? x", 11) == 14
    assert find_link_end("example.com# x", 11) == 12
    assert find_link_end("example.com#:~: x", 11) == 15


def test_mismatched_close_stops() -> None:
    text = "example.com/α[(β])γ"
    assert text[: find_link_end(text, 11)] == "example.com/α[(β"


def test_open_stack_limit() -> None:
    assert OPEN_STACK_LIMIT == 125
    opens = "(" * OPEN_STACK_LIMIT
    text = "example.com/" + opens + ")" * OPEN_STACK_LIMIT
    assert find_link_end(text, 11) == len(text)
    # One more Open than the limit: stop before it.
    text = "example.com/" + opens + "(" + ")" * (OPEN_STACK_LIMIT + 1)
    assert find_link_end(text, 11) == 12 + OPEN_STACK_LIMIT
    # The stack is per part: a '/' clears it, so 200 Opens in two segments pass.
    text = "example.com/" + "(" * 100 + "/" + "(" * 100
    assert find_link_end(text, 11) == len(text)


def test_hostile_inputs_terminate_with_the_right_answer() -> None:
    n = 10**6
    assert find_link_end("example.com/" + "(" * n, 11) == 12 + OPEN_STACK_LIMIT
    assert find_link_end("example.com/a" + "." * n, 11) == 13
    assert find_link_end("example.com/a" + "." * n + "b", 11) == 14 + n
    assert find_link_end("example.com/" + "a" * n, 11) == 12 + n
    assert find_link_end("example.com/" + "/" * n, 11) == 12 + n
    assert find_link_end("example.com#:~:" + ",&" * n, 11) == 15 + 2 * n
    assert find_link_end("example.com/" + "()" * n, 11) == 12 + 2 * n


def test_offsets_are_code_points() -> None:
    text = "😎 example.com/😎😎. x"
    start = text.index("/")
    assert find_link_end(text, start) == start + 3


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="text must be str, not bytes"):
        find_link_end(b"example.com/", 11)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be str, not NoneType"):
        find_link_end(None, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="start must be int, not str"):
        find_link_end("example.com/", "11")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="start must be int, not bool"):
        find_link_end("example.com/", True)
    with pytest.raises(ValueError, match="start=-1 is outside the text"):
        find_link_end("example.com/", -1)
    with pytest.raises(ValueError, match="start=13 is outside the text"):
        find_link_end("example.com/", 13)
    assert find_link_end("example.com/", 12) == 12
