#!/usr/bin/env python3
"""A corpus of real technical and multilingual text, built from what Debian installs.

``python bench/realtext.py build [--out DIR] [--install]`` writes one UTF-8
``.txt`` per source document and a ``manifest.json`` (path, kind, language,
bytes, source) into ``DIR`` (default ``${XDG_CACHE_HOME:-~/.cache}/uts58-bench/realtext``).
Nothing of it is committed: it is generated at bench time from

* the Debian Reference (HTML, ten languages) and the Debian Administrator's
  Handbook (HTML, the translated languages): packages ``debian-reference-*``
  and ``debian-handbook``;
* man pages (English and ``<lang>/``: packages ``manpages-ja``,
  ``manpages-zh``, ``manpages-de``, ``manpages-fr``, ``manpages-ru``, and the
  English ones of ``BASE_PACKAGES``), roff reduced to its text lines;
* the changelogs, NEWS, README and copyright files and the info manuals of
  every package named here.

Only the files of the packages named here (``APT_PACKAGES``,
``BASE_PACKAGES``: bench/debian.py lists them with dpkg) are read, never a
whole system folder, so the corpus does not depend on what else a machine
has installed (issue 35); ``--install`` installs them (root and apt-get).
Deterministic: the same installed files give the same corpus.  Each kind
and language has a byte budget (``BUDGET``); when the documents exceed it,
they are taken in the order of a hash of their path (a spread over all
packages, not the first letters of the alphabet).  Identical texts are kept
once.  ``python bench/realtext.py stats`` prints the sizes per kind and
language.

>>> roff_to_text('.SH NAME\\nls \\\\- list \\\\fBdirectory\\\\fR contents\\n.\\\\" comment\\n.UR https://x.org\\n.UE')
'NAME\\nls - list directory contents\\nhttps://x.org'
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import debian  # (bench/ is not a package: its siblings by path)

MB = 1 << 20

APT_PACKAGES = [
    *(f"debian-reference-{lang}" for lang in ("en", "ja", "zh-cn", "zh-tw", "de", "fr", "it", "es", "pt", "pt-br")),
    "debian-handbook",
    "manpages-ja",
    "manpages-zh",
    "manpages-de",
    "manpages-fr",
    "manpages-ru",
]
# Packages of a Debian system whose own documentation (man pages, changelogs,
# NEWS, README, copyright, info) is taken too: common tools, named so that
# every machine that has them builds the same corpus.
BASE_PACKAGES = [
    *(
        "apt base-files bash binutils bzip2 ca-certificates cmake coreutils curl debianutils diffutils dpkg file"
    ).split(),
    *("findutils gcc-12 gdb gettext-base git gnupg grep gzip iproute2 less libc-bin make man-db net-tools").split(),
    *("openssh-client openssl patch perl pkg-config procps python3.11 sed sqlite3 strace tar tzdata unzip").split(),
    *"util-linux valgrind wget xz-utils zip zstd".split(),
]

# Byte budgets of text per (kind, language); None: no budget.  A document
# longer than DOC_LIMIT is cut at a line end (long changelogs would
# otherwise be most of the corpus).
BUDGET: dict[str, int | None] = {
    "reference": None,
    "handbook": MB // 2,  # 26 languages, most of them partial translations
    "man": 3 * MB,
    "changelog": 6 * MB,
    "copyright": 3 * MB,
    "news": 2 * MB,
    "readme": 2 * MB,
    "info": 2 * MB,
}
DOC_LIMIT = 256 * 1024


def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "uts58-bench" / "realtext"


# --- text extraction ------------------------------------------------------------------------------------------------

_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def decode(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return _CONTROLS.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def read_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


_BLOCK = frozenset(
    "address article aside blockquote body br caption dd details div dl dt fieldset figcaption figure footer form "
    "h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td tfoot th thead title tr ul".split()
)
_SPACES = re.compile(r"[ \t\n\r\f]+")


def html_to_text(html: str) -> str:
    """The text of an HTML page: block elements start a line, ``<pre>`` keeps
    its lines, other white space collapses, ``<script>``/``<style>`` dropped.
    Lines are stripped (indentation carries nothing for links).  Walks the
    tree with a loop (no recursion).

    >>> html_to_text("<p>See <a href='x'>debian.org</a>\\n now.</p><pre>a\\n b</pre><script>x=1</script>")
    'See debian.org now.\\na\\nb'
    """
    from selectolax.lexbor import LexborHTMLParser, LexborNode

    tree = LexborHTMLParser(html)
    for dropped in tree.css("script, style, noscript"):
        dropped.decompose()
    body = tree.body
    if body is None:
        return ""
    out: list[str] = []
    pre = 0  # depth of <pre> elements around the current node
    node: LexborNode | None = body.child
    depth = 1
    while node is not None and depth > 0:
        tag = node.tag
        if tag == "-text":
            text = node.text_content or ""
            out.append(text if pre else _SPACES.sub(" ", text))
        elif tag in _BLOCK:
            out.append("\n")
        if tag == "pre":
            pre += 1
        child = node.child if tag != "-text" else None
        if child is not None:
            node = child
            depth += 1
            continue
        # No child: leave this node and its finished ancestors.
        while node is not None and depth > 0:
            if node.tag == "pre":
                pre -= 1
            if node.tag in _BLOCK:
                out.append("\n")
            nxt = node.next
            if nxt is not None:
                node = nxt
                break
            node = node.parent
            depth -= 1
    text = "".join(out)
    # Indentation carries nothing here; lines of white space only (nbsp too) go.
    return "\n".join(s for line in text.split("\n") if (s := line.strip()))


_ROFF_CHARS = {
    "em": "—", "en": "–", "hy": "-", "mi": "-", "aq": "'", "dq": '"', "bu": "•", "co": "©", "rg": "®", "tm": "™",
    "lq": "“", "rq": "”", "oq": "‘", "cq": "’", "ti": "~", "ha": "^", "ga": "`", "rs": "\\", "pl": "+", "mu": "×",
    ">=": "≥", "<=": "≤", "->": "→", "<-": "←", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›", "dg": "†", "sc": "§",
    "de": "°", "at": "@", "sl": "/", "ba": "|", "lB": "[", "rB": "]", "lC": "{", "rC": "}", "ul": "_", "ct": "¢",
    "R": "®", "Tm": "™",
}  # fmt: skip
_ROFF_ESCAPE = re.compile(
    r"""\\(?:
      (?P<comment>["#].*)
    | (?P<backslash>\\)
    | [f*](?:\[[^\]\n]*\]|\(..|.)          # fonts, strings: \fB \f(CW \f[B] \*(lq
    | \((?P<char2>..)                     # \(em
    | \[(?P<charn>[^\]\n]*)\]             # \[em] \[u00E9]
    | [sS][-+]?(?:\d+|\[[^\]\n]*\]|\(..)  # size
    | [nmgFYVk](?:\[[^\]\n]*\]|\(..|.)     # registers, colours
    | [hvlLDNbowxXZuzAB]'[^'\n]*'         # motions, drawing, width
    | (?P<space>[ 0~])
    | (?P<literal>[-.'`e:])
    | .
    )""",
    re.VERBOSE,
)
_ROFF_LITERAL = {"-": "-", ".": ".", "'": "'", "`": "`", "e": "\\", ":": ""}
_ROFF_ARGS = re.compile(r'"((?:[^"]|"")*)"?|(\S+)')
_JOINED = frozenset("BR BI IB IR RB RI".split())
_SPACED = frozenset("B I SM SB SH SS IP UR MT TH".split())


def _roff_escape(m: re.Match[str]) -> str:
    if m["comment"] is not None:
        return ""
    if m["backslash"] is not None:
        return "\\"
    name = m["char2"] or m["charn"]
    if name is not None:
        if name.startswith("u") and len(name) >= 5:
            try:
                return "".join(chr(int(part, 16)) for part in name[1:].split("_"))
            except ValueError:
                return ""
        return _ROFF_CHARS.get(name, "")
    if m["space"] is not None:
        return " "
    if m["literal"] is not None:
        return _ROFF_LITERAL[m["literal"]]
    return ""


def roff_to_text(source: str) -> str:
    """The text lines of a man page: macro lines dropped except those that
    carry text (``.SH``, ``.B``, ``.BR``, ``.IP``, ``.UR``, …), escapes
    stripped or replaced by their character.  Linear, no recursion."""
    out: list[str] = []
    for line in source.split("\n"):
        if line[:1] in (".", "'"):
            macro, _, rest = line[1:].lstrip().partition(" ")
            if macro not in _JOINED and macro not in _SPACED:
                continue
            args = [(m[1].replace('""', '"') if m[1] is not None else m[2]) for m in _ROFF_ARGS.finditer(rest)]
            if macro == "IP":
                args = args[:1]
            elif macro == "TH":
                args = args[:2]
            line = ("" if macro in _JOINED else " ").join(args)
        line = _ROFF_ESCAPE.sub(_roff_escape, line)
        if line.strip():
            out.append(line.rstrip())
    return "\n".join(out)


def info_to_text(source: str) -> str:
    # Info files are text; _CONTROLS already dropped the \x1f node separators.
    return source.replace("\x00\x08[index\x00\x08]", "")


# --- sources --------------------------------------------------------------------------------------------------------


def _lang(name: str) -> str:
    """'zh_CN.UTF-8' → 'zh-cn', 'ja-JP' → 'ja', 'pt-BR' → 'pt-br'."""
    name = name.split(".")[0].replace("_", "-").lower()
    return name if name in ("zh-cn", "zh-tw", "pt-br") else name.split("-")[0]


# A source document: (output path, kind, language, source path, extractor name).
Doc = tuple[str, str, str, Path, str]


def sources(paths: Iterable[Path]) -> Iterator[Doc]:
    """The documents among ``paths`` (a package's files), by where Debian puts them."""
    for path in sorted(paths):
        parts = path.parts
        if len(parts) < 5 or parts[:3] != ("/", "usr", "share"):
            continue
        top, rest = parts[3], parts[4:]
        name = path.name[:-3] if path.name.endswith(".gz") else path.name
        if top == "debian-reference" and len(rest) == 1 and path.name.count(".") == 2 and name.endswith(".html"):
            stem, lang = path.name[: -len(".html")].rsplit(".", 1)  # ch01.ja.html; index.html is a language menu
            yield f"reference/{_lang(lang)}/{stem}.txt", "reference", _lang(lang), path, "html"
        elif top == "doc" and rest[:2] == ("debian-handbook", "html") and len(rest) == 4 and name.endswith(".html"):
            lang = _lang(rest[2])
            yield f"handbook/{lang}/{path.stem}.txt", "handbook", lang, path, "html"
        elif top == "man" and len(rest) in (2, 3) and rest[-2].startswith("man"):
            lang = "en" if len(rest) == 2 else _lang(rest[0])
            yield f"man/{lang}/{rest[-2]}/{name}.txt", "man", lang, path, "roff"
        elif top == "doc" and len(rest) == 2:
            kind = _doc_kind(path.name)
            if kind is not None:
                yield f"doc/{rest[0]}/{name}.txt", kind, "en", path, "plain"
        elif top == "info" and len(rest) == 1 and ".info" in path.name:
            yield f"info/{name}.txt", "info", "en", path, "info"


def _doc_kind(name: str) -> str | None:
    low = name.lower()
    if low.endswith((".html", ".pdf", ".png", ".svg", ".jpg", ".css", ".js", ".bz2", ".xz")):
        return None
    if low == "copyright":
        return "copyright"
    if low.startswith("changelog"):
        return "changelog"
    if low.startswith("news"):
        return "news"
    if low.startswith("readme"):
        return "readme"
    return None


def extract(path: Path, how: str) -> str:
    text = decode(read_bytes(path))
    if how == "html":
        return html_to_text(text)
    if how == "roff":
        return roff_to_text(text)
    if how == "info":
        return info_to_text(text)
    return text


def _cut(text: str, limit: int) -> str:
    if len(text.encode("utf-8")) <= limit:
        return text
    cut = text.encode("utf-8")[:limit].decode("utf-8", "ignore")
    return cut[: cut.rfind("\n") + 1] or cut


# --- build ----------------------------------------------------------------------------------------------------------


def _spread(rel: str) -> str:
    return hashlib.sha1(rel.encode()).hexdigest()


def build(out: Path, packages: Iterable[str] = (*APT_PACKAGES, *BASE_PACKAGES)) -> list[dict[str, object]]:
    """Write the corpus of the named packages' documents into ``out``
    (replacing an earlier one) and return its manifest."""
    docs = list(sources(debian.files(packages)))
    groups: dict[tuple[str, str], list[Doc]] = defaultdict(list)
    for doc in docs:
        groups[doc[1], doc[2]].append(doc)
    seen: set[str] = set()
    taken: list[tuple[Doc, str]] = []
    for key in sorted(groups):
        budget = BUDGET.get(key[0])
        group = groups[key] if budget is None else sorted(groups[key], key=lambda d: _spread(d[0]))
        used = 0
        for doc in group:
            if budget is not None and used >= budget:
                break
            try:
                text = _cut(extract(doc[3], doc[4]), DOC_LIMIT).strip("\n")
            except (OSError, EOFError, gzip.BadGzipFile) as exc:
                print(f"skipped {doc[3]}: {exc}", file=sys.stderr)
                continue
            digest = hashlib.sha1(text.encode()).hexdigest()
            if not text.strip() or digest in seen:
                continue
            seen.add(digest)
            taken.append((doc, text))
            used += len(text.encode("utf-8"))
    if out.exists():
        shutil.rmtree(out)
    manifest: list[dict[str, object]] = []
    for (rel, kind, lang, src, _), text in sorted(taken, key=lambda t: t[0][0]):
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        data = (text + "\n").encode("utf-8")
        target.write_bytes(data)
        manifest.append({"path": rel, "kind": kind, "language": lang, "bytes": len(data), "source": str(src)})
    (out / "manifest.json").write_text(json.dumps(manifest, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def load_manifest(corpus: Path | None = None) -> list[dict[str, object]]:
    corpus = corpus or default_dir()
    path = corpus / "manifest.json"
    if not path.exists():
        raise FileNotFoundError(f"no corpus at {corpus}: run python bench/realtext.py build [--install]")
    result: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))
    return result


def stats(manifest: list[dict[str, object]]) -> str:
    """Markdown table of MB and documents per kind and per language."""
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for entry in manifest:
        size = int(str(entry["bytes"]))
        for table, key in ((by_kind, str(entry["kind"])), (by_lang, str(entry["language"]))):
            table[key][0] += size
            table[key][1] += 1
    total = sum(v[0] for v in by_kind.values())
    rows = [f"total: {total / MB:.1f} MB, {len(manifest)} documents, {len(by_lang)} languages", ""]
    for title, table in (("kind", by_kind), ("language", by_lang)):
        rows += [f"| {title} | MB | documents |", "|---|---|---|"]
        rows += [f"| {k} | {v[0] / MB:.2f} | {v[1]} |" for k, v in sorted(table.items(), key=lambda kv: -kv[1][0])]
        rows.append("")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write the corpus")
    b.add_argument("--out", type=Path, default=None)
    b.add_argument("--install", action="store_true", help="apt-get install the documentation packages first")
    s = sub.add_parser("stats", help="sizes of the corpus per kind and language")
    s.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    out = args.out or default_dir()
    if args.command == "build":
        if args.install:
            missing = debian.install([*APT_PACKAGES, *BASE_PACKAGES])
            if missing:
                print(f"not in the archive: {', '.join(missing)}", file=sys.stderr)
        else:
            absent = debian.not_installed([*APT_PACKAGES, *BASE_PACKAGES])
            if absent:
                print(f"not installed (use --install as root): {', '.join(absent)}", file=sys.stderr)
        manifest = build(out)
        print(f"corpus written to {out}")
    else:
        manifest = load_manifest(out)
    print(stats(manifest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
