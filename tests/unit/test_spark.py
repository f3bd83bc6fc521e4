"""The PySpark recipe.  The links column's type and the UDF's body are tested
everywhere (with stand-ins for the two PySpark names uts58.frames.spark uses); the
recipe itself runs on a local Spark where PySpark and Java are installed, and
must run where UTS58_REQUIRE_SPARK is set (.ci/run installs both: D126)."""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import sys
import types
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pandas as pd
import pytest
from bench_modules import load_bench
from conftest import C_KERNELS_WHY_NOT, parquet_links_everywhere

from uts58 import Finder, find_links
from uts58.frames._schema import FIELDS, arrow_type
from uts58.frames.spark import LINK_SCHEMA, links_type, links_udf

# PySpark warns that it does not yet fully support pandas 3 (the tests below check what it gives).
pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
DOCS: list[Any] = [
    "see bücher.de/straße.",
    "x@example.com and https://ja.wikipedia.org/wiki/東京 𝒜𝒷 例え.jp/😀",
    "",
    None,
]


# Stand-ins for pyspark.sql.types and pandas_udf: each type records how it was built.
@dataclass(frozen=True)
class _Type:
    args: tuple[Any, ...] = ()


class _Long(_Type):
    pass


class _String(_Type):
    pass


@dataclass(frozen=True)
class _Field:
    name: str
    type: _Type


@dataclass(frozen=True)
class _Struct:
    fields: tuple[_Field, ...]


@dataclass(frozen=True)
class _Array:
    element: _Struct


