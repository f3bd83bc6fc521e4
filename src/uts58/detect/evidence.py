"""Is a bare name a host or a file?  What the text shows decides (D97).

A name written without a scheme, ``www.`` or a path (``onet.pl``,
``README.md``, ``config.h.in``) is a domain to UTS #58 when its last label
is a TLD; the standard leaves which of them to link to the implementation
(§2, §3.2).  D56 refused every two-label name under 45 TLDs that are also
file extensions; that gave technical text its precision and took away
``onet.pl``, ``flipkart.in`` and ``jane.dev`` from everyone else.  D97
keeps a short list of TLDs that are files or identifiers in every genre
(:data:`CODE_TLDS`: ``main.py``, ``network.target``, ``user.name``) and
judges a name under any other TLD by the evidence the text shows.

>>> evidence("see README.md", 4, 13, "readme.md")
'file name: upper-case letters under .md, a TLD that is also a file extension'
>>> evidence("Polska: onet.pl", 8, 15, "onet.pl") is None
True
"""

from __future__ import annotations

import re

from ..base.caches import bounded
from ..hosts.domains import LABEL_SEPARATORS, public_suffixes

__all__ = [
    "CODE_TLDS",
    "EXTENSION_TLDS",
    "FILE_EXTENSIONS",
    "PLACEHOLDER",
    "address_evidence",
    "blanked_out",
    "evidence",
    "message_id",
    "message_id_unbracketed",
    "multi_label_suffix",
    "placeholder",
    "protocol_name",
]

