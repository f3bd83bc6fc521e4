"""PySpark recipe: links as a column, with a pandas UDF over Arrow.

::

    from pyspark.sql import SparkSession
    from uts58.spark import links_udf

    spark = SparkSession.builder.getOrCreate()
    df = spark.createDataFrame([("see bücher.de",), ("x@example.com",)], ["body"])
    df.withColumn("links", links_udf()("body")).show(truncate=False)

Each row gets an array of structs (start, end, kind, text, href, display).  Batches
of rows travel as Arrow record batches to Python workers, where uts58 runs
once per batch.  PySpark is not a dependency of uts58 (nor installed by
``make test``; its test runs where PySpark is installed).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import pandas as pd  # PySpark resolves the UDF's type hints in this module

from .detection import Finder, FinderOptions, resolve_finder

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["LINK_SCHEMA", "links_udf"]

LINK_SCHEMA = "array<struct<start:int,end:int,kind:string,text:string,href:string,display:string>>"


def links_udf(finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Any:
    """A pandas UDF from a string column to its links, found with ``finder``
    (pickled to the workers) or the options of :func:`uts58.find_links`."""
    from pyspark.sql.functions import pandas_udf

    found = resolve_finder(finder, options, "links_udf")  # checked on the driver

    @pandas_udf(LINK_SCHEMA)  # type: ignore[misc,untyped-decorator,unused-ignore]
    def links(texts: pd.Series) -> pd.Series:
        return texts.map(found.records)

    return links
