"""Domains with characters newer than the URL parser's IDNA data (D118).

ada-url's UTS #46 tables are one Unicode version behind the newest bundled
one (ada-url 4.0: 17.0), so it refuses every label holding a character new
in 18.0.  Detection takes label characters from the finder's version's
IDNA table; this module gives such a name its A-label form while leaving
every rule of UTS #46 to ada: each new character is replaced by a stand-in
that UTS #46 treats alike (generated: same General_Category, Bidi_Class and
combining class, untouched by mapping and NFC), ada processes the name
(mapping, NFC, hyphens, leading marks, the Bidi rule), and the new
characters are put back where their stand-ins are before the label is
Punycode-encoded (RFC 3492, Python's codec).

>>> from uts58.hosts.domains import domain_to_ascii
>>> to_ascii("a\\u05c8.com", domain_to_ascii)
('xn--a-khc.com', 'a\\u05c8.com')
"""

from __future__ import annotations

import importlib
import re
from bisect import bisect_right
from collections.abc import Callable
from functools import cache
from pathlib import Path

from ..base.regex import char_class
from ..unicode.parts import LABEL_SEPARATORS
from .whatwg import idna_to_unicode

__all__ = ["Bridge", "bridge", "may_apply", "serves", "to_ascii", "to_unicode"]

_SEPARATOR = re.compile("[" + LABEL_SEPARATORS + "]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_MAX_LABEL = 63  # octets of an A-label (RFC 1035)
_JOINERS = ("\u200c", "\u200d")  # CONTEXTJ needs Joining_Type, which no table here has: refused


class Bridge:
    """The newest bundled version's characters that the previous one's IDNA table lacks."""

    __slots__ = (
        "_bmp",
        "_firsts",
        "_lasts",
        "_stand_ins",
        "_supplementary",
        "mapped",
        "since",
        "stand_in_chars",
        "version",
    )

    def __init__(self, version: str, since: str, mapped: dict[int, str], stand_ins: tuple[int, ...]) -> None:
        """``mapped`` and ``stand_ins`` as a generated ``bridge_v*`` module has them."""
        self.version, self.since = version, since
        self.mapped = mapped
        flat = stand_ins
        self._firsts, self._lasts, self._stand_ins = flat[0::3], flat[1::3], flat[2::3]
        ranges = [(f, t) for f, t in zip(self._firsts, self._lasts, strict=True)]
        ranges += [(cp, cp) for cp in self.mapped]
        # Two classes: the BMP one compiles to a bitmap (one step per
        # character); a class with supplementary ranges is a list of ranges
        # tried in turn, asked only of text that has such a character.
        ranges.sort()
        self._bmp = re.compile(char_class([(f, min(t, 0xFFFF)) for f, t in ranges if f <= 0xFFFF]))
        self._supplementary = re.compile(char_class([(max(f, 0x10000), t) for f, t in ranges if t > 0xFFFF]))
        self.stand_in_chars = frozenset(chr(s) for s in self._stand_ins if s)

    def has_new(self, text: str) -> bool:
        """Whether ``text`` holds one of the bridge's characters (none is ASCII)."""
        if self._bmp.search(text) is not None:
            return True
        return _ASTRAL.search(text) is not None and self._supplementary.search(text) is not None

    def stand_in(self, ch: str) -> str | None:
        """The stand-in of a new valid character; None if it has none or is not new."""
        cp = ord(ch)
        k = bisect_right(self._firsts, cp) - 1
        if k < 0 or cp > self._lasts[k] or not self._stand_ins[k]:
            return None
        return chr(self._stand_ins[k])


@cache
def bridge() -> Bridge | None:
    """The bridge of the newest bundled version that has one (loaded once)."""
    tables = Path(__file__).parent.parent / "tables"
    found = sorted(
        (tuple(int(x) for x in p.stem[len("bridge_v") :].split("_")), p.stem) for p in tables.glob("bridge_v*.py")
    )
    if not found:
        return None
    mod = importlib.import_module(f"uts58.tables.{found[-1][1]}")
    return Bridge(".".join(map(str, found[-1][0])), mod.SINCE, mod.MAPPED, mod.STAND_INS)


def serves(version: str) -> bool:
    """Whether the bridge serves ``version`` (which has the bridge's characters)."""
    b = bridge()
    return b is not None and _version_key(version) >= _version_key(b.version)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split(".") if x.isdigit())


