#!/usr/bin/env python3
"""Generate compact lookup tables from the vendored UTS #58 property files.

    python tools/gen_tables.py                 # every version under tools/data/
    python tools/gen_tables.py --check         # exit 1 if a committed table is stale
    python tools/gen_tables.py --version 17.0.0 --out-dir DIR

A version directory is ``tools/data/<version>/`` holding LinkTerm.txt,
LinkBracket.txt, LinkEmail.txt and IdnaMappingTable.txt (and the UTS #39/UCD
files of the security tables) exactly as published by Unicode.  The output is
``src/uts58/_tables/v<version with _>.py``: flat tuples of integers that
import quickly and need no parsing at run time (the idea of kjd/idna's
``idnadata.py``).  The inputs live here, beside their generator, and not in
the package: nothing reads them at run time (D67).  The conformance files
that ``uts58 conformance`` runs stay in ``src/uts58/data/<version>/``.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "tools" / "data"  # D67: generator inputs, never shipped
TABLES_DIR = ROOT / "src" / "uts58" / "_tables"

# Order fixes the integer code of each Link_Term value in the tables; the
# runtime (uts58.properties.LinkTerm) uses the same order.
LINK_TERM_VALUES = ("Include", "Hard", "Soft", "Open", "Close")
PROPERTY_FILES = ("LinkTerm.txt", "LinkBracket.txt", "LinkEmail.txt", "IdnaMappingTable.txt")
TLD_FILE = DATA_DIR / "tlds-alpha-by-domain.txt"
SECURITY_FILES = ("IdentifierStatus.txt", "Scripts.txt", "confusables.txt", "PropList.txt", "LineBreak.txt")

_LINE = re.compile(r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*(?:;\s*([^#]*?))?\s*(?:#.*)?$")
_MISSING = re.compile(r"^#\s*@missing:\s*0000\.\.10FFFF;\s*(\S+)")


def module_name(version: str) -> str:
    """``17.0.0`` -> ``v17_0_0`` (a version directory name as a module name)."""
    return "v" + re.sub(r"[^0-9A-Za-z]", "_", version)


def parse(path: Path) -> tuple[list[tuple[int, int, str | None]], str | None]:
    """Return ([(first, last, value)], @missing default) of a UCD-style file."""
    entries: list[tuple[int, int, str | None]] = []
    missing = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = _MISSING.match(line)
            if m:
                missing = m.group(1)
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError(f"{path}: cannot parse line {raw!r}")
        first = int(m.group(1), 16)
        last = int(m.group(2), 16) if m.group(2) else first
        entries.append((first, last, (m.group(3) or "").strip() or None))
    entries.sort()
    for (_, last, _), (first, _, _) in itertools.pairwise(entries):
        if first <= last:
            raise ValueError(f"{path}: overlapping ranges at {first:04X}")
    return entries, missing


def merge(ranges: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Join adjacent ranges that carry the same value."""
    out: list[tuple[int, int, int]] = []
    for first, last, value in ranges:
        if out and out[-1][1] + 1 == first and out[-1][2] == value:
            out[-1] = (out[-1][0], last, value)
        else:
            out.append((first, last, value))
    return out


def domain_chars(path: Path) -> list[tuple[int, int, int]]:
    """Characters that can stand in a label of a domain written in text.

    From the UTS #46 IdnaMappingTable: ASCII letters, digits and hyphen;
    non-ASCII characters that are valid or deviation (and not NV8/XV8, i.e.
    also valid in IDNA2008), or mapped to such characters only.  Label
    separators (mapped to ".") are not label characters.
    """
    status: dict[int, tuple[str, str, str]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(";")] + ["", "", ""]
        first, _, last = fields[0].partition("..")
        for cp in range(int(first, 16), int(last or first, 16) + 1):
            status[cp] = (fields[1], fields[2], fields[3])

    def plain_valid(cp: int) -> bool:
        if cp < 0x80:
            return chr(cp).isascii() and (chr(cp).isalnum() or chr(cp) == "-") and not chr(cp).isupper()
        kind, _, flag = status.get(cp, ("disallowed", "", ""))
        return kind in ("valid", "deviation") and flag not in ("NV8", "XV8")

    chars = []
    for cp in range(0x110000):
        if cp < 0x80:
            ok = chr(cp).isascii() and (chr(cp).isalnum() or chr(cp) == "-")
        else:
            kind, mapping, _ = status.get(cp, ("disallowed", "", ""))
            if kind == "mapped":
                ok = bool(mapping) and all(plain_valid(int(m, 16)) for m in mapping.split())
            else:
                ok = plain_valid(cp)
        if ok:
            chars.append((cp, cp, 1))
    return merge(chars)


