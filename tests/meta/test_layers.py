"""The package's folders are its layers, and they import only downward (docs/architecture.md, D72).

The layers are read from docs/architecture.md, so that the page and the
code cannot disagree.  A *unit* is a folder of ``src/uts58`` (a subpackage)
or a module at its top.  Every unit is in exactly one layer; every import
(at module level, inside a function or under ``if TYPE_CHECKING:``) goes to
the same layer or a lower one; no circle of imports joins two units (inside
one folder modules may use each other freely); and a leading underscore
means private to its folder: no module imports a ``_name`` (module or
attribute) of another folder.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "uts58"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
# Generated modules: data, no imports, not drawn one by one.
GENERATED = "tables"
# The compiled accelerator: built from src/kernels/*.c, imports nothing of the package.
COMPILED = {"kernels._c"}


def layers() -> list[tuple[str, set[str]]]:
    """[(layer name, {unit names})] from the numbered list of the page, lowest first."""
    out = []
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\d+\. \*\*(.+?)\*\*: (.*)", line)
        if m:
            names = m.group(2).split(" — ")[0]  # (the description after the dash may cite anything)
            out.append((m.group(1), set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)/?`", names))))
    return out


def diagram() -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    return text.split("```text", 1)[1].split("```", 1)[0]


def _path_module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or "__init__"


@functools.cache
def sources() -> dict[str, Path]:
    """{dotted module name below uts58 ("detect.scanner", "__init__"): its file}."""
    return {_path_module(p): p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


def modules() -> set[str]:
    return set(sources()) | COMPILED


def unit(module: str) -> str:
    """The folder of a module, or the module itself at the top."""
    head = module.split(".")[0]
    return head if (PACKAGE / head).is_dir() else module


def is_private(module: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in module.split("."))


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _dynamic_import(call: ast.Call) -> str | None:
    """The module of ``importlib.import_module("uts58.x.y…")`` (or an f-string
    starting so, cut at its first field), else None."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "import_module") or not call.args:
        return None
    arg = call.args[0]
    head = arg.value if isinstance(arg, ast.Constant) else None
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        head = arg.values[0].value
    if isinstance(head, str) and head.startswith("uts58.") and len(head) > len("uts58."):
        name = head[len("uts58.") :].split("{")[0].rstrip(".")
        return name or None
    return None


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str | None:
    """The absolute name below uts58 that an ImportFrom reads from ("" for the package itself)."""
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        if module == "__init__":
            base = []
        if node.level - 1 > len(base):
            return None
        base = base[: len(base) - (node.level - 1)]
        return ".".join([*base, *([node.module] if node.module else [])])
    if node.module and (node.module == "uts58" or node.module.startswith("uts58.")):
        return node.module[len("uts58.") :] if node.module != "uts58" else ""
    return None


def imports(module: str) -> Iterator[tuple[str, str | None]]:
    """(imported module, attribute name or None) for every uts58 import of ``module``,
    run-time and type-only alike."""
    if module in COMPILED:
        return
    path = sources()[module]
    known = modules()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node)
            if target is None:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                if sub in known:
                    yield sub, None  # "from . import scanner": a module
                elif target in known or target == "":
                    # "from .. import __version__": the package's own attribute, no module
                    if target:
                        yield target, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("uts58."):
                    yield alias.name[len("uts58.") :], None
        elif isinstance(node, ast.Call):
            found = _dynamic_import(node)
            if found is not None:
                yield found, None


def _level() -> dict[str, int]:
    return {name: k for k, (_, names) in enumerate(layers()) for name in names}


def test_every_unit_has_one_layer() -> None:
    placed: dict[str, str] = {}
    for layer, names in layers():
        for name in names:
            assert name not in placed, f"{name} is in both {placed[name]!r} and {layer!r}"
            placed[name] = layer
    assert len(layers()) >= 8
    units = {unit(m) for m in modules()}
    assert sorted(units - set(placed)) == [], "units missing from docs/architecture.md"
    assert sorted(set(placed) - units) == [], "docs/architecture.md names units that do not exist"


