"""The pure helpers of the speed bench (bench/speed.py, issue 14, D94): its inputs
are deterministic and what they say they are; the verdicts of its rows.
The timings themselves are the bench's, never a test's."""

from __future__ import annotations

import pytest
from bench_modules import load_bench

S = load_bench("speed")


def test_dense_text_is_one_link_per_line_of_the_conformance_links() -> None:
    text = S.dense_text(64 * 1024)
    assert text == S.dense_text(64 * 1024)  # fixed seed
    lines = text.split("\n")
    assert lines[-1] == ""
    lines.pop()
    links = S.dense_links()
    assert len(set(links)) == len(links) > 300
    assert set(lines) <= set(links)
    assert lines[: len(links)] == links  # the shuffled list, repeated
    assert 64 * 1024 <= len(text.encode("utf-8")) < 64 * 1024 + 2000
    assert not any(c.isspace() for line in lines for c in line)


def test_sample_lines_is_fixed_in_corpus_order_and_of_the_size_asked() -> None:
    lines = [f"line {i} " + "é" * (i % 7) for i in range(5000)]
    picked = S.sample_lines(lines, 10_000)
    assert picked == S.sample_lines(lines, 10_000)
    assert picked == [line for line in lines if line in set(picked)]
    size = sum(len(line.encode("utf-8")) for line in picked)
    assert 10_000 <= size < 10_000 + 30


def test_verdicts() -> None:
    v = S.Verdict()
    assert v.check(1.5, 1.2, "x") == "x 1.50 (≥ 1.2: met)" and v.ok
    assert v.check(None, 1.2, "x") == "x ≥ 1.2: not judged (skipped)" and v.ok
    assert v.check(1.3, 1.2, "x", 0.9, at_most=True) == "x 0.90 → 1.30 (≤ 1.2: NOT MET)"
    assert not v.ok
    fast, slow = S.Measure(1.0, 10, 4.0), S.Measure(2.0, 10, 4.0)
    assert S._ratio(fast, slow) == 2.0
    assert S._ratio(fast, "skipped") is None
    assert S._ratio_text(fast, slow, slow) == "1.00× → 2.00×"


@pytest.mark.skipif(S.precision._node_reason() is not None, reason="node or the JS peers not installed")
def test_node_timing_mode_counts_links_and_utf16_units() -> None:
    texts = ["see example.com and a@b.org", "x 😀 http://x.org"]
    result = S.node_time("autolinker", texts, 1)
    assert isinstance(result, S.Measure), result
    assert result.links == 3
