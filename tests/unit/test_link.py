"""Link and Host (uts58.detect.link): the values detection reports, and the trust
rule of the policy (D63, D64)."""

from __future__ import annotations

import copy
import json
import pickle
import sys
from collections.abc import Callable
from typing import Any

import pytest

from uts58 import Finder, Host, Link, OptionError, Policy, check_link, find_links
from uts58.detect.link import host_kind
from uts58.output.policy import UNVERIFIED
from uts58.stream import find_links_in_stream
from uts58.unicode.properties import DEFAULT_UNICODE_VERSION


def only(text: str, finder: Finder | None = None) -> Link:
    (link,) = (finder or Finder()).find_links(text)
    return link


def codes(link: Link) -> list[str]:
    return [reason.code for reason in check_link(link)]


# --------------------------------------------------------------------------
# Host: set once by detection


@pytest.mark.parametrize(
    ("text", "unicode", "ascii", "kind"),
    [
        ("example.com/a", "example.com", "example.com", "domain"),
        ("EXAMPLE.com", "example.com", "example.com", "domain"),
        ("bücher.de/straße", "bücher.de", "xn--bcher-kva.de", "domain"),
        ("xn--bcher-kva.de", "bücher.de", "xn--bcher-kva.de", "domain"),
        ("пример.рф", "пример.рф", "xn--e1afmkfd.xn--p1ai", "domain"),
        ("x@bücher.de", "bücher.de", "xn--bcher-kva.de", "domain"),
        ("http://192.168.0.1:8080/x", "192.168.0.1", "192.168.0.1", "ipv4"),
        ("http://010.0.0.1/", "8.0.0.1", "8.0.0.1", "ipv4"),  # as the URL parser reads it (octal)
        ("https://[2001:DB8::1]/x", "[2001:db8::1]", "[2001:db8::1]", "ipv6"),
        ("http://localhost:8000/", "localhost", "localhost", "localhost"),
        ("http://LocalHost/", "localhost", "localhost", "localhost"),
    ],
)
def test_detection_sets_the_host_kind_and_forms(text: str, unicode: str, ascii: str, kind: str) -> None:
    host = only(text).host
    assert isinstance(host, Host) and isinstance(host, str)
    assert (host, host.unicode, host.ascii, host.kind) == (unicode, unicode, ascii, kind)
    assert type(host.unicode) is str


def test_bare_ipv4_and_localhost_options_make_their_kinds() -> None:
    finder = Finder(bare_ipv4=True, bare_localhost=True)
    ipv4, local = finder.find_links("10.0.0.1:8080 localhost:3000")
    assert (ipv4.host.kind, ipv4.href) == ("ipv4", "http://10.0.0.1:8080/")
    assert (local.host.kind, local.href) == ("localhost", "http://localhost:3000/")


def test_a_url_without_host_has_the_empty_host_of_kind_domain() -> None:
    # D63: tel: and magnet: have no host; link.host == "" as before, a Host of no labels.
    for text, scheme in [("tel:+1-201-555-0123", "tel"), ("magnet:?xt=urn:btih:c12fe1", "magnet")]:
        host = only(text, Finder(schemes={scheme})).host
        assert host == "" and not host and isinstance(host, Host)
        assert (host.ascii, host.kind) == ("", "domain")


def test_a_non_special_scheme_keeps_a_validated_host() -> None:
    host = only("ssh://git@Example.com/x.git", Finder(schemes={"ssh"})).host
    assert (host, host.ascii, host.kind) == ("example.com", "example.com", "domain")


def test_host_is_a_str_everywhere() -> None:
    host = only("bücher.de").host
    assert host == "bücher.de" and hash(host) == hash("bücher.de")
    assert {host: 1}["bücher.de"] == 1
    assert json.dumps({"host": host}, ensure_ascii=False) == '{"host": "bücher.de"}'
    assert repr(host) == "'bücher.de'" and f"{host}" == "bücher.de" and host.upper() == "BÜCHER.DE"


