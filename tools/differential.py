"""Every adapter's output, compared with another commit's (issue 24).

    .venv/bin/python tools/differential.py --before REV [--limit N]

Checks out REV (the commit before the change: name it, HEAD~1 when the
change is committed) into a temporary git worktree, and runs in both trees, each in a process of
its own, every entry point that writes output — linkify (HTML and Markdown,
with and without the attribute presets, the display options, a callback,
the CJK boundary), linkify_html, the markdown-it plugin, the Python-Markdown
extension, the mistune plugin (escaping on and off), the template filter
and ``uts58 linkify`` — over the conformance files' lines, the htmlsafety
inputs and the bench corpora.  It prints, for each entry point and corpus,
how many inputs it ran and how many outputs differ (and the first that
does), and exits 1 if any does.  An entry point the older tree does not
have is reported, not compared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def corpora(limit: int | None) -> dict[str, list[str]]:
    """The inputs, by corpus: the conformance files' lines, the htmlsafety
    inputs, the bench corpora (the precision texts by paragraph, prose, link-dense lines)."""
    out: dict[str, list[str]] = {}
    lines: list[str] = []
    for version in ("17.0.0", "18.0.0"):
        for name in ("LinkDetectionTest.txt", "LinkFormattingTest.txt"):
            path = SHARED / "unicode" / version / "linkification" / name
            if path.exists():
                lines += [line for line in path.read_text(encoding="utf-8").splitlines() if line and line[0] != "#"]
    out["conformance"] = lines
    safety: list[str] = []
    for path in sorted((SHARED / "data" / "htmlsafety").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            value = json.loads(line).get("input")
            if isinstance(value, str):
                safety.append(value)
    out["htmlsafety"] = safety
    sys.path.insert(0, str(ROOT / "bench"))
    import corpus  # bench/corpus.py: deterministic

    bench: list[str] = []
    for path in sorted((ROOT / "bench" / "precision").glob("*.txt")):
        bench += [p for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    prose = corpus.prose(300_000)
    bench += [prose[i : i + 3000] for i in range(0, len(prose), 3000)]
    bench += corpus.fresh_lines(3000) + corpus.fresh_lines(1000, "held-out")
    out["bench"] = bench
    if limit:
        out = {name: inputs[:limit] for name, inputs in out.items()}
    return out


def _module(name: str, before: str) -> Any:
    """``uts58.<name>``, or where the tree is older than issue 37's folders, ``uts58.<before>``."""
    import importlib

    try:
        return importlib.import_module(f"uts58.{name}")
    except ModuleNotFoundError:
        return importlib.import_module(f"uts58.{before}")


def _links(text: str) -> str:
    """find_links with every field a caller reads, as one line of JSON."""
    import uts58

    return json.dumps(
        [
            [link.start, link.end, link.kind, link.text, link.scheme, link.href, link.display, link.host.ascii]
            for link in uts58.find_links(text)
        ],
        ensure_ascii=False,
    )


