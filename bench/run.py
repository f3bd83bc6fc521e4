#!/usr/bin/env python3
"""Benchmarks of the core algorithms (``make bench``).

Prints a Markdown table.  Speed targets are checked here, never in unit
tests; each row says its target and whether this run met it.

* format_url over the URLs of the official LinkFormattingTest files, with
  the C accelerator and in pure Python;
* find_link_end on paths of 1, 2, 4 MB (ordinary and hostile shapes):
  time per MB must stay flat, i.e. doubling the size at most doubles the
  time (ratio <= 2.3 per doubling);
* find_email_start on long local-parts and on runs of '@';
* precision and recall on real text (bench/precision.py, a corpus built by
  bench/realtext.py and the hand-judged samples of bench/precision/), with
  linkify-it-py, linkify-it and Autolinker (Node) on the same lines;
* find_links on multilingual prose of 1 to 64 MB (time per MB must stay
  flat: ≤ 1.3× the 1 MB figure), on hostile inputs (≤ 3× the time per MB of
  prose), and its memory beyond the input (must not grow with the input);
* linkify at most 1.3× the time of find_links;
* the Spark integration (links_udf) on local[2] over 100 MB of generated
  multilingual text, in MB/s per core beside plain Python (bench/spark.py);
* find_links beside Autolinker and linkify-it (Node) and linkify-it-py on
  prose, a link-dense list and real text one call per line (bench/speed.py,
  issue 14), beside uts58 as of the commit before issue 14.

Times are CPU time of this process, the least of several runs.  The
machine is shared and noisy: the size-against-size checks time all sizes
back to back in each round and take the median of the rounds' ratios.

``python bench/run.py --write`` also writes the table to bench/RESULTS.md.
"""

from __future__ import annotations

import gc
import itertools
import operator
import platform
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import corpus
import peers
from adapters import bench_adapters, bench_link_dense, bench_linkify_html
from memory import bench_html_memory
from precision import bench_precision as precision_rows
from spark import bench_spark
from speed import bench_speed
from timing import best_of, doubling

import uts58
from uts58.kernels import accelerated

MB = 1 << 20


_FORMAT_URL_PROBE = """
import json, sys, time
import uts58
from uts58.conformance import data_file, read_formatting_test
urls = [c.source for v in ("17.0.0", "18.0.0") for c in read_formatting_test(data_file(v, "LinkFormattingTest.txt"))]
wiki = [u for u in urls if "wiki" in u]
rounds = max(1, 20000 // len(wiki))
best = float("inf")
for _ in range(5):
    t = time.process_time()
    for _ in range(rounds):
        for u in wiki:
            uts58.format_url(u)
    best = min(best, time.process_time() - t)
print(json.dumps(rounds * len(wiki) / best))
"""


def bench_format_url() -> tuple[list[str], bool]:
    """format_url with the C accelerator (the target) and, for the record,
    in pure Python (UTS58_PURE_PYTHON=1), each in a fresh interpreter."""
    import os

    compiled = _probe(_FORMAT_URL_PROBE)
    pure = _probe(_FORMAT_URL_PROBE, env={**os.environ, "UTS58_PURE_PYTHON": "1"})
    assert isinstance(compiled, float) and isinstance(pure, float)
    met = compiled >= 100_000 and accelerated()
    return [
        f"| format_url, Wikipedia URLs of the conformance files ({'C accelerator' if accelerated() else 'NOT BUILT'}) "
        f"| {compiled:,.0f} URLs/s | ≥ 100,000: {'met' if met else 'NOT MET'} |",
        f"| format_url, the same, pure Python (UTS58_PURE_PYTHON=1) | {pure:,.0f} URLs/s | — |",
    ], met


