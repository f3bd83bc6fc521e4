"""The kernels: the C accelerator (uts58.kernels._c) against the Python
reference (uts58.kernels._python), and the one switch between them (uts58.kernels).

The kernel tests of other modules run in both modes (the ``kernel_mode``
fixture); here the two implementations are compared directly on the
conformance files and on generated input, the accelerator's guards are
exercised, and the whole conformance run is repeated with UTS58_PURE_PYTHON=1.
"""

from __future__ import annotations

import html
import json
import os
import subprocess
import sys
import tracemalloc
from typing import Any

import pytest
from conftest import C_KERNELS_WHY_NOT
from hypothesis import given
from hypothesis import strategies as st

from uts58 import format_url
from uts58 import kernels as _kernels
from uts58.conformance import data_file, read_detection_test, read_formatting_test
from uts58.hosts.whatwg import Components, Display, _ada, ada_status, parse_display, parse_special, parse_special_href
from uts58.kernels import _python as _kernels_py
from uts58.unicode.parts import OPEN_STACK_LIMIT, PARTS
from uts58.unicode.properties import LinkProperties, available_versions, link_properties

PURE = os.environ.get("UTS58_PURE_PYTHON", "") not in ("", "0")
needs_c = pytest.mark.skipif(C_KERNELS_WHY_NOT is not None, reason=C_KERNELS_WHY_NOT or "")
speedups = _kernels._BUILT if C_KERNELS_WHY_NOT is None else None


def c_engine(props: LinkProperties) -> Any:
    """The compiled kernels over ``props`` (whatever mode the run is in)."""
    return _kernels._engine(props, speedups)


def c_ada() -> Any:
    return _ada(speedups)


FORMATTING_SOURCES = [
    c.source for v in ("17.0.0", "18.0.0") for c in read_formatting_test(data_file(v, "LinkFormattingTest.txt"))
]


def test_accelerator_is_built() -> None:
    # `make test` installs with a C compiler: a silently missing build would
    # leave the speed targets unmet and the C code untested.
    if PURE:
        assert not _kernels.accelerated() and _kernels.status().startswith("off: UTS58_PURE_PYTHON")
        assert ada_status() == "off: the C accelerator is not in use"
        return
    assert _kernels._BUILT is not None, "uts58.kernels._c did not build: see the pip install output"
    assert _kernels.accelerated() and _kernels.status() == "on"
    assert ada_status() == "on", "ada's C API did not match the accelerator's expectations"
    assert not isinstance(_kernels.engine(link_properties()), _kernels_py.Engine)


