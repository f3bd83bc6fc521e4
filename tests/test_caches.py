"""The bounded caches of answers, in one registry (D104): every one is
registered, clear() empties them all, and results never depend on them."""

from __future__ import annotations

import gc
import re
from pathlib import Path

import uts58
from uts58 import Finder, caches, check_link, linkify

SRC = Path(__file__).resolve().parent.parent / "src" / "uts58"
TEXT = "see bücher.de/straße, x@example.com, README.md, onet.pl, https://例え.jp/パス and www.раураl.com"


# The caches of configured objects (a finder per set of options, the
# engine and patterns of one, the rule set of a TLD set): not answers
# about text, and not cleared (D104).  Every other lru_cache goes through
# caches.bounded().
CONFIGURATION_CACHES = {
    "_candidate_scan",
    "_slot_maker",
    "_cached_finder",
    "_candidate_pattern",
    "domain_rules",
    "_redetector",
}


def test_every_answer_cache_is_registered() -> None:
    found = set()
    for path in sorted(SRC.glob("*.py")):
        if path.name == "caches.py":
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