def _int_rows(values: list[int], per_line: int = 12) -> str:
    rows = []
    for k in range(0, len(values), per_line):
        rows.append("    " + ", ".join(f"0x{v:X}" for v in values[k : k + per_line]) + ",")
    return "\n".join(rows)


def _header_lines(path: Path) -> list[str]:
    """The first comment lines of a data file (name, date, copyright)."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines()[:5]:
        if raw.startswith("#"):
            lines.append("# | " + raw[1:].strip())
    return lines


def _generated_header(version: str, src: Path, names: tuple[str, ...]) -> list[str]:
    """The first lines of a generated module: that it is generated, and the
    Unicode headers of its source files."""
    header = [f"# Generated by tools/gen_tables.py from tools/data/{version}/ -- do not edit."]
    header.append("# Source files (Unicode data, see https://www.unicode.org/terms_of_use.html):")
    for name in names:
        header += _header_lines(src / name)
    return header


def render(version: str, src: Path) -> str:
    term, term_missing = parse(src / "LinkTerm.txt")
    bracket, bracket_missing = parse(src / "LinkBracket.txt")
    email, _ = parse(src / "LinkEmail.txt")
    if term_missing != "Hard":
        raise ValueError(f"LinkTerm.txt: expected '@missing ... Hard', got {term_missing!r}")
    if bracket_missing not in (None, "<none>"):
        raise ValueError(f"LinkBracket.txt: unexpected @missing {bracket_missing!r}")

    codes = {name: k for k, name in enumerate(LINK_TERM_VALUES)}
    term_ranges = merge([(first, last, codes[v or ""]) for first, last, v in term])
    # Hard is the @missing default: only the other values are stored.
    term_ranges = [r for r in term_ranges if r[2] != codes["Hard"]]
    flat_term = [x for r in term_ranges for x in r]

    pairs: list[int] = []
    for first, last, value in bracket:
        if value is None:
            raise ValueError("LinkBracket.txt: entry without a value")
        for cp in range(first, last + 1):
            pairs += [cp, int(value, 16)]

    email_ranges = merge([(first, last, 1) for first, last, _ in email])
    flat_email = [x for first, last, _ in email_ranges for x in (first, last)]
    flat_domain = [x for first, last, _ in domain_chars(src / "IdnaMappingTable.txt") for x in (first, last)]

    header = _generated_header(version, src, PROPERTY_FILES)
    body = f'''
"""Link_Term, Link_Bracket and Link_Email of UTS #58 version {version}."""

UNICODE_VERSION = "{version}"

# Value codes of LINK_TERM, in this order.
LINK_TERM_VALUES = {LINK_TERM_VALUES!r}

# Link_Term: flat (first, last, value code) triples, sorted; code points not
# covered have the @missing value Hard.
LINK_TERM = (
{_int_rows(flat_term)}
)

# Link_Bracket: flat (Close, matching Open) pairs; all others map to <none>.
LINK_BRACKET = (
{_int_rows(pairs)}
)

# Link_Email=Yes: flat (first, last) pairs, sorted; all others are No.
LINK_EMAIL = (
{_int_rows(flat_email)}
)

# Domain label characters (from IdnaMappingTable.txt, see tools/gen_tables.py
# domain_chars): flat (first, last) pairs, sorted.
DOMAIN_CHARS = (
{_int_rows(flat_domain)}
)
'''
    return "\n".join(header) + "\n" + body


def render_tlds(path: Path) -> str:
    """The IANA root zone TLDs as a Python tuple of lowercase A-labels."""
    lines = path.read_text(encoding="ascii").splitlines()
    header = [ln for ln in lines if ln.startswith("#")]
    tlds = sorted(ln.strip().lower() for ln in lines if ln.strip() and not ln.startswith("#"))
    rows = []
    row: list[str] = []
    for tld in tlds:
        row.append(repr(tld))
        if len(row) == 8:
            rows.append("    " + ", ".join(row) + ",")
            row = []
    if row:
        rows.append("    " + ", ".join(row) + ",")
    body = "\n".join(rows)
    # The file's "# Version 2025100900, Last Updated …" line, as data: `uts58 tlds` shows it.
    version = next((h[1:].strip() for h in header if h[1:].strip().startswith("Version")), None)
    return (
        f"# Generated by tools/gen_tables.py from tools/data/{path.name} -- do not edit.\n"
        + "".join(f"# | {h[1:].strip()}\n" for h in header)
        + f'''
"""Top-level domains of the IANA root zone (lowercase, A-label form)."""

VERSION = {version!r}

