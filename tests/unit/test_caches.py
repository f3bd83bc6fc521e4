"""The bounded caches of answers, in one registry (D104): every one is
registered, clear() empties them all, and results never depend on them."""

from __future__ import annotations

import gc
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import uts58
from uts58 import Finder, check_link, linkify
from uts58.base import caches

SRC = Path(__file__).resolve().parents[2] / "src" / "uts58"
TEXT = "see bücher.de/straße, x@example.com, README.md, onet.pl, https://例え.jp/パス and www.раураl.com"


# The caches of configured objects (a finder per set of options, the
# engine, patterns and backward scans of one, the rule set of a TLD set): not answers
# about text, and not cleared (D104).  Every other lru_cache goes through
# caches.bounded().
CONFIGURATION_CACHES = {
    "_candidate_scan",
    "_slot_maker",
    "_cached_finder",
    "_candidate_pattern",
    "domain_rules",
    "_redetector",
    "_run_starts",
}


def test_every_answer_cache_is_registered() -> None:
    found = set()
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "caches.py" or "tables" in path.parts:
            continue
        source = path.read_text(encoding="utf-8")
        # (any lru_cache: as a decorator, whatever its size, or called on a function)
        assert re.findall(r"lru_cache\((?!maxsize=\d+\)\n(?:@\w+.*\n)*def )", source) == [], path.name
        for name in re.findall(r"@lru_cache\(maxsize=\d+\)\n(?:@\w+.*\n)*def (\w+)", source):
            assert name in CONFIGURATION_CACHES, f"{path.name}: {name} caches answers: use caches.bounded"
            found.add(name)
    assert found == CONFIGURATION_CACHES


def test_info_names_every_cache_and_clear_empties_them() -> None:
    list(uts58.find_links(TEXT))
    [check_link(link) for link in uts58.find_links(TEXT)]
    linkify(TEXT)
    names = set(caches.info())
    assert {"host checks", "host forms", "hosts", "link forms", "label reasons", "public suffixes"} <= names
    assert any(i.currsize for i in caches.info().values())
    caches.clear()
    assert all(i.currsize == 0 for i in caches.info().values())
    assert all(i.maxsize > 0 for i in caches.info().values())  # (bounded, every one)


def test_results_do_not_depend_on_the_caches() -> None:
    warm = [(link.start, link.end, link.href, link.display) for link in uts58.find_links(TEXT)]
    warm_html = linkify(TEXT)
    caches.clear()
    cold = [(link.start, link.end, link.href, link.display) for link in uts58.find_links(TEXT)]
    assert cold == warm and linkify(TEXT) == warm_html
    assert len(cold) >= 4


def test_a_finders_caches_go_with_it() -> None:
    def count() -> int:
        gc.collect()
        return sum(1 for c in caches._registered() if c.cache_name == "link forms")

    before = count()
    finder = Finder(schemes={"http", "https", "ftp", "gopher"})
    list(finder.find_links(TEXT))
    assert count() == before + 1
    del finder
    assert count() == before


def test_the_top_level_names_are_the_registry() -> None:
    list(uts58.find_links(TEXT))
    assert uts58.cache_info() == caches.info() and uts58.cache_info()["host checks"].currsize > 0
    uts58.cache_clear()
    assert all(i.currsize == 0 for i in uts58.cache_info().values())


def _in_a_new_interpreter(size: str) -> subprocess.CompletedProcess[str]:
    probe = (
        "import json, uts58;"
        f"links = [(l.start, l.end, l.href) for l in uts58.find_links({TEXT!r})];"
        f"links += [(l.start, l.end, l.href) for l in uts58.find_links({TEXT!r})];"  # (a second time: hits, if any)
        "info = uts58.cache_info();"
        "print(json.dumps([links, {n: [i.maxsize, i.currsize, i.hits] for n, i in info.items()}]))"
    )
    env = {**os.environ, "UTS58_CACHE_SIZE": size}
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=False)


@pytest.mark.parametrize("size", ["0", "7", "100000"])
def test_one_environment_variable_bounds_every_cache(size: str) -> None:
    done = _in_a_new_interpreter(size)
    assert done.returncode == 0, done.stderr
    links, info = json.loads(done.stdout)
    reference = [[link.start, link.end, link.href] for link in uts58.find_links(TEXT)] * 2
    assert links == reference  # (the caches never change an answer)
    assert info and all(maxsize % int(size) == 0 if int(size) else maxsize == 0 for maxsize, _, _ in info.values())
    if size == "0":
        assert all(currsize == 0 and hits == 0 for _, currsize, hits in info.values())
    else:
        assert all(currsize <= maxsize for maxsize, currsize, _ in info.values())
        assert sum(hits for _, _, hits in info.values()) > 0  # (remembered, and asked again)


def test_a_bad_size_is_a_clear_error() -> None:
    done = _in_a_new_interpreter("lots")
    assert done.returncode != 0 and "UTS58_CACHE_SIZE must be a whole number" in done.stderr and "'lots'" in done.stderr
