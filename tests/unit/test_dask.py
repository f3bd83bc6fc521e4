"""uts58.frames.dask on a local distributed cluster of 2 worker processes."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import dask
import dask.bag as db
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import parquet_links_everywhere
from distributed import Client, LocalCluster

from uts58 import Finder, find_links
from uts58.errors import OptionError
from uts58.frames._schema import FIELDS, arrow_type
from uts58.frames.dask import add_link_columns, link_records, links_bag, links_dtype, with_links_type

WORDS = "the of see visit Москва παράδειγμα 例え شكرا".split()
LINKS = ["example.com/α(β)", "bücher.de/straße", "x@example.org", "https://ja.wikipedia.org/wiki/東京", "пример.рф"]


def corpus(n: int) -> list[str]:
    rng = random.Random(58)
    docs = []
    for _ in range(n):
        parts = [rng.choice(WORDS) for _ in range(rng.randint(5, 40))]
        for _ in range(rng.randint(0, 3)):
            parts.insert(rng.randrange(len(parts) + 1), rng.choice(LINKS))
        docs.append(" ".join(parts) + ".")
    return docs


@pytest.fixture(scope="module")
def client():  # type: ignore[no-untyped-def]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


def expected(docs: list[str]) -> list[list[str]]:
    return [[link.text for link in find_links(d)] for d in docs]


def test_dataframe_columns_on_the_cluster(client) -> None:  # type: ignore[no-untyped-def]
    docs = corpus(400)
    pdf = pd.DataFrame({"id": range(len(docs)), "body": docs})
    pdf.loc[7, "body"] = None  # a missing value has no links
    ddf = dd.from_pandas(pdf, npartitions=8)
    out = add_link_columns(ddf, "body").compute(scheduler=client.get)
    assert list(out.columns) == ["id", "body", "links", "links_count"]
    want = expected([d if i != 7 else "" for i, d in enumerate(docs)])
    assert [[r["text"] for r in records] for records in out.sort_values("id")["links"]] == want
    assert out.sort_values("id")["links_count"].tolist() == [len(w) for w in want]
    assert len(client.scheduler_info()["workers"]) == 2


def test_bag_on_the_cluster(client) -> None:  # type: ignore[no-untyped-def]
    docs = corpus(300)
    bag = db.from_sequence(docs, npartitions=6)
    got = links_bag(bag, emails=False).compute(scheduler=client.get)
    assert [[r["text"] for r in records] for records in got] == [
        [link.text for link in find_links(d, emails=False)] for d in docs
    ]
    flat = links_bag(bag).flatten().pluck("href").compute(scheduler=client.get)
    assert all(href.isascii() for href in flat) and len(flat) == sum(map(len, expected(docs)))


def test_errors_are_raised_before_the_cluster_runs() -> None:
    ddf = dd.from_pandas(pd.DataFrame({"body": ["x"]}), npartitions=1)
    with pytest.raises(KeyError, match="nope"):
        add_link_columns(ddf, "nope")
    with pytest.raises(ValueError, match="schemes"):
        add_link_columns(ddf, "body", schemes={"javascript"})
    assert link_records(float("nan")) == [] and link_records(None) == []


def test_a_finder_travels_to_the_workers(client) -> None:  # type: ignore[no-untyped-def]
    finder = Finder(schemes={"https", "ssh"}, known_tlds={"corp", "com"})
    docs = [f"see intranet{i}.corp/x, ssh://git@c.corp/r and x@e{i}.com" for i in range(60)]
    want = [[link.text for link in finder.find_links(d)] for d in docs]
    ddf = dd.from_pandas(pd.DataFrame({"body": docs}), npartitions=4)
    out = add_link_columns(ddf, "body", finder=finder).compute(scheduler=client.get)
    assert [[r["text"] for r in records] for records in out["links"]] == want
    got = links_bag(db.from_sequence(docs, npartitions=3), finder).compute(scheduler=client.get)
    assert [[r["text"] for r in records] for records in got] == want
    with pytest.raises(ValueError, match="not both"):
        links_bag(db.from_sequence(docs), finder, emails=False)


# Astral characters (two UTF-16 code units, four UTF-8 bytes) before and inside links: offsets stay code points.
ASTRAL = ["𝒜𝒷 see 例え.jp/𝒳?q=😀 and 😀@例え.jp", "😀😀 https://example.com/𝕏 x"]


def parquet_frame(n: int) -> pd.DataFrame:
    """Documents with ids, missing values (None, NaN) and non-ASCII text."""
    docs: list[object] = [*corpus(n), *ASTRAL, None, math.nan, ""]
    return pd.DataFrame({"id": range(len(docs)), "body": pd.Series(docs, dtype=object)})


def test_the_links_dtype_is_the_shared_list_of_structs() -> None:
    # D75: one field list, in the order and with the names of Link.as_dict.
    record = links_dtype().pyarrow_dtype.value_type
    assert [record.field(i).name for i in range(record.num_fields)] == [f.name for f in FIELDS]
    assert [record.field(i).name for i in range(record.num_fields)] == list(next(iter(find_links("a.com"))).as_dict())
    assert record.field("start").type == pa.int64() and record.field("href").type == pa.string()
    assert links_dtype().pyarrow_dtype == arrow_type() and pa.types.is_list(arrow_type())


def test_an_object_column_whose_meta_knows_its_arrow_type(client) -> None:  # type: ignore[no-untyped-def]
    # D125: the values are the records (an object column); the meta says "object" too, and gives
    # Dask the Arrow type to write (what it infers a file's schema from).
    pdf = parquet_frame(40)
    out = add_link_columns(dd.from_pandas(pdf, npartitions=3), "body")
    assert str(out.dtypes["links"]) == "object" and out.dtypes["links_count"] == "int64"
    assert pa.Schema.from_pandas(out._meta_nonempty).field("links").type == arrow_type()
    assert pa.Schema.from_pandas(out._meta).field("links").type == arrow_type()  # an empty partition's
    got = out.compute().sort_values("id")
    assert got["links"].dtype == "object"
    assert got["links"].tolist() == [Finder().records(text) for text in pdf["body"]]
    assert got["links"].tolist()[-3:] == [[], [], []]


# What a pipeline does next, and whether the result has an empty partition (written as a file too).
THEN = {
    "filter": (lambda out: out[out["links_count"] > 0], True),
    "assign": (lambda out: out.assign(twice=out["links_count"] * 2), True),
    "repartition": (lambda out: out.repartition(npartitions=2), False),
    # Dask puts its meta in place of an empty partition: of a shuffle's output, of a function's result.
    "shuffle": (lambda out: out.shuffle("links_count", npartitions=7), True),
    "map_partitions": (lambda out: out.map_partitions(lambda part: part[part["links_count"] > 2]), True),
    "merge": (lambda out: out.merge(dd.from_pandas(pd.DataFrame({"id": range(50), "x": range(50)}), 3)), False),
}


@pytest.mark.parametrize(("then", "has_empty"), THEN.values(), ids=THEN.keys())
def test_what_dask_does_next_still_writes_parquet_every_reader_opens(client, then, has_empty, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pdf = pd.DataFrame({"id": range(50), "body": [" see ex.com and x@例え.jp" * (i % 4) for i in range(50)]})
    ddf = dd.from_pandas(pdf, npartitions=5)
    out = then(add_link_columns(ddf[(ddf["id"] < 10) | (ddf["id"] >= 40)], "body"))
    assert (0 in out.map_partitions(len).compute().tolist()) == has_empty
    out.to_parquet(tmp_path / "out")  # on the cluster: the meta travels to the workers
    local = out.compute().sort_values("id")
    want = [Finder().records(pdf["body"][i]) for i in local["id"]]
    # (a shuffle on a cluster moves partitions as Arrow tables: its cells come back as NumPy arrays)
    assert [list(cell) for cell in local["links"]] == want and any(want)
    for reader, got in parquet_links_everywhere(tmp_path / "out", "links").items():
        assert got == want, reader


def test_links_column_writes_parquet_every_reader_opens(client, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # D125: before, pd.read_parquet and dd.read_parquet of this file raised TypeError (the pandas
    # metadata named the nested ArrowDtype, which pandas cannot parse back).
    pdf = parquet_frame(300)
    want = [Finder().records(text) for text in pdf["body"]]
    assert want[-3:] == [[], [], []] and any(want[-5]) and any(want[-4])
    ddf = dd.from_pandas(pdf, npartitions=8)
    kept = (ddf["id"] < 60) | (ddf["id"] >= 200)  # the partitions in between are left empty
    out = add_link_columns(ddf[kept], "body")
    assert 0 in out.map_partitions(len).compute().tolist()
    out.to_parquet(tmp_path / "dask")  # default arguments, computed on the cluster (the default scheduler)
    files = sorted((tmp_path / "dask").glob("*.parquet"))
    assert len(files) == 8 and 0 in [pq.read_metadata(f).num_rows for f in files]  # empty partitions are files
    for file in files:  # each file's pandas metadata names a dtype every pandas parses
        metadata = json.loads(pq.read_schema(file).metadata[b"pandas"])
        assert {c["name"]: c["numpy_type"] for c in metadata["columns"]}["links"] == "object", file.name
    wanted = [w for i, w in enumerate(want) if i < 60 or i >= 200]
    for reader, got in parquet_links_everywhere(tmp_path / "dask", "links").items():
        assert got == wanted, reader
    back = pd.read_parquet(tmp_path / "dask").sort_values("id")
    assert back["links_count"].tolist() == [len(w) for w in wanted]
    assert back["body"].iloc[-5:-3].tolist() == ASTRAL

    # The computed pandas frame writes with pandas' to_parquet and reads back the same way.
    out.compute().to_parquet(tmp_path / "pandas.parquet")
    for reader, got in parquet_links_everywhere(tmp_path / "pandas.parquet", "links").items():
        assert got == wanted, reader


def test_a_finder_and_a_prefix_pass_through_to_parquet(client, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    finder = Finder(schemes={"https", "ssh"}, known_tlds={"corp", "jp"}, emails=False)
    docs = [f"see intranet{i}.corp/x, ssh://git@c.corp/r, 例え{i}.jp and x@e{i}.corp" for i in range(40)] + [None]
    want = [finder.records(d) for d in docs]
    assert want != [Finder().records(d) for d in docs]  # the finder's options change the records
    ddf = dd.from_pandas(pd.DataFrame({"id": range(len(docs)), "body": docs}), npartitions=4)
    add_link_columns(ddf, "body", finder=finder, prefix="found").to_parquet(tmp_path / "out")
    for reader, got in parquet_links_everywhere(tmp_path / "out", "found").items():
        assert got == want, reader
    assert pd.read_parquet(tmp_path / "out").sort_values("id")["found_count"].tolist() == [len(w) for w in want]


def test_a_frame_with_no_rows_writes_the_type(tmp_path: Path) -> None:
    # Every partition empty: the file still has the Arrow type (from the meta), and readers agree on no rows.
    ddf = dd.from_pandas(pd.DataFrame({"id": [1, 2], "body": ["a.com", "b.org"]}), npartitions=2)
    add_link_columns(ddf[ddf["id"] > 5], "body").to_parquet(tmp_path / "none", compute_kwargs={"scheduler": "sync"})
    assert parquet_links_everywhere(tmp_path / "none", "links") == {"pyarrow": [], "pandas": [], "dask": []}


def test_why_the_values_are_not_an_arrow_dtype(tmp_path: Path) -> None:
    # D125's reason: a nested ArrowDtype column is written with pandas metadata that no pandas reads
    # back by default (pandas-dev/pandas#57411).  When this test fails (pandas reads it), D125 can be revisited.
    frame = pd.DataFrame({"links": pd.array([Finder().records("a.com")], dtype=links_dtype())})
    frame.to_parquet(tmp_path / "arrow.parquet")
    with pytest.raises(TypeError, match="not understood"):
        pd.read_parquet(tmp_path / "arrow.parquet")


def numpy_types(path: Path, column: str) -> set[str]:
    """The dtype each file's pandas metadata gives ``column`` (what pandas rebuilds on reading)."""
    types = set()
    for file in sorted(path.glob("*.parquet")):
        metadata = json.loads(pq.read_schema(file).metadata[b"pandas"])
        types.add({c["name"]: c["numpy_type"] for c in metadata["columns"]}[column])
    return types