PATTERNS: dict[str, Callable[[int], str]] = {
    "ordinary path": lambda n: "example.com/" + ("wiki/Αλβέρτος_Αϊνστάιν?q=1&x=(y)#top." * (n // 40 + 1))[:n],
    "nested Open": lambda n: "example.com/" + "(" * n,
    "Soft run": lambda n: "example.com/a" + "." * n,
    "Soft/Include alternation": lambda n: "example.com/" + "a." * (n // 2),
    "clear-stack separators": lambda n: "example.com#:~:" + ",&" * (n // 2),
    "supplementary characters": lambda n: "example.com/" + "😎𠀀" * (n // 2),
}


def bench_find_link_end() -> tuple[list[str], bool]:
    rows = []
    ok = True
    for name, make in PATTERNS.items():
        texts = [make(size) for size in (MB, 2 * MB, 4 * MB)]
        times, ratios = doubling(
            [lambda text=text: uts58.find_link_end(text, 11) for text in texts], [len(text) for text in texts]
        )
        per_mb = times[-1] / 4 * 1000
        met = max(ratios) <= 2.3
        ok &= met
        rows.append(
            f"| find_link_end, {name} | {per_mb:.2f} ms/MB (4 MB) | doubling ratios "
            f"{', '.join(f'{r:.2f}' for r in ratios)} (≤ 2.3: {'met' if met else 'NOT MET'}) |"
        )
    return rows, ok


def bench_find_email_start() -> list[str]:
    text = "a" * (8 * MB) + "@example.com"
    t_long = best_of(lambda: uts58.find_email_start(text, 8 * MB))
    ats = "@" * MB

    def all_ats() -> None:
        for k in range(0, MB, 16):
            uts58.find_email_start(ats, k)

    t_ats = best_of(all_ats)
    return [
        f"| find_email_start, 8 MB local-part | {t_long * 1000 / 8:.2f} ms/MB | — |",
        f"| find_email_start, every 16th '@' of 1 MB of '@' | {MB // 16 / t_ats:,.0f} calls/s | — |",
    ]


def consume(text: str) -> int:
    return sum(1 for _ in uts58.find_links(text))


def bench_find_links() -> tuple[list[str], bool]:
    rows = []
    ok = True
    base_text = corpus.prose(8 * MB)
    consume(base_text[:10_000])  # load tables and the PSL outside the timings
    sizes = (1, 2, 4, 8, 16, 32, 64)
    texts = [(base_text * (size_mb // 8 + 1))[: size_mb * MB] for size_mb in sizes]
    counts = [consume(text) for text in texts]
    # Each size against the one before, round by round (see doubling()):
    # the time per MB relative to 1 MB is the product of the ratios.
    times, ratios = doubling([lambda text=text: consume(text) for text in texts], [len(t) for t in texts], rounds=5)
    relative = list(itertools.accumulate([1.0] + [r / 2 for r in ratios], operator.mul))
    per_mb = {size_mb: t / size_mb for size_mb, t in zip(sizes, times, strict=True)}
    for size_mb, links, rel in zip(sizes, counts, relative, strict=True):
        rows.append(
            f"| find_links, multilingual prose, {size_mb} MB ({links:,} links) | "
            f"{per_mb[size_mb] * 1000:.0f} ms/MB ({1 / per_mb[size_mb]:.1f} MB/s) | "
            f"{'flat: ' + format(rel, '.2f') + '× the 1 MB figure' if size_mb > 1 else '—'} |"
        )
    ok &= max(relative) <= 1.3
    ascii_text = corpus.ascii_prose(8 * MB)
    t = best_of(lambda: consume(ascii_text)) / 8
    rows.append(f"| find_links, ASCII prose, 8 MB | {t * 1000:.0f} ms/MB ({1 / t:.1f} MB/s) | — |")
    reference = per_mb[8]
    for name, make in corpus.ADVERSARIAL.items():
        texts = [make(size_mb * MB) for size_mb in (1, 2, 4, 8)]
        raw, ratios = doubling([lambda text=text: consume(text) for text in texts], [len(text) for text in texts])
        t = raw[0] * MB / len(texts[0])  # per MB of the 1 MB input
        met = t <= 3 * reference and max(ratios) <= 2.3
        ok &= met
        rows.append(
            f"| find_links, adversarial: {name} (1 MB) | {t * 1000:.0f} ms/MB | "
            f"{t / reference:.2f}× prose (≤ 3); doubling 1→8 MB: {', '.join(f'{r:.2f}' for r in ratios)} "
            f"(≤ 2.3): {'met' if met else 'NOT MET'} |"
        )
    for name, make in corpus.DENSE.items():
        texts = [make(size_mb * MB) for size_mb in (1, 2, 4)]
        raw, ratios = doubling([lambda text=text: consume(text) for text in texts], [len(text) for text in texts])
        t = raw[0] * MB / len(texts[0])
        met = t <= 3 * reference and max(ratios) <= 2.3  # (issue 23)
        ok &= met
        rows.append(
            f"| find_links, candidate-dense: {name} (1 MB) | {t * 1000:.0f} ms/MB | "
            f"{t / reference:.2f}× prose (≤ 3); doubling 1→4 MB: "
            f"{', '.join(f'{r:.2f}' for r in ratios)} (≤ 2.3): {'met' if met else 'NOT MET'} |"
        )
    peaks = []
    for size_mb in (4, 16):
        text = (base_text * 2)[: size_mb * MB]
        tracemalloc.start()
        consume(text)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    met = peaks[1] < 2 * peaks[0] + 64 * 1024
    ok &= met
    rows.append(
        f"| find_links, peak memory beyond the input (4 MB → 16 MB input) | "
        f"{peaks[0] / 1024:.0f} KiB → {peaks[1] / 1024:.0f} KiB | does not grow with the input: "
        f"{'met' if met else 'NOT MET'} |"
    )
    return rows, ok


def bench_peers() -> tuple[list[str], bool]:
    """uts58 and its peers side by side on the same 1 MB of each corpus
    (the slowest peers need seconds per MB), plus the regex floor."""
    rows = []
    ok = True
    available = peers.load()
    for label, text in (("multilingual", corpus.prose(MB)), ("ASCII", corpus.ascii_prose(MB))):
        t_uts = best_of(lambda text=text: consume(text))
        n_uts = consume(text)
        t_floor = best_of(lambda text=text: peers.floor(text))
        rows.append(
            f"| uts58 find_links, {label} 1 MB | {1 / t_uts:.1f} MB/s, {n_uts:,} links | "
            f"{t_floor / t_uts:.2f} of the speed of a bare regex pass over candidate characters "
            f"({1 / t_floor:.0f} MB/s) |"
        )
        for name, peer in available.items():
            if isinstance(peer, str):
                rows.append(f"| {name}, {label} | {peer} | — |")
                continue
            t = best_of(lambda text=text, peer=peer: peer(text), repeat=1)
            n = peer(text)
            ratio = t / t_uts
            target = ""
            if name == "linkify-it-py":
                met = ratio >= 10
                ok &= met
                target = f"uts58 ≥ 10× faster: {'met' if met else 'NOT MET'}"
            rows.append(
                f"| {name}, {label} 1 MB | {1 / t:.2f} MB/s, {n:,} links | uts58 is {ratio:.1f}× faster {target} |"
            )
    return rows, ok


_TIMING_PROBE = """
import json, time
t0 = time.perf_counter()
import uts58
t1 = time.perf_counter()
list(uts58.find_links("see bücher.de/straße and x@example.com"))
t2 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1]))
"""

_MEMORY_PROBE = """
import json, tracemalloc
tracemalloc.start()
import uts58
list(uts58.find_links("see bücher.de/straße and x@example.com"))
uts58.linkify("see example.com"); uts58.format_url("https://example.com/%C3%A9")
print(json.dumps(tracemalloc.get_traced_memory()[0]))
"""


def _probe(code: str, env: dict[str, str] | None = None) -> object:
    import json
    import subprocess

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout)


def bench_offsets() -> tuple[list[str], bool]:
    """link_offsets (D73): the links of one non-ASCII text in UTF-8 bytes and
    UTF-16 units, in one pass; time per link must stay flat."""
    from uts58.output.offsets import link_offsets

    sizes = [10_000, 20_000, 40_000, 80_000]
    chunk = "😀 see bücher.de/straße and x@example.org; "
    rows, ok = [], True
    for unit in ("utf8", "utf16"):
        texts = [chunk * (n // 2) for n in sizes]
        links = [[(link.start, link.end) for link in uts58.find_links(t)] for t in texts]
        jobs = [lambda t=t, ls=ls, u=unit: link_offsets(t, ls, u) for t, ls in zip(texts, links, strict=True)]
        # As timeit does: no cyclic GC during the timings, whose passes over
        # the (large, long-lived) input lists would be charged to the bigger sizes.
        gc.collect()
        gc.disable()
        try:
            times, ratios = doubling(jobs, sizes, rounds=5)
        finally:
            gc.enable()
        met = max(ratios) <= 2.3
        ok &= met
        rows.append(
            f"| link_offsets {unit}, {sizes[0]:,} → {sizes[-1]:,} links | {sizes[-1] / times[-1]:,.0f} links/s "
            f"| doubling ratios {', '.join(f'{r:.2f}' for r in ratios)} (≤ 2.3: {'met' if met else 'NOT MET'}) |"
        )
    return rows, ok


def bench_start_up() -> tuple[list[str], bool]:
    """Import time and first call (best of 5 fresh interpreters), and the
    memory of everything loaded (tracemalloc, which slows the run down)."""
    runs = [_probe(_TIMING_PROBE) for _ in range(5)]
    imp = min(r[0] for r in runs)  # type: ignore[index]
    first = min(r[1] for r in runs)  # type: ignore[index]
    memory = _probe(_MEMORY_PROBE)
    assert isinstance(memory, int)
    checks = (imp <= 0.050, first <= 0.300, memory <= 15 * MB)
    verdict = ["met" if c else "NOT MET" for c in checks]
    return [
        f"| import uts58 (fresh interpreter, best of 5) | {imp * 1000:.0f} ms | ≤ 50 ms: {verdict[0]} |",
        f"| first find_links call (tables, TLDs, PSL loaded) | {first * 1000:.0f} ms | ≤ 300 ms: {verdict[1]} |",
        f"| memory of everything loaded (tracemalloc) | {memory / MB:.1f} MB | ≤ 15 MB: {verdict[2]} |",
    ], all(checks)


def bench_linkify() -> tuple[list[str], bool]:
    text = corpus.prose(2 * MB)
    uts58.linkify(text[:1000])
    # Alternating runs, least of each: the two are compared under the same
    # conditions of this shared machine.
    t_find = t_linkify = float("inf")
    for _ in range(5):
        t_find = min(t_find, best_of(lambda: consume(text), repeat=1))
        t_linkify = min(t_linkify, best_of(lambda: uts58.linkify(text), repeat=1))
    met = t_linkify <= 1.3 * t_find
    return [
        f"| linkify (HTML, default policy), multilingual 2 MB | {2 / t_linkify:.1f} MB/s | "
        f"{t_linkify / t_find:.2f}× find_links (≤ 1.3: {'met' if met else 'NOT MET'}) |"
    ], met


# The speed rows compare with the commit before issue 14's work (D94), when
# this checkout has it (a shallow clone may not: the rows then say so).
SPEED_BASELINE = "2308753"


def bench_speed_rows() -> tuple[list[str], bool]:
    import subprocess

    known = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", SPEED_BASELINE + "^{commit}"],
        cwd=Path(__file__).parent,
        capture_output=True,
    )
    return bench_speed(SPEED_BASELINE if known.returncode == 0 else None)


def bench_precision() -> tuple[list[str], bool]:
    """Precision and recall on real text (bench/precision.py): uts58 beside
    linkify-it-py, linkify-it and Autolinker, on the hand-judged samples."""
    rows = precision_rows()
    return rows, not any("NOT MET" in row for row in rows)


def main() -> int:
    header = (
        f"uts58 {uts58.__version__}, Python {platform.python_version()}, {platform.machine()}, {platform.platform()}"
        f"; C accelerator {'built' if accelerated() else 'NOT BUILT'}"
    )
    lines = [header, "", "| benchmark | result | target |", "|---|---|---|"]
    print("\n".join(lines), flush=True)
    ok = True
    sections = (
        bench_start_up,
        bench_format_url,
        bench_find_link_end,
        bench_find_email_start,
        bench_find_links,
        bench_linkify,
        bench_offsets,
        bench_linkify_html,
        bench_html_memory,
        bench_adapters,
        bench_link_dense,
        bench_spark,
        bench_peers,
        bench_speed_rows,
        bench_precision,
    )
    # --only NAME[,NAME]: the sections named (bench_NAME), for a quick look;
    # RESULTS.md is written by a whole run only.
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    for section in sections:
        if only is not None and section.__name__.removeprefix("bench_") not in only:
            continue
        result = section()
        rows, met = result if isinstance(result, tuple) else (result, True)
        ok &= met
        print("\n".join(rows), flush=True)
        lines += rows
    if "--write" in sys.argv and only is None:
        (Path(__file__).parent / "RESULTS.md").write_text(
            "# Benchmark results\n\nWritten by `make bench` (`python bench/run.py --write`).\n\n"
            + "\n".join(lines)
            + "\n",
            encoding="utf-8",
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
