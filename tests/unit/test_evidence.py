"""Issue 22: everyday writing.  Bare names judged by what the text shows
(D97), Message-IDs by their shape (D98), IRC idents and remote logins
(D99), terminal escape sequences (D100); one switch everywhere.

The lines are real text: from the everyday-writing corpus (IRC, Usenet and
mail quoted in Debian's fortune files) and the technical one (Debian's
change logs, manuals and info files), bench/precision/README.md."""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

import uts58
import uts58.markdown.markdown_it
from uts58 import Finder, OptionError, Policy, find_links, linkify
from uts58.cli import main as cli_module
from uts58.detect.addresses import ADDRESS_RULES, address_rule, message_id
from uts58.detect.evidence import CODE_TLDS, EXTENSION_TLDS, NAME_RULES, Name, evidence, multi_label_suffix, name_rule
from uts58.detect.finder import PRESETS, why_not
from uts58.hosts.domains import FILE_EXTENSION_TLDS

DECISIONS = Path(__file__).resolve().parents[2] / "docs" / "decisions.md"


def texts(text: str, **options: object) -> list[str]:
    return [link.text for link in find_links(text, **options)]  # type: ignore[arg-type]


# ---------------------------------------------------------------- D97


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the table: what every peer links, and so must we
        ("Polska: onet.pl, wp.pl i interia.pl", ["onet.pl", "wp.pl", "interia.pl"]),
        ("India: irctc.co.in, sbi.co.in, flipkart.in", ["irctc.co.in", "sbi.co.in", "flipkart.in"]),
        (
            "ftp.pld.org.pl, pkg.go.dev, jane.dev, point.md, news.am, hiiraan.so",
            ["ftp.pld.org.pl", "pkg.go.dev", "jane.dev", "point.md", "news.am", "hiiraan.so"],
        ),
        # real lines of Polish IRC and mail
        ("[19:34] <jack__> updek: archie.icm.edu.pl", ["archie.icm.edu.pl"]),
        ("01:42:00 :     Server : warszawa.irc.pl [[194.145.96.67] Warsaw, Poland]", ["warszawa.irc.pl"]),
        ("Pomagali ci goscie z czytelnia.jezus.pl ;)", ["czytelnia.jezus.pl"]),
        ("                na Microsoft.pl.", ["Microsoft.pl"]),  # a company's site, capitalized
        # a public suffix of more than one label is a domain under any TLD
        ("see tienda.com.py", ["tienda.com.py"]),
    ],
)
def test_domains_of_every_country_are_linked(text: str, expected: list[str]) -> None:
    assert texts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # the list of names that are not hosts
        "README.md main.py config.h.in pam_unix.so #debian.pl alt.pl.comp.os.hacking",
        # code TLDs: files and identifiers in every genre
        "Edit network.target and user.name in setup.sh",
        # upper case under a TLD that is also an extension; build and library files
        "Makefile.PL, Makefile.am, CONTRIBUTING.md, configure.ac, autogen.sh, libc.so, ld.so",
        # an extension before the TLD, a one-letter label
        "libbsd.pc.in => src/libbsd.pc.in, po4a.cfg.in and config.h.in",
        # a change-log entry (real lines of gzip's ChangeLog)
        "\t* gunzip.in, gzexe.in, gzip.c, zcat.in, zdiff.in, zforce.in, zgrep.in:",
        "\t* zgrep.in (with_filename): With -f FILE, if FILE is stdin or not",
        # GNU info files, syslog selectors, man pages, command arguments, code quotes
        "This is grep.info, produced by makeinfo version 6.8 from grep.texi.",
        "File: find.info,  Node: Top",
        "auth.notice;mail.info;news.info",
        "see ld.so(8)",
        "“perl -d:Trace script.pl” - Trace a Perl script",
        "g++     const.cc   -o const",
        "Actual build process builds `po4a.cfg` from `po4a.cfg.in`",
        # siblings: the same stem with other extensions, or after a path
        "bapper.aux bapper.dvi bapper.log bapper.ps bapper.tex",
        " * library/prolog.ps:  prolog. Removed prolog.ps, which wasn't used and",
        # newsgroups, abbreviations, numbers, dates, members, reverse DNS, tool output
        "He is a big star, so post to sci.astro, and sci.space",
        "  -- Joan Brewer on alt.destroy.microsoft",
        "Liste pl.comp.os.linux und it.comp.software",
        "  -- Esarhaddon. (Siglo VII a.de C.) Rey de Asiria.",
        "21.V - 21.VI Merkury",
        "      rst.Open sqlstring, Conn, 3, 3",
        "3.0.0.0.b.e.5.0.e.e.0.8.e.f.f.3.ip6.int and 1.168.192.in-addr.arpa",
        " 4  waw-do-kat.bptnet.pl (195.136.253.1)  44.592 ms  105.273 ms",
        # a wildcard, a git configuration key, a file's noun, other files on the line
        "Apr 14 20:12:24 <Eyck> jak banowali *ppp.tpnet.pl to sie nie odzywalem",
        "    $ git config --global alias.co checkout",
        "The docbook.am makefile hides all the details",
        " * src-release (ETC_SUPPORT): Add fdl.texi and texi2pod.pl.",
        "as.info and as.1 to disappear by explicitly calling make",
        # obfuscated addresses, files a program loads, remote paths, UUCP routes
        "Stefan Bühler <stbuehler at web.de>",
        "Yalçın Kolukısa <yalcink01 (at) yahoo.com>, Aralık 2003",
        "    require 'syscall.ph';               # may need to run h2ph",
        '    example.com:/srv/svn/project" URL 访问它。',
        "   From: atlantis!orstcs!rutgers!usc!cs.utexas.edu!uwm.edu!psuvax1!ward",
        # capitals, build files, a change entry without a bullet, a quoted script
        "  * Note in systemd.NEWS that resolved has moved to a new package",
        "  Remove Makefile.win",
        "  xslt-config.in: Simplify basic library handling (Hugh McMaster),",
        "timestamps.  The 'newest.pl' script simply filters out all the filenames",
        "forme MMmSS.DDs. La valeur de p",
        "and see what happens. You may also have to edit test.pl to make sure",
        "d08ee310438ca124a6149ea5cc21b6313b390dce485576eff96f8722._openpgpkey.fedoraproject.org. IN OPENPGPKEY",
    ],
)
def test_names_the_text_shows_to_be_no_host_are_not_linked(text: str) -> None:
    assert texts(text) == [], text
    for *_, why in why_not(text):  # (each refused name has a reason; "#debian.pl" is D51's, no name)
        assert why and why != "overlaps a link found"


