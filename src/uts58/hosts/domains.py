"""Hosts: where a domain starts and ends in text, and whether it may be linked.

UTS #58 §1.4 and §3.2 leave initiation to the WHATWG URL standard and the
structure of domain names.  Here:

* label characters (D16) come from the UTS #46 IdnaMappingTable (generated table,
  see ``tools/gen_tables.py``), label separators are ``. 。 ． ｡``;
* a domain is validated by the WHATWG host parser (ada-url, UTS #46 to
  ASCII), with non-empty labels, no leading or trailing hyphen, 63 octets
  per label and 253 in all;
* its last label must be a top-level domain (the ICANN section of the
  installed Public Suffix List, see :mod:`uts58.hosts.tlds`, or the caller's own
  set; after a scheme any TLD of TLD syntax), and the domain must be
  registrable under the ICANN section of the Public Suffix List (D17; ``co.uk``
  is not).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, NamedTuple

from ..base.caches import bounded
from ..base.regex import char_class
from ..errors import TLDListError
from ..kernels import c_module
from ..kernels import run_start as kernel_run_start
from ..unicode.parts import IDEOGRAPHIC_FULL_STOPS, LABEL_SEPARATORS
from ..unicode.properties import DEFAULT_UNICODE_VERSION, LinkProperties
from ._idna_bridge import may_apply as bridge_may_apply
from ._idna_bridge import serves as bridge_serves
from ._idna_bridge import to_ascii as bridge_to_ascii
from ._idna_bridge import to_unicode as bridge_to_unicode
from .whatwg import domain_host, host_checker, idna_to_unicode, ip_host, parse_special

__all__ = [
    "FILE_EXTENSION_TLDS",
    "DomainRules",
    "HostPatterns",
    "RunStarts",
    "default_tlds",
    "domain_rules",
    "domain_to_ascii",
    "domain_to_unicode",
    "host_patterns",
    "host_span",
    "run_starts",
]

# The "technical" preset of Finder (D97): TLDs that
# in technical text are far more often a file extension, a
# unit or configuration suffix or a field name than a website: on 59 MB of
# Debian documentation, manual pages and changelogs in 32 languages
# (bench/realtext.py), over 95 % of their two-label names without a scheme
# were files ("configure.ac", "Makefile.in", "find.info", "network.target",
# "systemd.link", "user.name").  Without a scheme, "www." or a path such a
# name needs to be asked for (find_links(file_extensions=...)).
FILE_EXTENSION_TLDS = frozenset(
    "ac am arpa auto build cc cf data dev email events gold group in info la link man map md ml mk mo mov name "
    "network new pid pl pm property ps py rs services sh so tab target ts vc zip".split()
)

_SEPARATOR = re.compile("[" + LABEL_SEPARATORS + "]")
_MAX_LABEL, _MAX_DOMAIN = 63, 253  # octets of the A-label form (RFC 1035)
# The host-validation cache of each DomainRules (issue 14): its entries, and
# the longest name it keeps, which bound its memory (< 4096 × 253 characters).
HOST_CACHE_SIZE = 4096
HOST_CACHE_NAME_LIMIT = _MAX_DOMAIN
_IPV4 = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+\Z")
# An unlisted TLD accepted after a scheme (D52): ASCII letters only.  Every
# IDN TLD is listed, and a non-ASCII last label is more often the text after
# the domain in unspaced writing ("https://example.com了解", D22).
_TLD_SYNTAX = re.compile(r"[a-z]{2,63}")
# D92: the characters of a label UTS #46 only lowercases (the C check's too).
PLAIN_LABEL_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-"
_PLAIN_LABEL = "[" + re.escape(PLAIN_LABEL_CHARS) + "]+"
_PLAIN_ASCII_DOMAIN = re.compile(f"{_PLAIN_LABEL}(?:\\.{_PLAIN_LABEL})*")
_ASCII_HOST = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
)
_NOT_HOST = re.compile(r"[:/?#@\\\[\]%]")


def domain_to_ascii(domain: str, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> str | None:
    """The ASCII (A-label) form of a domain per the WHATWG host parser, or
    None when it is not a valid domain (forbidden code points, IDNA errors,
    or an IP address).  Characters newer than the URL parser's IDNA data
    count when ``unicode_version`` has them (D118).

    >>> domain_to_ascii("Bücher.DE"), domain_to_ascii("exa mple.com")
    ('xn--bcher-kva.de', None)
    """
    found = _ada_to_ascii(domain)
    if found is None and bridge_serves(unicode_version) and (bridged := bridge_to_ascii(domain, _ada_to_ascii)):
        return bridged[0]  # D118: characters newer than ada-url's IDNA data
    return found


def _ada_to_ascii(domain: str) -> str | None:
    found = domain_host(domain)  # (one C call, which makes the checks below: D105)
    return _parsed_domain(domain) if found is False else found


def _parsed_domain(domain: str) -> str | None:
    """:func:`domain_to_ascii` through :func:`parse_special`: the pure-Python
    mode's, and the reference of the C call's (tested)."""
    if _NOT_HOST.search(domain):
        return None  # more than a host (port, path, userinfo) or not a domain
    c = parse_special("http://" + domain + "/")
    # The serialization is "http://HOST/" exactly when the input was a host
    # alone; an IP address serializes as dotted digits or in brackets.
    if c is None or c.href != "http://" + c.host + "/" or not c.host or c.host[0] == "[" or _IPV4.match(c.host):
        return None
    return c.host


def domain_to_unicode(ascii_domain: str, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> str:
    """UTS #46 ToUnicode of an ASCII domain (the display form); ``xn--``
    labels of characters newer than the URL parser's IDNA data are decoded
    when ``unicode_version`` has them (D118).

    >>> domain_to_unicode("xn--bcher-kva.de")
    'bücher.de'
    """
    if "xn--" not in ascii_domain.lower():
        return ascii_domain
    found = idna_to_unicode(ascii_domain)
    if "xn--" in found.lower() and bridge_serves(unicode_version):
        found = bridge_to_unicode(ascii_domain, _ada_to_ascii) or found
    return found


# --------------------------------------------------------------------------
# Top-level domains and registrable domains


@cache
def default_tlds() -> frozenset[str]:
    """The default TLD set (lowercase A-labels): the ICANN section of the
    installed Public Suffix List, or the bundled IANA root zone snapshot when
    that cannot be read (D57, :func:`uts58.hosts.tlds.default_source`)."""
    from .tlds import default_source

    return default_source().tlds


def normalize_tlds(tlds: Iterable[str]) -> frozenset[str]:
    """A TLD set in lowercase A-label form; accepts ``"рф"``, ``".COM"``, ``"xn--p1ai"``."""
    if isinstance(tlds, str):
        raise TypeError("known_tlds must be an iterable of str, not a single str")
    out = set()
    for tld in tlds:
        if not isinstance(tld, str):
            raise TypeError(f"known_tlds must hold str, not {type(tld).__name__}")
        name = tld.strip().lstrip(".")
        ascii_form = domain_to_ascii(name) if name else None
        if ascii_form is None or "." in ascii_form:
            raise TLDListError(f"known_tlds: {tld!r} is not a top-level domain label")
        out.add(ascii_form)
    return frozenset(out)


@cache
def _icann_psl():  # type: ignore[no-untyped-def]
    # Imported on first use: loading the list takes ~70 ms.
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList(only_icann=True)


class PublicSuffixes:
    """The public-suffix decision of the installed list's ICANN section,
    compiled once (issue 23, D105): the rules of ``publicsuffixlist`` (its
    parsed set, punycoded IDN rules included) as a tree of the suffixes
    rules end in, walked from the TLD leftwards for as long as a rule could
    still match; the same answers as ``publicsuffixlist`` (tested over the
    whole list and generated names), at one set lookup per label instead of
    three per possible depth and four Python calls.

    >>> psl = public_suffixes()
    >>> psl.registrable("www.example.co.uk"), psl.registrable("co.uk"), psl.public_length("a.b.kawasaki.jp")
    ('example.co.uk', None, 3)
    """

    def __init__(self, rules: frozenset[str], accept_unknown: bool = True) -> None:
        self.rules = rules
        self.accept_unknown = accept_unknown
        # Every suffix of every rule (without "!" or "*."): where the walk goes on.
        nodes: set[str] = set()
        for rule in rules:
            name = rule[1:] if rule[0] == "!" else rule[2:] if rule.startswith("*.") else rule
            labels = name.split(".")
            for k in range(1, len(labels) + 1):
                nodes.add(".".join(labels[-k:]))
        self.nodes = frozenset(nodes)
        # The TLDs no longer rule ends in (de, com, fr): their public suffix
        # is the TLD itself, decided at one lookup (most names of real text).
        deeper = {node.rsplit(".", 1)[1] for node in nodes if "." in node}
        self.flat = frozenset(tld for tld in nodes if "." not in tld and tld not in deeper and tld in rules)

    def public_length(self, ascii_name: str) -> int:
        """How many labels of ``ascii_name`` (lower case, no empty label) its
        public suffix has: publicsuffixlist's ``_countpublic``, whose order
        of rules (exception, then wildcard, then exact; the longest suffix
        that has one) it keeps."""
        labels = ascii_name.split(".")
        n = len(labels)
        rules, nodes = self.rules, self.nodes
        found = 1 if self.accept_unknown else 0
        s = ""
        for depth in range(1, n + 1):
            s = labels[-depth] + ("." + s if s else "")
            if s not in nodes:
                break
            if "!" + s in rules:
                found = depth - 1
            elif "*." + s in rules:
                found = depth + 1 if depth < n else depth
            elif s in rules:
                found = depth
        return found

    def registrable(self, ascii_name: str) -> str | None:
        """The registrable domain (the public suffix and one label more) of an
        A-label name, in lower case, or None when the name is itself a
        public suffix or has an empty label (``privatesuffix`` of
        publicsuffixlist, which drops one trailing dot first)."""
        if ascii_name.endswith("."):
            ascii_name = ascii_name[:-1]
        if not ascii_name.islower():
            ascii_name = ascii_name.lower()  # (no-op for the names hosts validated)
        if ascii_name.startswith(".") or ".." in ascii_name:
            return None
        dot = ascii_name.rfind(".")
        if dot > 0 and ascii_name[dot + 1 :] in self.flat:
            start = ascii_name.rfind(".", 0, dot) + 1  # (one label before the TLD: "example.de")
            return ascii_name[start:] if start < dot else None
        labels = ascii_name.split(".")
        if "" in labels:
            return None
        public = self.public_length(ascii_name)
        if not public or len(labels) < public + 1:
            return None
        return ".".join(labels[-(public + 1) :])


@cache
def public_suffixes() -> PublicSuffixes:
    """The compiled public-suffix decision of :func:`_icann_psl` (D105)."""
    psl = _icann_psl()
    return PublicSuffixes(psl._publicsuffix, psl.accept_unknown)


@dataclass(frozen=True)
class DomainRules:
    """What makes a domain linkable: its TLD set (:func:`default_tlds` unless
    the caller gives one), registrability under the ICANN section of the
    Public Suffix List, and ``label``, the pattern of one label in Unicode
    form (see :func:`host_patterns`), which ``xn--`` labels must decode to."""

    tlds: frozenset[str]
    label: re.Pattern[str]
    # (made by __post_init__; declared, so that a compiled class has them too)
    _memo: Callable[[str, bool, bool], tuple[str, str] | None] = field(init=False, repr=False, compare=False)
    _forms_memo: Callable[[str, bool, bool, bool], tuple[int, str, str] | None] = field(
        init=False, repr=False, compare=False
    )
    _c: tuple[Any, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Issue 14, D93: hosts repeat in real text, and validating one (UTS #46,
        # the PSL) is most of the cost of a link.  A bounded LRU per rule set
        # (functools.lru_cache: thread-safe); the answer is a pure function of
        # the name and the flags, so the cache never changes a result.
        object.__setattr__(self, "_memo", bounded(HOST_CACHE_SIZE, "host checks")(self._validate))
        # And the forms host_span finds in a run of host characters, the
        # same way: most of the cost of a link that repeats (issue 14).
        object.__setattr__(self, "_forms_memo", bounded(HOST_CACHE_SIZE, "host forms")(self._forms))
        # The C twin of _validate over this rule set's data (D106), per kernel
        # mode in use: (module, Hosts or None), made when first needed.
        object.__setattr__(self, "_c", (False, None))

    def _checker(self) -> Any:
        module = c_module()
        made = self._c
        if made[0] is not module:
            psl = public_suffixes()
            characters = (LABEL_SEPARATORS, PLAIN_LABEL_CHARS, _MAX_LABEL, _MAX_DOMAIN)
            checker = host_checker(
                self.tlds, psl.rules, psl.nodes, psl.flat, psl.accept_unknown, self.label.fullmatch, characters
            )
            made = (module, checker)
            object.__setattr__(self, "_c", made)
        return made[1]

    def check(self, name: str, *, any_tld: bool = False, single_label: bool = False) -> str | None:
        """The A-label form of ``name`` (labels separated by any of
        :data:`uts58.unicode.parts.LABEL_SEPARATORS`, no trailing separator) if it is a
        linkable domain, else None.

        ``any_tld``: a written scheme is the evidence (D52): any TLD of TLD
        syntax is accepted, listed or not.  ``single_label``: a name of one
        label is a host too (an intranet name after a scheme, D54).
        Answers for names of at most ``HOST_CACHE_NAME_LIMIT``
        characters are remembered (at most ``HOST_CACHE_SIZE`` of them)."""
        found = self.check_forms(name, any_tld=any_tld, single_label=single_label)
        return None if found is None else found[0]

    def check_forms(self, name: str, *, any_tld: bool = False, single_label: bool = False) -> tuple[str, str] | None:
        """:meth:`check`'s answer with the Unicode form: (A-label form,
        Unicode form), or None; remembered as :meth:`check`'s answers are."""
        if len(name) > HOST_CACHE_NAME_LIMIT:
            return self._validate(name, any_tld, single_label)
        return self._memo(name, any_tld, single_label)

    def _validate(self, name: str, any_tld: bool, single_label: bool, fast: bool = True) -> tuple[str, str] | None:
        # ``fast=False``: every name through the URL parser, and each "xn--"
        # label decoded and encoded again on its own: the reference of the
        # differential tests of the fast paths (D92, D105).
        if fast and (checker := self._checker()) is not None:
            found = checker.validate(name, any_tld, single_label)  # (D106: the steps below, in C)
            # D118: a name ada refused may still be the bridge's (one too long is no one's)
            if found is not False and not (found is None and len(name) <= 4 * _MAX_DOMAIN and bridge_may_apply(name)):
                return found  # type: ignore[no-any-return]
        if len(name) > 4 * _MAX_DOMAIN:
            # Too long whatever UTS #46 does: mapping never shortens a label
            # and NFC composes at most three characters into one (Hangul).
            return None
        if fast and _ASCII_HOST.fullmatch(name) and "xn--" not in name.lower():
            # D92, D105: letters, digits and hyphens in labels of 1-63 that
            # neither start nor end with "-": all UTS #46 does is lowercase them.
            lowered = name.lower()
            if len(lowered) > _MAX_DOMAIN:
                return None
            tld = lowered[lowered.rfind(".") + 1 :]
            if (tld not in self.tlds and not (any_tld and _TLD_SYNTAX.fullmatch(tld))) or public_suffixes().registrable(
                lowered
            ) is None:
                return None
            return lowered, lowered
        labels = _SEPARATOR.split(name)
        if len(labels) < 2:
            # D54: one label after a scheme, when asked for: an ASCII name
            # that is neither a TLD ("http://com/") nor an IPv4 number
            # ("http://0x7f/", which the URL parser reads as 0.0.0.127).
            if not single_label or not _PLAIN_ASCII_DOMAIN.fullmatch(name) or name.lower() in self.tlds:
                return None
            ascii_single = domain_to_ascii(name)
            return (
                (ascii_single, ascii_single)
                if ascii_single is not None and not ascii_single.startswith("xn--")
                else None
            )
        for label in labels:
            if not label or label[0] == "-" or label[-1] == "-":
                return None
        joined = ".".join(labels)
        if fast and _PLAIN_ASCII_DOMAIN.fullmatch(joined) and "xn--" not in joined.lower():
            # D92: letters, digits and hyphens: UTS #46 only lowercases them,
            # and a name the URL parser would read as IPv4 ends in digits, which
            # no TLD does; the full parse gives the same answer (tested).
            ascii_name: str | None = joined.lower()
        else:
            ascii_name = domain_to_ascii(joined)
        if ascii_name is None or len(ascii_name) > _MAX_DOMAIN:
            return None
        ascii_labels = ascii_name.split(".")
        if len(ascii_labels) != len(labels) or any(len(a) > _MAX_LABEL for a in ascii_labels):
            return None
        unicode_name = ascii_name
        if "xn--" in ascii_name:
            # The URL parser lets undecodable "xn--" labels through; a link
            # needs one that decodes to label characters and back.
            if fast:
                # (the whole name decoded and encoded again at once, D105)
                unicode_name = domain_to_unicode(ascii_name)
                unicode_labels = unicode_name.split(".")
                if len(unicode_labels) != len(ascii_labels):
                    return None
                for a, u in zip(ascii_labels, unicode_labels, strict=True):
                    if a.startswith("xn--") and (u == a or not self.label.fullmatch(u)):
                        return None
                if domain_to_ascii(unicode_name) != ascii_name:
                    return None
            else:
                for a in ascii_labels:
                    if a.startswith("xn--"):
                        u = domain_to_unicode(a)
                        if u == a or not self.label.fullmatch(u) or domain_to_ascii(u) != a:
                            return None
                unicode_name = domain_to_unicode(ascii_name)
        if ascii_labels[-1] not in self.tlds and not (any_tld and _TLD_SYNTAX.fullmatch(ascii_labels[-1])):
            return None
        if (public_suffixes().registrable(ascii_name) if fast else _icann_psl().privatesuffix(ascii_name)) is None:
            return None  # the domain is itself a public suffix (co.uk)
        return ascii_name, unicode_name

    def forms(self, name: str, schemed: bool, single_label: bool, path_follows: bool) -> tuple[int, str, str] | None:
        """What :func:`host_span` finds in ``name`` (a run of host characters
        without trailing separators): (length of the host in ``name``, its
        A-label form, its Unicode form), or None; remembered as
        :meth:`check`'s answers are.  ``path_follows``: a path, query or
        port follows the name (after a scheme, D52)."""
        if len(name) > HOST_CACHE_NAME_LIMIT:
            return self._forms(name, schemed, single_label, path_follows)
        return self._forms_memo(name, schemed, single_label, path_follows)

    def _forms(self, name: str, schemed: bool, single_label: bool, path_follows: bool) -> tuple[int, str, str] | None:
        if schemed:
            if name.lower() == "localhost":
                return len(name), "localhost", "localhost"
            if not name.strip("0123456789."):  # (digits and dots only)
                ip = ip_host(name)
                return (len(name), ip, ip) if ip else None
        checked = self.check_forms(name, any_tld=schemed, single_label=single_label)
        if checked is not None:
            ascii_name, unicode_name = checked
            if schemed and ascii_name.rpartition(".")[2] not in self.tlds and not path_follows:
                # D52: an unlisted TLD after a domain that is whole without it,
                # with no path, query or port after it, is the next sentence, its
                # space missing ("http://example.com.Then go").
                last = max(name.rfind(c) for c in LABEL_SEPARATORS)
                shorter = self.check_forms(name[:last]) if last > 0 else None
                if shorter is not None:
                    return last, *shorter
            return len(name), ascii_name, unicode_name
        # Decision (docs/decisions.md D22): in CJK text a domain may run into the
        # words around it.  An ASCII TLD followed at once by non-ASCII letters
        # ends there ("example.com了解"), and an ideographic full stop that makes
        # the domain invalid ends the sentence, not the domain ("example.com。谢谢").
        stop = max(name.rfind(c) for c in IDEOGRAPHIC_FULL_STOPS)
        for cut in (name, name[:stop] if stop > 0 else ""):
            last = max(cut.rfind(c) for c in LABEL_SEPARATORS) + 1
            m = _LEADING_LETTERS.match(cut, last)
            if m is not None and m.end() < len(cut) and not cut[m.end()].isascii() and not _latin(cut[m.end()]):
                # (a Latin letter goes on the word: "3.cośtam" is no "3.co", D97)
                cut = cut[: m.end()]
            if cut and cut != name:
                found = self.check_forms(cut, any_tld=schemed)
                if found is not None:
                    return len(cut), *found
        return None

    def is_tld(self, label: str) -> bool:
        if label.isascii():
            return label.lower() in self.tlds
        ascii_label = domain_to_ascii(label)
        return ascii_label is not None and ascii_label in self.tlds


