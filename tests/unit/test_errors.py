"""The package's error types (D61): every bad value raises a UTS58Error
subclass that is also a ValueError; wrong types stay TypeError."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import uts58
from uts58 import AddressError, ConformanceFileError, OffsetError, OptionError, TLDListError, URLError, UTS58Error
from uts58.conformance import read_detection_test
from uts58.hosts.tlds import load_tlds
from uts58.migration import refine_end
from uts58.stream import find_links_in_file
from uts58.unicode.properties import link_properties

CASES: list[tuple[type[UTS58Error], Callable[[], Any], str]] = [
    (OptionError, lambda: list(uts58.find_links("x", schemes={"javascript"})), "never linked"),
    (OptionError, lambda: list(uts58.find_links("x", schemes={"1x"})), "not URL schemes"),
    (OptionError, lambda: uts58.linkify("x", format="pdf"), "format"),  # type: ignore[arg-type]
    (OptionError, lambda: uts58.linkify("x", kinds=("phone",)), "kinds"),
    (OptionError, lambda: uts58.linkify("x", attrs={"a b": "y"}), "attrs"),
    (OptionError, lambda: uts58.linkify_html("x", context="not a tag"), "context"),
    (OptionError, lambda: uts58.Policy(bidi="maybe"), "bidi"),  # type: ignore[arg-type]
    (OptionError, lambda: uts58.link_term("ab"), "single character"),
    (OptionError, lambda: link_properties("99.0.0"), "99.0.0"),
    (OptionError, lambda: list(find_links_in_file(io.StringIO(""), chunk_size=0)), "chunk_size"),
    (OffsetError, lambda: uts58.find_link_end("abc", 4), "outside the text"),
    (OffsetError, lambda: uts58.find_email_start("abc", 1), "'@'"),
    (OffsetError, lambda: refine_end("abc", 2, 1), "before start"),
    (URLError, lambda: uts58.format_url("mailto:x@example.com"), "scheme"),
    (URLError, lambda: uts58.format_url("https://exa mple.com/"), "not a valid URL"),
    (AddressError, lambda: uts58.format_email("no at sign"), "local-part@domain"),
    (AddressError, lambda: uts58.format_email("x@exa mple.com"), "invalid domain"),
    (TLDListError, lambda: load_tlds("# list\nexample.com\n"), "line 2"),
    (TLDListError, lambda: list(uts58.find_links("x", known_tlds={"a.b"})), "known_tlds"),
]


@pytest.mark.parametrize(("error", "call", "words"), CASES, ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
def test_each_bad_value_raises_its_error(error: type[UTS58Error], call: Callable[[], Any], words: str) -> None:
    with pytest.raises(error, match=re.escape(words)) as caught:
        call()
    # The specific class, the package's base, and ValueError (code written
    # with "except ValueError" keeps working).
    assert isinstance(caught.value, UTS58Error) and isinstance(caught.value, ValueError)


def test_conformance_files_that_are_not(tmp_path: Path) -> None:
    bad = tmp_path / "LinkDetectionTest.txt"
    bad.write_text("see ⸠example.com\n", encoding="utf-8")
    with pytest.raises(ConformanceFileError, match="unclosed"):
        read_detection_test(bad)


def test_types_stay_type_errors() -> None:
    with pytest.raises(TypeError, match="text"):
        list(uts58.find_links(b"x"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="schemes"):
        list(uts58.find_links("x", schemes="https"))


def test_no_bare_value_error_is_raised_by_the_package() -> None:
    """Every ``raise`` of a bad value in src/uts58 names one of the classes."""
    source = Path(uts58.__file__).parent
    bare = [
        f"{path.name}:{number}"
        for path in sorted(source.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\braise ValueError\b", line)
    ]
    assert bare == []
    assert {c.__name__ for c in UTS58Error.__subclasses__()} == {
        "AddressError",
        "ConformanceFileError",
        "DecodeError",
        "OffsetError",
        "OptionError",
        "TLDListError",
        "URLError",
    }


def test_undecodable_bytes(tmp_path: Path) -> None:
    from uts58.errors import DecodeError
    from uts58.parallel import check_utf8

    path = tmp_path / "bad.txt"
    path.write_bytes(b"see example.com \xff")
    with pytest.raises(DecodeError, match="byte offset 16") as caught:
        check_utf8(str(path))
    assert isinstance(caught.value, UTS58Error) and caught.value.offset == 16
