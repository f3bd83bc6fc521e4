"""Finding URLs and email addresses in plain text (UTS #58 §3 and §5).

:func:`find_links` scans the text once, left to right.  A compiled regular
expression jumps to the places where a link can be — ``://``, ``@``, or a
label separator followed by a label character — and only there does Python
look closer: the scheme, the host (:mod:`uts58.hosts`), the port, then
:func:`~uts58.termination.find_link_end` (§3.5.1) for URLs or the backward
scan of §5.2 for email addresses.  Every backward scan is bounded by the end
of what was already processed, so the whole pass is linear in the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import quote

import ada_url

from ._checks import check_str
from .email import _display as _email_display
from .email import _find_email_start
from .errors import OptionError
from .escaping import SPECIAL_SCHEMES, _format_url
from .hosts import (
    FILE_EXTENSION_TLDS,
    LABEL_SEPARATORS,
    DomainRules,
    HostPatterns,
    default_tlds,
    domain_rules,
    host_patterns,
    host_span,
    ip_host,
    normalize_tlds,
    run_start,
)
from .properties import DEFAULT_UNICODE_VERSION, LinkProperties, link_properties
from .termination import _find_link_end

__all__ = ["DEFAULT_SCHEMES", "Link", "find_emails", "find_links", "find_urls"]

DEFAULT_SCHEMES = frozenset({"http", "https", "ftp"})
# Schemes that run code or read local files: never linked, whatever the caller asks.
FORBIDDEN_SCHEMES = frozenset({"javascript", "data", "vbscript", "file"})
_SCHEME_SYNTAX = re.compile(r"[a-z][a-z0-9+.\-]*")  # RFC 3986 §3.1

Kind = Literal["url", "email"]

_PORT = re.compile(r":([0-9]{1,5})(?![0-9])")
_USERINFO = re.compile(r"[^\s@/?#\\\[\]]*@")
_CIDR_SUFFIX = re.compile(r"/[0-9]{1,2}(?![0-9A-Za-z/._~%-])")
_DOTTED_QUAD = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9.])")
_MESSAGE_ID_HEADER = re.compile(r"(?i)(?:message-id|in-reply-to|references|content-id|resent-message-id):[ \t]*\Z")
_SEPARATOR_SPLIT = re.compile("([.\u3002\uff0e\uff61])")
_SCHEME_CHAR = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
# A scheme is a word of its own: no letter, digit, '+' or '-' just before it
# ("xhttp://" is not http); a '.' may be ("site.https://…" lacks a space).
_BEFORE_SCHEME = _SCHEME_CHAR - {"."}
# D51: characters of paths, file names, identifiers and markup that a
# scheme-less domain may not follow ("debian/rules.mk", "pam_unix.so",
# "Foo::Bar.pm", "WantedBy=multi-user.target", ":meth:`~os.path`").
_GLUED_BEFORE = frozenset("/\\@:=%$&#+~")
# ... nor run on into ("user.name=x"): the name goes on.
_GLUED_AFTER = frozenset("\\=$%")
_IDEOGRAPHIC_STOPS = "\u3002\uff61\uff0e"
_IDEOGRAPHIC_STOP = re.compile("[" + _IDEOGRAPHIC_STOPS + "]")
_CJK = re.compile(
    "[\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u318f\u31a0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff66-\uffdc\U00020000-\U0003ffff]"
)
_MAILTO_SAFE = "!$'()*+,;:@-._~"  # RFC 6068 qchar minus unreserved (quote keeps those)


class Link:
    """A link found in text: ``text[start:end]``, of ``kind`` "url" or "email".

    ``scheme`` is the scheme as written (``"https"``, ``"mailto"``) or None
    when implied; ``host`` the host in Unicode form.  ``href`` is the
    absolute ASCII URL for an ``<a href>`` (WHATWG serialization: scheme
    added when implied, punycode host, percent-encoding); ``display`` the
    minimally escaped form for people (§4, §5.3).  Both are computed on
    first use.  Links are immutable and compare by position, kind and text.

    >>> link = next(find_links("see bücher.de/straße."))
    >>> link
    Link(start=4, end=20, kind='url', text='bücher.de/straße')
    >>> link.href, link.display
    ('https://xn--bcher-kva.de/stra%C3%9Fe', 'bücher.de/straße')
    """

    __slots__ = (
        "_ascii_host",
        "_display",
        "_href",
        "_tlds",
        "_version",
        "end",
        "host",
        "kind",
        "scheme",
        "start",
        "text",
    )

    start: int
    end: int
    kind: Kind
    text: str
    scheme: str | None
    host: str
    _ascii_host: str
    _tlds: frozenset[str] | None  # the TLD set the host was validated with
    _version: str
    _href: str | None
    _display: str | None

    def __init__(
        self,
        start: int,
        end: int,
        kind: Kind,
        text: str,
        scheme: str | None,
        host: str,
        *,
        ascii_host: str | None = None,
        unicode_version: str = DEFAULT_UNICODE_VERSION,
        tlds: frozenset[str] | None = None,
    ) -> None:
        for name, value in (
            ("start", start),
            ("end", end),
            ("kind", kind),
            ("text", text),
            ("scheme", scheme),
            ("host", host),
            ("_ascii_host", ascii_host or host),
            ("_version", unicode_version),
            ("_tlds", tlds),
            ("_href", None),
            ("_display", None),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Link is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Link is immutable")

    def __repr__(self) -> str:
        return f"Link(start={self.start}, end={self.end}, kind={self.kind!r}, text={self.text!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Link):
            return NotImplemented
        return (self.start, self.end, self.kind, self.text) == (other.start, other.end, other.kind, other.text)

    def __hash__(self) -> int:
        return hash((self.start, self.end, self.kind, self.text))

    def as_dict(self) -> dict[str, Any]:
        """The link as a plain record (JSON, Arrow, pickling):
        start, end, kind, text, href, display."""
        return {
            "start": self.start,
            "end": self.end,
            "kind": self.kind,
            "text": self.text,
            "href": self.href,
            "display": self.display,
        }

    def _moved(self, delta: int) -> Link:
        """The same link ``delta`` characters further on (for streamed text)."""
        return Link(
            self.start + delta,
            self.end + delta,
            self.kind,
            self.text,
            self.scheme,
            self.host,
            ascii_host=self._ascii_host,
            unicode_version=self._version,
            tlds=self._tlds,
        )

    @property
    def href(self) -> str:
        """Absolute ASCII URL (``https://`` or ``mailto:`` added when implied)."""
        href: str | None = self._href
        if href is None:
            if self.kind == "email":
                local = self._email_split()[1]
                href = "mailto:" + quote(local, safe=_MAILTO_SAFE) + "@" + self._ascii_host
                object.__setattr__(self, "_href", href)
            else:
                href = self._url_forms()[0]
        return href

    @property
    def display(self) -> str:
        """Minimally escaped form for display (UTS #58 §4, §5.3)."""
        display: str | None = self._display
        if display is None:
            if self.kind == "email":
                # Detection validated the domain: its display form is self.host.
                prefix, local = self._email_split()
                display = _email_display(prefix, local, self.host, link_properties(self._version))
                object.__setattr__(self, "_display", display)
            else:
                display = self._url_forms()[1]
        return display

    def _email_split(self) -> tuple[str, str]:
        """("mailto:" as written or "", local-part) of an email link."""
        local = self.text.rpartition("@")[0]
        if self.scheme is None:
            return "", local
        return local[: len(self.scheme) + 1], local[len(self.scheme) + 1 :]

    def _url_forms(self) -> tuple[str, str]:
        # One WHATWG parse gives both forms (a scheme-less link is parsed as
        # https: its href has the scheme, its display keeps none).
        props = link_properties(self._version)
        if self.scheme is not None and self.scheme.lower() not in SPECIAL_SCHEMES:
            # D52: a scheme the caller named, parsed by the WHATWG parser as a
            # non-special URL; shown as written (detection took it whole).
            href, display = ada_url.normalize_url(self.text), self.text
        elif self.scheme is None and (self.host == "localhost" or _DOTTED_QUAD.fullmatch(self.host)):
            # D54: localhost and IP addresses without a scheme serve plain http.
            href, display = _format_url("http://" + self.text, props, (self._ascii_host, self.host))
            display = display[len("http://") :]
        else:
            href, display = _format_url(self.text, props, (self._ascii_host, self.host))
        object.__setattr__(self, "_href", href)
        object.__setattr__(self, "_display", display)
        return href, display


def check_options(
    *,
    urls: object,
    emails: object,
    require_scheme: object,
    schemes: object,
    bare_ipv4: object = False,
    bare_localhost: object = False,
    single_label_hosts: object = False,
    file_extensions: object = None,
) -> frozenset[str]:
    """The detection options checked (TypeError naming the argument, ValueError
    for a scheme that is not a scheme or is never linked); the schemes,
    lower-cased."""
    for name, flag in (
        ("urls", urls),
        ("emails", emails),
        ("require_scheme", require_scheme),
        ("bare_ipv4", bare_ipv4),
        ("bare_localhost", bare_localhost),
        ("single_label_hosts", single_label_hosts),
    ):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be bool, not {type(flag).__name__}")
    if isinstance(schemes, str) or not isinstance(schemes, Iterable):
        raise TypeError(f"schemes must be an iterable of str, not {type(schemes).__name__}")
    wanted = frozenset(check_str(s, "schemes[]").lower().removesuffix(":") for s in schemes)
    bad = sorted(s for s in wanted if not _SCHEME_SYNTAX.fullmatch(s))
    if bad:
        raise OptionError(f"schemes: {bad} are not URL schemes (a letter, then letters, digits, '+', '-' or '.')")
    if file_extensions is not None:
        file_extension_set(file_extensions)
    if wanted & FORBIDDEN_SCHEMES:
        raise OptionError(
            f"schemes: {sorted(wanted & FORBIDDEN_SCHEMES)} are never linked (they run code or read local files)"
        )
    return wanted - {"mailto"}  # mailto: goes with email addresses, always


_PREFILTER = re.compile("[.@\u3002\uff0e\uff61]|://")
_PREFILTER_COLON = re.compile("[.@:\u3002\uff0e\uff61]")


def prefilter(schemes: Iterable[str], bare_localhost: bool = False) -> re.Pattern[str]:
    """A pattern that finds something in every text that may hold a link
    under these options (for adapters that skip text cheaply): a label
    separator, ``@`` or ``://`` (``http://localhost/``), and any ``:`` when
    a scheme without ``//`` or ``localhost:PORT`` may be linked
    (``tel:123`` has none of the others)."""
    if bare_localhost or any(s.lower() not in SPECIAL_SCHEMES for s in schemes):
        return _PREFILTER_COLON
    return _PREFILTER


def file_extension_set(names: object) -> frozenset[str]:
    """``file_extensions`` checked and normalized (lower case, no dot)."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise TypeError(f"file_extensions must be an iterable of str, not {type(names).__name__}")
    return frozenset(check_str(name, "file_extensions[]").lower().lstrip(".") for name in names)


def find_links(
    text: str,
    *,
    urls: bool = True,
    emails: bool = True,
    schemes: Iterable[str] = DEFAULT_SCHEMES,
    require_scheme: bool = False,
    known_tlds: Iterable[str] | None = None,
    bare_ipv4: bool = False,
    bare_localhost: bool = False,
    single_label_hosts: bool = False,
    file_extensions: Iterable[str] | None = None,
    unicode_version: str = DEFAULT_UNICODE_VERSION,
) -> Iterator[Link]:
    """Find the URLs and email addresses in ``text``, in order, never overlapping.

    * ``urls``, ``emails``: which kinds to report.  Both are always looked
      for, so that an email address is never reported as a URL or the
      reverse (``john.doe@example.com`` is an email, never a URL).
    * ``schemes``: the schemes recognized when written (``http``, ``https``
      and ``ftp`` by default).  Any other scheme may be named (``ssh``,
      ``git``, ``magnet``, ``tel``, ``xmpp``…), except ``javascript``,
      ``data``, ``vbscript`` and ``file``.  A URL of a scheme not named is
      left alone whole: neither its host, nor its userinfo, nor a piece of
      its path is linked.  ``mailto:`` goes with email addresses.
    * ``require_scheme``: report URLs only when written with a scheme.
    * ``known_tlds``: top-level domains to accept instead of the default
      set (see :mod:`uts58.tlds`) for domains written without a scheme;
      after a scheme any TLD of TLD syntax is accepted.
    * ``file_extensions``: TLDs that a domain written without a scheme,
      ``www.`` or a path may not have, because they are far more often file
      extensions (``configure.ac``, ``network.target``; default
      :data:`uts58.hosts.FILE_EXTENSION_TLDS`; ``()`` for none).
    * ``bare_ipv4``: link an IPv4 address without a scheme when a port or a
      path follows (``192.168.0.1:8080``, ``10.0.0.1/admin``); off by default.
    * ``bare_localhost``: link ``localhost:PORT`` without a scheme.
    * ``single_label_hosts``: link a host of one label after a scheme
      (``http://intranet/``).

    >>> [link.text for link in find_links("Mail アルベルト@example.com or see https://ja.wikipedia.org/wiki/日本.")]
    ['アルベルト@example.com', 'https://ja.wikipedia.org/wiki/日本']
    """
    check_str(text, "text")
    wanted = check_options(
        urls=urls,
        emails=emails,
        require_scheme=require_scheme,
        schemes=schemes,
        bare_ipv4=bare_ipv4,
        bare_localhost=bare_localhost,
        single_label_hosts=single_label_hosts,
    )
    tlds = default_tlds() if known_tlds is None else normalize_tlds(known_tlds)
    props = link_properties(unicode_version)
    scanner = _Scanner(
        text,
        props,
        domain_rules(tlds, props.version),
        _Options(
            wanted,
            require_scheme,
            bare_ipv4,
            bare_localhost,
            single_label_hosts,
            FILE_EXTENSION_TLDS if file_extensions is None else file_extension_set(file_extensions),
        ),
    )
    return scanner.links(urls, emails)


def find_urls(text: str, **options: object) -> Iterator[Link]:
    """:func:`find_links` reporting URLs only.

    >>> [link.text for link in find_urls("x@example.com, example.org/a")]
    ['example.org/a']
    """
    return find_links(text, emails=False, **options)  # type: ignore[arg-type]


def find_emails(text: str, **options: object) -> Iterator[Link]:
    """:func:`find_links` reporting email addresses only.

    >>> [link.text for link in find_emails("x@example.com, example.org/a")]
    ['x@example.com']
    """
    return find_links(text, urls=False, **options)  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Options:
    schemes: frozenset[str]
    require_scheme: bool
    bare_ipv4: bool
    bare_localhost: bool
    single_label_hosts: bool
    file_extensions: frozenset[str]


@lru_cache(maxsize=64)
def _candidate_pattern(
    patterns: HostPatterns, opaque: tuple[str, ...], localhost: bool, single_label: bool
) -> re.Pattern[str]:
    """The candidate pattern of :func:`host_patterns` with what the options
    add: ``scheme:`` of a scheme without ``//``, ``localhost:PORT``, ``://``
    before a host of one label."""
    alternatives = [patterns.candidate.pattern]
    if single_label:
        alternatives.append(f"://(?={patterns.label.pattern})")
    if opaque:
        names = "|".join(re.escape(name) for name in opaque)
        alternatives.append(f"(?<![A-Za-z0-9+\\-])(?i:{names}):(?!//)")
    if localhost:
        alternatives.append("(?i:localhost):(?=[0-9])")
    return re.compile("|".join(alternatives))


class _Scanner:
    """One left-to-right pass over a text.

    Each handler looks at one candidate and returns ``(link, resume)``:
    the link found (or None) and the offset where the search goes on.
    ``self.floor`` is the end of the last link or of a region that must not
    be linked (an invalid email's domain, a URL of a scheme not enabled):
    no link may start before it.
    """

    def __init__(self, text: str, props: LinkProperties, rules: DomainRules, options: _Options) -> None:
        self.text = text
        self.props = props
        self.rules = rules
        self.opts = options
        self.scheme_set = options.schemes
        self.scheme_lengths = sorted({len(scheme) for scheme in options.schemes}, reverse=True)
        self.patterns: HostPatterns = host_patterns(props)
        opaque = tuple(sorted(options.schemes - SPECIAL_SCHEMES))
        self.candidate = _candidate_pattern(self.patterns, opaque, options.bare_localhost, options.single_label_hosts)
        self.floor = 0
        # The run of label characters last split into pieces, and its pieces
        # not yet looked at (see _bare).
        self.run_end = 0
        self.run_pieces: deque[tuple[int, int]] = deque()
        self.message_id_end = 0  # after the ">" of the last Message-ID (D55)

    def links(self, urls: bool, emails: bool) -> Iterator[Link]:
        text = self.text
        search = self.candidate.search
        pos = 0
        while True:
            m = search(text, pos)
            if m is None:
                return
            at, found = m.start(), m.group()
            if found == "://":
                link, pos = self._schemed(at)
            elif found == "@":
                link, pos = self._email(at)
            elif found[-1] == ":":
                link, pos = self._localhost(at) if found.lower() == "localhost:" else self._opaque(at, found)
            else:
                link, pos = self._bare(at, pos)
            if link is not None:
                self.floor = link.end
                if (urls if link.kind == "url" else emails) and not (
                    link.kind == "url" and self.opts.require_scheme and link.scheme is None
                ):
                    yield link

    # -- helpers -------------------------------------------------------

    def _run_end(self, i: int) -> int:
        m = self.patterns.run_end.match(self.text, i)
        assert m is not None  # the pattern also matches the empty string
        return m.end()

    def _port_end(self, i: int) -> int:
        m = _PORT.match(self.text, i)
        return m.end() if m is not None and int(m.group(1)) <= 65535 else i

    def _url(self, start: int, host_end: int, ascii_host: str, host: str, scheme: str | None) -> Link:
        end = _find_link_end(self.text, self._port_end(host_end), self.props)
        return self._link(start, end, "url", scheme, host, ascii_host)

    def _link(self, start: int, end: int, kind: Kind, scheme: str | None, host: str, ascii_host: str) -> Link:
        return Link(
            start,
            end,
            kind,
            self.text[start:end],
            scheme,
            host,
            ascii_host=ascii_host,
            unicode_version=self.props.version,
            tlds=self.rules.tlds,
        )

    def _body_end(self, i: int) -> int:
        """Where §3.5.1 ends ``text[i:]`` read as a path: the end of an opaque
        URL's body, or of what follows the ``://`` of a URL not linked."""
        text = self.text
        if i >= len(text):
            return i
        return _find_link_end(text, i, self.props, text[i] not in "/?#")

    def _skip(self, i: int) -> tuple[None, int]:
        """D53: a scheme-like token that is not linked is left alone whole:
        no piece of its userinfo, host or path is linked either."""
        text = self.text  # (_body_end inlined: this is the path of hostile "a://b)a://b)…")
        end = _find_link_end(text, i, self.props, text[i] not in "/?#") if i < len(text) else i
        if end > self.floor:
            self.floor = end
        return None, end

    def _glued_before(self, i: int) -> bool:
        """D51: ``text[i - 1]`` is a character of a path, file name or
        identifier, so that a name starting at ``i`` continues a word."""
        if i <= 0:
            return False
        ch = self.text[i - 1]
        if ch.isspace():
            return False  # (the common case)
        if ch == "_":
            # "pam_unix.so" is one identifier; "_example.com_" is emphasis.
            return i >= 2 and self.text[i - 2].isalnum()
        return ch in _GLUED_BEFORE or ch.isalnum() or unicodedata.category(ch)[0] == "M"

    def _clauses(self, s: int, e: int) -> list[tuple[int, int]]:
        """D22: ``text[s:e]`` cut at each ideographic full stop between a
        label of CJK text and an ASCII label: there it ends a clause, not a
        label (``…されています。info``, ``example.com。我爱你``)."""
        text = self.text
        if _IDEOGRAPHIC_STOP.search(text, s, e) is None:
            return [(s, e)]
        pieces = _SEPARATOR_SPLIT.split(text[s:e])
        out: list[tuple[int, int]] = []
        start = k = s
        for j in range(1, len(pieces) - 1, 2):
            k += len(pieces[j - 1])
            before, after = pieces[j - 1], pieces[j + 1]
            if (
                pieces[j] in _IDEOGRAPHIC_STOPS
                and before
                and after
                and ((before.isascii() and _CJK.search(after)) or (after.isascii() and _CJK.search(before)))
            ):
                out.append((start, k))
                start = k + 1
            k += 1
        out.append((start, e))
        return out

    # -- candidates ----------------------------------------------------

    def _schemed(self, at: int) -> tuple[Link | None, int]:
        """``://`` at ``at``: a URL with a scheme."""
        text = self.text
        h = at + 3
        if at == 0 or text[at - 1] not in _SCHEME_CHAR:
            return None, h  # "://" after no scheme
        start = None
        for n in self.scheme_lengths:
            s = at - n
            if (
                s >= self.floor
                and text[s:at].lower() in self.scheme_set
                and (s == 0 or text[s - 1] not in _BEFORE_SCHEME)
            ):
                start = s
                break
        if start is None:
            return self._skip(h)  # another scheme (file://, foo://): D19, D53
        scheme = text[start:at]
        special = scheme.lower() in SPECIAL_SCHEMES
        if h < len(text) and text[h] == "[":
            close = text.find("]", h, h + 64)
            ip = ip_host(text[h : close + 1]) if close > 0 else None
            if ip is None:
                return self._skip(h)
            link = self._url(start, close + 1, ip, ip, scheme)
            return link, link.end
        hs = h
        userinfo = _USERINFO.match(text, h)
        if userinfo is not None:
            # D20: scheme://user@host is not linked after a special scheme
            # (deprecated, a spoofing aid), nor with a password after any.
            if special or ":" in userinfo.group() or userinfo.end() == h + 1:
                return self._skip(h)
            hs = userinfo.end()  # ssh://git@example.com/: a user name only
        e = self._clauses(hs, self._run_end(hs))[0][1]
        host = host_span(text, hs, e, self.rules, schemed=True, single_label=self.opts.single_label_hosts)
        if host is None:
            return self._skip(h)
        host_end, ascii_host, unicode_host = host
        link = self._url(start, host_end, ascii_host, unicode_host, scheme)
        return link, link.end

    def _opaque(self, at: int, found: str) -> tuple[Link | None, int]:
        """``scheme:`` of an enabled scheme without ``//`` (``tel:``, ``magnet:?``)."""
        colon = at + len(found) - 1
        if at < self.floor:
            return None, colon + 1
        end = self._body_end(colon + 1)
        if end == colon + 1:
            return None, end
        if not ada_url.check_url(self.text[at:end]):
            self.floor = end  # D53: not linked, and nothing inside it either
            return None, end
        link = self._link(at, end, "url", self.text[at:colon], "", "")
        return link, end

    def _localhost(self, at: int) -> tuple[Link | None, int]:
        """``localhost:PORT`` without a scheme (``bare_localhost``)."""
        host_end = at + len("localhost")
        if at < self.floor or self._glued_before(at) or self._port_end(host_end) == host_end:
            return None, host_end
        link = self._url(at, host_end, "localhost", "localhost", None)
        return link, link.end

    def _bare(self, at: int, pos: int) -> tuple[Link | None, int]:
        """A label separator at ``at``: maybe a domain without a scheme."""
        text = self.text
        if at < self.run_end:
            # Inside a run already split (D22) where a link was found: go on
            # with its next pieces, not with a new scan of the whole run.
            e, pieces = self.run_end, self.run_pieces
        else:
            e = self._run_end(at)
            if e == at + 1:
                return None, e  # a supplementary character that is no label character
            if e < len(text) and text[e] == "@":
                return None, e  # a local-part: the "@" decides
            r = run_start(self.patterns.run_start, text, max(pos, self.floor), at)
            pieces = deque(self._clauses(r, e))
        while pieces:
            a, b = pieces.popleft()
            if a < self.floor:
                continue  # (inside the link found in an earlier piece)
            s = a
            while s < b and text[s] in LABEL_SEPARATORS:
                s += 1  # (a run of separators can reach b: "http://[::1]/xa.com")
            if s == b or self._glued_before(a) or (s > a and any(text[k] in ".\uff0e" for k in range(a, s))):
                # D51: after a path or identifier character, or a name that
                # starts with a dot (".bashrc", "*.links.in"): not a domain.
                continue
            link = self._bare_host(s, b)
            if link is not None:
                self.run_end, self.run_pieces = e, pieces
                return link, link.end
        self.run_end = e
        return None, e

    def _bare_host(self, s: int, b: int) -> Link | None:
        """The link of the domain (or, with ``bare_ipv4``, the IPv4 address)
        at ``text[s:b]``, or None."""
        text = self.text
        if self.opts.bare_ipv4 and _DOTTED_QUAD.match(text, s, b):
            return self._bare_ipv4(s, b)
        host = host_span(text, s, b, self.rules, schemed=False)
        if host is None:
            return None
        host_end, ascii_host, unicode_host = host
        if host_end < len(text) and (
            text[host_end] in _GLUED_AFTER
            or (text[host_end] == "_" and host_end + 1 < len(text) and text[host_end + 1].isalnum())
        ):
            return None  # D51: "stat.st_size", "user.name=Jane": the word goes on
        if (
            ascii_host[ascii_host.rfind(".") + 1 :] in self.opts.file_extensions
            and not ascii_host.startswith("www.")
            and text[host_end : host_end + 1] != "/"
        ):
            return None  # D56: "configure.ac", "network.target": a file, not a site
        return self._url(s, host_end, ascii_host, unicode_host, None)

    def _bare_ipv4(self, s: int, b: int) -> Link | None:
        """``bare_ipv4``: a dotted-quad IPv4 address followed by a port or a path."""
        text = self.text
        m = _DOTTED_QUAD.match(text, s, b)
        assert m is not None
        k = m.end()
        if not (self._port_end(k) > k or text[k : k + 1] == "/") or _CIDR_SUFFIX.match(text, k):
            return None  # (192.168.1.0/24 is a network, not a page)
        ip = ip_host(m.group())
        if ip != m.group():
            return None  # not canonical (leading zeros read as octal, values over 255)
        return self._url(s, k, ip, ip, None)

    def _email(self, at: int) -> tuple[Link | None, int]:
        """``@`` at ``at``: an email address if a domain follows and §5.2
        finds a local-part."""
        text = self.text
        e = self._clauses(at + 1, self._run_end(at + 1))[0][1]
        start = _find_email_start(text, at, self.props)
        scheme = None
        if start is not None and start >= self.floor:
            scheme = text[start : start + 6] if text[start : start + 7].lower() == "mailto:" else None
            if scheme is None and (self._scheme_before(start) or self._message_id(start, e)):
                # D53: the userinfo of a URI ("sip:alice@example.com"); D55: a
                # Message-ID.  (Decided before the domain is validated: cheap.)
                self.floor = max(self.floor, e)
                return None, e
        host = host_span(text, at + 1, e, self.rules, schemed=False)
        if host is None:
            return None, at + 1
        host_end, ascii_host, unicode_host = host
        if host_end > at + 1 and text[host_end - 1] in LABEL_SEPARATORS:
            host_end -= 1  # an email domain never keeps a trailing dot
        if start is None or start < self.floor:
            # UTS #58 §5 test data: an invalid local-part skips the domain too.
            self.floor = host_end
            return None, host_end
        if scheme is None and self._path_after(host_end):
            self.floor = host_end  # D55: an scp or git target ("git@example.com:org/repo.git")
            return None, host_end
        return self._link(start, host_end, "email", scheme, unicode_host, ascii_host), host_end

    def _scheme_before(self, start: int) -> bool:
        """``text[:start]`` ends with ``scheme:`` glued to the local-part."""
        text = self.text
        if start == 0 or text[start - 1] != ":":
            return False
        k = start - 1
        lo = max(self.floor, k - 64)
        while k > lo and text[k - 1] in _SCHEME_CHAR:
            k -= 1
        return k < start - 1 and text[k].isascii() and text[k].isalpha()

    def _message_id(self, start: int, end: int) -> bool:
        """``<local@domain>`` after a Message-ID, In-Reply-To, References or
        Content-ID header name: an identifier in address syntax (RFC 5322
        §3.6.4), not a mailbox."""
        text = self.text
        if start == 0 or text[start - 1] != "<" or text[end : end + 1] != ">":
            return False
        if (
            _MESSAGE_ID_HEADER.search(text, max(self.floor, start - 40), start - 1) is None
            # (the next identifier of a References: list, folded lines too)
            and not (0 < self.message_id_end <= start - 1 and text[self.message_id_end : start - 1].isspace())
        ):
            return False
        self.message_id_end = end + 1
        return True

    def _path_after(self, host_end: int) -> bool:
        """``:`` then a path after a domain: a letter or ``/ ~ . _`` (not a
        digit: the conformance file keeps ``john.doe@example.com:1234/…``;
        not ``:)`` or ``:,``)."""
        text = self.text
        return (
            host_end + 1 < len(text)
            and text[host_end] == ":"
            and (text[host_end + 1].isalpha() or text[host_end + 1] in "/~._")
        )
