"""The package's modules import only downward (docs/architecture.md, D72).

The layers are read from docs/architecture.md, so that the page and the
code cannot disagree: every module of src/uts58 is in exactly one layer,
every import (at module level or inside a function; not the ones under
``if TYPE_CHECKING:``, which never run) goes to the same layer or a lower
one, and the import graph has no cycle.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "uts58"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def layers() -> list[tuple[str, set[str]]]:
    """[(layer name, {module names})] from the numbered list of the page, lowest first."""
    out = []
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\d+\. \*\*(.+?)\*\*: (.*)", line)
        if m:
            names = m.group(2).split(" — ")[0]  # (the description after the dash may cite anything)
            out.append((m.group(1), set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", names))))
    return out


def modules() -> set[str]:
    names = {p.stem for p in PACKAGE.glob("*.py")}
    names |= {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    names |= {p.name.split(".")[0] for p in PACKAGE.glob("_speedups*.so")} | {"_speedups"}
    return names


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _dynamic_import(call: ast.Call) -> str | None:
    """The module of ``importlib.import_module("uts58.x…")`` (or an f-string
    starting so), else None."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "import_module") or not call.args:
        return None
    arg = call.args[0]
    head = arg.value if isinstance(arg, ast.Constant) else None
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        head = arg.values[0].value
    if isinstance(head, str) and head.startswith("uts58.") and len(head) > len("uts58."):
        return re.split(r"[.{]", head[len("uts58.") :])[0] or None
    return None


# Deprecated names forwarded lazily to the module they moved to (warning on
# use): the only imports allowed to go up, until the old names are removed.
SHIMS = {("escaping", "formatting")}


def imports(module: str) -> set[str]:
    """The uts58 modules that ``module`` imports when it runs."""
    path = PACKAGE / f"{module}.py"
    # A subpackage (compat) is one module of its layer: all its files count,
    # and a relative import one level up ("from ..html5") names a module.
    paths = [path] if path.exists() else sorted((PACKAGE / module).glob("*.py"))
    found: set[str] = set()
    top = 1 if path.exists() else 2

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.ImportFrom):
                if child.level == top and child.module:
                    found.add(child.module.split(".")[0])
                elif child.level == top:
                    found.update(alias.name for alias in child.names)
                elif child.module and child.module.split(".")[0] == "uts58":
                    rest = child.module.split(".")[1:]
                    found.update([rest[0]] if rest else [alias.name for alias in child.names])
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    parts = alias.name.split(".")
                    if parts[0] == "uts58" and len(parts) > 1:
                        found.add(parts[1])
            elif isinstance(child, ast.Call) and _dynamic_import(child) is not None:
                found.add(_dynamic_import(child))  # type: ignore[arg-type]
            visit(child)

    for one in paths:  # (none: the compiled module imports nothing of the package)
        visit(ast.parse(one.read_text(encoding="utf-8")))
    found.discard(module)
    # "from . import __version__" is the package's own attribute, not a module.
    return {name for name in found if name in modules()}


def test_every_module_has_one_layer() -> None:
    placed: dict[str, str] = {}
    for layer, names in layers():
        for name in names:
            assert name not in placed, f"{name} is in both {placed[name]!r} and {layer!r}"
            placed[name] = layer
    assert len(layers()) >= 8
    assert sorted(modules() - set(placed)) == [], "modules missing from docs/architecture.md"
    assert sorted(set(placed) - modules()) == [], "docs/architecture.md names modules that do not exist"


def test_imports_go_downward() -> None:
    level = {name: k for k, (_, names) in enumerate(layers()) for name in names}
    upward = [
        f"{module} ({layers()[level[module]][0]}) imports {target} ({layers()[level[target]][0]})"
        for module in sorted(modules())
        for target in sorted(imports(module))
        if level[target] > level[module] and (module, target) not in SHIMS
    ]
    assert upward == []


def test_no_import_cycle() -> None:
    graph = {module: imports(module) - {t for m, t in SHIMS if m == module} for module in modules()}
    # Depth-first search with colours; a grey node met again closes a cycle.
    colour: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        colour[node] = 1
        for nxt in sorted(graph[node]):
            if colour.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], node, nxt] if nxt in path else [node, nxt])
            elif nxt not in colour:
                visit(nxt, [*path, node])
        colour[node] = 2

    for module in sorted(graph):
        if module not in colour:
            visit(module, [])
    assert cycles == []


def test_modules_reach_each_other_only_by_import() -> None:
    # "import uts58" then uts58.x (the package loads x lazily) or sys.modules
    # would hide an import from the checks above.
    offenders = []
    for path in sorted(PACKAGE.glob("*.py")):
        if path.stem == "__init__":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(alias.name == "uts58" for alias in node.names):
                offenders.append(f"{path.stem}: import uts58")
            if isinstance(node, ast.Attribute) and node.attr == "modules" and getattr(node.value, "id", "") == "sys":
                offenders.append(f"{path.stem}: sys.modules")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "import_module"
                and _dynamic_import(node) is None
            ):
                offenders.append(f"{path.stem}: import_module of a name the checks cannot read")
    assert offenders == []


def test_the_checks_see_imports() -> None:
    # The reader finds module-level, function-level and absolute imports,
    # and skips TYPE_CHECKING blocks (else the tests above could pass vacuously).
    assert {"_checks", "_kernels", "parts", "properties"} <= imports("termination")
    assert "whatwg" in imports("tlds")  # (inside a function)
    assert "detection" not in imports("__init__")  # (under TYPE_CHECKING, and lazily by name)
    assert "_kernels" in imports("whatwg") and "kernels" in [n for n, _ in layers()]
    assert "_tables" in imports("properties")  # (importlib.import_module(f"uts58._tables.…"))
    assert "formatting" in imports("escaping")  # (a deprecation shim, allowed by name only)


# --------------------------------------------------------------------------
# The public surface: one list (uts58._EXPORTS), the type checkers' view of it


def test_one_list_of_public_names() -> None:
    import uts58

    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            for sub in ast.walk(node):
                if isinstance(sub, ast.ImportFrom):
                    for alias in sub.names:
                        assert alias.asname == alias.name, f"{alias.name}: re-export it as itself"
                        typed[alias.name] = (sub.module or "").split(".")[0]
    assert typed == uts58._EXPORTS
    # (a small surface: 30 names, and since issue 24 the caches' two (D104),
    # the Linkifier and its Anchor)
    assert uts58.__all__ == list(uts58._EXPORTS) and len(uts58.__all__) <= 34
    for name, module in uts58._EXPORTS.items():
        assert getattr(uts58, name) is getattr(importlib.import_module(f"uts58.{module}"), name)


def test_moved_names_still_work_with_a_warning() -> None:
    import uts58

    assert not set(uts58._MOVED) & set(uts58._EXPORTS)
    for name, module in uts58._MOVED.items():
        with pytest.warns(DeprecationWarning, match=rf"uts58\.{name} is uts58\.{module}\.{name}"):
            value = getattr(uts58, name)
        assert value is getattr(importlib.import_module(f"uts58.{module}"), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        uts58.nothing  # noqa: B018
