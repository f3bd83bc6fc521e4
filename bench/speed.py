#!/usr/bin/env python3
"""Speed of ``find_links`` beside Autolinker and linkify-it (Node) and
linkify-it-py, all in one run so that the ratios compare (issue 14).

Workloads:

1. multilingual prose (``corpus.prose``, 8 Mi characters), one call on the whole text;
2. ASCII prose (``corpus.ascii_prose``, 8 Mi characters), the same;
3. a link-dense list, one link per line (every link of the conformance files
   and ``corpus.LINKS``, shuffled with a fixed seed, repeated to 1 MB), one call
   on the whole text;
4. the real-text corpus of bench/realtext.py, one call per line, and for uts58
   also one call per document;
5. (``linkify`` against ``find_links`` is bench/run.py's bench_linkify);
6. uts58 in pure Python (``UTS58_PURE_PYTHON=1``): multilingual prose and
   real-text lines, 1 MB each;
7. link-dense text whose every host is new (issue 23, ``corpus.fresh_lines``):
   the dev shape (40,000 lines, 80,000 links, eight scripts) and a held-out
   shape (other scripts, TLDs and link forms, 12,000 lines), one call per
   line.

Every uts58 workload is timed twice: as it comes (hosts that repeat in the
text are answered by the bounded caches from their second time on, and so
are those of an earlier round), and "cold", with ``uts58.base.caches.clear()``
before each timing, so that no figure is what a cache remembered from a
round before (issue 23, D104).

MB are megabytes (2**20 bytes) of the text in UTF-8, the same unit for every
system.  Times are CPU time, the least of 3 rounds: uts58 in a fresh
interpreter (this file run with ``--probe``), the JS peers inside Node
(``bench/node/detect.js --time``: the detector's calls alone, after a warm-up
round), linkify-it-py in this process.

``--before REV`` also times uts58 as of git revision REV (workloads 1-4 and 6)
in the same run: a worktree of REV in the bench cache dir, its C accelerator
built in place, imported through ``PYTHONPATH`` (the probe reports the file it
imported and whether the accelerator is active, and both are checked).

    python bench/speed.py [--before REV] [--quick]

prints the rows (``| benchmark | result | target |``); ``--quick`` uses small
inputs and one round, for trying the bench out.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402
import precision  # noqa: E402
import realtext  # noqa: E402
from timing import best_of  # noqa: E402

MB = 1 << 20
SEED = 58
NO_CORPUS = "no real-text corpus (run python bench/realtext.py build --install)"
JS = {"autolinker": "Autolinker", "linkify-it": "linkify-it"}


@dataclass(frozen=True)
class Sizes:
    prose: int  # characters of each prose text
    dense: int  # UTF-8 bytes of the link list
    pure: int  # UTF-8 bytes of each pure-Python input (about)
    doc_step: int  # every doc_step-th document of the real-text corpus
    rounds: int
    fresh: int = 40_000  # lines of the link-dense text with new hosts (dev shape)
    fresh_held_out: int = 12_000  # and of its held-out shape
    fresh_prose: int = 8 * MB  # characters of the prose whose links have new hosts (dev shape)
    fresh_prose_held_out: int = 3 * MB  # and of its held-out shape

    @staticmethod
    def of(quick: bool) -> Sizes:
        if quick:
            return Sizes(
                prose=MB // 2,
                dense=MB // 4,
                pure=MB // 8,
                doc_step=32,
                rounds=1,
                fresh=4000,
                fresh_held_out=1200,
                fresh_prose=MB // 2,
                fresh_prose_held_out=MB // 4,
            )
        return Sizes(prose=8 * MB, dense=MB, pure=MB, doc_step=1, rounds=3)


# --- inputs ---------------------------------------------------------------------------------------------------------


def utf8_mb(texts: Sequence[str]) -> float:
    return sum(len(t.encode("utf-8", "surrogatepass")) for t in texts) / MB


def dense_links() -> list[str]:
    """The distinct links of the conformance files (the marked links of
    LinkDetectionTest.txt, the sources of LinkFormattingTest.txt, both
    versions) and corpus.LINKS, sorted, then shuffled with a fixed seed."""
    from uts58.conformance import data_file, read_detection_test, read_formatting_test

    links = set(corpus.LINKS)
    for version in ("17.0.0", "18.0.0"):
        links.update(c.source for c in read_formatting_test(data_file(version, "LinkFormattingTest.txt")))
        for line in read_detection_test(data_file(version, "LinkDetectionTest.txt")):
            links.update(m.text for m in line.links)
    out = sorted(link for link in links if link and not any(c.isspace() for c in link))
    random.Random(SEED).shuffle(out)
    return out


def dense_text(size: int) -> str:
    """One link per line, the shuffled list repeated until ``size`` UTF-8 bytes."""
    links = dense_links()
    lines: list[str] = []
    total = 0
    while total < size:
        for link in links:
            lines.append(link)
            total += len(link.encode("utf-8")) + 1
            if total >= size:
                break
    return "\n".join(lines) + "\n"


def real_text(doc_step: int = 1) -> tuple[list[str], list[str]] | str:
    """(documents, lines) of the real-text corpus (every ``doc_step``-th
    document), or why not.  Lines as precision.load_corpus: every line of
    every document (split on "\\n", no trailing empty line), not only the
    candidate lines."""
    directory = realtext.default_dir()
    try:
        manifest = realtext.load_manifest(directory)
    except FileNotFoundError:
        return NO_CORPUS
    docs = [(directory / str(e["path"])).read_text(encoding="utf-8") for e in manifest[::doc_step]]
    lines: list[str] = []
    for doc in docs:
        split = doc.split("\n")
        if split and split[-1] == "":
            split.pop()
        lines += split
    return docs, lines


def sample_lines(lines: Sequence[str], size: int) -> list[str]:
    """Lines drawn at random (fixed seed) until ``size`` UTF-8 bytes, in corpus order."""
    order = list(range(len(lines)))
    random.Random(SEED).shuffle(order)
    picked, total = [], 0
    for i in order:
        if total >= size:
            break
        picked.append(i)
        total += len(lines[i].encode("utf-8", "surrogatepass"))
    return [lines[i] for i in sorted(picked)]


# --- uts58, in a fresh interpreter ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    seconds: float
    links: int
    mb: float

    @property
    def rate(self) -> float:
        return self.mb / self.seconds


Result = Measure | str  # a measure, or why there is none


def _probe(args: argparse.Namespace) -> int:
    """``--probe``: time uts58 (whatever ``import uts58`` finds) on the
    workloads and print JSON {"file", "accelerated", "results": {workload: [s, links, MB]}}."""
    import uts58
    from uts58.kernels import accelerated

    sizes = Sizes.of(args.quick)
    find = uts58.find_links

    def count(texts: Sequence[str]) -> int:
        n = 0
        for text in texts:
            for _ in find(text):
                n += 1
        return n

    count(["warm up: see bücher.de/straße and x@example.com"])  # tables, TLDs, PSL
    workloads: dict[str, list[str]] = {}
    real = real_text(sizes.doc_step)
    if args.pure:
        workloads["pure prose"] = [corpus.prose(sizes.pure)]
        if not isinstance(real, str):
            workloads["pure lines"] = sample_lines(real[1], sizes.pure)
    else:
        workloads["prose"] = [corpus.prose(sizes.prose)]
        workloads["ascii"] = [corpus.ascii_prose(sizes.prose)]
        workloads["dense"] = [Path(args.dense).read_bytes().decode("utf-8")]
        workloads["fresh"] = corpus.fresh_lines(sizes.fresh, "dev")
        workloads["fresh held-out"] = corpus.fresh_lines(sizes.fresh_held_out, "held-out")
        for key, shape, size in (
            ("fresh prose", "dev", sizes.fresh_prose),
            ("fresh prose held-out", "held-out", sizes.fresh_prose_held_out),
        ):
            workloads[key] = corpus.fresh_prose(size, shape)
            workloads[f"{key} whole"] = ["\n".join(workloads[key])]
        if not isinstance(real, str):
            workloads["lines"], workloads["docs"] = real[1], real[0]
    try:
        from uts58.base.caches import clear
    except ImportError:  # (a tree from before issue 23: no cold figures)
        clear = None
    results = {name: [float("inf"), count(texts), utf8_mb(texts)] for name, texts in workloads.items()}
    if clear is not None:
        results.update({f"{name} cold": [float("inf"), *results[name][1:]] for name in workloads})
    # Round by round over all the workloads (not each one's rounds back to
    # back): a slow spell of the shared machine falls on one round of each,
    # so the ratio of two workloads (one call per line against one per
    # document) is less at its mercy.
    for _ in range(sizes.rounds):
        for name, texts in workloads.items():
            results[name][0] = min(results[name][0], best_of(lambda texts=texts: count(texts), repeat=1))
            if clear is not None:
                clear()  # (then timed once: what a first pass over new text costs)
                results[f"{name} cold"][0] = min(
                    results[f"{name} cold"][0], best_of(lambda t=texts: count(t), repeat=1)
                )
    try:  # (the decision path compiled, issue 38; trees from before it have no such module)
        from uts58.base.compiled import compiled

        done = len(compiled())
    except ImportError:
        done = 0
    print(json.dumps({"file": uts58.__file__, "accelerated": accelerated(), "compiled": done, "results": results}))
    return 0


def run_probe(
    src: Path, pure: bool, dense: Path, quick: bool, interpreted: bool = False, compiled: bool | None = None
) -> dict[str, Result]:
    """uts58 from ``src`` (a src/ directory) timed in a fresh interpreter;
    raises RuntimeError when the interpreter did not import that tree, or
    not in the mode asked for (accelerator on, or pure Python; with
    ``compiled`` given, the decision path compiled or not, issue 38).
    ``interpreted``: the decision path from source, the C kernels on."""
    env = {k: v for k, v in os.environ.items() if k not in ("UTS58_PURE_PYTHON", "UTS58_INTERPRETED")}
    env["PYTHONPATH"] = str(src)
    if pure:
        env["UTS58_PURE_PYTHON"] = "1"
    if interpreted:
        env["UTS58_INTERPRETED"] = "1"
    cmd = [sys.executable, str(Path(__file__).resolve()), "--probe", "--dense", str(dense)]
    cmd += ["--pure"] if pure else []
    cmd += ["--quick"] if quick else []
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"probe of {src} failed: {done.stderr.strip()[-500:]}")
    out = json.loads(done.stdout)
    if not Path(out["file"]).resolve().is_relative_to(src.resolve()):
        raise RuntimeError(f"probe imported {out['file']}, not the tree in {src}")
    if out["accelerated"] == pure:
        raise RuntimeError(f"probe of {src}: C accelerator {'on' if pure else 'off'}, expected the opposite")
    if compiled is not None and bool(out.get("compiled")) != compiled:
        raise RuntimeError(f"probe of {src}: decision path {'interpreted' if compiled else 'compiled'}, not as asked")
    results: dict[str, Result] = {name: Measure(s, n, mb) for name, (s, n, mb) in out["results"].items()}
    return results


def before_tree(rev: str) -> tuple[Path, str]:
    """(src directory, short commit) of a worktree of ``rev`` in the bench
    cache dir, built in place as its setup.py builds (the C accelerator;
    from D138 on, the decision path compiled too)."""

    def git(*args: str, cwd: Path = REPO) -> str:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()

    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    short = git("rev-parse", "--short=7", commit)
    tree = precision.cache_dir() / f"before-{short}"
    if not (tree / ".git").exists():
        if tree.exists():
            shutil.rmtree(tree)
        git("worktree", "prune")
        git("worktree", "add", "--detach", str(tree), commit)
    if git("rev-parse", "HEAD", cwd=tree) != commit:
        raise RuntimeError(f"{tree} is not at {commit}")
    package = tree / "src" / "uts58"

    def built() -> bool:  # (uts58/kernels/_c since issue 37, uts58/_speedups before)
        return bool(list(package.glob("kernels/_c*.so")) or list(package.glob("_speedups*.so")))

    if not built():
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, capture_output=True, text=True
        )
        if done.returncode != 0 or not built():
            raise RuntimeError(f"could not build the C accelerator in {tree}: {done.stderr.strip()[-500:]}")
    return tree / "src", short


# --- the peers ------------------------------------------------------------------------------------------------------


def node_time(which: str, texts: Sequence[str], rounds: int) -> Result:
    """A JS peer's least CPU time over ``rounds`` (inside Node, detector
    calls alone, after a warm-up round), one call per text."""
    reason = precision._node_reason()
    if reason is not None:
        return reason
    node = shutil.which("node") or shutil.which("nodejs")
    assert node is not None
    env = {**os.environ, "NODE_PATH": str(precision.node_dir() / "node_modules")}
    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen(
            [node, str(HERE / "node" / "detect.js"), which, "--time", "--rounds", str(rounds)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            env=env,
        )
        assert proc.stdin is not None and proc.stdout is not None
        stdin = proc.stdin

        def feed() -> None:  # a thread, as precision.NodeDetector: no deadlock on a full pipe
            with stdin:
                batch: list[str] = []
                for i, text in enumerate(texts):
                    batch.append(json.dumps({"id": i, "text": text}, ensure_ascii=False) + "\n")
                    if len(batch) >= 4096:
                        stdin.write("".join(batch).encode("utf-8", "surrogatepass"))
                        batch.clear()
                stdin.write("".join(batch).encode("utf-8", "surrogatepass"))

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        out = proc.stdout.read()
        writer.join()
        if proc.wait() != 0:
            errors.seek(0)
            return f"node detect.js {which} --time failed: {errors.read().decode(errors='replace').strip()[-300:]}"
    record = json.loads(out)
    units = sum(len(t.encode("utf-16-le", "surrogatepass")) for t in texts) // 2
    if record["chars"] != units or record["texts"] != len(texts):
        return f"Node got {record['texts']} texts of {record['chars']} UTF-16 units, not {len(texts)} of {units}"
    return Measure(min(record["seconds"]), record["links"], utf8_mb(texts))


def linkify_it_py() -> Callable[[str], int] | str:
    try:
        from linkify_it import LinkifyIt
        from linkify_it.tlds import TLDS  # type: ignore[import-untyped]
    except ImportError as exc:
        return f"not installed ({exc.name}); pip install -e '.[bench]'"
    li = LinkifyIt().tlds(TLDS)  # with its full TLD list, as bench/peers.py and bench/precision.py
    return lambda text: len(li.match(text) or [])


def py_time(detect: Callable[[str], int] | str, texts: Sequence[str], rounds: int) -> Result:
    if isinstance(detect, str):
        return detect

    def count() -> int:
        return sum(detect(t) for t in texts)

    links = count()
    return Measure(best_of(count, repeat=rounds), links, utf8_mb(texts))


def versions() -> dict[str, str]:
    out = {}
    try:
        from importlib.metadata import version

        out["linkify-it-py"] = version("linkify-it-py")
    except Exception:  # a missing peer is reported by its rows
        pass
    for which in JS:
        manifest = precision.node_dir() / "node_modules" / which / "package.json"
        if manifest.exists():
            out[which] = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    node = shutil.which("node") or shutil.which("nodejs")
    if node:
        out["node"] = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip().lstrip("v")
    return out


# --- rows -----------------------------------------------------------------------------------------------------------


def _links(n: int) -> str:
    return f"{n:,} links"


def _fmt(r: Result, mbps: bool = True) -> str:
    if isinstance(r, str):
        return f"skipped: {r}"
    rate = f"{r.rate:.1f} MB/s" if mbps else f"{r.seconds:.2f} s CPU ({r.rate:.1f} MB/s)"
    return f"{rate}, {_links(r.links)}"


def _uts58_cell(now: Result, before: Result | None, label: str | None, mbps: bool = True) -> str:
    if before is None:
        return _fmt(now, mbps)
    if isinstance(now, str) or isinstance(before, str):
        return f"{label}: {_fmt(before, mbps)}; now: {_fmt(now, mbps)}"
    if mbps:
        change = f"{before.rate:.1f} → {now.rate:.1f} MB/s"
    else:
        change = f"{before.seconds:.2f} → {now.seconds:.2f} s CPU ({before.rate:.1f} → {now.rate:.1f} MB/s)"
    links = _links(now.links) if now.links == before.links else f"{before.links:,} → {now.links:,} links"
    return f"{label} → now: {change} ({before.seconds / now.seconds:.2f}× faster), {links}"


def _ratio(a: Result, b: Result) -> float | None:
    """How many times faster ``a`` is than ``b`` (per MB)."""
    if isinstance(a, str) or isinstance(b, str):
        return None
    return a.rate / b.rate


class Verdict:
    def __init__(self) -> None:
        self.ok = True

    def check(
        self, value: float | None, limit: float, what: str, before: float | None = None, at_most: bool = False
    ) -> str:
        """'<what> <before> → <value> (≥ limit: met)'; None (a peer skipped): not judged."""
        if value is None:
            return f"{what} ≥ {limit:g}: not judged (skipped)" if not at_most else f"{what} ≤ {limit:g}: not judged"
        met = value <= limit if at_most else value >= limit
        self.ok &= met
        shown = f"{before:.2f} → {value:.2f}" if before is not None else f"{value:.2f}"
        return f"{what} {shown} ({'≤' if at_most else '≥'} {limit:g}: {'met' if met else 'NOT MET'})"


def bench_speed(before: str | None = None, quick: bool = False) -> tuple[list[str], bool]:
    """The rows of issue 14's speed bench and whether every target judged was met."""
    sizes = Sizes.of(quick)
    rounds = sizes.rounds
    v = versions()
    peer_names = {
        "autolinker": f"Autolinker {v.get('autolinker', '')} (JS, Node {v.get('node', '?')})".replace("  ", " "),
        "linkify-it": f"linkify-it {v.get('linkify-it', '')} (JS)".replace("  ", " "),
        "py": f"linkify-it-py {v.get('linkify-it-py', '')}".rstrip(),
    }
    verdict = Verdict()
    rows: list[str] = []
    print("speed: building the inputs…", file=sys.stderr, flush=True)
    prose = corpus.prose(sizes.prose)
    ascii_text = corpus.ascii_prose(sizes.prose)
    dense = dense_text(sizes.dense)
    real = real_text(sizes.doc_step)

    with tempfile.TemporaryDirectory(prefix="uts58-speed-") as tmp:
        dense_file = Path(tmp) / "dense.txt"
        dense_file.write_bytes(dense.encode("utf-8"))
        print("speed: uts58 (this tree)…", file=sys.stderr, flush=True)
        now = run_probe(REPO / "src", False, dense_file, quick, compiled=True)
        now_pure = run_probe(REPO / "src", True, dense_file, quick)
        then: dict[str, Result] = {}
        then_pure: dict[str, Result] = {}
        label = None
        if before is not None:
            print(f"speed: uts58 at {before}…", file=sys.stderr, flush=True)
            try:
                src, short = before_tree(before)
                label = f"before ({short})"
                then = run_probe(src, False, dense_file, quick)
                then_pure = run_probe(src, True, dense_file, quick)
            except (RuntimeError, subprocess.CalledProcessError) as exc:
                reason = str(exc) if isinstance(exc, RuntimeError) else f"git: {exc.stderr.strip()[-300:]}"
                label = f"before ({before})"
                then = {k: reason for k in ("prose", "ascii", "dense", "lines", "docs")}
                then_pure = {k: reason for k in ("pure prose", "pure lines")}

        interpreted: dict[str, Result] = {}
        print("speed: uts58 with the decision path interpreted…", file=sys.stderr, flush=True)
        try:
            interpreted = run_probe(REPO / "src", False, dense_file, quick, interpreted=True, compiled=False)
        except RuntimeError as exc:
            interpreted = {k: str(exc) for k in ("fresh", "fresh held-out", "fresh prose", "fresh prose held-out")}

    def b(results: dict[str, Result], key: str) -> Result | None:
        return results.get(key, NO_CORPUS) if before is not None else None

    py = linkify_it_py()
    whole = [
        ("prose", f"multilingual prose ({sizes.prose // MB or sizes.prose / MB:g} Mi characters", [prose]),
        ("ascii", f"ASCII prose ({sizes.prose // MB or sizes.prose / MB:g} Mi characters", [ascii_text]),
        ("dense", f"link-dense list (one link per line, {len(dense_links())} distinct links repeated", [dense]),
    ]
    for key, title, texts in whole:
        print(f"speed: peers on {key}…", file=sys.stderr, flush=True)
        head = f"speed, {title}, {utf8_mb(texts):.1f} MB UTF-8), one call on the whole text"
        js = {which: node_time(which, texts, rounds) for which in JS}
        if key == "dense":
            py_texts, py_note = texts, ""
        else:
            py_texts = [texts[0][:MB] if not quick else texts[0][: MB // 8]]
            py_note = f", the first {len(py_texts[0]) / MB:g} Mi characters ({utf8_mb(py_texts):.2f} MB)"
        py_result = py_time(py, py_texts, rounds)
        u, ub = now[key], b(then, key)
        if key == "dense":
            target = verdict.check(
                _ratio(u, py_result), 10, "uts58 / linkify-it-py", _ratio(ub, py_result) if ub else None
            )
            target += "; uts58 / Autolinker " + _ratio_text(u, ub, js["autolinker"])
        else:
            target = verdict.check(
                _ratio(u, js["autolinker"]), 1.2, "uts58 / Autolinker", _ratio(ub, js["autolinker"]) if ub else None
            )
        rows.append(f"| {head}: uts58 find_links | {_uts58_cell(u, ub, label)} | {target} |")
        uc = now.get(f"{key} cold", "no cold figure")
        if key == "dense":
            target = verdict.check(_ratio(uc, py_result), 10, "uts58 / linkify-it-py")
        else:
            target = verdict.check(_ratio(uc, js["autolinker"]), 1.2, "uts58 / Autolinker")
        rows.append(f"| {head}: uts58 find_links, caches cleared before each timing | {_fmt(uc)} | {target} |")
        rows += _peer_rows(head, u, ub, js, peer_names, f"{peer_names['py']}{py_note}", py_result)

    # Real text, one call per line.
    if isinstance(real, str):
        rows.append(f"| speed, real text, one call per line | skipped: {real} | — |")
    else:
        docs, lines = real
        print("speed: peers on real text…", file=sys.stderr, flush=True)
        head = (
            f"speed, real text ({utf8_mb(docs):.1f} MB UTF-8, {len(docs):,} documents, {len(lines):,} lines"
            f"{f', 1 document in {sizes.doc_step}' if sizes.doc_step > 1 else ''})"
        )
        js = {which: node_time(which, lines, rounds) for which in JS}
        py_lines = lines[::8]
        py_result = py_time(py, py_lines, rounds)
        u, ub = now["lines"], b(then, "lines")
        target = verdict.check(
            _ratio(u, js["autolinker"]), 1.2, "uts58 / Autolinker (MB/s)", _ratio(ub, js["autolinker"]) if ub else None
        )
        rows.append(f"| {head}, one call per line: uts58 find_links | {_uts58_cell(u, ub, label, False)} | {target} |")
        uc = now.get("lines cold", "no cold figure")
        target = verdict.check(_ratio(uc, js["autolinker"]), 1.2, "uts58 / Autolinker (MB/s)")
        rows.append(
            f"| {head}, one call per line: uts58 find_links, caches cleared before each timing | "
            f"{_fmt(uc, False)} | {target} |"
        )
        py_label = (
            f"{peer_names['py']}, every 8th line (lines[0::8]: {len(py_lines):,} lines, {utf8_mb(py_lines):.1f} MB)"
        )
        rows += _peer_rows(f"{head}, one call per line", u, ub, js, peer_names, py_label, py_result, mbps=False)
        d, db = now["docs"], b(then, "docs")
        per_line = None if isinstance(u, str) or isinstance(d, str) else u.seconds / d.seconds
        per_line_before = (
            None if not isinstance(ub, Measure) or not isinstance(db, Measure) else ub.seconds / db.seconds
        )
        target = verdict.check(per_line, 1.2, "time per line / per document", per_line_before, at_most=True)
        rows.append(
            f"| {head}, one call per document: uts58 find_links | {_uts58_cell(d, db, label, False)} | {target} |"
        )

    # Link-dense text whose every host is new (issue 23): a figure per link.
    for key, shape, n in (("fresh", "dev", sizes.fresh), ("fresh held-out", "held-out", sizes.fresh_held_out)):
        texts = corpus.fresh_lines(n, shape)
        print(f"speed: peers on {key}…", file=sys.stderr, flush=True)
        head = (
            f"speed, link-dense text, every host new ({shape} shape: {len(texts):,} lines, {utf8_mb(texts):.1f} MB, "
            f"{len(corpus.FRESH_SCRIPTS[shape])} scripts), one call per line"
        )
        js = {which: node_time(which, texts, rounds) for which in JS}
        py_result = py_time(py, texts, rounds)
        # (cold: the caches cleared before each timing, for both trees; a tree
        # from before the caches could be cleared gives its warm figure.)
        ub, u = _cold(then, key) if before is not None else None, _cold(now, key)
        target = verdict.check(
            _ratio(u, js["autolinker"]), 1.5, "uts58 / Autolinker", _ratio(ub, js["autolinker"]) if ub else None
        )
        target += "; " + verdict.check(
            _ratio(u, py_result), 10, "uts58 / linkify-it-py", _ratio(ub, py_result) if ub else None
        )
        per_link = _per_link(u, ub)
        rows.append(f"| {head}: uts58 find_links | {_uts58_cell(u, ub, label)}{per_link} | {target} |")
        rows.append(_interpreted_row(head, _cold(interpreted, key), js["autolinker"]))
        rows += _peer_rows(head, u, ub, js, peer_names, peer_names["py"], py_result)

    # Prose whose every link has a new host (issue 38), per line and per document.
    for key, shape, size in (
        ("fresh prose", "dev", sizes.fresh_prose),
        ("fresh prose held-out", "held-out", sizes.fresh_prose_held_out),
    ):
        texts = corpus.fresh_prose(size, shape)
        print(f"speed: peers on {key}…", file=sys.stderr, flush=True)
        head = (
            f"speed, multilingual prose, every host new ({shape} shape: {len(texts):,} lines, "
            f"{utf8_mb(texts):.1f} MB, {len(corpus._PROSE_SCRIPTS[shape])} scripts)"
        )
        js = {which: node_time(which, texts, rounds) for which in JS}
        py_texts = texts[::8]
        py_result = py_time(py, py_texts, rounds)
        ub, u = _cold(then, key) if before is not None else None, _cold(now, key)
        target = verdict.check(
            _ratio(u, js["autolinker"]), 2, "uts58 / Autolinker", _ratio(ub, js["autolinker"]) if ub else None
        )
        per_link = _per_link(u, ub)
        rows.append(
            f"| {head}, one call per line: uts58 find_links | {_uts58_cell(u, ub, label)}{per_link} | {target} |"
        )
        rows.append(_interpreted_row(f"{head}, one call per line", _cold(interpreted, key), js["autolinker"]))
        py_label = f"{peer_names['py']}, every 8th line ({len(py_texts):,} lines, {utf8_mb(py_texts):.1f} MB)"
        rows += _peer_rows(f"{head}, one call per line", u, ub, js, peer_names, py_label, py_result)
        whole_key = f"{key} whole"
        wb, w = _cold(then, whole_key) if before is not None else None, _cold(now, whole_key)
        rows.append(f"| {head}, one call on the whole text: uts58 find_links | {_uts58_cell(w, wb, label)} | — |")

    # Pure Python.
    for key, title in (
        ("pure prose", "multilingual prose, one call"),
        ("pure lines", "real-text lines, one call per line"),
    ):
        u, ub = now_pure.get(key, NO_CORPUS), b(then_pure, key)
        what = f"{u.mb:.2f} MB" if isinstance(u, Measure) else ""
        if key == "pure lines" and isinstance(u, Measure):
            what += f" drawn at random (seed {SEED}) from the corpus"
        if ub is None:
            target = "no slower than before: not judged (run with --before REV)"
        elif isinstance(u, str) or isinstance(ub, str):
            target = "no slower than before: not judged (skipped)"
        else:
            target = verdict.check(u.seconds / ub.seconds, 1.05, "time now / before", at_most=True)
        rows.append(
            f"| speed, pure Python (UTS58_PURE_PYTHON=1), find_links on {title}{', ' + what if what else ''} | "
            f"{_uts58_cell(u, ub, label)} | {target} |"
        )
    return rows, verdict.ok


def _per_link(u: Result, ub: Result | None) -> str:
    """The µs per link of a row (before → now, when there is a before)."""
    if not isinstance(u, Measure) or not u.links:
        return ""
    if isinstance(ub, Measure) and ub.links:
        return f"; {ub.seconds / ub.links * 1e6:.1f} → {u.seconds / u.links * 1e6:.1f} µs per link"
    return f"; {u.seconds / u.links * 1e6:.1f} µs per link, everything included"


def _interpreted_row(head: str, u: Result, autolinker: Result) -> str:
    """The row of this tree with its decision path run from source, the C
    kernels on (UTS58_INTERPRETED=1): what compiling it gains (issue 38, D138)."""
    per_link = f"; {u.seconds / u.links * 1e6:.1f} µs per link" if isinstance(u, Measure) and u.links else ""
    ratio = _ratio(u, autolinker)
    return (
        f"| {head}: uts58 find_links, decision path interpreted (UTS58_INTERPRETED=1), caches cleared | "
        f"{_fmt(u)}{per_link} | uts58 / Autolinker {'—' if ratio is None else f'{ratio:.2f}'} |"
    )


def _cold(results: dict[str, Result], key: str) -> Result:
    """The figure of ``key`` with the caches cleared before each timing (a
    tree from before they could be cleared: its only figure)."""
    return results.get(f"{key} cold", results.get(key, NO_CORPUS))


def _peer_rows(
    head: str,
    u: Result,
    ub: Result | None,
    js: dict[str, Result],
    names: dict[str, str],
    py_label: str,
    py_result: Result,
    mbps: bool = True,
) -> list[str]:
    """The rows of the JS peers and of linkify-it-py, each with uts58's ratio to it."""
    rows = [
        f"| {head}: {names[which]} | {_fmt(js[which], mbps)} | uts58 / it: {_ratio_text(u, ub, js[which])} |"
        for which in JS
    ]
    rows.append(f"| {head}: {py_label} | {_fmt(py_result, mbps)} | uts58 / it: {_ratio_text(u, ub, py_result)} |")
    return rows


def _ratio_text(u: Result, ub: Result | None, peer: Result) -> str:
    now = _ratio(u, peer)
    if now is None:
        return "—"
    if ub is None:
        return f"{now:.2f}×"
    then = _ratio(ub, peer)
    return f"{then:.2f}× → {now:.2f}×" if then is not None else f"{now:.2f}×"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--before", metavar="REV", default=None, help="also time uts58 at git revision REV")
    parser.add_argument("--quick", action="store_true", help="small inputs, one round (for trying the bench out)")
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--pure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--dense", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        return _probe(args)
    rows, ok = bench_speed(args.before, args.quick)
    print("| benchmark | result | target |\n|---|---|---|")
    print("\n".join(rows))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
