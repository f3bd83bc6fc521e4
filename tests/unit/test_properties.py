"""UTS #58 §3.4 and §5.1 properties against the official data files, every code point."""

from __future__ import annotations

import pytest
from conftest import DATA, missing_default, read_property_file

from uts58 import LinkTerm, is_link_email, link_bracket, link_term
from uts58.unicode.properties import DEFAULT_UNICODE_VERSION, available_versions, link_properties

VERSION = "17.0.0"


def test_link_term_every_code_point() -> None:
    path = DATA / VERSION / "LinkTerm.txt"
    default = missing_default(path)
    assert default == "Hard"
    listed = read_property_file(path, default)
    props = link_properties(VERSION)
    wrong = [cp for cp in range(0x110000) if props.link_term(chr(cp)).value != listed.get(cp, default)]
    assert wrong == []


def test_link_bracket_every_code_point() -> None:
    path = DATA / VERSION / "LinkBracket.txt"
    assert missing_default(path) == "<none>"
    listed = {cp: chr(int(v, 16)) for cp, v in read_property_file(path, "<none>").items()}
    props = link_properties(VERSION)
    wrong = [cp for cp in range(0x110000) if props.link_bracket(chr(cp)) != listed.get(cp)]
    assert wrong == []
    # §3.4.2: exactly the Close characters have a Link_Bracket, and it is an Open.
    for cp, open_ in listed.items():
        assert props.link_term(chr(cp)) is LinkTerm.Close
        assert props.link_term(open_) is LinkTerm.Open
    closes = [cp for cp in range(0x110000) if props.link_term(chr(cp)) is LinkTerm.Close]
    assert sorted(listed) == closes


def test_link_email_every_code_point() -> None:
    listed = read_property_file(DATA / VERSION / "LinkEmail.txt", "No")
    props = link_properties(VERSION)
    wrong = [cp for cp in range(0x110000) if props.is_link_email(chr(cp)) != (cp in listed)]
    assert wrong == []


@pytest.mark.parametrize(
    ("ch", "value"),
    [
        ("a", LinkTerm.Include),  # Table 3-2: letters
        ("ア", LinkTerm.Include),
        (" ", LinkTerm.Hard),  # a space
        ("?", LinkTerm.Soft),  # a question mark
        (")", LinkTerm.Close),
        ("(", LinkTerm.Open),
        ("<", LinkTerm.Open),  # §6.1: < and > are brackets too
        (">", LinkTerm.Close),
        ("\u0378", LinkTerm.Hard),  # unassigned
        ("\ud800", LinkTerm.Hard),  # surrogate
        ("\ue000", LinkTerm.Hard),  # private use
        ("\ufffe", LinkTerm.Hard),  # noncharacter
    ],
)
def test_spec_examples(ch: str, value: LinkTerm) -> None:
    assert link_term(ch) is value


def test_examples_of_bracket_and_email() -> None:
    assert link_bracket("}") == "{"  # §3.4.2 example
    assert link_bracket(">") == "<"
    assert link_bracket("(") is None
    assert is_link_email("σ")  # §5.1 example
    assert is_link_email(".") and is_link_email("+") and not is_link_email("@")
    assert not is_link_email('"') and not is_link_email(" ")


def test_link_term_is_a_str_enum() -> None:
    assert LinkTerm.Soft == "Soft"
    assert str(LinkTerm.Open) == "Open"
    assert {t.value for t in LinkTerm} == {"Include", "Hard", "Soft", "Open", "Close"}


@pytest.mark.parametrize("func", [link_term, link_bracket, is_link_email])
def test_bad_arguments(func) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="ch must be a str"):
        func(b"a")
    with pytest.raises(TypeError, match="ch must be a str"):
        func(97)
    with pytest.raises(ValueError, match="single character"):
        func("ab")
    with pytest.raises(ValueError, match="single character"):
        func("")
    with pytest.raises(ValueError, match=r"unicode_version '1\.0' is not bundled"):
        func("a", unicode_version="1.0")
    with pytest.raises(TypeError, match="unicode_version must be a str"):
        func("a", unicode_version=17)


def test_versions() -> None:
    assert DEFAULT_UNICODE_VERSION in available_versions()
    assert link_properties() is link_properties(DEFAULT_UNICODE_VERSION)  # loaded once
    assert link_properties().version == "18.0.0" and link_properties("17.0.0").version == "17.0.0"
