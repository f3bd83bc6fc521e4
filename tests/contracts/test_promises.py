"""The standard's promises as properties (Hypothesis).

UTS #58 §4 goal 3: a minimally escaped URL between two spaces is detected
whole.  Minimal escaping keeps the resource, is idempotent; detection is
well-formed on any text and agrees with the low-level functions.
"""

from __future__ import annotations

import re

import ada_url
from hypothesis import assume, given
from hypothesis import strategies as st

from uts58 import find_email_start, find_link_end, find_links, format_email, format_url, link_term
from uts58.unicode.properties import LinkTerm

HOSTS = ["example.com", "bücher.de", "пример.рф", "xn--r8jz45g.xn--q9jyb4c", "a.b.example.co.uk", "x.org:8080"]

# Any code point, surrogates included: the library must cope with all of them.
any_text = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=60)
# URL part data: all scalar values, weighted towards what URLs are made of.
part_text = st.lists(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(list("/?#&=+%:~.,;!()[]{}<>'\"-_ 。、（）「」«»‘’")),
        st.sampled_from(["%41", "%2F", "%25", "%FF", "%C3%A9", "%E3%81", ":~:"]),
    ),
    max_size=25,
).map("".join)


@st.composite
def urls(draw: st.DrawFn) -> str:
    url = "https://" + draw(st.sampled_from(HOSTS))
    if draw(st.booleans()):
        url += "/" + draw(part_text)
    if draw(st.booleans()):
        url += "?" + draw(part_text)
    if draw(st.booleans()):
        url += "#" + draw(part_text)
    return url


def _stops_at_mismatched_close(text: str, start: int) -> bool:
    """Whether §3.5.1, run on ``text`` from ``start``, stops at a literal
    Close character.  In a minimally escaped URL every literal Close is one
    that §4.1 found matched (it escapes the others); if detection still
    stops there, the two sections disagree — §4.1 pops the open stack on a
    mismatched Close, §3.5.1 stops (docs/decisions.md D6).  Nothing else
    makes detection stop at a Close that §4.1 kept."""
    end = find_link_end(text, start)
    return end < len(text) and link_term(text[end]) is LinkTerm.Close


@given(urls())
def test_minimal_form_is_detected_whole(url: str) -> None:
    formatted = format_url(url)
    text = " " + formatted + " "
    links = list(find_links(text))
    host_end = 1 + len("https://") + len(re.match(r"[^/?#]*", formatted[8:]).group())  # type: ignore[union-attr]
    if not (len(links) == 1 and links[0].text == formatted):
        # The one documented exception, recognized by testing for it.
        assert _stops_at_mismatched_close(text, host_end), (url, formatted, links)
        return
    assert (links[0].start, links[0].end) == (1, 1 + len(formatted))


_PARSER_KEEPS = {
    # ASCII characters the WHATWG parser leaves literal per component; their
    # escaped and literal forms name the same resource.
    "path": set("!$'()*,.:;=@[]_~|-"),
    "query": set("!$()*,./:;?@[]^_`{|}~-"),
    "fragment": set("!#$&'()*+,./:;=?@[]^_{|}~-"),
}


def _canonical(href: str) -> str:
    """An href with escapes of characters the parser keeps literal decoded in
    each component, so that §4.1's own escapes (a final '.', an unmatched ')')
    compare equal to the literal characters they stand for."""
    m = re.match(r"([^?#]*)(\?[^#]*)?(#.*)?\Z", href, re.S)
    assert m is not None
    out = []
    for value, kind in zip(m.groups(), ("path", "query", "fragment"), strict=True):
        if value:
            keep = _PARSER_KEEPS[kind] - (set("&=+") if kind == "query" else set())

            def unescape(e: re.Match[str], keep: set[str] = keep) -> str:
                ch = chr(int(e[1], 16))
                return ch if ch in keep else e[0].upper()

            out.append(re.sub("%([0-7][0-9A-Fa-f])", unescape, value))
    return "".join(out)


@given(urls())
def test_minimal_escaping_keeps_the_resource(url: str) -> None:
    assert _canonical(ada_url.URL(format_url(url)).href) == _canonical(ada_url.URL(url).href)


_ESCAPE = re.compile(r"(?:%[0-9A-F]{2})+")
_CLEARS = {"/": "/", "?": "=&", "#": "", ":~:": "&,"}


