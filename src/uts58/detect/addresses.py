"""Is an address a mailbox?  What its shape and the text around it show (D98, D103).

An address written without ``mailto:`` is detected as UTS #58 §5 says; it
is no mailbox when its domain is a placeholder (``you@yourhost.com``), its
local-part is blanked out (``xxxxxxxx@example.de``) or it names an SSH
algorithm or extension (``sk-ssh-ed25519@openssh.com``), each a named rule
of :data:`ADDRESS_RULES`; and ``<local@domain>`` is a Message-ID, not an
address, when its local-part has the shape mail and news software writes.

>>> address_rule("see you@yourhost.com", 4, 7, 20, "yourhost.com").name
'placeholder'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..hosts.domains import public_suffixes
from .evidence import PLACEHOLDER, Rule, placeholder

__all__ = [
    "ADDRESS_RULES",
    "PLACEHOLDER_RULE",
    "Address",
    "address_evidence",
    "address_rule",
    "blanked_out",
    "message_id",
    "message_id_unbracketed",
    "protocol_name",
]


def blanked_out(local: str) -> bool:
    """Whether the local-part of an address is blanked out
    (``xxxxxxxx@privat.oldenburg.de``): an address nobody can write to (D103)."""
    return len(local) >= 3 and local.strip("xX") == ""


# D103: the names of SSH and SFTP algorithms and extensions (RFC 4251 §6:
# "name@domain"): an algorithm in the local-part, or the noun after it.
_ALGORITHM_PART = re.compile(
    r"sha[0-9]+|ed(?:25519|448)|ecdsa|nistp[0-9]+|x?25519|poly1305|hmac|aes[0-9]+|[0-9]+gcm|umac|curve[0-9]+|"
    r"sntrup[0-9]+(?:x25519)?|mlkem[0-9]+(?:x25519)?"
)
# (lower case and on the same line: "Extension 4421" after an address is a phone's)
_PROTOCOL_NOUN = re.compile(
    r"[\"'”’)]?[ \t]+(?:sftp-server[ \t]+|protocol[ \t]+)?"
    r"(?:extensions?|methods?|hybrid|ciphers?|algorithms?|MACs?|kex)\b"
)
_SSH_BEFORE = re.compile(r"ssh|sftp", re.IGNORECASE)


def protocol_name(text: str, start: int, at: int, end: int) -> bool:
    """Whether the address ``text[start:end]`` (``@`` at ``at``) names an
    SSH algorithm or extension (D103): ``sk-ssh-ed25519@openssh.com``, or
    ``limits@openssh.com extension``.

    >>> protocol_name("the limits@openssh.com extension", 4, 10, 22)
    True
    >>> protocol_name("mail jane@example.com now", 5, 9, 21)
    False
    """
    # An SSH context first: the name's domain ("openssh.com", "tinyssh.org")
    # or the line before it ("sftp-server(8): add …"); a person's address at
    # any other domain keeps its link ("cert-team@uni-stuttgart.de").
    line_start = text.rfind("\n", max(0, start - 80), start) + 1
    if "ssh" not in text[at:end].lower() and not _SSH_BEFORE.search(text, max(line_start, start - 80), start):
        return False
    local = text[start:at]
    if "-" in local and any(_ALGORITHM_PART.fullmatch(part) for part in local.lower().split("-")):
        return True
    return _PROTOCOL_NOUN.match(text, end) is not None


class Address(NamedTuple):
    """An address as the address rules see it: ``text[start:end]``, ``@`` at ``at``."""

    text: str
    start: int
    at: int
    end: int
    ascii_domain: str


# D103: an address written without "mailto:" that is no mailbox, in the order asked.
# (the placeholder rule is a host's rule too: "www.yourdomain.com")
PLACEHOLDER_RULE = Rule("placeholder", lambda a: placeholder(a.ascii_domain), PLACEHOLDER, "D103")
ADDRESS_RULES: tuple[Rule, ...] = (
    PLACEHOLDER_RULE,
    Rule(
        "blanked out",
        lambda a: blanked_out(a.text[a.start : a.at]),
        "a blanked-out address: nobody can write to it",
        "D103",
    ),
    Rule(
        "protocol name",
        lambda a: protocol_name(a.text, a.start, a.at, a.end),
        "the name of an SSH algorithm or extension, not a mailbox",
        "D103",
    ),
)


def address_rule(text: str, start: int, at: int, end: int, ascii_domain: str) -> Rule | None:
    """The first of :data:`ADDRESS_RULES` that holds for the address ``text[start:end]``, or None."""
    address = Address(text, start, at, end, ascii_domain)
    for rule in ADDRESS_RULES:
        if rule.test(address):
            return rule
    return None


def address_evidence(text: str, start: int, at: int, end: int, ascii_domain: str) -> str | None:
    """Why the address ``text[start:end]`` (``@`` at ``at``), written without
    ``mailto:``, is no mailbox (D103): at a placeholder domain, blanked
    out, or the name of an SSH algorithm or extension; None when nothing
    says so.  The one decision of the scanner and of ``why_not``.

    >>> address_evidence("see you@yourhost.com", 4, 7, 20, "yourhost.com")
    'a placeholder name: its domain belongs to a stranger'
    """
    rule = address_rule(text, start, at, end, ascii_domain)
    return None if rule is None else rule.reason


# D98: the local-part of a Message-ID (RFC 5322 §3.6.4) as mail and news
# software writes it: a date and a queue id ("199710161841.LAA13208"), a
# date and a counter ("1994Apr6.184419.3687"), hex stamps
# ("3C8E1234.5060708"), "$" ("8cceb9$1@…"), Pine's "Pine.LNX.4.44.…".
_MESSAGE_ID_LOCAL = re.compile(
    r"[0-9]{6,}[.$]|[0-9]{4}[A-Za-z]{3}[0-9]{1,2}\.[0-9]|[0-9A-Fa-f]{8}\.[0-9A-Fa-f]{4,}\Z|[^@]*\$|Pine\.[A-Z]{3}\."
    r"|slrn[0-9a-z]+\.[0-9a-z]+\."  # (slrn's "slrnbu68qh.nqb.user")
    r"|[0-9a-z]{8,}\.fsf\Z"  # (Gnus's "87obi8u4h2.fsf")
)


# A Message-ID shape so specific that it needs no "<" ("20200119135241.GA4970@gmail.com",
# Mutt's date and time then a counter).
_MESSAGE_ID_BARE = re.compile(r"[0-9]{12,}\.[A-Za-z0-9]+\Z|[0-9][0-9a-z]{7,}\.fsf\Z")  # (and Gnus's)


def message_id_unbracketed(local: str) -> bool:
    """Whether a local-part written without ``<`` is a Message-ID all the
    same: twelve digits or more (a date and time) then ``.`` and a counter,
    or Gnus's ``87bn3ssqg0.fsf``."""
    return _MESSAGE_ID_BARE.match(local) is not None


def message_id(local: str, ascii_domain: str) -> bool:
    """Whether ``<local@domain>`` is a Message-ID, not a mailbox, from its
    shape alone (D98): the serial shapes above, or five digits or fewer at
    a machine's name (more labels than the registrable domain:
    ``<7874@jpl-devvax.jpl.nasa.gov>``, where a numeric mailbox is at a
    provider, ``<12345678@qq.com>``, or longer, ``<2019123456@stu.example.cn>``).

    >>> message_id("199710161841.LAA13208", "wall.org"), message_id("jane.doe", "example.com")
    (True, False)
    >>> message_id("7874", "jpl-devvax.jpl.nasa.gov"), message_id("12345678", "qq.com")
    (True, False)
    """
    if _MESSAGE_ID_LOCAL.match(local):
        return True
    if local.isdigit() and len(local) <= 5:
        # (an article number of old news software at a machine's name; a
        # student's or a phone's number is longer: "<2019123456@stu.example.cn>")
        return public_suffixes().registrable(ascii_domain.lower()) not in (None, ascii_domain.lower())
    return False
