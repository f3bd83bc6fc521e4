"""One left-to-right pass over a text (UTS #58 §3 and §5), following the
:class:`~uts58.detect.plan.Plan` a :class:`~uts58.detect.finder.Finder` compiles.

A compiled regular expression jumps to the places where a link can be —
``://``, ``@``, or a label separator followed by a label character — and
only there does Python look closer: the scheme, the host
(:mod:`uts58.hosts.domains`), the port, then
:func:`~uts58.spec.termination.find_link_end` (§3.5.1) for URLs or the backward
scan of §5.2 for email addresses.  Every backward scan is bounded by the end
of what was already processed, so the whole pass is linear in the text.
Where the C accelerator is in use, its scan passes over what this scanner
would refuse at a first look (D96, D106), this code being the reference.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from ..hosts.domains import HOST_CACHE_NAME_LIMIT, PATH_START, host_span, run_starts
from ..hosts.whatwg import ip_host, is_valid
from ..kernels import Scan, candidate_scan, engine
from ..spec.email import find_email_start_with
from ..spec.formatting import SPECIAL_SCHEMES
from ..unicode.parts import LABEL_SEPARATORS
from .addresses import address_evidence, message_id, message_id_unbracketed
from .candidates import (
    _BEFORE_SCHEME,
    _CIDR_SUFFIX,
    _CJK_CLAUSE_END,
    _DOTS,
    _DOTTED_QUAD,
    _GLUED_AFTER,
    _GLUED_BEFORE,
    _IDEOGRAPHIC_STOP,
    _MESSAGE_ID_HEADER,
    _PORT,
    _SCHEME_CHAR,
    _SCHEME_CHARS,
    _SEPARATOR,
    _USERINFO,
    _USERINFO_ENDS,
    _after_cjk,
    _clauses,
    _csi_before,
    _no_bare_domain,
    _rejected_run,
    _schemed_host,
    cjk_boundary_host,
)
from .evidence import evidence, placeholder
from .link import NO_HOST, Host, Kind, Link, _host, link_maker
from .plan import Plan

if TYPE_CHECKING:
    from .finder import Finder


class _Found(Protocol):
    """What the scanner makes of a link: a :class:`Link`, or for
    :func:`spans` a :class:`_Place` (the same fields, nothing built)."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def scheme(self) -> str | None: ...
    @property
    def host(self) -> Host: ...


class _Place(NamedTuple):
    start: int
    end: int
    kind: Kind
    scheme: str | None
    host: Host


_T = TypeVar("_T", bound=_Found)


def _link_of(scanner: _Scanner[Link], start: int, end: int, kind: Kind, scheme: str | None, host: Host) -> Link:
    """The Link the scanner found (a link of its finder: see _detected_link)."""
    new_link = scanner.new_link or scanner._link_maker()
    text = scanner.text[start:end]
    return new_link(start, end, kind, text, scheme, host, scanner.owner, scanner.props.version, None, None)


def _place_of(scanner: _Scanner[_Place], start: int, end: int, kind: Kind, scheme: str | None, host: Host) -> _Place:
    return _Place(start, end, kind, scheme, host)


# What a text without a candidate has: an iterator that is exhausted, shared
# (it has no state left to change).
_NO_LINKS: Iterator[Any] = iter(())
_NO_PIECES: tuple[tuple[int, int], ...] = ()  # (the pieces of no run)