def may_apply(name: str) -> bool:
    """Whether the URL parser alone may have refused ``name`` where the bridge would not."""
    b = bridge()
    return b is not None and (("-" in name and "xn--" in name.lower()) or b.has_new(name))


def _decoded(label: str, b: Bridge) -> str | None:
    """An ``xn--`` label that decodes to new characters, decoded; else None.
    (Longer than the DNS's 63 octets: None, before Python's Punycode codec,
    which is quadratic, sees it.)"""
    if len(label) > _MAX_LABEL or label[:4].lower() != "xn--":
        return None
    try:
        decoded = label[4:].lower().encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return None
    return decoded if b.has_new(decoded) else None


def to_ascii(name: str, ada_ascii: Callable[[str], str | None], b: Bridge | None = None) -> tuple[str, str] | None:
    """(A-label form, Unicode form) of a domain with new characters, or None.

    ``ada_ascii`` is the URL parser's domain-to-ASCII.  New characters may be
    written as themselves or in an ``xn--`` label (which must then be the
    label this gives).  None when the name has none, or one without a
    stand-in, or a joiner in its label, or a label whose A-label would pass
    63 octets (the DNS's limit), or when ada refuses the name with stand-ins.
    ``b``: another bridge than :func:`bridge`'s (the tests' differential check).
    """
    b = b or bridge()
    if b is None:
        return None
    labels = _SEPARATOR.split(name)
    written: dict[int, str] = {}  # label index: its xn-- form as written
    if "xn--" in name.lower():
        for k, label in enumerate(labels):
            decoded = _decoded(label, b)
            if decoded is not None:
                labels[k], written[k] = decoded, label.lower()
    if not written and not b.has_new(name):
        return None
    substituted: list[str] = []
    put_back: list[dict[str, list[str]] | None] = []
    for label in labels:
        if not b.has_new(label):
            substituted.append(label)
            put_back.append(None)
            continue
        if any(j in label for j in _JOINERS) or any(c in b.stand_in_chars for c in label):
            return None  # (a stand-in already there could not be told from one put in)
        mapped = "".join(b.mapped.get(ord(c), c) for c in label)
        queues: dict[str, list[str]] = {}
        out = []
        for c in mapped:
            s = b.stand_in(c)
            if s is None:
                if b.has_new(c):
                    return None  # a new character without a stand-in
                out.append(c)
            else:
                queues.setdefault(s, []).append(c)
                out.append(s)
        substituted.append("".join(out))
        put_back.append(queues)
    ascii_name = ada_ascii(".".join(substituted))
    if ascii_name is None or ascii_name.count(".") != len(put_back) - 1:
        return None
    a_labels, u_labels = [], []
    for a, label_queues in zip(ascii_name.split("."), put_back, strict=True):
        if label_queues is None:
            a_labels.append(a)
            u_labels.append(idna_to_unicode(a) if a.startswith("xn--") else a)
            continue
        queues = label_queues
        u = idna_to_unicode(a)  # the stand-in label as UTS #46 processed it
        # Same stand-in, same combining class: NFC's reordering kept their order.
        taken = {s: iter(q) for s, q in queues.items()}
        rebuilt = "".join(next(taken[c]) if c in taken else c for c in u)
        if sum(len(q) for q in queues.values()) != sum(c in taken for c in u):
            return None
        if queues and len(rebuilt) > _MAX_LABEL - 4:
            # Too long for an A-label (Punycode writes at least one character
            # per code point); and Python's Punycode codec is quadratic.
            return None
        # (a label whose new characters all mapped to older ones is ada's already)
        a_labels.append("xn--" + rebuilt.encode("punycode").decode("ascii") if queues else a)
        u_labels.append(rebuilt)
    if any(a_labels[k] != label for k, label in written.items()):
        return None  # a written A-label that is not the one its characters give
    return ".".join(a_labels), ".".join(u_labels)


def to_unicode(ascii_name: str, ada_ascii: Callable[[str], str | None]) -> str | None:
    """The Unicode form of a name whose ``xn--`` labels the URL parser could
    not decode, when they decode to new characters and encode back to
    themselves; else None."""
    found = to_ascii(ascii_name, ada_ascii)
    return None if found is None else found[1]
