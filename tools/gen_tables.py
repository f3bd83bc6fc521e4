#!/usr/bin/env python3
"""Generate compact lookup tables from the vendored UTS #58 property files.

    python tools/gen_tables.py                 # every version under tools/data/
    python tools/gen_tables.py --check         # exit 1 if a committed table is stale
    python tools/gen_tables.py --version 17.0.0 --out-dir DIR

A version directory is ``tools/data/<version>/`` holding LinkTerm.txt,
LinkBracket.txt, LinkEmail.txt and IdnaMappingTable.txt (and the UTS #39/UCD
files of the security tables) exactly as published by Unicode.  The output is
``src/uts58/tables/v<version with _>.py``: flat tuples of integers that
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
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))  # gen_graphemes.py beside this file (tools/ is no package)
DATA_DIR = ROOT / "tools" / "data"  # D67: generator inputs, never shipped
TABLES_DIR = ROOT / "src" / "uts58" / "tables"

# Order fixes the integer code of each Link_Term value in the tables; the
# runtime (uts58.unicode.properties.LinkTerm) uses the same order.
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
    status = _idna_status(path)

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


def _idna_status(path: Path) -> dict[int, tuple[str, str, str]]:
    """{code point: (status, mapping, IDNA2008 flag)} of an IdnaMappingTable."""
    status: dict[int, tuple[str, str, str]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(";")] + ["", "", ""]
        first, _, last = fields[0].partition("..")
        for cp in range(int(first, 16), int(last or first, 16) + 1):
            status[cp] = (fields[1], fields[2], fields[3])
    return status


def idna_bridge(
    src: Path, previous: Path, added: set[int] | None = None
) -> tuple[dict[int, str], list[tuple[int, int, int]]]:
    """D118: the label characters of ``src``'s IDNA table that ``previous``'s
    lacks, for a URL parser whose IDNA data is ``previous``'s.

    Returns ({new mapped character: its mapping}, [(first, last, stand-in)])
    for the new valid ones.  A stand-in is a character the older table
    already has that UTS #46 treats alike: valid, the same General_Category,
    Bidi_Class and Canonical_Combining_Class, no decomposition, in no
    decomposition or mapping (so neither NFC nor mapping can make or unmake
    it).  New characters without one (stand-in 0) are refused.  ``added``:
    the characters to treat as new instead (the tests' differential check
    on characters the URL parser knows).
    """
    new, old = _idna_status(src / "IdnaMappingTable.txt"), _idna_status(previous / "IdnaMappingTable.txt")
    ucd = _unicode_data(src / "UnicodeData.txt")  # cp: (gc, ccc, bidi, decomposition)
    involved = {int(h, 16) for v in ucd.values() for h in v[3].split() if not h.startswith("<")}
    involved |= {int(h, 16) for v in new.values() if v[0] == "mapped" for h in v[1].split()}
    label_chars = {cp for first, last, _ in domain_chars(src / "IdnaMappingTable.txt") for cp in range(first, last + 1)}
    if added is None:
        added = {cp for cp in label_chars if cp >= 0x80 and old.get(cp, ("disallowed",))[0] == "disallowed"}
    involved |= added
    mapped = {
        cp: "".join(chr(int(h, 16)) for h in new[cp][1].split()) for cp in sorted(added) if new[cp][0] == "mapped"
    }
    candidates: dict[tuple[str, str, str], int] = {}
    for cp in sorted(label_chars):
        gc, ccc, bidi, decomposition = ucd.get(cp, ("Cn", "0", "", ""))
        if cp >= 0x80 and old.get(cp, ("",))[0] == "valid" and not decomposition and cp not in involved:
            candidates.setdefault((gc, ccc, bidi), cp)
    stand_ins = [
        (cp, cp, 0 if ucd[cp][3] else candidates.get(ucd[cp][:3], 0)) for cp in sorted(added) if new[cp][0] != "mapped"
    ]
    return mapped, merge(stand_ins)


def render_bridge(version: str, src: Path, previous: str) -> str:
    mapped, stand_ins = idna_bridge(src, DATA_DIR / previous)
    rows = "\n".join(f"    0x{cp:X}: {target!r}," for cp, target in sorted(mapped.items()))
    refused = sum(last - first + 1 for first, last, s in stand_ins if not s)
    header = _generated_header(version, src, ("IdnaMappingTable.txt", "UnicodeData.txt"))
    return (
        "\n".join(header)
        + f'''

"""IDNA label characters of Unicode {version} that {previous}'s IDNA table lacks (D118)."""