def test_the_diagram_names_every_module() -> None:
    drawn = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", diagram()))
    missing = sorted(
        m for m in modules() if not m.startswith(GENERATED + ".") and m.split(".")[-1] not in drawn and m != "__init__"
    )
    assert missing == []


def test_the_top_holds_the_public_faces_only() -> None:
    top = sorted(m for m in modules() if "." not in m and not (PACKAGE / m).is_dir())
    assert not [m for m in top if is_private(m)], top
    assert len(top) <= 15, top


def test_imports_go_downward() -> None:
    level = _level()
    names = layers()
    upward = sorted(
        f"{module} ({names[level[unit(module)]][0]}) imports {target} ({names[level[unit(target)]][0]})"
        for module in modules()
        for target, _ in imports(module)
        if level[unit(target)] > level[unit(module)]
    )
    assert upward == []


def test_no_circle_joins_two_units() -> None:
    graph: dict[str, set[str]] = {}
    for module in modules():
        graph.setdefault(unit(module), set()).update(unit(t) for t, _ in imports(module) if unit(t) != unit(module))
    colour: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        colour[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if colour.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], node, nxt] if nxt in path else [node, nxt])
            elif nxt not in colour:
                visit(nxt, [*path, node])
        colour[node] = 2

    for node in sorted(graph):
        if node not in colour:
            visit(node, [])
    assert cycles == []


def test_private_names_stay_in_their_folder() -> None:
    crossing = sorted(
        f"{module} imports {target}{'.' + name if name else ''}"
        for module in modules()
        for target, name in imports(module)
        if unit(target) != unit(module)
        and (is_private(target) or (name is not None and name.startswith("_") and not name.startswith("__")))
    )
    assert crossing == []


def test_no_module_is_over_600_lines() -> None:
    long = sorted(
        f"{m}: {n}"
        for m, p in sources().items()
        if not m.startswith(GENERATED + ".") and (n := len(p.read_text(encoding="utf-8").splitlines())) > 600
    )
    assert long == []


def test_modules_reach_each_other_only_by_import() -> None:
    # "import uts58" then uts58.x (the package loads x lazily) or sys.modules
    # would hide an import from the checks above.
    offenders = []
    for module, path in sources().items():
        if module == "__init__" or module.startswith(GENERATED + "."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(alias.name == "uts58" for alias in node.names):
                offenders.append(f"{module}: import uts58")
            if isinstance(node, ast.Attribute) and node.attr == "modules" and getattr(node.value, "id", "") == "sys":
                offenders.append(f"{module}: sys.modules")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "import_module"
                and _dynamic_import(node) is None
            ):
                offenders.append(f"{module}: import_module of a name the checks cannot read")
    assert offenders == []


def test_the_checks_see_imports() -> None:
    # The reader finds module-level, function-level, type-only, relative and
    # dynamic imports (else the tests above could pass vacuously).
    seen = {t for t, _ in imports("spec.termination")}
    assert {"base.checks", "kernels", "unicode.parts", "unicode.properties"} <= seen
    assert "hosts.whatwg" in {t for t, _ in imports("hosts.tlds")}  # (inside a function)
    assert "detect.finder" in {t for t, _ in imports("__init__")}  # (under TYPE_CHECKING)
    assert any(t.startswith("tables") for t, _ in imports("unicode.properties"))  # (import_module)
    assert ("kernels", "engine") in set(imports("spec.escaping"))  # (a name from a package)
    assert unit("detect.scanner") == "detect" and unit("errors") == "errors"
    assert is_private("kernels._python") and not is_private("__init__") and not is_private("kernels")


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
                        typed[alias.name] = sub.module or ""
    assert typed == uts58._EXPORTS
    # (a small surface: 30 names, and since issue 24 the caches' two (D104),
    # the Linkifier and its Anchor)
    assert uts58.__all__ == list(uts58._EXPORTS) and len(uts58.__all__) <= 34
    for name, module in uts58._EXPORTS.items():
        assert getattr(uts58, name) is getattr(importlib.import_module(f"uts58.{module}"), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        uts58.nothing  # noqa: B018