def test_emphasis_and_versions_are_no_evidence() -> None:
    assert texts("*example.com* and *onet.pl*") == ["example.com", "onet.pl"]
    assert texts("version v1.2 of onet.pl, python3.8 on wp.pl") == ["onet.pl", "wp.pl"]
    # the same name again is no sibling of itself; a number first is a host's label
    assert texts("onet.pl, onet.pl; wp.pl wp.pl") == ["onet.pl", "onet.pl", "wp.pl", "wp.pl"]
    assert texts("<djurban> widziales kiedys 18.blondynki.grupowo.ero.pl ?") == ["18.blondynki.grupowo.ero.pl"]
    assert texts("I work at google.com, mail me at jane@example.com") == ["google.com", "jane@example.com"]
    assert texts("see Example.Com or EXAMPLE.COM") == ["Example.Com", "EXAMPLE.COM"]  # (not "systemd.NEWS")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the hostile review's cases: sites in lists, prose and quotes stay links
        ("- onet.pl: news", ["onet.pl"]),
        ("* flipkart.in: shopping", ["flipkart.in"]),
        ("Our No.1 shop is allegro.pl; read Vol.2 on gazeta.pl", ["allegro.pl", "gazeta.pl"]),
        ('We use "allegro.pl" daily', ["allegro.pl"]),
        ("Your allegro.pl package has shipped", ["allegro.pl"]),
        ("more info at onet.pl, install the app from allegro.pl", ["onet.pl", "allegro.pl"]),
        ("learn python at jane.dev", ["jane.dev"]),
        ("join t.me/x or t.me, see x.ai and i.ua", ["t.me/x", "t.me", "x.ai", "i.ua"]),
        ("net.hr, talk.tv, soc.ox.ac.uk, comp.nus.edu.sg", ["net.hr", "talk.tv", "soc.ox.ac.uk", "comp.nus.edu.sg"]),
        ("ONET.PL", ["ONET.PL"]),
        (
            "Visit onet.pl today. I read onet.pl (https://onet.pl/) every day.",
            ["onet.pl", "onet.pl", "https://onet.pl/"],
        ),
        # and the files of a change log are still files when indented, as in one
        ("\t* zgrep.in (usage): Document it", []),
    ],
)
def test_sites_written_like_files_are_still_sites(text: str, expected: list[str]) -> None:
    assert texts(text) == expected