def test_pure_python_switch() -> None:
    code = (
        "import uts58; from uts58 import kernels as _kernels; from uts58.hosts import whatwg;"
        "print(_kernels.accelerated(), whatwg.ada_status().startswith('off'), uts58.format_url('example.com/a%20b.'))"
    )
    env = {**os.environ, "UTS58_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "example.com/a%20b%2E"]


@needs_c
def test_use_python_switches_every_kernel() -> None:
    props = link_properties()
    try:
        _kernels.use_python()
        assert isinstance(_kernels.engine(props), _kernels_py.Engine)
        assert _kernels.status() == "off: switched off by use_python()" and ada_status().startswith("off")
        python = format_url("https://example.com/%E3%81%82)")
    finally:
        _kernels.use_python(False)
    assert not isinstance(_kernels.engine(props), _kernels_py.Engine) and ada_status() == "on"
    assert format_url("https://example.com/%E3%81%82)") == python == "https://example.com/あ%29"


def test_conformance_in_pure_python_matches() -> None:
    # The whole conformance run (both files, both versions) once more in
    # pure Python: same counts, nothing failed.
    def run(pure: str) -> str:
        env = {**os.environ, "UTS58_PURE_PYTHON": pure}
        proc = subprocess.run(
            [sys.executable, "-m", "uts58", "conformance"], env=env, capture_output=True, text=True, check=True
        )
        return proc.stdout

    pure, compiled = run("1"), run("0")
    assert pure == compiled
    assert " 0 failed" in pure and all(" 0 failed" in line for line in pure.splitlines())


# --------------------------------------------------------------------------
# Compiled and Python escapers agree


def escapers(version: str = "17.0.0") -> tuple[Any, _kernels_py.Engine]:
    props = link_properties(version)
    return c_engine(props), _kernels_py.Engine(props)


@needs_c
@pytest.mark.parametrize("version", available_versions())
def test_formatting_sources_agree(version: str) -> None:
    c, py = escapers(version)
    for source in FORMATTING_SOURCES:
        parsed = parse_special_href(source if "://" in source else "https://" + source)
        assert parsed is not None
        args = (parsed.pathname[1:], parsed.query, parsed.fragment)
        assert c.display_tail(*args) == py.display_tail(*args), source
        for part in (0, 1, 2):
            assert c.decode(source, part) == py.decode(source, part)


# Characters that matter: each part's syntax, brackets (matched, crossed,
# unmatched), Hard, Soft and Include of the BMP and beyond, surrogates,
# escapes (valid and broken UTF-8, ASCII, "%25").
SPECIAL_CHARACTERS = "/?#=&,:~%.!'\"()[]{}<>«»「」（）⟨⟩ a-Z\\\t\x00\x7f"
ALPHABET = st.sampled_from(
    [
        *SPECIAL_CHARACTERS,
        *("\u0f0d", "\u06d4", "\u202e", "\ud800", "\udfff", "😀", "𝐀", "\U0001f10a", "\U000e0001", "\U0010ffff"),
        *("%20", "%25", "%3F", "%23", "%41", "%C3%A9", "%E2%80%AE", "%F0%9F%98%80", "%C3", "%FF", "%ED%A0%80"),
        *("%E0%80%80", "%F4%90%80%80", "%c3%a9", "%2", "%G0", ":~:"),
    ]
)
TEXT = st.lists(ALPHABET, max_size=40).map("".join)
OPTIONAL = st.none() | TEXT
URL_PIECES = st.lists(
    st.sampled_from(
        [
            *"https:// http:// ftp:// wss:// HTTP:// user : pw @ example.com 例子.中国 xn--bcher-kva.de [::1]"
            " 127.0.0.1 0x7f.1 :8080 :443 :99999 / \\ .. . ? q=1&r # frag :~:text=x %2e %zz é ' ` {".split(),
            *("a b", "\ud800", "\t", " ", "\x00"),
        ]
    ),
    max_size=12,
).map("".join)


@needs_c
@given(OPTIONAL, OPTIONAL, OPTIONAL, st.lists(TEXT, max_size=3))
def test_escape_parts_agree(path: str | None, query: str | None, fragment: str | None, directives: list[str]) -> None:
    c, py = escapers()
    assert c.escape_parts(path, query, fragment, directives) == py.escape_parts(path, query, fragment, directives)


@needs_c
@given(OPTIONAL, OPTIONAL, OPTIONAL)
def test_display_tail_agrees(path: str | None, query: str | None, fragment: str | None) -> None:
    c, py = escapers()
    assert c.display_tail(path, query, fragment) == py.display_tail(path, query, fragment)


@needs_c
@given(TEXT, st.sampled_from([0, 1, 2]))
def test_decode_agrees(s: str, part: int) -> None:
    c, py = escapers()
    assert c.decode(s, part) == py.decode(s, part)


@needs_c
def test_open_stack_limit_and_long_input() -> None:
    c, py = escapers()
    for s in ("(" * (OPEN_STACK_LIMIT + 5) + ")" * (OPEN_STACK_LIMIT + 5), "a)" * 1000, "x" * 100_000 + "."):
        assert c.escape_parts(s, None, None, ()) == py.escape_parts(s, None, None, ())
    # Beyond the limit an Open is escaped, and so is its Close.
    deep = c.escape_parts("(" * (OPEN_STACK_LIMIT + 1) + "x", None, None, ())
    assert deep.endswith("%28x") and deep.count("%28") == 1


@needs_c
def test_type_errors_name_the_argument() -> None:
    c, _ = escapers()
    with pytest.raises(TypeError, match="query must be a str"):
        c.escape_parts("a", 1, None, ())
    with pytest.raises(TypeError, match=r"directives\[\] must be a str"):
        c.escape_parts(None, None, None, [b"x"])
    with pytest.raises(TypeError, match="directives must be a sequence"):
        c.escape_parts(None, None, None, 5)
    with pytest.raises(TypeError, match="fragment must be a str"):
        c.display_tail(None, None, 3.0)
    with pytest.raises(ValueError, match="part must be 0, 1 or 2"):
        c.decode("x", 3)


@needs_c
def test_escaper_rejects_malformed_tables() -> None:
    assert speedups is not None
    props = link_properties()
    firsts, lasts, codes = props.supplementary_ranges()
    parts = tuple((p.initiator, p.terminators, p.clear_stack_open) for p in PARTS)
    good = [props.bmp_link_term, firsts, lasts, codes, (0x29,), (0x28,), 125, parts, ("", "", "")]
    speedups.Engine(*good)
    bad = {
        0: b"\x00" * 10,  # not 65536 codes
        1: firsts[:-1],  # columns of unequal length
        3: (9,) * len(codes),  # not a Link_Term code
        4: (0x29, 0x28),
        6: 1025,  # an open stack limit beyond the compiled stack
        7: parts[:3],
        8: ("é", "", ""),  # not ASCII
    }
    for index, value in bad.items():
        args = list(good)
        args[index] = value
        with pytest.raises(ValueError):
            speedups.Engine(*args)
    with pytest.raises(ValueError, match="sorted"):
        speedups.Engine(*good[:4], (0x29, 0x28), (0x28, 0x29), *good[6:])
    with pytest.raises(ValueError, match="out of range"):
        speedups.Engine(b"\x07" * 0x10000, *good[1:])


def _none(url: str, keep_root: bool) -> None:
    return None


@needs_c
def test_no_leak() -> None:
    c, _ = escapers()
    ada = c_ada()
    args = ("wiki/Ракь_(планета)).", "a=%C3%A9&b=%FF", "x:~:text=a,b", ["y"])

    def work() -> None:
        for _ in range(2000):
            c.escape_parts(*args)
            c.display_tail(*args[:3])
            ada.parse("https://user@例子.中国:8080/a/../b?q=1#f")
            ada.parse_display(c, _none, "https://user@例子.中国:8080/a/%E3%81%82?q=%C3%A9#f:~:text=x", True)
            ada.parse_display(c, _none, "https://exa mple.com/", True)
            ada.parse_display(c, _none, "mailto:x@example.com", True)

    work()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    work()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert grown < 64 * 1024, f"{grown} bytes kept after 2,000 calls"


# --------------------------------------------------------------------------
# §3.5.1: compiled and Python termination agree


def ends(text: str, start: int, version: str = "17.0.0", in_path: bool = False) -> tuple[int, int]:
    props = link_properties(version)
    return c_engine(props).find_link_end(text, start, in_path), _kernels_py.find_link_end(text, start, props, in_path)


@needs_c
@pytest.mark.parametrize("version", available_versions())
def test_termination_on_detection_lines(version: str) -> None:
    for file_version in ("17.0.0", "18.0.0"):
        lines = read_detection_test(data_file(file_version, "LinkDetectionTest.txt"))
        for line in lines:
            # From every position, not only the host ends of the marked links.
            for start in range(len(line.text) + 1):
                for in_path in (False, True):  # (inside a path: opaque URLs, D53)
                    c, py = ends(line.text, start, version, in_path)
                    assert c == py, (line.text, start, in_path)


@needs_c
@given(TEXT, st.integers(min_value=0, max_value=3))
def test_termination_agrees(tail: str, skip: int) -> None:
    text = "example.com" + tail
    for start in range(min(11 + skip, len(text)), len(text) + 1, 7):
        for in_path in (False, True):
            c, py = ends(text, start, in_path=in_path)
            assert c == py


@needs_c
@pytest.mark.parametrize(
    "tail",
    [
        "(" * 10**5,
        "(" * OPEN_STACK_LIMIT + ")" * OPEN_STACK_LIMIT + "x",
        "." * 10**5 + "a",
        "😎𠀀" * 10**4 + ".",
        "#a:~:" + ",&" * 10**4 + ".",
        ":~:x",
        "#:~:a:~:b",
        "?a=(b)&c=[d]#e(f)g",
    ],
)
def test_termination_hostile_shapes_agree(tail: str) -> None:
    c, py = ends("example.com/" + tail + " end", 11)
    assert c == py


@needs_c
def test_termination_checks_its_arguments() -> None:
    fast = c_engine(link_properties())
    with pytest.raises(TypeError, match="text must be a str"):
        fast.find_link_end(b"x", 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="outside"):
        fast.find_link_end("abc", 4)
    with pytest.raises(ValueError, match="outside"):
        fast.find_link_end("abc", -1)


@needs_c
@given(st.text(alphabet=st.sampled_from("&<>\"'a é\u0f0d😀\x00\ud800"), max_size=30))
def test_escape_html_is_html_escape(s: str) -> None:
    assert speedups is not None
    assert speedups.escape_html(s) == html.escape(s)


@needs_c
def test_escape_html_keeps_the_object_and_checks_type() -> None:
    assert speedups is not None
    s = "nothing to escape here, 例子"
    assert speedups.escape_html(s) is s

    class Sub(str):
        pass

    assert type(speedups.escape_html(Sub("plain"))) is str and type(html.escape(Sub("plain"))) is str
    with pytest.raises(TypeError, match="s must be a str"):
        speedups.escape_html(b"<")


# --------------------------------------------------------------------------
# parse_display: one compiled call (parse, split, decode, §4.1) against the
# Python steps (parse_special_href, then the Python kernels)


def both_displays(url: str, keep_root: bool) -> tuple[object, object]:
    props = link_properties()
    compiled = c_ada().parse_display(c_engine(props), lambda *a: False, url, keep_root)
    c = parse_special_href(url)
    if c is None:
        return compiled, None
    path = c.pathname[1:] if keep_root or c.pathname != "/" else None
    tail = _kernels_py.Engine(props).display_tail(path, c.query, c.fragment)
    return compiled, Display(c.href, c.scheme, c.userinfo, c.host, c.port, tail)


@needs_c
def test_parse_display_on_formatting_sources() -> None:
    for source in FORMATTING_SOURCES:
        url = source if "://" in source else "https://" + source
        for keep_root in (False, True):
            compiled, python = both_displays(url, keep_root)
            assert isinstance(compiled, Display) and compiled == python, source


@needs_c
@given(URL_PIECES, st.booleans())
def test_parse_display_agrees(url: str, keep_root: bool) -> None:
    compiled, python = both_displays(url, keep_root)
    if compiled is not False:  # (False: no "//", left to the fallback)
        assert compiled == python


@needs_c
def test_parse_display_declines_and_checks() -> None:
    ada, engine = c_ada(), c_engine(link_properties())
    calls: list[tuple[str, bool]] = []

    def fallback(url: str, keep_root: bool) -> str:
        calls.append((url, keep_root))
        return "fell back"

    # no "//": the Python steps split it (the fallback is called with the same arguments)
    assert ada.parse_display(engine, fallback, "mailto:x@example.com", False) == "fell back"
    assert calls == [("mailto:x@example.com", False)]
    assert ada.parse_display(engine, fallback, "https://exa mple.com/", False) is None  # not a URL
    assert ada.parse_display(engine, fallback, "https://a\ud800.com/", False) is None  # lone surrogate
    shown = ada.parse_display(engine, fallback, "https://u@xn--bcher-kva.de:8080/a%20b.", False)
    # Decisions are the caller's: the host stays ASCII, the tail is display form.
    assert shown == Display(
        "https://u@xn--bcher-kva.de:8080/a%20b.", "https", "u", "xn--bcher-kva.de", "8080", "/a%20b%2E"
    )
    assert len(calls) == 1
    with pytest.raises(TypeError, match="engine must be"):
        ada.parse_display(None, fallback, "https://x.com/", False)
    with pytest.raises(TypeError, match="fallback must be callable"):
        ada.parse_display(engine, None, "https://x.com/", False)
    with pytest.raises(TypeError, match="url must be a str"):
        ada.parse_display(engine, fallback, b"https://x.com/", False)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        ada.parse_display(engine, fallback, "https://x.com/")
    with pytest.raises(ZeroDivisionError):  # an error of the fallback comes through
        ada.parse_display(engine, lambda *a: 1 / 0, "mailto:x@example.com", False)


def test_parse_display_same_in_both_modes() -> None:
    props = link_properties()
    was_python = not _kernels.accelerated()
    try:
        for pure in (True, False):
            _kernels.use_python(pure)
            got = [parse_display("https://" + s if "://" not in s else s, False, props) for s in FORMATTING_SOURCES]
            if pure:
                python = got
    finally:
        _kernels.use_python(was_python)
    assert got == python


# --------------------------------------------------------------------------
# ada through its C API and through normalize_url agree


@needs_c
@given(URL_PIECES)
def test_parse_special_paths_agree(url: str) -> None:
    assert parse_special(url) == parse_special_href(url)


@needs_c
def test_parse_special_on_formatting_sources() -> None:
    for source in FORMATTING_SOURCES:
        url = source if "://" in source else "https://" + source
        got = parse_special(url)
        assert isinstance(got, Components) and got == parse_special_href(url)
    assert parse_special("not a url") is None and parse_special("https://exa mple.com") is None
    # A valid URL that is not special: the accelerator declines (False) and
    # the regex path decides (no "//": not a special URL either).
    for url in ("mailto:x@example.com", "foo:bar", "file:///etc"):
        assert c_ada().parse(url) is False or url.startswith("file")
        assert parse_special(url) == parse_special_href(url)


@needs_c
def test_ada_rejects_bad_arguments() -> None:
    assert speedups is not None
    with pytest.raises(TypeError, match="tuple subclasses"):
        speedups.Ada(1, 1, 1, 1, 1, 1, 1, dict, Display)
    with pytest.raises(TypeError, match="tuple subclasses"):
        speedups.Ada(1, 1, 1, 1, 1, 1, 1, Components, 5)
    with pytest.raises(ValueError, match="address is 0"):
        speedups.Ada(0, 1, 1, 1, 1, 1, 1, Components, Display)
    with pytest.raises(ValueError, match="go together"):
        speedups.Ada(1, 1, 1, 1, 1, 1, 0, Components, Display)
    # (without ToUnicode's two, the rest of the C API stays; to_unicode says False)
    from uts58.hosts.whatwg import _ADDRESSES

    assert _ADDRESSES is not None
    partial_api = speedups.Ada(*_ADDRESSES[:5], 0, 0, Components, Display)
    assert partial_api.to_unicode("xn--bcher-kva.de") is False
    assert partial_api.domain("Bücher.de") == "xn--bcher-kva.de"
    with pytest.raises(TypeError):
        speedups.Ada(1, 1, 1, 1, 1, Components, Display)  # (the five addresses before issue 23)
    with pytest.raises(TypeError, match="url must be a str"):
        c_ada().parse(b"https://example.com")
    with pytest.raises(TypeError, match="name must be a str"):
        c_ada().domain(b"example.com")
    with pytest.raises(TypeError, match="ASCII str"):
        c_ada().to_unicode(None)
    assert c_ada().domain("a\ud800.com") is None  # (a lone surrogate: no domain)
    from uts58.hosts.domains import _parsed_domain

    long_name = "x" * 100_000 + ".com"  # (through the heap buffer; the WHATWG parser has no length limit)
    assert c_ada().domain(long_name) == _parsed_domain(long_name) == long_name


def test_format_url_same_in_both_modes() -> None:
    # format_url (whichever mode this run is in) against the other mode, in
    # a subprocess, over the conformance sources.
    code = "import sys, json, uts58; print(json.dumps([uts58.format_url(s) for s in json.load(sys.stdin)]))"
    env = {**os.environ, "UTS58_PURE_PYTHON": "0" if PURE else "1"}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(FORMATTING_SOURCES),
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(proc.stdout) == [format_url(s) for s in FORMATTING_SOURCES]


def test_python_names_cited_in_the_c_file_exist() -> None:
    """Comments of the C sources name the Python reference of each kernel
    (``as uts58.kernels._python.decode``): every such name must exist, so that
    a renamed function cannot leave the C files pointing at nothing."""
    import importlib
    import re
    from pathlib import Path

    sources = sorted((Path(__file__).resolve().parents[2] / "src" / "kernels").glob("*.[ch]"))
    assert len(sources) >= 5, sources
    source = "".join(p.read_text(encoding="utf-8") for p in sources)
    cited = sorted(set(re.findall(r"\buts58(?:\.[A-Za-z_][A-Za-z0-9_]*)+", source)))
    assert len(cited) >= 10, cited  # the test reads the citations
    missing = []
    for name in cited:
        parts = name.rstrip(".").split(".")
        # the longest importable module prefix, then attributes
        for k in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:k]))
            except ImportError:
                continue
            break
        else:
            missing.append(name)
            continue
        for attr in parts[k:]:
            if not hasattr(obj, attr):
                if parts[1] == "_speedups" and speedups is None:
                    break  # (not built here: nothing to check against)
                missing.append(name)
                break
            obj = getattr(obj, attr)
    assert missing == []