# D97: TLDs whose bare two-label names are files, code identifiers or unit
# names in technical text AND in everyday writing: a name under them needs
# a scheme, "www.", a path or a public suffix of more than one label
# ("com.py") to be linked.
CODE_TLDS = frozenset(
    "arpa auto build cf data email events gold group link man map mk mo mov name network new pid pm property "
    "py rs services sh tab target ts vc zip".split()
)
# D97: TLDs that are common file extensions too, and real country or
# generic domains people write every day (onet.pl, flipkart.in, point.md,
# news.am, hiiraan.so, jane.dev): a name under them is linked unless it
# shows it is a file (upper case, an extension before the TLD, a one-letter
# label, a library or build-file name, a man page, code quotes).
EXTENSION_TLDS = frozenset("ac am cc dev in info la md ml pl ps so".split())
# Extensions that, before one of the TLDs above, make the name a file
# ("foo.pc.in", "po4a.cfg.in", "config.h.in", "x.tar.gz").
FILE_EXTENSIONS = frozenset(
    "c h cc cpp hpp pc cfg conf config cmake map java js json ini xml html htm txt tmpl template spec doxygen "
    "postinst postrm preinst prerm service socket desktop local tar gz bz2 xz po pot mo sh py pl in am ac "
    "md rst texi info man so la mk aux dvi log tex pdf ps eps png jpg gif o a out bak old orig diff patch".split()
)
# Build and library conventions: "configure.ac", "autogen.sh", "ld.so",
# "libc.so", "libfoo.la".
_BUILD_STEMS = frozenset("configure autogen bootstrap ltmain aclocal ld ld-linux makefile gnumakefile".split())
# Build files under any TLD ("Makefile.win", "configure.com").
_BUILD_FILES = frozenset("makefile gnumakefile configure aclocal autogen ltmain".split())
# The stems of example and test files ("edit test.pl", "main.cc", "foo.so").
_FILE_STEMS = frozenset("test tests main index setup install config script example sample foo bar baz demo tmp".split())
_LIBRARY_TLDS = frozenset(("so", "la"))
# Usenet hierarchies: "sci.space", "rec.sport.hockey", "pl.comp.os.linux".
_USENET = frozenset("alt comp humanities misc rec sci soc talk net".split())
# (a country's hierarchy also has "comm": "de.comm.internet"; not a first label: "comm.tu-berlin.de")
_USENET_SECOND = _USENET | {"comm"}
_GENERIC = frozenset("com net org edu gov mil int".split())
_WORD_BEFORE = re.compile(r"(\S+)\s+\Z")
_UUCP_NEXT = re.compile(r"[a-z0-9_.-]{1,64}[!@]")  # (the next hop or the user, then "!" or "@")
_INITIAL_AFTER = re.compile(r"\s+[A-Z]\.(?![\w.])")  # ("a.de C.": not "t.me", "x.ai", "a.co b.co")
# syslog selectors: "kern.info", "mail.info" (a facility and a priority).
_SYSLOG_FACILITIES = frozenset(
    "auth authpriv cron daemon ftp kern lpr mail news security syslog user uucp local0 local1 local2 local3 "
    "local4 local5 local6 local7".split()
)
# Interpreters, compilers and tools whose arguments are files wherever they
# are on a line ("perl -c script.pl", "gcc -o x x.cc"); words that are also
# prose words ("make", "cat", "less") count only first on a line (_SHELL_LINE).
# Between the command and the name only arguments, no word of prose
# ("perl -I ../lib -c x.pl"; not "learn python at jane.dev").
_COMMAND_BEFORE = re.compile(
    r"(?:^|[\s\"'`“‘(])(?:perl|perlcc|python3?|ruby|php|g\+\+|gcc|clang|gdb|ldd|valgrind|strace|nm|objdump|"
    r"gs|dvips|pdflatex|gunzip|gzip|chmod|sudo|bash|zsh|llvm-[a-z-]+)\s+(?:(?:-\S*|\S*[/.=:]\S*)\s+)*\Z"
)
# A line of shell: a prompt and a command, or a tool no prose word spells
# ("$ cat x.pl", "gcc x.cc"; not "more info at onet.pl", "install the app").
_SHELL_LINE = re.compile(
    r"\s*(?:[$#%>]\s+(?:sudo\s+)?(?:cp|mv|rm|ln|cat|less|more|make|vi|vim|emacs|nano|ls|diff|patch|grep|sed|awk|"
    r"install|source|strip|ld|sh|\.)\s|(?:sudo\s+)?(?:g\+\+|gcc|clang|perl|python3?|bash|zsh|chmod|chown|tar|gzip|"
    r"gunzip|latex|pdflatex|dvips|ldd|objdump)\s)"
)
_SEPARATORS = re.compile("[" + LABEL_SEPARATORS + "]")
_CONTEXT = 200  # characters on each side where a name's siblings are looked for
_EXTENSION = re.compile(r"(\w+)(?![\w-]|\.\w)")
# A file name of an extension that is no TLD, or a man page, on the line
# ("Add fdl.texi and texi2pod.pl", "as.info and as.1").
_FILE_ON_LINE = re.compile(
    r"(?<![\w.-])(?:[\w-]+\.(?:c|h|cpp|hpp|cxx|texi|txt|html?|xml|json|ya?ml|conf|cfg|ini|tex|dvi|log|diff|patch|o|"
    r"gz|bz2|xz|tar)|[a-z][a-z-]+\.[1-9])(?![\w-]|\.\w)"  # (a man page: "as.1"; not "v1.2", "No.1", "Vol.2")
)
# The noun a file name is written with ("the docbook.am makefile", "newest.pl script",
# "debian.pl - skrypt perlowy", "x.pl 脚本"), in the languages of the corpora.
_FILE_NOUN = re.compile(
    r"['\"’”]?(?:(?:\s*[-–—:])?\s+(?:file|files|script|scripts|makefile|template|module|modules|library|plugin|"
    r"plik|pliku|skrypt|skryptu|moduł|файл|скрипт|модуль|datei|skript|fichier|archivo|arquivo|soubor)\b"
    r"|\s*(?:脚本|腳本|文件|檔案|模块|模組)(?![\u4e00-\u9fff]))",
    re.IGNORECASE,
)
# The domain of an address written with "at" ("<stbuehler at web.de>",
# "yalcink01 (at) yahoo.com"): the rest of an address, not a site.
_AT_BEFORE = re.compile(r"(?:[(\[{]at[)\]}]|<[^\s<>@]+\s+at)\s+\Z", re.IGNORECASE)
# A file a program loads ("require 'syscall.ph'", "do 'stat.pl'", "#include \"x.h\"").
_LOADED = re.compile(r"\b(?:require|include|do)\s*\(?\s*[\"'<]\Z")
# "git config [--global] alias.co checkout": a configuration key.
_GIT_CONFIG = re.compile(r"git\s+config(?:\s+-\S+)*\s+\Z")
# Reverse-DNS names ("…b.e.f.f.3.ip6.int", "1.168.192.in-addr.arpa").
_REVERSE_DNS = (".ip6.int", ".ip6.arpa", ".in-addr.arpa")
# Network tools' output: a host name, then its address in parentheses
# (traceroute's hops, "PING host (192.0.2.1)").
_ADDRESS_AFTER = re.compile(r" \((?:[0-9]{1,3}\.){3}[0-9]{1,3}\)")


