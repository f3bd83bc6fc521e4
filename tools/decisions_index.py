"""The status index at the top of docs/decisions.md (issue 24): one line per
decision of docs/decisions.md, docs/engineering.md and
docs/decisions-history.md, active or
superseded, written from the entries themselves.

    python tools/decisions_index.py          # rewrite the index
    python tools/decisions_index.py --check  # exit 1 if it is stale

An entry is superseded when its title says ``(superseded …)`` or its text
starts with ``**Superseded by D<n>**``; ``in part`` when it says so.
tests/meta/test_decisions.py checks that the index in the file is this one.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECISIONS = ROOT / "docs" / "decisions.md"
ENGINEERING = ROOT / "docs" / "engineering.md"
HISTORY = ROOT / "docs" / "decisions-history.md"
FILES = (DECISIONS, ENGINEERING, HISTORY)

BEGIN = "<!-- index: written by tools/decisions_index.py from the entries; do not edit by hand -->"
END = "<!-- /index -->"
_HEADING = re.compile(r"^### D(\d+)\. (\S.*)$", re.M)
_NEXT_HEADING = re.compile(r"^#{2,3} ", re.M)
_TITLE_STATUS = re.compile(r"\s*\((superseded[^)]*)\)\s*$", re.I)
_BODY_STATUS = re.compile(r"\A\s*\*\*(Superseded[^*]*)\*\*")


def entries(path: Path) -> list[tuple[int, str, str]]:
    """(number, title, status) of each entry of ``path``, in file order."""
    text = path.read_text(encoding="utf-8")
    out = []
    for m in _HEADING.finditer(text):
        end = _NEXT_HEADING.search(text, m.end())
        body = text[m.end() : end.start() if end else len(text)]
        title, status = m.group(2), "active"
        found = _TITLE_STATUS.search(title)
        if found is not None:
            title, status = title[: found.start()], found.group(1)
        else:
            lead = _BODY_STATUS.match(body)
            if lead is not None:
                status = lead.group(1)
        out.append((int(m.group(1)), title.strip(), status[0].lower() + status[1:]))
    return out


def render() -> str:
    """The index block: a table of every decision of both files, by number."""
    rows = []
    for path in FILES:
        for number, title, status in entries(path):
            where = "" if path == DECISIONS else f" ([{path.name}]({path.name}))"
            rows.append((number, f"| D{number} | {status} | {title}{where} |"))
    lines = [BEGIN, "", "| | status | decision |", "|---|---|---|", *(row for _, row in sorted(rows)), "", END]
    return "\n".join(lines)


def current() -> str | None:
    text = DECISIONS.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    return None if start < 0 or end < start else text[start : end + len(END)]


def main(argv: list[str]) -> int:
    fresh, found = render(), current()
    if "--check" in argv:
        if found != fresh:
            print("docs/decisions.md: the index is stale; run python tools/decisions_index.py", file=sys.stderr)
            return 1
        return 0
    if found is None:
        print(f"docs/decisions.md has no {BEGIN!r} … {END!r} block", file=sys.stderr)
        return 1
    text = DECISIONS.read_text(encoding="utf-8")
    DECISIONS.write_text(text.replace(found, fresh), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
