"""The precision benchmark on real text (bench/precision.py): its scorer, and
uts58 scored on the hand-judged samples in bench/precision/."""

from __future__ import annotations

import html.parser
from pathlib import Path

import pytest
from bench_modules import load_bench

import uts58

# A guard against regressions, on each judged sample pooled: technical text
# and everyday writing (D101; each everyday sample with its uniform draw).
# Issue 22's targets (97 % / 99 %, linkify 98 % / 99 %) are what bench/run.py
# reports as met or NOT MET (bench/precision.py TARGETS); this floor is below
# them so that a sample of ~150 links, where one line moves a figure by 0.7
# points, does not make the suite red, while any real loss does.
MIN_PRECISION = {"uts58 find_links": 0.95, "uts58 linkify": 0.95}
# (0.97: the everyday samples mark the addresses of old signatures at
# pseudo-domains, "trebor@biar.UUCP", "mauro@dyna.sublink", as links; no
# mail reaches them and no TLD list has them, D17: 5 of the 170 links of
# everyday-heldout, its only misses)
MIN_RECALL = {"uts58 find_links": 0.97, "uts58 linkify": 0.97}


P = load_bench("precision")
import realtext  # noqa: E402  (bench/ is on sys.path once precision is loaded)


def _judged() -> list[tuple[Path, str, list]]:  # type: ignore[type-arg]
    return [(path, *P.read_judged(path)) for path in P.judged_files()]


# --- the file format ------------------------------------------------------------------------------------------------


def test_marks_parsed() -> None:
    line = P.parse_marked("a ⸠x.org⸡ b ⸢c.de⸣ ⸠y@z.org⸡")
    assert line.text == "a x.org b c.de y@z.org"
    assert [line.text[s:e] for s, e in line.links] == ["x.org", "y@z.org"]
    assert [line.text[s:e] for s, e in line.either] == ["c.de"]


def test_leading_hash_escaped() -> None:
    assert P.parse_marked("\\# see ⸠x.org⸡").text == "# see x.org"
    assert P.parse_marked("\\\\x").text == "\\x"
    assert P._escape("# x") == "\\# x" and P._escape("\\x") == "\\\\x" and P._escape("x # y") == "x # y"


@pytest.mark.parametrize("bad", ["⸠x.org", "x.org⸡", "⸠a⸠b⸡⸡", "⸢a⸠b⸡⸣", "⸠a⸣", "⸠⸡"])
def test_unbalanced_marks_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        P.parse_marked(bad)


def test_read_judged(tmp_path: Path) -> None:
    f = tmp_path / "judged-x.txt"
    f.write_text(
        "# header\n# status: judged\n\n# doc/a.txt:3 | candidates: x.org; setup.py\n"
        "# not: setup.py — file name\nsee ⸠x.org⸡ and setup.py\n\n# doc/b.txt:9 | candidates: (none)\n\\#y\n",
        encoding="utf-8",
    )
    status, lines = P.read_judged(f)
    assert status == "judged"
    assert [line.text for line in lines] == ["see x.org and setup.py", "#y"]
    assert lines[0].nots == [("setup.py", "file name")] and lines[1].nots == []
    assert lines[0].source.startswith("doc/a.txt:3") and lines[0].number == 6
    assert P.format_errors(lines) == []
    lines[0].nots.append(("nowhere.py", "x"))
    lines[0].nots.append(("x.org", "x"))
    assert len(P.format_errors(lines)) == 2


def test_not_without_reason_rejected(tmp_path: Path) -> None:
    f = tmp_path / "x.txt"
    f.write_text("# not: setup.py\nsetup.py\n", encoding="utf-8")
    with pytest.raises(ValueError):
        P.read_judged(f)


# --- the scorer -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "host"),
    [
        ("https://user:pw@www.example.com:8080/a@b", "www.example.com"),
        ("example.com/x?y#z", "example.com"),
        ("http://[::1]:80/", "[::1]"),
        ("mailto:someone@lists.debian.org?subject=x", "lists.debian.org"),
        ("a.b@c.example.org", "c.example.org"),
        ("www.x.org/@user", "www.x.org"),
    ],
)
def test_host_range(link: str, host: str) -> None:
    text = f"( {link} )"
    s, e = P.host_range(text, 2, 2 + len(link))
    assert text[s:e] == host


def test_score_by_hand() -> None:  # D59
    lines = [
        P.parse_marked("see ⸠http://x.org/a⸡. or ⸢y.de⸣ or z.py"),
        P.parse_marked("write ⸠a@b.org⸡ ftp ⸠ftp://u:p@h.example.com/x⸡"),
    ]
    predicted = [
        # exact; ignored (either-way); false positive
        [(4, 18, "url"), (23, 27, "url"), (31, 35, "url")],
        # the email right; an email out of the ftp URL's userinfo: wrong kind -> FP, URL missed
        [(6, 13, "email"), (24, 41, "email")],
    ]
    s = P.score_lines(lines, predicted)
    assert (s.links, s.found, s.tp, s.fp, s.fn, s.ignored, s.exact) == (3, 2, 2, 2, 1, 1, 2)
    assert s.precision == 0.5 and s.recall == pytest.approx(2 / 3)
    assert len(s.false_positives) == 2 and len(s.misses) == 1 and "ftp://" in s.misses[0]
    # A span that takes the sentence's full stop still contains the host: found, not exact.
    s = P.score_lines(lines[:1], [[(4, 19, "url")]])
    assert (s.found, s.exact, s.fp) == (1, 0, 0)
    # A piece of a URL's path (no host) is a false positive, and the URL is missed.
    s = P.score_lines(lines[:1], [[(15, 18, "url")]])
    assert (s.found, s.fp) == (0, 1)


