"""The higher level of UTS #58 §8: which detected links to trust.

Detection (:func:`uts58.find_links`) reports every syntactically valid link;
a :class:`Policy` decides which of them an application should turn into
links.  :func:`check_link` returns the reasons a link fails a policy, each
with a stable code; :func:`uts58.linkify` applies :meth:`Policy.default`.

>>> from uts58 import find_links
>>> link = next(find_links("see раураl.com now"))
>>> [reason.code for reason in check_link(link, Policy.default())]
['mixed-script', 'confusable']
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any, Literal

from ..base.caches import bounded
from ..base.options import Option, Options, check_bool, check_choice
from ..detect.finder import Finder
from ..detect.link import Link
from ..detect.options import file_extension_set
from ..errors import OptionError
from ..hosts.domains import FILE_EXTENSION_TLDS
from ..unicode.parts import LABEL_SEPARATORS
from ..unicode.properties import DEFAULT_UNICODE_VERSION, table_module

__all__ = [
    "DEFAULT_FILE_EXTENSIONS",
    "Policy",
    "Reason",
    "check_link",
    "escape_bidi_controls",
]

# Reason codes, stable: callers may store and compare them.
# UNVERIFIED: a link no finder made whose text does not detect as this link
# (D64: the default Finder, the link's scheme named, file extensions left to
# the policy, finds in link.text exactly one link, the whole text, of the
# same kind, scheme and Host); such a link gets this reason alone.
# UNKNOWN_TLD and NOT_REGISTRABLE are no longer given (a hand-built link that
# would fail them is unverified) and stay for callers that compare codes.
UNVERIFIED = "unverified"
UNKNOWN_TLD = "unknown-tld"
NOT_REGISTRABLE = "not-registrable"
IDENTIFIER_STATUS = "identifier-status"
MIXED_SCRIPT = "mixed-script"
CONFUSABLE = "confusable"
BIDI_CONTROL = "bidi-control"
FILE_EXTENSION = "file-extension"
TOO_LONG = "too-long"

# D65, D97: the policy refuses no file name unless it is given a list of its
# own (detection's rules are the finder's); the technical preset's list, for
# a policy that wants technical text's stricter rule.
DEFAULT_FILE_EXTENSIONS: frozenset[str] | None = None
TECHNICAL_FILE_EXTENSIONS = FILE_EXTENSION_TLDS


@dataclass(frozen=True)
class Reason:
    """Why a link fails a policy: a stable ``code`` and a readable ``message``."""

    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass(frozen=True)
class Policy:
    """Checks of UTS #58 §8, each with its own switch.

    A policy holds policy only: the TLDs accepted and the Unicode version
    are those of the :class:`uts58.Finder` that found the link
    (``link.finder``, D65).  A link detection did not make (a hand-built
    :class:`uts58.Link`) is detected again first: the default
    :class:`uts58.Finder` (with the link's scheme named, its Unicode
    version, and file extensions left to the policy) must find in its text exactly that link, else the one reason
    is ``unverified`` (D64).

    * ``identifier_status``: every character of a non-ASCII host label must
      have Identifier_Status=Allowed (UTS #39).
    * ``restriction``: ``"highly"`` or ``"moderately"`` restrictive mixing of
      scripts inside a host label (UTS #39 §5.2), or None.
    * ``confusables``: reject a non-ASCII label whose UTS #39 skeleton is
      all ASCII (``раураl`` looks like ``paypal``).
    * ``bidi``: a Bidi_Control character in the link: ``"reject"`` the link,
      ``"escape"`` it in the display form, or ``"allow"``.
    * ``file_extensions``: None (the default) or an empty set: the policy
      checks no TLD.  A set of TLDs: links written without a scheme,
      ``www.`` or a path under them are refused (``helpers.py``, with
      ``TECHNICAL_FILE_EXTENSIONS``).  What detection finds is the
      finder's to decide (:class:`uts58.Finder`'s ``file_extensions`` and
      ``file_names``, D97): a policy judges the links found and never
      changes how they are found (D65).
    * ``max_url_length``, ``max_email_length``: in characters, or None.
    """

    identifier_status: bool = True
    restriction: Literal["highly", "moderately"] | None = "moderately"
    confusables: bool = True
    bidi: Literal["reject", "escape", "allow"] = "escape"
    file_extensions: frozenset[str] | None = field(default=DEFAULT_FILE_EXTENSIONS)
    max_url_length: int | None = 2048
    max_email_length: int | None = 254  # RFC 5321 §4.5.3.1.3 path limit

    def __post_init__(self) -> None:
        # (the fields are the table's, D136: each value checked and kept as it normalizes)
        for name, value in POLICY_OPTIONS.checked(self.__dict__).items():
            object.__setattr__(self, name, value)

    @classmethod
    def default(cls) -> Policy:
        """Every check on, moderately restrictive, Bidi controls escaped (D24)."""
        return cls()

    @classmethod
    def strict(cls) -> Policy:
        """Highly restrictive scripts, Bidi controls rejected."""
        return cls(restriction="highly", bidi="reject")

    @classmethod
    def none(cls) -> Policy:
        """No check: every detected link is kept (Bidi controls allowed), and
        the policy refuses no TLD (which names are files, ``helpers.py`` or
        ``README.md``, is the finder's to say: ``file_extensions``,
        ``file_names`` or ``preset="all"``, D97, D65)."""
        return cls(
            identifier_status=False,
            restriction=None,
            confusables=False,
            bidi="allow",
            file_extensions=frozenset(),
            max_url_length=None,
            max_email_length=None,
        )

    def with_options(self, **changes: object) -> Policy:
        """A copy with some switches changed: ``Policy.default().with_options(bidi="reject")``."""
        POLICY_OPTIONS.refuse_unknown(changes, "with_options")
        return replace(self, **changes)  # type: ignore[arg-type]


# The policies named by the command line, the templates and the playground.
NAMED_POLICIES: dict[str, Callable[[], Policy]] = {
    "default": Policy.default,
    "strict": Policy.strict,
    "none": Policy.none,
}


def _extensions(names: object) -> frozenset[str] | None:
    return None if names is None else file_extension_set(names)


def _length(name: str) -> Any:
    def check(value: object) -> int | None:
        if value is None:
            return None
        if type(value) is not int:
            raise TypeError(f"{name} must be int or None, not {type(value).__name__}")
        if value < 1:
            raise OptionError(f"{name} must be at least 1, not {value}", option=name)
        return value

    return check


# Each switch of a Policy, once (D136); the command line names whole policies (--policy).
POLICY_OPTIONS = Options(
    "Policy",
    (
        Option("identifier_status", True, check_bool("identifier_status"), None, "UTS #39 Identifier_Status=Allowed"),
        Option(
            "restriction", "moderately", check_choice("restriction", "highly", "moderately", None), None, "UTS #39 §5.2"
        ),
        Option("confusables", True, check_bool("confusables"), None, "refuse a label whose skeleton is ASCII"),
        Option("bidi", "escape", check_choice("bidi", "reject", "escape", "allow"), None, "Bidi_Control characters"),
        Option("file_extensions", DEFAULT_FILE_EXTENSIONS, _extensions, None, "TLDs whose bare names are refused"),
        Option("max_url_length", 2048, _length("max_url_length"), None, "in characters, or None"),
        Option("max_email_length", 254, _length("max_email_length"), None, "in characters, or None"),
    ),
)


# --------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class _Data:
    allowed: tuple[tuple[int, ...], tuple[int, ...]]
    bidi: re.Pattern[str]
    script_starts: tuple[int, ...]
    script_ends: tuple[int, ...]
    script_codes: tuple[int, ...]
    script_names: tuple[str, ...]
    confusables: dict[int, str]


@cache
def _data(version: str) -> _Data:
    mod = importlib.import_module(f"uts58.tables.security_{table_module(version)}")

    def pairs(flat: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return flat[0::2], flat[1::2]

    bidi = "".join(
        f"\\U{a:08x}-\\U{b:08x}" for a, b in zip(mod.BIDI_CONTROL[0::2], mod.BIDI_CONTROL[1::2], strict=True)
    )
    return _Data(
        allowed=pairs(mod.ALLOWED),
        bidi=re.compile(f"[{bidi}]"),
        script_starts=mod.SCRIPTS[0::3],
        script_ends=mod.SCRIPTS[1::3],
        script_codes=mod.SCRIPTS[2::3],
        script_names=mod.SCRIPT_NAMES,
        confusables=mod.CONFUSABLES,
    )


def _in(table: tuple[tuple[int, ...], tuple[int, ...]], cp: int) -> bool:
    k = bisect_right(table[0], cp) - 1
    return k >= 0 and cp <= table[1][k]


def _script(data: _Data, cp: int) -> str:
    k = bisect_right(data.script_starts, cp) - 1
    if k >= 0 and cp <= data.script_ends[k]:
        return data.script_names[data.script_codes[k]]
    return "Unknown"


def skeleton(label: str, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> str:
    """UTS #39 skeleton: NFD, map each character by confusables.txt, NFD (Python's NFD: D26).

    >>> skeleton("раураl")
    'paypal'
    """
    conf = _data(unicode_version).confusables
    text = unicodedata.normalize("NFD", label)
    return unicodedata.normalize("NFD", "".join(conf.get(ord(c), c) for c in text))


# UTS #39 §5.2: script sets a Highly Restrictive label may use.
_HIGHLY = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)


def _scripts_allowed(scripts: set[str], level: str) -> bool:
    if len(scripts) <= 1 or any(scripts <= allowed for allowed in _HIGHLY):
        return True
    if level == "moderately":
        others = scripts - {"Latin"}
        return "Latin" in scripts and len(others) == 1 and not others & {"Cyrillic", "Greek"}
    return False


# --------------------------------------------------------------------------
# Checks

_ASCII_LABEL = re.compile(r"[A-Za-z0-9-]*\Z")
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")  # letters, digits, marks, inner hyphens
_ASCII_HOST = re.compile(r"[A-Za-z0-9.-]*\Z")


_SEPARATORS = re.compile("[" + LABEL_SEPARATORS + "]")


# The checks of one label depend on the label and the switches only; the same
# domains come back again and again in real text, so the answers are kept
# (bounded, and a pure function of its arguments: safe to share by threads).
@bounded(4096, "label reasons")
def _label_reasons(
    label: str, identifier_status: bool, restriction: str | None, confusables: bool, version: str
) -> tuple[Reason, ...]:
    data = _data(version)
    reasons = []
    if identifier_status:
        bad = [c for c in label if not _in(data.allowed, ord(c))]
        if bad:
            names = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(bad))
            reasons.append(Reason(IDENTIFIER_STATUS, f"label {label!r} has {names}, not Identifier_Status=Allowed"))
    if restriction:
        scripts = {_script(data, ord(c)) for c in label} - {"Common", "Inherited"}  # D25: Script alone
        if not _scripts_allowed(scripts, restriction):
            reasons.append(
                Reason(MIXED_SCRIPT, f"label {label!r} mixes {', '.join(sorted(scripts))} ({restriction} restrictive)")
            )
    if confusables:
        skel = skeleton(label, unicode_version=version)
        if skel.isascii() and _ASCII_LABEL.match(skel):
            reasons.append(Reason(CONFUSABLE, f"label {label!r} looks like the ASCII {skel!r}"))
    return tuple(reasons)


def check_link(link: Link, policy: Policy | None = None) -> list[Reason]:
    """The reasons ``link`` fails ``policy`` (default: :meth:`Policy.default`);
    an empty list means the link passes.

    >>> from uts58 import find_links
    >>> [r.code for r in check_link(next(find_links("раураl.com")))]
    ['mixed-script', 'confusable']
    """
    if not isinstance(link, Link):
        raise TypeError(f"link must be a uts58.Link, not {type(link).__name__}")
    policy = Policy.default() if policy is None else policy
    if not isinstance(policy, Policy):
        raise TypeError(f"policy must be a uts58.Policy, not {type(policy).__name__}")
    return _check(link, policy)


def _check(link: Link, policy: Policy) -> list[Reason]:
    """:func:`check_link` without argument checks (linkify checks once)."""
    if link.finder is None:
        # D64: only a link a finder made is trusted; one built by hand is
        # checked as the link detection makes of its text, if it is that link.
        found = _redetected(link)
        if found is None:
            return [Reason(UNVERIFIED, f"no finder made this {link.kind!r} link and its text does not detect as it")]
        link = found
    reasons: list[Reason] = []
    host = link.host
    version = link.unicode_version
    # (an opaque URL, tel: or magnet:, has no host; IP addresses and localhost no labels)
    is_domain = bool(host) and host.kind == "domain"
    plain = _ASCII_HOST.match(host) is not None  # ASCII letters, digits, hyphens, dots: no label to check
    labels = [] if not is_domain else host.split(".") if plain else _SEPARATORS.split(host)
    tld = labels[-1].lower() if labels else ""
    if not host and link.kind == "url":
        # An opaque URL (xmpp:admin@раураl.com, magnet:?dn=…) has no host to
        # parse: every word of it that is not ASCII is checked as a label.
        labels, plain = [w for w in _WORD.findall(link.text) if not w.isascii()], False
    if not plain:
        for label in labels:
            if not _ASCII_LABEL.match(label):
                reasons += _label_reasons(
                    label, policy.identifier_status, policy.restriction, policy.confusables, version
                )
    if policy.bidi == "reject" and _data(version).bidi.search(link.text):
        reasons.append(Reason(BIDI_CONTROL, "the link holds a Bidi_Control character"))
    if (
        link.kind == "url"
        and link.scheme is None
        and policy.file_extensions is not None
        and tld in policy.file_extensions
        and not host.lower().startswith("www.")
        and "/" not in link.text  # a path is evidence too (D97)
    ):
        reasons.append(
            Reason(FILE_EXTENSION, f"TLD .{tld} is a common file extension; write a scheme, www. or a path to link it")
        )
    limit = policy.max_url_length if link.kind == "url" else policy.max_email_length
    if limit is not None and len(link.text) > limit:
        reasons.append(Reason(TOO_LONG, f"{len(link.text)} characters, over the limit of {limit}"))
    return reasons


def _redetected(link: Link) -> Link | None:
    """D64: the link the default finder (the link's scheme named, its
    Unicode version, no file extensions) finds in ``link.text``, when that
    is the whole text and has the kind, scheme and Host of ``link`` (so the
    same href and display); else None.  Linear in the text: detection stops
    at the first link, which must start at 0 and end at the end."""
    kind, text, scheme, host = link.kind, link.text, link.scheme, link.host
    if kind not in ("url", "email") or not isinstance(text, str) or not isinstance(scheme, str | None):
        return None
    finder = _redetector(scheme.lower() if kind == "url" and scheme is not None else None, link.unicode_version)
    found = None if finder is None else next(finder.find_links(text), None)
    if found is None or found.start != 0 or found.end != len(text) or found.kind != kind:
        return None
    if (found.scheme and found.scheme.lower()) != (scheme and scheme.lower()):
        return None
    if (found.host.unicode, found.host.ascii, found.host.kind) != (host.unicode, host.ascii, host.kind):
        return None
    return found


@lru_cache(maxsize=64)
def _redetector(scheme: str | None, version: str) -> Finder | None:
    """The finder a hand-built link is detected again with: the default one
    of ``version`` (OptionError for a version not bundled), naming
    ``scheme`` alone; None for a scheme no finder takes (``javascript``,
    ``file``, … or not scheme syntax).  It leaves file extensions to the
    policy (``Policy.file_extensions`` checks them, with its own reason)."""
    finder = Finder(unicode_version=version, file_extensions=(), file_names=False)
    if scheme is None:
        return finder
    try:
        return finder.with_options(schemes={scheme})
    except OptionError:
        return None


def escape_bidi_controls(display: str, *, unicode_version: str = DEFAULT_UNICODE_VERSION) -> str:
    """``display`` with each Bidi_Control character percent-escaped (a policy: §4.1 leaves them, D10).

    >>> escape_bidi_controls("example.com/a\\u202eb")
    'example.com/a%E2%80%AEb'
    """
    bidi = _data(unicode_version).bidi
    return bidi.sub(_escape_match, display) if bidi.search(display) else display


def _escape_match(m: re.Match[str]) -> str:
    from ..kernels import percent_escape

    return percent_escape(m.group())


def admitted(link: Link, policy: Policy, memo: dict[tuple[object, ...], bool] | None = None) -> bool:
    """Does ``link`` pass the policy: the one filter of linkify and the
    adapters.  ``memo``: the answers for links already checked in this text
    (a link a finder made is judged by what it holds: the same text, scheme
    and host, the same answer)."""
    if memo is None or link.finder is None:
        return not _check(link, policy)
    host = link.host
    key = (link.kind, link.text, link.scheme, host.unicode, host.ascii, host.kind, link.unicode_version)
    ok = memo.get(key)
    if ok is None:
        ok = memo[key] = not _check(link, policy)
    return ok
