"""Links on a terminal: OSC 8 hyperlinks, the SGR underline, and text a file
cannot turn into escape sequences (``uts58 linkify --format osc8|auto``,
``uts58 detect`` on a terminal).

An OSC 8 hyperlink is ``ESC ] 8 ; ; URI ESC \\`` before the text it links and
``ESC ] 8 ; ; ESC \\`` after it.  Everything written here goes through
:func:`visible` first (D127): the input's C0 and C1 control characters (but
newline, tab and the CR of a CRLF) are written as visible pictures, so a
file's own ``ESC ] 8`` shows as ``␛]8`` and opens nothing; the only escape
sequences in the output are the ones written here, and a URI holds only the
bytes 33–126 (:func:`osc8_uri`).  Whether a terminal shows hyperlinks is
told by :func:`supports_hyperlinks` (D128).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from ..base.checks import check_str
from ..errors import OptionError

if TYPE_CHECKING:
    from .linkifier import Linkifier

__all__ = [
    "HYPERLINK_TERMINALS",
    "hyperlink",
    "is_terminal",
    "linkify_osc8",
    "mark_terminal",
    "osc8_uri",
    "supports_hyperlinks",
    "visible",
    "wants_color",
]

OSC8_CLOSE = "\x1b]8;;\x1b\\"
UNDERLINE, NO_UNDERLINE = "\x1b[4m", "\x1b[24m"

# D127: every control character but newline, tab and the CR of a CRLF; DEL;
# the C1 controls (terminals that read UTF-8 C1 take U+009B as CSI and
# U+009D as OSC); lone surrogates (not UTF-8: a terminal stream could not
# encode them).  A lone CR is shown too: it would let a line's end overwrite
# its start.
_HIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]|\r(?!\n)")
# Bytes 33–126 stay in a URI (OSC 8 allows 32–126; a space is no URI's).
_URI_UNSAFE = re.compile("[^\x21-\x7e]+")


def picture(m: re.Match[str]) -> str:
    code = ord(m.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟ (U+2400 + the code: ␛ for ESC, ␍ for a lone CR)
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"<U+{code:04X}>"  # C1 and lone surrogates have no picture: the notation of less(1)


def visible(text: str) -> str:
    """``text`` as a terminal may show it (D127): each C0 control character
    but newline and tab (and CR before a newline) as its Control Pictures
    character (ESC as ␛, BEL as ␇, a lone CR as ␍), DEL as ␡, each C1
    control and lone surrogate as ``<U+XXXX>``; everything else as it is.

    >>> visible("a\\x1b]8;;https://evil.example\\x07b\\r\\nc\\rd\\x9be\\tf")
    'a␛]8;;https://evil.example␇b\\r\\nc␍d<U+009B>e\\tf'
    """
    check_str(text, "text")
    return _HIDDEN.sub(picture, text)


def osc8_uri(href: str) -> str | None:
    """``href`` as the URI of an OSC 8 hyperlink: bytes 33–126 only, every
    other character percent-encoded as UTF-8 (D127); None when no such URI
    can be made (empty, or a lone surrogate, which has no UTF-8).

    >>> osc8_uri("https://example.com/a b"), osc8_uri("https://bücher.de/\\x1b"), osc8_uri("x\\ud800")
    ('https://example.com/a%20b', 'https://b%C3%BCcher.de/%1B', None)
    """
    check_str(href, "href")
    if not href:
        return None
    try:
        return _URI_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), href)
    except UnicodeEncodeError:
        return None


def hyperlink(href: str, text: str, *, underline: bool = False) -> str:
    """``text`` (through :func:`visible`) as an OSC 8 hyperlink to ``href``
    (through :func:`osc8_uri`), underlined with SGR 4 / 24 if asked; a link
    whose href cannot be made a URI is written as its text alone.

    >>> hyperlink("https://example.com/", "example.com")
    '\\x1b]8;;https://example.com/\\x1b\\\\example.com\\x1b]8;;\\x1b\\\\'
    """
    uri = osc8_uri(href)
    shown = visible(text)
    if uri is not None:
        shown = f"\x1b]8;;{uri}\x1b\\{shown}{OSC8_CLOSE}"
    return f"{UNDERLINE}{shown}{NO_UNDERLINE}" if underline else shown


def mark_terminal(
    text: str,
    links: Iterable[tuple[int, int, str]],
    *,
    hyperlinks: bool = True,
    underline: bool = False,
    marks: tuple[str, str] = ("", ""),
) -> str:
    """``text`` through :func:`visible`, each ``(start, end, href)`` of
    ``links`` (in order, not overlapping) written between ``marks``, as an
    OSC 8 hyperlink (``hyperlinks``) and underlined (``underline``).

    >>> mark_terminal("see example.com", [(4, 15, "https://example.com")], hyperlinks=False, underline=True)
    'see \\x1b[4mexample.com\\x1b[24m'
    """
    check_str(text, "text")
    opening, closing = marks
    out: list[str] = []
    last = 0
    for start, end, href in links:
        out.append(visible(text[last:start]))
        if hyperlinks:
            out += [opening, hyperlink(href, text[start:end], underline=underline), closing]
        else:
            shown = visible(text[start:end])
            out += [opening, f"{UNDERLINE}{shown}{NO_UNDERLINE}" if underline else shown, closing]
        last = end
    out.append(visible(text[last:]))
    return "".join(out)


def linkify_osc8(text: str, linkifier: Linkifier | None = None, *, hyperlinks: bool = True) -> str:
    """``text`` as it is (through :func:`visible`), each link the
    ``linkifier`` writes (its kinds, policy and callback decide which, and
    the href) an OSC 8 hyperlink around the link's own text.  With
    ``hyperlinks=False``: the text alone, as a terminal without hyperlinks
    is given it (``uts58 linkify --format auto``).

    >>> linkify_osc8("mail x@example.org\\x1b[2J")
    'mail \\x1b]8;;mailto:x@example.org\\x1b\\\\x@example.org\\x1b]8;;\\x1b\\\\␛[2J'
    """
    from .linkifier import Linkifier, default_linkifier

    check_str(text, "text")
    if linkifier is None:
        linkifier = default_linkifier()
    elif not isinstance(linkifier, Linkifier):
        raise TypeError(f"linkifier must be a Linkifier, not {type(linkifier).__name__}")
    links = ((a.start, a.end, a.href) for a in linkifier.anchors(text)) if hyperlinks else ()
    return mark_terminal(text, links, hyperlinks=hyperlinks)


class CRHold:
    """The pieces of a stream with a CR that ends one moved to the start of
    the next, so that :func:`visible` keeps a CRLF cut between two pieces;
    :meth:`rest` gives a CR left at the end."""

    def __init__(self) -> None:
        self.held = ""

    def feed(self, piece: str) -> str:
        piece = self.held + piece
        self.held = "\r" if piece.endswith("\r") else ""
        return piece[:-1] if self.held else piece

    def rest(self) -> str:
        rest, self.held = self.held, ""
        return rest


def held_cr(pieces: Iterable[str]) -> Iterator[str]:
    """``pieces`` again, through a :class:`CRHold` (empty pieces left out)."""
    hold = CRHold()
    for piece in pieces:
        if piece := hold.feed(piece):
            yield piece
    if rest := hold.rest():
        yield rest


# D128: terminals that show OSC 8 hyperlinks, known by TERM (kitty, ghostty,
# foot, Alacritty ≥ 0.11, WezTerm, Contour, Rio) or TERM_PROGRAM; the
# version of iTerm2 and VS Code matters (3.1, 1.72 added them).
HYPERLINK_TERMINALS = {
    "TERM": frozenset(
        {"xterm-kitty", "xterm-ghostty", "foot", "foot-extra", "alacritty", "alacritty-direct", "wezterm", "contour"}
        | {"rio"}
    ),
    "TERM_PROGRAM": frozenset({"iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "terminology", "rio"}),
}
_MINIMUM_VERSION = {"iTerm.app": (3, 1), "vscode": (1, 72)}
_DIGITS = re.compile("[0-9]+")
_MAX_DIGITS = 9  # (no version part or VTE_VERSION is longer; a longer one is garbage)
# parseInt's leading white space (ECMAScript's WhiteSpace and LineTerminator), a sign, digits.
_PARSE_INT = re.compile("[\t\n\v\f\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*[+-]?([0-9]+)")


def _version(value: str) -> tuple[int, ...] | None:
    """The first two numbers of a version (ASCII digits only: ``str.isdigit``
    takes ``²``, which ``int`` refuses); None for a number too long to be
    one (int() of 4300 digits raises), which then supports nothing (D128)."""
    parts = [m.group() for m in itertools.islice(_DIGITS.finditer(value), 2)]
    if any(len(part) > _MAX_DIGITS for part in parts):
        return None
    return tuple(map(int, parts))


def _forced(value: str) -> bool:
    """``FORCE_HYPERLINK`` (not empty) as npm supports-hyperlinks reads it
    (D128): no when JavaScript's ``parseInt(value, 10) === 0`` (``0``,
    ``00``, ``0.0``, `` -0x``), else yes (``1``, ``false``: NaN)."""
    m = _PARSE_INT.match(value)
    return not (m and not m.group(1).strip("0"))


def _check_env(env: object) -> None:
    if not isinstance(env, Mapping):
        raise TypeError(f"env must be a mapping (os.environ), not {type(env).__name__}")


def supports_hyperlinks(env: Mapping[str, str]) -> bool:
    """Whether the terminal ``env`` (the environment) describes shows OSC 8
    hyperlinks (D128): ``FORCE_HYPERLINK`` says (a value JavaScript's
    ``parseInt`` reads as 0 — ``0``, ``00``, ``0.0`` —: no; any other
    non-empty value: yes); else never on ``TERM=dumb``; else yes in Windows
    Terminal (``WT_SESSION``), kitty (``KITTY_WINDOW_ID``), VTE 0.50 or later
    (``VTE_VERSION`` ≥ 5000: GNOME Terminal, Tilix…), DomTerm, and the
    terminals of :data:`HYPERLINK_TERMINALS`; no for any other.

    >>> supports_hyperlinks({"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.4.19"})
    True
    >>> supports_hyperlinks({"TERM": "xterm-256color"}), supports_hyperlinks({"FORCE_HYPERLINK": "1", "TERM": "dumb"})
    (False, True)
    """
    _check_env(env)
    force = env.get("FORCE_HYPERLINK", "")
    if force:  # (empty: not set, as npm supports-hyperlinks 3 reads it)
        return _forced(force)
    term = env.get("TERM", "")
    if term == "dumb":
        return False
    if env.get("WT_SESSION") or env.get("KITTY_WINDOW_ID") or env.get("DOMTERM"):
        return True
    vte = env.get("VTE_VERSION", "")
    if _DIGITS.fullmatch(vte) and len(vte) <= _MAX_DIGITS and int(vte) >= 5000:
        return True
    program = env.get("TERM_PROGRAM", "")
    if program in HYPERLINK_TERMINALS["TERM_PROGRAM"]:
        version = env.get("TERM_PROGRAM_VERSION", "")
        minimum = _MINIMUM_VERSION.get(program)
        if minimum is None or not version:
            return True
        parsed = _version(version)
        return parsed is not None and parsed >= minimum
    return term in HYPERLINK_TERMINALS["TERM"]


def wants_color(choice: str, stream: object, env: Mapping[str, str]) -> bool:
    """``--color`` (``auto``, ``always``, ``never``) for ``stream`` (D128):
    ``auto`` is yes on a terminal (``stream.isatty()``) unless ``NO_COLOR``
    is set (not empty) or ``TERM`` is ``dumb``.

    >>> import io
    >>> wants_color("auto", io.StringIO(), {}), wants_color("always", io.StringIO(), {"NO_COLOR": "1"})
    (False, True)
    """
    if choice not in ("auto", "always", "never"):
        raise OptionError(f"choice must be 'auto', 'always' or 'never', not {choice!r}", option="choice")
    _check_env(env)
    if choice != "auto":
        return choice == "always"
    return is_terminal(stream) and not env.get("NO_COLOR") and env.get("TERM") != "dumb"


def is_terminal(stream: object) -> bool:
    """``stream.isatty()``, False for a stream without one or a closed one.

    >>> import io
    >>> is_terminal(io.StringIO()), is_terminal(None)
    (False, False)
    """
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # (a closed file)
        return False