SINCE = "{previous}"

# New characters UTS #46 maps: code point -> mapping.
MAPPED = {{
{rows}
}}

# New valid characters: flat (first, last, stand-in) triples; stand-in 0 ({refused} characters): none, refused.
STAND_INS = (
{_int_rows([x for r in stand_ins for x in r])}
)
'''
    )


# D137: the newest Unicode version whose characters plain_idn takes, below
# ada-url 4.0's IDNA data (17.0) and, for right-to-left letters, below its
# Bidi_Class data, which is older: it reads the right-to-left letters of 14.0
# (U+0870..U+088E, U+10F70..) as left-to-right ones.  Another ada-url is
# checked at run time against PROBES (uts58.hosts.whatwg.plain_idn).
PLAIN_IDN_SINCE = "15.0"
PLAIN_RTL_SINCE = "13.0"
# Characters IDNA2008 allows only in a context (CONTEXTJ: the joiners; CONTEXTO:
# middle dots, keraia, geresh, gershayim, Arabic-Indic digits): never plain.
_CONTEXTUAL = {0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB, 0x200C, 0x200D} | set(range(0x0660, 0x066A))
_CONTEXTUAL |= set(range(0x06F0, 0x06FA))


def _unicode_data(path: Path) -> dict[int, tuple[str, str, str, str]]:
    """{code point: (General_Category, combining class, Bidi_Class, decomposition)} of a UnicodeData.txt."""
    ucd: dict[int, tuple[str, str, str, str]] = {}
    first = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        f = raw.split(";")
        cp = int(f[0], 16)
        if f[1].endswith(", First>"):
            first = cp
        elif f[1].endswith(", Last>") and first is not None:
            ucd.update(dict.fromkeys(range(first, cp + 1), (f[2], f[3], f[4], f[5])))
        else:
            ucd[cp] = (f[2], f[3], f[4], f[5])
    return ucd


def _ages(path: Path) -> dict[int, tuple[int, ...]]:
    """{code point: the version it was assigned in, as a tuple} of a DerivedAge.txt."""
    ages: dict[int, tuple[int, ...]] = {}
    for first, last, value in parse(path)[0]:
        if value:
            ages.update(dict.fromkeys(range(first, last + 1), tuple(int(x) for x in value.split("."))))
    return ages


PLAIN, PLAIN_MARK, PLAIN_RTL = 1, 2, 3  # the classes of plain_idn (D137)


def plain_idn(versions: list[Path], age_path: Path, since: str = PLAIN_IDN_SINCE) -> list[tuple[int, int, int]]:
    """D137: the non-ASCII characters a label may hold that UTS #46, as the
    URL parser runs it (no transitional processing, CheckBidi, CheckJoiners),
    leaves as they are, in every version given, as (first, last, class).

    Each is valid (and valid in IDNA2008: no NV8, XV8) in every IDNA table,
    assigned by ``since``, of combining class 0 and no second character of a
    canonical composition (NFC leaves a run of them as it is: Hangul V and T
    jamo included), and none of IDNA2008's contextual characters.  Classes:
    ``PLAIN`` (no mark, no Bidi_Class R, AL or AN), ``PLAIN_MARK`` (a mark
    of Bidi_Class L or NSM: never first in a label), ``PLAIN_RTL`` (Bidi_Class
    R or AL, no mark, assigned by ``PLAIN_RTL_SINCE``: a name with one is a Bidi domain name, RFC 5893 §1.4,
    whose labels the Bidi rule checks).  A label of these and of ASCII
    letters, digits and hyphens maps to itself with ASCII letters lowered,
    and its A-label is its Punycode (RFC 3492)."""
    floor = tuple(int(x) for x in since.split("."))
    rtl_floor = min(floor, tuple(int(x) for x in PLAIN_RTL_SINCE.split(".")))
    ages = _ages(age_path)
    classes: dict[int, int] | None = None
    for src in versions:
        status = _idna_status(src / "IdnaMappingTable.txt")
        ucd = _unicode_data(src / "UnicodeData.txt")
        seconds = {int(d.split()[1], 16) for _, _, _, d in ucd.values() if d and not d.startswith("<") and " " in d}
        seconds |= set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))  # (Hangul V, T: composed by rule)
        here = {}
        for cp, (kind, _, flag) in status.items():
            if cp < 0x80 or kind != "valid" or flag or cp not in ucd or cp in seconds or cp in _CONTEXTUAL:
                continue
            gc, ccc, bidi, _ = ucd[cp]
            if ccc != "0" or ages.get(cp, (99,)) > floor:
                continue
            if gc.startswith("M"):
                if bidi in ("L", "NSM"):
                    here[cp] = PLAIN_MARK
            elif bidi in ("R", "AL"):
                if ages.get(cp, (99,)) <= rtl_floor:
                    here[cp] = PLAIN_RTL
            elif bidi != "AN":
                here[cp] = PLAIN
        classes = here if classes is None else {cp: c for cp, c in classes.items() if here.get(cp) == c}
    return merge(sorted((cp, cp, c) for cp, c in (classes or {}).items()))


def plain_idn_probes(ranges: list[tuple[int, int, int]], age_path: Path) -> list[tuple[str, str]]:
    """D137: names holding the first and the last character of every range
    assigned since 11.0 (what an older URL parser may lack), a mark after a
    letter, a right-to-left letter between two others, with their A-label
    forms (Python's RFC 3492 codec): what the URL parser must answer for the
    table to be used."""
    ages = _ages(age_path)
    labels = [
        "a" + chr(cp) if kind != PLAIN_RTL else "\u05d0" + chr(cp) + "\u0628"
        for first, last, kind in ranges
        for cp in sorted({first, last})
        if ages[cp] >= (11, 0)
    ]
    probes = []
    for k in range(0, len(labels), 16):
        group = labels[k : k + 16]
        probes.append(
            (".".join(group) + ".com", ".".join("xn--" + x.encode("punycode").decode() for x in group) + ".com")
        )
    return probes


def render_plain_idn(versions: list[str]) -> str:
    dirs = [DATA_DIR / v for v in versions]
    ranges = plain_idn(dirs, DATA_DIR / versions[-1] / "DerivedAge.txt")
    probes = plain_idn_probes(ranges, DATA_DIR / versions[-1] / "DerivedAge.txt")
    probe_rows = "\n".join(f"    ({name!r}, {ascii!r})," for name, ascii in probes)
    count = {c: sum(last - first + 1 for first, last, k in ranges if k == c) for c in (PLAIN, PLAIN_MARK, PLAIN_RTL)}
    header = [f"# Generated by tools/gen_tables.py from tools/data/{', '.join(versions)} -- do not edit."]
    header.append("# Source files (Unicode data, see https://www.unicode.org/terms_of_use.html):")
    for d in dirs:
        for name in ("IdnaMappingTable.txt", "UnicodeData.txt"):
            header += _header_lines(d / name)
    header += _header_lines(dirs[-1] / "DerivedAge.txt")
    return (
        "\n".join(header)
        + f'''

