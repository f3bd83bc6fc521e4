#!/usr/bin/env python3
"""Benchmarks of the core algorithms (``make bench``).

Prints a Markdown table.  Speed targets are checked here, never in unit
tests; each row says its target and whether this run met it.

* format_url over the URLs of the official LinkFormattingTest files;
* find_link_end on paths of 1, 2, 4, 8 MB (ordinary and hostile shapes):
  time per MB must stay flat, i.e. doubling the size at most doubles the
  time (ratio <= 2.3 per doubling);
* find_email_start on long local-parts and on runs of '@'.
"""

from __future__ import annotations

import gc
import itertools
import platform
import sys
import time
from collections.abc import Callable

import uts58
from uts58.conformance import data_file, read_formatting_test

MB = 1 << 20


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_format_url() -> list[str]:
    urls = [c.source for v in ("17.0.0", "dev") for c in read_formatting_test(data_file(v, "LinkFormattingTest.txt"))]
    wiki = [u for u in urls if "wiki" in u]
    rounds = max(1, 20000 // len(wiki))

    def run() -> None:
        for _ in range(rounds):
            for u in wiki:
                uts58.format_url(u)

    per_s = rounds * len(wiki) / best_of(run)
    return [f"| format_url, Wikipedia URLs of the conformance files | {per_s:,.0f} URLs/s | — |"]


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
        times = []
        for size in (MB, 2 * MB, 4 * MB, 8 * MB):
            text = make(size)
            times.append(best_of(lambda text=text: uts58.find_link_end(text, 11)))
        ratios = [b / a for a, b in itertools.pairwise(times)]
        per_mb = times[-1] / 8 * 1000
        met = max(ratios) <= 2.3
        ok &= met
        rows.append(
            f"| find_link_end, {name} | {per_mb:.2f} ms/MB (8 MB) | doubling ratios "
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


def main() -> int:
    print(f"uts58 {uts58.__version__}, Python {platform.python_version()}, {platform.machine()}, {platform.platform()}")
    print()
    print("| benchmark | result | target |")
    print("|---|---|---|")
    rows = bench_format_url()
    term_rows, ok = bench_find_link_end()
    rows += term_rows + bench_find_email_start()
    print("\n".join(rows))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