def test_a_long_line_is_read_in_bounded_windows() -> None:
    # a word that starts a shell line, or a file name, 300 characters back on the same line is out of reach
    assert texts("make sure of it. " + "x" * 300 + " site onet.pl") == ["onet.pl"]
    assert texts("Attached notes.txt. " + "y " * 150 + "onet.pl") == ["onet.pl"]


def test_a_latin_letter_goes_on_the_word() -> None:
    # D22 ends an ASCII TLD before CJK letters; a Latin letter continues it
    assert texts("16:43 <@aflinta> ech, /me jak kompilował QT 3.cośtam to miał") == []
    assert texts("see example.com了解") == ["example.com"]


def test_the_evidence_function() -> None:
    assert evidence("see README.md", 4, 13, "readme.md") is not None
    assert evidence("Polska: onet.pl", 8, 15, "onet.pl") is None
    assert evidence("x main.py", 2, 9, "main.py") is not None
    assert evidence("x main.py", 2, 9, "main.py", code_tlds=frozenset()) is None  # (not a code TLD: no evidence)
    assert multi_label_suffix("irctc.co.in") and not multi_label_suffix("flipkart.in")
    assert not CODE_TLDS & EXTENSION_TLDS and CODE_TLDS | EXTENSION_TLDS <= FILE_EXTENSION_TLDS


def test_the_rules_hold_on_every_line_of_the_other_genre() -> None:
    # A guard of the two genres: no domain of these lines (the issue's
    # examples, written in prose) is refused, and no file name of these is linked.
    prose = "Na onet.pl, wp.pl, interia.pl, gazeta.pl i allegro.pl; w Indiach flipkart.in i irctc.co.in."
    assert len(texts(prose)) == 7
    files = "configure.ac, Makefile.in, debian/rules.mk, ltmain.sh and libfoo.la"
    assert texts(files) == []


# ---------------------------------------------------------------- D103


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # placeholders: the registrable label, or metasyntactic words alone
        ("see yourdomain.com and www.yourdomain.com/wp-admin", []),
        ("    username =  pop3_name@somedomain.com", []),
        ("<e-lcamtuf> ze domeny xxxxx.com", []),
        ("wchodzac np na mirca pokazywalo sie w adresie mojadomena.net a nie", []),
        ('verifica a informação da zona DNS de "exemplo.com"', []),
        ("   listed a namespace package ``foo.bar`` without", []),
        ("mail to my-iam-account@somedomain.com.", []),
        # not placeholders: conformance's own foo, a longer word, another label
        ("abc.com foo.accountants foo.香港", ["abc.com", "foo.accountants", "foo.香港"]),
        ("food.com, barcelona.cat, foo.googleapis.com", ["food.com", "barcelona.cat", "foo.googleapis.com"]),
        ("sunsite.foo.edu, jbloggs@foo.com", ["sunsite.foo.edu", "jbloggs@foo.com"]),
        ("xx.com and xxl.com", ["xx.com", "xxl.com"]),
        # real sites and businesses whose names are also placeholder words (the review)
        (
            "domain.com.au/property-profile/12, www.domain.com, info@domena.pl, maxx@xxx.com, sales@mycompany.com.au",
            [
                "domain.com.au/property-profile/12",
                "www.domain.com",
                "info@domena.pl",
                "maxx@xxx.com",
                "sales@mycompany.com.au",
            ],
        ),
        # a written scheme or mailto: is the writer's choice
        (
            "http://www.foo.dom/cgi-bin/program.pl and mailto:root@yourdomain.com",
            ["http://www.foo.dom/cgi-bin/program.pl", "mailto:root@yourdomain.com"],
        ),
    ],
)
def test_placeholder_names_are_not_linked(text: str, expected: list[str]) -> None:
    assert texts(text) == expected
    if not expected:  # (names a finder without the judgement links: D103 refused them)
        assert list(Finder.preset("all").find_links(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("    - sftp-server(8): add a new limits@openssh.com protocol extension that", []),
        ('     - sftp(1): use "users-groups-by-id@openssh.com" sftp-server extension', []),
        ("     The previous sntrup4591761x25519-sha512@tinyssh.org method is replaced", []),
        ("     with sntrup761x25519-sha512@openssh.com. Per its designers, the", []),
        ("verify-required sk-ecdsa-sha2-nistp256@openssh.com …", []),
        ("Ciphers chacha20-poly1305@openssh.com,aes256-gcm@openssh.com", []),
        # people
        ("Yin Huaming <yhmact@pzh-public.sc.cninfo.net>", ["yhmact@pzh-public.sc.cninfo.net"]),
        ("write to openssh@openssh.com or jane-sha@example.org", ["openssh@openssh.com", "jane-sha@example.org"]),
        ("ask jane@example.org: methods differ", ["jane@example.org"]),
        # people and teams, with no SSH context (the review)
        ("Email: bob@acme.com Extension 4421", ["bob@acme.com"]),
        ("jane@stats.uni.edu\nMethods Research Group", ["jane@stats.uni.edu"]),
        ("Reach me at tom@company.com hybrid schedule", ["tom@company.com"]),
        (
            "cert-fr.cossi@ssi.gouv.fr, cert-team@uni-stuttgart.de, aes256-team@company.com",
            ["cert-fr.cossi@ssi.gouv.fr", "cert-team@uni-stuttgart.de", "aes256-team@company.com"],
        ),
    ],
)
def test_ssh_algorithm_and_extension_names_are_not_addresses(text: str, expected: list[str]) -> None:
    assert texts(text) == expected