"""Label characters UTS #46 leaves as they are, in Unicode {", ".join(versions)} (D137)."""

SINCE = "{PLAIN_IDN_SINCE}"
RTL_SINCE = "{PLAIN_RTL_SINCE}"

PLAIN, PLAIN_MARK, PLAIN_RTL = {PLAIN}, {PLAIN_MARK}, {PLAIN_RTL}

# Flat (first, last, class) triples: {count[PLAIN]:,} PLAIN, {count[PLAIN_MARK]:,} PLAIN_MARK and
# {count[PLAIN_RTL]:,} PLAIN_RTL code points.
PLAIN_IDN = (
{_int_rows([x for r in ranges for x in r])}
)

# (name, A-label form): what the URL parser in use must answer for PLAIN_IDN to be used.
PROBES = (
{probe_rows}
)
'''
    )


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
    from gen_graphemes import GRAPHEME_FILES, render_graphemes  # (tools/ is on sys.path, below)

    outputs += [
        (render_graphemes(v, DATA_DIR / v), args.out_dir / f"graphemes_{module_name(v)}.py")
        for v in args.version or versions()
        if all((DATA_DIR / v / name).is_file() for name in GRAPHEME_FILES)
    ]
    every = versions()
    outputs += [
        (render_bridge(v, DATA_DIR / v, every[every.index(v) - 1]), args.out_dir / f"bridge_{module_name(v)}.py")
        for v in args.version or every
        if every.index(v) > 0
    ]
    if not args.version:
        outputs.append((render_tlds(TLD_FILE), args.out_dir / "tlds.py"))
        outputs.append((render_plain_idn(every), args.out_dir / "plain_idn.py"))
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
