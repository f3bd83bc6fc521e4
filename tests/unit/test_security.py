"""UTS #58 §8 policy checks: one test per check, with an example it rejects."""

from __future__ import annotations

import pytest

from uts58 import Finder, Link, Policy, Reason, check_link, find_links, linkify
from uts58.detect.finder import adjust_cjk_start
from uts58.output.policy import TECHNICAL_FILE_EXTENSIONS, escape_bidi_controls, skeleton


def link(text: str):  # type: ignore[no-untyped-def]
    (found,) = find_links(text, preset="all")  # (detection leaves files out, D97)
    return found


def codes(text: str, policy: Policy | None = None) -> list[str]:
    return [r.code for r in check_link(link(text), policy)]


def test_clean_links_pass_every_policy() -> None:
    for text in [
        "example.com",
        "bücher.de/straße",
        "пример.рф",
        "παράδειγμα.ελ",
        "例え.みんな",
        "최고.한국",
        "café.fr",
        "https://ja.wikipedia.org/wiki/東京",
        "x@example.com",
        "www.helpers.py",
    ]:
        assert codes(text, Policy.strict()) == [], text
        assert codes(text) == [], text


def test_unknown_tld_with_known_tlds_override() -> None:
    # D65: the TLDs are the finder's (Policy(known_tlds=…) is gone): what it
    # does not accept it does not find, what it found passes the policy.
    org = Finder(known_tlds=frozenset({"org"}), file_extensions=())
    assert [found.text for found in org.find_links("example.com example.org")] == ["example.org"]
    assert codes_of(next(org.find_links("example.org"))) == []
    # a link not found by a finder is detected again, with the default TLDs (D64)
    assert codes_of(Link(0, 11, "url", "example.zz", None, "example.zz")) == ["unverified"]
    assert codes_of(Link(0, 11, "url", "example.org", None, "example.org")) == []
    with pytest.raises(TypeError, match="known_tlds"):
        Policy.default().with_options(known_tlds={"org"})


def test_identifier_status() -> None:
    # U+01C3 LATIN LETTER RETROFLEX CLICK is a valid IDNA label character
    # but not Identifier_Status=Allowed.
    assert "identifier-status" in codes("aǃb.com")
    assert (
        codes("aǃb.com", Policy.default().with_options(identifier_status=False, restriction=None, confusables=False))
        == []
    )


def test_mixed_scripts() -> None:
    assert "mixed-script" in codes("exampleпример.com")  # Latin + Cyrillic
    assert "mixed-script" in codes("exampleπαράδειγμα.com")  # Latin + Greek
    assert codes("例えexample.jp") == []  # Latin + Han + Hiragana: highly restrictive is fine
    assert codes("ສາກົນexample.com") == []  # Latin + Lao: moderately restrictive
    assert "mixed-script" in codes("ສາກົນexample.com", Policy.strict())
    assert codes("exampleпример.com", Policy.default().with_options(restriction=None, confusables=False)) == []


def test_confusables() -> None:
    assert "confusable" in codes("аррӏе.com")  # all Cyrillic, looks like apple
    assert "confusable" in codes("xn--80ak6aa92e.com")  # the same in A-label form
    assert skeleton("раураl") == "paypal"
    assert not skeleton("bücher").isascii()
    assert codes("аррӏе.com", Policy.none()) == []


def test_bidi_controls() -> None:
    text = "example.com/a\u202eb"
    assert codes(text, Policy.strict()) == ["bidi-control"]
    assert codes(text) == []  # the default escapes them instead
    assert escape_bidi_controls("a\u202eb\u2066c") == "a%E2%80%AEb%E2%81%A6c"
    assert "%E2%80%AE" in linkify(text) and "\u202e" not in linkify(text)
    assert "\u202e" in linkify(text, policy=Policy.none())