@lru_cache(maxsize=16)
def domain_rules(tlds: frozenset[str], unicode_version: str) -> DomainRules:
    """The DomainRules of a TLD set and Unicode version (built once)."""
    from ..unicode.properties import link_properties

    return DomainRules(tlds, host_patterns(link_properties(unicode_version)).label)


_LEADING_LETTERS = re.compile("[A-Za-z]+")
PATH_START = "/?#"  # (what may follow a host: a path, a query, a fragment)


def _latin(ch: str) -> bool:
    """A letter of the Latin script beyond ASCII (Latin-1, Extended-A/B,
    Extended Additional): it continues an ASCII word, it starts no new one."""
    return "\u00c0" <= ch <= "\u024f" or "\u1e00" <= ch <= "\u1eff"


def host_span(
    text: str, s: int, e: int, rules: DomainRules, *, schemed: bool = False, single_label: bool = False
) -> tuple[int, str, str] | None:
    """Validate the host characters ``text[s:e]`` (label characters and
    separators): (host end, A-label form, Unicode form), or None.

    A trailing separator belongs to the host only when a path, query or
    fragment follows it.  With ``schemed``, ``localhost`` and IP addresses
    are hosts too, and any TLD of TLD syntax is accepted; with
    ``single_label`` also a name of one label.
    """
    name = text[s:e].rstrip(LABEL_SEPARATORS)
    k = s + len(name)
    if k == s:
        return None
    host_end = k + 1 if e - k == 1 and e < len(text) and text[e] in PATH_START else k
    # (what follows matters after a scheme only: D52)
    path_follows = schemed and text[host_end : host_end + 1] in ("/", "?", "#", ":")
    found = rules.forms(name, schemed, single_label, path_follows)
    if found is None:
        return None
    length, ascii_name, unicode_name = found
    return (host_end if length == len(name) else s + length), ascii_name, unicode_name