TLDS = (
{body}
)
'''
    )


def _ranges(path: Path, keep: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """(first, last, value) of the lines whose value ``keep(value)`` accepts."""
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(";")]
        if keep(fields[1]):
            first, _, last = fields[0].partition("..")
            out.append((int(first, 16), int(last or first, 16), fields[1]))
    return sorted(out)


def render_security(version: str, src: Path) -> str:
    """Tables for the UTS #58 §8 checks (UTS #39 data and two UCD properties)."""

    def flat(ranges: list[tuple[int, int, str]]) -> list[int]:
        return [x for first, last, _ in merge([(f, t, 1) for f, t, _ in ranges]) for x in (first, last)]

    allowed = flat(_ranges(src / "IdentifierStatus.txt", lambda v: v == "Allowed"))
    bidi = flat(_ranges(src / "PropList.txt", lambda v: v == "Bidi_Control"))
    # Line_Break classes of §8's CJK boundary: Ideographic (with the
    # conditional Japanese starters, which behave alike) and Complex_Context.
    wide = flat(_ranges(src / "LineBreak.txt", lambda v: v in ("ID", "CJ", "SA")))
    scripts = _ranges(src / "Scripts.txt", lambda v: True)
    names = sorted({v for _, _, v in scripts})
    codes = {name: k for k, name in enumerate(names)}
    flat_scripts = [x for first, last, v in merge([(f, t, codes[v]) for f, t, v in scripts]) for x in (first, last, v)]
    confusables = []
    for raw in (src / "confusables.txt").read_text(encoding="utf-8-sig").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            source, target, _ = (f.strip() for f in line.split(";"))
            confusables.append((int(source, 16), "".join(chr(int(t, 16)) for t in target.split())))
    confusables.sort()
    conf_rows = "\n".join(f"    0x{cp:X}: {target!r}," for cp, target in confusables)
    header = _generated_header(version, src, SECURITY_FILES)
    return (
        "\n".join(header)
        + f'''

"""Data for the security checks of UTS #58 §8, Unicode {version}."""

# Identifier_Status=Allowed (UTS #39): flat (first, last) pairs.
ALLOWED = (
{_int_rows(allowed)}
)

# Bidi_Control=Yes: flat (first, last) pairs.
BIDI_CONTROL = (
{_int_rows(bidi)}
)

# Line_Break in {{ID, CJ, SA}}: flat (first, last) pairs.
WIDE = (
{_int_rows(wide)}
)

# Script: names, then flat (first, last, name index) triples; others Unknown.
SCRIPT_NAMES = {tuple(names)!r}
SCRIPTS = (
{_int_rows(flat_scripts)}
)

