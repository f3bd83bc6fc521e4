"""The PySpark recipe.  The links column's type and the UDF's body are tested
everywhere (with stand-ins for the two PySpark names uts58.spark uses); the
recipe itself runs where PySpark and Java are installed."""

from __future__ import annotations

import importlib.util
import math
import shutil
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from uts58 import Finder, find_links
from uts58._schema import FIELDS, arrow_type
from uts58.spark import LINK_SCHEMA, links_type, links_udf

HAVE_SPARK = importlib.util.find_spec("pyspark") is not None and shutil.which("java") is not None
needs_spark = pytest.mark.skipif(
    not HAVE_SPARK,
    reason="PySpark (pip install pyspark) and a Java runtime are optional: this test runs where both are",
)
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


@pytest.fixture
def spark(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from pyspark.sql import SparkSession

    # D76: Python workers must run this interpreter (a virtualenv's), where uts58 is installed.
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    session = SparkSession.builder.master("local[2]").appName("uts58-test").getOrCreate()
    try:
        yield session
    finally:
        session.stop()


@needs_spark
def test_links_udf(spark: Any) -> None:
    df = spark.createDataFrame([(d,) for d in DOCS], "body string")
    out = df.withColumn("links", links_udf()("body"))
    assert out.schema["links"].dataType == links_type()
    assert out.schema["links"].dataType.simpleString() == LINK_SCHEMA
    rows = out.collect()
    got = [[link["text"] for link in row["links"]] for row in rows]
    assert got == [[link.text for link in find_links(d or "")] for d in DOCS]
    assert [[link.asDict() for link in row["links"]] for row in rows] == [Finder().records(d) for d in DOCS]


@needs_spark
def test_links_udf_with_a_finder(spark: Any) -> None:
    finder = Finder(schemes={"https", "ssh"}, known_tlds={"corp"})
    docs = ["see intranet.corp/x and ssh://git@c.corp/r", "example.com", None]
    df = spark.createDataFrame([(d,) for d in docs], "body string")
    rows = df.withColumn("links", links_udf(finder)("body")).collect()
    got = [[link["text"] for link in row["links"]] for row in rows]
    assert got == [[link.text for link in finder.find_links(d or "")] for d in docs]


@needs_spark
def test_links_column_writes_parquet_and_reads_back(spark: Any, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    df = spark.createDataFrame(list(enumerate(DOCS)), "id long, body string")
    df.withColumn("links", links_udf()("body")).write.parquet(str(tmp_path / "out"))
    want = [Finder().records(d) for d in DOCS]
    back = spark.read.parquet(str(tmp_path / "out")).orderBy("id").collect()
    assert [[link.asDict() for link in row["links"]] for row in back] == want
    # Spark writes the Arrow type uts58.dask gives its links column (D75).
    table = pq.read_table(tmp_path / "out").sort_by("id")
    assert table.schema.field("links").type == arrow_type()
    assert table.column("links").to_pylist() == want