@bounded(4096, "public suffixes")
def multi_label_suffix(ascii_host: str) -> bool:
    """Whether the public suffix of ``ascii_host`` has more than one label
    (``co.in``, ``org.pl``, ``com.py``): no file name has one."""
    return public_suffixes().public_length(ascii_host.lower()) > 1


def evidence(
    text: str,
    s: int,
    e: int,
    ascii_host: str,
    code_tlds: frozenset[str] = CODE_TLDS,
    extension_tlds: frozenset[str] = EXTENSION_TLDS,
    judge: bool = True,
) -> str | None:
    """Why ``text[s:e]``, a bare name (no scheme, no ``www.``, no path or
    port after it) whose A-label form is ``ascii_host``, is a file name,
    an identifier, a newsgroup or an abbreviation and not a host; None
    when nothing in the text says so (D97).  Without ``judge``
    (``Finder(file_names=False)``) only the ``code_tlds`` rule applies."""
    tld = ascii_host[ascii_host.rfind(".") + 1 :]
    if not judge:
        return _code_tld(tld, ascii_host) if tld in code_tlds else None
    written = text[s:e]
    labels = _SEPARATORS.split(written)
    if "_" in written:
        return "file name: a host name has no '_'"
    first = labels[0].lower()
    if (
        len(labels) == 2
        and len(labels[0]) == 1
        and len(tld) == 2
        and labels[0].isalpha()
        and _INITIAL_AFTER.match(text, e)
    ):
        return "abbreviation: one letter, a word, an initial ('a.de C.')"
    if len(labels) == 2 and len(labels[0]) <= 2 and labels[0].isdigit():
        return "a number or a date: one or two digits before the dot ('21.VI', '3.co')"
    if (
        labels[-1][1:].islower()
        and labels[-1][:1].isupper()
        and (
            (len(labels) == 2 and labels[0][:1].islower())
            or (len(labels) > 2 and first in _GENERIC and labels[1][:1].islower())
        )
    ):
        # ("rst.Open", "com.example.Foo", "org.freedesktop.DBus.Properties";
        # not "Example.Com", "FreeDesktop.Org", "KERNEL.ORG", nor a sentence
        # that goes on without a space, "google.com.It is")
        return "code: a member written with a capital after a lower-case name ('rst.Open')"
    last = labels[-1]
    if any(c.isupper() for c in last) and any(c.islower() for c in last) and not last.istitle():
        return "a placeholder or code: a TLD in mixed case ('MMmSS.DDs')"
    if len(last) > 1 and last.isalpha() and last.isupper() and labels[0].islower():
        return "file name: a TLD in capitals after a lower-case name ('systemd.NEWS')"
    if first in _BUILD_FILES:
        return "file name: a build file ('Makefile.win')"
    if text[e : e + 1] == "!" and ((s and text[s - 1] == "!") or _UUCP_NEXT.match(text, e + 1)):
        # (the first hop too: "<wonderland.org!peter@ao.com>"; not "Visit onet.pl!",
        # "reddit.com!It's great")
        return "a hop of a UUCP route ('usc!cs.utexas.edu!uwm.edu!psuvax1')"
    if ascii_host.endswith(_REVERSE_DNS):
        return "a reverse-DNS name"
    if s and text[s - 1] == "*" and text[e : e + 1] != "*":
        return "a wildcard pattern ('*ppp.example.net')"  # ("*example.com*" is emphasis)
    near = text[max(0, s - 8) : s]
    # (each pattern looked for only where its last word can be: most names have none)
    if "config " in text[max(0, s - 60) : s] and _GIT_CONFIG.search(text, max(0, s - 60), s):
        return "code: a configuration key (git config)"
    if near.rstrip().lower().endswith(("at", "at)", "at]", "at}")) and _AT_BEFORE.search(text, max(0, s - 80), s):
        return "the domain of an address written with 'at' ('<jane at example.org>')"
    if near[-1:] in ("'", '"', "<", "(") and _LOADED.search(text, max(0, s - 20), s):
        return "code: a file a program loads (\"require 'syscall.ph'\")"
    if text[e : e + 2] == ":/" and text[e + 2 : e + 3] != "/":
        return "a remote path (scp, rsync, NFS: 'example.com:/srv/svn')"
    if _ADDRESS_AFTER.match(text, e):
        return "network tool output: a host name followed by its address"
    if (
        (first in _USENET and tld not in _GENERIC and (len(tld) > 2 or len(labels) > 2))
        or (len(labels) >= 3 and len(first) == 2 and labels[1] in _USENET_SECOND)
    ) and not multi_label_suffix(ascii_host):
        # (not "net.hr", "talk.tv", "soc.ox.ac.uk": a country's names)
        return "newsgroup name"
    if tld in code_tlds:
        return _code_tld(tld, ascii_host)
    if tld not in extension_tlds or multi_label_suffix(ascii_host):
        return None
    why = f" under .{tld}, a TLD that is also a file extension"
    name = labels[0]
    if (len(name) > 1 and name.isupper() and not last.isupper()) or (last != last.lower() and name != name.upper()):
        # ("README.md", "Makefile.PL"; not "Microsoft.pl", "BusinessOnline.pl", "ONET.PL")
        return "file name: upper-case letters" + why
    if any(x.isdigit() for x in labels[1:]) or any(
        len(label) == 1 and not label.isdigit() for label in (labels if len(labels) <= 3 else (first, labels[-2]))
    ):
        # (a file's one letter is its stem or the extension before the TLD,
        # "m.in", "config.h.in"; inside a long name it is a host's,
        # "do.kat-ar2.z.lodz-r1.tpnet.pl")
        return "file name: a one-letter or numeric label" + why
    if len(labels) >= 3 and labels[-2].lower() in FILE_EXTENSIONS:
        return f"file name: .{labels[-2].lower()} before the TLD" + why
    if first in _BUILD_STEMS or (tld in _LIBRARY_TLDS and first.startswith("lib")):
        return "file name: a build or library file" + why
    if len(labels) == 2 and first in _FILE_STEMS:
        return "file name: the stem of an example or test file" + why
    if tld == "info" and len(labels) == 2 and first in _SYSLOG_FACILITIES:
        return "a syslog selector (facility.priority)"
    after = text[e : e + 1]
    before = text[s - 1 : s] if s else ""
    if after == "(" or "`" in (before, after):
        return "file name: a man page or code" + why
    m = _WORD_BEFORE.search(text, max(0, s - 16), s)
    if m is not None and m.group(1).lower().rstrip(":") == "file":
        return "file name: named as a file" + why
    line_start, whole = _line_start(text, s)
    if whole and _changelog_entry(text, line_start, s, e):
        return "file name: a change-log entry" + why
    if (whole and _SHELL_LINE.match(text, line_start) and line_start < s) or _COMMAND_BEFORE.search(
        text, max(line_start, s - 80), s
    ):
        return "file name: an argument of a command" + why
    if _siblings(text, s, e, written):
        return "file name: written with a path or another extension nearby" + why
    if _FILE_NOUN.match(text, e):
        return "file name: named as a file, script or module" + why
    line_end = text.find("\n", e, e + _CONTEXT)
    if _shows_files(text[line_start : e + _CONTEXT if line_end < 0 else line_end]):
        return "file name: among file names on its line" + why
    return None