# confusables.txt: code point -> prototype (UTS #39 skeleton mapping).
CONFUSABLES = {{
{conf_rows}
}}
'''
    )


GRAPHEME_FILES = ("UnicodeData.txt", "DerivedCoreProperties.txt", "PropList.txt", "Scripts.txt")
# Classes of the conservative grapheme segmenter (uts58.graphemes, D79), in this order;
# the InCB value (None, Consonant, Linker, Extend) is added as 16 * its index.
GRAPHEME_CLASSES = (
    "Other",
    "CR",
    "LF",
    "Control",
    "Extend",
    "ZWJ",
    "Regional_Indicator",
    "SpacingMark",
    "L",
    "V",
    "T",
    "LV",
    "LVT",
    "Maybe_Prepend",
)
INCB_VALUES = ("None", "Consonant", "Linker", "Extend")
# UAX #29 Table 2 (since Unicode 16) gives these Kirat Rai vowel signs the class V.
KIRAT_RAI_V = frozenset((0x16D63, 0x16D67, 0x16D68, 0x16D69, 0x16D6A))


def _unicode_data(path: Path) -> dict[int, tuple[str, str, int]]:
    """{code point: (name, General_Category, Canonical_Combining_Class)}, ranges expanded."""
    out: dict[int, tuple[str, str, int]] = {}
    first = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        fields = raw.split(";")
        cp, name, gc, ccc = int(fields[0], 16), fields[1], fields[2], int(fields[3])
        if name.endswith(", First>"):
            first = cp
            continue
        if name.endswith(", Last>") and first is not None:
            for k in range(first, cp + 1):
                out[k] = (name[1:-7], gc, ccc)
            first = None
            continue
        out[cp] = (name, gc, ccc)
    return out


def grapheme_classes(src: Path) -> list[tuple[int, int, int]]:
    """(first, last, code) of every code point whose class is not Other/None.

    What UAX #29 (Grapheme_Cluster_Break, Table 2) needs that the vendored
    files give exactly: Extend, ZWJ, Regional_Indicator, CR, LF, Hangul
    syllable types, InCB; a subset of Control (unassigned
    Default_Ignorable_Code_Points are left Other: that only loses cuts), a
    superset of SpacingMark, and ``Maybe_Prepend``, a superset of Prepend
    without the data file that lists it: Prepended_Concatenation_Mark plus
    every gc=Lo character of a script that has a virama (ccc=9).  Prepend is
    InSC=Consonant_Preceding_Repha or Consonant_Prefixed (letters of Brahmic
    scripts, each of which has a virama) or Prepended_Concatenation_Mark.
    """
    ucd = _unicode_data(src / "UnicodeData.txt")

    def flag(path: Path, prop: str) -> set[int]:
        return {cp for f, t, v in _ranges(path, lambda v: v == prop) for cp in range(f, t + 1)}

    derived = src / "DerivedCoreProperties.txt"
    extend = flag(derived, "Grapheme_Extend") | set(range(0x1F3FB, 0x1F400))  # + Emoji_Modifier
    pcm = flag(src / "PropList.txt", "Prepended_Concatenation_Mark")
    incb: dict[int, int] = {}
    for raw in derived.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        fields = [f.strip() for f in line.split(";")]
        if len(fields) == 3 and fields[1] == "InCB":
            first, _, last = fields[0].partition("..")
            for cp in range(int(first, 16), int(last or first, 16) + 1):
                incb[cp] = INCB_VALUES.index(fields[2])
    script_of: dict[int, str] = {}
    for f, t, v in _ranges(src / "Scripts.txt", lambda v: True):
        for cp in range(f, t + 1):
            script_of[cp] = v
    virama_scripts = {script_of.get(cp) for cp, (_, _, ccc) in ucd.items() if ccc == 9} - {None, "Common", "Inherited"}
    codes = {name: k for k, name in enumerate(GRAPHEME_CLASSES)}
    out = []
    for cp in sorted(set(ucd) | set(incb) | extend):
        name, gc, _ = ucd.get(cp, ("", "Cn", 0))
        if cp == 0x0D:
            cls = "CR"
        elif cp == 0x0A:
            cls = "LF"
        elif cp == 0x200D:
            cls = "ZWJ"
        elif 0x1F1E6 <= cp <= 0x1F1FF:
            cls = "Regional_Indicator"
        elif cp in extend:
            cls = "Extend"
        elif gc in ("Cc", "Zl", "Zp") or (gc == "Cf" and cp != 0x200C and cp not in pcm):
            cls = "Control"
        elif gc == "Mc" or cp in (0x0E33, 0x0EB3):
            cls = "SpacingMark"
        elif 0xAC00 <= cp <= 0xD7A3:
            cls = "LV" if (cp - 0xAC00) % 28 == 0 else "LVT"
        elif name.startswith("HANGUL CHOSEONG "):
            cls = "L"
        elif name.startswith("HANGUL JUNGSEONG ") or cp in KIRAT_RAI_V:
            cls = "V"
        elif name.startswith("HANGUL JONGSEONG "):
            cls = "T"
        elif cp in pcm or (gc == "Lo" and script_of.get(cp) in virama_scripts):
            cls = "Maybe_Prepend"
        else:
            cls = "Other"
        code = codes[cls] + 16 * incb.get(cp, 0)
        if code:
            out.append((cp, cp, code))
    return merge(out)


def render_graphemes(version: str, src: Path) -> str:
    flat = [x for r in grapheme_classes(src) for x in r]
    header = _generated_header(version, src, GRAPHEME_FILES)
    return (
        "\n".join(header)
        + f"""

\"\"\"Grapheme-cluster classes of Unicode {version} for uts58.graphemes (D79).\"\"\"

# Class names: a code is the index of its class + 16 * the index of its InCB value.
CLASSES = {GRAPHEME_CLASSES!r}
INCB = {INCB_VALUES!r}

# Flat (first, last, code) triples, sorted; code points not covered are Other, InCB None.
GRAPHEME = (
{_int_rows(flat)}
)
"""
    )


def versions() -> list[str]:
    return sorted(
        p.name for p in DATA_DIR.iterdir() if p.is_dir() and all((p / name).is_file() for name in PROPERTY_FILES)
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", action="append", help="version directory (default: all)")
    ap.add_argument("--out-dir", type=Path, default=TABLES_DIR)
    ap.add_argument("--check", action="store_true", help="compare with the files in --out-dir, write nothing")
    args = ap.parse_args(argv)
    stale = 0
    outputs = [(render(v, DATA_DIR / v), args.out_dir / f"{module_name(v)}.py") for v in args.version or versions()]
    outputs += [
        (render_security(v, DATA_DIR / v), args.out_dir / f"security_{module_name(v)}.py")
        for v in args.version or versions()
        if all((DATA_DIR / v / name).is_file() for name in SECURITY_FILES)
    ]
    outputs += [
        (render_graphemes(v, DATA_DIR / v), args.out_dir / f"graphemes_{module_name(v)}.py")
        for v in args.version or versions()
        if all((DATA_DIR / v / name).is_file() for name in GRAPHEME_FILES)
    ]
    if not args.version:
        outputs.append((render_tlds(TLD_FILE), args.out_dir / "tlds.py"))
    for text, target in outputs:
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                print(f"stale: {target}", file=sys.stderr)
                stale += 1
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {target}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
