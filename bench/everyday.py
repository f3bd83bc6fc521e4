#!/usr/bin/env python3
"""A corpus of everyday writing: what people wrote to each other (issue 22).

``python bench/everyday.py build [--out DIR] [--install]`` writes one UTF-8
``.txt`` per source file and a ``manifest.json`` (path, kind, language,
bytes, source) into ``DIR`` (default ``${XDG_CACHE_HOME:-~/.cache}/uts58-bench/everyday``),
in the format of ``bench/realtext.py``, so that ``bench/precision.py
--corpus everyday`` samples and scores it the same way.  Nothing of it is
committed: it is generated at bench time from Debian's fortune packages
(``--install`` installs them with apt-get), which are quotations of IRC
channels, Usenet posts and mail (with their attributions, signatures and
Message-IDs), jokes, proverbs and literature in many languages.  The
``debian-hints`` files (technical tips, translated) and the offensive
sections are left out.

Languages are split in two groups of different shape (D101): ``DEV`` (the
rules of D97 were written looking at these) and ``HELDOUT`` (other
languages and writers; drawn and judged before the rules, looked at only to
report).

>>> language_of("pl/irc")
'pl'
>>> language_of("mario.geral"), language_of("tang300"), language_of("zippy")
('pt', 'zh', 'en')
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import debian  # (bench/ is not a package: its siblings by path)

ROOT = Path("/usr/share/games/fortunes")
APT_PACKAGES = [
    "fortunes",
    "fortunes-bofh-excuses",
    "fortunes-zh",
    "fortunes-bg",
    "fortunes-br",
    "fortunes-cs",
    "fortunes-de",
    "fortunes-eo",
    "fortunes-es",
    "fortunes-ga",
    "fortunes-it",
    "fortunes-pl",
    "fortunes-ru",
    "fortunes-mario",
    "fortunes-fr",
]
# Files at the top of ROOT that are not in English.
_TOP_LANGUAGE = {
    **dict.fromkeys(("chinese", "tang300", "song100"), "zh"),
    **dict.fromkeys(("brasil",), "pt"),
    **dict.fromkeys(
        ("definizioni", "formiche", "italia", "itatrek", "leggi", "luttazzi", "paolotedeschi"),
        "it",
    ),
}
_DIR_LANGUAGE = {"cz": "cs"}
DEV = frozenset({"en", "de", "es", "it", "cs", "sk"})
HELDOUT = frozenset({"pl", "ru", "bg", "zh", "pt", "eo", "ga", "fr"})
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]")  # (ESC kept: terminal colours are text people paste)


def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "uts58-bench" / "everyday"


def language_of(rel: str) -> str:
    """The language of a fortune file, from its path under ROOT."""
    head, _, name = rel.rpartition("/")
    if head:
        top = head.split("/")[0]
        return _DIR_LANGUAGE.get(top, top)
    if name.startswith("mario."):
        return "pt"
    return _TOP_LANGUAGE.get(name, "en")


def sources(paths: Iterable[Path]) -> list[Path]:
    """The fortune text files among ``paths`` (the packages' files: not the
    ``.dat`` indexes nor the ``.u8`` links), sorted."""
    out = []
    for path in sorted(paths):
        if ROOT not in path.parents or path.suffix in (".dat", ".u8"):
            continue
        rel = path.relative_to(ROOT).as_posix()
        if "debian-hints" in rel or "off" in rel.split("/")[:-1] or rel.startswith("off/") or rel == "translate-me":
            continue
        out.append(path)
    return out


def to_text(data: bytes) -> str | None:
    """A fortune file as text: UTF-8 (None when it is not), the ``%``
    separator lines blank, control characters but tab and ESC removed."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = ["" if line == "%" else line for line in text.split("\n")]
    return _CONTROLS.sub("", "\n".join(lines))


def build(out: Path, packages: Iterable[str] = APT_PACKAGES) -> list[dict[str, object]]:
    """Write the corpus of the named packages' fortunes into ``out``; its manifest."""
    manifest: list[dict[str, object]] = []
    seen: set[str] = set()
    for path in sources(debian.files(packages)):
        rel = path.relative_to(ROOT).as_posix()
        text = to_text(path.read_bytes())
        if text is None:
            print(f"skipped (not UTF-8): {path}", file=sys.stderr)
            continue
        if text in seen:
            continue
        seen.add(text)
        target = out / "fortunes" / (rel + ".txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        manifest.append(
            {
                "path": target.relative_to(out).as_posix(),
                "kind": "fortunes",
                "language": language_of(rel),
                "bytes": len(text.encode("utf-8")),
                "source": str(path),
            }
        )
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write the corpus")
    b.add_argument("--out", type=Path, default=None)
    b.add_argument("--install", action="store_true", help="apt-get install the fortune packages first")
    args = parser.parse_args(argv)
    if args.install:
        missing = debian.install(APT_PACKAGES)
        if missing:
            print(f"not in the archive: {', '.join(missing)}", file=sys.stderr)
    absent = debian.not_installed(APT_PACKAGES)
    if len(absent) == len(APT_PACKAGES):
        print("no fortune package installed: run with --install (root and apt-get)", file=sys.stderr)
        return 1
    if absent:
        print(f"not installed (use --install as root): {', '.join(absent)}", file=sys.stderr)
    out = args.out or default_dir()
    manifest = build(out)
    by_lang: dict[str, int] = {}
    for entry in manifest:
        lang = str(entry["language"])
        by_lang[lang] = by_lang.get(lang, 0) + int(str(entry["bytes"]))
    total = sum(by_lang.values())
    print(f"{out}: {len(manifest)} documents, {total / (1 << 20):.1f} MB")
    for lang, size in sorted(by_lang.items(), key=lambda kv: -kv[1]):
        group = "dev" if lang in DEV else "heldout" if lang in HELDOUT else "-"
        print(f"  {lang:3} {size / (1 << 20):6.2f} MB  {group}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