# --------------------------------------------------------------------------
# Scanning text for hosts


@dataclass(frozen=True)
class HostPatterns:
    """Compiled patterns over label characters and separators."""

    label: re.Pattern[str]  # one or more label characters
    run_end: re.Pattern[str]  # .match(text, i).end(): end of the host characters from i
    run_ranges: tuple[tuple[int, int], ...]  # host characters and separators (run_starts())
    candidate: re.Pattern[str]  # where a link may be: "://", "@", a separator before a label (D23)
    # The lookaheads of the candidate pattern after "://", "@" and a separator.
    after_scheme: str
    after_at: str
    after_separator: str
    bmp_label: str  # the class of BMP label characters (the lookaheads' label)

    def candidate_source(self, after_scheme: str = "") -> str:
        """The candidate pattern, ``after_scheme`` added to what may follow
        ``://``.  Every alternative starts with one character of a small set
        (``:``, ``@``, a separator), which the regex engine then skips to
        without trying the pattern at each character of the text (issue 14:
        2.3× faster on prose).  A separator's match goes on to the end of its
        run of host characters (what ``run_end`` would find from it).

        Runs of those characters where none starts a candidate (``....``,
        ``@@@@``, ``.@:``: each followed by one that no label can follow;
        ``@x@x@``: each ``@`` before a label that runs into the next) are
        matched whole too, so that the search passes them in one step
        instead of one failed attempt per character; these matches, and only
        they, close a group (``match.lastindex`` is not None): no scan links
        anything in them."""
        seps = LABEL_SEPARATORS
        scheme = self.after_scheme + ("|" + after_scheme if after_scheme else "")
        # (exclusive alternatives: no backtracking; "()" marks a run passed over)
        rest = f"(?:[{seps}](?=[{seps}@:])|@(?=[@:])|:(?=[{seps}@:]))*()"
        # ("x@x@x@", "@@@@": an "@" whose label runs into the next "@" starts
        # no email; one class repeated, then back to the last "@")
        ats = f"@[{self.bmp_label[1:-1]}@]*(?=@)()"
        alternatives = [f"://(?={scheme})", f":(?=[{seps}@:]){rest}", ats, f"@(?={self.after_at})"]
        alternatives.append(f"@(?=:){rest}")
        for sep in seps:
            c = re.escape(sep)
            alternatives += [f"{c}{c}*(?={c})()", f"{c}(?={self.after_separator}){self.run_end.pattern}"]
            alternatives.append(f"{c}(?=[{seps}@:]){rest}")
        return "|".join(alternatives)