def test_code_members_and_long_host_names() -> None:
    # a capital last label after a lower-case or camel-case one is code
    assert texts("com.example.Foo or com.example.Foo.A.B") == []
    assert texts("org.freedesktop.DBus.Properties and org.freedesktop.login1.Seat") == []
    assert texts("Example.Com, KERNEL.ORG, Kernel.Org") == ["Example.Com", "KERNEL.ORG", "Kernel.Org"]
    # a sentence that goes on without a space is no code member (the review)
    assert texts("Go to google.com.It is great") != []
    # "comm" is a second label of a country's hierarchy, not a first one
    assert texts("see comm.tu-berlin.de and comm.utoronto.ca") == ["comm.tu-berlin.de", "comm.utoronto.ca"]
    # a one-letter label is a file's stem or extension, not a host's inner label
    assert texts("<czokarek> a urządzę! na do.kat-ar2.z.lodz-r1.tpnet.pl") == ["do.kat-ar2.z.lodz-r1.tpnet.pl"]
    assert texts("config.h.in, config.h.cmake.in, m.in. Apache, B.pl") == []
    # the noun of a module or program, in the languages of the corpora
    assert texts("hey, what about blinkenlights.so module") == []
    assert texts("<maf> debian.pl - skrypt perlowy do debiana ;P") == []
    assert texts("參考 b2g.pl 腳本, update.pl: файл") == []
    assert texts("the hiiraan.so site, onet.pl - portal") == ["hiiraan.so", "onet.pl"]
    # "program" is a TV guide's or an office's (the review), "库存" is stock
    assert texts("Sprawdź teleman.pl - program TV; magazin.md - program de lucru") == ["teleman.pl", "magazin.md"]
    assert texts("onet.pl 库存, onet.pl 程序员") == ["onet.pl", "onet.pl"]


def test_blanked_out_addresses_and_german_newsgroups() -> None:
    assert texts("<@Joey> <xxxxxxxxxxxxxxxxx@privat.oldenburg.de>: host") == []
    assert texts("mail xx@example.de, max@example.de, XXX@example.de") == ["xx@example.de", "max@example.de"]
    assert texts("  -- Lindemann, se0088@aixrs1.hrz.uni-essen.de in de.comm.internet.software") == [
        "se0088@aixrs1.hrz.uni-essen.de"
    ]
    assert why_not("<xxxx@example.de>")[0][::3] == ("xxxx@example.de", "a blanked-out address: nobody can write to it")


def test_uucp_paths_and_underscores_after_an_address() -> None:
    # the first hop of a bang path is a hop too; an exclamation is not
    assert texts("From: Peter Galbavy <wonderland.org!peter@ao.com>") == ["peter@ao.com"]
    assert texts("   erebus.att.com!wcs)") == ["erebus.att.com"]  # (a user last: the cost of not reading "site!It's")
    assert texts("Visit onet.pl! Now, or onet.pl!!") == ["onet.pl", "onet.pl"]
    assert texts("I love reddit.com!It's great") == ["reddit.com"]
    # an address whose domain goes on with "_" is no address at a piece of it (D51)
    assert texts("by S. Whang <whang@toro.kuee.kyoto_u.ac.jp>") == []
    assert texts("jane@example.com_ and jane@example.com_, x") == ["jane@example.com", "jane@example.com"]