@bounded(256, "file names on a line")
def _shows_files(line: str) -> bool:
    """Whether a line (at most 2 × _CONTEXT characters of it) holds a file
    name of an extension that is no TLD; remembered, since every name of
    the line asks."""
    return _FILE_ON_LINE.search(line) is not None


def _code_tld(tld: str, ascii_host: str) -> str | None:
    """The rule of a name under one of the code TLDs: a file or identifier
    unless its public suffix has more than one label (``tienda.com.py``)."""
    if multi_label_suffix(ascii_host):
        return None
    return f"file name or identifier: .{tld} names are files or code far more often than sites"


def _siblings(text: str, s: int, e: int, written: str) -> bool:
    """The name after a ``/`` nearby (``library/prolog.ps … prolog.ps``),
    or its stem with another extension (``bapper.dvi bapper.ps``)."""
    lo, hi = max(0, s - _CONTEXT), min(len(text), e + _CONTEXT)
    window = text[lo:hi]
    k = window.find("/" + written)
    while k >= 0:
        if k == 0 or window[k - 1] != "/":  # ("library/prolog.ps"; not "https://onet.pl/")
            return True
        k = window.find("/" + written, k + 1)
    dot = written.rfind(".") + 1
    stem, own = written[:dot], written[dot:].lower()
    k = window.find(stem)
    while k >= 0:
        if lo + k != s and (k == 0 or not (window[k - 1].isalnum() or window[k - 1] in "_.-")):
            m = _EXTENSION.match(window, k + len(stem))
            if m is not None and m.group(1).lower() != own and m.group(1).lower() in FILE_EXTENSIONS:
                return True
        k = window.find(stem, k + 1)
    return False


