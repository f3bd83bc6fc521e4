"""Options declared once: the table a configured object (``Finder``,
``Linkifier``, ``Policy``) is made from.

Each :class:`Option` says its name, its default, how a value is checked and
normalized, the command-line flag that sets it and one line of text; the
object's fields, defaults, ``repr``, pickling, unknown-keyword errors and
the command line's flags are read from the table (:class:`Options`).  The
constructor's signature and the TypedDicts a type checker reads are written
out, because a type checker cannot read a table: ``tests/meta/test_options.py``
checks that they agree with it.

>>> table = Options("Box", (Option("size", 1, lambda v: v), Option("lid", False, lambda v: v)))
>>> table.names, table.changed({"size": 1, "lid": True})
(('size', 'lid'), {'lid': True})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionError, about


def check_bool(name: str) -> Callable[[object], bool]:
    """A check of a switch: a bool, else TypeError naming ``name``."""

    def check(value: object) -> bool:
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be bool, not {type(value).__name__}")
        return value

    return check


def check_choice(name: str, *allowed: str | None) -> Callable[[object], Any]:
    """A check of one of ``allowed``: a value of another type is a
    TypeError naming ``name``, another str an OptionError naming it."""
    words = " or ".join(filter(None, (", ".join(repr(a) for a in allowed[:-1]), repr(allowed[-1]))))

    def check(value: object) -> object:
        if value not in allowed:
            if not isinstance(value, str):
                kinds = "str or None" if None in allowed else "str"
                raise TypeError(f"{name} must be {kinds}, not {type(value).__name__}")
            raise OptionError(f"{name} must be {words}, not {value!r}", option=name)
        return value

    return check


def unchecked(value: Any) -> Any:
    """A check that takes the value as it is (another step checks it)."""
    return value


@dataclass(frozen=True)
class Option:
    """One option: ``check(value)`` returns the value kept (normalized) or
    raises TypeError or :class:`uts58.OptionError`; ``flag`` is the
    command-line flag that sets it (None: none); ``doc`` one line for
    ``--help`` and the reference."""

    name: str
    default: Any
    check: Callable[[Any], Any] = field(compare=False)
    flag: str | None = None
    doc: str = ""


class Options:
    """The ordered options of one configured object (checked, kept, shown
    and pickled in this order)."""

    __slots__ = ("_normal", "by_name", "names", "owner", "table")

    def __init__(self, owner: str, table: Iterable[Option]) -> None:
        self.owner = owner
        self.table = tuple(table)
        self.names = tuple(option.name for option in self.table)
        self.by_name = {option.name: option for option in self.table}
        if len(self.by_name) != len(self.table):
            raise ValueError(f"{owner}: an option declared twice")
        self._normal: dict[str, Any] | None = None

    def __iter__(self) -> Iterator[Option]:
        return iter(self.table)

    @property
    def defaults(self) -> dict[str, Any]:
        """Each option's default as its object keeps it (checked, normalized)."""
        if self._normal is None:
            self._normal = {option.name: option.check(option.default) for option in self.table}
        return self._normal

    def checked(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The values of ``given`` (every option, by name) checked in table
        order; an OptionError raised by a check names its option."""
        values = {}
        for option in self.table:
            with about(option.name):
                values[option.name] = option.check(given[option.name])
        return values

    def refuse_unknown(self, names: Iterable[str], caller: str, also: Iterable[str] = ()) -> None:
        """TypeError, as Python words it, for a keyword that is no option (nor in ``also``)."""
        extra = frozenset(also)
        for name in names:
            if name not in self.by_name and name not in extra:
                raise TypeError(f"{caller}() got an unexpected keyword argument {name!r}")

    def changed(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The options of ``values`` that differ from their defaults (for ``repr``)."""
        defaults = self.defaults
        return {name: values[name] for name in self.names if values[name] != defaults[name]}

    def flags(self) -> dict[str, str]:
        """Each option that has a command-line flag, by name."""
        return {option.name: option.flag for option in self.table if option.flag is not None}
