"""D118: hosts with characters newer than ada-url's IDNA data.

The finder's version's IDNA table decides which characters stand in a
label; ada-url decides every rule of UTS #46 on the name with stand-ins;
the A-label is Punycode of the name with the new characters put back.
Held-out check: the lines of the official 18.0.0 IdnaTestV2.txt whose
source holds a new character (not looked at while the bridge was written).
"""

from __future__ import annotations

import importlib.util
import re

import pytest
from conftest import DATA, ROOT, read_property_file

import uts58.base.caches
import uts58.hosts.domains
from uts58 import find_links, format_email, format_url, linkify
from uts58.errors import AddressError
from uts58.hosts._idna_bridge import Bridge, bridge, to_ascii, to_unicode
from uts58.hosts.domains import _ada_to_ascii, domain_to_ascii, domain_to_unicode
from uts58.unicode.properties import link_properties

BRIDGE = bridge()
assert BRIDGE is not None and BRIDGE.version == "18.0.0" and BRIDGE.since == "17.0.0"
AGES = read_property_file(DATA / "18.0.0" / "DerivedAge.txt", "")


def _bridged_chars() -> list[str]:
    return [chr(cp) for cp in range(0x80, 0x110000) if not 0xD800 <= cp < 0xE000 and BRIDGE.has_new(chr(cp))]


BRIDGED = _bridged_chars()


def _label_chars(version: str) -> set[int]:
    return {cp for first, last in link_properties(version).domain_ranges() for cp in range(first, last + 1)}


def test_the_bridge_holds_exactly_the_label_characters_new_in_18() -> None:
    """The label characters of 18.0's IDNA table that 17.0's lacks (12,535 of
    the 13,007 code points 18.0 makes valid or mapped; the rest are symbols
    IDNA2008 refuses, NV8); every one was assigned in 18.0 (DerivedAge)."""
    assert {ord(c) for c in BRIDGED} == _label_chars("18.0.0") - _label_chars("17.0.0")
    assert len(BRIDGED) == 12535
    assert {AGES[ord(c)] for c in BRIDGED} == {"18.0"}
    assert len(BRIDGE.mapped) == 88
    assert sum(BRIDGE.stand_in(c) is None for c in BRIDGED) - len(BRIDGE.mapped) == 7  # refused


def test_ada_url_knows_17_and_not_18() -> None:
    """The premise of D118 (ada-url 4.0 carries IDNA 17.0): if this fails,
    ada-url has new data and the bridge is no longer reached; revisit D118."""
    new_letters = [c for c in BRIDGED if BRIDGE.stand_in(c) == "\u01bb"]  # Lo, Bidi L, ccc 0
    assert len(new_letters) > 12000
    assert _ada_to_ascii("a\u01bb.com") == "xn--a-bsa.com"
    assert all(_ada_to_ascii("a" + c + ".com") is None for c in new_letters)
    letters_17 = [cp for cp in _label_chars("17.0.0") if AGES.get(cp) == "17.0"]
    assert len(letters_17) > 4000
    assert all(_ada_to_ascii("a" + chr(cp) + ".com") for cp in letters_17)


@pytest.mark.parametrize(
    ("name", "ascii_form", "unicode_form"),
    [
        ("a\u05c8.com", "xn--a-khc.com", "a\u05c8.com"),
        ("EX\u05c8AMPLE.com", "xn--example-d3i.com", "ex\u05c8ample.com"),  # the other characters mapped by ada
        ("ab\u0558.com", "xn--ab-wcd.com", "ab\u0567.com"),  # U+0558 is mapped (to U+0567) in 18.0
        ("a\u209d.com", "aw.com", "aw.com"),  # U+209D is mapped to "w": nothing new is left
        ("b\u00fccher\u05c8.de", "xn--bcher-kva417f.de", "b\u00fccher\u05c8.de"),
        ("b\u00fccher.a\u05c8\u3002com", "xn--bcher-kva.xn--a-khc.com", "b\u00fccher.a\u05c8.com"),
    ],
)
def test_new_characters_get_their_a_label(name: str, ascii_form: str, unicode_form: str) -> None:
    assert to_ascii(name, _ada_to_ascii) == (ascii_form, unicode_form)
    assert domain_to_ascii(name) == ascii_form
    assert domain_to_unicode(ascii_form) == unicode_form
    assert ascii_form.split(".")[0].removeprefix("xn--").encode().decode("punycode") == unicode_form.split(".")[0] or (
        not ascii_form.startswith("xn--")
    )