def test_host_constructor_infers_kind_and_ascii() -> None:
    assert (Host("Bücher.de").ascii, Host("Bücher.de").kind) == ("xn--bcher-kva.de", "domain")
    assert [Host(h).kind for h in ("[::1]", "10.1.2.3", "LOCALHOST", "a.b", "")] == [
        "ipv6",
        "ipv4",
        "localhost",
        "domain",
        "domain",
    ]
    assert Host("LOCALHOST").ascii == "localhost"
    assert Host("a.com", "x.com", "domain").ascii == "x.com"  # (what its maker says; the policy checks it, D64)
    with pytest.raises(OptionError, match="kind"):
        Host("a.com", kind="url")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unicode must be str"):
        Host(b"a.com")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ascii must be str"):
        Host("a.com", 5)  # type: ignore[arg-type]
    assert host_kind("1.2.3") == "domain" and host_kind("[::1]") == "ipv6"


def test_host_and_link_are_immutable() -> None:
    link = only("bücher.de")
    for obj, name in [(link.host, "ascii"), (link.host, "kind"), (link, "host"), (link, "finder"), (link, "start")]:
        with pytest.raises(AttributeError):
            setattr(obj, name, "x")
        with pytest.raises(AttributeError):
            delattr(obj, name)
    # D63: Host has slots and no instance dict to write a kind into
    # (a detected link is trusted on its host's kind).
    host = only("раураl.com").host
    assert Host.__slots__ == ("ascii", "kind")
    for spoof in (lambda: vars(host), lambda: host.__dict__, lambda: setattr(host, "extra", 1)):
        with pytest.raises((TypeError, AttributeError)):
            spoof()
    assert not hasattr(host, "__dict__") and (host.ascii, host.kind) == ("xn--l-7sba6dbr.com", "domain")
    assert sorted(codes(only("раураl.com"))) == ["confusable", "mixed-script"]


# --------------------------------------------------------------------------
# Link: compared, pickled and recorded as before


def test_link_compares_and_records_as_before() -> None:
    link = only("see bücher.de/straße?x=ä#t")
    assert link == Link(4, 26, "url", "bücher.de/straße?x=ä#t", None, "bücher.de")  # position, kind, text
    assert hash(link) == hash(Link(4, 26, "url", "bücher.de/straße?x=ä#t", None, "x"))
    assert link.as_dict() == {
        "start": 4,
        "end": 26,
        "kind": "url",
        "text": "bücher.de/straße?x=ä#t",
        "href": "https://xn--bcher-kva.de/stra%C3%9Fe?x=%C3%A4#t",
        "display": "bücher.de/straße?x=ä#t",
    }
    assert link.unicode_version == DEFAULT_UNICODE_VERSION


@pytest.mark.parametrize("copier", [lambda x: pickle.loads(pickle.dumps(x)), copy.copy, copy.deepcopy])
def test_links_and_hosts_survive_pickling_and_copying(copier) -> None:  # type: ignore[no-untyped-def]
    finder = Finder(known_tlds={"corp", "de"}, schemes={"https", "ssh"})
    for text in ["bücher.de/x", "ssh://git@intranet.corp/r.git", "x@intranet.corp", "https://[::1]/"]:
        link = only(text, finder)
        href = link.href  # computed before: the copy computes its own
        other = copier(link)
        assert other == link and other.href == href and other.display == link.display
        assert (other.host, other.host.ascii, other.host.kind) == (link.host, link.host.ascii, link.host.kind)
        assert type(other.host) is Host and other.finder == finder
        host = copier(link.host)
        assert (host, host.ascii, host.kind, type(host)) == (link.host, link.host.ascii, link.host.kind, Host)


