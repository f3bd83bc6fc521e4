"""The bounded caches of answers, in one registry: to see them, and to clear
them (D104).

uts58 remembers answers that repeat in real text (a host's validation, its
public suffix, a link's href and display form, the evidence about a name):
each in a :func:`functools.lru_cache` of a fixed size, thread-safe, a pure
function of its arguments, so that a cache never changes a result (D93,
D95).  Every such cache is made by :func:`bounded` and listed here, so
that a benchmark can time text whose hosts are new (``clear()`` before each
timing) and a long-running service can see what they hold.  Tables loaded
once (the property tables, the TLD set, the parsed Public Suffix List) are
not caches of answers and are not cleared.

Their bound is each cache's own (4,096 answers for the host caches) unless
the environment variable ``UTS58_CACHE_SIZE`` gives one for all of them,
read once at import: ``0`` turns them off (every answer worked out again),
a larger number lets a long-running service remember more.

>>> import uts58
>>> _ = list(uts58.find_links("see bücher.de"))
>>> uts58.cache_info()["host checks"].currsize > 0
True
>>> uts58.cache_clear()
>>> uts58.cache_info()["host checks"].currsize
0
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Mapping
from functools import _CacheInfo, lru_cache
from typing import Any, TypeVar

from ..errors import OptionError

__all__ = ["CACHE_SIZE", "bounded", "cache_clear", "cache_info", "clear", "info", "options_key"]

F = TypeVar("F", bound=Callable[..., Any])


def _size_from_environment() -> int | None:
    """``UTS58_CACHE_SIZE``: the bound of every cache, or None (each its own)."""
    value = os.environ.get("UTS58_CACHE_SIZE", "").strip()
    if not value:
        return None
    if not value.isdigit():
        raise OptionError(f"UTS58_CACHE_SIZE must be a whole number of entries (0: no caches), not {value!r}")
    return int(value)


# The bound the environment gives every cache of answers, or None.
CACHE_SIZE = _size_from_environment()

# (a weak set: a finder's caches go with the finder)
_CACHES: weakref.WeakSet[Any] = weakref.WeakSet()
_LOCK = threading.Lock()


def bounded(maxsize: int, name: str) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered under ``name`` (several
    caches may share a name: one per finder or rule set)."""

    def wrap(function: F) -> F:
        cached = lru_cache(maxsize=maxsize if CACHE_SIZE is None else CACHE_SIZE)(function)
        cached.cache_name = name  # type: ignore[attr-defined]
        with _LOCK:
            _CACHES.add(cached)
        return cached  # type: ignore[return-value]

    return wrap


def options_key(options: Mapping[str, Any], atoms: tuple[type, ...] = ()) -> tuple[Any, ...] | None:
    """Keyword options as a cache key, or None when a value cannot be part
    of one (an iterator, a mapping of another type).  Each value is keyed
    with its type and the types of what it holds (``1``, ``1.0`` and
    ``True`` are equal, not the same option); values of ``atoms`` (types
    that are values: hashable, immutable) as they are.

    >>> options_key({"n": 1}) == options_key({"n": 1.0}), options_key({"it": iter(())})
    (False, None)
    """
    try:
        key = tuple(sorted((name, _frozen(value, atoms)) for name, value in options.items()))
        hash(key)
    except (_Unkeyable, TypeError):
        return None
    return key


class _Unkeyable(Exception):
    """An option value that cannot be part of a cache key."""


def _frozen(value: Any, atoms: tuple[type, ...]) -> Any:
    kind = type(value)
    if kind in (bool, int, float, str, type(None)) or kind in atoms:
        return kind, value
    if kind in (tuple, list):
        return kind, tuple(_frozen(item, atoms) for item in value)
    if kind in (set, frozenset):
        return kind, frozenset(_frozen(item, atoms) for item in value)
    if kind is dict:
        return kind, tuple((_frozen(k, atoms), _frozen(v, atoms)) for k, v in value.items())
    raise _Unkeyable


def _registered() -> list[Any]:
    with _LOCK:
        return list(_CACHES)


def cache_info() -> dict[str, _CacheInfo]:
    """Each cache's hits, misses, bound and size, summed over the caches of
    one name (``"host checks"``: one per TLD set and Unicode version);
    ``uts58.cache_info()``."""
    out: dict[str, list[int]] = {}
    for cached in _registered():
        i = cached.cache_info()
        hits, misses, maxsize, size = out.setdefault(cached.cache_name, [0, 0, 0, 0])
        out[cached.cache_name] = [hits + i.hits, misses + i.misses, maxsize + (i.maxsize or 0), size + i.currsize]
    return {name: _CacheInfo(*values) for name, values in sorted(out.items())}


def cache_clear() -> None:
    """Empty every cache of answers (the next link of every host is worked
    out again, as if its host were new); ``uts58.cache_clear()``."""
    for cached in _registered():
        cached.cache_clear()


# (the names of issue 23, kept)
info = cache_info
clear = cache_clear