# --------------------------------------------------------------------------
# SlotMaker (src/kernels/slots.c): a Link made in one call, as the setters make it


@needs_c
def test_slot_maker_makes_the_link_the_setters_make() -> None:
    from uts58 import Finder
    from uts58.detect.link import LINK_SLOTS, Link, _host, _make_link

    assert speedups is not None
    maker = speedups.SlotMaker(Link, LINK_SLOTS)
    finder = Finder()
    host = _host("bücher.de", "xn--bcher-kva.de", "domain")
    values = (3, 20, "url", "bücher.de/straße", None, host, finder, "17.0.0", None, None)
    made, reference = maker(*values), _make_link(*values)
    assert type(made) is Link
    assert [getattr(made, name) for name in LINK_SLOTS] == [getattr(reference, name) for name in LINK_SLOTS]
    assert made == reference and hash(made) == hash(reference)
    assert made.href == reference.href == "https://xn--bcher-kva.de/stra%C3%9Fe"
    assert made.host is host  # (the objects themselves, referenced)
    with pytest.raises(AttributeError):
        made.start = 4  # type: ignore[misc]  # (still immutable)
    with pytest.raises(TypeError, match="takes 10 positional arguments"):
        maker(*values[:-1])
    with pytest.raises(TypeError, match="takes 10 positional arguments"):
        maker(*values[:-1], _display=None)


