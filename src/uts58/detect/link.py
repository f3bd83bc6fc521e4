"""The values detection reports: a :class:`Link` and its :class:`Host`.

A link is ``text[start:end]`` of a text, a URL or an email address, with
the host detection validated (UTS #58 §3, §5).  The host is a ``str`` (its
Unicode form, as before) that also knows its ASCII form and its kind, so
that nothing downstream works out again whether it is an IP address.

>>> from uts58 import find_links
>>> link = next(find_links("see http://192.168.0.1:8080/ and bücher.de"))
>>> link.host, link.host.ascii, link.host.kind
('192.168.0.1', '192.168.0.1', 'ipv4')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, get_args
from urllib.parse import quote

from ..base.checks import check_str
from ..errors import OptionError, URLError
from ..hosts.domains import domain_to_ascii
from ..hosts.whatwg import normalize
from ..kernels import slot_maker
from ..spec.email import display_email as _email_display
from ..spec.formatting import SPECIAL_SCHEMES, format_url_with
from ..unicode.properties import DEFAULT_UNICODE_VERSION, link_properties

if TYPE_CHECKING:
    from .finder import Finder

__all__ = ["HOST_KINDS", "Host", "HostKind", "Kind", "Link", "host_kind"]

Kind = Literal["url", "email"]
HostKind = Literal["domain", "ipv4", "ipv6", "localhost"]
HOST_KINDS: tuple[HostKind, ...] = get_args(HostKind)

_DOTTED_QUAD = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}\Z")
_MAILTO_SAFE = "!$'()*+,;:@-._~"  # RFC 6068 qchar minus unreserved (quote keeps those)


def host_kind(host: str) -> HostKind:
    """The kind a host *written as* ``host`` has: a bracketed IPv6 literal,
    ``localhost``, a dotted-quad IPv4 address, or else a domain.  Only for
    hosts detection did not see (a hand-built :class:`Link`); detection sets
    the kind of the hosts it validates itself.

    >>> host_kind("[::1]"), host_kind("10.0.0.1"), host_kind("LocalHost"), host_kind("example.com")
    ('ipv6', 'ipv4', 'localhost', 'domain')
    """
    if host.startswith("["):
        return "ipv6"
    if host.lower() == "localhost":
        return "localhost"
    if _DOTTED_QUAD.match(host):
        return "ipv4"
    return "domain"


class Host(str):
    """The host of a link: the ``str`` of its Unicode form, plus ``ascii``
    (its A-label form: ``xn--…`` labels, lower case) and ``kind``
    (``"domain"``, ``"ipv4"``, ``"ipv6"`` or ``"localhost"``).  Immutable.

    A URL without a host (``tel:+1-201-555-0123``, ``magnet:?xt=…``) has
    the empty Host, of kind ``"domain"`` (a domain of no labels, D63): test
    ``not link.host``.

    >>> host = Host("Bücher.de")
    >>> host == "Bücher.de", host.unicode, host.ascii, host.kind
    (True, 'Bücher.de', 'xn--bcher-kva.de', 'domain')
    >>> Host("[::1]").kind
    'ipv6'
    """

    # Slots, no instance dict: ascii and kind are written once, by _host.
    __slots__ = ("ascii", "kind")
    ascii: str
    kind: HostKind

    def __new__(cls, unicode: str = "", ascii: str | None = None, kind: HostKind | None = None) -> Host:
        check_str(unicode, "unicode")
        if kind is None:
            kind = host_kind(unicode) if unicode else "domain"
        elif kind not in HOST_KINDS:
            raise OptionError(f"kind must be one of {', '.join(map(repr, HOST_KINDS))}, not {kind!r}")
        if ascii is None:
            if kind == "domain":
                # The WHATWG host parser's A-label form; a name it refuses
                # keeps its own (the policy refuses it in turn).
                ascii = (domain_to_ascii(unicode) if unicode else None) or unicode.lower()
            else:
                ascii = unicode.lower()
        check_str(ascii, "ascii")
        return _host(unicode, ascii, kind)

    @property
    def unicode(self) -> str:
        """The Unicode form (the host as a plain ``str``)."""
        return str.__str__(self)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Host is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Host is immutable")

    def __repr__(self) -> str:
        return str.__repr__(self)  # reads as the str it equals (Link reprs, test output)

    def __reduce__(self) -> tuple[Any, ...]:
        return _host, (str.__str__(self), self.ascii, self.kind)


def _host(
    unicode: str,
    ascii: str,
    kind: HostKind,
    _new: Any = str.__new__,
    _set_ascii: Any = Host.__dict__["ascii"].__set__,  # (the slots' own setters: Host.__setattr__ refuses)
    _set_kind: Any = Host.__dict__["kind"].__set__,
) -> Host:
    """A Host whose forms and kind are known (detection; unpickling)."""
    host: Host = _new(Host, unicode)
    _set_ascii(host, ascii)
    _set_kind(host, kind)
    return host


NO_HOST = _host("", "", "domain")  # the host of an opaque URL (tel:, magnet:)


class Link:
    """A link found in text: ``text[start:end]``, of ``kind`` "url" or "email".

    ``scheme`` is the scheme as written (``"https"``, ``"mailto"``) or None
    when implied; ``host`` the :class:`Host` (a ``str``, its Unicode form,
    with ``.ascii`` and ``.kind``).  ``href`` is the absolute ASCII URL for
    an ``<a href>`` (WHATWG serialization: scheme added when implied,
    punycode host, percent-encoding); ``display`` the minimally escaped form
    for people (§4, §5.3).  Both are computed on first use.  ``finder`` is
    the :class:`uts58.Finder` that found the link (None for a link built by
    hand: the policy detects its text again and trusts it only if that
    finds this very link, D64).  Links are
    immutable, picklable, and compare by position, kind and text.

    >>> from uts58 import find_links
    >>> link = next(find_links("see bücher.de/straße."))
    >>> link
    Link(start=4, end=20, kind='url', text='bücher.de/straße')
    >>> link.href, link.display, link.host.ascii
    ('https://xn--bcher-kva.de/stra%C3%9Fe', 'bücher.de/straße', 'xn--bcher-kva.de')
    """

    __slots__ = ("_display", "_href", "_version", "end", "finder", "host", "kind", "scheme", "start", "text")

    start: int
    end: int
    kind: Kind
    text: str
    scheme: str | None
    host: Host
    finder: Finder | None
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
    ) -> None:
        # A hand-built link: its host's kind and ASCII form are worked out
        # here from the string (a Host passed in is read as its string), and
        # it has no finder, so the policy detects it again (D64).
        check_str(host, "host")
        unicode = str.__str__(host)
        _init(self, start, end, kind, text, scheme, Host(unicode, ascii_host or None), None, unicode_version)

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

    def __reduce__(self) -> tuple[Any, ...]:
        # The finder travels with the link (one copy per pickle: pickle
        # shares it), so a link detected in a worker stays a detected link.
        return _restore, (
            self.start,
            self.end,
            self.kind,
            self.text,
            self.scheme,
            self.host,
            self.finder,
            self._version,
        )

    @property
    def unicode_version(self) -> str:
        """The Unicode version of the properties the link was found (or is formatted) with."""
        return self._version

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
        link = Link.__new__(Link)
        _init(
            link,
            self.start + delta,
            self.end + delta,
            self.kind,
            self.text,
            self.scheme,
            self.host,
            self.finder,
            self._version,
        )
        return link

    @property
    def href(self) -> str:
        """Absolute ASCII URL (``https://`` or ``mailto:`` added when implied)."""
        href: str | None = self._href
        return href if href is not None else self._forms()[0]

    @property
    def display(self) -> str:
        """Minimally escaped form for display (UTS #58 §4, §5.3)."""
        display: str | None = self._display
        return display if display is not None else self._forms()[1]

    def _forms(self) -> tuple[str, str]:
        """(href, display), computed together on first use and kept; for a
        link a finder made, remembered by that finder (D95)."""
        finder = self.finder
        text = self.text
        if finder is not None and len(text) <= FORMS_CACHE_TEXT_LIMIT and (text.isascii() or len(text) <= 64):
            # (a Host equals the str of its Unicode form, which decides its A-label form and kind)
            href, display = finder.plan.link_forms(self.kind, text, self.scheme, self.host, self._version)
        else:
            href, display = link_forms(self.kind, text, self.scheme, self.host, self._version)
        object.__setattr__(self, "_href", href)
        object.__setattr__(self, "_display", display)
        return href, display

    def _email_split(self) -> tuple[str, str]:
        """("mailto:" as written or "", local-part) of an email link."""
        return _email_split(self.text, self.scheme)


# The longest link text whose forms a finder remembers (D95): 256 bytes of
# UTF-8 (256 characters of ASCII or 64 of any), so that an href, which
# percent-encodes each byte in three characters, stays under 800; with
# HOST_CACHE_SIZE entries, at most about 10 MB (tests/unit/test_link.py measures).
FORMS_CACHE_TEXT_LIMIT = 256


def _email_split(text: str, scheme: str | None) -> tuple[str, str]:
    local = text.rpartition("@")[0]
    if scheme is None:
        return "", local
    return local[: len(scheme) + 1], local[len(scheme) + 1 :]


def link_forms(kind: Kind, text: str, scheme: str | None, host: Host, version: str) -> tuple[str, str]:
    """(href, display) of a link: a pure function of what the link holds."""
    props = link_properties(version)
    host_unicode, host_ascii = host.unicode, host.ascii
    if kind == "email":
        # Detection validated the domain: its forms are the host's.
        prefix, local = _email_split(text, scheme)
        href = "mailto:" + quote(local, safe=_MAILTO_SAFE) + "@" + host_ascii
        return href, _email_display(prefix, local, host_unicode, props)
    # One WHATWG parse gives both forms (a scheme-less link is parsed as
    # https: its href has the scheme, its display keeps none).
    if scheme is not None and scheme.lower() not in SPECIAL_SCHEMES:
        # D52: a scheme the caller named, parsed by the WHATWG parser as a
        # non-special URL; shown as written (detection took it whole).
        normalized = normalize(text)
        if normalized is None:  # (detection took only what the parser takes)
            raise URLError(f"not a valid URL: {text!r}")
        return normalized, text
    if scheme is None and host.kind in ("localhost", "ipv4"):
        # D54: localhost and IP addresses without a scheme serve plain http.
        href, display = format_url_with("http://" + text, props, (host_ascii, host_unicode))
        return href, display[len("http://") :]
    return format_url_with(text, props, (host_ascii, host_unicode))


_new_link = Link.__new__
# The slots of a Link, in the order _init and a link maker take them.
LINK_SLOTS = ("start", "end", "kind", "text", "scheme", "host", "finder", "_version", "_href", "_display")
# The slots' own setters (Link.__setattr__ refuses): a link is made per link
# found, and these cost half of object.__setattr__ (issue 14).
_SETTERS = tuple(Link.__dict__[name].__set__ for name in LINK_SLOTS)


def _init(
    link: Link,
    start: int,
    end: int,
    kind: Kind,
    text: str,
    scheme: str | None,
    host: Host,
    finder: Finder | None,
    version: str,
    _setters: tuple[Any, ...] = _SETTERS,
) -> None:
    set_start, set_end, set_kind, set_text, set_scheme, set_host, set_finder, set_version, set_href, set_display = (
        _setters
    )
    set_start(link, start)
    set_end(link, end)
    set_kind(link, kind)
    set_text(link, text)
    set_scheme(link, scheme)
    set_host(link, host)
    set_finder(link, finder)
    set_version(link, version)
    set_href(link, None)
    set_display(link, None)


def _restore(
    start: int,
    end: int,
    kind: Kind,
    text: str,
    scheme: str | None,
    host: Host,
    finder: Finder | None,
    version: str,
) -> Link:
    link: Link = _new_link(Link)
    _init(link, start, end, kind, text, scheme, host, finder, version)
    return link


def link_maker() -> Callable[..., Link]:
    """``make(start, end, kind, text, scheme, host, finder, version, None,
    None)``: a new Link, its slots (``LINK_SLOTS``) set, made in one call by
    the C accelerator where it is in use (a fifth of find_links on a list of
    links went to the ten setters; issue 14), else by the setters."""
    return slot_maker(Link, LINK_SLOTS) or _make_link


def _make_link(*values: Any) -> Link:
    """A new Link of the values of ``LINK_SLOTS`` (href and display None):
    what the C accelerator's SlotMaker makes, by the setters."""
    return _restore(*values[:8])


def _detected_link(finder: Finder, start: int, end: int, kind: Kind, text: str, scheme: str | None, host: Host) -> Link:
    """A link of ``finder``: for the §8 adjustment of a detected link's
    start, whose host is validated with the same finder.  Only a link made
    here or by :mod:`uts58.detect.finder` (with :func:`link_maker`) has a
    ``finder``, the mark the policy trusts (D64); :class:`Link` itself
    makes links without one."""
    return _restore(start, end, kind, text, scheme, host, finder, finder.unicode_version)
