"""The WHATWG URL parser (ada-url): the one module of uts58 that calls it (D71).

* :func:`parse_special` splits a special URL (http, https, ws, wss, ftp)
  into the components uts58 needs; :func:`parse_display` also gives its
  path, query and fragment in display form (decoded, then §4.1), in one
  call.
* :func:`normalize`, :func:`is_valid`: the serialization and validity of
  any URL (non-special schemes: ``ssh://``, ``tel:``).
* :func:`idna_to_ascii`, :func:`idna_to_unicode`, :func:`ip_host`: UTS #46
  and the host parser's IP addresses.

With the C accelerator in use, parsing calls ada's C API (``ada_c.h``)
directly: one parse gives the href and the offsets of its components.  The
addresses of ada's functions come from the cffi module that ada-url's own
Python functions call (``ada_url._ada_wrapper``, D35), and are used only when
cffi reports exactly the C signatures and struct layouts that the
accelerator was written for (checked at import; :func:`ada_status` says
why not).  Otherwise the same is done with ``ada_url.normalize_url`` and a
regular expression over the serialization; the tests check that both agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial
from types import ModuleType
from typing import Any, Literal, NamedTuple

import ada_url

from .. import kernels as _kernels
from ..unicode.properties import LinkProperties

__all__ = [
    "Components",
    "Display",
    "ada_status",
    "ada_version",
    "displayer",
    "idna_to_ascii",
    "idna_to_unicode",
    "ip_host",
    "is_valid",
    "normalize",
    "parse_display",
    "parse_special",
    "parse_special_href",
    "plain_idn",
]


class Components(NamedTuple):
    """A special URL as serialized by the WHATWG URL parser."""

    href: str
    scheme: str
    userinfo: str | None  # without "@"; None when there is none
    host: str
    port: str | None  # digits; None when omitted (or the scheme's default)
    pathname: str  # starts with "/"
    query: str | None  # without "?"; None when absent, "" when "?" ends the URL
    fragment: str | None  # without "#"


class Display(NamedTuple):
    """A special URL parsed, with the parts after its host in display form."""

    href: str
    scheme: str
    userinfo: str | None
    host: str
    port: str | None
    tail: str  # path, query and fragment: percent-decoded where that keeps the URL, then §4.1


# The WHATWG serialization of a special URL has a fixed grammar.
_HREF = re.compile(
    r"(?P<scheme>[a-z][a-z0-9+.\-]*)://(?:(?P<userinfo>[^@/?#]*)@)?(?P<host>\[[^\]/?#]*\]|[^:/?#]*)"
    r"(?::(?P<port>[0-9]*))?(?P<pathname>[^?#]*)(?:\?(?P<query>[^#]*))?(?:#(?P<fragment>.*))?",
    re.S,
)


def ada_version() -> str:
    """The version of the installed ada-url (the C++ library it wraps)."""
    return str(ada_url.get_version())  # type: ignore[no-untyped-call,unused-ignore]  # (untyped: ada-url absent, as in a build)


def parse_special_href(url: str) -> Components | None:
    """:func:`parse_special` through ``ada_url.normalize_url`` and a regex."""
    try:
        href = ada_url.normalize_url(url)
    except ValueError:
        return None
    c = _HREF.fullmatch(href)
    if c is None:
        return None
    return Components(href, *c.groups())


# What the accelerator expects of ada's C API (ada_c.h), as cffi spells it.
_SIGNATURES = {
    "ada_parse": "void *(*)(char *, size_t)",
    "ada_is_valid": "_Bool(*)(void *)",
    "ada_get_href": "ada_string(*)(void *)",
    "ada_get_components": "ada_url_components *(*)(void *)",
    "ada_free": "void(*)(void *)",
}
# Optional (D105): ToUnicode in one call.  An ada-url without them, or with
# other signatures, keeps the rest of the C API; to_unicode goes through
# ada-url's Python wrapper then.
_OPTIONAL_SIGNATURES = {
    "ada_idna_to_unicode": "ada_owned_string(*)(char *, size_t)",
    "ada_free_owned_string": "void(*)(ada_owned_string)",
}
_STRUCTS = {
    "ada_string": [("data", "char *"), ("length", "size_t")],
    "ada_url_components": [
        (name, "uint32_t")
        for name in (
            "protocol_end",
            "username_end",
            "host_start",
            "host_end",
            "port",
            "pathname_start",
            "search_start",
            "hash_start",
        )
    ],
}


def _check_c_api() -> tuple[list[int] | None, str]:
    """The addresses of ada's C functions, or None and why they cannot be used."""
    try:
        from ada_url._ada_wrapper import ffi, lib
    except ImportError as e:
        return None, f"ada-url {ada_version()} has no cffi module ada_url._ada_wrapper ({e})"
    addresses = []
    try:
        for name, signature in _SIGNATURES.items():
            fn = ffi.addressof(lib, name)
            if ffi.typeof(fn).cname != signature:
                return None, f"ada-url {ada_version()}: {name} is {ffi.typeof(fn).cname}, not {signature}"
            addresses.append(int(ffi.cast("uintptr_t", fn)))
        for struct, fields in _STRUCTS.items():
            t: Any = ffi.typeof(struct)
            found = [(f, ft.type.cname) for f, ft in t.fields]
            if found != fields:
                return None, f"ada-url {ada_version()}: struct {struct} is {found}"
            offset = 0
            for (_, ft), (_, cname) in zip(t.fields, fields, strict=True):
                if ft.offset != offset:
                    return None, f"ada-url {ada_version()}: struct {struct} is laid out with padding"
                offset += ffi.sizeof(cname)
    except (AttributeError, TypeError, ValueError, KeyError) as e:
        return None, f"ada-url {ada_version()}: its C API is not the one expected ({e})"
    return addresses + _optional_addresses(ffi, lib), ""