def test_what_the_bridge_refuses() -> None:
    assert to_ascii("example.com", _ada_to_ascii) is None  # nothing new: ada alone answers
    assert BRIDGE.stand_in("\u05c9") is None  # (no 17.0 character is treated alike)
    assert domain_to_ascii("a\u05c9.com") is None
    assert domain_to_ascii("a\u200c\u05c8.com") is None  # a joiner: CONTEXTJ needs Joining_Type
    assert domain_to_ascii("a\u01bb\u05c8.com") is None  # a stand-in already in the label
    assert domain_to_ascii("\u05c8a.com") is None  # a leading combining mark (V6), judged by ada on the stand-in
    assert domain_to_ascii("a\u05c8 b.com") is None  # a space is still a space


def test_written_a_labels_decode_only_when_they_round_trip() -> None:
    assert to_unicode("xn--a-khc", _ada_to_ascii) == "a\u05c8"
    assert to_unicode("xn--a-khc.com", _ada_to_ascii) == "a\u05c8.com"
    assert to_unicode("xn--bcher-kva", _ada_to_ascii) is None  # no new character: ada's business
    assert to_unicode("xn--a-", _ada_to_ascii) is None  # not Punycode
    assert to_unicode("example", _ada_to_ascii) is None
    assert domain_to_unicode("xn--a-.com") == "xn--a-.com"  # undecodable stays


def _unescape(field: str) -> str:
    field = re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), field)
    return re.sub(r"\\x\{([0-9A-Fa-f]+)\}", lambda m: chr(int(m.group(1), 16)), field)


# Status codes the WHATWG host parser does not check (CheckHyphens and
# VerifyDnsLength are false; an empty label is allowed; U1 is STD3, off).
_NOT_CHECKED = {"V2", "V3", "A4_1", "A4_2", "X4_2", "U1"}


def test_idna_test_v2_lines_with_new_characters() -> None:
    """Every line of the 18.0.0 IdnaTestV2.txt whose source holds a character
    new in 18.0: ToASCII (nontransitional) as the file gives it, or refused
    where it lists an error the URL parser checks."""
    lines = (DATA / "18.0.0" / "IdnaTestV2.txt").read_text(encoding="utf-8").splitlines()
    checked = refused = 0
    for raw in lines:
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        fields = [_unescape(f.strip()) for f in line.split(";")]
        source = fields[0]
        if not BRIDGE.has_new(source):
            continue
        to_unicode = fields[1] or source
        to_ascii_n = fields[3] or to_unicode
        status = set(re.findall(r"[A-Z][0-9_]+", fields[4] or fields[2]))
        got = domain_to_ascii(source)
        if status - _NOT_CHECKED:
            assert got is None, (raw, got)
            refused += 1
        else:
            assert got == to_ascii_n.lower(), (raw, got)
            checked += 1
    assert (checked, refused) == (7, 42)


