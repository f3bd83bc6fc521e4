"""docs/decisions.md (with docs/engineering.md, the same sequence) is the one
prose source of the decisions, and it and the code point at each other (D68): every entry names tests that exist, every
decision number cited anywhere in the repository is an entry, and every entry
is cited where it is implemented or tested.

The checks read whatever entries the file has, so new ones are held to the
same rules as soon as they are written.  Test files are parsed with ``ast``,
never imported."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT

DECISIONS = ROOT / "docs" / "decisions.md"
ENGINEERING = ROOT / "docs" / "engineering.md"  # (how uts58 is built: the same sequence, the same checks)
HISTORY = ROOT / "docs" / "decisions-history.md"  # (entries replaced whole: the record, no live rule)

# An entry: "### D<n>. Title", up to the next heading of level 2 or 3.
_HEADING = re.compile(r"^### D(\d+)\. \S.*$", re.M)
_NEXT_HEADING = re.compile(r"^#{2,3} ", re.M)
# A citation: "D" and a number, not inside a word, a hex literal, "U+D800" or "%D1".
_CITATION = re.compile(r"(?<![\w%+\\])D(\d{1,3})(?!\w)")
_TESTS_MARK = re.compile(r"\*Tests?:\*")
_FULL_REF = re.compile(r"`(tests/[\w/]+\.py)::((?:Test\w+::)?test\w*)(?:\[[^\]`]*\])?`")
# Anything in backquotes that names a test, qualified or not.
_ANY_REF = re.compile(r"`([\w/.]*::(?:\w+::)?test\w*(?:\[[^\]`]*\])?|test_\w+)`")
_NO_CODE = re.compile(r"Code: none — \S")

# Where citations are looked for: the project's own text, not vendored data.
_CITING_DIRS = ("src", "tests", "bench", "tools")
_CITING_SUFFIXES = {".py", ".c", ".h", ".js", ".md", ".toml", ".cfg", ".in"}
_SKIPPED_PARTS = {"__pycache__", "node_modules", "data", "build", "dist"}


def entries() -> dict[int, str]:
    """{number: text of the entry} of both files, in file order; numbers
    must be unique across them."""
    found: dict[int, str] = {}
    for path in (DECISIONS, ENGINEERING, HISTORY):
        text = path.read_text(encoding="utf-8")
        for m in _HEADING.finditer(text):
            number = int(m.group(1))
            assert number not in found, f"D{number} is defined twice"
            end = _NEXT_HEADING.search(text, m.end())
            found[number] = text[m.start() : end.start() if end else len(text)]
    return found


def _citing_files(*dirs: str) -> Iterator[Path]:
    for top in dirs:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).parts
            if path.is_file() and path.suffix in _CITING_SUFFIXES and not _SKIPPED_PARTS & set(rel):
                if not any(part.endswith(".egg-info") for part in rel):
                    yield path


def citations(*dirs: str) -> dict[int, list[str]]:
    """{number: ["path:line", …]} of every D<n> cited in the files under ``dirs``."""
    cited: dict[int, list[str]] = {}
    for path in _citing_files(*dirs):
        for k, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in _CITATION.finditer(line):
                cited.setdefault(int(m.group(1)), []).append(f"{path.relative_to(ROOT)}:{k}")
    return cited


@functools.cache
def collected_tests(path: str) -> frozenset[str]:
    """The tests pytest collects from a file: module-level ``test*`` functions
    and ``Test*::test*`` methods (read with ast, not imported)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name.startswith("test"):
                    names.add(f"{node.name}::{item.name}")
    return frozenset(names)


def test_the_file_has_entries_with_unique_numbers() -> None:
    found = entries()
    assert len(found) >= 60
    assert {1, 34, 61} <= set(found)


def test_the_index_lists_every_entry_with_its_status() -> None:
    """The index at the top of decisions.md is what tools/decisions_index.py
    writes from the entries of both files (one line each, active or
    superseded): it cannot go stale."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("decisions_index", ROOT / "tools" / "decisions_index.py")
    assert spec is not None and spec.loader is not None
    index = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(index)
    assert index.current() == index.render(), "stale: run python tools/decisions_index.py"
    rows = [line for line in index.render().splitlines() if line.startswith("| D")]
    assert [int(row.split()[1][1:]) for row in rows] == sorted(entries())
    status = {int(row.split()[1][1:]): row.split("|")[2].strip() for row in rows}
    assert status[1] == "active" and status[29] == "superseded by D40" and status[56].startswith("superseded by D97")
    assert status[27] == "superseded by D97"


def test_every_decision_names_tests_that_exist() -> None:
    """(a) Each entry has a *Tests:* line naming at least one test as
    ``tests/test_x.py::test_name``; every test it names anywhere is written
    that way and is a test pytest collects."""
    problems = []
    for number, body in entries().items():
        mark = _TESTS_MARK.search(body)
        if mark is None or not _FULL_REF.search(body, mark.end()):
            problems.append(f"D{number}: no *Tests:* line naming tests/…::test_…")
        for m in _ANY_REF.finditer(body):
            if not _FULL_REF.fullmatch(m.group(0)):
                problems.append(f"D{number}: {m.group(0)} is not tests/<file>.py::<test>")
        for m in _FULL_REF.finditer(body):
            path, name = m.group(1), m.group(2)
            if not (ROOT / path).is_file():
                problems.append(f"D{number}: {path} does not exist")
            elif name not in collected_tests(path):
                problems.append(f"D{number}: {path}::{name} is not a test in that file")
    assert problems == []


def test_every_cited_decision_exists() -> None:
    """(b) A D<n> cited in src/, tests/, bench/, tools/, the README or the docs
    (decisions.md's own cross-references too) is an entry of decisions.md."""
    known = set(entries())
    cited = citations(*_CITING_DIRS)
    for path in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "Makefile"):
        if path.is_file():
            for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for m in _CITATION.finditer(line):
                    cited.setdefault(int(m.group(1)), []).append(f"{path.relative_to(ROOT)}:{k}")
    unknown = {f"D{n}": places for n, places in sorted(cited.items()) if n not in known}
    assert unknown == {}


