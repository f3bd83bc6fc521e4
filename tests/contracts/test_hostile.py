"""Hostile input: bounded work (counted in steps, not seconds), wrong types,
surrogates and NULs, threads."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import uts58
from uts58 import kernels as _kernels
from uts58.detect.finder import _Scanner
from uts58.migration import refine_end
from uts58.spec.termination import OPEN_STACK_LIMIT
from uts58.unicode.properties import LinkProperties


@contextmanager
def counting(monkeypatch: pytest.MonkeyPatch, owner: type, names: list[str]) -> Iterator[dict[str, int]]:
    """Count the calls of methods: the Python-level steps of an algorithm."""
    counts = dict.fromkeys(names, 0)
    for name in names:
        original = getattr(owner, name)

        def wrapper(*args: Any, __name: str = name, __original: Callable[..., Any] = original, **kw: Any) -> Any:
            counts[__name] += 1
            return __original(*args, **kw)

        monkeypatch.setattr(owner, name, wrapper)
    yield counts


@pytest.fixture
def python_termination() -> Iterator[None]:
    """§3.5.1 in Python, whose steps can be counted (the compiled loop is a
    single forward pass; tests/unit/test_kernels.py compares the two)."""
    was_python = not _kernels.accelerated()
    _kernels.use_python()
    yield
    _kernels.use_python(was_python)


@pytest.mark.usefixtures("python_termination")
def test_nested_brackets_stop_at_the_stack_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "example.com/" + "(" * 10**6
    with counting(monkeypatch, LinkProperties, ["link_term"]) as steps:
        assert uts58.find_link_end(text, 11) == 12 + OPEN_STACK_LIMIT
    assert steps["link_term"] == OPEN_STACK_LIMIT + 1  # one look per bracket, then stop


@pytest.mark.parametrize(
    "tail",
    [
        "." * 10**6,  # 1 MB of Soft characters
        "a" * 10**7,  # a 10 MB single token
        "a." * 5 * 10**5,  # alternating
        "/" * 10**5,  # many clear-stack separators: one step each
    ],
)
@pytest.mark.usefixtures("python_termination")
def test_long_paths_take_steps_per_special_character_only(monkeypatch: pytest.MonkeyPatch, tail: str) -> None:
    text = "https://example.com/" + tail + " end"
    with counting(monkeypatch, LinkProperties, ["link_term"]) as steps:
        links = list(uts58.find_links(text))
    assert len(links) == 1
    # Runs of Include and Soft characters are consumed by the regex engine;
    # Python looks at the final Hard character (and each separator) only.
    assert steps["link_term"] <= 2


@pytest.mark.parametrize(
    ("text", "at_most"),
    [
        ("@" * 10**5, 0),  # no "@" is followed by a dotted domain
        ("." * 10**5, 0),  # no separator is followed by a label character
        ("a." * 10**5, 1),  # one run, looked at once
        ("x@" * 10**5 + "example.com", 1),  # only the last "@" has a domain after it
        ("http://" * 10**5, 0),  # no host after any "://"
        ("a@b." * 10**5, 2 * 10**5),  # one look per "@" and per "." with a label after: linear
    ],
)
def test_candidates_are_few_and_linear(monkeypatch: pytest.MonkeyPatch, text: str, at_most: int) -> None:
    with counting(monkeypatch, _Scanner, ["_schemed", "_email", "_bare"]) as steps:
        list(uts58.find_links(text))
    assert sum(steps.values()) <= at_most


def test_surrogates_nuls_and_controls() -> None:
    text = "\ud800example.com\x00b.com\udfff x@\ud83dexample.org \x7fhttps://a.org/\ud800"
    links = list(uts58.find_links(text))
    # A lone surrogate is no label or Link_Email character: it separates.
    assert [link.text for link in links] == ["example.com", "b.com", "example.org", "https://a.org/"]
    assert uts58.format_url("https://example.com/\ud800") == "https://example.com/\ufffd"  # as the URL parser reads it
    assert uts58.linkify("a.com/x\ud800") == '<a href="https://a.com/x">a.com/x</a>\ud800'
    for link in links:
        assert link.href.isascii()


def test_no_recursion_on_deep_input() -> None:
    # Depth that would overflow any recursive descent (the default recursion
    # limit is 1000): brackets, HTML elements, nested quotes.
    deep = "(" * 100_000 + "example.com" + ")" * 100_000
    assert [link.text for link in uts58.find_links(deep)] == ["example.com"]
    html = "<b>" * 300 + "example.com" + "</b>" * 300
    assert uts58.linkify_html(html).count("<a ") == 1
    html = "<b>" * 50_000 + "example.com" + "</b>" * 50_000
    assert uts58.linkify_html(html) == html  # deeper than browsers go (512): returned as it is (D40)


WRONG = [b"bytes", None, 42, 4.2, ["list"]]


@pytest.mark.parametrize("value", WRONG)
def test_wrong_types_name_the_argument(value: object) -> None:
    cases: list[tuple[Callable[..., Any], tuple[Any, ...], str]] = [
        (uts58.find_links, (value,), "text"),
        (uts58.find_urls, (value,), "text"),
        (uts58.find_emails, (value,), "text"),
        (uts58.find_link_end, (value, 0), "text"),
        (uts58.find_email_start, (value, 0), "text"),
        (uts58.format_url, (value,), "url"),
        (uts58.format_email, (value,), "address"),
        (uts58.linkify, (value,), "text"),
        (uts58.linkify_html, (value,), "fragment"),
        (refine_end, (value, 0, 0), "text"),
        (uts58.link_term, (value,), "ch"),
        (uts58.link_bracket, (value,), "ch"),
        (uts58.is_link_email, (value,), "ch"),
        (uts58.check_link, (value,), "link"),
    ]
    for func, args, name in cases:
        with pytest.raises(TypeError, match=rf"\b{name}\b"):
            func(*args)


def test_offsets_out_of_range() -> None:
    for func, args in [
        (uts58.find_link_end, ("abc", -1)),
        (uts58.find_link_end, ("abc", 4)),
        (uts58.find_email_start, ("a@b", -1)),
        (refine_end, ("abc", 0, 9)),
        (refine_end, ("abc", -2, 1)),
    ]:
        with pytest.raises(ValueError, match="outside the text"):
            func(*args)


def _results(texts: list[str]) -> list[object]:
    return [
        [(link.start, link.end, link.href, link.display) for link in uts58.find_links(t)]
        + [uts58.linkify(t), uts58.linkify_html("<p>" + t + "</p>")]
        for t in texts
    ]


TEXTS = [
    "see bücher.de/straße, x@example.com and https://ja.wikipedia.org/wiki/東京 (a.com/x)",
    "раураl.com helpers.py 例え。みんな https://example.com/%E3%81%82?q=1#f:~:text=a,b",
] * 20


def test_threads_get_the_same_results() -> None:
    expected = _results(TEXTS)
    outcomes: list[object] = [None] * 8
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            outcomes[k] = _results(TEXTS)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and all(o == expected for o in outcomes)


def test_threads_loading_the_tables_at_once() -> None:
    # In a fresh interpreter, 8 threads make the very first calls together.
    probe = """
