#!/usr/bin/env python3
"""The Spark integration on a local Spark (issue 27, D126).

``links_udf`` over a DataFrame read from Parquet and written back to Parquet,
on ``local[2]``, against :meth:`uts58.Finder.records` over the same documents
in this one process; wall time, the least of two runs of each.  The text is generated (deterministic, no download):
documents of multilingual prose with links every few hundred characters
(``corpus.prose``) followed by lines of link-dense text whose hosts are new
(``corpus.fresh_lines``, both shapes: many scripts, IDN hosts, emails).

Size: ``UTS58_BENCH_SPARK_MB`` (default 100), in MB (2**20 bytes) of UTF-8
text.  Needs PySpark and a Java runtime (``make spark``); without them the
row says so.  ``python bench/spark.py`` prints the row alone.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # its siblings, when loaded by path (tests/bench_modules.py)
import corpus

from uts58 import Finder

MB = 1 << 20
DEFAULT_MB = 100
ROUNDS = 2  # the least wall time of each (the machine is shared)


def documents(size: int, seed: int = 58) -> list[str]:
    """Documents of about 1–5 KB, ``size`` bytes of UTF-8 in all: a stretch of
    multilingual prose, then a few link-dense lines whose hosts are new."""
    rng = random.Random(seed)
    lines = corpus.fresh_lines(max(50, size // 1200), "dev") + corpus.fresh_lines(max(50, size // 1200), "held-out")
    rng.shuffle(lines)
    docs: list[str] = []
    total = block = pos = line = 0
    prose = ""
    while total < size:
        length = rng.randint(800, 3000)
        if pos + length > len(prose):
            prose, pos, block = corpus.prose(MB, seed=seed + block), 0, block + 1
        count = rng.randint(2, 6)
        doc = prose[pos : pos + length] + "\n" + "\n".join(lines[(line + j) % len(lines)] for j in range(count))
        pos, line = pos + length, line + count
        docs.append(doc)
        total += len(doc.encode("utf-8"))
    return docs


def _write_input(docs: list[str], directory: Path) -> None:
    """Parquet files of ~8 MB (at least 4), so that both cores get splits."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = max(4, sum(len(d.encode("utf-8")) for d in docs) // (8 * MB))
    step = -(-len(docs) // files)
    for i in range(files):
        part = docs[i * step : (i + 1) * step]
        table = pa.table({"id": pa.array(range(i * step, i * step + len(part)), pa.int64()), "body": part})
        pq.write_table(table, directory / f"part-{i:03}.parquet")


def _missing() -> str | None:
    import importlib.util

    if importlib.util.find_spec("pyspark") is None:
        return "PySpark not installed (make spark)"
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "no Java runtime"
    return None


def bench_spark() -> tuple[list[str], bool]:
    """One row: Spark ``local[2]`` MB/s (and per core) beside plain Python on one core."""
    size_mb = float(os.environ.get("UTS58_BENCH_SPARK_MB", DEFAULT_MB))
    label = f"Spark local[2], links_udf Parquet → Parquet, {size_mb:g} MB multilingual"
    why = _missing()
    if why is not None:
        return [f"| {label} | {why} | — |"], True
    docs = documents(int(size_mb * MB))
    size = sum(len(d.encode("utf-8")) for d in docs) / MB

    finder = Finder()
    finder.records(docs[0])  # tables loaded outside the timing
    python_seconds = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        python_links = sum(len(finder.records(d)) for d in docs)
        python_seconds = min(python_seconds, time.perf_counter() - start)

    from pyspark.sql import SparkSession

    from uts58.frames.spark import links_udf

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # D76
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("uts58-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.files.maxPartitionBytes", str(8 * MB))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    work = Path(tempfile.mkdtemp(prefix="uts58-bench-spark-"))
    try:
        (work / "in").mkdir()
        _write_input(docs, work / "in")
        udf = links_udf()
        # Start the Python workers and load their tables outside the timing.
        spark.createDataFrame([(d,) for d in docs[:200]], "body string").select(udf("body")).collect()
        frame = spark.read.parquet(str(work / "in"))
        spark_seconds = copy_seconds = float("inf")
        for round in range(ROUNDS):
            start = time.perf_counter()
            frame.withColumn("links", udf("body")).write.parquet(str(work / f"out{round}"))  # every row: the UDF
            spark_seconds = min(spark_seconds, time.perf_counter() - start)
            start = time.perf_counter()
            frame.write.parquet(str(work / f"copy{round}"))  # Spark's own reading and writing, for the record
            copy_seconds = min(copy_seconds, time.perf_counter() - start)
        spark_links = spark.read.parquet(str(work / "out0")).selectExpr("sum(size(links))").first()[0]
    finally:
        spark.stop()
        shutil.rmtree(work, ignore_errors=True)
    if spark_links != python_links:
        return [f"| {label} | Spark found {spark_links} links, Python {python_links} | NOT MET |"], False
    spark_rate, python_rate = size / spark_seconds, size / python_seconds
    return [
        f"| {label} ({python_links:,} links) | {spark_rate:.1f} MB/s ({spark_rate / 2:.1f} MB/s per core; "
        f"the same copy without the UDF {copy_seconds:.1f} s of {spark_seconds:.1f} s) "
        f"| plain Python, 1 core: {python_rate:.1f} MB/s (Spark per core: {spark_rate / 2 / python_rate:.0%} of it) |"
    ], True


if __name__ == "__main__":
    rows, _ = bench_spark()
    print("\n".join(rows))