def _line_start(text: str, s: int) -> tuple[int, bool]:
    """The start of the line of ``s``, looked for no further back than
    _CONTEXT characters (each name looks at a bounded window, so a text is
    scanned in linear time), and whether it is the line's real start
    (False: the window's, in a longer line)."""
    lo = max(0, s - _CONTEXT)
    k = text.rfind("\n", lo, s)
    return (k + 1, True) if k >= 0 or lo == 0 else (lo, False)


def _changelog_entry(text: str, line_start: int, s: int, e: int) -> bool:
    """``\t* configure.ac, zgrep.in: Fix …``: names, then ``:``, first on an
    indented line after an optional bullet (the GNU ChangeLog and NEWS
    forms; a list of sites, ``- onet.pl: news``, is not indented)."""
    if not text[line_start : line_start + 1].isspace():
        return False
    head = text[line_start:s].strip()
    if head and head[:1] not in ("*", "-", "+"):
        return False
    # (only file names before it: "* gunzip.in, gzexe.in, zcat.in (usage):")
    if not head:
        # (first on its line, then ": ": "  xslt-config.in: Simplify …")
        return text[e : e + 2] in (": ", ":\n") or (e + 1 == len(text) and text[e] == ":")
    words = head[1:].replace(",", " ").split()
    if not words:
        return text[e : e + 1] in (":", ",") or text[e : e + 2] == " ("
    return all("." in word or "/" in word or word.startswith("(") for word in words)