@needs_c
def test_slot_maker_guards() -> None:
    from uts58.detect.link import Link

    assert speedups is not None

    class Slotted:
        __slots__ = ("a", "b")

    class Made:
        __slots__ = ("a",)

        def __new__(cls) -> Made:
            return object.__new__(cls)

    class Sub(Slotted):
        __slots__ = ("c",)

    maker = speedups.SlotMaker(Slotted, ("b", "a"))
    obj = maker(1, 2)
    assert (obj.a, obj.b) == (2, 1)
    with pytest.raises(ValueError, match="slot of the class itself"):
        speedups.SlotMaker(Slotted, ("a", "nope"))
    with pytest.raises(ValueError, match="slot of the class itself"):
        speedups.SlotMaker(Sub, ("a",))  # (a slot of the base class)
    with pytest.raises(ValueError, match="slot of the class itself"):
        speedups.SlotMaker(Link, ("href",))  # (a property, not a slot)
    with pytest.raises(ValueError, match="named twice"):
        speedups.SlotMaker(Slotted, ("a", "a"))
    with pytest.raises(ValueError, match="1 to 16"):
        speedups.SlotMaker(Slotted, ())
    with pytest.raises(TypeError, match=r"object\.__new__"):
        speedups.SlotMaker(Made, ("a",))
    with pytest.raises(TypeError, match=r"object\.__new__"):
        speedups.SlotMaker(int, ("real",))
    with pytest.raises(TypeError):
        speedups.SlotMaker("Link", ("a",))