def rebuilt(out: dd.DataFrame) -> dd.DataFrame:
    """``out`` computed and made a Dask frame again, its lists kept (not Dask's strings: see below)."""
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_pandas(out.compute(), npartitions=3)


# Frames whose links column has lost the meta of add_link_columns: how they are made from the files of `out`
# (uts58's, written by Dask) and whether with_links_type finds the column by itself.
SOURCES = {
    "read": (lambda d, out: dd.read_parquet(d), True),
    "read with pyarrow dtypes": (lambda d, out: dd.read_parquet(d, dtype_backend="pyarrow"), True),
    "read pandas' files": (lambda d, out: dd.read_parquet(d.parent / "pandas"), True),
    "rebuilt from the computed frame": (lambda d, out: rebuilt(out), False),
}


@pytest.mark.parametrize(("source", "finds"), SOURCES.values(), ids=SOURCES.keys())
@pytest.mark.parametrize("filter_first", [False, True], ids=["then filtered", "filtered first"])
def test_what_is_read_back_or_rebuilt_writes_parquet_every_reader_opens(  # type: ignore[no-untyped-def]
    client, source, finds, filter_first, tmp_path: Path
) -> None:
    # Review of D125: these frames' to_parquet failed (ArrowInvalid) or wrote the nested ArrowDtype's name again.
    pdf = parquet_frame(80)
    out = add_link_columns(dd.from_pandas(pdf, npartitions=4), "body")
    out.to_parquet(tmp_path / "dask")
    (tmp_path / "pandas").mkdir()
    for i, part in enumerate(out.partitions):  # pandas' own writer: no Dask meta at all
        part.compute().to_parquet(tmp_path / "pandas" / f"part.{i}.parquet")
    frame = source(tmp_path / "dask", out)
    assert not isinstance(frame.dtypes["links"], type(out.dtypes["links"]))

    def kept(f: dd.DataFrame) -> dd.DataFrame:
        return f[((f["id"] < 20) | (f["id"] > 60)) & (f["links_count"] != 1)]  # a partition comes out empty

    def typed(f: dd.DataFrame) -> dd.DataFrame:
        return with_links_type(f) if finds else with_links_type(f, "links")

    new = typed(kept(frame)) if filter_first else kept(typed(frame))
    assert isinstance(new.dtypes["links"], type(out.dtypes["links"]))
    assert 0 in new.map_partitions(len).compute().tolist()
    new.to_parquet(tmp_path / "new")
    assert numpy_types(tmp_path / "new", "links") == {"object"}  # every file, the empty ones too
    want = [r for i, r in enumerate(map(Finder().records, pdf["body"])) if (i < 20 or i > 60) and len(r) != 1]
    assert any(want) and [] in want
    for reader, got in parquet_links_everywhere(tmp_path / "new", "links").items():
        assert got == want, reader