def _entry_points() -> dict[str, Callable[[str], str]]:
    """What each entry point makes of one input (in the tree imported)."""
    import markdown
    import mistune
    from markdown_it import MarkdownIt

    import uts58

    md_plugin = _module("markdown.markdown_it", "markdown_it")
    mistune_plugin = _module("markdown.mistune", "mistune")
    LinkifyExtension = _module("markdown.python_markdown", "python_markdown").LinkifyExtension
    linkify_filter = _module("templates", "templates").linkify_filter

    def callback(link: Any, attrs: dict[str, str]) -> dict[str, str] | None:
        if link.kind == "email" and link.text.startswith("a"):
            return None
        attrs["class"] = "l-" + link.kind
        if len(attrs["_text"]) > 30:
            attrs["_text"] = attrs["_text"][:30] + "…"
        return attrs

    presets = {"rel": "nofollow", "target": "_blank", "external_only": True, "internal_hosts": ["example.com"]}
    display = {"max_length": 24, "location": "middle"}
    md_it = MarkdownIt("commonmark", {"linkify": True}).enable("linkify").use(md_plugin.plugin)
    md_it_strict = MarkdownIt("commonmark", {"linkify": True, "html": True}).enable("linkify")
    md_it_strict.use(md_plugin.plugin, uts58.Policy.strict())
    mistune_escaped = mistune.create_markdown(plugins=[mistune_plugin.plugin])
    mistune_raw = mistune.create_markdown(escape=False, plugins=[mistune_plugin.LinkifyPlugin(rel="ugc")])
    mistune_display = mistune.create_markdown(
        plugins=[mistune_plugin.LinkifyPlugin(link_text="display", display=display, callback=callback)]
    )
    mistune_callback = mistune.create_markdown(plugins=[mistune_plugin.LinkifyPlugin(callback=callback)])
    md_it_callback: MarkdownIt | None = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    try:
        md_it_callback.use(md_plugin.plugin, callback=callback)
    except TypeError:  # (a tree whose markdown-it plugin takes no output option: not compared)
        md_it_callback = None
    points: dict[str, Callable[[str], str]] = {
        "find_links": _links,
        "find_links technical": lambda t: json.dumps(
            [[x.start, x.end, x.href] for x in uts58.find_links(t, preset="technical")]
        ),
        "linkify": uts58.linkify,
        "linkify markdown": lambda t: uts58.linkify(t, format="markdown"),
        "linkify presets+display": lambda t: uts58.linkify(t, display=display, attrs={"class": "x"}, **presets),
        "linkify callback": lambda t: uts58.linkify(t, callback=callback, kinds=("url", "email")),
        "linkify cjk_boundary strict": lambda t: uts58.linkify(
            t, cjk_boundary=True, policy=uts58.Policy(bidi="reject")
        ),
        # (a policy that refuses nothing: since issue 37 it changes no detection, D65)
        "linkify policy none": lambda t: uts58.linkify(t, policy=uts58.Policy.none()),
        "linkify policy none, preset all": lambda t: uts58.linkify(t, policy=uts58.Policy.none(), preset="all"),
        "linkify_html": uts58.linkify_html,
        "linkify_html display+rel": lambda t: uts58.linkify_html(t, link_text="display", rel="ugc", callback=callback),
        "markdown-it": md_it.render,
        "markdown-it strict html": md_it_strict.render,
        "python-markdown": lambda t: markdown.markdown(t, extensions=[LinkifyExtension()]),
        "python-markdown display": lambda t: markdown.markdown(
            t, extensions=[LinkifyExtension(link_text="display", display=display, callback=callback, **presets)]
        ),
        "mistune": mistune_escaped,
        "mistune escape=False": mistune_raw,
        "mistune display+callback": mistune_display,
        "template filter": lambda t: str(linkify_filter(t, rel="nofollow", target="_blank")),
        # A callback without display= (the text it is given: D108)
        "linkify_html callback": lambda t: uts58.linkify_html(t, callback=callback),
        "python-markdown callback": lambda t: markdown.markdown(t, extensions=[LinkifyExtension(callback=callback)]),
        "mistune callback": mistune_callback,
    }
    if md_it_callback is not None:
        points["markdown-it callback"] = md_it_callback.render
    return points


def _cli(inputs: list[str], markdown: bool) -> list[str]:
    """``uts58 linkify`` on the inputs as one file, cut back at the markers."""
    main = _module("cli.main", "cli").main

    marker = "\n\u2063\u2063\n"
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.txt", Path(tmp) / "out.txt"
        src.write_text(marker.join(inputs), encoding="utf-8", errors="surrogatepass")
        argv = ["linkify", str(src), "-o", str(dst), *(["--markdown"] if markdown else ["--rel", "nofollow"])]
        if main(argv) != 0:
            return ["<exit status>"]
        return dst.read_text(encoding="utf-8").split(marker)