# --------------------------------------------------------------------------
# Issue 38: the backward scan over a class of characters (runs.c, RunStart)
# against the reference's regex over the same ranges, for the two classes
# the scanner asks for: a host's run (label characters and separators, D22)
# and an email local-part's (Link_Email, §5.2).


def _run_classes(version: str) -> dict[str, list[tuple[int, int]]]:
    from uts58.hosts.domains import host_patterns

    props = link_properties(version)
    return {"host": list(host_patterns(props).run_ranges), "email": props.email_ranges()}


def _both_run_starts(ranges: list[tuple[int, int]]) -> tuple[Any, Any]:
    was_python = not _kernels.accelerated()
    try:
        _kernels.use_python(False)
        c = _kernels.run_start(ranges)
        _kernels.use_python(True)
        py = _kernels.run_start(ranges)
    finally:
        _kernels.use_python(was_python)
    return c, py


_RUN_STARTS = {
    (version, name): _both_run_starts(ranges) if speedups is not None else None
    for version in available_versions()
    for name, ranges in _run_classes(version).items()
}
# Characters of every kind a run meets: ASCII letters, digits and symbols,
# separators (".", "。", "．", "｡"), letters of other scripts, marks, joiners,
# supplementary characters in and out of the classes, spaces and controls.
_RUN_CHARS = st.sampled_from(
    list("aZ09-_.+!#$%&'*/=?^`{|}~@:/ \t\n()<>[]\"\\")
    + list("éßøÆ谢例子中国。．｡ー가힣ąкириллицаعربيहिन्दीไทย\u0301\u200c\u200d\u00ad\ufeff\u2028")
    + ["\U0001d400", "\U00020000", "\U0001f600", "\U000e0001", "\U0010fffd", "\ud800"]
)