def test_file_extensions() -> None:
    # D97: the default policy leaves file names to detection and checks none
    assert Policy().file_extensions is None and Policy.default().file_extensions is None
    assert codes("helpers.py") == [] and codes("allegro.pl") == []
    assert "allegro.pl</a>" in linkify("allegro.pl") and "<a" not in linkify("helpers.py README.md")
    # a policy with a list of its own checks it, and linkify detects with it
    technical = Policy(file_extensions=TECHNICAL_FILE_EXTENSIONS)
    for text in ["helpers.py", "README.md", "archive.zip", "setup.sh", "configure.ac", "Makefile.PL", "find.info"]:
        assert codes(text, technical) == ["file-extension"], text
    assert codes("https://helpers.py", technical) == [] and codes("www.helpers.py", technical) == []
    assert codes("helpers.py", Policy(file_extensions=frozenset())) == []
    polish = Policy(file_extensions=TECHNICAL_FILE_EXTENSIONS - {"pl", "in"})
    assert codes("allegro.pl", technical) == ["file-extension"] and codes("allegro.pl", polish) == []
    assert "<a" not in linkify("allegro.pl", policy=technical)
    assert "allegro.pl</a>" in linkify("allegro.pl", policy=polish)
    # one switch: an explicit option detects; the policy's own list still checks
    assert "<a" not in linkify("allegro.pl", policy=technical, file_extensions=())
    assert "allegro.pl</a>" in linkify("allegro.pl", policy=Policy.none(), file_extensions=("py",))
    assert "<a" not in linkify("helpers.py", policy=Policy.none(), preset="technical")


def test_length_limits() -> None:
    long = "example.com/" + "a" * 3000
    assert codes(long) == ["too-long"]
    assert codes(long, Policy(max_url_length=None)) == []
    assert codes("x" * 250 + "@example.com") == ["too-long"]


def test_cjk_boundary_is_off_by_default_and_documents_its_tradeoff() -> None:
    text = "ウェブサイトはexample.com です。"
    assert linkify(text).startswith('<a href="https://xn--')  # whole run, by default
    assert linkify(text, cjk_boundary=True) == ('ウェブサイトは<a href="https://example.com/">example.com</a> です。')
    trade_off = "最高のSONY製品.com"
    adjusted = adjust_cjk_start(trade_off, link(trade_off))
    assert adjusted is not None and adjusted.text == "製品.com"


def test_reason_and_policy_objects() -> None:
    (reason,) = check_link(link("helpers.py"), Policy(file_extensions={"py"}))
    assert isinstance(reason, Reason) and str(reason).startswith("file-extension: ")
    assert Policy.strict().restriction == "highly" and Policy.strict().bidi == "reject"
    assert Policy.none().file_extensions == frozenset()
    with pytest.raises(ValueError, match="restriction"):
        Policy(restriction="loose")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"link must be a uts58\.Link"):
        check_link("example.com")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"policy must be a uts58\.Policy"):
        check_link(link("example.com"), "strict")  # type: ignore[arg-type]


def test_not_registrable() -> None:
    # find_links never reports a bare public suffix; a Link built by hand
    # (say, from another detector) is detected again, and is no link (D64).
    from uts58 import Link

    assert [found.text for found in find_links("co.uk example.co.uk")] == ["example.co.uk"]
    bare = Link(0, 5, "url", "co.uk", None, "co.uk")
    assert [r.code for r in check_link(bare)] == ["unverified"]
    assert [r.code for r in check_link(Link(0, 11, "url", "example.zz", None, "example.zz"))] == ["unverified"]


def test_opaque_urls_are_checked_word_by_word() -> None:
    (found,) = find_links("xmpp:admin@раураl.com", schemes={"xmpp"})
    assert sorted(codes_of(found)) == ["confusable", "mixed-script"]
    assert "<a " not in linkify("xmpp:admin@раураl.com", schemes={"xmpp"})
    assert "<a " in linkify("magnet:?dn=日本語ファイル&xt=urn:btih:c1", schemes={"magnet"})


