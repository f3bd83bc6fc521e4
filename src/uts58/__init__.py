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

from .detection import DEFAULT_SCHEMES, Link, find_emails, find_links, find_urls
from .email import find_email_start, format_email
from .escaping import format_parts, format_url, minimal_escape_parts, percent_escape
from .linkify import linkify, linkify_html
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

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_SCHEMES",
    "DEFAULT_UNICODE_VERSION",
    "OPEN_STACK_LIMIT",
    "Link",
    "LinkProperties",
    "LinkTerm",
    "Policy",
    "Reason",
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
