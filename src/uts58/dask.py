"""Link detection on Dask collections (install ``uts58[dask]``).

>>> import pandas as pd, dask.dataframe as dd
>>> df = dd.from_pandas(pd.DataFrame({"body": ["see bücher.de", "x@example.com, a.com"]}), npartitions=2)
>>> out = add_link_columns(df, "body").compute()
>>> out["links_count"].tolist(), [l["text"] for l in out["links"].iloc[1]]
([1, 2], ['x@example.com', 'a.com'])

The ``links`` column is an Arrow list of structs (:func:`links_dtype`), so
``to_parquet`` writes it as it is (D75).  The work runs where Dask runs it
(threads, processes or a ``distributed`` cluster); each worker loads the
uts58 tables once.  Dask is not a dependency of uts58 itself.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from ._schema import pandas_dtype
from .detection import Finder, FinderOptions, resolve_finder

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["add_link_columns", "link_records", "links_bag", "links_dtype"]


def link_records(text: Any, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> list[dict[str, Any]]:
    """The links of one document as plain records (picklable, Arrow-friendly):
    :meth:`uts58.Finder.records`.  A missing value (None, NaN) has no links."""
    return resolve_finder(finder, options, "link_records").records(text)


def links_dtype() -> Any:
    """The dtype of the ``links`` column of :func:`add_link_columns`: a
    ``pd.ArrowDtype`` of ``list<element: struct<start: int64, end: int64,
    kind: string, text: string, href: string, display: string>>``, the type
    the PySpark UDF gives too (D75).

    >>> str(links_dtype())[:45]
    'list<element: struct<start: int64, end: int64'
    """
    return pandas_dtype()


def add_link_columns(
    df: Any, column: str, *, prefix: str = "links", finder: Finder | None = None, **options: Unpack[FinderOptions]
) -> Any:
    """A Dask DataFrame with two more columns: ``{prefix}`` (the list of link
    records of ``df[column]``, of dtype :func:`links_dtype`; a missing value
    has an empty list) and ``{prefix}_count``, found with ``finder`` (pickled
    to the workers once per task) or the options of :func:`uts58.find_links`."""
    import pandas as pd

    if column not in df.columns:
        raise KeyError(f"column {column!r} is not in the DataFrame")
    found = resolve_finder(finder, options, "add_link_columns")  # checked here, not on a worker
    dtype = links_dtype()

    def partition(part: pd.DataFrame) -> pd.DataFrame:
        records = [found.records(text) for text in part[column]]
        part = part.copy()
        # One Arrow array per partition, built from the records in one pass (D75).
        part[prefix] = pd.Series(pd.array(records, dtype=dtype), index=part.index)
        part[f"{prefix}_count"] = pd.Series([len(r) for r in records], index=part.index, dtype="int64")
        return part

    meta = df._meta.copy()
    meta[prefix] = pd.Series([], dtype=dtype)
    meta[f"{prefix}_count"] = pd.Series([], dtype="int64")
    return df.map_partitions(partition, meta=meta)


def links_bag(bag: Any, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Any:
    """A Dask Bag of documents (str) to a Bag of their lists of link records;
    ``.flatten()`` gives one record per link."""
    return bag.map(resolve_finder(finder, options, "links_bag").records)
