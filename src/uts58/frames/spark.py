"""PySpark recipe: links as a column, with a pandas UDF over Arrow.

::

    import os, sys
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers run this interpreter (a virtualenv's)

    from pyspark.sql import SparkSession
    from uts58.frames.spark import links_udf

    spark = SparkSession.builder.getOrCreate()
    df = spark.createDataFrame([("see bücher.de",), ("x@example.com",)], ["body"])
    df.withColumn("links", links_udf()("body")).write.parquet("links.parquet")

Each row gets an array of structs (start, end, kind, text, href, display):
:func:`links_type`, the same type as the ``links`` column of
:func:`uts58.frames.dask.add_link_columns` (D75).  Batches of rows travel as Arrow
record batches to Python workers, where uts58 runs once per batch.  The
workers start the interpreter named by ``PYSPARK_PYTHON`` (``python3`` on
the ``PATH`` when it is unset), which must be one where uts58 is installed:
in a virtualenv, set it before the session starts (D76).  PySpark is not a
dependency of uts58 (``make spark`` installs it; CI runs the Spark tests,
D126).  Parquet written this way opens in pandas, Dask, pyarrow and Spark
with their default arguments (D125).

>>> LINK_SCHEMA[:44]
'array<struct<start:bigint,end:bigint,kind:st'
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import pandas as pd  # PySpark resolves the UDF's type hints in this module

from ..detect.finder import Finder, FinderOptions, resolve_finder
from ._schema import spark_ddl, spark_type

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["LINK_SCHEMA", "links_type", "links_udf"]

# The links column's type as a Spark DDL string, from the same fields as links_type() (D75).
LINK_SCHEMA = spark_ddl()


def links_type() -> Any:
    """The Spark type of the links column, ``ArrayType(StructType([...]))``
    with the fields start and end (``LongType``), kind, text, href and
    display (``StringType``); what :func:`links_udf` returns (D75)."""
    return spark_type()


def links_udf(finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Any:
    """A pandas UDF from a string column to its links (of type
    :func:`links_type`; a missing value has an empty array), found with
    ``finder`` (pickled to the workers) or the options of
    :func:`uts58.find_links`."""
    from pyspark.sql.functions import pandas_udf  # type: ignore[attr-defined,unused-ignore]

    found = resolve_finder(finder, options, "links_udf")  # checked on the driver

    @pandas_udf(links_type())  # type: ignore[misc,untyped-decorator,unused-ignore]
    def links(texts: pd.Series) -> pd.Series:
        return texts.map(found.records)

    return links
