"""Link detection on Dask collections (install ``uts58[dask]``).

>>> import pandas as pd, dask.dataframe as dd
>>> df = dd.from_pandas(pd.DataFrame({"body": ["see bücher.de", "x@example.com, a.com"]}), npartitions=2)
>>> out = add_link_columns(df, "body").compute()
>>> out["links_count"].tolist(), [l["text"] for l in out["links"].iloc[1]]
([1, 2], ['x@example.com', 'a.com'])

The ``links`` column holds each document's records as a Python list (an
object column), and its meta tells Dask the column's Arrow type, a list of
structs (:func:`links_dtype`, D75): ``to_parquet`` writes that type, and
``pd.read_parquet``, ``dd.read_parquet``, pyarrow and Spark open the file
with their default arguments (D125).  A frame read back from such files (or
Spark's), filtered or rebuilt, gets that meta again from
:func:`with_links_type` before it is written.  The work runs where Dask runs it
(threads, processes or a ``distributed`` cluster); each worker loads the
uts58 tables once.  Dask is not a dependency of uts58 itself.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import dask.dataframe as dd
import numpy as np
import pandas as pd
from dask.dataframe.extensions import make_array_nonempty

from ..detect.finder import Finder, FinderOptions, resolve_finder
from ..errors import OptionError
from ._schema import FIELDS, arrow_type, pandas_dtype

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # (typing_extensions is no run-time dependency: annotations only)
    from typing_extensions import Unpack

__all__ = ["add_link_columns", "link_records", "links_bag", "links_dtype", "with_links_type"]


def link_records(text: Any, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> list[dict[str, Any]]:
    """The links of one document as plain records (picklable, Arrow-friendly):
    :meth:`uts58.Finder.records`.  A missing value (None, NaN) has no links."""
    return resolve_finder(finder, options, "link_records").records(text)


def links_dtype() -> Any:
    """The Arrow type of the ``links`` column of :func:`add_link_columns` as
    a pandas dtype: a ``pd.ArrowDtype`` of ``list<element: struct<start:
    int64, end: int64, kind: string, text: string, href: string, display:
    string>>``, the type ``to_parquet`` writes and the PySpark UDF gives too
    (D75), and what ``read_parquet(..., dtype_backend="pyarrow")`` gives.

    >>> str(links_dtype())[:45]
    'list<element: struct<start: int64, end: int64'
    """
    return pandas_dtype()


def add_link_columns(
    df: Any, column: str, *, prefix: str = "links", finder: Finder | None = None, **options: Unpack[FinderOptions]
) -> Any:
    """A Dask DataFrame with two more columns: ``{prefix}`` (the list of link
    records of ``df[column]``, as :meth:`uts58.Finder.records` gives it; a
    missing value has an empty list) and ``{prefix}_count``, found with
    ``finder`` (pickled to the workers once per task) or the options of
    :func:`uts58.find_links`.  ``{prefix}`` is an object column whose meta
    tells Dask its Arrow type (:func:`links_dtype`), so ``to_parquet`` with
    its default arguments writes an Arrow list of structs that every Parquet
    reader opens with its own defaults (D125).

    >>> import pandas as pd, dask.dataframe as dd
    >>> df = dd.from_pandas(pd.DataFrame({"body": ["a.com and b.org", None]}), npartitions=1)
    >>> out = add_link_columns(df, "body", prefix="found")
    >>> str(out.dtypes["found"]), out.compute()["found_count"].tolist()
    ('object', [2, 0])
    """
    if column not in df.columns:
        raise KeyError(f"column {column!r} is not in the DataFrame")
    found = resolve_finder(finder, options, "add_link_columns")  # checked here, not on a worker

    def partition(part: pd.DataFrame) -> pd.DataFrame:
        records = [found.records(text) for text in part[column]]
        part = part.copy()
        part[prefix] = pd.Series(records, index=part.index, dtype=object)  # lists of records (D125)
        part[f"{prefix}_count"] = pd.Series([len(r) for r in records], index=part.index, dtype="int64")
        return part

    meta = _with_links_meta(df._meta, [prefix])
    meta[f"{prefix}_count"] = pd.Series([], index=meta.index, dtype="int64")
    return df.map_partitions(partition, meta=meta)


def with_links_type(df: Any, *columns: str) -> Any:
    """``df`` with its columns of link records given the meta of the
    ``links`` column of :func:`add_link_columns`, so that ``to_parquet``
    writes them as the Arrow list of structs every reader opens (D125).

    A frame read back by ``dd.read_parquet`` (from uts58's files, Spark's
    or pandas'), or made with ``dd.from_pandas``, has a plain object meta
    there, and Dask's ``to_parquet`` cannot write it.  (``dd.from_pandas``
    keeps lists only with Dask's ``dataframe.convert-string`` off: by
    default it makes them strings.)  ``columns`` names the columns; with
    none, they are found by their type: a column read from Parquet as a list
    of structs with the fields of a link record, a ``pd.ArrowDtype`` of that
    type (``dtype_backend="pyarrow"``: its cells become lists of dicts), or
    one this function or :func:`add_link_columns` made.  Cells that are
    lists or NumPy arrays of record dicts are written as they are.  A column
    of another dtype, or no column found, raises
    :class:`uts58.errors.OptionError`.

    >>> import tempfile, pandas as pd, dask.dataframe as dd
    >>> posts = dd.from_pandas(pd.DataFrame({"id": [1, 2, 3], "body": ["a.com", "-", "x@y.org"]}), npartitions=2)
    >>> tmp = tempfile.TemporaryDirectory()
    >>> add_link_columns(posts, "body").to_parquet(f"{tmp.name}/all")
    >>> found = with_links_type(dd.read_parquet(f"{tmp.name}/all"))  # finds "links" by its type
    >>> found[found["links_count"] > 0].to_parquet(f"{tmp.name}/some")
    >>> [[link["href"] for link in links] for links in pd.read_parquet(f"{tmp.name}/some")["links"]]
    [['https://a.com/'], ['mailto:x@y.org']]
    >>> tmp.cleanup()
    """
    if not isinstance(df, dd.DataFrame):
        raise TypeError(f"df must be a Dask DataFrame, not {type(df).__name__}")
    for name in columns:
        if not isinstance(name, str):
            raise TypeError(f"columns must be column names (str), not {type(name).__name__}")
        if name not in df.columns:
            raise KeyError(f"column {name!r} is not in the DataFrame")
        _check_links_column(name, df._meta[name].dtype)
    names = list(columns) or _links_columns_of(df)
    if not names:
        raise OptionError(
            "no column of the DataFrame is known to hold link records: name them, with_links_type(df, 'links')",
            option="columns",
        )
    arrow = [name for name in names if isinstance(df._meta[name].dtype, pd.ArrowDtype)]

    def partition(part: pd.DataFrame) -> pd.DataFrame:
        if not arrow:
            return part
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

        part = part.copy()
        for name in arrow:  # an ArrowDtype would name its nested type in the file (D125): lists of dicts
            cells = np.empty(len(part), dtype=object)
            cells[:] = pa.array(part[name]).to_pylist()
            part[name] = pd.Series(cells, index=part.index, dtype=object)
        return part

    return df.map_partitions(partition, meta=_with_links_meta(df._meta, names))  # type: ignore[no-untyped-call,unused-ignore]


_OBJECT = np.dtype(object)


def _with_links_meta(meta: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    meta = meta.copy()
    for name in names:
        meta[name] = pd.Series(_LinkListsArray._from_sequence([]), index=meta.index)
    return meta


def _is_links_type(arrow: Any) -> bool:
    """A list of structs with the fields of a link record (any list's item name, any field types)."""
    import pyarrow as pa

    return bool(
        (pa.types.is_list(arrow) or pa.types.is_large_list(arrow))
        and pa.types.is_struct(arrow.value_type)
        and [arrow.value_type.field(i).name for i in range(arrow.value_type.num_fields)] == [f.name for f in FIELDS]
    )


def _check_links_column(name: str, dtype: Any) -> None:
    if isinstance(dtype, _LinkListsDtype) or dtype == _OBJECT:
        return
    if isinstance(dtype, pd.ArrowDtype) and _is_links_type(dtype.pyarrow_dtype):
        return
    why = ""
    if pd.api.types.is_string_dtype(dtype):  # Dask's "dataframe.convert-string" turns lists into their repr
        why = ' (dd.from_pandas turns lists into strings unless dask.config.set({"dataframe.convert-string": False}))'
    raise OptionError(f"column {name!r} holds {dtype}, not lists of link records{why}", option="columns")


def _links_columns_of(df: Any) -> list[str]:
    """The columns of ``df`` that hold link records, by their type: in its meta, or in the Parquet it is read from."""
    stored: set[str] = set()  # the names of links columns in the files' own schemas, which Dask's meta calls object
    try:  # (Dask's expressions: should they change, the columns are to be named; test_dask.py fails that day)
        from dask.dataframe.dask_expr.io.parquet import ReadParquet

        for node in df.expr.walk():
            if isinstance(node, ReadParquet):
                stored.update(field.name for field in node._dataset_info["schema"] if _is_links_type(field.type))
    except (ImportError, AttributeError, KeyError, TypeError):
        pass
    found = []
    for name, dtype in df._meta.dtypes.items():
        if isinstance(dtype, _LinkListsDtype) or (
            isinstance(dtype, pd.ArrowDtype) and _is_links_type(dtype.pyarrow_dtype)
        ):
            found.append(name)
        elif name in stored and dtype == _OBJECT:
            found.append(name)
    return found


def links_bag(bag: Any, finder: Finder | None = None, **options: Unpack[FinderOptions]) -> Any:
    """A Dask Bag of documents (str) to a Bag of their lists of link records;
    ``.flatten()`` gives one record per link."""
    return bag.map(resolve_finder(finder, options, "links_bag").records)


# D125: the meta of a links column.  Dask reads a file's Arrow schema off its meta (an object column gives
# it nothing to read) and puts the meta in place of every empty partition, so the meta is written too, and
# pyarrow records str(dtype) in the file's pandas metadata, which every pandas must parse back: a nested
# ArrowDtype's name cannot be (pandas-dev/pandas#57411), "object" can, and it is what the values are.


class _LinkListsDtype(pd.api.extensions.ExtensionDtype):  # type: ignore[misc]  # (pandas has no stubs here)
    """An object column of lists of link records that knows its Arrow type."""

    name = "object"  # what the file's pandas metadata says: every reader gives an object column back
    type = np.object_  # as NumPy's: pandas and Dask count it an object column (select_dtypes, is_object_dtype: D125)
    kind = "O"
    na_value = None

    @classmethod
    def construct_array_type(cls) -> Any:
        return _LinkListsArray


class _LinkListsArray(pd.api.extensions.ExtensionArray):  # type: ignore[misc]
    """The lists of records behind :class:`_LinkListsDtype` (a NumPy object array)."""

    dtype = _LinkListsDtype()

    def __init__(self, values: Any) -> None:
        self._data = values

    @classmethod
    def _from_sequence(cls, scalars: Sequence[Any], *, dtype: Any = None, copy: bool = False) -> _LinkListsArray:
        data = np.empty(len(scalars), dtype=object)
        data[:] = list(scalars)
        return cls(data)

    @classmethod
    def _from_factorized(cls, values: Any, original: _LinkListsArray) -> _LinkListsArray:
        return cls._from_sequence(values)

    @classmethod
    def _concat_same_type(cls, to_concat: Sequence[_LinkListsArray]) -> _LinkListsArray:
        return cls(np.concatenate([x._data for x in to_concat]))

    def __getitem__(self, item: Any) -> Any:
        return self._data[item] if np.ndim(item) == 0 and not isinstance(item, slice) else type(self)(self._data[item])

    def __len__(self) -> int:
        return len(self._data)

    def __eq__(self, other: object) -> Any:
        if isinstance(other, (_LinkListsArray, np.ndarray)):  # element by element
            return np.array([a == b for a, b in zip(self._data, other, strict=True)], dtype=bool)
        return np.array([a == other for a in self._data], dtype=bool)  # each with one list

    @property
    def nbytes(self) -> int:
        return int(self._data.nbytes)

    def isna(self) -> Any:
        return np.array([not isinstance(x, (list, np.ndarray)) for x in self._data], dtype=bool)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self._data if dtype in (None, object) else self._data.astype(dtype)  # 1-D, one list per cell

    def take(self, indices: Any, *, allow_fill: bool = False, fill_value: Any = None) -> _LinkListsArray:
        taken = pd.api.extensions.take(self._data, indices, allow_fill=allow_fill, fill_value=fill_value)
        return type(self)(taken)

    def copy(self) -> _LinkListsArray:
        return type(self)(self._data.copy())

    def __arrow_array__(self, type: Any = None) -> Any:
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

        return pa.array(list(self._data), type=type or arrow_type(), from_pandas=True)


def _nonempty(dtype: _LinkListsDtype) -> _LinkListsArray:
    # What Dask infers the Parquet schema from (its "non-empty meta"): one record, one empty list.
    record = {f.name: (0 if f.arrow == "int64" else "a.com") for f in FIELDS}
    return _LinkListsArray._from_sequence([[record], []])


make_array_nonempty.register(_LinkListsDtype, _nonempty)  # type: ignore[no-untyped-call,unused-ignore]
