"""UTS #58 §5: email detection (backward scan) and minimal quoting."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from uts58 import find_email_start, format_email


def local(text: str) -> str | None:
    at = text.rindex("@")
    start = find_email_start(text, at)
    return None if start is None else text[start:at]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Table 5-1
        ("Contact abcd@example.com", "abcd"),  # stop backing up at a space
        ("Contact x.abcd@example.com", "x.abcd"),  # include the medial dot
        ("Contact アルベルト.アルベルト@example.com", "アルベルト.アルベルト"),  # non-ASCII
        ("Contact @example.com", None),  # no local-part
        ("Contact john.@example.com", None),
        ("Contact john..doe@example.com", None),
        ("Contact .john.doe@example.com", None),
        # mailto: is included, in any case (decision)
        ("See mailto:αβγ.δεζ@example.com", "mailto:αβγ.δεζ"),
        ("See MailTo:a@example.com", "MailTo:a"),
        ("See mailto:.a@example.com", None),
        ("See xmailto:a@example.com", "mailto:a"),  # only the 7 characters "mailto:"
        # the scan stops at any character that is not Link_Email
        ('See "john\\ doe"@example.com', None),
        ("(a+b@example.com)", "a+b"),
        ("x@y@example.com", "y"),
        ("σωκράτης@example.om", "σωκράτης"),
        ("a😎b@example.com", "b"),
        # decision: reaching the start of the text starts the local-part at 0
        ("abc@example.com", "abc"),
        ("a.b@example.com", "a.b"),
        (".a@example.com", None),
    ],
)
def test_find_email_start(text: str, expected: str | None) -> None:
    assert local(text) == expected


def test_long_local_parts_are_scanned_in_linear_time() -> None:
    n = 10**6
    text = "a" * n + "@example.com"
    assert find_email_start(text, n) == 0
    text = " " + "a." * n + "b@example.com"
    assert find_email_start(text, len(text) - len("@example.com")) == 1
    text = "@" * n
    assert all(find_email_start(text, k) is None for k in range(0, n, 997))


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="text must be str, not bytes"):
        find_email_start(b"a@b", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="at must be int, not float"):
        find_email_start("a@b", 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at=5 is outside the text"):
        find_email_start("a@b", 5)
    with pytest.raises(ValueError, match="does not point at an '@'"):
        find_email_start("a@b", 0)
    with pytest.raises(ValueError, match="does not point at an '@'"):
        find_email_start("a@b", 3)


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("abcd@example.com", "abcd@example.com"),
        ("σωκράτης@example.om", "σωκράτης@example.om"),
        ('"σωκράτης"@example.om', "σωκράτης@example.om"),  # needless quotes removed
        ("john doe@example.com", '"john doe"@example.com'),
        ('"john\\ doe"@example.com', '"john doe"@example.com'),
        ('a"b@example.com', '"a\\"b"@example.com'),
        ("a\\b@example.com", '"a\\\\b"@example.com'),
        ("john..doe@example.com", '"john..doe"@example.com'),  # dots §5.2 would refuse
        (".john@example.com", '".john"@example.com'),
        ("john.@example.com", '"john."@example.com'),
        ("a@b@example.com", '"a@b"@example.com'),  # the last '@' separates the domain
        ("a\tb@example.com", '"a\tb"@example.com'),
        ("x@xn--bcher-kva.de", "x@bücher.de"),
        ("x@BÜCHER.de", "x@bücher.de"),
        ("x@[192.0.2.1]", "x@[192.0.2.1]"),
        ("mailto:john doe@example.com", 'mailto:"john doe"@example.com'),
    ],
)
def test_format_email(address: str, expected: str) -> None:
    assert format_email(address) == expected


def test_formatted_email_is_detected_whole_when_bare() -> None:
    for address in ["abcd@example.com", "αβγ.δεζ@example.com", "x+tag@example.com"]:
        text = " " + format_email(address) + " "
        assert find_email_start(text, text.index("@")) == 1


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("example.com", "local-part@domain"),
        ("@example.com", "local-part@domain"),
        ("a@", "local-part@domain"),
        ('""@example.com', "empty quoted local-part"),
        ("a\x00b@example.com", "U\\+0000"),
        ("a\nb@example.com", "U\\+000A"),
        ("a\ud800@example.com", "U\\+D800"),
        ("a@exa mple.com", "invalid domain"),
        ("a@1.2.3.4", "invalid domain"),
    ],
)
def test_format_email_errors(address: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        format_email(address)


def test_format_email_type_error() -> None:
    with pytest.raises(TypeError, match="address must be str, not NoneType"):
        format_email(None)  # type: ignore[arg-type]


@given(
    st.lists(
        st.sampled_from(["a", "b.c", "x_y", " ", ":", "mailto:", "é", "谢", "\U0001d400", "(", "..", "!#$"]),
        max_size=12,
    )
)
@example(["a" * 20])
@example(["é", "a" * 15])
@example([" ", "a" * 16])
def test_ascii_local_parts_end_where_the_regex_ends_them(pieces: list[str]) -> None:
    # The shortcut of §5.2's backward scan (issue 14) against the kernels' scan.
    from uts58.hosts.domains import run_starts
    from uts58.spec.email import _link_email_run_start
    from uts58.unicode.properties import link_properties

    props = link_properties()
    text = "".join(pieces) + "@example.com"
    at = text.index("@")
    assert _link_email_run_start(text, at, props) == run_starts(props).email(text, 0, at)