@needs_c
@given(st.lists(_RUN_CHARS, max_size=80), st.integers(0, 80), st.integers(0, 80))
def test_run_start_agrees(chars: list[str], a: int, b: int) -> None:
    text = "".join(chars)
    lo, hi = sorted((min(a, len(text)), min(b, len(text))))
    for (version, name), (c, py) in _RUN_STARTS.items():
        assert c(text, lo, hi) == py(text, lo, hi), (version, name, text, lo, hi)


@needs_c
def test_run_start_agrees_on_every_class_boundary() -> None:
    # Each range's first and last code point and their neighbours, alone and
    # after a run of "a" (inside both classes), in both directions.
    for (version, name), (c, py) in _RUN_STARTS.items():
        for first, last in _run_classes(version)[name]:
            for cp in {first - 1, first, last, last + 1} - {-1, 0x110000}:
                for text in (chr(cp), "a" * 20 + chr(cp), chr(cp) + "a" * 40, "x" + chr(cp) * 3):
                    assert c(text, 0, len(text)) == py(text, 0, len(text)), (version, name, hex(cp))


@needs_c
def test_run_start_checks_its_arguments() -> None:
    run = speedups.RunStart((0x61,), (0x7A,))
    assert run.start("12 abc", 0, 6) == 3
    with pytest.raises(ValueError, match="lo <= hi"):
        run.start("abc", 2, 1)
    with pytest.raises(ValueError, match="len"):
        run.start("abc", 0, 4)
    with pytest.raises(TypeError, match="str"):
        run.start(b"abc", 0, 3)
    for firsts, lasts in [((0x62, 0x61), (0x62, 0x61)), ((0x61,), (0x60,)), ((0x61,), (0x110000,)), ((0x61,), ())]:
        with pytest.raises(ValueError, match="RunStart"):
            speedups.RunStart(firsts, lasts)
    with pytest.raises(TypeError):
        speedups.RunStart([0x61], [0x7A])
