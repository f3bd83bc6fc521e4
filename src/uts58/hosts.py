"""Hosts: WHATWG host parsing and the Unicode display form of domains.

UTS #58 §1.4 leaves the host to the WHATWG URL standard and UTS #46; both
are done by ada-url here.
"""

from __future__ import annotations

import ada_url

__all__ = ["domain_to_ascii", "domain_to_unicode"]


def domain_to_ascii(domain: str) -> str | None:
    """The ASCII (A-label) form of a domain per the WHATWG host parser, or
    None when it is not a valid domain (forbidden code points, IDNA errors,
    or an IP address).

    >>> domain_to_ascii("Bücher.DE"), domain_to_ascii("exa mple.com")
    ('xn--bcher-kva.de', None)
    """
    try:
        parsed = ada_url.parse_url("http://" + domain + "/")
    except ValueError:
        return None
    if parsed["host_type"] != ada_url.HostType.DEFAULT or parsed["port"] or parsed["pathname"] != "/":
        return None
    host: str = parsed["hostname"]
    return host or None


def domain_to_unicode(ascii_domain: str) -> str:
    """UTS #46 ToUnicode of an ASCII domain (the display form).

    >>> domain_to_unicode("xn--bcher-kva.de")
    'bücher.de'
    """
    if "xn--" not in ascii_domain.lower():
        return ascii_domain
    return ada_url.idna_to_unicode(ascii_domain) or ascii_domain
