"""The errors uts58 raises for values it cannot take.

Every one is a :class:`ValueError` (``except ValueError`` keeps working) and
a :class:`UTS58Error` (``except uts58.UTS58Error`` catches uts58's own and
nothing else).  A wrong argument *type* is a :class:`TypeError` naming the
argument, as everywhere in Python.

>>> import uts58
>>> try:
...     uts58.format_url("mailto:x@example.com")
... except uts58.URLError as exc:
...     print(type(exc).__name__, isinstance(exc, ValueError))
URLError True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "AddressError",
    "ConformanceFileError",
    "DecodeError",
    "OffsetError",
    "OptionError",
    "TLDListError",
    "URLError",
    "UTS58Error",
    "UnlinkedWarning",
    "UnsafeAttributeError",
]


class UTS58Error(ValueError):
    """A value uts58 cannot take (the base of the classes below)."""


class OptionError(UTS58Error):
    """An argument or option value uts58 does not accept: a scheme it never
    links, an unknown kind, format or policy level, an attribute name, a
    Unicode version it has no data for.  ``option`` names the keyword
    argument it is about (``"rel"``, ``"schemes"``), when there is one.

    >>> import uts58
    >>> try:
    ...     uts58.Linkifier(kinds=["phone"])
    ... except uts58.OptionError as exc:
    ...     print(exc.option)
    kinds
    """

    option: str | None

    def __init__(self, *args: object, option: str | None = None) -> None:
        super().__init__(*args)
        self.option = option


class UnsafeAttributeError(OptionError):
    """An attribute no link may carry (D134), whichever way it would get on
    the ``<a>``: ``attrs``, ``--attr``, a template's ``attr:``, a callback.
    ``attribute`` is its name; ``option`` the argument it came in.

    >>> import uts58
    >>> try:
    ...     uts58.Linkifier(attrs={"onclick": "go()"})
    ... except uts58.errors.UnsafeAttributeError as exc:
    ...     print(exc.attribute, "|", exc)
    onclick | attrs: 'onclick' is an event handler (it runs script)
    """

    attribute: str

    def __init__(self, *args: object, attribute: str, option: str | None = None) -> None:
        super().__init__(*args, option=option)
        self.attribute = attribute


class UnlinkedWarning(UserWarning):
    """Part of an HTML input was returned without links (D133): it nests
    deeper than a browser builds links (510 elements) or would cost a parse more
    than linear work.  ``start`` is where that part begins (a character
    offset in the input), ``reason`` says which bound it passes (``"depth"``,
    ``"work"``, or ``"unsure"``: foreign CDATA to the end of input); the links
    before it are made.  :func:`uts58.html.linkify.linkify_html_result` reports the
    same without a warning."""

    def __init__(self, message: str, *, start: int, reason: str) -> None:
        super().__init__(message)
        self.start = start
        self.reason = reason


@contextmanager
def about(option: str) -> Iterator[None]:
    """An OptionError raised inside names ``option`` unless it names one already."""
    try:
        yield
    except OptionError as exc:
        if exc.option is None:
            exc.option = option
        raise


class OffsetError(UTS58Error):
    """An offset outside the text, or not where the function needs it (an
    ``at`` that is not an ``@``, an ``end`` before ``start``)."""


class URLError(UTS58Error):
    """:func:`uts58.format_url`: not a URL it formats (the WHATWG parser
    refuses it, it has no host, or another scheme)."""


class AddressError(UTS58Error):
    """:func:`uts58.format_email`: not an email address."""


class TLDListError(UTS58Error):
    """A TLD list that is not one (:func:`uts58.hosts.tlds.load_tlds`, or an entry
    of ``known_tlds`` that is not a top-level domain label)."""


class ConformanceFileError(UTS58Error):
    """A malformed official test file (:mod:`uts58.conformance`)."""


class DecodeError(UTS58Error):
    """Bytes that are not UTF-8 (the command line, files read in blocks):
    names the file and the byte offset."""

    def __init__(self, name: str, offset: int, reason: str) -> None:
        super().__init__(f"{name}: invalid UTF-8 at byte offset {offset} ({reason})")
        self.name, self.offset = name, offset
