#!/usr/bin/env python3
"""Precision and recall of link detection on real text (issue 11).

The corpus is built by ``bench/realtext.py`` (Debian documentation, man
pages, changelogs and copyright files in 30 languages, generated on this
machine, never committed).  The unit of text is a LINE.  Systems compared
(``systems()``): uts58 ``find_links`` (default options), uts58 ``linkify``
(the links it makes with the default Policy), linkify-it-py with its full
TLD list, and through ``bench/node/detect.js`` Autolinker and linkify-it (JS).

Commands::

    python bench/precision.py setup                  # npm ci the JS peers into the cache dir
    python bench/precision.py report [--errors DIR]  # corpus stats, links per system, scores of the judged files
    python bench/precision.py sample --n 600 --seed 1 --parts 3 --out bench/precision/to-judge-dev.txt
    python bench/precision.py score FILE...          # scores of judged files
    python bench/precision.py diff --a uts58 --b autolinker --n 200

The judged files (``bench/precision/*.txt``, format in
bench/precision/README.md) mark true links ``⸠…⸡`` and either-way spans
``⸢…⸣``.  A predicted span is CORRECT when it overlaps a marked link, is of
its kind (email or URL) and contains its host (email: its domain); IGNORED
when it overlaps no marked link but a ``⸢⸣`` span; otherwise a FALSE
POSITIVE.  A marked link is FOUND when a predicted span is correct for it.

>>> line = parse_marked("mail ⸠a@b.org⸡ or see setup.py", "x", 1)
>>> s = score_lines([line], [[(5, 12, "email"), (24, 32, "url")]])
>>> (s.tp, s.fp, s.fn, s.precision, s.recall)
(1, 1, 0, 0.5, 1.0)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import everyday  # noqa: E402
import realtext  # noqa: E402

MB = 1 << 20
OPEN, CLOSE = "⸠", "⸡"  # a true link
EITHER_OPEN, EITHER_CLOSE = "⸢", "⸣"  # linking it or not is equally acceptable
MARKS = OPEN + CLOSE + EITHER_OPEN + EITHER_CLOSE
JUDGED_DIR = HERE / "precision"
MAX_LINE = 400

# The targets of issue 22 on both benchmarks (reported, not enforced here: see tests/test_precision.py).
TARGETS = {"uts58 find_links": (0.97, 0.99), "uts58 linkify": (0.98, 0.99)}

Span = tuple[int, int, str]  # start, end (code points), kind "url" or "email"


def cache_dir() -> Path:
    return realtext.default_dir().parent


# --- systems --------------------------------------------------------------------------------------------------------


class Detector:
    """A system: ``detector(lines)`` gives the spans found in each line.
    ``inner_seconds`` is the time of the detection alone when the system
    measures it itself (the JS peers: without process start and JSON)."""

    def __init__(self, name: str, per_line: Callable[[str], list[Span]] | None = None) -> None:
        self.name = name
        self.per_line = per_line
        self.inner_seconds: float | None = None

    def __call__(self, lines: Sequence[str]) -> list[list[Span]]:
        assert self.per_line is not None
        f = self.per_line
        return [f(line) for line in lines]


def _uts58_find_links() -> Detector:
    from uts58 import find_links

    return Detector("uts58 find_links", lambda t: [(x.start, x.end, x.kind) for x in find_links(t)])


def _uts58_linkify() -> Detector:
    # What uts58.linkify links with the default Policy: the anchors of its
    # Linkifier (the one loop every output goes through, D108);
    # tests/test_precision.py checks that the count equals linkify's <a>s.
    from uts58 import Linkifier

    linkifier = Linkifier()

    def spans(text: str) -> list[Span]:
        return [(a.start, a.end, a.link.kind) for a in linkifier.anchors(text)]

    return Detector("uts58 linkify", spans)


def _linkify_it_py() -> Detector:
    from linkify_it import LinkifyIt
    from linkify_it.tlds import TLDS  # type: ignore[import-untyped]

    li = LinkifyIt().tlds(TLDS)  # with its full TLD list, as bench/peers.py

    def spans(text: str) -> list[Span]:
        return [(m.index, m.last_index, "email" if m.schema == "mailto:" else "url") for m in li.match(text) or []]

    return Detector("linkify-it-py", spans)


NODE_SYSTEMS = {"autolinker": "Autolinker (JS)", "linkify-it": "linkify-it (JS)"}


class NodeDetector(Detector):
    """A JS peer run by bench/node/detect.js: one process per call, every line batched through a pipe."""

    def __init__(self, which: str) -> None:
        super().__init__(NODE_SYSTEMS[which])
        self.which = which

    def __call__(self, lines: Sequence[str]) -> list[list[Span]]:
        node = shutil.which("node") or shutil.which("nodejs")
        assert node is not None
        env = {**os.environ, "NODE_PATH": str(node_dir() / "node_modules")}
        proc = subprocess.Popen(
            [node, str(HERE / "node" / "detect.js"), self.which],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        assert proc.stdin is not None and proc.stdout is not None
        stdin = proc.stdin

        def feed() -> None:  # a thread, so that a full stdout pipe cannot deadlock us
            with stdin:
                for i, text in enumerate(lines):
                    stdin.write((json.dumps({"id": i, "text": text}, ensure_ascii=False) + "\n").encode("utf-8"))

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        out: list[list[Span]] = [[] for _ in lines]
        for raw in proc.stdout:
            record = json.loads(raw)
            if record.get("done"):
                self.inner_seconds = float(record["seconds"])
                continue
            out[record["id"]] = [(s, e, k) for s, e, k in record["links"]]
        writer.join()
        if proc.wait() != 0:
            raise RuntimeError(f"node detect.js {self.which} exited with {proc.returncode}")
        return out


def node_dir() -> Path:
    return cache_dir() / "node"


def _node_reason() -> str | None:
    """Why the JS peers cannot run, or None."""
    if shutil.which("node") is None and shutil.which("nodejs") is None:
        return "node not installed (apt-get install nodejs npm)"
    if not (node_dir() / "node_modules" / "autolinker").is_dir() or _stale():
        return "JS peers not installed: python bench/precision.py setup"
    return None


def _stale() -> bool:
    ours, theirs = HERE / "node" / "package.json", node_dir() / "package.json"
    return not theirs.exists() or ours.read_bytes() != theirs.read_bytes()


def setup() -> str | None:
    """npm ci the JS peers (versions pinned in bench/node/) into the cache dir; the reason when it cannot."""
    npm = shutil.which("npm")
    if npm is None or (shutil.which("node") is None and shutil.which("nodejs") is None):
        return "node/npm not installed (apt-get install nodejs npm)"
    target = node_dir()
    target.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(HERE / "node" / name, target / name)
    for cmd in (["ci"], ["install"]):
        done = subprocess.run([npm, *cmd, "--no-audit", "--no-fund"], cwd=target, capture_output=True, text=True)
        if done.returncode == 0:
            return None
    return f"npm install failed: {done.stderr.strip()[-300:]}"


def systems(node: bool = True) -> dict[str, Detector | str]:
    """Every system by name: its Detector, or the reason it is skipped."""
    out: dict[str, Detector | str] = {}
    for make in (_uts58_find_links, _uts58_linkify, _linkify_it_py):
        try:
            d = make()
            out[d.name] = d
        except ImportError as exc:
            out[make.__name__.strip("_")] = f"not installed ({exc.name})"
    reason = _node_reason() if node else "JS peers not asked for"
    for which, name in NODE_SYSTEMS.items():
        out[name] = reason if reason is not None else NodeDetector(which)
    return out


ALIASES = {
    "uts58": "uts58 find_links",
    "find_links": "uts58 find_links",
    "linkify": "uts58 linkify",
    "uts58-linkify": "uts58 linkify",
    "linkify-it-py": "linkify-it-py",
    "autolinker": "Autolinker (JS)",
    "linkify-it": "linkify-it (JS)",
}


# --- corpus lines ---------------------------------------------------------------------------------------------------

# A candidate line: one where some system could find a link: an '@', a
# '://', or a label separator followed by a letter.
CANDIDATE = re.compile(r"@|://|[.\u3002\uff0e\uff61][^\W\d_]")


@dataclass
class Corpus:
    paths: list[str]  # document of each line
    numbers: list[int]  # 1-based line number in its document
    lines: list[str]
    manifest: list[dict[str, object]]

    @property
    def megabytes(self) -> float:
        return sum(int(str(e["bytes"])) for e in self.manifest) / MB


CORPORA = {
    "realtext": "real-text corpus (python bench/realtext.py build)",
    "everyday": "everyday-writing corpus (python bench/everyday.py build)",
}


def corpus_dir(name: str = "realtext") -> Path:
    """Where the corpus ``name`` (a key of CORPORA) is built."""
    return realtext.default_dir() if name == "realtext" else everyday.default_dir()


def load_corpus(directory: Path | None = None, languages: Iterable[str] | None = None) -> Corpus:
    """The lines of a built corpus, of its documents in ``languages`` (all when None)."""
    directory = directory or realtext.default_dir()
    manifest = realtext.load_manifest(directory)
    if languages is not None:
        keep = set(languages)
        manifest = [e for e in manifest if str(e["language"]) in keep]
    corpus = Corpus([], [], [], manifest)
    for entry in manifest:
        rel = str(entry["path"])
        text = (directory / rel).read_text(encoding="utf-8")
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        corpus.paths += [rel] * len(lines)
        corpus.numbers += range(1, len(lines) + 1)
        corpus.lines += lines
    return corpus


def normalize(line: str) -> tuple[str, str | None]:
    """A corpus line as it goes into a sample: tabs as spaces, no trailing
    white space, at most MAX_LINE characters (cut at a space near the limit);
    the note says what was cut."""
    line = line.replace("\t", " ").rstrip()
    if len(line) <= MAX_LINE:
        return line, None
    cut = line.rfind(" ", MAX_LINE - 100, MAX_LINE + 1)
    cut = cut if cut > 0 else MAX_LINE
    return line[:cut].rstrip(), f"cut: first {cut} of {len(line)} characters"


# --- judged files ---------------------------------------------------------------------------------------------------


@dataclass
class JudgedLine:
    file: str
    number: int  # line number in the judged file
    source: str  # the "# path:line" comment before it
    text: str  # without marks
    links: list[tuple[int, int]]  # ⸠…⸡
    either: list[tuple[int, int]]  # ⸢…⸣
    nots: list[tuple[str, str]] = field(default_factory=list)  # (candidate, reason) of "# not:" comments


def parse_marked(raw: str, file: str = "?", number: int = 0) -> JudgedLine:
    """A text line of a judged file: marks out, spans recorded.  A leading
    backslash escapes a first ``#`` or ``\\`` of the text (a text line could
    not start with ``#`` otherwise)."""
    if raw.startswith("\\"):
        raw = raw[1:]
    text: list[str] = []
    links: list[tuple[int, int]] = []
    either: list[tuple[int, int]] = []
    open_at: tuple[str, int] | None = None
    for ch in raw:
        if ch in (OPEN, EITHER_OPEN):
            if open_at is not None:
                raise ValueError(f"{file}:{number}: {ch} inside {open_at[0]}")
            open_at = (ch, len(text))
        elif ch in (CLOSE, EITHER_CLOSE):
            want = OPEN if ch == CLOSE else EITHER_OPEN
            if open_at is None or open_at[0] != want:
                raise ValueError(f"{file}:{number}: {ch} without {want}")
            if open_at[1] == len(text):
                raise ValueError(f"{file}:{number}: empty {want}{ch}")
            (links if ch == CLOSE else either).append((open_at[1], len(text)))
            open_at = None
        else:
            text.append(ch)
    if open_at is not None:
        raise ValueError(f"{file}:{number}: unclosed {open_at[0]}")
    return JudgedLine(file, number, "", "".join(text), links, either)