# D103: names that stand for any name in examples and jokes.  Unlike the
# domains IANA keeps for documentation (example.com, .example, .test), they
# are registered by someone else, so a link would send the reader to a
# stranger's site.  Only the label before the public suffix is looked at
# ("yourdomain.com", "you@yourhost.com", "xxxxx.com", "exemplo.com"; not
# "food.com"), under a suffix of one label only ("domain.com.au" is a real
# site).  Words that are also real businesses' names are not in the list
# (domain.com, mydomain.com, domena.pl, xxx.com).  "foo" is the
# conformance file's own name for any host ("foo.accountants"): only a
# name of metasyntactic words alone is one ("foo.bar").
_METASYNTACTIC = frozenset("foo bar baz qux quux".split())
_PLACEHOLDERS = frozenset(
    "yourdomain somedomain your-domain mojadomena twojadomena dns-server yourhost somehost remotehost "
    "yourcompany yoursite exemplo esempio ejemplo exemple beispiel voorbeeld przyklad".split()
)


def placeholder(ascii_host: str) -> bool:
    """Whether the registrable domain of ``ascii_host`` is a placeholder
    name (D103).

    >>> placeholder("foo.bar"), placeholder("www.yourdomain.com"), placeholder("domain.com.au")
    (True, True, False)
    """
    host = ascii_host.lower()
    for label in host.split("."):
        if label in _PLACEHOLDERS or label in _METASYNTACTIC or _x_run(label):
            return _placeholder(host)  # (the public suffix decides which label counts)
    return False  # (most names: no word of the list, no lookup)


def blanked_out(local: str) -> bool:
    """Whether the local-part of an address is blanked out
    (``xxxxxxxx@privat.oldenburg.de``): an address nobody can write to (D103)."""
    return len(local) >= 3 and local.strip("xX") == ""


@bounded(4096, "placeholders")
def _placeholder(host: str) -> bool:
    registrable = public_suffixes().registrable(host)
    if registrable is None:
        return False
    label = registrable[: registrable.find(".")]
    if registrable.count(".") > 1:
        return False  # (a country's second level: "domain.com.au" is a real site)
    return label in _PLACEHOLDERS or _x_run(label) or all(part in _METASYNTACTIC for part in host.split("."))


def _x_run(label: str) -> bool:
    """Five ``x`` or more, a name for any name ("xxxxx.com"; not "xxx.com", a site)."""
    return len(label) >= 5 and label.strip("x") == ""


# D103: the names of SSH and SFTP algorithms and extensions (RFC 4251 §6:
# "name@domain"): an algorithm in the local-part, or the noun after it.
_ALGORITHM_PART = re.compile(
    r"sha[0-9]+|ed(?:25519|448)|ecdsa|nistp[0-9]+|x?25519|poly1305|hmac|aes[0-9]+|[0-9]+gcm|umac|curve[0-9]+|"
    r"sntrup[0-9]+(?:x25519)?|mlkem[0-9]+(?:x25519)?"
)
# (lower case and on the same line: "Extension 4421" after an address is a phone's)
_PROTOCOL_NOUN = re.compile(
    r"[\"'”’)]?[ \t]+(?:sftp-server[ \t]+|protocol[ \t]+)?"
    r"(?:extensions?|methods?|hybrid|ciphers?|algorithms?|MACs?|kex)\b"
)
_SSH_BEFORE = re.compile(r"ssh|sftp", re.IGNORECASE)


def protocol_name(text: str, start: int, at: int, end: int) -> bool:
    """Whether the address ``text[start:end]`` (``@`` at ``at``) names an
    SSH algorithm or extension (D103): ``sk-ssh-ed25519@openssh.com``, or
    ``limits@openssh.com extension``.

    >>> protocol_name("the limits@openssh.com extension", 4, 10, 22)
    True
    >>> protocol_name("mail jane@example.com now", 5, 9, 21)
    False
    """
    # An SSH context first: the name's domain ("openssh.com", "tinyssh.org")
    # or the line before it ("sftp-server(8): add …"); a person's address at
    # any other domain keeps its link ("cert-team@uni-stuttgart.de").
    line_start = text.rfind("\n", max(0, start - 80), start) + 1
    if "ssh" not in text[at:end].lower() and not _SSH_BEFORE.search(text, max(line_start, start - 80), start):
        return False
    local = text[start:at]
    if "-" in local and any(_ALGORITHM_PART.fullmatch(part) for part in local.lower().split("-")):
        return True
    return _PROTOCOL_NOUN.match(text, end) is not None


