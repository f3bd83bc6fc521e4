"""Is a bare name a host or a file?  What the text shows decides (D97).

A name written without a scheme, ``www.`` or a path (``onet.pl``,
``README.md``, ``config.h.in``) is a domain to UTS #58 when its last label
is a TLD; the standard leaves which of them to link to the implementation
(§2, §3.2).  Refusing every two-label name under 45 TLDs that are also
file extensions (the ``technical`` preset) gave technical text its precision and took away
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..base.caches import bounded
from ..hosts.domains import public_suffixes
from ..unicode.parts import LABEL_SEPARATORS

__all__ = [
    "CODE_TLDS",
    "CODE_TLD_RULES",
    "EXTENSION_TLDS",
    "FILE_EXTENSIONS",
    "NAME_RULES",
    "PLACEHOLDER",
    "Name",
    "Rule",
    "evidence",
    "multi_label_suffix",
    "name_rule",
    "placeholder",
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


class Name:
    """A bare name as the rules see it: ``text[s:e]``, written without a
    scheme, ``www.``, a path or a port, whose A-label form is ``ascii_host``,
    with its labels and TLD, and the TLD sets of the finder that asks."""

    __slots__ = (
        "_line",
        "ascii_host",
        "code_tlds",
        "e",
        "extension_tlds",
        "first",
        "labels",
        "last",
        "s",
        "text",
        "tld",
        "written",
    )

    def __init__(
        self, text: str, s: int, e: int, ascii_host: str, code_tlds: frozenset[str], extension_tlds: frozenset[str]
    ) -> None:
        self.text, self.s, self.e, self.ascii_host = text, s, e, ascii_host
        self.code_tlds, self.extension_tlds = code_tlds, extension_tlds
        self.tld = ascii_host[ascii_host.rfind(".") + 1 :]
        self.written = text[s:e]
        self.labels = _SEPARATORS.split(self.written)
        self.first = self.labels[0].lower()
        self.last = self.labels[-1]
        self._line: tuple[int, bool] | None = None

    @property
    def line(self) -> tuple[int, bool]:
        """The start of the name's line and whether it is the line's real start (``_line_start``)."""
        if self._line is None:
            self._line = _line_start(self.text, self.s)
        return self._line


@dataclass(frozen=True)
class Rule:
    """One rule of the evidence (D97, D103): its name, what it tests, what
    it says (``{tld}`` and ``{before}``, the label before the TLD, filled
    in), the decision it implements, and whether it finds a file (``file``)
    or clears the name as a host, so that no later rule is asked."""

    name: str
    test: Callable[[Any], bool]  # (of a Name, or of an Address)
    reason: str
    decision: str = "D97"
    file: bool = True

    def says(self, name: Name) -> str:
        """The reason, for ``name``."""
        if "{" not in self.reason:
            return self.reason
        before = name.labels[-2].lower() if len(name.labels) > 1 else ""
        return self.reason.format(tld=name.tld, before=before)


_UNDER = " under .{tld}, a TLD that is also a file extension"


def _code_member(n: Name) -> bool:
    # ("rst.Open", "com.example.Foo", "org.freedesktop.DBus.Properties"; not
    # "Example.Com", "FreeDesktop.Org", "KERNEL.ORG", nor a sentence that
    # goes on without a space, "google.com.It is")
    labels = n.labels
    return (
        labels[-1][1:].islower()
        and labels[-1][:1].isupper()
        and (
            (len(labels) == 2 and labels[0][:1].islower())
            or (len(labels) > 2 and n.first in _GENERIC and labels[1][:1].islower())
        )
    )


def _uucp_hop(n: Name) -> bool:
    # (the first hop too: "<wonderland.org!peter@ao.com>"; not "Visit onet.pl!", "reddit.com!It's great")
    text, s, e = n.text, n.s, n.e
    return text[e : e + 1] == "!" and ((bool(s) and text[s - 1] == "!") or _UUCP_NEXT.match(text, e + 1) is not None)


def _at_address(n: Name) -> bool:
    near = n.text[max(0, n.s - 8) : n.s].rstrip().lower()
    return near.endswith(("at", "at)", "at]", "at}")) and _AT_BEFORE.search(n.text, max(0, n.s - 80), n.s) is not None


def _newsgroup(n: Name) -> bool:
    # (not "net.hr", "talk.tv", "soc.ox.ac.uk": a country's names)
    labels, first, tld = n.labels, n.first, n.tld
    return (
        (first in _USENET and tld not in _GENERIC and (len(tld) > 2 or len(labels) > 2))
        or (len(labels) >= 3 and len(first) == 2 and labels[1] in _USENET_SECOND)
    ) and not multi_label_suffix(n.ascii_host)


def _upper_case_name(n: Name) -> bool:
    # ("README.md", "Makefile.PL"; not "Microsoft.pl", "BusinessOnline.pl", "ONET.PL")
    name, last = n.labels[0], n.last
    return (len(name) > 1 and name.isupper() and not last.isupper()) or (last != last.lower() and name != name.upper())


def _short_or_numeric_label(n: Name) -> bool:
    # (a file's one letter is its stem or the extension before the TLD, "m.in",
    # "config.h.in"; inside a long name it is a host's, "do.kat-ar2.z.lodz-r1.tpnet.pl")
    labels = n.labels
    return any(x.isdigit() for x in labels[1:]) or any(
        len(label) == 1 and not label.isdigit() for label in (labels if len(labels) <= 3 else (n.first, labels[-2]))
    )


def _man_page_or_code(n: Name) -> bool:
    after, before = n.text[n.e : n.e + 1], n.text[n.s - 1 : n.s] if n.s else ""
    return after == "(" or "`" in (before, after)


def _named_file(n: Name) -> bool:
    m = _WORD_BEFORE.search(n.text, max(0, n.s - 16), n.s)
    return m is not None and m.group(1).lower().rstrip(":") == "file"


def _command_argument(n: Name) -> bool:
    line_start, whole = n.line
    return (whole and _SHELL_LINE.match(n.text, line_start) is not None and line_start < n.s) or (
        _COMMAND_BEFORE.search(n.text, max(line_start, n.s - 80), n.s) is not None
    )


def _files_on_line(n: Name) -> bool:
    line_start = n.line[0]
    line_end = n.text.find("\n", n.e, n.e + _CONTEXT)
    return _shows_files(n.text[line_start : n.e + _CONTEXT if line_end < 0 else line_end])


# D97: a name under one of the code TLDs is a file or an identifier unless
# its public suffix has more than one label ("tienda.com.py").  These two
# rules apply with Finder(file_names=False) too; the others only with it.
CODE_TLD_RULES = (
    Rule(
        "code TLD under a longer suffix",
        lambda n: n.tld in n.code_tlds and multi_label_suffix(n.ascii_host),
        "a host: a public suffix of more than one label",
        file=False,
    ),
    Rule(
        "code TLD",
        lambda n: n.tld in n.code_tlds,
        "file name or identifier: .{tld} names are files or code far more often than sites",
    ),
)

# The rules in the order they are asked: the first that holds decides (D97).
NAME_RULES: tuple[Rule, ...] = (
    Rule("underscore", lambda n: "_" in n.written, "file name: a host name has no '_'"),
    Rule(
        "initial",
        lambda n: (
            len(n.labels) == 2
            and len(n.labels[0]) == 1
            and len(n.tld) == 2
            and n.labels[0].isalpha()
            and _INITIAL_AFTER.match(n.text, n.e) is not None
        ),
        "abbreviation: one letter, a word, an initial ('a.de C.')",
    ),
    Rule(
        "number or date",
        lambda n: len(n.labels) == 2 and len(n.labels[0]) <= 2 and n.labels[0].isdigit(),
        "a number or a date: one or two digits before the dot ('21.VI', '3.co')",
    ),
    Rule("code member", _code_member, "code: a member written with a capital after a lower-case name ('rst.Open')"),
    Rule(
        "mixed-case TLD",
        lambda n: any(c.isupper() for c in n.last) and any(c.islower() for c in n.last) and not n.last.istitle(),
        "a placeholder or code: a TLD in mixed case ('MMmSS.DDs')",
    ),
    Rule(
        "capital TLD",
        lambda n: len(n.last) > 1 and n.last.isalpha() and n.last.isupper() and n.labels[0].islower(),
        "file name: a TLD in capitals after a lower-case name ('systemd.NEWS')",
    ),
    Rule("build file", lambda n: n.first in _BUILD_FILES, "file name: a build file ('Makefile.win')"),
    Rule("UUCP hop", _uucp_hop, "a hop of a UUCP route ('usc!cs.utexas.edu!uwm.edu!psuvax1')"),
    Rule("reverse DNS", lambda n: n.ascii_host.endswith(_REVERSE_DNS), "a reverse-DNS name"),
    Rule(
        "wildcard",  # ("*example.com*" is emphasis)
        lambda n: bool(n.s) and n.text[n.s - 1] == "*" and n.text[n.e : n.e + 1] != "*",
        "a wildcard pattern ('*ppp.example.net')",
    ),
    # (each pattern looked for only where its last word can be: most names have none)
    Rule(
        "git config key",
        lambda n: (
            "config " in n.text[max(0, n.s - 60) : n.s]
            and _GIT_CONFIG.search(n.text, max(0, n.s - 60), n.s) is not None
        ),
        "code: a configuration key (git config)",
    ),
    Rule("address with at", _at_address, "the domain of an address written with 'at' ('<jane at example.org>')"),
    Rule(
        "loaded file",
        lambda n: (
            n.text[max(0, n.s - 1) : n.s] in ("'", '"', "<", "(")
            and _LOADED.search(n.text, max(0, n.s - 20), n.s) is not None
        ),
        "code: a file a program loads (\"require 'syscall.ph'\")",
    ),
    Rule(
        "remote path",
        lambda n: n.text[n.e : n.e + 2] == ":/" and n.text[n.e + 2 : n.e + 3] != "/",
        "a remote path (scp, rsync, NFS: 'example.com:/srv/svn')",
    ),
    Rule(
        "network tool output",
        lambda n: _ADDRESS_AFTER.match(n.text, n.e) is not None,
        "network tool output: a host name followed by its address",
    ),
    Rule("newsgroup", _newsgroup, "newsgroup name"),
    *CODE_TLD_RULES,
    Rule(
        "no file-extension TLD",
        lambda n: n.tld not in n.extension_tlds or multi_label_suffix(n.ascii_host),
        "a host: no rule of the text says otherwise",
        file=False,
    ),
    # Names under a TLD that is also a file extension (EXTENSION_TLDS): linked
    # unless the name or the text around it shows a file.
    Rule("upper-case name", _upper_case_name, "file name: upper-case letters" + _UNDER),
    Rule("one-letter or numeric label", _short_or_numeric_label, "file name: a one-letter or numeric label" + _UNDER),
    Rule(
        "extension before the TLD",
        lambda n: len(n.labels) >= 3 and n.labels[-2].lower() in FILE_EXTENSIONS,
        "file name: .{before} before the TLD" + _UNDER,
    ),
    Rule(
        "build or library file",
        lambda n: n.first in _BUILD_STEMS or (n.tld in _LIBRARY_TLDS and n.first.startswith("lib")),
        "file name: a build or library file" + _UNDER,
    ),
    Rule(
        "example file",
        lambda n: len(n.labels) == 2 and n.first in _FILE_STEMS,
        "file name: the stem of an example or test file" + _UNDER,
    ),
    Rule(
        "syslog selector",
        lambda n: n.tld == "info" and len(n.labels) == 2 and n.first in _SYSLOG_FACILITIES,
        "a syslog selector (facility.priority)",
    ),
    Rule("man page or code", _man_page_or_code, "file name: a man page or code" + _UNDER),
    Rule("named as a file", _named_file, "file name: named as a file" + _UNDER),
    Rule(
        "change-log entry",
        lambda n: n.line[1] and _changelog_entry(n.text, n.line[0], n.s, n.e),
        "file name: a change-log entry" + _UNDER,
    ),
    Rule("command argument", _command_argument, "file name: an argument of a command" + _UNDER),
    Rule(
        "path or sibling nearby",
        lambda n: _siblings(n.text, n.s, n.e, n.written),
        "file name: written with a path or another extension nearby" + _UNDER,
    ),
    Rule(
        "file noun",
        lambda n: _FILE_NOUN.match(n.text, n.e) is not None,
        "file name: named as a file, script or module" + _UNDER,
    ),
    Rule("files on the line", _files_on_line, "file name: among file names on its line" + _UNDER),
)


def name_rule(
    text: str,
    s: int,
    e: int,
    ascii_host: str,
    code_tlds: frozenset[str] = CODE_TLDS,
    extension_tlds: frozenset[str] = EXTENSION_TLDS,
    judge: bool = True,
) -> tuple[Rule, str] | None:
    """The rule that finds ``text[s:e]`` a file name, an identifier, a
    newsgroup or an abbreviation and not a host, with what it says; None
    when none does (:func:`evidence`).

    >>> rule, why = name_rule("see README.md", 4, 13, "readme.md")
    >>> rule.name, rule.decision
    ('upper-case name', 'D97')
    """
    if not judge and ascii_host[ascii_host.rfind(".") + 1 :] not in code_tlds:
        return None  # (the code-TLD rules alone apply, and only to a code TLD: no Name to build)
    name = Name(text, s, e, ascii_host, code_tlds, extension_tlds)
    for rule in NAME_RULES if judge else CODE_TLD_RULES:
        if rule.test(name):
            return (rule, rule.says(name)) if rule.file else None
    return None


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
    when nothing in the text says so (D97): what the first rule of
    :data:`NAME_RULES` that holds says.  Without ``judge``
    (``Finder(file_names=False)``) only the :data:`CODE_TLD_RULES` apply."""
    found = name_rule(text, s, e, ascii_host, code_tlds, extension_tlds, judge)
    return None if found is None else found[1]


@bounded(256, "file names on a line")
def _shows_files(line: str) -> bool:
    """Whether a line (at most 2 × _CONTEXT characters of it) holds a file
    name of an extension that is no TLD; remembered, since every name of
    the line asks."""
    return _FILE_ON_LINE.search(line) is not None


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


PLACEHOLDER = "a placeholder name: its domain belongs to a stranger"
