"""has_links and spans: find_links's answer without its Link objects (D89)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_finder import CONFORMANCE_LINES, OPTION_SETS

import uts58
import uts58.detect.scanner as scanner
from uts58 import Finder, OptionError, find_links
from uts58.detect.finder import Span, spans
from uts58.hosts.domains import host_span

PROSE = [
    "Mail アルベルト@example.com or see https://ja.wikipedia.org/wiki/日本.",
    "configure.ac and network.target are files; www.example.target is a site",
    "(see http://example.com/a_(b)) and <x@example.org>, ftp://ftp.example.net/pub.",
    "ssh://git@example.com/x.git tel:+1-555-0100 192.168.0.1:8080 localhost:3000",
    "",
    "no links here at all, only words.",
]


def expected(text: str, options: dict[str, Any]) -> list[tuple[int, int, str]]:
    return [(link.start, link.end, link.kind) for link in find_links(text, **options)]


@pytest.mark.parametrize("options", OPTION_SETS, ids=repr)
def test_spans_and_has_links_agree_with_find_links_on_every_conformance_line(options: dict[str, Any]) -> None:
    finder = Finder(**options)
    for text in [*CONFORMANCE_LINES, *PROSE]:
        want = expected(text, options)
        assert list(spans(text, **options)) == want
        assert list(finder.spans(text)) == want
        assert uts58.has_links(text, **options) is bool(want)
        assert finder.has_links(text) is bool(want)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b.com", ".", "/", "@", "x@y.org", " ", "://", "https", "例え.jp", ")", "("])))
def test_spans_agree_with_find_links_on_generated_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    want = expected(text, {})
    assert list(spans(text)) == want
    assert uts58.has_links(text) is bool(want)


def test_a_span_is_a_plain_named_tuple() -> None:
    (span,) = spans("see example.com")
    assert span == (4, 15, "url") and isinstance(span, tuple)
    assert (span.start, span.end, span.kind) == (4, 15, "url") and isinstance(span, Span)


def test_spans_make_no_link(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("a Link was made")

    monkeypatch.setattr(scanner, "link_maker", refuse)
    assert [kind for _, _, kind in spans("x@example.com and https://example.org/a")] == ["email", "url"]
    assert uts58.has_links("see example.com")
    with pytest.raises(AssertionError, match="a Link was made"):
        list(find_links("see example.com"))  # (the patch is where find_links makes its links)


@pytest.mark.counts_calls
def test_has_links_stops_at_the_first_link(monkeypatch: pytest.MonkeyPatch) -> None:
    validated = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        validated.append(args[1])
        return host_span(*args, **kwargs)

    monkeypatch.setattr(scanner, "host_span", counting)
    text = "see example.com " + "and example.org " * 50_000
    assert uts58.has_links(text)
    assert len(validated) == 1  # the first host only, not the 50,000 after it
    validated.clear()
    assert not uts58.has_links("no link " * 1000 + "x")
    assert validated == []  # no candidate: one regex scan, nothing validated


def test_has_links_honours_the_kinds_and_require_scheme() -> None:
    assert uts58.has_links("x@example.com", urls=False)
    assert not uts58.has_links("x@example.com", emails=False)
    assert not uts58.has_links("see example.com", require_scheme=True)
    assert uts58.has_links("see example.com then https://example.org", require_scheme=True)


def test_errors_name_the_argument() -> None:
    with pytest.raises(TypeError, match="text"):
        uts58.has_links(b"example.com")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text"):
        spans(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text"):
        Finder().spans(3)  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        uts58.has_links("x", finder=Finder(), urls=False)
    with pytest.raises(TypeError, match=r"has_links.*colour"):
        uts58.has_links("x", colour=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"spans.*colour"):
        spans("x", colour=True)  # type: ignore[call-arg]


def test_hostile_input_is_linear_in_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same scanner as find_links: the work counted in hosts validated.
    seen: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        seen.append(1)
        return host_span(*args, **kwargs)

    monkeypatch.setattr(scanner, "host_span", counting)
    counts = []
    for n in (20_000, 40_000):
        seen.clear()
        text = ("a.b/" + "(" * 10 + "\x00\ud800" + "x.com " + "[" * 5) * n
        assert len(list(spans(text))) == len(list(find_links(text)))
        counts.append(len(seen))
    assert counts[1] <= 2.2 * counts[0]
