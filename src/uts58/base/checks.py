"""Argument checks shared by the public functions: clear errors naming the argument."""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

from ..errors import OffsetError, OptionError

T = TypeVar("T")


def check_str(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str, not {type(value).__name__}")
    return value


def check_offset(value: object, name: str, text: str) -> int:
    """An index into ``text``: an int (not bool) with 0 <= value <= len(text)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be int, not {type(value).__name__}")
    if not 0 <= value <= len(text):
        raise OffsetError(f"{name}={value} is outside the text (length {len(text)})")
    return value


def given_alone(value: object, kind: type[T], name: str, options: Collection[str], caller: str, what: str) -> T:
    """``value``, a ``kind`` given with no ``options`` beside it (D62): a
    TypeError for another type, an OptionError naming ``name`` for both."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a uts58.{kind.__name__}, not {type(value).__name__}")
    if options:
        raise OptionError(
            f"{caller}: give a {name} or {what}, not both "
            f"(got {name}= and {', '.join(sorted(options))}); use {name}.with_options(...)",
            option=name,
        )
    return value
