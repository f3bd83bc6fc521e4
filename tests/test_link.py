"""Link and Host (uts58.link): the values detection reports, and the trust
rule of the policy (D63, D64)."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from uts58 import Finder, Host, Link, OptionError, check_link, find_links
from uts58.link import host_kind
from uts58.properties import DEFAULT_UNICODE_VERSION
from uts58.stream import find_links_in_stream


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
    assert codes(Link(0, 13, "url", "intranet.corp", None, "intranet.corp")) == ["unknown-tld"]


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
# The trust rule (D64): only a link made by a finder skips the host checks


def test_a_hand_built_link_with_a_non_registrable_host_is_refused() -> None:
    finder = Finder()
    assert codes(Link(0, 5, "url", "co.uk", None, "co.uk")) == ["not-registrable"]
    # Nothing a caller passes makes a link trusted: the TLD set detection
    # used is no argument of Link any more (it was the old loophole)...
    with pytest.raises(TypeError, match="tlds"):
        Link(0, 5, "url", "co.uk", None, "co.uk", tlds=finder.tlds)  # type: ignore[call-arg]
    # ...a Host made with the same set's forms is read as its string...
    assert codes(Link(0, 5, "url", "co.uk", None, Host("co.uk", "co.uk", "domain"))) == ["not-registrable"]
    # ...and so is the Host of a link the finder found.
    found = only("example.co.uk", finder)
    assert codes(found) == []
    bare = Link(8, 13, "url", "co.uk", None, found.host.replace("example.", ""))
    assert codes(bare) == ["not-registrable"]


def test_a_hand_built_host_kind_is_worked_out_again() -> None:
    # A Host claiming to be an IP address would skip the label checks.
    # The Link reads it as its string: kind and A-label form are its own.
    spoof = Link(0, 10, "url", "раураl.com", None, Host("раураl.com", "paypal.com", "ipv4"))
    assert (spoof.host.kind, spoof.host.ascii) == ("domain", Host("раураl.com").ascii) != ("ipv4", "paypal.com")
    assert sorted(codes(spoof)) == ["confusable", "mixed-script"]
    assert sorted(codes(Link(0, 10, "url", "раураl.com", None, "раураl.com"))) == ["confusable", "mixed-script"]


def test_a_hand_built_link_must_carry_its_own_ascii_form() -> None:
    # An email's href is built from host.ascii: an A-label form that is not
    # the host's would send the mail elsewhere.
    assert codes(Link(0, 11, "email", "x@bücher.de", None, "bücher.de")) == []
    lying = Link(0, 11, "email", "x@bücher.de", None, "bücher.de", ascii_host="evil.com")
    assert lying.href == "mailto:x@evil.com" and codes(lying) == ["not-registrable"]
    assert codes(Link(0, 9, "url", "BÜCHER.de", None, "BÜCHER.de", ascii_host="XN--BCHER-KVA.DE")) == []


def test_hand_built_ip_addresses_and_localhost() -> None:
    assert codes(Link(0, 16, "url", "http://10.0.0.1/", "http", "10.0.0.1")) == []
    assert codes(Link(0, 19, "url", "http://999.1.1.1/", "http", "999.1.1.1")) == ["not-registrable"]
    assert codes(Link(0, 12, "url", "http://[::1]", "http", "[::1]")) == []
    assert codes(Link(0, 13, "url", "http://[::g]/", "http", "[::g]")) == ["not-registrable"]
    assert codes(Link(0, 16, "url", "http://localhost", "http", "localhost")) == []


def test_hand_built_single_labels_and_schemes() -> None:
    # after a scheme any TLD of TLD syntax, and one label, as detection allows (D52, D54)
    assert codes(Link(0, 20, "url", "https://example.zz/a", "https", "example.zz")) == []
    assert codes(Link(0, 16, "url", "http://intranet/", "http", "intranet")) == []
    assert codes(Link(0, 11, "url", "http://com/", "http", "com")) == ["not-registrable"]
    assert codes(Link(0, 3, "url", "com", None, "com")) == ["not-registrable"]
    assert codes(Link(0, 13, "email", "x@example.zz", None, "example.zz")) == ["unknown-tld"]


def test_a_detected_link_is_not_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the registrable-domain check runs for links built by hand only)
    from uts58.hosts import DomainRules

    link = only("bücher.de")
    calls = []
    real = DomainRules.check

    def counting(self: DomainRules, name: str, **kw: bool) -> str | None:
        calls.append(name)
        return real(self, name, **kw)

    monkeypatch.setattr(DomainRules, "check", counting)
    assert codes(link) == [] and calls == []
    assert codes(Link(0, 9, "url", "bücher.de", None, "bücher.de")) == [] and calls == ["bücher.de"]


def test_the_cjk_adjustment_keeps_trust_and_the_finder() -> None:
    from uts58.security import adjust_cjk_start

    text = "ウェブサイトはexample.corp です。"
    finder = Finder(known_tlds={"corp"})
    adjusted = adjust_cjk_start(text, only(text, finder))
    assert adjusted is not None and adjusted.text == "example.corp" and adjusted.finder is finder
    assert codes(adjusted) == [] and adjusted.host.ascii == "example.corp"
    by_hand = adjust_cjk_start(text, Link(0, 19, "url", text[:19], None, text[:19]))
    assert by_hand is None  # (.corp is no default TLD: nothing valid is left)
