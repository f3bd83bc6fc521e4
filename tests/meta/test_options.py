"""Each option of Finder, Linkifier and Policy is declared once, in its
table (D136); what a type checker reads (the signatures, the fields, the
TypedDicts) and what the command line offers are checked against it here."""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import pickle
from typing import Any, get_type_hints

import pytest

import uts58
from uts58 import Finder, Linkifier, OptionError, Policy
from uts58.base.options import Option, Options
from uts58.cli.main import build_parser
from uts58.detect.options import FINDER_OPTIONS, DetectionOptions, FinderOptions
from uts58.output.linkifier import LinkifierOptions, OutputOptions
from uts58.output.options import LINKIFIER_OPTIONS
from uts58.output.policy import POLICY_OPTIONS


def _keywords(function: Any) -> dict[str, Any]:
    """The keyword-only parameters of ``function`` and their defaults."""
    return {
        name: p.default
        for name, p in inspect.signature(function).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }


@pytest.mark.parametrize(
    ("table", "function"),
    [(FINDER_OPTIONS, Finder.__init__), (LINKIFIER_OPTIONS, Linkifier.__init__)],
    ids=["Finder", "Linkifier"],
)
def test_the_signature_is_the_table(table: Options, function: Any) -> None:
    """The constructor takes the table's names, in its order, with its defaults."""
    keywords = _keywords(function)
    assert sorted(keywords) == sorted(table.names)
    for option in table:
        assert keywords[option.name] == option.default, option.name


def test_policy_fields_are_the_table() -> None:
    fields = dataclasses.fields(Policy)
    assert tuple(f.name for f in fields) == POLICY_OPTIONS.names
    for f in fields:
        assert f.default == POLICY_OPTIONS.by_name[f.name].default, f.name
    assert _keywords(Policy.__init__) == {} and inspect.signature(Policy).parameters.keys() == set(POLICY_OPTIONS.names)


def test_the_fields_a_type_checker_reads_are_the_table() -> None:
    finder_fields = {name for name in get_type_hints(Finder) if not name.startswith("_")}
    assert finder_fields == set(FINDER_OPTIONS.names)
    linkifier_fields = {name for name in Linkifier.__annotations__ if not name.startswith("_")}
    assert linkifier_fields == set(LINKIFIER_OPTIONS.names)
    assert set(Linkifier.__slots__) >= set(LINKIFIER_OPTIONS.names)


def test_the_typed_dicts_are_the_tables() -> None:
    finder = set(FINDER_OPTIONS.names)
    assert set(FinderOptions.__annotations__) == finder | {"preset"}
    assert set(DetectionOptions.__annotations__) == finder - {"urls", "emails"} | {"preset"}
    assert set(OutputOptions.__annotations__) == set(LINKIFIER_OPTIONS.names) - {"finder", "policy"}
    assert set(LinkifierOptions.__annotations__) == set(DetectionOptions.__annotations__) | set(LINKIFIER_OPTIONS.names)


def test_every_flag_is_the_parsers() -> None:
    """Each flag a table names is one the command line has."""
    flags = {s for action in _actions(build_parser()) for s in action.option_strings}
    for table in (FINDER_OPTIONS, LINKIFIER_OPTIONS, POLICY_OPTIONS):
        for name, flag in table.flags().items():
            assert flag in flags, (table.owner, name, flag)


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [*parser._actions, *(a for command in _commands(parser).values() for a in command._actions)]


def test_the_switches_help_is_the_tables() -> None:
    """The Finder's switches are flags whose help is the table's text."""
    detect = _commands(build_parser())["detect"]
    helps = {a.option_strings[0]: a.help for a in detect._actions if a.option_strings}
    for name in ("require_scheme", "bare_ipv4", "bare_localhost", "single_label_hosts", "cjk_prose"):
        option = FINDER_OPTIONS.by_name[name]
        assert helps[option.flag] == option.doc


@pytest.mark.parametrize(
    ("make", "changed", "shown"),
    [
        (lambda: Finder(bare_ipv4=True, schemes=["SSH"]), {"bare_ipv4": True}, "bare_ipv4=True"),
        (lambda: Linkifier(rel="ugc", link_class="x"), {"rel": "ugc", "link_class": "x"}, "rel='ugc'"),
    ],
)
def test_repr_and_pickle_follow_the_table(make: Any, changed: dict[str, Any], shown: str) -> None:
    """repr shows the options that differ from the table's defaults; a pickle
    holds the options and makes an equal object."""
    obj = make()
    assert shown in repr(obj) and pickle.loads(pickle.dumps(obj)) == obj
    default = type(obj)()
    for name in (FINDER_OPTIONS if isinstance(obj, Finder) else LINKIFIER_OPTIONS).names:
        if name not in changed and name not in ("finder", "schemes"):
            assert getattr(obj, name) == getattr(default, name), name
    assert repr(type(obj)()) == f"{type(obj).__name__}()"


@pytest.mark.parametrize("table", [FINDER_OPTIONS, LINKIFIER_OPTIONS, POLICY_OPTIONS], ids=lambda t: t.owner)
def test_every_default_passes_its_own_check(table: Options) -> None:
    for option in table:
        assert option.check(option.default) == table.defaults[option.name]


def test_policy_switches_are_checked() -> None:
    """A policy's switches are checked by their table (D136): a wrong type is
    a TypeError naming it, a wrong value an OptionError naming it."""
    with pytest.raises(TypeError, match="confusables must be bool, not str"):
        Policy(confusables="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="restriction must be str or None, not int"):
        Policy(restriction=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="format must be str, not int"):
        Linkifier(format=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_url_length must be int or None, not bool"):
        Policy(max_url_length=True)
    with pytest.raises(OptionError, match="max_email_length must be at least 1") as info:
        Policy(max_email_length=0)
    assert info.value.option == "max_email_length"
    with pytest.raises(OptionError, match="bidi must be 'reject', 'escape' or 'allow'") as info:
        Policy.default().with_options(bidi="strip")
    assert info.value.option == "bidi"
    with pytest.raises(TypeError, match="with_options\\(\\) got an unexpected keyword argument 'cjk_boundary'"):
        Policy.default().with_options(cjk_boundary=True)
    assert Policy(file_extensions=[".PY"]).file_extensions == frozenset({"py"})


def test_an_unknown_keyword_is_named_by_the_caller() -> None:
    with pytest.raises(TypeError, match=r"^linkify\(\) got an unexpected keyword argument 'nofollow'$"):
        uts58.linkify("x", nofollow=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"^find_links\(\) got an unexpected keyword argument 'requires_scheme'$"):
        list(uts58.find_links("x", requires_scheme=True))  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"^with_options\(\) got an unexpected keyword argument 'rel'$"):
        Finder().with_options(rel="x")  # type: ignore[call-arg]


def test_a_table_refuses_a_name_declared_twice() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        Options("Box", (Option("a", 1, int), Option("a", 2, int)))