def test_a_pickled_link_of_a_finder_is_still_trusted() -> None:
    finder = Finder(known_tlds={"corp"})
    link = pickle.loads(pickle.dumps(only("intranet.corp", finder)))
    assert link.finder == finder and codes(link) == []
    # the same link by hand: .corp is no TLD of the default set
    assert codes(Link(0, 13, "url", "intranet.corp", None, "intranet.corp")) == ["unverified"]


def test_streamed_links_keep_host_and_finder() -> None:
    finder = Finder(bare_ipv4=True)
    links = list(find_links_in_stream(["see 10.0.0.1:80 and bü", "cher.de"], finder))
    assert [(link.start, link.host, link.host.kind) for link in links] == [
        (4, "10.0.0.1", "ipv4"),
        (20, "bücher.de", "domain"),
    ]
    assert all(link.finder is finder for link in links)


def test_link_records_its_finder() -> None:
    finder = Finder(schemes={"https"})
    assert only("https://example.com", finder).finder is finder
    assert next(find_links("example.com")).finder == Finder()
    assert Link(0, 11, "url", "example.com", None, "example.com").finder is None


# --------------------------------------------------------------------------
# The trust rule (D64): a link no finder made is detected again


def hand_built(link: Link) -> Link:
    """``link`` built by hand from its fields (as another detector would)."""
    host = link.host
    return Link(link.start, link.end, link.kind, link.text, link.scheme, host.unicode, ascii_host=host.ascii)


@pytest.mark.parametrize(
    ("kind", "text", "scheme", "host"),
    [
        ("url", "https://xn--80ak6aa92e.com/", "https", "example.com"),  # аррӏе.com, vouched for by another host
        ("url", "https://раураl.com/", "https", "paypal.com"),
        ("url", "раураl.com", None, "paypal.com"),
        ("url", "https://xn--80ak6aa92e.com/", "https", ""),  # no host: no label to check
        ("url", "https://evil.example/", "https", "localhost"),  # localhost: no check at all
        ("url", "javascript:alert(1)", "javascript", ""),
        ("url", "javascript:alert(1)", None, ""),
        ("url", "JavaScript:alert(1)//x.com", "JavaScript", "x.com"),
        ("url", "file:///etc/passwd", "file", ""),
        ("url", "data:text/html,<script>", "data", ""),
        ("url", "vbscript:x", "vbscript", ""),
        ("url", "a b://x.com/", "a b", "x.com"),  # not scheme syntax
        ("foo", "xmpp:admin@раураl.com", "xmpp", ""),  # no such kind
        ("foo", "example.com", None, "example.com"),
        ("url", "http://intranet/x", "http", "intranet"),  # detection refuses one label (D54)
        ("url", "https://example.com/", None, "example.com"),  # the scheme is part of the link
        ("url", "example.com", "https", "example.com"),
        ("url", "ssh://git@example.com/x", "https", "example.com"),
        ("url", "mailto:x@example.com", "mailto", "example.com"),  # an email, not a URL
        ("email", "x@example.com", "mailto", "example.com"),
        ("email", "https://example.com/", "https", "example.com"),
        ("url", "x@example.com", None, "example.com"),
        ("url", "see example.com", None, "example.com"),  # not the whole text
        ("url", "example.com and example.org", None, "example.com"),
        ("url", "example.com.", None, "example.com"),
        ("url", "co.uk", None, "co.uk"),  # not registrable
        ("url", "example.zz", None, "example.zz"),  # no TLD of the default set
        ("email", "x@example.zz", None, "example.zz"),
        ("url", "http://127.000.000.001/", "http", "127.000.000.001"),  # (detection: 127.0.0.1)
        ("url", "http://999.1.1.1/", "http", "999.1.1.1"),
        ("url", "http://[::g]/", "http", "[::g]"),
        ("url", "10.0.0.1:8080", None, "10.0.0.1"),  # bare_ipv4 is off by default
        ("url", "BÜCHER.de", None, "BÜCHER.de"),  # detection reports the host bücher.de
    ],
)
def test_a_hand_built_link_that_does_not_detect_as_itself_is_unverified(
    kind: str, text: str, scheme: str | None, host: str
) -> None:
    link = Link(0, len(text), kind, text, scheme, host)  # type: ignore[arg-type]
    for policy in (Policy.default(), Policy.strict(), Policy.none()):
        reasons = check_link(link, policy)
        assert [reason.code for reason in reasons] == ["unverified"], reasons
    assert UNVERIFIED == "unverified"


