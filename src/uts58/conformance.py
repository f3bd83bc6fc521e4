"""Readers for the official UTS #58 conformance files (§7) and a runner.

The files are bundled in ``uts58/data/<version>/`` (``17.0.0`` and
``18.0.0``, whose LinkFormattingTest corrects the errata of 17.0.0).
``uts58 conformance`` and the test suite both read them through this module.
They are the only Unicode files in the package: the property files the tables
are generated from stay in the repository's ``tools/data/`` (D67).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .detect.finder import find_links
from .errors import ConformanceFileError
from .spec.escaping import Escape, format_parts, percent_escape
from .spec.formatting import format_url
from .spec.termination import find_link_end
from .unicode.properties import DEFAULT_UNICODE_VERSION, LinkTerm, link_term

__all__ = [
    "DetectionLine",
    "FormattingCase",
    "MarkedLink",
    "Outcome",
    "data_file",
    "detect_marked",
    "erratum",
    "mark_links",
    "maximal_exception",
    "read_detection_test",
    "read_formatting_test",
    "run_detection_file",
    "run_formatting_file",
    "termination_cases",
]

OPEN_MARK, CLOSE_MARK = "⸠", "⸡"
TEST_VERSIONS = ("17.0.0", "18.0.0")


def data_file(version: str, name: str) -> Path:
    """Path of a bundled conformance file (LinkDetectionTest.txt or
    LinkFormattingTest.txt of ``17.0.0`` or ``18.0.0``).

    >>> data_file("18.0.0", "LinkDetectionTest.txt").name
    'LinkDetectionTest.txt'
    """
    path = Path(__file__).parent / "data" / version / name
    if not path.is_file():
        raise FileNotFoundError(f"no bundled file {version}/{name}")
    return path


# --------------------------------------------------------------------------
# LinkFormattingTest.txt


@dataclass(frozen=True)
class FormattingCase:
    """One pair of lines of LinkFormattingTest.txt with its structure comment."""

    line: int  # line number of the source (first) line
    source: str
    expected: str
    scheme: str
    host: str
    path_segments: tuple[str, ...] | None
    query_pairs: tuple[tuple[str, str | None], ...] | None
    fragment: str | None
    directives: tuple[str, ...] = field(default=())

    def build(self, unicode_version: str = DEFAULT_UNICODE_VERSION, escape: Escape = "minimal") -> str:
        """The URL built from the structure comment with :func:`format_parts`:
        the result (second) line, or with ``escape="maximal"`` the fully
        escaped source (first) line (D122)."""
        return (
            self.scheme
            + self.host
            + format_parts(
                path_segments=self.path_segments,
                query_pairs=self.query_pairs,
                fragment=self.fragment,
                directives=self.directives,
                unicode_version=unicode_version,
                escape=escape,
            )
        )


_STRUCTURE = re.compile(r"^#\s*\{(.*)\}\s*$")
_FIELD = re.compile(r"(𝑺|𝑯|𝑷|𝑸|𝑽|𝑭|𝑫)=")


def _parse_structure(body: str) -> list[tuple[str, str]]:
    """``𝑺=https:// 𝑷=a b 𝑸=`` -> [('𝑺', 'https://'), ('𝑷', 'a b'), ('𝑸', '')]."""
    marks = list(_FIELD.finditer(body))
    fields = []
    for k, m in enumerate(marks):
        end = marks[k + 1].start() - 1 if k + 1 < len(marks) else len(body)
        fields.append((m.group(1), body[m.end() : end]))
    return fields


def read_formatting_test(path: Path) -> list[FormattingCase]:
    cases = []
    structure: list[tuple[str, str]] | None = None
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        if line.startswith("#"):
            m = _STRUCTURE.match(line)
            if m:
                structure = _parse_structure(m.group(1))
            continue
        if pending is None:
            pending = (number, line)
            continue
        if structure is None:
            raise ConformanceFileError(f"{path}:{pending[0]}: pair without a structure comment")
        scheme = host = ""
        segments: list[str] | None = None
        pairs: list[tuple[str, str | None]] | None = None
        fragment = None
        directives: list[str] = []
        for key, value in structure:
            if key == "𝑺":
                scheme = value
            elif key == "𝑯":
                host = value
            elif key == "𝑷":
                segments = (segments or []) + [value]
            elif key == "𝑸":
                pairs = (pairs or []) + [(value, None)]
            elif key == "𝑽":
                if not pairs or pairs[-1][1] is not None:
                    raise ConformanceFileError(f"{path}:{number}: 𝑽 without 𝑸")
                pairs[-1] = (pairs[-1][0], value)
            elif key == "𝑭":
                fragment = value
            else:
                directives.append(value)
        cases.append(
            FormattingCase(
                line=pending[0],
                source=pending[1],
                expected=line,
                scheme=scheme,
                host=host,
                path_segments=None if segments is None else tuple(segments),
                query_pairs=None if pairs is None else tuple(pairs),
                fragment=fragment,
                directives=tuple(directives),
            )
        )
        pending, structure = None, None
    if pending is not None:
        raise ConformanceFileError(f"{path}:{pending[0]}: source line without a result line")
    return cases