def child(out_path: str, limit: int | None) -> None:
    import uts58

    if os.environ.get("UTS58_PURE_PYTHON") != "1" and not uts58.accelerated():
        raise SystemExit(f"{uts58.__file__}: the C kernels did not load")
    inputs = corpora(limit)
    results: dict[str, Any] = {}
    for name, run in _entry_points().items():
        for corpus_name, texts in inputs.items():
            outputs = [_output(run, text) for text in texts]
            results[f"{name} | {corpus_name}"] = [_hash(o) for o in outputs]
            results[f"{name} | {corpus_name} | linked"] = sum(_linked(o) for o in outputs)
    for markdown in (False, True):
        for corpus_name, texts in inputs.items():
            clean = [t for t in texts if "\u2063" not in t and not any(0xD800 <= ord(c) <= 0xDFFF for c in t)]
            out = _cli(clean, markdown)
            key = f"uts58 linkify{' --markdown' if markdown else ' --rel'} | {corpus_name}"
            results[key] = [_hash(o) for o in out]
            results[f"{key} | linked"] = sum(_linked(o) for o in out)
    Path(out_path).write_text(json.dumps(results), encoding="utf-8")


def _output(run: Callable[[str], str], text: str) -> str:
    try:
        return run(text)
    except Exception as exc:  # an error is an output too: it must be the same
        return f"<error> {type(exc).__name__}: {exc}"


def _hash(output: str) -> str:
    return hashlib.sha256(output.encode("utf-8", "surrogatepass")).hexdigest()


def _linked(output: str) -> bool:
    """Does the output hold a link uts58 wrote (so that the comparison compares something)?"""
    return "<a " in output or "](<" in output or output.startswith("[[")


def _tree(rev: str) -> Iterator[Path]:
    tmp = Path(tempfile.mkdtemp(prefix="uts58-before-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(tmp), rev], check=True,
                   capture_output=True)  # fmt: skip
    try:
        yield tmp
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tmp)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


def _run(tree: Path, out: Path, limit: int | None, pure: bool) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    if pure:
        env["UTS58_PURE_PYTHON"] = "1"
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", str(out)]
    if limit:
        argv += ["--limit", str(limit)]
    return subprocess.Popen(argv, env=env, cwd=str(tree))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", help="the commit to compare with (the parent of the change): required")
    parser.add_argument("--limit", type=int, help="at most N inputs of each corpus")
    parser.add_argument(
        "--c", action="store_true", help="with the C kernels, built in place in both trees (default: the Python ones)"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.limit)
        return 0
    if not args.before:
        parser.error("--before REV is required (HEAD~1 when the change is committed)")
    gen = _tree(args.before)
    old_tree = next(gen)
    try:
        # By default both trees run the Python kernels (the C kernels' own
        # differential tests keep them equal); --c builds the accelerator in
        # place in both, and the children say that it ran (issue 38: a change
        # of the C kernels' answers).
        if args.c:
            for tree in (old_tree, ROOT):
                subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, check=True,
                               capture_output=True)  # fmt: skip
        with tempfile.TemporaryDirectory() as tmp:
            old_out, new_out = Path(tmp) / "old.json", Path(tmp) / "new.json"
            pure = not args.c
            procs = [_run(old_tree, old_out, args.limit, pure), _run(ROOT, new_out, args.limit, pure)]
            if any(p.wait() != 0 for p in procs):
                print("a child failed", file=sys.stderr)
                return 2
            old, new = json.loads(old_out.read_text()), json.loads(new_out.read_text())
    finally:
        next(gen, None)
    inputs = corpora(args.limit)
    failed = False
    for key, outputs in new.items():
        if key.endswith(" | linked"):
            continue
        before = old.get(key)
        n = len(outputs)
        if before is None:
            print(f"{key}: {n} inputs, not in {args.before}")
            continue
        differ = [i for i, (a, b) in enumerate(zip(before, outputs, strict=False)) if a != b]
        if len(before) != n:
            differ.append(min(len(before), n))
        print(f"{key}: {n} inputs, {new[key + ' | linked']} with links, {len(differ)} differ")
        if differ:
            failed = True
            corpus_name = key.rsplit(" | ", 1)[1]
            k = differ[0]
            if not key.startswith("uts58 linkify") and k < len(inputs[corpus_name]):
                print(f"    first: {inputs[corpus_name][k][:200]!r}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
