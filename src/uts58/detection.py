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
from collections.abc import Iterable, Iterator
from typing import Any, Literal
from urllib.parse import quote

from ._checks import check_str
from .email import _display as _email_display
from .email import _find_email_start
from .escaping import SPECIAL_SCHEMES, _format_url
from .hosts import (
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

DEFAULT_SCHEMES = frozenset({"http", "https"})

Kind = Literal["url", "email"]

_PORT = re.compile(r":([0-9]{1,5})(?![0-9])")
_USERINFO_AT = re.compile(r"(?::[^\s@/?#\\]*)?@")
_SCHEME_CHAR = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
# A scheme is a word of its own: no letter, digit, '+' or '-' just before it
# ("xhttp://" is not http); a '.' may be ("site.https://…" lacks a space).
_BEFORE_SCHEME = _SCHEME_CHAR - {"."}
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
        href, display = _format_url(self.text, link_properties(self._version), (self._ascii_host, self.host))
        object.__setattr__(self, "_href", href)
        object.__setattr__(self, "_display", display)
        return href, display


def check_options(*, urls: object, emails: object, require_scheme: object, schemes: object) -> frozenset[str]:
    """The detection options checked (TypeError naming the argument, ValueError
    for a scheme uts58 does not link); the schemes, lower-cased."""
    for name, flag in (("urls", urls), ("emails", emails), ("require_scheme", require_scheme)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be bool, not {type(flag).__name__}")
    if isinstance(schemes, str) or not isinstance(schemes, Iterable):
        raise TypeError(f"schemes must be an iterable of str, not {type(schemes).__name__}")
    wanted = frozenset(check_str(s, "schemes[]").lower() for s in schemes)
    if not wanted <= SPECIAL_SCHEMES:
        raise ValueError(
            f"schemes: {sorted(wanted - SPECIAL_SCHEMES)} not supported; choose from {sorted(SPECIAL_SCHEMES)}"
        )
    return wanted


def find_links(
    text: str,
    *,
    urls: bool = True,
    emails: bool = True,
    schemes: Iterable[str] = DEFAULT_SCHEMES,
    require_scheme: bool = False,
    known_tlds: Iterable[str] | None = None,
    unicode_version: str = DEFAULT_UNICODE_VERSION,
) -> Iterator[Link]:
    """Find the URLs and email addresses in ``text``, in order, never overlapping.

    * ``urls``, ``emails``: which kinds to report.  Both are always looked
      for, so that an email address is never reported as a URL or the
      reverse (``john.doe@example.com`` is an email, never a URL).
    * ``schemes``: the schemes recognized when written (``http``, ``https``
      by default; ``ftp``, ``ws``, ``wss`` may be added).  ``mailto:`` goes
      with email addresses.
    * ``require_scheme``: report URLs only when written with a scheme.
    * ``known_tlds``: top-level domains to accept instead of the bundled
      IANA root zone list (``{"com", "рф", "corp"}``).

    >>> [link.text for link in find_links("Mail アルベルト@example.com or see https://ja.wikipedia.org/wiki/日本.")]
    ['アルベルト@example.com', 'https://ja.wikipedia.org/wiki/日本']
    """
    check_str(text, "text")
    wanted = check_options(urls=urls, emails=emails, require_scheme=require_scheme, schemes=schemes)
    tlds = default_tlds() if known_tlds is None else normalize_tlds(known_tlds)
    props = link_properties(unicode_version)
    scanner = _Scanner(text, props, domain_rules(tlds, props.version), wanted, require_scheme)
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


class _Scanner:
    """One left-to-right pass over a text.

    Each handler looks at one candidate and returns ``(link, resume)``:
    the link found (or None) and the offset where the search goes on.
    ``self.floor`` is the end of the last link or of a region that must not
    be linked (an invalid email's domain, a ``scheme://user@host``): no link
    may start before it.
    """

    def __init__(
        self, text: str, props: LinkProperties, rules: DomainRules, schemes: frozenset[str], require_scheme: bool
    ) -> None:
        self.text = text
        self.props = props
        self.rules = rules
        self.schemes = sorted(schemes, key=len, reverse=True)
        self.require_scheme = require_scheme
        self.patterns: HostPatterns = host_patterns(props)
        self.floor = 0

    def links(self, urls: bool, emails: bool) -> Iterator[Link]:
        text = self.text
        search = self.patterns.candidate.search
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
            else:
                link, pos = self._bare(at, pos)
            if link is not None:
                self.floor = link.end
                if (urls if link.kind == "url" else emails) and not (
                    link.kind == "url" and self.require_scheme and link.scheme is None
                ):
                    yield link

    # -- hosts ---------------------------------------------------------

    def _run_end(self, i: int) -> int:
        m = self.patterns.run_end.match(self.text, i)
        assert m is not None  # the pattern also matches the empty string
        return m.end()

    def _host(self, s: int, e: int, *, schemed: bool) -> tuple[int, str, str] | None:
        return host_span(self.text, s, e, self.rules, schemed=schemed)

    def _port_end(self, i: int) -> int:
        m = _PORT.match(self.text, i)
        return m.end() if m is not None and int(m.group(1)) <= 65535 else i

    def _url(self, start: int, host_end: int, ascii_host: str, host: str, scheme: str | None) -> Link:
        end = _find_link_end(self.text, self._port_end(host_end), self.props)
        return Link(
            start,
            end,
            "url",
            self.text[start:end],
            scheme,
            host,
            ascii_host=ascii_host,
            unicode_version=self.props.version,
            tlds=self.rules.tlds,
        )

    # -- candidates ----------------------------------------------------

    def _schemed(self, at: int) -> tuple[Link | None, int]:
        """``://`` at ``at``: a URL with a scheme."""
        text = self.text
        h = at + 3
        start = None
        for scheme in self.schemes:
            s = at - len(scheme)
            if s >= self.floor and text[s:at].lower() == scheme and (s == 0 or text[s - 1] not in _BEFORE_SCHEME):
                start = s
                break
        if start is None:
            if at > 0 and text[at - 1] in _SCHEME_CHAR:
                # Another scheme (file://, foo://): its host is not linked.
                return None, max(h, self._run_end(h))
            return None, h
        if h < len(text) and text[h] == "[":
            close = text.find("]", h, h + 64)
            ip = ip_host(text[h : close + 1]) if close > 0 else None
            if ip is None:
                return None, h
            return self._url(start, close + 1, ip, ip, text[start:at]), close + 1
        e = self._run_end(h)
        userinfo = _USERINFO_AT.match(text, e)
        if userinfo is not None:
            # scheme://user@host is not linked (deprecated, a spoofing aid);
            # the whole of it is passed over, so the host is not linked either.
            self.floor = self._run_end(userinfo.end())
            return None, self.floor
        host = self._host(h, e, schemed=True)
        if host is None:
            self.floor = e
            return None, e
        host_end, ascii_host, unicode_host = host
        link = self._url(start, host_end, ascii_host, unicode_host, text[start:at])
        return link, link.end

    def _bare(self, at: int, pos: int) -> tuple[Link | None, int]:
        """A label separator at ``at``: maybe a domain without a scheme."""
        text = self.text
        e = self._run_end(at)
        if e == at + 1:
            return None, e  # a supplementary character that is no label character
        s = run_start(self.patterns.run_start, text, max(pos, self.floor), at)
        if e < len(text) and text[e] == "@":
            return None, e  # a local-part: the "@" decides
        while s < e and text[s] in LABEL_SEPARATORS:
            s += 1  # (a run of separators can reach e: "http://[::1]/xa.com")
        host = self._host(s, e, schemed=False)
        if host is None:
            return None, e
        host_end, ascii_host, unicode_host = host
        link = self._url(s, host_end, ascii_host, unicode_host, None)
        return link, link.end

    def _email(self, at: int) -> tuple[Link | None, int]:
        """``@`` at ``at``: an email address if a domain follows and §5.2
        finds a local-part."""
        text = self.text
        e = self._run_end(at + 1)
        host = self._host(at + 1, e, schemed=False)
        if host is None:
            return None, at + 1
        host_end, ascii_host, unicode_host = host
        if host_end > at + 1 and text[host_end - 1] in LABEL_SEPARATORS:
            host_end -= 1  # an email domain never keeps a trailing dot
        start = _find_email_start(text, at, self.props)
        if start is None or start < self.floor:
            # UTS #58 §5 test data: an invalid local-part skips the domain too.
            self.floor = host_end
            return None, host_end
        scheme = text[start : start + 6] if text[start : start + 7].lower() == "mailto:" else None
        link = Link(
            start,
            host_end,
            "email",
            text[start:host_end],
            scheme,
            unicode_host,
            ascii_host=ascii_host,
            unicode_version=self.props.version,
            tlds=self.rules.tlds,
        )
        return link, host_end
