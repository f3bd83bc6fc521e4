"""Memory of linkify_html and ``uts58 linkify --html`` on large documents (issue 25).

Each measurement runs in a fresh process: the peak resident memory it
reaches (``ru_maxrss``), less what the same process held before it read
the input (interpreter, uts58), per byte of UTF-8 input: the input and
the output strings count.  The
CLI is measured as a whole process, less a process that only starts.
Target: at most 10 bytes per input byte.

    python bench/memory.py          # the rows, for a quick look (or an older tree: PYTHONPATH=<tree>/src)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from adapters import html_document

MB = 1 << 20
TARGET = 10.0
# The peak resident memory of this process (VmHWM: unlike ru_maxrss, not
# inherited from the process that started it), in KiB.
_PEAK = "int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])"
_CHILD = f"""
import gc, json, sys
import uts58
from uts58 import linkify_html
linkify_html("<p>warm.example.com</p>")
gc.collect()
before = {_PEAK}
with open(sys.argv[1], "rb") as f:
    page = f.read().decode("utf-8")
out = linkify_html(page)
print(json.dumps({{"kib": {_PEAK} - before, "links": out.count("<a ") - page.count("<a ")}}))
"""
# The CLI in one process: its peak, less the peak of a process that only
# imported it (and read nothing).
_CLI = f"""
import contextlib, io, json, sys
import uts58.cli.main, uts58.html.linkify
if sys.argv[1] == "-":
    print(json.dumps({{"kib": {_PEAK}}}))
    sys.exit(0)
with contextlib.redirect_stdout(io.StringIO()):
    code = uts58.cli.main.main(["linkify", "--html", "-o", sys.argv[2], sys.argv[1]])
print(json.dumps({{"kib": {_PEAK}, "code": code}}))
"""


def _run(script: str, *argv: str) -> dict[str, int]:
    done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, check=True)
    result: dict[str, int] = json.loads(done.stdout)
    return result


def page(size: int) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Notes</title></head>\n<body>\n'
        + html_document(size)
        + "\n</body></html>\n"
    )


def bench_html_memory() -> tuple[list[str], bool]:
    rows = []
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for size in (2 * MB, 8 * MB):  # (of prose: the pages are about 2.4 times larger)
            path = Path(tmp) / f"page{size}.html"
            text = page(size)
            path.write_text(text, encoding="utf-8")
            n = len(text.encode("utf-8"))
            result = _run(_CHILD, str(path))
            per_byte = result["kib"] * 1024 / n
            cli = _run(_CLI, str(path), str(Path(tmp) / "out.html"))["kib"] - _run(_CLI, "-")["kib"]
            cli_per_byte = cli * 1024 / n
            met = per_byte <= TARGET and cli_per_byte <= TARGET
            ok &= met
            rows.append(
                f"| linkify_html memory, HTML document {n / MB:.0f} MB ({result['links']:,} links) "
                f"| linkify_html {per_byte:.1f} B per input byte; uts58 linkify --html {cli_per_byte:.1f} B per "
                f"input byte (peak RSS) | ≤ {TARGET:.0f}: {'met' if met else 'NOT MET'} |"
            )
    return rows, ok


if __name__ == "__main__":
    rows, ok = bench_html_memory()
    print("\n".join(rows))
    sys.exit(0 if ok else 1)
