#!/usr/bin/env python3
"""Coverage-guided fuzzing of uts58 with atheris (``make fuzz``).

    python fuzz/fuzz_uts58.py TARGET [libFuzzer options, e.g. -max_total_time=150]

TARGET is one of: find_links, format_url, linkify, linkify_html.  Each
target checks what must hold for any input, beyond "does not crash": links
are ordered, inside the text and equal to their slice; format_url either
raises ValueError or returns a fixed point of detection's host rules;
linkify's HTML parses into <a> elements with http(s)/mailto hrefs only.
A crash is saved by libFuzzer as crash-<hash> and becomes a regression test
in tests/contracts/test_fuzz_regressions.py.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser

import atheris

with atheris.instrument_imports():
    # uts58 loads its modules lazily: import them here to instrument them.
    import uts58
    import uts58.detect.finder
    import uts58.spec.email
    import uts58.kernels._python
    import uts58.spec.escaping
    import uts58.spec.formatting
    import uts58.hosts.domains
    import uts58.output.linkifier
    import uts58.output.policy
    import uts58.spec.termination
    import uts58.hosts.whatwg


def _text(data: bytes) -> str:
    # Any str, lone surrogates included: the library must take them all.
    return atheris.FuzzedDataProvider(data).ConsumeUnicode(len(data))


def find_links(data: bytes) -> None:
    text = _text(data)
    last = 0
    for link in uts58.find_links(text):
        assert last <= link.start < link.end <= len(text), link
        assert text[link.start : link.end] == link.text
        last = link.end
        assert link.href.isascii()


def format_url(data: bytes) -> None:
    text = _text(data)
    try:
        out = uts58.format_url(text)
    except ValueError:
        return
    assert uts58.format_url(out) is not None


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.bad: list[object] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "a" or [k for k, _ in attrs] != ["href"]:
            self.bad.append((tag, attrs))
        elif not (attrs[0][1] or "").startswith(("http://", "https://", "mailto:")):
            self.bad.append((tag, attrs))


def linkify(data: bytes) -> None:
    out = uts58.linkify(_text(data))
    p = _Tags()
    p.feed(out)
    p.close()
    assert not p.bad, p.bad


def linkify_html(data: bytes) -> None:
    uts58.linkify_html(_text(data))


TARGETS = {f.__name__: f for f in (find_links, format_url, linkify, linkify_html)}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(TARGETS)}}} [libFuzzer options]")
    target = TARGETS[sys.argv.pop(1)]
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()