def test_detection_under_18_and_17() -> None:
    text = "see https://ex\u05c8ample.com/a\u2e60b next, ex\u05c8ample.com and joe@ex\u05c8ample.com."
    links = list(find_links(text))
    assert [(link.text, link.href, link.display) for link in links] == [
        (
            "https://ex\u05c8ample.com/a\u2e60b",
            "https://xn--example-d3i.com/a%E2%B9%A0b",
            "https://ex\u05c8ample.com/a\u2e60b",
        ),
        ("ex\u05c8ample.com", "https://xn--example-d3i.com/", "ex\u05c8ample.com"),
        ("joe@ex\u05c8ample.com", "mailto:joe@xn--example-d3i.com", "joe@ex\u05c8ample.com"),
    ]
    # 17.0.0 has no U+05C8: the host is what follows it.
    assert [link.text for link in find_links(text, unicode_version="17.0.0")] == [
        "ample.com/a",
        "ample.com",
        "ample.com",
    ]
    # A written A-label of a new character is a host under 18.0 only.
    assert [(link.text, link.display) for link in find_links("go to xn--a-khc.com/x")] == [
        ("xn--a-khc.com/x", "a\u05c8.com/x")
    ]
    assert list(find_links("go to xn--a-khc.com/x", unicode_version="17.0.0")) == []


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_tables", ROOT / "tools" / "gen_tables.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _unicode_data() -> dict[int, tuple[str, str, str]]:
    out, first = {}, 0
    for raw in (DATA / "18.0.0" / "UnicodeData.txt").read_text(encoding="utf-8").splitlines():
        fields = raw.split(";")
        cp = int(fields[0], 16)
        if fields[1].endswith(", First>"):
            first = cp
        for k in range(first if fields[1].endswith(", Last>") else cp, cp + 1):
            out[k] = (fields[2], fields[3], fields[4])  # gc, ccc, Bidi_Class
    return out


def test_stand_ins_reproduce_ada_on_characters_it_knows() -> None:
    """The bridge's steps, run on the 4,000-odd label characters new in 17.0
    (which ada-url knows) as if they were new, against ada-url's own answer,
    each character after and before ASCII, an uppercase letter, a Latin
    letter, a combining mark, a Hebrew and an Arabic letter.

    Letters of Bidi_Class L (most of them): the same answer on every name.
    Marks and right-to-left letters: ada-url's IDNA table knows them, but its
    character properties are older (it takes them for left-to-right letters
    of combining class 0), so on some names ada-url accepts a leading
    combining mark, breaks the Bidi rule or leaves marks out of canonical
    order; there the bridge's answer is UTS #46's, checked below."""
    ucd = _unicode_data()
    added = {cp for cp in _label_chars("17.0.0") if AGES.get(cp) == "17.0"}
    mapped, stand_ins = _generator().idna_bridge(DATA / "18.0.0", DATA / "17.0.0", added)
    fake = Bridge("17.0.0", "16.0.0", mapped, tuple(x for r in stand_ins for x in r))
    contexts = ("a{}", "{}b", "X{}Y", "\u00fc{}", "{}\u0301", "\u05d0{}", "{}\u0628", "a{}\u05b0b")
    same = other = 0
    for cp in sorted(added):
        if fake.stand_in(chr(cp)) is None and cp not in mapped:
            continue
        gc, ccc, bidi = ucd[cp]
        for context in contexts:
            name = context.format(chr(cp)) + ".com"
            ascii_name = _ada_to_ascii(name)
            expected = None if ascii_name is None else (ascii_name, domain_to_unicode(ascii_name))
            got = to_ascii(name, _ada_to_ascii, fake)
            if got == expected:
                same += 1
                continue
            other += 1
            assert gc.startswith("M") or bidi in ("R", "AL"), (name, got, expected)
            if context == "{}b" and gc.startswith("M"):
                assert got is None  # V6: a label does not start with a combining mark
            elif bidi in ("R", "AL") and context in ("a{}", "{}b", "X{}Y", "\u00fc{}"):
                assert got is None  # the Bidi rule: a left-to-right label holds no R or AL
            elif context == "a{}\u05b0b" and gc == "Mn" and int(ccc) > 10:
                assert got is not None and got[1] == "a\u05b0" + chr(cp) + "b.com"  # NFC: ccc 10 before ccc > 10
    assert same > 37000 and other < 400