def test_why_not_names_placeholders_and_protocol_names() -> None:
    found = why_not("see www.yourdomain.com, you@yourhost.com and the limits@openssh.com extension")
    rules = {r.text: r.rule for r in found}
    assert rules == {
        "www.yourdomain.com": "placeholder",
        "you@yourhost.com": "placeholder",
        "limits@openssh.com": "protocol name",
    }
    assert {r.decision for r in found} == {"D103"} and "SSH" in found[-1].reason
    assert why_not("write to jane@example.org") == []
    off = Finder(file_names=False)
    assert texts("foo.bar and limits@openssh.com extension", finder=off) == ["foo.bar", "limits@openssh.com"]
    assert why_not("foo.bar and limits@openssh.com extension", off) == []


# ---------------------------------------------------------------- presets and the one switch


def test_presets() -> None:
    assert set(PRESETS) == {"technical", "gfm", "all"}
    gfm = Finder.preset("gfm")
    assert texts("www.a.com, b.com, c@d.com, https://e.com", finder=gfm) == ["www.a.com", "c@d.com", "https://e.com"]
    assert texts("onet.pl", preset="technical") == [] and texts("README.md", preset="all") == ["README.md"]
    assert Finder.preset("gfm", emails=False) == Finder(bare_domains=False, emails=False)
    # GFM has no bare domain, with a path or a port either
    assert texts("github.com/user/repo example.com:8080 www.a.com/x", finder=gfm) == ["www.a.com/x"]
    assert Finder().with_options(preset="gfm") == gfm
    assert Finder(emails=False).with_options(preset="technical") == Finder.preset("technical", emails=False)
    with pytest.raises(OptionError, match="preset"):
        Finder().with_options(preset="github")
    # a pickle with some options missing is refused, not filled with defaults
    from uts58.detect.finder import _restore
    from uts58.detect.options import FINDER_OPTIONS

    names = FINDER_OPTIONS.names
    with pytest.raises(TypeError, match=f"holds {len(names)} options"):
        _restore(tuple(getattr(Finder(bare_ipv4=True), name) for name in names[:10]))
    assert pickle.loads(pickle.dumps(gfm)) == gfm and repr(gfm) == "Finder(bare_domains=False)"
    with pytest.raises(OptionError, match="preset"):
        Finder.preset("github")
    with pytest.raises(TypeError, match="name"):
        Finder.preset(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unexpected keyword argument 'url'"):
        Finder.preset("gfm", url=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="file_names must be bool"):
        Finder(file_names=1)  # type: ignore[arg-type]


def test_one_switch_in_every_entry_point() -> None:
    text = "onet.pl helpers.py"
    assert linkify(text).count("<a ") == 1
    assert linkify(text, file_extensions=()).count("<a ") == 2  # (was a TypeError)
    assert linkify(text, finder=Finder(file_extensions=())).count("<a ") == 2  # (was undone by the policy)
    assert linkify(text, preset="technical").count("<a ") == 0
    assert linkify("www.a.com b.com", preset="gfm").count("<a ") == 1
    assert uts58.linkify_html(f"<p>{text}</p>", preset="technical").count("<a ") == 0
    md = (
        MarkdownIt("commonmark", {"linkify": True})
        .enable("linkify")
        .use(uts58.markdown.markdown_it.plugin, preset="gfm")
    )
    assert md.render("see onet.pl and www.a.com").count("<a ") == 1
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify").use(uts58.markdown.markdown_it.plugin)
    assert md.render(text).count("<a ") == 1
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    uts58.markdown.markdown_it.use(md, Policy(file_extensions={"pl"}))
    assert md.render(text).count("<a ") == 0  # (the policy refuses onet.pl; detection, helpers.py: D65)
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    uts58.markdown.markdown_it.use(md, Policy(file_extensions={"pl"}), file_extensions=())
    assert md.render(text).count("<a ") == 1 and "helpers.py</a>" in md.render(text)
    from uts58.templates import django_filter, linkify_filter, parse_argument

    assert parse_argument("nofollow, preset=gfm") == {"preset": "gfm", "rel": "nofollow"}
    assert django_filter("onet.pl www.a.com", "preset=gfm", autoescape=False).count("<a ") == 1
    assert django_filter("onet.pl", "preset=technical", autoescape=False) == "onet.pl"
    assert str(linkify_filter(text, preset="all")).count("<a ") == 2
    with pytest.raises(OptionError, match="preset"):
        linkify(text, preset="github")


def test_cli_switches_and_reasons(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    def run(*argv: str) -> tuple[int, str]:
        code = cli_module.main(list(argv))
        return code, capsys.readouterr().out

    code, out = run("check", "README.md", "onet.pl", "main.py", "sci.space")
    assert code == 1
    assert "README.md: not a link" in out and "  README.md: file name: upper-case letters" in out
    assert "onet.pl: ok (url, href https://onet.pl/)" in out
    assert "  main.py: file name or identifier: .py" in out and "  sci.space: newsgroup name" in out
    code, out = run("check", "--preset", "technical", "onet.pl")
    assert code == 1 and "onet.pl: file name or identifier: .pl" in out
    code, out = run("check", "--file-extensions", "none", "main.py")
    assert code == 0 and out.startswith("main.py: ok")
    code, out = run("check", "--preset", "gfm", "onet.pl")
    assert code == 1 and "scheme or www." in out
    with pytest.raises(SystemExit):
        run("detect", "--preset", "github", "-")
    assert "invalid choice" in capsys.readouterr().err


# ---------------------------------------------------------------- D98


@pytest.mark.parametrize(
    "line",
    [
        "  -- Larry Wall in <199710161841.LAA13208@wall.org>",
        "  -- Larry Wall in <1994Apr6.184419.3687@netlabs.com>",
        "  -- Larry Wall in <7874@jpl-devvax.JPL.NASA.GOV>",
        "  -- Larry Wall in <1992Jan10.201804.11926@netlabs.com",  # (a line cut before its ">")
        "Nell'articolo <2267@speedy.mcnc.org>, spl@duck.ncsc.org (Steve Lamont)",
        "     <20031104211846.GK13131@deadbeast.net> discussing",
        "In article <3C8E1234.5060708@netscape.com> you wrote",
        "References: <Pine.LNX.4.44.0201071234230.1234-100000@host.example.org>",
        "# pl.comp.os.linux, <slrnbu68qh.nqb.gotar@os.mil.gov.pl>",
        "2020-01-19:20200119135241.GA4970@gmail.com:",  # (Mutt's shape needs no "<")
    ],
)
def test_message_ids_are_not_addresses(line: str) -> None:
    found = texts(line)
    assert all("@" not in text or not re.search(r"[0-9]{4}", text.split("@")[0]) for text in found), found
    assert not any(text.endswith(("wall.org", "netlabs.com", "deadbeast.net", "netscape.com")) for text in found)


def test_message_id_shapes() -> None:
    assert texts("Jan <12345678@qq.com>, <john.smith1985@gmail.com>") == [
        "12345678@qq.com",
        "john.smith1985@gmail.com",
    ]
    # numbers people have as mailboxes: a student's, a phone's, a date in a name
    real = [
        "张三 <2019123456@stu.xjtu.edu.cn>",
        "<13812345678@vip.163.com>",
        "<123456@student.uw.edu.pl>",
        "Anna <anna.nowak.19900315@gmail.com>",
    ]
    for line in real:
        assert len(texts(line)) == 1, line
    assert message_id("8cceb9$1@news.example.org", "news.example.org")
    assert not message_id("u1234567", "anu.edu.au")
    # Gnus's Message-IDs, bracketed or in a change log's "date:id:" (D103)
    assert texts("  -- Henning Makholm in <yahsmr7dk9k.fsf@pc-043.diku.dk>") == []
    assert texts("2016-05-26:87bn3ssqg0.fsf@ritchie.wxcvbn.org: fix") == []
    assert texts("Jane <jane.fsf@example.org>, <87654321@qq.com>") == ["jane.fsf@example.org", "87654321@qq.com"]


# ---------------------------------------------------------------- D99


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("[nick(~user@host.pl)] hi", ["user@host.pl"]),
        ("nick!~user@host.pl", ["user@host.pl"]),
        (
            "[10:54.08] [ `CroW`!~rkwas@pd88.wloclawek.sdi.tpnet.pl ] skad stukasz ?",
            ["rkwas@pd88.wloclawek.sdi.tpnet.pl"],
        ),
        ("*** Join: x (^q84@linux.core.net.pl)", ["q84@linux.core.net.pl"]),
        ("mail -john@example.com", ["-john@example.com"]),  # (a leading "-" kept where no IRC form shows)
        ("Nov 09 16:52:06 <Verdan> 17:15    1 *!*@g3.pl: CRAP MSGS", []),  # a ban mask
        ("<evilgirl> ssh opac@e3000.bs.katowice.pl 'id'", []),  # a login
        ("ssh -p 2222 user@example.com and mail user@example.com", ["user@example.com"]),
        # emphasis is no mask; a written mailto: keeps its whole local-part
        ("Write to *jane@example.com* or **jane@example.org**", ["jane@example.com", "jane@example.org"]),
        ("*!bero@main.elektron.pl", ["bero@main.elektron.pl"]),
        # a mark with nothing after it is the local-part itself (Hypothesis found it)
        ("mail ~@example.com or ^@example.org", ["~@example.com", "^@example.org"]),
        (
            "mailto:jane!x@example.com and mailto:a*b@example.com",
            ["mailto:jane!x@example.com", "mailto:a*b@example.com"],
        ),
    ],
)
def test_irc_idents_and_logins(line: str, expected: list[str]) -> None:
    assert texts(line) == expected