def test_without_with_links_type_what_is_read_back_is_not_written(tmp_path: Path) -> None:
    # Why with_links_type is needed: Dask's own behaviour with each kind of frame of SOURCES.
    pdf = parquet_frame(20)
    out = add_link_columns(dd.from_pandas(pdf, npartitions=2), "body")
    out.to_parquet(tmp_path / "dask", compute_kwargs={"scheduler": "sync"})
    with pytest.raises(pa.ArrowInvalid, match="did not recognize Python value"):  # an object meta: no type
        dd.read_parquet(tmp_path / "dask").to_parquet(tmp_path / "plain", compute_kwargs={"scheduler": "sync"})
    arrow = dd.read_parquet(tmp_path / "dask", dtype_backend="pyarrow")
    arrow.to_parquet(tmp_path / "arrow", compute_kwargs={"scheduler": "sync"})  # writes the nested name again
    assert numpy_types(tmp_path / "arrow", "links") == {str(links_dtype())}
    with pytest.raises(TypeError, match="not understood"):
        pd.read_parquet(tmp_path / "arrow")
    # Dask's default "dataframe.convert-string" makes the lists of a pandas frame their repr: data lost.
    computed = out.compute()
    damaged = dd.from_pandas(computed, npartitions=2)
    assert pd.api.types.is_string_dtype(damaged.dtypes["links"])
    assert damaged.compute()["links"].tolist() == [str(cell) for cell in computed["links"]]
    with pytest.raises(OptionError, match="convert-string"):
        with_links_type(damaged, "links")
    assert rebuilt(out).compute()["links"].tolist() == computed["links"].tolist()  # with it off, lists