def _run_pattern(ranges: list[tuple[int, int]]) -> str:
    """``[ranges]*``, written so that a BMP character outside the ranges
    (where a run ends: "/", a space) is refused at the cost of one bitmap
    lookup, not of a scan of every supplementary range (issue 14: the end
    of ``example.com/`` found in 0.4 µs instead of 1 µs)."""
    bmp = char_class([(first, min(last, 0xFFFF)) for first, last in ranges if first <= 0xFFFF])
    astral = char_class([(max(first, 0x10000), last) for first, last in ranges if last >= 0x10000])
    return f"{bmp}*(?:(?=[\U00010000-\U0010ffff]){astral}{bmp}*)*"


@cache
def host_patterns(props: LinkProperties) -> HostPatterns:
    domain = props.domain_ranges()
    with_seps = sorted(domain + [(ord(c), ord(c)) for c in LABEL_SEPARATORS])
    # The lookaheads hold BMP label characters only (a miss in a class with
    # supplementary ranges costs ~1 µs); a supplementary character lets the
    # candidate through and Python decides.  They make the regex engine,
    # not Python, skip what cannot be a link: "@@@@", "x@x@x@", "http://http://".
    label = char_class([(first, min(last, 0xFFFF)) for first, last in domain if first <= 0xFFFF])
    sep = "[" + LABEL_SEPARATORS + "]"
    astral = "[\\U00010000-\\U0010ffff]"
    dotted = f"{label}*(?:{sep}|{astral})"  # a host with a separator (or undecided)
    patterns = HostPatterns(
        label=re.compile(char_class(domain) + "+"),
        run_end=re.compile(_run_pattern(with_seps)),
        run_ranges=tuple(with_seps),
        candidate=re.compile(""),  # (below)
        # scheme: a dotted host, an IPv6 literal, localhost, or userinfo
        after_scheme=f"{dotted}|\\[|(?i:localhost)|[^\\s/?#@]*@",
        # email: a dotted domain after the "@"
        after_at=dotted,
        # a separator between labels
        after_separator=f"{label}|{astral}",
        bmp_label=label,
    )
    object.__setattr__(patterns, "candidate", re.compile(patterns.candidate_source()))
    return patterns


class RunStarts(NamedTuple):
    """``start(text, lo, hi)``: where the run that ends at ``hi`` starts (kernels.run_start):
    ``host`` over host characters and separators (D22), ``email`` over Link_Email (§5.2)."""

    host: Callable[[str, int, int], int]
    email: Callable[[str, int, int], int]


def run_starts(props: LinkProperties) -> RunStarts:
    """The backward scans over ``props``' runs, by the kernels in use (one pair per mode)."""
    return _run_starts(props, c_module())


@lru_cache(maxsize=8)
def _run_starts(props: LinkProperties, module: Any) -> RunStarts:
    return RunStarts(kernel_run_start(host_patterns(props).run_ranges), kernel_run_start(props.email_ranges()))
