"""How many real HTML pages ``linkify_html`` returns unlinked (issue 25).

    .venv/bin/python tools/html_recall.py [DIR ...] [--json OUT]

Reads every ``*.html``/``*.htm`` file under the directories (default: the
files of the Debian documentation packages named in tests/doc-packages.txt,
as dpkg lists them — never a folder of whatever a machine has, D131) that
is UTF-8, and counts:

* *linkable* pages: a link is found (by ``uts58.linkify``) in the text of a
  body text node outside ``a``, ``pre``, ``code``, ``button``, raw text,
  ``template``, ``svg``, ``math`` and ``select`` (read by lexbor as a document);
* *linked* pages: linkable pages whose ``linkify_html`` output has more
  ``<a`` start tags than the input;
* the share of linkable pages returned unlinked, and the input bytes and time.

Run it against an older commit with ``PYTHONPATH=<worktree>/src``: the
definition of *linkable* is this file's, so both runs count the same pages.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

import uts58

_SKIP = {
    "a", "pre", "code", "button", "script", "style", "textarea", "title", "xmp", "iframe", "noembed",
    "noframes", "noscript", "plaintext", "template", "svg", "math", "select", "option", "optgroup", "datalist",
}  # fmt: skip
_OPEN_A = re.compile(r"(?i)<a[\t\n\f\r />]")


def eligible_text(html: str) -> list[str]:
    tree = LexborHTMLParser(html)
    body = tree.body
    out: list[str] = []
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        if node.is_text_node:
            out.append(node.text_content or "")
            continue
        if node.is_element_node and (node.tag or "") in _SKIP:
            continue
        child = node.last_child
        while child is not None:
            stack.append(child)
            child = child.prev
    return out


def linkable(html: str) -> bool:
    return any("<a " in uts58.linkify(t) for t in eligible_text(html) if "." in t or "@" in t)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", help="default: the pages of the packages in tests/doc-packages.txt")
    parser.add_argument("--json", help="write the counts and the unlinked pages here")
    args = parser.parse_args(argv)
    if args.dirs:
        files = [p for d in args.dirs for p in Path(d).rglob("*")]
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        import hermetic

        files = hermetic.doc_package_files()
    pages = sorted(p for p in files if p.suffix in (".html", ".htm") and p.is_file())
    counts = {"pages": 0, "not_utf8": 0, "linkable": 0, "linked": 0, "bytes": 0, "seconds": 0.0}
    unlinked: list[str] = []
    for path in pages:
        try:
            html = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            counts["not_utf8"] += 1
            continue
        counts["pages"] += 1
        if not linkable(html):
            continue
        counts["linkable"] += 1
        counts["bytes"] += len(html.encode("utf-8"))
        t0 = time.perf_counter()
        out = uts58.linkify_html(html)
        counts["seconds"] += time.perf_counter() - t0
        if len(_OPEN_A.findall(out)) > len(_OPEN_A.findall(html)):
            counts["linked"] += 1
        else:
            unlinked.append(str(path))
    share = 1 - counts["linked"] / counts["linkable"] if counts["linkable"] else 0.0
    counts["unlinked_share"] = round(share, 4)
    print(json.dumps(counts, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps({**counts, "unlinked": unlinked}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