@pytest.mark.parametrize(
    "text",
    [
        "see a\u209d.com now",  # a new character that maps to an old one
        "see https://a\U00011b0a.com./x now",  # a final separator before the path
        "see xn--a-gd2j\u3002de now",  # an A-label of a new character, an ideographic full stop
        "see xn--a-gd2j.de\u3002/a.b now",
        "see www.xn--a-gd2j.com\uff0e/ now",
    ],
)
def test_every_found_link_has_its_forms(text: str) -> None:
    """Found the review of issue 26: links whose host the bridge made raised
    URLError when their href was asked for."""
    (link,) = find_links(text)
    assert link.href.isascii() and ("xn--" in link.href or "aw.com" in link.href)
    assert [again.href for again in find_links(link.href)] == [link.href]
    assert linkify(text).count("<a ") == 1


def test_a_label_length_is_checked_before_encoding() -> None:
    """A label of new characters whose A-label would pass 63 octets is
    refused before Python's Punycode codec (quadratic) sees it."""
    letter = "\U00018e00"  # new in 18.0, stand-in U+01BB
    assert domain_to_ascii(letter * 59 + ".com") is not None
    assert domain_to_ascii(letter * 60 + ".com") is None
    assert domain_to_ascii("a" + "".join(chr(0x18E00 + k) for k in range(1000)) + ".com") is None
    assert to_unicode("xn--" + "a" * 70 + ".com", _ada_to_ascii) is None


def test_17_gives_what_it_gave_before() -> None:
    """Under 17.0.0 the bridge is not reached (D119)."""
    assert domain_to_ascii("a\u05c8.com", unicode_version="17.0.0") is None
    assert domain_to_unicode("xn--a-khc.com", unicode_version="17.0.0") == "xn--a-khc.com"
    assert format_url("https://xn--a-khc.com/p", unicode_version="17.0.0") == "https://xn--a-khc.com/p"
    with pytest.raises(AddressError):
        format_email("x@a\u05c8.com", unicode_version="17.0.0")
    assert format_email("x@a\u05c8.com") == "x@a\u05c8.com"


def test_format_url_takes_a_host_of_new_characters() -> None:
    assert format_url("https://a\u05c8.com/p") == "https://a\u05c8.com/p" == format_url("https://xn--a-khc.com/p")
    assert format_url("https://A\u05c8.com./p", escape="maximal") == "https://xn--a-khc.com./p"
    assert format_url("a\u05c8\u3002com/p") == "a\u05c8.com/p"
    assert domain_to_unicode("XN--A-KHC.com") == "a\u05c8.com"  # (lower case, as UTS #46 ToUnicode)


def test_a_labels_mix_with_other_labels() -> None:
    for name in ("xn--a-khc.a\u05c8.com", "xn--a-khc.b\u00fccher.com", "XN--A-KHC\u3002com"):
        assert domain_to_ascii(name) is not None, name
    assert domain_to_ascii("xn--a-khc.b\u00fccher.com") == "xn--a-khc.xn--bcher-kva.com"


def test_the_bridge_is_asked_about_host_sized_names_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by make bench (a 1 MB dotted token ran 26× slower): the bridge's
    character class, thousands of ranges, was searched over the whole run.
    Only names a host could be are asked about, and an ASCII one is not searched."""

    asked: list[int] = []
    searched: list[str] = []
    real_may_apply = uts58.hosts.domains.bridge_may_apply

    def may_apply(name: str) -> bool:
        asked.append(len(name))
        return real_may_apply(name)

    real_has_new = Bridge.has_new

    def has_new(self: Bridge, text: str) -> bool:
        searched.append(text)
        return real_has_new(self, text)

    monkeypatch.setattr(uts58.hosts.domains, "bridge_may_apply", may_apply)
    monkeypatch.setattr(Bridge, "has_new", has_new)
    uts58.base.caches.cache_clear()
    assert list(find_links(("ab1." * 300_000) + "com")) == []
    assert list(find_links(("\u00fc1." * 300_000) + "com")) == []
    assert all(n <= 4 * 253 for n in asked)
    assert all(len(text) <= 4 * 253 for text in searched)