# ---------------------------------------------------------------- D100


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("\x1b[0;36mhttps://www.debian.org/doc/\x1b[;m", ["https://www.debian.org/doc/"]),
        ("\x1b[1mwww.debian.org\x1b[0m and \x1b[32mjoe@example.com\x1b[0m", ["www.debian.org", "joe@example.com"]),
        ("x\x1b[1;31monet.pl\x1b[m", ["onet.pl"]),
        ("mhttps://example.com/", []),  # (no escape: still another scheme)
    ],
)
def test_terminal_escapes_are_separators(line: str, expected: list[str]) -> None:
    assert texts(line) == expected
    assert texts(line * 3) == expected * 3


def test_terminal_escapes_in_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    from pathlib import Path

    f = Path(str(tmp_path)) / "log.txt"
    f.write_text("\x1b[0;36mhttps://www.debian.org/doc/\x1b[;m\n", encoding="utf-8")
    assert cli_module.main(["detect", str(f)]) == 0
    out = capsys.readouterr().out
    assert "⸠https://www.debian.org/doc/⸡" in out and "⸠\x1b" not in out


# ---------------------------------------------------------------- D102


def test_cjk_prose_is_an_opt_in() -> None:
    ja = "詳しくはhttps://ja.wikipedia.org/wiki/東京を見てください。メールはtaro@example.jpまで。"
    assert texts(ja) == ["https://ja.wikipedia.org/wiki/東京を見てください。メールはtaro@example.jpまで"]  # §3.5.1
    assert texts(ja, cjk_prose=True) == ["https://ja.wikipedia.org/wiki/東京を見てください", "taro@example.jp"]
    zh = "例如 “http://deb.debian.org/debian/dists/unstable/Release”，内容如下。请将错误报告发送至bug-sed@gnu.org。"
    assert texts(zh, cjk_prose=True) == ["http://deb.debian.org/debian/dists/unstable/Release", "bug-sed@gnu.org"]
    # a name of CJK letters alone, and a path of them without punctuation, stay whole
    assert texts("Mail アルベルト@example.com", cjk_prose=True) == ["アルベルト@example.com"]
    assert texts("https://ja.wikipedia.org/wiki/東京都 を", cjk_prose=True) == ["https://ja.wikipedia.org/wiki/東京都"]
    assert linkify(ja, cjk_prose=True).count("<a ") == 2
    assert Finder(cjk_prose=True) != Finder() and repr(Finder(cjk_prose=True)) == "Finder(cjk_prose=True)"


