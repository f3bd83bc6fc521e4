"""D138: the doctests of a compiled module's source, run against the compiled module.

Where the decision path runs compiled, uts58.detect.plan and the rest of
uts58.base.compiled.COMPILED are mypyc modules: importing their .py by path
is a mismatch, and a compiled module keeps no docstrings.  So the doctests
are read from the source and run in the compiled module's namespace: a
documented example checks the code a user runs.  The root conftest.py puts
this collector in place of pytest's for those files.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def docstrings(source: str) -> Iterator[tuple[str, str, int]]:
    """(dotted name below the module, docstring, line of the docstring) for the
    module and every class and function in it, nested ones included."""
    import ast

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                text = ast.get_docstring(child, clean=False)
                if text is not None:
                    yield name, text, child.body[0].lineno - 1
                yield from walk(child, name + ".")

    tree = ast.parse(source)
    text = ast.get_docstring(tree, clean=False)
    if text is not None:
        yield "", text, tree.body[0].lineno - 1
    yield from walk(tree, "")


class CompiledDoctests(pytest.Module):
    """The doctests of a compiled module's source, run against the compiled module."""

    def _getobj(self) -> Any:
        import importlib

        import uts58

        root = Path(uts58.__file__).resolve().parent.parent
        return importlib.import_module(".".join(self.path.resolve().relative_to(root).with_suffix("").parts))

    def collect(self) -> Iterator[pytest.Item]:
        import doctest

        from _pytest.doctest import DoctestItem, _get_checker, _get_continue_on_failure, _get_runner, get_optionflags

        module = self.obj
        self.session._fixturemanager.parsefactories(self)
        runner = _get_runner(
            verbose=False,
            optionflags=get_optionflags(self.config),
            checker=_get_checker(),
            continue_on_failure=_get_continue_on_failure(self.config),
        )
        parser = doctest.DocTestParser()
        for below, text, line in docstrings(self.path.read_text(encoding="utf-8")):
            name = module.__name__ + ("." + below if below else "")
            test = parser.get_doctest(text, dict(vars(module)), name, str(self.path), line)
            if test.examples:
                yield DoctestItem.from_parent(self, name=test.name, runner=runner, dtest=test)