def test_a_hand_built_link_must_carry_the_host_detection_finds() -> None:
    # The href and display are made from the text AND the Host (an email's
    # href from host.ascii, a display from host.unicode): all must agree.
    assert codes(Link(0, 11, "email", "x@bücher.de", None, "bücher.de")) == []
    lying = Link(0, 11, "email", "x@bücher.de", None, "bücher.de", ascii_host="evil.com")
    assert lying.href == "mailto:x@evil.com" and codes(lying) == ["unverified"]
    assert codes(Link(0, 9, "url", "BÜCHER.de", None, "bücher.de", ascii_host="XN--BCHER-KVA.DE")) == ["unverified"]
    assert codes(Link(0, 9, "url", "BÜCHER.de", None, "bücher.de")) == []
    assert codes(Link(0, 11, "url", "раураl.com", None, "paypal.com", ascii_host=Host("раураl.com").ascii)) == [
        "unverified"
    ]


@pytest.mark.parametrize(
    ("text", "finder"),
    [
        ("bücher.de/straße?x=ä#t", Finder()),
        ("раураl.com", Finder()),
        ("https://ja.wikipedia.org/wiki/東京", Finder()),
        ("HTTPS://Example.COM/a", Finder()),
        ("x@bücher.de", Finder()),
        ("MAILTO:x@example.com", Finder()),
        ("аррӏе@аррӏе.com", Finder()),
        ("http://192.168.0.1:8080/x", Finder()),
        ("https://[2001:DB8::1]/x", Finder()),
        ("http://localhost:8000/", Finder()),
        ("helpers.py", Finder(file_extensions=())),  # file extensions are the policy's to judge
        ("example.com/a\u202eb", Finder()),
        ("ssh://git@раураl.com/x.git", Finder(schemes={"ssh"})),
        ("xmpp:admin@раураl.com", Finder(schemes={"xmpp"})),
        ("tel:+1-201-555-0123", Finder(schemes={"tel"})),
        ("Magnet:?dn=日本語&xt=urn:btih:c1", Finder(schemes={"magnet"})),
        ("https://example.zz/a", Finder()),  # any TLD of TLD syntax after a scheme (D52)
        ("example.com/" + "a" * 3000, Finder()),
    ],
)
def test_a_hand_built_link_equal_to_a_detected_one_is_checked_alike(text: str, finder: Finder) -> None:
    found = only(text, finder)
    by_hand = hand_built(found)
    assert by_hand.finder is None and (by_hand.href, by_hand.display) == (found.href, found.display)
    for policy in (Policy.default(), Policy.strict(), Policy.none()):
        assert check_link(by_hand, policy) == check_link(found, policy)
    assert "unverified" not in codes(by_hand)


def test_a_hand_built_link_is_detected_again_with_its_scheme_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58.output import policy as security

    scans: list[tuple[frozenset[str], str]] = []
    real = Finder.find_links

    def recording(self: Finder, text: str) -> Any:
        scans.append((self.schemes, text))
        return real(self, text)

    monkeypatch.setattr(Finder, "find_links", recording)
    link = Link(0, 23, "url", "SSH://git@example.com/x", "SSH", "example.com")
    assert codes(link) == [] and scans == [(frozenset({"ssh"}), "SSH://git@example.com/x")]
    # (a scheme the default finder does not name is no link of it)
    assert "ssh://git@example.com/x" not in [found.text for found in find_links("ssh://git@example.com/x")]
    scans.clear()
    assert codes(Link(0, 13, "email", "x@example.com", None, "example.com")) == []
    assert scans == [(Finder().schemes, "x@example.com")]
    # A detected link is trusted as it is: no scan.
    scans.clear()
    found = next(real(Finder(schemes={"ssh"}), "ssh://git@example.com/x"))
    assert codes(found) == [] and scans == []
    # The finders are kept (few, bounded): one per scheme and Unicode version.
    assert security._redetector(None, DEFAULT_UNICODE_VERSION) is security._redetector(None, DEFAULT_UNICODE_VERSION)
    assert security._redetector.cache_info().maxsize is not None


