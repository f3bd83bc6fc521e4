"""uts58.dask on a local distributed cluster of 2 worker processes."""

from __future__ import annotations

import random

import dask.bag as db
import dask.dataframe as dd
import pandas as pd
import pytest
from distributed import Client, LocalCluster

from uts58 import Finder, find_links
from uts58.dask import add_link_columns, link_records, links_bag

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