def read_judged(path: Path) -> tuple[str, list[JudgedLine]]:
    """(status, lines) of a judged or to-judge file; status is the value of
    its ``# status:`` header ("to-judge" or "judged")."""
    status = "to-judge"
    out: list[JudgedLine] = []
    source = ""
    nots: list[tuple[str, str]] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        raw = raw.rstrip("\r")
        if not raw.strip():
            continue
        if raw.startswith("#"):
            body = raw[1:].strip()
            if body.startswith("status:"):
                status = body[len("status:") :].strip()
            elif body.startswith("not:"):
                candidate, sep, reason = body[len("not:") :].strip().partition(" — ")
                if not sep or not reason.strip():
                    raise ValueError(f"{path}:{number}: '# not: <candidate> — <reason>' expected")
                nots.append((candidate.strip(), reason.strip()))
            elif re.match(r"\S+:\d+\b", body):
                source = body
            continue
        line = parse_marked(raw, str(path), number)
        line.source, line.nots = source, nots
        out.append(line)
        source, nots = "", []
    return status, out


def format_errors(lines: Iterable[JudgedLine]) -> list[str]:
    """Problems of a judged file beyond the marks: a ``# not:`` candidate
    that is not in its line, or that is exactly one of its marked links."""
    problems = []
    for line in lines:
        marked = {line.text[s:e] for s, e in line.links}
        for candidate, _ in line.nots:
            if candidate not in line.text:
                problems.append(f"{line.file}:{line.number}: '# not: {candidate}' is not in the line")
            elif candidate in marked:
                problems.append(f"{line.file}:{line.number}: '# not: {candidate}' is also marked as a link")
    return problems