def test_cjk_prose_in_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    from pathlib import Path

    f = Path(str(tmp_path)) / "ja.txt"
    f.write_text(
        "詳しくはhttps://ja.wikipedia.org/wiki/東京を見てください。メールはtaro@example.jpまで。\n", encoding="utf-8"
    )
    assert cli_module.main(["detect", "--cjk-prose", str(f)]) == 0
    assert (
        capsys.readouterr().out
        == "詳しくは⸠https://ja.wikipedia.org/wiki/東京を見てください⸡。メールは⸠taro@example.jp⸡まで。\n"
    )


# ---------------------------------------------------------------- the rules, by name

# For each rule that finds a file: a text and the name in it that this rule,
# and no rule before it, refuses.
RULE_CASES = {
    "underscore": ("see my_file.com here", "my_file.com"),
    "initial": ("by a.de C. Jones", "a.de"),
    "number or date": ("on 21.de we met", "21.de"),
    "code member": ("call rst.Open now", "rst.Open"),
    "mixed-case TLD": ("format MMmSS.DDs ok", "MMmSS.DDs"),
    "capital TLD": ("read systemd.NEWS now", "systemd.NEWS"),
    "build file": ("edit Makefile.win now", "Makefile.win"),
    "UUCP hop": ("path usc!cs.utexas.edu!uwm.edu!psuvax1 x", "cs.utexas.edu"),
    "reverse DNS": ("zone 1.168.192.in-addr.arpa x", "1.168.192.in-addr.arpa"),
    "wildcard": ("match *ppp.example.net here", "ppp.example.net"),
    "git config key": ("git config --global alias.co checkout", "alias.co"),
    "address with at": ("mail <jane at example.org> now", "example.org"),
    "loaded file": ("require 'syscall.ph';", "syscall.ph"),
    "remote path": ("scp example.com:/srv/svn .", "example.com"),
    "network tool output": ("hop gw.example.net (192.0.2.1) 3 ms", "gw.example.net"),
    "newsgroup": ("see sci.space today", "sci.space"),
    "code TLD": ("run main.py now", "main.py"),
    "upper-case name": ("see README.md now", "README.md"),
    "one-letter or numeric label": ("see m.in now", "m.in"),
    "extension before the TLD": ("see po4a.cfg.in now", "po4a.cfg.in"),
    "build or library file": ("see libfoo.la now", "libfoo.la"),
    "example file": ("see test.pl now", "test.pl"),
    "syslog selector": ("log kern.info there", "kern.info"),
    "man page or code": ("see `stuff.pl` now", "stuff.pl"),
    "named as a file": ("the file foo2.pl now", "foo2.pl"),
    "change-log entry": ("\t* zgrep.in: Fix it", "zgrep.in"),
    "command argument": ("perl -c thing.pl", "thing.pl"),
    "path or sibling nearby": ("see lib/prolog.ps and prolog.ps", "prolog.ps"),
    "file noun": ("the newest.pl script", "newest.pl"),
    "files on the line": ("copy x.txt and newest.pl", "newest.pl"),
}