import threading, uts58
texts = ["see bücher.de/straße x@example.com", "раураl.com helpers.py"]
out = [None] * 8
def work(k):
    out[k] = [[(l.text, l.href) for l in uts58.find_links(t)] + [uts58.linkify(t)] for t in texts]
ts = [threading.Thread(target=work, args=(k,)) for k in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
assert all(o == out[0] for o in out) and out[0][0][0] == ("bücher.de/straße", "https://xn--bcher-kva.de/stra%C3%9Fe")
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize(
    ("make", "options"),
    [
        (lambda n: "tel:" * n, {"schemes": {"tel"}}),  # opaque schemes inside one token
        (lambda n: "x:%zz" + "tel:" * n, {"schemes": {"tel"}}),  # ... that the URL parser refuses
        (lambda n: "foo://" * n + "a.com", {}),  # schemes not enabled, passed over whole
        (lambda n: "http://u@" * n + "a.com/", {}),  # userinfo, passed over whole
        (lambda n: "sip:a@b.com:" * n, {}),  # emails glued to a scheme, then ":"
        (lambda n: "谢谢。a.com。" * n, {}),  # ideographic full stops between CJK and ASCII
        (lambda n: "localhost:1" * n, {"bare_localhost": True}),
        (lambda n: "1.2.3.4:5/" * n, {"bare_ipv4": True}),
        (lambda n: "a_b.com " * n, {}),  # glued names
        # no space for the whole input: every token passed over whole (D53)
        (lambda n: "http://u@x.co/a)" * n, {}),
        (lambda n: "a://b.co)" * n, {}),
        (lambda n: "tel:1)" * n, {"schemes": {"tel"}}),
        (lambda n: '{"a":"http://u@x.co/"},' * n, {}),
        # issue 22: escapes (D100), idents and masks (D99), Message-IDs (D98), evidence (D97)
        (lambda n: "\x1b[1mwww.a.com\x1b[0m \x1b[32mhttps://b.co/\x1b[m" * n, {}),
        (lambda n: "\x1b[" * n, {}),
        (lambda n: "n!~u@b.pl *!*@c.pl " * n, {}),
        (lambda n: "<1234567890.X@a.org>" * n, {}),
        (lambda n: "x.pl y.in z.pc.in " * n, {}),
        (lambda n: " ".join(f"w{i}x.pl" for i in range(n)), {}),  # one long line (the review's 3.75 per doubling)
        (lambda n: "* " + " ".join(f"w{i}x.in," for i in range(n)), {}),
        (lambda n: "https://a.jp/東。メ " * n, {"cjk_prose": True}),
    ],
)
def test_issue_11_rules_stay_linear(
    monkeypatch: pytest.MonkeyPatch, make: Callable[[int], str], options: dict[str, Any]
) -> None:
    """The characters the scanner's steps look at (runs of label characters,
    pieces of runs, bodies of URLs, what §3.5.1 consumes) grow linearly with
    the input."""

    seen = [0]

    def spans(name: str, width: Callable[..., int]) -> None:
        original = getattr(_Scanner, name)

        def counted(self: _Scanner, *args: Any) -> Any:
            result = original(self, *args)
            seen[0] += width(args, result) + 1
            return result

        monkeypatch.setattr(_Scanner, name, counted)

    spans("_run_end", lambda args, end: end - args[0])
    spans("_clauses", lambda args, pieces: args[1] - args[0])
    spans("_body_end", lambda args, end: end - args[0])
    original_kernel = _Scanner._kernel  # (§3.5.1 by the kernels in use, once per scan)

    def kernel(self: _Scanner) -> Any:
        find_end = original_kernel(self)

        def link_end(text: str, start: int, in_path: bool) -> int:
            end: int = find_end(text, start, in_path)
            seen[0] += end - start + 1
            return end

        self.link_end = link_end
        return link_end

    monkeypatch.setattr(_Scanner, "_kernel", kernel)

    def work(n: int) -> int:
        seen[0] = 0
        list(uts58.find_links(make(n), **options))
        return seen[0]

    small, large = work(2000), work(8000)
    assert large <= 4 * small * 1.2 + 100, (small, large)
    assert large <= 20 * len(make(8000))
