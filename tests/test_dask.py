"""uts58.dask on a local distributed cluster of 2 worker processes."""

from __future__ import annotations

import math
import random
from pathlib import Path

import dask.bag as db
import dask.dataframe as dd
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from distributed import Client, LocalCluster

from uts58 import Finder, find_links
from uts58._schema import FIELDS, arrow_type
from uts58.dask import add_link_columns, link_records, links_bag, links_dtype

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


def test_links_column_writes_parquet_and_reads_back(client, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # D75: before, to_parquet raised ArrowInvalid on the object column.
    pdf = parquet_frame(300)
    want = [Finder().records(text) for text in pdf["body"]]
    assert want[-3:] == [[], [], []] and any(want[-5]) and any(want[-4])
    out = add_link_columns(dd.from_pandas(pdf, npartitions=6), "body")
    assert out.dtypes["links"] == links_dtype()
    out.to_parquet(tmp_path / "dask")  # computed on the cluster (the client is the default scheduler)
    # pandas cannot yet rebuild a nested ArrowDtype from its own Parquet metadata
    # (pandas-dev/pandas#57411): read with the pyarrow dtype backend.
    back = dd.read_parquet(tmp_path / "dask", dtype_backend="pyarrow")
    assert back.dtypes["links"] == links_dtype()
    got = back.compute().sort_values("id")
    assert got["links"].tolist() == want
    assert got["links_count"].tolist() == [len(w) for w in want]
    assert pq.read_table(tmp_path / "dask").schema.field("links").type == arrow_type()

    # The computed pandas frame writes and reads back too, and Arrow reads the records as they were.
    local = out.compute().sort_values("id")
    local.to_parquet(tmp_path / "pandas.parquet")
    assert pd.read_parquet(tmp_path / "pandas.parquet", dtype_backend="pyarrow")["links"].tolist() == want
    assert pq.read_table(tmp_path / "pandas.parquet").column("links").to_pylist() == want


def test_a_finder_passes_through_to_parquet(client, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    finder = Finder(schemes={"https", "ssh"}, known_tlds={"corp", "jp"}, emails=False)
    docs = [f"see intranet{i}.corp/x, ssh://git@c.corp/r, 例え{i}.jp and x@e{i}.corp" for i in range(40)] + [None]
    want = [finder.records(d) for d in docs]
    assert want != [Finder().records(d) for d in docs]  # the finder's options change the records
    ddf = dd.from_pandas(pd.DataFrame({"id": range(len(docs)), "body": docs}), npartitions=4)
    add_link_columns(ddf, "body", finder=finder, prefix="found").to_parquet(tmp_path / "out")
    got = dd.read_parquet(tmp_path / "out", dtype_backend="pyarrow").compute().sort_values("id")
    assert got["found"].tolist() == want and got["found_count"].tolist() == [len(w) for w in want]
