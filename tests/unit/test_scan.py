"""The C parts of the candidate scan (``src/kernels/scan.c``,
``_kernels.candidate_scan``) against the reference: the Python scanner
alone, which is what runs with the Python kernels.  Same links, same
order, on generated texts made of the pieces the C scan decides on (scheme
tokens not linked, D53 and D20; clauses of CJK and ASCII labels, D22),
under option sets that change those decisions (schemes, opaque schemes,
bare localhost, single-label hosts); the clauses compared directly; and
the skip is really taken."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import C_KERNELS_WHY_NOT
from hypothesis import example, given
from hypothesis import strategies as st

import uts58
from uts58 import Finder
from uts58 import kernels as _kernels
from uts58.detect.candidates import _CJK_RANGES, _SCAN_CLASSES, _clauses
from uts58.detect.scanner import _Scanner
from uts58.unicode.parts import LABEL_SEPARATORS
from uts58.unicode.properties import link_properties

needs_c = pytest.mark.skipif(C_KERNELS_WHY_NOT is not None, reason=C_KERNELS_WHY_NOT or "")

FINDERS = [
    Finder(),
    # opaque schemes (alternatives ending with ":"), one with '.' and '+', one with a 'k'
    Finder(schemes={"http", "https", "ssh", "tel", "web+x.y", "kt"}),
    Finder(bare_localhost=True),
    Finder(single_label_hosts=True, schemes={"http", "ws", "wss", "git"}),
    Finder(require_scheme=True, bare_ipv4=True, known_tlds={"co", "com", "zz"}),
]

PIECES = [
    *("http", "HTTP", "https", "ftp", "ws", "ssh", "git", "tel", "kt", "\u212at", "web+x.y", "localhost"),
    *("://", ":", "//", "/", "@", "u", "u:p", ".", "co", "com", "。", "．", "｡", "a", "x", "é", "\u0130"),
    *("[", "::1", "]", ")", "(", " ", "\n", "?", "#", "\\", "8080", "1", "-", "+", "谢", "𝐀", "\U0001f600"),
    *("x.co", "example.com", "mailto:", "<", ">", "1.2.3.4", "\u3000"),
    # what the C scan passes over (D106): addresses and runs ending without a TLD, long labels
    *("a@a.zz", "zz", "aaa", "a" * 64, "_", "!", "sip:", "Message-ID: "),
    *("\x1b[0m", "\x1b[1;36m"),  # (D100: terminal escapes, which the C scan leaves to Python)
]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def _links(finder: Finder, text: str, pure: bool) -> list[tuple[Any, ...]]:
    was_python = not _kernels.accelerated()
    try:
        _kernels.use_python(pure)
        # (the href too: each link found is one the URL parser takes)
        found = [
            (link.start, link.end, link.kind, link.text, link.scheme, link.href) for link in finder.find_links(text)
        ]
        if finder == Finder():
            # (find_links without options has a path of its own: the same links)
            assert found == [
                (link.start, link.end, link.kind, link.text, link.scheme, link.href) for link in uts58.find_links(text)
            ]
        return found
    finally:
        _kernels.use_python(was_python)


@needs_c
@given(TEXTS, st.sampled_from(range(len(FINDERS))))
@example("a://b.co)http://u@x.co/a)x.co", 0)
@example("ftp://u:p@x.co/a) http://x.co", 0)
@example("\u212at://b.co/x) kt://x.co/", 1)  # KELVIN SIGN, which lowercases to "k": no scheme "kt"
@example("a://b)tel:+1-555 x://y.co)tel:1", 1)
@example("a://b.co)web+x.y:z", 1)  # an opaque name holding a separator
@example("a://b.co)localhost:8080/x", 2)
@example("a://b.co) http://intranet/x", 3)
@example("x://[::1]/a http://[::1]/a http://u@[::1]/", 0)
@example("http://u@x.co/a)http://\u0130x.co/)ex.co", 4)
@example("sip:a@a.zz a@a.zz.com <a@a.zz> x.zz@a.com b.zz.com", 0)
@example("Message-ID: <a@a.zz> <b@c.com> mailto:a@a.zz x@a.zz:a", 0)
@example("谢谢。a.zz" + "a" * 64 + ".com " + "a" * 64 + ".zz.com", 0)
@example("x.coa@a.zz\u212at" + "a" * 64, 4)  # (a long last label with a non-ASCII letter: Python's)
@example("\x1b[0mhttp://example.com/ \x1b[1mwww.example.com a@a.zz", 0)  # (D100)
def test_same_links_with_and_without_the_c_scan(text: str, which: int) -> None:
    finder = FINDERS[which]
    assert _links(finder, text, pure=False) == _links(finder, text, pure=True)


@pytest.mark.counts_calls
@needs_c
@pytest.mark.parametrize(
    ("unit", "finder"),
    [
        ("a://b.co)", FINDERS[0]),
        ("http://u@x.co/a)", FINDERS[0]),
        ("ftp://u:p@x.co/ ", FINDERS[0]),
        ("a://b.co) x://y. ", FINDERS[1]),
        ("Http://:@b.co/。 ", FINDERS[2]),
    ],
)
def test_one_python_decision_for_a_run_of_tokens(unit: str, finder: Finder, monkeypatch: pytest.MonkeyPatch) -> None:
    # With the C kernels, Python decides the first token at most (a
    # finder's first search) and the C scan the rest; with the Python
    # kernels, Python decides each (the reference).
    calls = []
    schemed = _Scanner._schemed

    def counted(self: _Scanner[Any], at: int) -> Any:
        calls.append(at)
        return schemed(self, at)

    monkeypatch.setattr(_Scanner, "_schemed", counted)
    text = unit * 500
    assert _links(finder, text, pure=False) == []
    assert 1 <= len(calls) <= 2  # (the finder's: one; find_links's, with the default finder: none)
    calls.clear()
    assert _links(finder, text, pure=True) == []
    assert len(calls) == text.count("://") * (2 if finder == Finder() else 1)  # (one per token and call)


@pytest.mark.counts_calls
@needs_c
@pytest.mark.parametrize("unit", ["a@a.zz ", "x@y.zz.", "a.zz ", "a_b.zz ", "a" * 70 + ".com ", "ab.zz@", "a@a.zz\n"])
def test_refused_candidates_are_passed_over_in_c(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # D106: with the C kernels Python looks at the first at most (the
    # finder's first search), the C scan passes over the rest; the
    # reference looks at each; the same links (none) either way.
    calls: list[str] = []
    for name in ("_email", "_bare"):
        method = getattr(_Scanner, name)

        def counted(self: _Scanner[Any], *args: Any, name: str = name, method: Any = method) -> Any:
            calls.append(name)
            return method(self, *args)

        monkeypatch.setattr(_Scanner, name, counted)
    text = unit * 500
    assert _links(FINDERS[0], text, pure=False) == []
    assert len(calls) <= 1
    assert list(uts58.find_links(text)) == [] and len(calls) <= 1  # (and none at all from find_links)
    assert _links(FINDERS[0], text, pure=True) == []
    assert len(calls) >= 500


def _corpus_texts() -> list[str]:
    """Real and hostile text: the conformance files' lines, the documents of
    this checkout line by line and whole, the link-dense bench text, the
    public HTML/XSS inputs when present, and the candidate-dense shapes."""
    import json
    import sys

    from test_detection import ROOT, real_documents

    from uts58.conformance import TEST_VERSIONS, data_file, read_detection_test

    sys.path.insert(0, str(ROOT / "bench"))
    import corpus

    texts = [line.text for v in TEST_VERSIONS for line in read_detection_test(data_file(v, "LinkDetectionTest.txt"))]
    for doc in real_documents():
        texts += [doc, *doc.splitlines()]
    texts += [*corpus.fresh_lines(300, "dev"), *corpus.fresh_lines(300, "held-out")]
    texts += [make(3000) for make in (*corpus.ADVERSARIAL.values(), *corpus.DENSE.values())]
    for path in sorted((ROOT.parent / "shared" / "data" / "htmlsafety").glob("*.jsonl"))[:4]:
        lines = path.read_text(encoding="utf-8").splitlines()[:500]
        texts += [str(json.loads(line).get("input", "")) for line in lines]
    return texts


@needs_c
@pytest.mark.parametrize("which", range(len(FINDERS)))
def test_same_links_on_real_and_hostile_text(which: int) -> None:
    finder = FINDERS[which]
    texts = _corpus_texts()
    assert len(texts) > 5000
    for text in texts:
        assert _links(finder, text, pure=False) == _links(finder, text, pure=True), text[:200]


@pytest.mark.parametrize("pure", [False, True])
def test_a_scheme_is_ascii(pure: bool) -> None:
    # str.lower() makes U+212A KELVIN SIGN a "k"; no URL parser takes it in a
    # scheme, and its href raised.  Such a token is another scheme, passed
    # over whole (D53), in both modes.
    if not pure and C_KERNELS_WHY_NOT is not None:
        pytest.skip(C_KERNELS_WHY_NOT)
    finder = Finder(schemes={"http", "https", "skype", "kt"})
    text = "S\u212aYPE://x.co/a \u212at://b.co/x) kt://x.co/ Skype://y.co/"
    kt, skype = text.index(" kt:") + 1, text.index("Skype")
    assert _links(finder, text, pure) == [
        (kt, kt + 10, "url", "kt://x.co/", "kt", "kt://x.co/"),
        (skype, skype + 13, "url", "Skype://y.co/", "Skype", "skype://y.co/"),
    ]
    html = uts58.linkify(text, finder=finder)
    assert html.count("<a ") == 2 and "S\u212aYPE://x.co/a" in html


CJK = (tuple(first for first, _ in _CJK_RANGES), tuple(last for _, last in _CJK_RANGES))


def _c_scan(finder: Finder) -> Any:
    module = _kernels._BUILT
    assert module is not None
    return _kernels._candidate_scan(finder.plan.props, *finder.plan.scan_args, module)


LABELS = st.lists(
    st.sampled_from(["a", "zz", "com", "谢谢", "한국", "カ", "é", "ab1", "x谢", "𠀀", "ᄀ", "-", ""]),
    min_size=1,
    max_size=3,
).map("".join)
RUNS = st.lists(st.tuples(LABELS, st.sampled_from([".", "。", "．", "｡", ".."])), max_size=12).map(
    lambda parts: "".join(label + sep for label, sep in parts)
)


@needs_c
@given(RUNS, st.data())
@example("谢谢。a.zz。谢谢。", None)
@example("。。a。谢", None)
@example("a。谢。a｡한국．b", None)
def test_same_clauses(run: str, data: st.DataObject | None) -> None:
    scan = _c_scan(FINDERS[0])
    s, e = (0, len(run)) if data is None else sorted(data.draw(st.tuples(*[st.integers(0, len(run))] * 2)))
    text = "x " + run + " y"
    assert scan.clauses(text, s + 2, e + 2) == _clauses(text, s + 2, e + 2)


@needs_c
def test_scan_guards() -> None:
    module = _kernels._BUILT
    assert module is not None
    props = link_properties()
    engine = _kernels._engine(props, module)
    bits = _kernels._bmp_label_bits(props)
    table = _kernels._class_table(dict(_SCAN_CLASSES), module.SCAN_CLASSES)
    rest = (frozenset({"co", "com"}), True, props.ascii_email, table, LABEL_SEPARATORS)
    scan = module.Scan(engine, bits, ("https", "http"), (True, True), False, *CJK, *rest)
    assert scan.skip("a://b.co) x.co", 0, 0)[2] == 11 and scan.skip("a://b.co)http://x.co/", 0, 0)[2] == 13

    def skip(*args: Any) -> tuple[int, int]:
        pos, floor, _ = scan.skip(*args)  # (where the search begins: above)
        return pos, floor

    assert skip("a://b.co)x", 0, 0) == (10, 8)  # passed over to the end; the floor after the token
    assert skip("a://b.co) x.co", 0, 0) == (8, 8)  # stops at "." (a name to look up): resume after the token
    # D106: refused at a first look, passed over ("@" to after it, a run to its end)
    assert skip("a@a.zz b.zz c@d.zz", 0, 0) == (18, 0)
    assert skip("a@a.zz b.com", 0, 0) == (6, 0)  # (a name to look up)
    assert skip("a@谢.zz", 0, 0) == (6, 0)  # (an ASCII last label decides; no clause to cut)
    for kept in ("a@a.com", "mailto:a@a.zz", "<a@a.zz>", "a@a。zz", "é@a.zz", "a@a.zz\U0001f600"):
        assert skip(kept, 0, 0) == (0, 0), kept  # (Python's: a TLD, a scheme, a Message-ID, a clause, …)
    assert skip("a" * 64 + ".com x", 0, 0) == (70, 0)  # (a label longer than 63; to the end)
    assert skip("a" * 63 + ".com x", 0, 0) == (0, 0)
    assert skip("a://b.co)http://x.co/", 0, 0) == (8, 8)  # a host to look up: Python's
    assert skip("x http://x.co/", 1, 0) == (1, 0)  # (nothing passed over)
    with pytest.raises(TypeError, match="text must be a str"):
        scan.skip(b"x", 0, 0)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        scan.skip("x", 0)
    with pytest.raises(ValueError, match="outside"):
        scan.skip("x", 2, 0)
    assert scan.clauses("谢。a", 0, 3) == [(0, 1), (2, 3)]
    with pytest.raises(TypeError, match="takes 3 arguments"):
        scan.clauses("x", 0)
    with pytest.raises(ValueError, match="outside"):
        scan.clauses("x", 1, 0)
    with pytest.raises(ValueError, match="longest first"):
        module.Scan(engine, bits, ("http", "https"), (True, True), False, *CJK, *rest)
    with pytest.raises(ValueError, match="lowercase"):
        module.Scan(engine, bits, ("HTTP",), (True,), False, *CJK, *rest)
    with pytest.raises(ValueError, match="malformed"):
        module.Scan(engine, bits[:-1], ("http",), (True,), False, *CJK, *rest)
    with pytest.raises(ValueError, match="separator"):
        module.Scan(engine, b"\xff" * 8192, ("http",), (True,), False, *CJK, *rest)
    with pytest.raises(ValueError, match="CJK ranges"):
        module.Scan(engine, bits, ("http",), (True,), False, (0x4E00, 0x3400), (0x9FFF, 0x4DBF), *rest)
    with pytest.raises(TypeError):
        module.Scan(None, bits, ("http",), (True,), False, *CJK, *rest)
    with pytest.raises(TypeError):
        module.Scan(engine, bits, ("http",), (True,), False, *CJK, {"com"}, *rest[1:])  # (a set, not frozen)
    with pytest.raises(ValueError, match="never a colon"):
        module.Scan(engine, bits, ("http",), (True,), False, *CJK, rest[0], True, "a:", *rest[3:])
    # The characters come from Python (issue 24): classes by name, ASCII only
    with pytest.raises(ValueError, match="beyond SCAN_CLASSES"):
        module.Scan(engine, bits, ("http",), (True,), False, *CJK, *rest[:3], (1 << 20,) * 128, LABEL_SEPARATORS)
    with pytest.raises(ValueError, match="BMP"):
        module.Scan(engine, bits, ("http",), (True,), False, *CJK, *rest[:4], ".\U0001f600")
    with pytest.raises(RuntimeError, match="not the C scan"):
        _kernels._class_table({"scheme": "a"}, module.SCAN_CLASSES)
    with pytest.raises(RuntimeError, match="ASCII characters only"):
        _kernels._class_table({**dict(_SCAN_CLASSES), "at": "@\uff20"}, module.SCAN_CLASSES)
    # Another "@" given, another scan: the fullwidth one is not given, and "@" is what it reads
    other = dict(_SCAN_CLASSES) | {"at": "%"}
    scan2 = module.Scan(
        engine,
        bits,
        ("http",),
        (True,),
        False,
        *CJK,
        *rest[:3],
        _kernels._class_table(other, module.SCAN_CLASSES),
        LABEL_SEPARATORS,
    )
    assert scan2.skip("a%a.zz b", 0, 0) == (8, 0, 8) and scan2.skip("a@a.zz", 0, 0)[0] == 6


def test_no_c_scan_with_the_python_kernels() -> None:
    was_python = not _kernels.accelerated()
    try:
        _kernels.use_python(True)
        args = (_CJK_RANGES, frozenset(), True, _SCAN_CLASSES, LABEL_SEPARATORS)
        assert _kernels.candidate_scan(link_properties(), ("http",), (True,), False, *args) is None
    finally:
        _kernels.use_python(was_python)


@needs_c
@given(TEXTS, st.sampled_from(range(len(FINDERS))))
@example("end of a sentence. And: more @ here", 0)
@example("a.b\U0001f600 x@y :// ::", 0)
@example("a@a.zz x.zz tel:1", 1)
def test_the_search_begins_where_the_skip_stopped(text: str, which: int) -> None:
    # The search from skip's third value finds what the search from where
    # the scan resumed finds: no candidate starts in between.
    finder = FINDERS[which]
    search = finder.plan.candidate.search
    pos, _, at = _c_scan(finder).skip(text, 0, 0)
    assert pos <= at
    whole, there = search(text, pos), search(text, at)
    assert (whole and (whole.span(), whole.lastindex)) == (there and (there.span(), there.lastindex))
    if finder.schemes - {"http", "https", "ftp", "ws", "wss"}:
        assert at == pos  # (names before ":" may start anywhere)