def _optional_addresses(ffi: Any, lib: Any) -> list[int]:
    """The addresses of _OPTIONAL_SIGNATURES, or zeros (all or none)."""
    try:
        t: Any = ffi.typeof("ada_owned_string")
        if [(f, ft.type.cname) for f, ft in t.fields] != [("data", "char *"), ("length", "size_t")] or t.fields[1][
            1
        ].offset != ffi.sizeof("char *"):
            return [0, 0]
        out = []
        for name, signature in _OPTIONAL_SIGNATURES.items():
            fn = ffi.addressof(lib, name)
            if ffi.typeof(fn).cname != signature:
                return [0, 0]
            out.append(int(ffi.cast("uintptr_t", fn)))
    except (AttributeError, TypeError, ValueError, KeyError):
        return [0, 0]
    return out


_ADDRESSES, _WHY_NO_C_API = _check_c_api()


@cache
def _ada(module: ModuleType | None) -> Any:
    """The accelerator's ``Ada`` (ada's C API), or None."""
    if module is None or _ADDRESSES is None:
        return None
    return module.Ada(*_ADDRESSES, Components, Display)


def ada_status() -> str:
    """Whether ada's C API is called directly: ``"on"``, or ``"off"`` and why."""
    if _ada(_kernels.c_module()) is not None:
        return "on"
    if _ADDRESSES is None:
        return "off: " + _WHY_NO_C_API
    return "off: the C accelerator is not in use"


def parse_special(url: str) -> Components | None:
    """Parse ``url`` with the WHATWG URL parser; None when it is not a
    valid URL.  Meant for special URLs (http, https, ws, wss, ftp), whose
    serialization always has ``//`` and a path.

    >>> parse_special("HTTPS://user@Bücher.de:443/a/../b?q#f")  # doctest: +NORMALIZE_WHITESPACE
    Components(href='https://user@xn--bcher-kva.de/b?q#f', scheme='https', userinfo='user',
               host='xn--bcher-kva.de', port=None, pathname='/b', query='q', fragment='f')
    """
    ada = _ada(_kernels.c_module())
    if ada is not None:
        parsed: Components | Literal[False] | None = ada.parse(url)
        if parsed is not False:
            return parsed
    return parse_special_href(url)


def parse_display(url: str, keep_root: bool, props: LinkProperties) -> Display | None:
    """:func:`parse_special`, with the path, query and fragment in display
    form: percent-decoded where that does not change the parsed URL, then
    minimally escaped (§4.1).  ``keep_root``: show a path that is only
    ``/`` (the WHATWG serialization gives every special URL a path).

    >>> from uts58.unicode.properties import link_properties
    >>> parse_display("https://example.com/a%20b%C3%A9.", False, link_properties()).tail
    '/a%20bé%2E'
    """
    return displayer(props)(url, keep_root)


def displayer(props: LinkProperties) -> Callable[[str, bool], Display | None]:
    """:func:`parse_display` bound to one Unicode version's kernels (for
    callers that format many URLs)."""
    return _displayer(props, _kernels.c_module())