def test_candidate_lines() -> None:
    yes = ["a@b", "x://y", "see debian.org", "例子。中国", "ｅｘ．ｃｏｍ"]
    no = ["version 1.2.3", "nothing here", "end.", "a. b", "x_1.2"]
    assert all(P.CANDIDATE.search(t) for t in yes)
    assert not any(P.CANDIDATE.search(t) for t in no)


def test_normalize_cuts_at_a_space() -> None:
    line = ("word " * 120).strip() + "\tend"
    text, note = P.normalize(line)
    assert len(text) <= P.MAX_LINE and "\t" not in text and not text.endswith(" ")
    assert line.startswith(text) and line[len(text)] == " "
    assert note is not None and str(len(line)) in note
    assert P.normalize("a\tb  ") == ("a b", None)


# --- corpus extraction (bench/realtext.py) --------------------------------------------------------------------------


def test_roff_to_text() -> None:
    src = '.TH LS 1\n.SH "SEE ALSO"\n.BR ls (1),\nsee \\fBhttps://x.org/\\fP \\(em or \\-l\\&.\n.\\" x\n.nf\n'
    assert realtext.roff_to_text(src) == "LS 1\nSEE ALSO\nls(1),\nsee https://x.org/ — or -l."


def test_html_to_text_keeps_inline_text_on_its_line() -> None:
    got = realtext.html_to_text(
        "<h1>T</h1><p>See <a href='u'>www.<b>debian</b>.org</a>\nnow.</p><pre>a  b\nc</pre><style>p{}</style>"
    )
    assert got == "T\nSee www.debian.org now.\na  b\nc"


def test_html_to_text_deep_nesting_no_recursion() -> None:
    got = realtext.html_to_text("<div>" * 5000 + "x.org" + "</div>" * 5000)
    assert got == "x.org"


# --- the systems ----------------------------------------------------------------------------------------------------


class _Anchors(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count += tag == "a"


def _lines_to_check() -> list[str]:
    lines = [line.text for _, _, judged in _judged() for line in judged]
    return lines or ["see x.org, 例子。中国 and a@b.org", "スコープ。info と https://example.com/(x)."]


def test_linkify_system_is_linkify() -> None:
    """The 'uts58 linkify' system gives exactly the links uts58.linkify makes
    (counted by the standard library's HTML parser in linkify's output)."""
    detector = P.systems(node=False)["uts58 linkify"]
    lines = _lines_to_check()
    for text, spans in zip(lines, detector(lines), strict=True):
        parser = _Anchors()
        parser.feed(uts58.linkify(text))
        assert parser.count == len(spans), text


def test_node_runner_counts_code_points() -> None:  # D60
    # The JS peers are installed by the bench set-up (make bench), never by the tests.
    reason = P._node_reason()
    if reason is not None:
        pytest.skip(f"{reason} (python bench/precision.py setup installs them)")
    text = "😀𝒳 see https://example.com/😀 and mail me@example.org."
    want = [("https://example.com/😀", "url"), ("me@example.org", "email")]
    for name in ("autolinker", "linkify-it"):
        detector = P.NodeDetector(name)
        [spans] = detector([text])
        assert [(text[s:e], k) for s, e, k in spans] == want, name


# --- the judged samples ---------------------------------------------------------------------------------------------


def test_samples_disjoint_and_well_formed() -> None:  # D58
    files = _judged()
    if not files:
        pytest.skip("no sample in bench/precision/ yet")
    by_set: dict[str, set[str]] = {}
    for path, _, lines in files:
        assert lines, path
        assert P.format_errors(lines) == [], path
        for line in lines:
            assert line.source, f"{path}:{line.number}: no source comment"
            assert len(line.text) <= P.MAX_LINE
        by_set.setdefault(P.sample_set(path), set()).update(line.text for line in lines)
    names = sorted(by_set)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not by_set[a] & by_set[b], f"samples {a} and {b} share lines"


@pytest.mark.parametrize("system", sorted(MIN_PRECISION))
def test_uts58_on_judged_samples(system: str) -> None:
    paths = [path for path, status, _ in _judged() if status == "judged"]
    if not paths:
        pytest.skip("no judged sample yet (bench/precision/*.txt with '# status: judged')")
    detectors = P.systems(node=False)
    scores = P.score_files(paths, {system: detectors[system]})
    failed = []
    for sample_name, per_system in scores.items():
        s = per_system[system]
        print(f"\n{system} on {sample_name}: P {s.precision:.3f} R {s.recall:.3f} (TP {s.tp} FP {s.fp} FN {s.fn})")
        print("\n".join(f"  FP {x}" for x in s.false_positives))
        print("\n".join(f"  FN {x}" for x in s.misses))
        if s.precision < MIN_PRECISION[system] or s.recall < MIN_RECALL[system]:
            failed.append(f"{sample_name}: P {s.precision:.3f} R {s.recall:.3f}")
    assert not failed, failed