def test_every_decision_is_cited_in_the_code_or_its_tests() -> None:
    """(c) Each entry is cited in src/ or tests/ where it is implemented or
    tested, unless it says ``Code: none — why`` (a note for readers, a
    superseded entry)."""
    cited = citations("src", "tests")
    uncited = [f"D{n}" for n, body in entries().items() if n not in cited and not _NO_CODE.search(body)]
    assert uncited == []


def _statuses() -> dict[int, str]:
    """{number: status} as the index tool reads them (``active``, ``superseded by D<n>``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("decisions_index", ROOT / "tools" / "decisions_index.py")
    assert spec is not None and spec.loader is not None
    index = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(index)
    return {number: status for path in index.FILES for number, _, status in index.entries(path)}


def test_a_live_rule_is_whole_and_the_history_holds_the_rest() -> None:
    """(d) No entry is superseded "in part" (it is rewritten whole); an entry
    replaced whole is in decisions-history.md, and only such entries are;
    what replaced it is a live entry."""
    status = _statuses()
    history = {int(m.group(1)) for m in _HEADING.finditer(HISTORY.read_text(encoding="utf-8"))}
    assert [n for n, st in status.items() if "in part" in st] == []
    superseded = {n for n, st in status.items() if st != "active"}
    assert superseded == history and superseded
    for n in superseded:
        by = [int(k) for k in re.findall(r"D(\d+)", status[n])]
        assert by and all(status[k] == "active" for k in by), (n, status[n])


def test_no_superseded_number_is_cited_in_src() -> None:
    """(e) The code cites the live rule, never an entry it replaced."""
    status = _statuses()
    stale = {f"D{n}": places for n, places in sorted(citations("src").items()) if status.get(n, "active") != "active"}
    assert stale == {}


# A module path named in the decisions (`detect.scanner._Scanner`, `uts58.html._cost.parse_cost`).
_MODULE_PATH = re.compile(
    r"`((?:uts58\.)?(?:base|unicode|kernels|hosts|spec|detect|output|html|markdown|frames|cli|compat|tables|stream"
    r"|migration|conformance|parallel|templates|errors)(?:\.[A-Za-z_]\w*)+)"
)
_STANDARD_LIBRARY = ("html.parser", "html.escape")


def test_every_module_path_named_is_one() -> None:
    """(f) A name the decisions give as ``folder.module.name`` exists: a
    module moved or renamed takes its entries with it."""
    import importlib

    problems = []
    for path in (DECISIONS, ENGINEERING):
        text = path.read_text(encoding="utf-8")
        for m in _MODULE_PATH.finditer(text):
            name = m.group(1).removeprefix("uts58.")
            if name.startswith(_STANDARD_LIBRARY):
                continue
            parts = name.split(".")
            for i in range(len(parts), 0, -1):
                try:
                    found: object = importlib.import_module("uts58." + ".".join(parts[:i]))
                except ImportError:
                    continue
                for attribute in parts[i:]:
                    found = getattr(found, attribute, None)
                break
            else:
                found = None
            if found is None:
                problems.append(f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(1)}")
    assert problems == []


@pytest.mark.parametrize(
    ("line", "numbers"),
    [
        ("# D68: this file", [68]),  # (this file is scanned too: only its own number here)
        ("see D68, D68 and (D68)", [68, 68, 68]),
        ("U+D800 is a surrogate; %D1%80 is р; 0xD7FF; '\\uD800'", []),
        ("UTS58D1 GD12 D1234 D12a", []),
    ],
)
def test_citation_pattern(line: str, numbers: list[int]) -> None:
    assert [int(m.group(1)) for m in _CITATION.finditer(line)] == numbers


def test_reference_patterns() -> None:
    assert _FULL_REF.fullmatch("`tests/test_x.py::test_a`")
    assert _FULL_REF.fullmatch("`tests/test_x.py::TestA::test_b`")
    assert _FULL_REF.fullmatch("`tests/test_x.py::test_a[1-2]`")
    assert not _FULL_REF.fullmatch("`test_a`")
    assert not _FULL_REF.fullmatch("`::test_a`")
    assert _ANY_REF.fullmatch("`test_a`") and _ANY_REF.fullmatch("`::test_a`")
    assert not _ANY_REF.fullmatch("`tests/test_x.py`")  # a whole file is prose, not a test name
