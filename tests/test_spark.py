"""The PySpark recipe, where PySpark (and Java) are installed."""

from __future__ import annotations

import shutil
import sys

import pytest

pyspark = pytest.importorskip("pyspark", reason="PySpark is optional: pip install pyspark to run this test")
if shutil.which("java") is None:
    pytest.skip("PySpark needs a Java runtime", allow_module_level=True)

from pyspark.sql import SparkSession  # noqa: E402

from uts58 import find_links  # noqa: E402
from uts58.spark import links_udf  # noqa: E402


def test_links_udf(monkeypatch: pytest.MonkeyPatch) -> None:
    # Python workers must run this interpreter, where uts58 is installed.
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master("local[2]").appName("uts58-test").getOrCreate()
    try:
        docs = ["see bücher.de/straße.", "x@example.com and https://ja.wikipedia.org/wiki/東京", "", None]
        df = spark.createDataFrame([(d,) for d in docs], "body string")
        rows = df.withColumn("links", links_udf()("body")).collect()
        got = [[link["text"] for link in row["links"]] for row in rows]
        assert got == [[link.text for link in find_links(d or "")] for d in docs]
    finally:
        spark.stop()


def test_links_udf_with_a_finder(monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58 import Finder

    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master("local[2]").appName("uts58-test").getOrCreate()
    try:
        finder = Finder(schemes={"https", "ssh"}, known_tlds={"corp"})
        docs = ["see intranet.corp/x and ssh://git@c.corp/r", "example.com", None]
        df = spark.createDataFrame([(d,) for d in docs], "body string")
        rows = df.withColumn("links", links_udf(finder)("body")).collect()
        got = [[link["text"] for link in row["links"]] for row in rows]
        assert got == [[link.text for link in finder.find_links(d or "")] for d in docs]
    finally:
        spark.stop()
