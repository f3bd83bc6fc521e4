"""WHATWG URL parsing (ada-url) split into the components uts58 needs.

:func:`parse_special` returns the serialization (href) of a special URL
and its components.  With the C accelerator built, it calls ada's C API
(``ada_c.h``) directly: one parse gives the href and the offsets of its
components.  The addresses of ada's functions come from the cffi module
that ada-url's own Python functions call (``ada_url._ada_wrapper``), and
are used only when cffi reports exactly the C signatures and struct
layouts that the accelerator was written for.  Otherwise
:func:`parse_special_href` does the same with ``ada_url.normalize_url``
and a regular expression over the serialization; the tests check that
both agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

import ada_url

from ._compiled import speedups

__all__ = ["Components", "parse_special", "parse_special_href"]


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


# The WHATWG serialization of a special URL has a fixed grammar.
_HREF = re.compile(
    r"(?P<scheme>[a-z][a-z0-9+.\-]*)://(?:(?P<userinfo>[^@/?#]*)@)?(?P<host>\[[^\]/?#]*\]|[^:/?#]*)"
    r"(?::(?P<port>[0-9]*))?(?P<pathname>[^?#]*)(?:\?(?P<query>[^#]*))?(?:#(?P<fragment>.*))?",
    re.S,
)


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


def _compiled_ada() -> Any:
    """The accelerator's ``Ada`` (ada's C API), or None where it cannot be used."""
    if speedups is None:
        return None
    try:
        from ada_url._ada_wrapper import ffi, lib

        addresses = []
        for name, signature in _SIGNATURES.items():
            fn = ffi.addressof(lib, name)
            if ffi.typeof(fn).cname != signature:
                return None
            addresses.append(int(ffi.cast("uintptr_t", fn)))
        for struct, fields in _STRUCTS.items():
            t: Any = ffi.typeof(struct)
            if [(f, ft.type.cname) for f, ft in t.fields] != fields:
                return None
            offset = 0
            for (_, ft), (_, cname) in zip(t.fields, fields, strict=True):
                if ft.offset != offset:
                    return None
                offset += ffi.sizeof(cname)
    except (ImportError, AttributeError, TypeError, ValueError, KeyError):
        return None
    return speedups.Ada(*addresses, Components)


# ``uts58._speedups.Ada`` or None; Engine.format_url takes it too.
ADA = _compiled_ada()
_COMPILED: Callable[[str], Components | Literal[False] | None] | None = None if ADA is None else ADA.parse


def parse_special(url: str) -> Components | None:
    """Parse ``url`` with the WHATWG URL parser; None when it is not a
    valid URL.  Meant for special URLs (http, https, ws, wss, ftp), whose
    serialization always has ``//`` and a path.

    >>> parse_special("HTTPS://user@Bücher.de:443/a/../b?q#f")  # doctest: +NORMALIZE_WHITESPACE
    Components(href='https://user@xn--bcher-kva.de/b?q#f', scheme='https', userinfo='user',
               host='xn--bcher-kva.de', port=None, pathname='/b', query='q', fragment='f')
    """
    if _COMPILED is not None:
        parsed = _COMPILED(url)
        if parsed is not False:
            return parsed
    return parse_special_href(url)
