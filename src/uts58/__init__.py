"""uts58 — Unicode link detection and formatting (Unicode Technical Standard #58).

Applications: :func:`linkify` (HTML or Markdown), :func:`linkify_html`, with
the UTS #58 §8 security :class:`Policy` (:func:`check_link`).

Detection: :func:`find_links` (and :func:`find_urls`, :func:`find_emails`)
returns the :class:`Link` objects of a text.

Low-level algorithms of UTS #58, version 17.0:

* :func:`find_link_end` — §3.5.1, where a URL ends after its host;
* :func:`format_url`, :func:`minimal_escape_parts`, :func:`format_parts` — §4 minimal escaping;
* :func:`find_email_start`, :func:`format_email` — §5.2 and §5.3;
* :func:`link_term`, :func:`link_bracket`, :func:`is_link_email` — the §3.4 and §5.1 properties.

>>> import uts58
>>> uts58.format_url("https://ja.wikipedia.org/wiki/%E3%82%A2%E3%83%AB%E3%83%99%E3%83%AB%E3%83%88)")
'https://ja.wikipedia.org/wiki/アルベルト%29'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name -> the module that defines it.  Modules load on first use
# (PEP 562), so that ``import uts58`` stays cheap; tables load with them.
_EXPORTS = {
    "AddressError": "errors",
    "ConformanceFileError": "errors",
    "OffsetError": "errors",
    "OptionError": "errors",
    "TLDListError": "errors",
    "URLError": "errors",
    "UTS58Error": "errors",
    "DEFAULT_SCHEMES": "detection",
    "Link": "detection",
    "find_emails": "detection",
    "find_links": "detection",
    "find_urls": "detection",
    "find_email_start": "email",
    "format_email": "email",
    "format_parts": "escaping",
    "format_url": "escaping",
    "minimal_escape_parts": "escaping",
    "percent_escape": "escaping",
    "linkify": "linkifier",
    "linkify_html": "html5",
    "refine_end": "migration",
    "DEFAULT_UNICODE_VERSION": "properties",
    "LinkProperties": "properties",
    "LinkTerm": "properties",
    "available_versions": "properties",
    "is_link_email": "properties",
    "link_bracket": "properties",
    "link_properties": "properties",
    "link_term": "properties",
    "Policy": "security",
    "Reason": "security",
    "check_link": "security",
    "find_links_in_file": "stream",
    "find_links_in_stream": "stream",
    "OPEN_STACK_LIMIT": "termination",
    "find_link_end": "termination",
}

__all__ = [
    "DEFAULT_SCHEMES",
    "DEFAULT_UNICODE_VERSION",
    "OPEN_STACK_LIMIT",
    "AddressError",
    "ConformanceFileError",
    "Link",
    "LinkProperties",
    "LinkTerm",
    "OffsetError",
    "OptionError",
    "Policy",
    "Reason",
    "TLDListError",
    "URLError",
    "UTS58Error",
    "available_versions",
    "check_link",
    "find_email_start",
    "find_emails",
    "find_link_end",
    "find_links",
    "find_links_in_file",
    "find_links_in_stream",
    "find_urls",
    "format_email",
    "format_parts",
    "format_url",
    "is_link_email",
    "link_bracket",
    "link_properties",
    "link_term",
    "linkify",
    "linkify_html",
    "minimal_escape_parts",
    "percent_escape",
    "refine_end",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'uts58' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


if TYPE_CHECKING:
    from .detection import DEFAULT_SCHEMES, Link, find_emails, find_links, find_urls
    from .email import find_email_start, format_email
    from .errors import (
        AddressError,
        ConformanceFileError,
        OffsetError,
        OptionError,
        TLDListError,
        URLError,
        UTS58Error,
    )
    from .escaping import format_parts, format_url, minimal_escape_parts, percent_escape
    from .html5 import linkify_html
    from .linkifier import linkify
    from .migration import refine_end
    from .properties import (
        DEFAULT_UNICODE_VERSION,
        LinkProperties,
        LinkTerm,
        available_versions,
        is_link_email,
        link_bracket,
        link_properties,
        link_term,
    )
    from .security import Policy, Reason, check_link
    from .stream import find_links_in_file, find_links_in_stream
    from .termination import OPEN_STACK_LIMIT, find_link_end
