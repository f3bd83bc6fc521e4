"""Email addresses (UTS #58 §5): where the local-part starts, minimal quoting."""

from __future__ import annotations

import re

from ..base.checks import check_offset, check_str
from ..errors import AddressError, OffsetError
from ..hosts.domains import domain_to_ascii, domain_to_unicode, run_starts
from ..unicode.properties import DEFAULT_UNICODE_VERSION, LinkProperties, link_properties

__all__ = ["find_email_start", "format_email"]

_MAILTO = "mailto:"


def find_email_start(text: str, at: int, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> int | None:
    """Start offset of the email address whose ``@`` is at ``text[at]``.

    Scans backward over Link_Email characters (§5.2) and includes a
    ``mailto:`` just before the local-part.  Returns None where the
    algorithm fails to match: empty local-part, or a local-part that starts
    or ends with ``.`` or contains ``..``.  The domain after the ``@`` is not
    checked here.

    >>> text = "Contact x.abcd@example.com"
    >>> text[find_email_start(text, 14):]
    'x.abcd@example.com'
    >>> find_email_start("Contact john.@example.com", 13) is None
    True
    """
    check_str(text, "text")
    check_offset(at, "at", text)
    if at == len(text) or text[at] != "@":
        raise OffsetError(f"at={at} does not point at an '@' in text")
    return find_email_start_with(text, at, link_properties(unicode_version))


def find_email_start_with(text: str, at: int, props: LinkProperties) -> int | None:
    """§5.2 without argument checks; the backward scan costs O(local-part)."""
    if at == 0:
        return None
    start = _link_email_run_start(text, at, props)
    # Link_Email contains ".", so the scan did not stop at a dot; the dot
    # rules of §5.2 are checked on the local-part as a whole.
    local = text[start:at]
    if not local or local[0] == "." or local[-1] == "." or ".." in local:
        return None
    # D14: "mailto:" matches in any case, as URL schemes do.
    if start >= len(_MAILTO) and text[start - len(_MAILTO) : start].lower() == _MAILTO:
        start -= len(_MAILTO)
    return start


def _link_email_run_start(text: str, at: int, props: LinkProperties) -> int:
    """Where the run of Link_Email characters that ends at ``at`` starts (0
    when it reaches the text's start, D13).  Most local-parts are short and
    ASCII: the 16 characters before the "@" stripped of Link_Email characters,
    when ASCII and not all stripped, end where the run starts; else the
    kernels' backward scan (issue 14, issue 38)."""
    lo = max(0, at - 16)
    window = text[lo:at]
    kept = len(window.rstrip(props.ascii_email)) if window.isascii() else 0
    return lo + kept if kept else run_starts(props).email(text, 0, at)


# RFC 5322 §3.2.4 / RFC 6532 §3.2: what a quoted-string may hold.  qtext and
# quoted-pair cover every printable ASCII character, space and tab (as
# quoted-pair or folding white space) and all non-ASCII scalar values;
# other controls are not allowed.
_NOT_QUOTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f\ud800-\udfff]")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)


def format_email(address: str, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> str:
    """The display form of an email address (UTS #58 §5.3).

    The local-part is written bare when every character is Link_Email and
    its dots are valid (§5.2 would detect it); otherwise it is quoted, with
    ``\\`` before ``"`` and ``\\``.  A quoted input is unquoted first.  The
    domain is shown in Unicode form (UTS #46 ToUnicode).  A leading
    ``mailto:`` is kept.

    >>> format_email('"σωκράτης"@xn--bcher-kva.de')
    'σωκράτης@bücher.de'
    >>> format_email("john doe@example.com")
    '"john doe"@example.com'

    Raises ValueError when the address is not valid (no ``@``, empty
    local-part, a character RFC 6532 does not allow, an invalid domain).
    """
    check_str(address, "address")
    prefix = ""
    if address[: len(_MAILTO)].lower() == _MAILTO:
        prefix, address = address[: len(_MAILTO)], address[len(_MAILTO) :]
    local, sep, domain = address.rpartition("@")
    if not sep or not local or not domain:
        raise AddressError(f"address must be local-part@domain: {address!r}")
    quoted = _QUOTED.fullmatch(local)
    if quoted:
        local = re.sub(r"\\(.)", r"\1", quoted.group(1), flags=re.S)
        if not local:
            raise AddressError('address has an empty quoted local-part ""')
    bad = _NOT_QUOTABLE.search(local)
    if bad:
        raise AddressError(f"address local-part has U+{ord(bad.group()):04X}, which RFC 6532 does not allow")
    return display_email(prefix, local, _format_domain(domain, unicode_version), link_properties(unicode_version))


def display_email(prefix: str, local: str, domain: str, props: LinkProperties) -> str:
    """§5.3 (D15): the unquoted local-part, bare when §5.2 detects it whole,
    else quoted; ``domain`` is already in display form."""
    # (an empty local-part, which only a hand-built Link can have, is quoted: "")
    bare = local and props.email_chars.fullmatch(local) and local[0] != "." and local[-1] != "." and ".." not in local
    if not bare:
        local = '"' + local.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return prefix + local + "@" + domain


def _format_domain(domain: str, version: str) -> str:
    if domain.startswith("[") and domain.endswith("]"):
        return domain  # address literal, RFC 5321 §4.1.3
    ascii_form = domain_to_ascii(domain, unicode_version=version)
    if ascii_form is None:
        raise AddressError(f"address has an invalid domain: {domain!r}")
    return domain_to_unicode(ascii_form, unicode_version=version)