def _popped_on_mismatch(formatted: str) -> bool:
    """Whether §4.1, when it produced ``formatted``, met a Close that did not
    match the Open on top of its stack — and popped it (D6).  Rebuilt from the
    output: a literal bracket was processed as such, an escaped Close was a
    Close that did not match."""
    m = re.match(r"https://[^/?#]*(/[^?#]*)?(\?[^#]*)?(#.*)?\Z", formatted, re.S)
    assert m is not None
    path, query, fragment = m.groups()
    chunks = [(c[0], c[1:]) for c in (path, query) if c]
    if fragment:
        first, *directives = fragment[1:].split(":~:")
        chunks += [("#", first)] + [(":~:", d) for d in directives]
    for initiator, chunk in chunks:
        opens: list[str] = []
        pieces = _ESCAPE.split(chunk)
        escapes = _ESCAPE.findall(chunk)
        for k, piece in enumerate(pieces):
            for ch in piece:
                if ch in _CLEARS.get(initiator, ""):
                    opens.clear()
                elif link_term(ch) is LinkTerm.Open:
                    opens.append(ch)
                elif link_term(ch) is LinkTerm.Close and opens:
                    opens.pop()
            if k < len(escapes):
                decoded = bytes.fromhex(escapes[k].replace("%", "")).decode("utf-8", "replace")
                for ch in decoded:
                    if link_term(ch) is LinkTerm.Close and opens:
                        return True  # escaped although the stack was not empty
    return False


@given(urls())
def test_idempotent(url: str) -> None:
    once = format_url(url)
    if format_url(once) != once:
        # §4.1 popped a mismatched Close: the second pass sees the brackets
        # differently (D6); recognized by testing for exactly that.
        assert _popped_on_mismatch(once), (url, once, format_url(once))


local_part = st.text(st.characters(codec="utf-8", exclude_characters="@\r\n"), min_size=1, max_size=20)


@given(local_part, st.sampled_from(["example.com", "bücher.de", "例え.みんな"]))
def test_minimal_email_is_detected_whole_or_quoted(local: str, domain: str) -> None:
    try:
        formatted = format_email(local + "@" + domain)
    except ValueError:
        return  # not a valid address (controls): nothing to format
    # (D99: an IRC ident's mark, a ban mask's "*" or a nick's "!" at the start
    # of a local-part is read as a reader of a chat log reads it; its own tests)
    assume(formatted[0] not in "~^+=*-" and "!" not in formatted)
    # (D124: a local-part that is a host and a path, `x.al/@example.com`, reads as a URL
    # whose path starts "/@", as profile links are written; its own test)
    assume(not any(link.kind == "url" and link.start == 1 for link in find_links(" " + formatted + " ")))
    links = list(find_links(" " + formatted + " ", urls=False))
    if formatted.startswith('"'):
        assert links == [] or links[0].start > 1  # quoted local-parts are not linked (§5)
    else:
        assert [(link.start, link.text) for link in links] == [(1, formatted)]


@given(any_text)
def test_detection_is_well_formed_on_any_text(text: str) -> None:
    links = list(find_links(text))
    last = 0
    for link in links:
        assert last <= link.start < link.end <= len(text)
        assert text[link.start : link.end] == link.text
        last = link.end
        if link.kind == "email":
            # §5.2's start, or after what D99/D100 strip before it (a nick and
            # "!", an ident's mark, a mask's "*", a terminal escape)
            start = find_email_start(text, text.index("@", link.start, link.end))
            assert start is not None and start <= link.start
            stripped = text[start : link.start]
            assert not stripped or stripped[0] in "~^+=*-" or "!" in stripped or "\x1b" in stripped, stripped
        else:
            authority = re.match(r"(?:[A-Za-z]+://)?[^/?#]*", link.text)
            assert authority is not None
            host_end = link.start + authority.end()
            assert find_link_end(text, host_end) == link.end


@given(any_text, st.integers(min_value=0, max_value=60))
def test_find_link_end_never_goes_back(text: str, start: int) -> None:
    start = min(start, len(text))
    assert start <= find_link_end(text, start) <= len(text)


def spans(text: str) -> list[tuple[int, int, str]]:
    return [(link.start, link.end, link.text) for link in find_links(text)]


@given(any_text, any_text, st.sampled_from([" ", "\n", "\t", "\u3000", "\u2029"]))
def test_a_hard_white_space_separates(a: str, b: str, join: str) -> None:
    combined = spans(a + join + b)
    shift = len(a) + len(join)
    assert combined == spans(a) + [(s + shift, e + shift, t) for s, e, t in spans(b)]


@given(st.lists(any_text, max_size=6))
def test_lines_do_not_matter(lines: list[str]) -> None:
    assume(all("\n" not in line for line in lines))
    text = "\n".join(lines)
    expected = []
    base = 0
    for line in lines:
        expected += [(s + base, e + base, t) for s, e, t in spans(line)]
        base += len(line) + 1
    assert spans(text) == expected


def test_a_host_and_a_path_before_at_reads_as_a_url() -> None:
    """D124: ``x.al/@example.com`` is a host with the path ``/@example.com``
    (``medium.com/@name``), not an address whose local-part ends in "/";
    with ``urls=False`` nothing is reported, and an address without the host
    before its "/" is one."""
    for text in ["0.AL/@example.com", "medium.com/@someone"]:
        assert [(link.kind, link.text) for link in find_links(f" {text} ")] == [("url", text)]
        assert list(find_links(f" {text} ", urls=False)) == []
    assert [(link.kind, link.text) for link in find_links(" a/@example.com ")] == [("email", "a/@example.com")]