# Pairs whose source line cannot be read back into the structure the comment
# gives: it contains literal syntax characters that the comment says are data.
# format_url(source) parses them as syntax, so it cannot match the result line (D12).
AMBIGUOUS_SOURCES = {
    "https://example.com/%CE%B1#%CE%B2?%CE%B3=%CE%B4#%CE%B5": "literal '#' in path and query data",
    "https://example.com/%CE%B1/%CE%B2/%CE%B3": "literal '/' in the path segment 'β/γ'",
    "https://example.com?%CE%B1&=%CE%B2&%CE%B3=&%CE%B4": "literal '&' in query key and value",
    "https://example.com?%CE%B1=%CE%B2=%CE%B3=%CE%B4": "literal '=' in query key and value",
    "https://example.com/%CE%B1/b/%3F#c?%CE%B1%CE%B2=%CE%B3&%CE%B6=#%CE%9E&k=v#frag": (
        "literal '/', '#', '&', '=' in path and query data"
    ),
}

# Errata of the 17.0.0 LinkFormattingTest.txt: the result line leaves the
# final Soft character of the last part unescaped, contradicting the last
# step of §4.1 ("percentEscape(cp[n - 1])").  The 18.0.0 file (first
# published as the "dev" revision) corrects every one of them (D11).
ERRATA_17 = "17.0.0 erratum: final Soft character of the last part left unescaped (§4.1 escapes it)"


def erratum(version: str, expected: str, got: str) -> str | None:
    """The documented reason why ``got`` may differ from ``expected``, or None.

    Only the 17.0.0 erratum qualifies, and only in exactly its form: the
    result differs from the expected line by the escaping of a final Soft."""
    if (
        version == "17.0.0"
        and expected
        and link_term(expected[-1], unicode_version=version) is LinkTerm.Soft
        and got == expected[:-1] + percent_escape(expected[-1])
    ):
        return ERRATA_17
    return None


# The source (first) line of each pair is the fully escaped form of the URL
# (D122).  uts58's fully escaped form (escape="maximal") differs from it in
# exactly these ways, each recognized in exactly its form:
# * the five AMBIGUOUS_SOURCES (their literal syntax is data: the first line
#   is another URL than the structure and the result line);
# * a final unmatched Close left literal (the "Escape unmatched brackets"
#   pairs): detection stops before it; uts58 keeps §4.1's escape of it, as the
#   result line has it, so that the form is detected whole;
# * in 17.0.0, first lines with non-ASCII characters left literal (most of the
#   Wikipedia pairs) and a final Soft left literal (the ten lines of D11 and
#   the first lines of the four "Escape soft" pairs).
UNMATCHED_CLOSE = (
    "the first field leaves its final unmatched Close literal, where detection stops"
    " (the fully escaped form keeps §4.1's escape of it, D122)"
)
NOT_FULLY_ESCAPED_17 = "17.0.0 first field is not fully escaped: non-ASCII characters left literal (D122)"
_NON_ASCII = re.compile("[^\x00-\x7f]+")


def maximal_exception(version: str, source: str, got: str) -> str | None:
    """The documented reason why ``got``, a fully escaped form
    (``escape="maximal"``), may differ from the source line ``source``, or
    None.

    >>> source = "https://example.com#%CE%B5(%CE%B6))"
    >>> maximal_exception("18.0.0", source, format_url(source, escape="maximal")) == UNMATCHED_CLOSE
    True
    """
    if source in AMBIGUOUS_SOURCES:
        return AMBIGUOUS_SOURCES[source]
    reasons = []
    if version == "17.0.0" and not source.isascii():
        source = _NON_ASCII.sub(lambda m: "".join(map(percent_escape, m.group())), source)
        reasons.append(NOT_FULLY_ESCAPED_17)
    if got != source:
        reason = erratum(version, source, got) or _unmatched_final_close(version, source, got)
        if reason is None:
            return None
        reasons.append(reason)
    return "; ".join(reasons) or None


def _unmatched_final_close(version: str, source: str, got: str) -> str | None:
    """UNMATCHED_CLOSE if ``got`` is ``source`` with its final Close escaped,
    and detection of ``source`` stops just before that Close."""
    if not (
        source
        and link_term(source[-1], unicode_version=version) is LinkTerm.Close
        and got == source[:-1] + percent_escape(source[-1])
    ):
        return None
    spans = [(link.start, link.end) for link in find_links(source, unicode_version=version)]
    return UNMATCHED_CLOSE if spans == [(0, len(source) - 1)] else None


# --------------------------------------------------------------------------
# LinkDetectionTest.txt


@dataclass(frozen=True)
class MarkedLink:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class DetectionLine:
    line: int
    marked: str  # the line as in the file
    text: str  # without the marks
    links: tuple[MarkedLink, ...]