def _rule_of(text: str, name: str, **kwargs: Any) -> str | None:
    s = text.rindex(name) if name == "prolog.ps" else text.index(name)
    found = name_rule(text, s, s + len(name), name.lower(), **kwargs)
    return None if found is None else found[0].name


def test_every_rule_is_named_and_has_a_case_it_decides() -> None:
    names = [rule.name for rule in NAME_RULES]
    assert len(names) == len(set(names)) >= 30
    assert sorted(rule.name for rule in NAME_RULES if rule.file) == sorted(RULE_CASES)
    decisions = set(re.findall(r"^### (D\d+)\.", DECISIONS.read_text(encoding="utf-8"), re.M))
    for rule in (*NAME_RULES, *ADDRESS_RULES):
        assert rule.reason and rule.decision in decisions, rule
    for name, (text, written) in RULE_CASES.items():
        assert _rule_of(text, written) == name, (name, text)
        # what the rule says is what evidence() gives
        s = text.rindex(written) if written == "prolog.ps" else text.index(written)
        rule, says = name_rule(text, s, s + len(written), written.lower())  # type: ignore[misc]
        assert (
            evidence(text, s, s + len(written), written.lower())
            == says
            == rule.says(Name(text, s, s + len(written), written.lower(), CODE_TLDS, EXTENSION_TLDS))
        )


def test_the_rules_that_clear_a_host_stop_the_list() -> None:
    # "code TLD under a longer suffix" and "no file-extension TLD" decide for a host:
    # no later rule is asked ("tienda.com.py" would be a code TLD's name; a name
    # under .de is judged by the rules before the gate only).
    assert _rule_of("at tienda.com.py", "tienda.com.py") is None
    assert _rule_of("see onet.DE now", "onet.DE") == "capital TLD"  # (before the gate)
    assert _rule_of("see the file onet.de", "onet.de") is None  # (after it: "named as a file" is not asked)
    assert _rule_of("the file onet.pl", "onet.pl") == "named as a file"
    # without file_names only the code-TLD rules apply
    assert _rule_of("see README.md now", "README.md", judge=False) is None
    assert _rule_of("run main.py now", "main.py", judge=False) == "code TLD"
    # the order is the list's: a name two rules refuse is the first one's
    order = [rule.name for rule in NAME_RULES]
    assert order.index("build file") < order.index("build or library file")
    assert _rule_of("see configure.ac now", "configure.ac") == "build file"


def test_why_not_and_check_name_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from uts58.cli.main import main

    assert [(r.text, r.rule, r.decision) for r in why_not("see README.md, onet.pl and sci.space")] == [
        ("README.md", "upper-case name", "D97"),
        ("sci.space", "newsgroup", "D97"),
    ]
    assert why_not("www.a.com b.com", Finder.preset("gfm"))[0][1:3] == ("bare domain", "D97")
    assert main(["check", "README.md", "you@yourhost.com"]) == 1
    out = capsys.readouterr().out
    assert "(rule: upper-case name, D97)" in out and "(rule: placeholder, D103)" in out
    assert address_rule("sk-ssh-ed25519@openssh.com", 0, 14, 26, "openssh.com").name == "protocol name"  # type: ignore[union-attr]