def test_a_hand_built_email() -> None:
    email = Link(0, 18, "email", "mailto:x@bücher.de", "mailto", "bücher.de")
    assert codes(email) == [] and email.href == "mailto:x@xn--bcher-kva.de"
    spoof = Link(0, 12, "email", "a@раураl.com", None, "раураl.com")
    assert sorted(codes(spoof)) == ["confusable", "mixed-script"]  # detected again: then checked as detected
    assert codes(Link(0, 12, "email", "a@раураl.com", None, "paypal.com")) == ["unverified"]
    assert codes(Link(0, 12, "email", "a@example.com", None, "example.com")) == []  # (start and end are not read)


def steps(link: Link) -> tuple[int, list[str]]:
    """The Python calls ``check_link(link)`` makes (once its caches are warm), and its codes."""
    check_link(link)
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        count += 1

    sys.setprofile(profile)
    try:
        reasons = check_link(link)
    finally:
        sys.setprofile(None)
    return count, [reason.code for reason in reasons]


@pytest.mark.parametrize(
    ("make", "kind", "scheme", "expected"),
    [
        (lambda n: "https://example.com/" + "a" * n, "url", "https", ["too-long"]),
        (lambda n: "x" * n + "@example.com", "email", None, ["too-long"]),
        (lambda n: "example.com " * (n // 12), "url", None, ["unverified"]),  # many links: the first tells
        (lambda n: "https://example.com/" + "a/." * (n // 3), "url", "https", ["unverified"]),  # (ends at the last /)
    ],
)
def test_a_huge_hand_built_link_is_checked_in_linear_time(
    make: Callable[[int], str], kind: str, scheme: str | None, expected: list[str]
) -> None:
    counted = []
    for n in (500_000, 1_000_000):
        text = make(n)
        link = Link(0, len(text), kind, text, scheme, "example.com")  # type: ignore[arg-type]
        count, found = steps(link)
        assert found == expected
        counted.append(count)
    assert counted[1] <= 2 * counted[0] + 50, counted  # twice the text, at most twice the steps


def test_a_hand_built_host_kind_is_worked_out_again() -> None:
    # A Host claiming to be an IP address would skip the label checks.
    # The Link reads it as its string: kind and A-label form are its own.
    spoof = Link(0, 10, "url", "раураl.com", None, Host("раураl.com", "paypal.com", "ipv4"))
    assert (spoof.host.kind, spoof.host.ascii) == ("domain", Host("раураl.com").ascii) != ("ipv4", "paypal.com")
    assert sorted(codes(spoof)) == ["confusable", "mixed-script"]
    assert sorted(codes(Link(0, 10, "url", "раураl.com", None, "раураl.com"))) == ["confusable", "mixed-script"]


def test_a_hand_built_link_with_a_non_registrable_host_is_refused() -> None:
    finder = Finder()
    assert codes(Link(0, 5, "url", "co.uk", None, "co.uk")) == ["unverified"]
    # Nothing a caller passes makes a link trusted: the TLD set detection
    # used is no argument of Link any more (it was the old loophole)...
    with pytest.raises(TypeError, match="tlds"):
        Link(0, 5, "url", "co.uk", None, "co.uk", tlds=finder.tlds)  # type: ignore[call-arg]
    # ...a Host made with the same set's forms is read as its string...
    assert codes(Link(0, 5, "url", "co.uk", None, Host("co.uk", "co.uk", "domain"))) == ["unverified"]
    # ...and so is the Host of a link the finder found.
    found = only("example.co.uk", finder)
    assert codes(found) == []
    bare = Link(8, 13, "url", "co.uk", None, found.host.replace("example.", ""))
    assert codes(bare) == ["unverified"]


def test_a_hand_built_link_must_carry_its_own_ascii_form() -> None:
    # An email's href is built from host.ascii: an A-label form that is not
    # the host's would send the mail elsewhere.
    assert codes(Link(0, 11, "email", "x@bücher.de", None, "bücher.de")) == []
    lying = Link(0, 11, "email", "x@bücher.de", None, "bücher.de", ascii_host="evil.com")
    assert lying.href == "mailto:x@evil.com" and codes(lying) == ["unverified"]
    assert codes(Link(0, 9, "url", "bücher.de", None, "bücher.de", ascii_host="XN--BCHER-KVA.DE")) == ["unverified"]
    assert codes(Link(0, 9, "url", "bücher.de", None, "bücher.de", ascii_host="xn--bcher-kva.de")) == []


def test_hand_built_ip_addresses_and_localhost() -> None:
    assert codes(Link(0, 16, "url", "http://10.0.0.1/", "http", "10.0.0.1")) == []
    assert codes(Link(0, 19, "url", "http://999.1.1.1/", "http", "999.1.1.1")) == ["unverified"]
    assert codes(Link(0, 12, "url", "http://[::1]", "http", "[::1]")) == []
    assert codes(Link(0, 13, "url", "http://[::g]/", "http", "[::g]")) == ["unverified"]
    assert codes(Link(0, 16, "url", "http://localhost", "http", "localhost")) == []
    # (as detection reads them: 010 is octal, so the host is 8.0.0.1)
    assert codes(Link(0, 18, "url", "http://010.0.0.1/", "http", "8.0.0.1")) == []
    assert codes(Link(0, 18, "url", "http://010.0.0.1/", "http", "010.0.0.1")) == ["unverified"]


def test_hand_built_single_labels_and_schemes() -> None:
    # after a scheme any TLD of TLD syntax (D52); one label only as the
    # default finder takes it (single_label_hosts is off: D54)
    assert codes(Link(0, 20, "url", "https://example.zz/a", "https", "example.zz")) == []
    assert codes(Link(0, 16, "url", "http://intranet/", "http", "intranet")) == ["unverified"]
    assert codes(Link(0, 11, "url", "http://com/", "http", "com")) == ["unverified"]
    assert codes(Link(0, 3, "url", "com", None, "com")) == ["unverified"]
    assert codes(Link(0, 13, "email", "x@example.zz", None, "example.zz")) == ["unverified"]


def test_a_detected_link_is_not_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # (only a link built by hand is detected again)
    link = only("bücher.de")
    scans = []
    real = Finder.find_links

    def counting(self: Finder, text: str) -> Any:
        scans.append(text)
        return real(self, text)

    monkeypatch.setattr(Finder, "find_links", counting)
    assert codes(link) == [] and scans == []
    assert codes(hand_built(link)) == [] and scans == ["bücher.de"]


def test_the_cjk_adjustment_keeps_trust_and_the_finder() -> None:
    from uts58.detect.finder import adjust_cjk_start

    text = "ウェブサイトはexample.corp です。"
    finder = Finder(known_tlds={"corp"})
    adjusted = adjust_cjk_start(text, only(text, finder))
    assert adjusted is not None and adjusted.text == "example.corp" and adjusted.finder is finder
    assert codes(adjusted) == [] and adjusted.host.ascii == "example.corp"
    by_hand = adjust_cjk_start(text, Link(0, 19, "url", text[:19], None, text[:19]))
    assert by_hand is None  # (.corp is no default TLD: nothing valid is left)
    text = "ウェブサイトはexample.com です。"
    by_hand = adjust_cjk_start(text, Link(0, 18, "url", text[:18], None, text[:18]))
    assert by_hand is not None and by_hand.finder is None and by_hand.text == "example.com"
    assert codes(by_hand) == []


def test_email_forms_come_together_and_never_crash() -> None:
    # href and display are made in one step (Link._forms); a hand-built email
    # with an empty local-part (which detection never reports) gets a quoted
    # one in its display rather than an IndexError.
    link = Link(0, 6, "email", "@x.com", None, "x.com")
    assert (link.href, link.display) == ("mailto:@x.com", '""@x.com')
    detected = next(find_links("mail x@bücher.de"))
    assert (detected.display, detected.href) == ("x@bücher.de", "mailto:x@xn--bcher-kva.de")


# The forms of a link a finder made are remembered by the finder (D95):
# never a different href or display, bounded, long texts not kept.


def test_remembered_forms_are_the_forms() -> None:
    from test_detection import real_documents

    from uts58.detect.link import link_forms

    finder = Finder(schemes={"http", "https", "ftp", "ssh", "tel"})
    found = 0
    for text in real_documents():
        for link in finder.find_links(text):
            direct = link_forms(link.kind, link.text, link.scheme, link.host, link.unicode_version)
            assert (link.href, link.display) == direct
            again = next(iter(finder.find_links(text[link.start : link.end])))
            assert (again.href, again.display) == direct  # (a hit, when short enough)
            found += 1
    assert found > 500
    assert finder.plan.link_forms.cache_info().hits > 0  # type: ignore[attr-defined]


def test_remembered_forms_are_bounded() -> None:
    from uts58.detect.link import FORMS_CACHE_TEXT_LIMIT
    from uts58.hosts.domains import HOST_CACHE_SIZE

    finder = Finder()
    text = " ".join(f"example.com/{i}" for i in range(HOST_CACHE_SIZE + 300))
    assert all(link.href.endswith(link.text[12:]) for link in finder.find_links(text))
    assert finder.plan.link_forms.cache_info().currsize == HOST_CACHE_SIZE  # type: ignore[attr-defined]
    finder.plan.link_forms.cache_clear()  # type: ignore[attr-defined]
    long_link = "example.com/" + "a" * FORMS_CACHE_TEXT_LIMIT
    assert next(iter(finder.find_links(long_link))).href == "https://" + long_link
    assert finder.plan.link_forms.cache_info().currsize == 0  # type: ignore[attr-defined]


def test_remembered_forms_hold_few_megabytes() -> None:
    # D95: a link text of 64 astral characters (256 bytes of UTF-8) has an href
    # of about 600 characters; 4,096 of them stay under 10 MB in all.  One
    # character more and they are not remembered.
    import gc
    import tracemalloc

    from uts58.hosts.domains import HOST_CACHE_SIZE

    finder = Finder()
    tracemalloc.start()
    try:
        texts = ["http://a.co/" + chr(0x1F600 + i % 50) * 48 + f"{i:04}" for i in range(HOST_CACHE_SIZE)]
        for text in texts:
            (link,) = finder.find_links(text)
            assert len(link.text) == 64 and len(link.href) > 590
        del texts, link
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert finder.plan.link_forms.cache_info().currsize == HOST_CACHE_SIZE  # type: ignore[attr-defined]
    assert retained < 10 * 2**20, retained / 2**20
    finder.plan.link_forms.cache_clear()  # type: ignore[attr-defined]
    (longer,) = finder.find_links("http://a.co/" + "\U0001f600" * 53)
    assert longer.href.startswith("http://a.co/%F0%9F%98%80")
    assert finder.plan.link_forms.cache_info().currsize == 0  # type: ignore[attr-defined]