def test_a_path_is_evidence_for_the_policy_too() -> None:
    # D56: detection takes a file-extension TLD with a path; so does the policy
    out = linkify("go.dev/doc/ allegro.pl/oferta configure.ac")
    assert out.count("<a ") == 2 and "configure.ac" in out and ">configure.ac<" not in out


def codes_of(found):  # type: ignore[no-untyped-def]
    return [r.code for r in check_link(found)]


def test_policy_defaults() -> None:
    """D24: linkify's default policy has every check on, takes URLs of up to
    2048 characters and email addresses of up to 254, and escapes Bidi
    controls; find_links applies no policy."""
    url = "example.com/" + "a" * (2048 - len("example.com/"))
    assert len(url) == 2048 and codes(url) == [] and codes(url + "b") == ["too-long"]
    email = "x" * (254 - len("@example.com")) + "@example.com"
    assert len(email) == 254 and codes(email) == [] and codes("y" + email) == ["too-long"]
    assert codes("аррӏе.com") != [] and codes("аррӏе.com", Policy.none()) == []
    assert [found.text for found in find_links("аррӏе.com")] == ["аррӏе.com"]
    assert "<a " not in linkify("аррӏе.com")


def test_skeleton_uses_nfd() -> None:
    """D26: the skeleton is NFD before and after the confusables mapping, so a
    precomposed letter and its decomposed spelling have one skeleton."""
    import unicodedata

    for word in ("café", "ÅNGSTRÖM", "한국", "\u1e69", "\u212b"):  # ṩ: two marks; U+212B ANGSTROM SIGN: A + ring
        decomposed = unicodedata.normalize("NFD", word)
        assert decomposed != word
        assert skeleton(word) == skeleton(decomposed)
        assert unicodedata.is_normalized("NFD", skeleton(word))


def test_the_memo_of_admitted_changes_no_answer() -> None:
    """linkify checks each distinct link of a text once (D95): the same answers
    as checking each, on real documents and on links the policy refuses."""
    from test_detection import real_documents

    from uts58.output.policy import admitted

    texts = [*real_documents(), "раураl.com раураl.com helpers.py helpers.py " + "x" * 3000 + ".com"]
    for policy in (Policy.default(), Policy.strict(), Policy(max_url_length=20)):
        memo: dict[tuple[object, ...], bool] = {}
        answers = refused = 0
        for text in texts:
            for link in find_links(text):
                remembered = admitted(link, policy, memo)
                assert remembered == admitted(link, policy)
                answers += 1
                refused += not remembered
        assert answers > 500 and refused > 0 and len(memo) < answers


def test_policy_reads_the_identifier_data_of_the_links_version() -> None:
    """§8 under 18.0 reads 18.0's IdentifierStatus and confusables.txt
    (tools/data/18.0.0/); a link found under 17.0.0 is judged by 17.0.0's."""
    text = "see https://\u0237ava.com/x and http://\u0915\U00011b0a.com/"
    strict = Policy.strict()
    by_version = {
        v: {link.text: check_link(link, strict) for link in find_links(text, unicode_version=v)}
        for v in ("17.0.0", "18.0.0")
    }
    # confusables.txt 18.0 gives U+0237 DOTLESS J the prototype "j"; 17.0 had none.
    assert skeleton("\u0237ava", unicode_version="18.0.0") == "java"
    assert skeleton("\u0237ava", unicode_version="17.0.0") == "\u0237ava"
    assert [r.code for r in by_version["18.0.0"]["https://\u0237ava.com/x"]] == ["identifier-status", "confusable"]
    assert [r.code for r in by_version["17.0.0"]["https://\u0237ava.com/x"]] == ["identifier-status"]
    # U+11B0A (new in 18.0) is Identifier_Status=Allowed in 18.0: its host passes.
    assert by_version["18.0.0"]["http://\u0915\U00011b0a.com/"] == []
    assert "http://\u0915\U00011b0a.com/" not in by_version["17.0.0"]  # not a label character in 17.0
    assert check_link(next(find_links(text, unicode_version="18.0.0")), strict)[0].code == "identifier-status"
