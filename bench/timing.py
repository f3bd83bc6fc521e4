"""Timing helpers of the benchmarks: CPU time of this process, least of
several runs, and size-against-size ratios as medians of per-round ratios."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Least CPU time of this process over ``repeat`` runs (CPU time, not wall
    time: the machine is shared, and other processes must not count)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def doubling(
    fns: list[Callable[[], object]],
    lengths: list[int],
    rounds: int = 7,
    before: Callable[[], object] | None = None,
) -> tuple[list[float], list[float]]:
    """Times of ``fns`` (on inputs of ``lengths``, each about twice the one
    before) and the ratio of each to the one before, for an exact doubling.
    Each round times them all back to back; a ratio is the median over the
    rounds of that round's ratio, so a noisy spell of the shared machine,
    which falls on one round, does not decide it.  The times are the least
    of each over the rounds.  ``before``, untimed, runs before each timing
    (to start each size from the same state of the caches)."""
    runs = []
    for _ in range(rounds):
        times = []
        for fn in fns:
            if before is not None:
                before()
            gc.collect()
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
        runs.append(times)
    best = [min(run[k] for run in runs) for k in range(len(fns))]
    ratios = [
        statistics.median(2 * (run[k + 1] / lengths[k + 1]) / (run[k] / lengths[k]) for run in runs)
        for k in range(len(fns) - 1)
    ]
    return best, ratios