def test_with_links_type_refuses_what_it_cannot_write() -> None:
    frame = pd.DataFrame({"id": [1], "links": [Finder().records("a.com")]})
    with pytest.raises(TypeError, match="df must be a Dask DataFrame"):
        with_links_type(frame, "links")
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(frame, npartitions=1)
    with pytest.raises(TypeError, match="columns must be column names"):
        with_links_type(ddf, ["links"])  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="nope"):
        with_links_type(ddf, "nope")
    with pytest.raises(OptionError, match="'id' holds int64") as raised:
        with_links_type(ddf, "id")
    assert raised.value.option == "columns"
    with pytest.raises(OptionError, match="name them"):  # a frame from pandas: its object column could be anything
        with_links_type(ddf)
    assert isinstance(with_links_type(ddf, "links").dtypes["links"], type(links_meta_dtype()))
    twice = with_links_type(with_links_type(ddf, "links"))  # the meta is found again: nothing to name
    assert twice.compute()["links"].tolist() == frame["links"].tolist()


def links_meta_dtype() -> object:
    return add_link_columns(dd.from_pandas(pd.DataFrame({"body": ["a.com"]}), npartitions=1), "body").dtypes["links"]


def test_appending_needs_ignore_divisions(tmp_path: Path) -> None:
    # D125, known: Dask's append reads the index statistics by column position, and the links column has six
    # leaf columns in the file (dask/dataframe/io/parquet/arrow.py initialize_write).  When this fails, Dask is fixed.
    pdf = parquet_frame(30)
    first, second = pdf.iloc[:20], pdf.iloc[20:]  # the second's index goes on after the first's
    sync = {"compute_kwargs": {"scheduler": "sync"}}
    add_link_columns(dd.from_pandas(first, npartitions=2), "body").to_parquet(tmp_path / "d", **sync)
    more = add_link_columns(dd.from_pandas(second, npartitions=2), "body")
    with pytest.raises(TypeError, match="not supported between instances of 'int' and 'str'"):
        more.to_parquet(tmp_path / "d", append=True, **sync)
    more.to_parquet(tmp_path / "d", append=True, ignore_divisions=True, **sync)
    for reader, got in parquet_links_everywhere(tmp_path / "d", "links").items():
        assert got == [Finder().records(t) for t in pdf["body"]], reader


def test_the_links_dtype_is_an_object_dtype_to_pandas_and_dask() -> None:
    # Review of D125 (P4): the meta's dtype is an object column to select_dtypes and is_object_dtype, as the
    # computed column is.
    out = add_link_columns(dd.from_pandas(parquet_frame(5), npartitions=2), "body")
    computed = out.compute()
    assert list(out.select_dtypes(include="object").columns) == ["links"]
    assert list(computed.select_dtypes(include="object").columns) == ["links"]
    assert pd.api.types.is_object_dtype(out.dtypes["links"]) and pd.api.types.is_object_dtype(computed["links"])
    assert out.dtypes["links"] == "object" and str(out.dtypes["links"]) == str(computed["links"].dtype) == "object"
    # Known (D125): an extension dtype equals no NumPy dtype, so these two differ from the computed column's.
    assert out.dtypes["links"] != np.dtype(object) and computed["links"].dtype == np.dtype(object)