@cache
def _displayer(props: LinkProperties, module: ModuleType | None) -> Callable[[str, bool], Display | None]:
    """parse_display for one Unicode version and kernel mode (built once)."""
    engine = _kernels.engine(props)
    ada = _ada(module)

    def python(url: str, keep_root: bool) -> Display | None:
        c = parse_special(url)
        if c is None:
            return None
        path = c.pathname[1:] if keep_root or c.pathname != "/" else None
        return Display(c.href, c.scheme, c.userinfo, c.host, c.port, engine.display_tail(path, c.query, c.fragment))

    if ada is None:
        return python
    # Parse, split, decode and escape in one compiled call; a URL it cannot
    # split (no "//" after the scheme) goes to the Python steps.
    return partial(ada.parse_display, engine, python)


def normalize(url: str) -> str | None:
    """The WHATWG serialization (href) of any URL, or None when it is not
    valid.

    >>> normalize("SSH://Git@Example.com/x"), normalize("tel:+1 555")
    ('ssh://Git@Example.com/x', 'tel:+1 555')
    """
    try:
        return str(ada_url.normalize_url(url))
    except ValueError:
        return None


is_valid: Callable[[str], bool] = ada_url.check_url


def idna_to_unicode(ascii_domain: str) -> str:
    """UTS #46 ToUnicode; the input where that fails.

    >>> idna_to_unicode("xn--bcher-kva.de")
    'bücher.de'
    """
    ada = _ada(_kernels.c_module())
    if ada is not None and ascii_domain.isascii():
        found = ada.to_unicode(ascii_domain)  # (one C call, D105; False: not in this ada-url)
        if found is not False:
            return str(found)
    return str(ada_url.idna_to_unicode(ascii_domain) or ascii_domain)


def domain_host(name: str) -> str | Literal[False] | None:
    """The host ada makes of ``"http://" + name + "/"`` when that URL is the
    host alone and not an IP address, in one C call; None when it is not;
    False when the C API is not in use or cannot tell (the caller parses
    with :func:`parse_special` then, D105)."""
    ada = _ada(_kernels.c_module())
    if ada is None:
        return False
    found: str | Literal[False] | None = ada.domain(name)
    return found


def host_checker(
    tlds: frozenset[str],
    rules: frozenset[str],
    nodes: frozenset[str],
    flat: frozenset[str],
    accept_unknown: bool,
    label_fullmatch: Callable[[str], object],
    characters: tuple[str, str, int, int],
) -> Any:
    """The accelerator's ``Hosts`` over a TLD set, the compiled public-suffix
    rules, a label pattern and the characters and lengths of labels
    (separators, plain ASCII label characters, longest label, longest name):
    ``DomainRules._validate`` in one call (D106), calling ada through the C
    API; None where that is not in use."""
    module = _kernels.c_module()
    ada = _ada(module)
    if module is None or ada is None:
        return None
    return module.Hosts(ada, tlds, rules, nodes, flat, accept_unknown, label_fullmatch, *characters, plain_idn())


@cache
def plain_idn() -> tuple[int, ...]:
    """D137: the flat (first, last, class) triples of
    ``uts58.tables.plain_idn``, the characters UTS #46 leaves as they are,
    whose labels the accelerator Punycode-encodes without calling ada;
    ``()`` when this ada-url does not encode the table's ``PROBES`` as they
    are (IDNA or Bidi_Class data older than its ``SINCE`` and ``RTL_SINCE``):
    ada decides every label then."""
    from ..tables.plain_idn import PLAIN_IDN, PROBES

    if any(idna_to_ascii(name) != ascii for name, ascii in PROBES):
        return ()
    return PLAIN_IDN


def idna_to_ascii(domain: str) -> str:
    """UTS #46 ToASCII; ``""`` where it fails.

    >>> idna_to_ascii("Bücher.de")
    'xn--bcher-kva.de'
    """
    return bytes(ada_url.idna_to_ascii(domain)).decode("ascii", "replace")


def ip_host(host: str) -> str | None:
    """The serialized IPv4 or bracketed IPv6 address that ``host`` parses
    as, or None.

    >>> ip_host("0x7f.1"), ip_host("[::1]"), ip_host("example.com")
    ('127.0.0.1', '[::1]', None)
    """
    try:
        parsed = ada_url.parse_url("http://" + host + "/")
    except ValueError:
        return None
    if parsed["host_type"] in (ada_url.HostType.IPV4, ada_url.HostType.IPV6) and parsed["pathname"] == "/":
        return str(parsed["hostname"])
    return None