def read_detection_test(path: Path) -> list[DetectionLine]:
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw or raw.startswith("#"):
            continue
        text_parts: list[str] = []
        links = []
        pos = 0
        start = None
        for ch in raw:
            if ch == OPEN_MARK:
                if start is not None:
                    raise ConformanceFileError(f"{path}:{number}: nested {OPEN_MARK}")
                start = pos
            elif ch == CLOSE_MARK:
                if start is None:
                    raise ConformanceFileError(f"{path}:{number}: {CLOSE_MARK} without {OPEN_MARK}")
                links.append(MarkedLink(start, pos, "".join(text_parts)[start:pos]))
                start = None
            else:
                text_parts.append(ch)
                pos += 1
        if start is not None:
            raise ConformanceFileError(f"{path}:{number}: unclosed {OPEN_MARK}")
        lines.append(DetectionLine(number, raw, "".join(text_parts), tuple(links)))
    return lines


_HOST_END = re.compile(r"[/?#]")
_SCHEME_PREFIX = re.compile(r"(?i)^(?:https?://)?")


def termination_cases(lines: list[DetectionLine]) -> Iterator[tuple[DetectionLine, MarkedLink, int]]:
    """(line, link, host end) for each marked URL link that has a path, query
    or fragment: where §3.5.1 alone must reproduce the marked end.  Email
    links (an ``@`` before the host end) are left to detection."""
    for line in lines:
        for link in line.links:
            prefix = _SCHEME_PREFIX.match(link.text)
            after = prefix.end() if prefix else 0
            m = _HOST_END.search(link.text, after)
            if m is None or "@" in link.text[: m.start()]:
                continue
            yield line, link, link.start + m.start()


# --------------------------------------------------------------------------
# Runner used by ``uts58 conformance``


@dataclass
class Outcome:
    name: str
    passed: int = 0
    failed: list[str] = field(default_factory=list)
    excused: list[str] = field(default_factory=list)  # documented errata / ambiguous sources

    def record(self, line: int, got: str, expected: str, reason: str | None = None) -> None:
        """Count one result: a pass, a documented exception (``reason``), or a failure."""
        if got == expected:
            self.passed += 1
        elif reason:
            self.excused.append(f"line {line}: {reason}")
        else:
            self.failed.append(f"line {line}: got {got!r}, expected {expected!r}")


def run_formatting_file(version: str) -> list[Outcome]:
    """The result (second) lines, from the structure comment and from the
    source line; then the source (first) lines, the fully escaped form
    (D122): from the structure comment, from the result line, and from the
    source line itself (idempotence)."""
    cases = read_formatting_test(data_file(version, "LinkFormattingTest.txt"))
    by_parts = Outcome(f"{version} LinkFormattingTest (structure → format_parts)")
    by_url = Outcome(f"{version} LinkFormattingTest (source → format_url)")
    name = f"{version} LinkFormattingTest, fully escaped source line"
    full_parts = Outcome(f"{name} (structure → format_parts, escape='maximal')")
    full_url = Outcome(f"{name} (result → format_url, escape='maximal')")
    full_again = Outcome(f"{name} (source → format_url, escape='maximal')")
    for case in cases:
        got = case.build(version)
        by_parts.record(case.line, got, case.expected, erratum(version, case.expected, got))
        got = format_url(case.source, unicode_version=version)
        reason = AMBIGUOUS_SOURCES.get(case.source) or erratum(version, case.expected, got)
        by_url.record(case.line, got, case.expected, reason)
        for outcome, got in (
            (full_parts, case.build(version, escape="maximal")),
            (full_url, format_url(case.expected, unicode_version=version, escape="maximal")),
            (full_again, format_url(case.source, unicode_version=version, escape="maximal")),
        ):
            outcome.record(case.line, got, case.source, maximal_exception(version, case.source, got))
    return [by_parts, by_url, full_parts, full_url, full_again]


def mark_links(text: str, links: Iterable[tuple[int, int]]) -> str:
    """``text`` with ⸠ and ⸡ around each (start, end) span, as in the test file."""
    out = []
    last = 0
    for start, end in links:
        out += [text[last:start], OPEN_MARK, text[start:end], CLOSE_MARK]
        last = end
    out.append(text[last:])
    return "".join(out)


def detect_marked(text: str, unicode_version: str = DEFAULT_UNICODE_VERSION) -> str:
    """Run :func:`~uts58.find_links` on ``text`` and mark what it finds."""
    found = find_links(text, unicode_version=unicode_version)
    return mark_links(text, ((link.start, link.end) for link in found))


def run_detection_file(version: str) -> list[Outcome]:
    lines = read_detection_test(data_file(version, "LinkDetectionTest.txt"))
    by_end = Outcome(f"{version} LinkDetectionTest (find_link_end from host end)")
    for line, link, host_end in termination_cases(lines):
        end = find_link_end(line.text, host_end, unicode_version=version)
        by_end.record(line.line, f"link end {end}", f"link end {link.end}")
    whole = Outcome(f"{version} LinkDetectionTest (find_links, every line)")
    for line in lines:
        whole.record(line.line, detect_marked(line.text, version), line.marked)
    return [by_end, whole]
