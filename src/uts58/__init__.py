"""uts58 — Unicode link detection and formatting (Unicode Technical Standard #58).

The top level holds what applications use:

* detection: :func:`find_links` (:func:`find_urls`, :func:`find_emails`) and a
  configured :class:`Finder`, giving :class:`Link` values whose host is a
  :class:`Host`;
* output: :func:`linkify` (HTML or Markdown) and :func:`linkify_html`, a
  configured :class:`Linkifier` and its :class:`Anchor` values, under
  the UTS #58 §8 :class:`Policy` (:func:`check_link`, :class:`Reason`);
* display forms: :func:`format_url` (§4), :func:`format_email` (§5.3);
* the algorithms and properties of the standard that other code builds on:
  :func:`find_link_end` (§3.5.1), :func:`find_email_start` (§5.2),
  :func:`link_term`, :func:`link_bracket`, :func:`is_link_email` (§3.4, §5.1);
* the errors, all subclasses of :class:`UTS58Error` (a ValueError);
* :func:`accelerated`: whether the C kernels are in use (``uts58 --version``
  also says why not); :func:`cache_info` and :func:`cache_clear`: the bounded
  caches of answers (``UTS58_CACHE_SIZE`` bounds them all).

Everything else is public in the module named for its part of the standard
(``uts58.spec.escaping.minimal_escape_parts``, ``uts58.spec.termination.OPEN_STACK_LIMIT``,
``uts58.unicode.properties.link_properties``, ``uts58.stream``, ``uts58.migration``…).

>>> import uts58
>>> uts58.format_url("https://ja.wikipedia.org/wiki/%E3%82%A2%E3%83%AB%E3%83%99%E3%83%AB%E3%83%88)")
'https://ja.wikipedia.org/wiki/アルベルト%29'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

from .base.compiled import choose as _choose

_choose()  # (the compiled decision path, or its sources: before any of it loads, issue 38)

# The public names: name -> the module that defines it.  The one list:
# __all__ is made from it, and a test checks the TYPE_CHECKING imports below
# against it.  Modules load on first use (PEP 562, D31), so that
# ``import uts58`` stays cheap; tables load with them.
_EXPORTS = {
    # detection
    "find_links": "detect.finder",
    "find_urls": "detect.finder",
    "find_emails": "detect.finder",
    "has_links": "detect.finder",
    "Finder": "detect.finder",
    "DEFAULT_SCHEMES": "detect.finder",
    "Link": "detect.link",
    "Host": "detect.link",
    # output and policy
    "linkify": "output.linkifier",
    "Linkifier": "output.linkifier",
    "Anchor": "output.anchor",
    "linkify_html": "html.linkify",
    "Policy": "output.policy",
    "Reason": "output.policy",
    "check_link": "output.policy",
    # display forms
    "format_url": "spec.formatting",
    "format_email": "spec.email",
    # the standard's algorithms and properties
    "find_link_end": "spec.termination",
    "find_email_start": "spec.email",
    "link_term": "unicode.properties",
    "link_bracket": "unicode.properties",
    "is_link_email": "unicode.properties",
    "LinkTerm": "unicode.properties",
    # errors
    "UTS58Error": "errors",
    "OptionError": "errors",
    "OffsetError": "errors",
    "URLError": "errors",
    "AddressError": "errors",
    "TLDListError": "errors",
    "ConformanceFileError": "errors",
    "DecodeError": "errors",
    # the kernels in use: a function, not a flag, so that it is never stale (D78)
    "accelerated": "kernels",
    # the bounded caches of answers (D104)
    "cache_info": "base.caches",
    "cache_clear": "base.caches",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:  # D31: PEP 562, a module loads with its first name
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'uts58' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


if TYPE_CHECKING:  # for type checkers: the same names, re-exported explicitly
    from .base.caches import cache_clear as cache_clear
    from .base.caches import cache_info as cache_info
    from .detect.finder import DEFAULT_SCHEMES as DEFAULT_SCHEMES
    from .detect.finder import Finder as Finder
    from .detect.finder import find_emails as find_emails
    from .detect.finder import find_links as find_links
    from .detect.finder import find_urls as find_urls
    from .detect.finder import has_links as has_links
    from .detect.link import Host as Host
    from .detect.link import Link as Link
    from .errors import AddressError as AddressError
    from .errors import ConformanceFileError as ConformanceFileError
    from .errors import DecodeError as DecodeError
    from .errors import OffsetError as OffsetError
    from .errors import OptionError as OptionError
    from .errors import TLDListError as TLDListError
    from .errors import URLError as URLError
    from .errors import UTS58Error as UTS58Error
    from .html.linkify import linkify_html as linkify_html
    from .kernels import accelerated as accelerated
    from .output.anchor import Anchor as Anchor
    from .output.linkifier import Linkifier as Linkifier
    from .output.linkifier import linkify as linkify
    from .output.policy import Policy as Policy
    from .output.policy import Reason as Reason
    from .output.policy import check_link as check_link
    from .spec.email import find_email_start as find_email_start
    from .spec.email import format_email as format_email
    from .spec.formatting import format_url as format_url
    from .spec.termination import find_link_end as find_link_end
    from .unicode.properties import LinkTerm as LinkTerm
    from .unicode.properties import is_link_email as is_link_email
    from .unicode.properties import link_bracket as link_bracket
    from .unicode.properties import link_term as link_term
