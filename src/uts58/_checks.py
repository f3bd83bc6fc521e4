"""Argument checks shared by the public functions: clear errors naming the argument."""

from __future__ import annotations

from .errors import OffsetError


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
