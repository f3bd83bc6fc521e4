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

from typing import Any

import pandas as pd  # PySpark resolves the UDF's type hints in this module

from .dask import link_records
from .detection import find_links

__all__ = ["LINK_SCHEMA", "links_udf"]

LINK_SCHEMA = "array<struct<start:int,end:int,kind:string,text:string,href:string,display:string>>"


def links_udf(**options: Any) -> Any:
    """A pandas UDF from a string column to its links (``options`` of :func:`uts58.find_links`)."""
    from pyspark.sql.functions import pandas_udf

    find_links("", **options)  # check the options on the driver

    @pandas_udf(LINK_SCHEMA)  # type: ignore[misc,untyped-decorator,unused-ignore]
    def links(texts: pd.Series) -> pd.Series:
        return texts.map(lambda text: link_records(text, **options))

    return links