@pytest.fixture
def fake_pyspark(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """pyspark.sql.types and pyspark.sql.functions.pandas_udf as stand-ins;
    yields the return types pandas_udf was called with."""
    calls: list[Any] = []

    def pandas_udf(return_type: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        calls.append(return_type)
        return lambda fn: fn

    sql_types = types.ModuleType("pyspark.sql.types")
    sql_types.LongType = _Long  # type: ignore[attr-defined]
    sql_types.StringType = _String  # type: ignore[attr-defined]
    sql_types.StructField = _Field  # type: ignore[attr-defined]
    sql_types.StructType = lambda fields: _Struct(tuple(fields))  # type: ignore[attr-defined]
    sql_types.ArrayType = _Array  # type: ignore[attr-defined]
    functions = types.ModuleType("pyspark.sql.functions")
    functions.pandas_udf = pandas_udf  # type: ignore[attr-defined]
    sql = types.ModuleType("pyspark.sql")
    sql.types = sql_types  # type: ignore[attr-defined]
    sql.functions = functions  # type: ignore[attr-defined]
    root = types.ModuleType("pyspark")
    root.sql = sql  # type: ignore[attr-defined]
    for name, module in [("pyspark", root), ("pyspark.sql", sql), ("pyspark.sql.types", sql_types)]:
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setitem(sys.modules, "pyspark.sql.functions", functions)
    yield calls


def test_the_spark_type_is_built_from_the_shared_fields(fake_pyspark: list[Any]) -> None:
    # D75: the one field list gives the Spark type, its DDL string and the Arrow type.
    spark = links_type()
    assert [f.name for f in spark.element.fields] == [f.name for f in FIELDS] == list(Finder().records("a.com")[0])
    kinds = {"int64": _Long, "string": _String}
    assert [type(f.type) for f in spark.element.fields] == [kinds[f.arrow] for f in FIELDS]
    assert LINK_SCHEMA == "array<struct<" + ",".join(f"{f.name}:{f.spark}" for f in FIELDS) + ">>"
    assert "start:bigint" in LINK_SCHEMA and "href:string" in LINK_SCHEMA
    record = arrow_type().value_type
    assert [(record.field(i).name, str(record.field(i).type)) for i in range(record.num_fields)] == [
        (f.name, f.arrow) for f in FIELDS
    ]


def test_the_udf_body_gives_the_records(fake_pyspark: list[Any]) -> None:
    body = links_udf()
    assert fake_pyspark == [links_type()]  # the UDF is declared with the array-of-structs type
    texts = pd.Series([*DOCS, math.nan], dtype=object)
    got = body(texts).tolist()
    assert got == [Finder().records(d) for d in texts] and got[-2:] == [[], []]
    finder = Finder(schemes={"https", "ssh"}, known_tlds={"corp"})
    docs = pd.Series(["see intranet.corp/x and ssh://git@c.corp/r", "example.com", None], dtype=object)
    assert links_udf(finder)(docs).tolist() == [finder.records(d) for d in docs]
    assert links_udf(finder)(docs).tolist() != [Finder().records(d) for d in docs]
    with pytest.raises(ValueError, match="not both"):
        links_udf(finder, emails=False)


def spark_missing() -> str | None:
    """Why the real-Spark tests cannot run here, or None."""
    if importlib.util.find_spec("pyspark") is None:
        return "PySpark is not installed (make spark, or pip install 'uts58[spark]')"
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "no Java runtime (Debian: apt-get install default-jre-headless)"
    return None


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """One local Spark for the module: 2 cores, no web UI, 2 shuffle partitions, errors-only logs."""
    why = spark_missing()
    if why is not None:
        if os.environ.get("UTS58_REQUIRE_SPARK"):
            pytest.fail(why + ", and UTS58_REQUIRE_SPARK is set (.ci/run sets it)")
        pytest.skip(why)
    from pyspark.sql import SparkSession

    with pytest.MonkeyPatch.context() as env:
        # D76: Python workers must run this interpreter (a virtualenv's), where uts58 is installed.
        env.setenv("PYSPARK_PYTHON", sys.executable)
        session = (
            SparkSession.builder.master("local[2]")
            .appName("uts58-test")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate()
        )
        session.sparkContext.setLogLevel("ERROR")
        try:
            yield session
        finally:
            session.stop()


def test_links_udf(spark: Any) -> None:
    df = spark.createDataFrame([(d,) for d in DOCS], "body string")
    out = df.withColumn("links", links_udf()("body"))
    assert out.schema["links"].dataType == links_type()
    assert out.schema["links"].dataType.simpleString() == LINK_SCHEMA
    rows = out.collect()
    got = [[link["text"] for link in row["links"]] for row in rows]
    assert got == [[link.text for link in find_links(d or "")] for d in DOCS]
    assert [[link.asDict() for link in row["links"]] for row in rows] == [Finder().records(d) for d in DOCS]


def test_links_udf_with_a_finder(spark: Any) -> None:
    finder = Finder(schemes={"https", "ssh"}, known_tlds={"corp"})
    docs = ["see intranet.corp/x and ssh://git@c.corp/r", "example.com", None]
    df = spark.createDataFrame([(d,) for d in docs], "body string")
    rows = df.withColumn("links", links_udf(finder)("body")).collect()
    got = [[link["text"] for link in row["links"]] for row in rows]
    assert got == [[link.text for link in finder.find_links(d or "")] for d in docs]
    assert got != [[link.text for link in find_links(d or "")] for d in docs]


def test_the_workers_run_as_the_driver(spark: Any) -> None:
    # D76, D126: the workers run this interpreter, with this environment (UTS58_PURE_PYTHON: CI's second pass).
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("string")  # type: ignore[untyped-decorator,unused-ignore]
    def where(ids: pd.Series) -> pd.Series:
        import uts58

        here = f"{sys.executable}|{os.environ.get('UTS58_PURE_PYTHON', '')}|{uts58.accelerated()}"
        return ids.map(lambda _: here)

    got = {row[0] for row in spark.range(4).repartition(2).select(where("id")).collect()}
    assert got == {f"{sys.executable}|{os.environ.get('UTS58_PURE_PYTHON', '')}|{C_KERNELS_WHY_NOT is None}"}


# Rows with ids: links and emails in several scripts, astral characters, empty and missing text.
ROWS: list[tuple[int, Any]] = list(
    enumerate([*DOCS, "𝒜𝒷 see 例え.jp/𝒳?q=😀 and 😀@例え.jp", "no link here", "пример.рф, a.com"])
)


def test_spark_writes_parquet_every_reader_opens(spark: Any, tmp_path: Path) -> None:
    # D125: pandas, Dask, pyarrow and Spark read what Spark writes, with their default arguments.
    rows = spark.sparkContext.parallelize(ROWS, len(ROWS) + 2)  # more partitions than rows: some are empty
    df = spark.createDataFrame(rows, "id long, body string")
    assert 0 in df.rdd.glom().map(len).collect()
    df.withColumn("found", links_udf()("body")).write.parquet(str(tmp_path / "out"))
    want = [Finder().records(body) for _, body in ROWS]
    assert want[3] == [] and any(want[1]) and any(want[-3])
    for reader, got in parquet_links_everywhere(tmp_path / "out", "found").items():
        assert got == want, reader
    back = spark.read.parquet(str(tmp_path / "out"))
    assert back.schema["found"].dataType == links_type()
    assert back.schema["found"].dataType.simpleString() == LINK_SCHEMA
    assert [[link.asDict() for link in row["found"]] for row in back.orderBy("id").collect()] == want

    # No rows at all: the file still has the type.
    df.filter("id < 0").withColumn("links", links_udf()("body")).write.parquet(str(tmp_path / "none"))
    assert parquet_links_everywhere(tmp_path / "none", "links") == {"pyarrow": [], "pandas": [], "dask": []}
    assert spark.read.parquet(str(tmp_path / "none")).schema["links"].dataType == links_type()


def test_spark_reads_what_dask_writes(spark: Any, tmp_path: Path) -> None:
    import dask
    import dask.dataframe as dd

    from uts58.frames.dask import add_link_columns

    frame = pd.DataFrame({"id": [i for i, _ in ROWS], "body": pd.Series([b for _, b in ROWS], dtype=object)})
    frame.loc[len(frame)] = [len(frame), math.nan]
    ddf = dd.from_pandas(frame, npartitions=4)
    with dask.config.set(scheduler="sync"):
        add_link_columns(ddf[ddf["id"] % 4 != 1], "body", prefix="found").to_parquet(tmp_path / "dask")
    want = [Finder().records(body) for i, body in enumerate(frame["body"]) if i % 4 != 1]
    assert want[-1] == [] and any(want)  # NaN has no links
    back = spark.read.parquet(str(tmp_path / "dask"))
    assert back.schema["found"].dataType == links_type()
    rows = back.orderBy("id").collect()
    assert [[link.asDict() for link in row["found"]] for row in rows] == want
    assert [row["found_count"] for row in rows] == [len(w) for w in want]


def test_what_dask_reads_back_filters_and_writes_every_reader_opens(spark: Any, tmp_path: Path) -> None:
    # Review of D125: Spark's files and uts58.frames.dask's, read back by Dask, filtered and written again.
    import dask
    import dask.dataframe as dd

    from uts58.frames.dask import add_link_columns, with_links_type

    df = spark.createDataFrame(spark.sparkContext.parallelize(ROWS, 3), "id long, body string")
    df.withColumn("found", links_udf()("body")).write.parquet(str(tmp_path / "spark"))
    frame = pd.DataFrame({"id": [i for i, _ in ROWS], "body": pd.Series([b for _, b in ROWS], dtype=object)})
    with dask.config.set(scheduler="sync"):
        add_link_columns(dd.from_pandas(frame, npartitions=3), "body", prefix="found").to_parquet(tmp_path / "dask")
        for source in ["spark", "dask"]:
            back = with_links_type(dd.read_parquet(tmp_path / source))  # "found" is found by its stored type
            back[back["id"] % 2 == 0].to_parquet(tmp_path / f"{source}-even")
    want = [Finder().records(body) for i, body in ROWS if i % 2 == 0]
    assert [] in want and any(want)
    for source in ["spark", "dask"]:
        for reader, got in parquet_links_everywhere(tmp_path / f"{source}-even", "found").items():
            assert got == want, (source, reader)
        again = spark.read.parquet(str(tmp_path / f"{source}-even"))
        assert again.schema["found"].dataType == links_type()
        assert [[link.asDict() for link in row["found"]] for row in again.orderBy("id").collect()] == want


def test_the_bench_corpus_is_multilingual_with_new_hosts() -> None:
    # bench/spark.py's text (D126): deterministic, of the size asked, several scripts, links and
    # emails, and hosts that are new (no cache answers for most of them).
    documents = load_bench("spark").documents
    docs = documents(300_000)
    assert docs == documents(300_000) and docs != documents(300_000, seed=59)
    assert 300_000 <= sum(len(d.encode("utf-8")) for d in docs) < 306_000
    text = "".join(docs)
    scripts = {unicodedata.name(c).split()[0] for c in text if c.isalpha() and not c.isascii()}
    assert {"CYRILLIC", "GREEK", "ARABIC", "HEBREW", "DEVANAGARI", "THAI", "HANGUL", "CJK", "GEORGIAN"} <= scripts
    links = [record for doc in docs for record in Finder().records(doc)]
    urls = [record for record in links if record["kind"] == "url"]
    assert len(links) - len(urls) > 200  # emails
    assert len({urlsplit(record["href"]).hostname for record in urls}) > len(urls) / 2
    assert any(urlsplit(record["href"]).hostname.startswith("xn--") for record in urls)  # IDN hosts