# --- scoring --------------------------------------------------------------------------------------------------------

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:(?://)?")


def link_kind(s: str) -> str:
    """ "email" for ``a@b.org`` and ``mailto:…``, else "url"."""
    if s[:7].lower() == "mailto:":
        return "email"
    at = s.find("@")
    return "email" if at >= 0 and "://" not in s and "/" not in s[:at] else "url"


def host_range(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the host (an email's domain) of the link ``text[start:end]`` is."""
    s = text[start:end]
    if link_kind(s) == "email":
        at = s.rfind("@")
        stop = re.search(r"[?#>]", s[at:])
        return start + at + 1, start + at + (stop.start() if stop else len(s) - at)
    m = _SCHEME.match(s)
    i = m.end() if m and m.group().endswith("//") else 0
    stop = re.search(r"[/?#]", s[i:])
    authority_end = i + (stop.start() if stop else len(s) - i)
    at = s.rfind("@", i, authority_end)
    h = at + 1 if at >= 0 else i
    if s[h : h + 1] == "[":
        close = s.find("]", h, authority_end)
        return start + h, start + (close + 1 if close > 0 else authority_end)
    colon = s.find(":", h, authority_end)
    return start + h, start + (colon if colon >= 0 else authority_end)


@dataclass
class Score:
    links: int = 0  # marked links
    found: int = 0
    exact: int = 0  # found with the marked boundaries exactly
    tp: int = 0  # correct predicted spans
    fp: int = 0
    ignored: int = 0
    false_positives: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)

    @property
    def fn(self) -> int:
        return self.links - self.found

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.links if self.links else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def exact_rate(self) -> float:
        return self.exact / self.found if self.found else 1.0


def _where(line: JudgedLine) -> str:
    return f"{Path(line.file).name}:{line.number} ({line.source.split(' | ')[0]})"


def score_lines(lines: Sequence[JudgedLine], predicted: Sequence[Sequence[Span]]) -> Score:
    """Score predicted spans (one list per line) against the judged lines."""
    score = Score()
    for line, spans in zip(lines, predicted, strict=True):
        text = line.text
        marked = [(s, e, *host_range(text, s, e), link_kind(text[s:e])) for s, e in line.links]
        score.links += len(marked)
        found: set[int] = set()
        exact: set[int] = set()
        for ps, pe, kind in spans:
            overlapping = [i for i, (s, e, *_) in enumerate(marked) if ps < e and s < pe]
            correct = [i for i in overlapping if marked[i][2] >= ps and marked[i][3] <= pe and marked[i][4] == kind]
            if correct:
                score.tp += 1
                found.update(correct)
                exact.update(i for i in correct if (marked[i][0], marked[i][1]) == (ps, pe))
            elif not overlapping and any(ps < e and s < pe for s, e in line.either):
                score.ignored += 1
            else:
                score.fp += 1
                why = "wrong span of a link" if overlapping else "not a link"
                score.false_positives.append(f"{_where(line)}: {text[ps:pe]!r} ({kind}, {why})\t{line.text}")
        score.found += len(found)
        score.exact += len(exact)
        for i, (s, e, *_) in enumerate(marked):
            if i not in found:
                score.misses.append(f"{_where(line)}: {text[s:e]!r}\t{line.text}")
    return score


def judged_files(directory: Path = JUDGED_DIR) -> list[Path]:
    return sorted(directory.glob("*.txt"))


def sample_set(path: Path) -> str:
    """'dev' for to-judge-dev-part2.txt: the sample a file belongs to (a
    uniform draw of the same lines, ``everyday-dev-uniform``, is pooled
    with its set: it holds the links no system found)."""
    name = re.sub(r"-part\d+$", "", path.stem).removesuffix("-uniform")
    return name.removeprefix("to-judge-").removeprefix("judged-")


def score_files(paths: Iterable[Path], detectors: dict[str, Detector | str]) -> dict[str, dict[str, Score | str]]:
    """Per sample set (the judged files of it pooled), per system: its Score
    or the reason it is skipped.  Files still ``# status: to-judge`` are left out."""
    pooled: dict[str, list[JudgedLine]] = defaultdict(list)
    for path in paths:
        status, lines = read_judged(path)
        if status == "judged":
            pooled[sample_set(path)] += lines
    out: dict[str, dict[str, Score | str]] = {}
    for name, lines in sorted(pooled.items()):
        texts = [line.text for line in lines]
        out[name] = {
            system: d if isinstance(d, str) else score_lines(lines, d(texts)) for system, d in detectors.items()
        }
    return out


# --- sampling -------------------------------------------------------------------------------------------------------


def candidates(corpus: Corpus, exclude: Iterable[str] = ()) -> list[tuple[int, str, str | None]]:
    """(corpus line index, normalized text, note) of every distinct candidate line, in corpus order."""
    seen = set(exclude)
    out = []
    for i, raw in enumerate(corpus.lines):
        if not CANDIDATE.search(raw):
            continue
        text, note = normalize(raw)
        if text in seen or not CANDIDATE.search(text) or any(m in text for m in MARKS):
            continue
        seen.add(text)
        out.append((i, text, note))
    return out


def _escape(text: str) -> str:
    return "\\" + text if text[:1] in ("#", "\\") else text


def sample(
    corpus: Corpus,
    n: int,
    seed: int,
    detectors: dict[str, Detector | str],
    exclude: Iterable[str] = (),
    linked: bool = False,
) -> tuple[list[str], dict[str, int]]:
    """The entries of a to-judge file: for each of ``n`` random candidate
    lines, its source comment (with the union of all systems' spans) and the
    line itself, unmarked; and counts of what was drawn from.

    The draw is uniform over the distinct candidate lines (``CANDIDATE``):
    ``random.Random(seed).sample(pool, n)``.  With ``linked``, uniform over
    those on which at least one system finds a link: the pool is shuffled
    with ``seed`` and walked in batches until ``n`` lines are kept (only the
    lines looked at are run)."""
    pool = candidates(corpus, exclude)
    active = [d for d in detectors.values() if isinstance(d, Detector)]
    kept: list[tuple[int, str, str | None, set[tuple[int, int]]]] = []
    looked = 0
    if linked:
        random.Random(seed).shuffle(pool)
        batch, start = max(64, 2 * n), 0
    else:
        pool = random.Random(seed).sample(pool, min(n, len(pool)))
        batch, start = len(pool), 0
    while len(kept) < n and start < len(pool):
        chunk = pool[start : start + batch]
        start += len(chunk)
        union: list[set[tuple[int, int]]] = [set() for _ in chunk]
        texts = [text for _, text, _ in chunk]
        for d in active:
            for spans, acc in zip(d(texts), union, strict=True):
                acc.update((s, e) for s, e, _ in spans)
        for (i, text, note), found in zip(chunk, union, strict=True):
            if len(kept) == n:
                break
            looked += 1
            if found or not linked:
                kept.append((i, text, note, found))
    entries = []
    for i, text, note, found in kept:
        where = f"{corpus.paths[i]}:{corpus.numbers[i]}" + (f" ({note})" if note else "")
        listed = "; ".join(text[s:e] for s, e in sorted(found)) or "(none)"
        entries.append(f"# {where} | candidates: {listed}\n{_escape(text)}\n")
    return entries, {
        "pool": len(pool) if linked else len(candidates(corpus, exclude)),
        "looked": looked,
        "kept": len(kept),
    }


HEADER = """\
# uts58 precision sample "{name}"{part}: {count} lines to judge.
# Drawn by: python bench/precision.py sample --n {n} --seed {seed} --out {out}{extra}
# from the {corpus_name}: {mb:.1f} MB, {docs} documents, {lines:,} lines{languages}:
# {drawn}
# Format and judging rules: bench/precision/README.md.  Mark each true link ⸠like.this⸡, either-way spans
# ⸢like.this⸣, and write "# not: <candidate> — <reason>" above the line for every other candidate.
# When every line of this file is judged, change the next line to "# status: judged".
# status: to-judge
"""


def write_sample(
    out: Path,
    entries: list[str],
    parts: int,
    corpus: Corpus,
    n: int,
    seed: int,
    exclude: list[Path],
    drawn: str,
    corpus_name: str = "realtext",
    languages: Sequence[str] | None = None,
) -> list[Path]:
    extra = f" --parts {parts}" if parts > 1 else ""
    if corpus_name != "realtext":
        extra = f" --corpus {corpus_name}" + extra
    if languages:
        extra += " --languages " + ",".join(languages)
    extra += "".join(f" --exclude {p}" for p in exclude)
    name = out.stem.removeprefix("to-judge-")
    written = []
    size = -(-len(entries) // parts)
    for k in range(parts):
        chunk = entries[k * size : (k + 1) * size]
        target = out if parts == 1 else out.with_name(f"{out.stem}-part{k + 1}{out.suffix}")
        head = HEADER.format(
            name=name,
            part=f", part {k + 1} of {parts}" if parts > 1 else "",
            count=len(chunk),
            n=n,
            seed=seed,
            out=out,
            extra=extra,
            drawn=drawn,
            corpus_name=CORPORA[corpus_name],
            languages=f" (languages {', '.join(languages)})" if languages else "",
            mb=corpus.megabytes,
            docs=len(corpus.manifest),
            lines=len(corpus.lines),
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(head + "\n" + "\n".join(chunk), encoding="utf-8")
        written.append(target)
    return written


# --- report ---------------------------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def run_all(corpus: Corpus, detectors: dict[str, Detector | str]) -> dict[str, tuple[list[list[Span]], float] | str]:
    """Every system on every line of the corpus: (spans per line, seconds) or the skip reason."""
    out: dict[str, tuple[list[list[Span]], float] | str] = {}
    for name, d in detectors.items():
        if isinstance(d, str):
            out[name] = d
            continue
        print(f"running {name} on {len(corpus.lines):,} lines…", file=sys.stderr, flush=True)
        t = time.perf_counter()
        try:
            spans = d(corpus.lines)
        except (OSError, RuntimeError) as exc:
            out[name] = f"failed: {exc}"
            continue
        out[name] = (spans, time.perf_counter() - t)
        print(f"  {out[name][1]:.1f} s", file=sys.stderr, flush=True)
    return out


def corpus_rows(corpus: Corpus, label: str = "real-text corpus (bench/realtext.py)") -> list[str]:
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for entry in corpus.manifest:
        by_lang[str(entry["language"])][0] += int(str(entry["bytes"]))
    lang_of = {str(e["path"]): str(e["language"]) for e in corpus.manifest}
    for path in corpus.paths:
        by_lang[lang_of[path]][1] += 1
    cand = sum(1 for line in corpus.lines if CANDIDATE.search(line))
    langs = ", ".join(f"{k} {v[0] / MB:.1f}" for k, v in sorted(by_lang.items(), key=lambda kv: -kv[1][0]))
    return [
        f"| {label} | {corpus.megabytes:.1f} MB, {len(corpus.manifest)} documents, "
        f"{len(corpus.lines):,} lines ({cand:,} candidate lines), {len(by_lang)} languages | — |",
        f"| {label.split(' (')[0]}, MB per language | {langs} | — |",
    ]


def found_rows(
    corpus: Corpus,
    results: dict[str, tuple[list[list[Span]], float] | str],
    detectors: dict[str, Detector | str],
    label: str = "real text",
) -> list[str]:
    rows = []
    mb = corpus.megabytes
    for name, result in results.items():
        if isinstance(result, str):
            rows.append(f"| {label}: links found by {name} | skipped: {result} | — |")
            continue
        spans, seconds = result
        kinds = Counter(k for line in spans for _, _, k in line)
        outside = sum(len(s) for s, line in zip(spans, corpus.lines, strict=True) if s and not CANDIDATE.search(line))
        inner = getattr(detectors.get(name), "inner_seconds", None)
        timing = f"{seconds:.1f} s ({mb / seconds:.1f} MB/s)" + (
            f", {inner:.1f} s in the detector" if inner is not None else ""
        )
        rows.append(
            f"| {label}: links found by {name} | {kinds['url']:,} URLs, {kinds['email']:,} emails"
            f"{f', {outside} on non-candidate lines' if outside else ''}; {timing} | — |"
        )
    return rows


def score_rows(scores: dict[str, dict[str, Score | str]]) -> list[str]:
    rows = []
    for sample_name, per_system in scores.items():
        for name, s in per_system.items():
            if isinstance(s, str):
                rows.append(f"| precision on real text, {sample_name} sample: {name} | skipped: {s} | — |")
                continue
            target = TARGETS.get(name)
            verdict = "—"
            if target:
                met = s.precision >= target[0] and s.recall >= target[1]
                verdict = f"P ≥ {_pct(target[0])}, R ≥ {_pct(target[1])}: {'met' if met else 'NOT MET'}"
            genre = "everyday writing" if sample_name.startswith("everyday") else "technical text"
            rows.append(
                f"| precision on {genre}, {sample_name} sample ({s.links} true links): {name} | "
                f"P {_pct(s.precision)}, R {_pct(s.recall)}, F1 {_pct(s.f1)}, exact {_pct(s.exact_rate)} "
                f"(TP {s.tp}, FP {s.fp}, FN {s.fn}, ignored {s.ignored}) | {verdict} |"
            )
    return rows


def write_errors(scores: dict[str, dict[str, Score | str]], directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for sample_name, per_system in scores.items():
        for name, s in per_system.items():
            if isinstance(s, Score):
                slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
                body = [f"# {name} on the {sample_name} sample: false positives then misses", ""]
                body += [f"FP {x}" for x in s.false_positives] + [f"FN {x}" for x in s.misses]
                (directory / f"{sample_name}-{slug}.txt").write_text("\n".join(body) + "\n", encoding="utf-8")


def bench_precision(errors: Path | None = None) -> list[str]:
    """Markdown rows (benchmark | result | target) for bench/run.py: corpus,
    links and time per system on the whole corpus, scores on the judged samples."""
    try:
        corpus = load_corpus()
    except FileNotFoundError as exc:
        return [f"| precision on real text | skipped: {exc} | — |"]
    if _node_reason() is not None and shutil.which("npm") is not None:
        setup()
    detectors = systems()
    rows = corpus_rows(corpus)
    rows += found_rows(corpus, run_all(corpus, detectors), detectors)
    try:
        daily = load_corpus(everyday.default_dir())  # (D101: the second benchmark's corpus)
    except FileNotFoundError as exc:
        rows.append(f"| everyday-writing corpus | skipped: {exc} | — |")
    else:
        rows += corpus_rows(daily, "everyday-writing corpus (bench/everyday.py)")
        rows += found_rows(daily, run_all(daily, detectors), detectors, "everyday writing")
    scores = score_files(judged_files(), detectors)
    if not scores:
        rows.append("| precision on real text | no judged sample yet (bench/precision/README.md) | — |")
    rows += score_rows(scores)
    write_errors(scores, errors or cache_dir() / "precision-errors")
    return rows


# --- diff -----------------------------------------------------------------------------------------------------------


def diff(corpus: Corpus, a: Detector, b: Detector, n: int, seed: int) -> Iterator[str]:
    """Up to ``n`` random candidate lines where ``a`` and ``b`` find different spans."""
    pool = candidates(corpus)
    texts = [t for _, t, _ in pool]
    sa, sb = a(texts), b(texts)
    differ = [k for k in range(len(pool)) if {x[:2] for x in sa[k]} != {x[:2] for x in sb[k]}]
    yield f"# {len(differ):,} of {len(pool):,} distinct candidate lines differ between {a.name} and {b.name}"
    for k in sorted(random.Random(seed).sample(differ, min(n, len(differ)))):
        i, text, _ = pool[k]
        only_a = sorted({x[:2] for x in sa[k]} - {x[:2] for x in sb[k]})
        only_b = sorted({x[:2] for x in sb[k]} - {x[:2] for x in sa[k]})
        yield f"\n# {corpus.paths[i]}:{corpus.numbers[i]}\n{text}"
        yield f"  only {a.name}: " + ("; ".join(text[s:e] for s, e in only_a) or "—")
        yield f"  only {b.name}: " + ("; ".join(text[s:e] for s, e in only_b) or "—")


def _pick(name: str, detectors: dict[str, Detector | str]) -> Detector:
    d = detectors.get(ALIASES.get(name, name))
    if not isinstance(d, Detector):
        raise SystemExit(f"system {name!r}: {d or 'unknown; one of ' + ', '.join(ALIASES)}")
    return d


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("setup", help="install the JS peers (npm) into the cache dir")
    r = sub.add_parser("report", help="everything, as Markdown rows")
    r.add_argument("--errors", type=Path, default=None, help="where to write false positives and misses")
    s = sub.add_parser("sample", help="draw candidate lines to judge")
    s.add_argument("--n", type=int, required=True)
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--parts", type=int, default=1)
    s.add_argument(
        "--exclude", type=Path, nargs="*", action="extend", default=[], help="files whose lines are not drawn again"
    )
    s.add_argument("--linked", action="store_true", help="only lines where some system finds a link")
    s.add_argument("--corpus", choices=sorted(CORPORA), default="realtext", help="which built corpus to draw from")
    s.add_argument("--languages", default=None, help="only documents in these languages (comma-separated)")
    sc = sub.add_parser("score", help="score judged files")
    sc.add_argument("files", type=Path, nargs="+")
    sc.add_argument("--errors", type=Path, default=None)
    d = sub.add_parser("diff", help="lines where two systems disagree")
    d.add_argument("--a", default="uts58")
    d.add_argument("--b", default="autolinker")
    d.add_argument("--n", type=int, default=200)
    d.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    if args.command == "setup":
        reason = setup()
        print(reason or f"JS peers installed in {node_dir()}")
        return 1 if reason else 0
    if args.command == "report":
        print("| benchmark | result | target |\n|---|---|---|")
        for row in bench_precision(args.errors):
            print(row, flush=True)
        return 0
    detectors = systems()
    if args.command == "score":
        for path in args.files:
            read_judged(path)  # format errors first, whatever the status
        scores = score_files(args.files, detectors)
        print("\n".join(score_rows(scores)) or "no file with '# status: judged'")
        if args.errors:
            write_errors(scores, args.errors)
        return 0
    if args.command == "sample":
        languages = args.languages.split(",") if args.languages else None
        corpus = load_corpus(corpus_dir(args.corpus), languages)
        exclude = {line.text for path in args.exclude for line in read_judged(path)[1]}
        for name, det in detectors.items():
            if isinstance(det, str):
                print(f"{name} skipped: {det}", file=sys.stderr)
        entries, counts = sample(corpus, args.n, args.seed, detectors, exclude, args.linked)
        names = ", ".join(name for name, det in detectors.items() if isinstance(det, Detector))
        if args.linked:
            drawn = (
                f"--linked: {counts['kept']} of the {counts['looked']:,} shuffled candidate lines looked at "
                f"(of {counts['pool']:,} distinct candidate lines), kept when one of {names} finds a link"
            )
        else:
            drawn = f"{counts['kept']} of {counts['pool']:,} distinct candidate lines"
        written = write_sample(
            args.out, entries, args.parts, corpus, args.n, args.seed, args.exclude, drawn, args.corpus, languages
        )
        for path in written:
            print(path)
        print(drawn)
        return 0
    corpus = load_corpus()
    for line in diff(corpus, _pick(args.a, detectors), _pick(args.b, detectors), args.n, args.seed):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