class _Scanner(Generic[_T]):
    """One left-to-right pass over a text.

    Each handler looks at one candidate and returns ``(link, resume)``:
    the link found (or None) and the offset where the search goes on.
    ``self.floor`` is the end of the last link or of a region that must not
    be linked (an invalid email's domain, a URL of a scheme not enabled):
    no link may start before it.
    """

    __slots__ = (
        "escapes",
        "floor",
        "host_run",
        "hosts",
        "link_end",
        "make",
        "message_id_end",
        "new_link",
        "owner",
        "plan",
        "props",
        "quick_tlds",
        "rules",
        "run_end",
        "run_pieces",
        "scan",
        "text",
    )

    def __init__(
        self,
        text: str,
        plan: Plan,
        owner: Finder,
        make: Callable[[_Scanner[_T], int, int, Kind, str | None, Host], _T],
    ) -> None:
        # (Few attributes, in slots: one scanner is made per text with a
        # candidate, and one call per line makes many; issue 14.)
        self.text = text
        self.make = make  # a Link, or only its place (spans)
        self.plan = plan  # (the options, and what they make)
        self.owner = owner  # (the finder its links are of: D64)
        self.props = plan.props
        self.rules = plan.rules
        self.quick_tlds = plan.quick_tlds
        self.hosts = plan.hosts
        self.host_run = plan.patterns.run_end.match  # (.end(): the end of the host characters from i)
        self.floor = 0
        # The run of label characters last split into pieces, and its pieces
        # not yet looked at (see _bare).
        self.run_end = 0
        self.run_pieces: Sequence[tuple[int, int]] = _NO_PIECES
        self.message_id_end = 0  # after the ">" of the last Message-ID (D55)
        self.link_end: Callable[[str, int, bool], int] | None = None  # (§3.5.1 by the kernels in use)
        # D100: terminal escape sequences are separators; the C scan knows
        # none (a text with an ESC is scanned in Python alone).
        self.escapes = "\x1b" in text
        self.scan: Scan | bool | None = None if self.escapes else False  # (the C parts; False: not looked up yet)
        self.new_link: Callable[..., Link] | None = None  # (link_maker(), looked up when first needed)

    def links(self, urls: bool, emails: bool, first: re.Match[str] | None = None, pos: int = 0) -> Iterator[_T]:
        """The links, in order; ``first``: the first candidate, if already
        found, from ``pos`` (where the search resumed before it)."""
        text = self.text
        search = self.plan.candidate.search
        require_scheme = self.plan.require_scheme
        cjk_boundary = self.plan.cjk_boundary
        scan = self.scan if self.scan is not False else self._c_scan()
        m: re.Match[str] | None
        if first is not None:
            m = first
        elif scan is None:
            m = search(text, pos)
        else:
            pos, self.floor, at = scan.skip(text, pos, self.floor)  # type: ignore[union-attr]  # (D106)
            m = search(text, at)
        while m is not None:
            if m.lastindex is not None:  # (passed_over(m), inlined: once per candidate)
                m = search(text, m.end())  # ("....", "@@@@": a run with no candidate in it; pos stays)
                continue
            at = m.start()
            first_char = text[at]
            if first_char in LABEL_SEPARATORS:
                link, pos = self._bare(at, pos, m.end())  # (the match ends where the run does)
            elif first_char == "@":
                link, pos = self._email(at)
            elif first_char == ":":
                link, pos = self._schemed(at)  # ("://")
            else:
                found = m.group()  # ("localhost:", or "scheme:" of a scheme without "//")
                link, pos = self._localhost(at) if found.lower() == "localhost:" else self._opaque(at, found)
            if link is not None:
                self.floor = link.end
                if cjk_boundary and link.kind == "url" and link.scheme is None:
                    link = self._cjk_boundary(link)  # (§8, D107: a step of the scan, after the floor moved)
                if link is not None and (
                    (urls and not (require_scheme and link.scheme is None)) if link.kind == "url" else emails
                ):
                    yield link
            if scan is None or pos < self.run_end:
                m = search(text, pos)  # (no C scan, or inside a run already split)
            else:
                # What C passes over (a "scheme://" token not linked, D53, D20:
                # "a://b)a://b)…"; D106: the candidates refused at a first look,
                # "a@a.aa", "x.zz"), and where the search begins.
                pos, self.floor, at = scan.skip(text, pos, self.floor)  # type: ignore[union-attr]
                m = search(text, at)

    # -- helpers -------------------------------------------------------

    def _run_end(self, i: int) -> int:
        return self.host_run(self.text, i).end()  # type: ignore[union-attr]  # (matches "")

    def _port_end(self, i: int) -> int:
        m = _PORT.match(self.text, i)
        return m.end() if m is not None and int(m.group(1)) <= 65535 else i

    def _url(self, start: int, host_end: int, host: Host, scheme: str | None) -> _T:
        text = self.text
        path_start = self._port_end(host_end) if text[host_end : host_end + 1] == ":" else host_end
        end = (self.link_end or self._kernel())(text, path_start, False)
        if self.plan.cjk_prose and end > path_start:
            m = _CJK_CLAUSE_END.search(text, path_start, end)  # D102: "…/東京を見てください。メールは…"
            if m is not None:
                # (§3.5.1 again on the path that ends there: a closing quote
                # or a Soft character before the punctuation stays outside;
                # §3.5.1 reads nothing before its start, so the path alone)
                end = path_start + (self.link_end or self._kernel())(text[path_start : m.start()], 0, False)
        return self.make(self, start, end, "url", scheme, host)

    def _kernel(self) -> Callable[[str, int, bool], int]:
        """§3.5.1 by the kernels in use, looked up once per scan (issue 14)."""
        self.link_end = engine(self.props).find_link_end
        return self.link_end

    def _link_maker(self) -> Callable[..., Link]:
        self.new_link = link_maker()
        return self.new_link

    def _c_scan(self) -> Scan | None:
        """The C parts of the scan (D96), or None (the Python kernels), looked
        up once per scan, when first needed."""
        self.scan = candidate_scan(self.props, *self.plan.scan_args)
        return self.scan

    def _link(self, start: int, end: int, kind: Kind, scheme: str | None, host: Host) -> _T:
        return self.make(self, start, end, kind, scheme, host)

    def _cjk_boundary(self, link: _T) -> _T | None:
        """§8 (D107, ``cjk_boundary``): a scheme-less URL started at its last
        CJK boundary, its host validated again from there; None when no
        valid domain is left."""
        start, host = cjk_boundary_host(self.text, link.start, link.end, link.host, self.props.version, self.rules)
        if host is None:
            return None
        return link if start == link.start else self.make(self, start, link.end, "url", None, host)

    def _body_end(self, i: int) -> int:
        """Where §3.5.1 ends ``text[i:]`` read as a path: the end of an opaque
        URL's body, or of what follows the ``://`` of a URL not linked."""
        text = self.text
        if i >= len(text):
            return i
        return (self.link_end or self._kernel())(text, i, text[i] not in PATH_START)

    def _skip(self, i: int) -> tuple[None, int]:
        """D53: a scheme-like token that is not linked is left alone whole:
        no piece of its userinfo, host or path is linked either."""
        text = self.text  # (_body_end inlined: this is the path of hostile "a://b)a://b)…")
        end = (self.link_end or self._kernel())(text, i, text[i] not in PATH_START) if i < len(text) else i
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
            # "pam_unix.so" is one identifier, "…._openpgpkey.example.org" a DNS
            # service label (D97); "_example.com_" is emphasis.
            return i >= 2 and (self.text[i - 2].isalnum() or self.text[i - 2] == ".")
        if self._escape_ends_at(i):
            return False  # D100: "\x1b[1m" ends with a letter, and is no word
        return ch in _GLUED_BEFORE or ch.isalnum() or unicodedata.category(ch)[0] == "M"

    def _escape_ends_at(self, i: int) -> bool:
        """D100: a terminal control sequence ends right before ``i``."""
        return self.escapes and _csi_before(self.text, i) == i

    def _clauses(self, s: int, e: int) -> list[tuple[int, int]]:
        if _IDEOGRAPHIC_STOP.search(self.text, s, e) is None:
            return [(s, e)]  # (the common case, decided here)
        scan = self.scan if self.scan is not False else self._c_scan()
        return _clauses(self.text, s, e) if scan is None else scan.clauses(self.text, s, e)  # type: ignore[union-attr]

    # -- candidates ----------------------------------------------------

    def _schemed(self, at: int) -> tuple[_T | None, int]:
        """``://`` at ``at``: a URL with a scheme."""
        text = self.text
        h = at + 3
        if at == 0 or text[at - 1] not in _SCHEME_CHAR:
            return None, h  # "://" after no scheme
        start = None
        for n in self.plan.scheme_lengths:
            s = at - n
            if (
                s >= self.floor
                and (name := text[s:at]).isascii()  # (U+212A lowercases to "k": a URL parser takes no such scheme)
                and name.lower() in self.plan.schemes
                and (s == 0 or text[s - 1] not in _BEFORE_SCHEME or self._escape_ends_at(s))
            ):
                start = s
                break
        if start is None:
            return self._skip(h)  # another scheme (file://, foo://): D19, D53
        scheme = text[start:at]
        if text[h : h + 1] == "[":
            close = text.find("]", h, h + 64)
            ip = ip_host(text[h : close + 1]) if close > 0 else None
            if ip is None:
                return self._skip(h)
            link = self._url(start, close + 1, _host(ip, ip, "ipv6"), scheme)
            return link, link.end
        hs = h
        e = self.host_run(text, h).end()  # type: ignore[union-attr]  # (matches "")
        # (A run of host characters that ends the text or is followed by a
        # character that ends userinfo has none: the common case, one match.)
        if e < len(text) and text[e] not in _USERINFO_ENDS and not text[e].isspace():
            userinfo = _USERINFO.match(text, h)
            if userinfo is not None:
                # D20: scheme://user@host is not linked after a special scheme
                # (deprecated, a spoofing aid), nor with a password after any.
                if scheme.lower() in SPECIAL_SCHEMES or ":" in userinfo.group() or userinfo.end() == h + 1:
                    return self._skip(h)
                hs = userinfo.end()  # ssh://git@example.com/: a user name only
                e = self.host_run(text, hs).end()  # type: ignore[union-attr]
        key = text[hs : e + 1]
        if len(key) <= HOST_CACHE_NAME_LIMIT + 1:
            found = self.plan.schemed_hosts(key)
        else:
            found = _schemed_host(self.plan.patterns, self.rules, self.plan.single_label_hosts, key)
        if found is None:
            return self._skip(h)
        link = self._url(start, hs + found[0], found[1], scheme)
        return link, link.end

    def _opaque(self, at: int, found: str) -> tuple[_T | None, int]:
        """``scheme:`` of an enabled scheme without ``//`` (``tel:``, ``magnet:?``)."""
        colon = at + len(found) - 1
        if at < self.floor:
            return None, colon + 1
        end = self._body_end(colon + 1)
        if end == colon + 1:
            return None, end
        if not is_valid(self.text[at:end]):
            self.floor = end  # D53: not linked, and nothing inside it either
            return None, end
        link = self._link(at, end, "url", self.text[at:colon], NO_HOST)
        return link, end

    def _localhost(self, at: int) -> tuple[_T | None, int]:
        """``localhost:PORT`` without a scheme (``bare_localhost``)."""
        host_end = at + len("localhost")
        if at < self.floor or self._glued_before(at) or self._port_end(host_end) == host_end:
            return None, host_end
        link = self._url(at, host_end, _LOCALHOST, None)
        return link, link.end

    def _bare(self, at: int, pos: int, e: int) -> tuple[_T | None, int]:
        """A label separator at ``at``, its run of host characters ending at
        ``e``: maybe a domain without a scheme."""
        text = self.text
        if at < self.run_end:
            # Inside a run already split (D22) where a link was found: go on
            # with its next pieces, not with a new scan of the whole run.
            e, pieces = self.run_end, self.run_pieces
            tld_checked = False
        else:
            if _rejected_run(text, at, e, max(pos, self.floor), self.quick_tlds):
                self.run_end = e
                return None, e
            r = run_starts(self.props).host(text, max(pos, self.floor), at)
            if self.escapes:
                r = max(r, _csi_before(text, at))  # D100: "\x1b[1mwww.example.com" starts at "www"
            pieces = self._clauses(r, e)
            # (an uncut run had its last label checked just above, or kept by
            # a stop that cut nothing: D91 only saves the full check's time)
            tld_checked = self.quick_tlds is not None and len(pieces) == 1
        quick_tlds = self.quick_tlds
        for i, (a, b) in enumerate(pieces):
            if a < self.floor:
                continue  # (inside the link found in an earlier piece)
            if quick_tlds is not None:
                # D91, for each clause of a run cut at ideographic full stops
                # (first: the cheapest test that refuses most clauses).
                name = text[a:b].strip(LABEL_SEPARATORS)
                if not name or (_SEPARATOR.search(name) is None if tld_checked else _no_bare_domain(name, quick_tlds)):
                    continue
            s = a
            while s < b and text[s] in LABEL_SEPARATORS:
                s += 1  # (a run of separators can reach b: "http://[::1]/xa.com")
            if s == b or self._glued_before(a) or (s > a and any(text[k] in _DOTS for k in range(a, s))):
                # D51: after a path or identifier character, or a name that
                # starts with a dot (".bashrc", "*.links.in"): not a domain.
                continue
            link = self._bare_host(s, b)
            if link is not None:
                self.run_end, self.run_pieces = e, pieces[i + 1 :]
                return link, link.end
        self.run_end = e
        return None, e

    def _bare_host(self, s: int, b: int) -> _T | None:
        """The link of the domain (or, with ``bare_ipv4``, the IPv4 address)
        at ``text[s:b]``, or None."""
        text = self.text
        if self.plan.bare_ipv4 and _DOTTED_QUAD.match(text, s, b):  # D18: without a scheme only if asked (D54)
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
        plan = self.plan
        if plan.file_names and placeholder(ascii_host):
            return None  # D103: "foo.bar", "www.yourdomain.com" (a stranger's site)
        if not ascii_host.startswith("www."):
            if not plan.bare_domains:
                return None  # (gfm: a scheme or "www.", whatever follows: "github.com/x" is no autolink)
            if (
                text[host_end : host_end + 1] != "/"
                and self._port_end(host_end) == host_end
                # D97: a bare name, with no path or port to show it is a host:
                # is it a file, an identifier, a newsgroup? ("main.py", "README.md")
                and evidence(text, s, host_end, ascii_host, plan.file_extensions, judge=plan.file_names)
            ):
                return None
        return self._url(s, host_end, self.hosts(unicode_host, ascii_host, "domain"), None)

    def _bare_ipv4(self, s: int, b: int) -> _T | None:
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
        return self._url(s, k, _host(ip, ip, "ipv4"), None)

    def _email(self, at: int) -> tuple[_T | None, int]:
        """``@`` at ``at``: an email address if a domain follows and §5.2
        finds a local-part."""
        text = self.text
        e = self._clauses(at + 1, self._run_end(at + 1))[0][1]
        start = find_email_start_with(text, at, self.props)
        if start is not None and (self.escapes or text[start] in _IDENT_FIRST or text.find("!", start, at) >= 0):
            start = self._ident_start(start, at)  # D99, D100 (the test above: most addresses have nothing to strip)
        if start is not None and self.plan.cjk_prose:
            start = _after_cjk(text, start, at)  # D102: "メールはtaro@example.jp"
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
        if text[host_end : host_end + 1] == "_" and text[host_end + 1 : host_end + 2].isalnum():
            # D51 for an address: the name goes on ("whang@toro.kuee.kyoto_u.ac.jp"
            # is not at toro.kuee.kyoto)
            self.floor = max(self.floor, host_end)
            return None, host_end
        if host_end > at + 1 and text[host_end - 1] in LABEL_SEPARATORS:
            host_end -= 1  # an email domain never keeps a trailing dot
        if start is None or start < self.floor:
            # UTS #58 §5 test data: an invalid local-part skips the domain too.
            self.floor = host_end
            return None, host_end
        if scheme is None and (
            self._path_after(host_end)
            or (start > 0 and text[start - 1] in " \t" and _REMOTE_LOGIN.search(text, max(0, start - 40), start))
        ):
            # D55: an scp or git target ("git@example.com:org/repo.git"); D99: an
            # ssh login ("ssh user@host 'id'")
            self.floor = host_end
            return None, host_end
        if scheme is None and (
            (start > 0 and text[start - 1] == "<" and message_id(text[start:at], ascii_host))
            or (text[start].isdigit() and message_id_unbracketed(text[start:at]))
        ):
            self.floor = host_end  # D98: "-- Larry Wall in <199710161841.LAA13208@wall.org>"
            return None, host_end
        if scheme is None and self.plan.file_names and address_evidence(text, start, at, host_end, ascii_host):
            self.floor = host_end  # D103: "you@yourhost.com", "xxxx@example.de", "limits@openssh.com extension"
            return None, host_end
        return self._link(start, host_end, "email", scheme, self.hosts(unicode_host, ascii_host, "domain")), host_end

    def _ident_start(self, start: int, at: int) -> int | None:
        """Where the address of the local-part ``text[start:at]`` starts, as
        a reader sees it (D99): after a terminal escape sequence (D100);
        after the nick of an IRC ``nick!ident@host``; after the ``~ ^ + =``
        an IRC server puts before an ident (``~user@host``), and a ``-``
        there after ``!``, ``(`` or ``[``; after a leading ``*`` (emphasis,
        ``*jane@example.com*``, or a ban mask's wildcard, ``*!*@host``).
        None when nothing is left (a mask).  Not after ``mailto:``: the
        address is written out."""
        text = self.text
        if self.escapes:
            start = max(start, _csi_before(text, at))
            if start >= at:
                return None  # ("\x1b[1m@example.com": no local-part after the sequence)
        if text[start] not in _IDENT_FIRST and text.find("!", start, at) < 0:
            return start  # (the common case: nothing to strip)
        if text[start : start + 7].lower() == "mailto:" or text[max(0, start - 7) : start].lower() == "mailto:":
            return start
        bang = text.rfind("!", start, at)
        if bang >= 0:
            start = bang + 1
        while start < at and text[start] == "*":
            start += 1
        if start + 1 < at and (
            text[start] in _IDENT_MARKS or (text[start] == "-" and start > 0 and text[start - 1] in "!([")
        ):
            start += 1  # (a mark with nothing after it is the local-part itself: "~@example.com")
        return start if start < at else None

    def _scheme_before(self, start: int) -> bool:
        """``text[:start]`` ends with ``scheme:`` glued to the local-part."""
        text = self.text
        if start == 0 or text[start - 1] != ":":
            return False
        k = start - 1
        lo = max(self.floor, k - 64)
        k = lo + len(text[lo:k].rstrip(_SCHEME_CHARS))  # (back over scheme characters, not before lo)
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


_LOCALHOST = _host("localhost", "localhost", "localhost")
# D99: a remote-login command before an address: a login, not a mailbox.
_REMOTE_LOGIN = re.compile(r"(?:^|[\s\"'`(])(?:ssh|slogin|sftp|scp|mosh|rsync)\s+(?:-\S+\s+(?:\S+\s+)?)*\Z")
# D99: what IRC servers write before an ident ("nick!~user@host").
_IDENT_MARKS = frozenset("~^+=")
_IDENT_FIRST = frozenset("~^+=-*")  # (what _ident_start may strip first)
