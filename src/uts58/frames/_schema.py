"""The fields of a link record (:meth:`uts58.Link.as_dict`) with their Arrow
and Spark SQL types, written once for :mod:`uts58.frames.dask` and
:mod:`uts58.frames.spark`, so that both give the links column one type (D75).

>>> [f.name for f in FIELDS]
['start', 'end', 'kind', 'text', 'href', 'display']
>>> spark_ddl()[:44]
'array<struct<start:bigint,end:bigint,kind:st'

Neither pyarrow nor PySpark is imported until a type is asked for.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["FIELDS", "Field", "arrow_type", "pandas_dtype", "spark_ddl", "spark_type"]


class Field(NamedTuple):
    """One field of a link record: its name, Arrow type alias
    (``pyarrow.type_for_alias``) and Spark SQL type name."""

    name: str
    arrow: str
    spark: str


# Offsets are 64-bit in both (D75): a Spark `int` would cap a document at 2**31 code points.
FIELDS: tuple[Field, ...] = (
    Field("start", "int64", "bigint"),
    Field("end", "int64", "bigint"),
    Field("kind", "string", "string"),
    Field("text", "string", "string"),
    Field("href", "string", "string"),
    Field("display", "string", "string"),
)

# The class of pyspark.sql.types for each Spark SQL type name used above.
_SPARK_CLASSES = {"bigint": "LongType", "string": "StringType"}


def arrow_type() -> Any:
    """``list<element: struct<start: int64, …, display: string>>``: the Arrow
    type of a links column (one list of link records per document)."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]  # (no stubs)

    record = pa.struct([pa.field(f.name, pa.type_for_alias(f.arrow)) for f in FIELDS])
    # "element" is the name Parquet (and Spark) give a list's items: what is read back is this very type (D75).
    return pa.list_(pa.field("element", record))


def pandas_dtype() -> Any:
    """:func:`arrow_type` as a ``pd.ArrowDtype``: what
    ``read_parquet(..., dtype_backend="pyarrow")`` gives a links column.  No
    column of uts58's has it: a nested ``ArrowDtype`` written to Parquet
    names itself in the file's pandas metadata, which pandas cannot read
    back, so a Dask links column holds lists under a meta named ``object``
    (D125)."""
    import pandas as pd

    return pd.ArrowDtype(arrow_type())


def spark_ddl() -> str:
    """The Spark SQL type of a links column as a DDL string (needs no PySpark)."""
    return "array<struct<" + ",".join(f"{f.name}:{f.spark}" for f in FIELDS) + ">>"


def spark_type() -> Any:
    """``ArrayType(StructType([...]))``: the Spark type of a links column."""
    from pyspark.sql import types

    fields = [types.StructField(f.name, getattr(types, _SPARK_CLASSES[f.spark])()) for f in FIELDS]
    return types.ArrayType(types.StructType(fields))