PLACEHOLDER = "a placeholder name: its domain belongs to a stranger (D103)"


def address_evidence(text: str, start: int, at: int, end: int, ascii_domain: str) -> str | None:
    """Why the address ``text[start:end]`` (``@`` at ``at``), written without
    ``mailto:``, is no mailbox (D103): at a placeholder domain, blanked
    out, or the name of an SSH algorithm or extension; None when nothing
    says so.  The one decision of the scanner and of ``why_not``.

    >>> address_evidence("see you@yourhost.com", 4, 7, 20, "yourhost.com")
    'a placeholder name: its domain belongs to a stranger (D103)'
    """
    if placeholder(ascii_domain):
        return PLACEHOLDER
    if blanked_out(text[start:at]):
        return "a blanked-out address: nobody can write to it (D103)"
    if protocol_name(text, start, at, end):
        return "the name of an SSH algorithm or extension, not a mailbox (D103)"
    return None


# D98: the local-part of a Message-ID (RFC 5322 §3.6.4) as mail and news
# software writes it: a date and a queue id ("199710161841.LAA13208"), a
# date and a counter ("1994Apr6.184419.3687"), hex stamps
# ("3C8E1234.5060708"), "$" ("8cceb9$1@…"), Pine's "Pine.LNX.4.44.…".
_MESSAGE_ID_LOCAL = re.compile(
    r"[0-9]{6,}[.$]|[0-9]{4}[A-Za-z]{3}[0-9]{1,2}\.[0-9]|[0-9A-Fa-f]{8}\.[0-9A-Fa-f]{4,}\Z|[^@]*\$|Pine\.[A-Z]{3}\."
    r"|slrn[0-9a-z]+\.[0-9a-z]+\."  # (slrn's "slrnbu68qh.nqb.user")
    r"|[0-9a-z]{8,}\.fsf\Z"  # (Gnus's "87obi8u4h2.fsf")
)


# A Message-ID shape so specific that it needs no "<" ("20200119135241.GA4970@gmail.com",
# Mutt's date and time then a counter).
_MESSAGE_ID_BARE = re.compile(r"[0-9]{12,}\.[A-Za-z0-9]+\Z|[0-9][0-9a-z]{7,}\.fsf\Z")  # (and Gnus's)


def message_id_unbracketed(local: str) -> bool:
    """Whether a local-part written without ``<`` is a Message-ID all the
    same: twelve digits or more (a date and time) then ``.`` and a counter,
    or Gnus's ``87bn3ssqg0.fsf``."""
    return _MESSAGE_ID_BARE.match(local) is not None


def message_id(local: str, ascii_domain: str) -> bool:
    """Whether ``<local@domain>`` is a Message-ID, not a mailbox, from its
    shape alone (D98): the serial shapes above, or five digits or fewer at
    a machine's name (more labels than the registrable domain:
    ``<7874@jpl-devvax.jpl.nasa.gov>``, where a numeric mailbox is at a
    provider, ``<12345678@qq.com>``, or longer, ``<2019123456@stu.example.cn>``).

    >>> message_id("199710161841.LAA13208", "wall.org"), message_id("jane.doe", "example.com")
    (True, False)
    >>> message_id("7874", "jpl-devvax.jpl.nasa.gov"), message_id("12345678", "qq.com")
    (True, False)
    """
    if _MESSAGE_ID_LOCAL.match(local):
        return True
    if local.isdigit() and len(local) <= 5:
        # (an article number of old news software at a machine's name; a
        # student's or a phone's number is longer: "<2019123456@stu.example.cn>")
        return public_suffixes().registrable(ascii_domain.lower()) not in (None, ascii_domain.lower())
    return False
