"""Sphinx configuration of the uts58 documentation site (D123).

``make docs`` builds it: ``sphinx-build -E -W --keep-going -n -b html docs site``,
so any warning, and any reference that does not resolve, fails the build; then
tools/check_site_links.py checks every relative link of the built pages.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import os
import pkgutil
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # (the editable install has it too; a plain checkout needs it)
# The pages document the source: a module that mypyc compiled keeps neither
# its docstrings nor its source (D138), so the decision path is read from
# its .py files here, as UTS58_INTERPRETED=1 runs it.
os.environ["UTS58_INTERPRETED"] = "1"

from docutils import nodes  # noqa: E402
from docutils.statemachine import StringList  # noqa: E402
from sphinx.pycode import ModuleAnalyzer  # noqa: E402
from sphinx.util.docutils import SphinxDirective  # noqa: E402
from sphinx.util.nodes import make_refnode, nested_parse_with_titles  # noqa: E402

import uts58  # noqa: E402

project = "uts58"
author = "uts58 developers"
copyright = "uts58 developers"
version = release = uts58.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc"]
# No intersphinx: the build runs without network (CI, D123); names of the
# standard library and of third-party packages are plain text (nitpick_ignore_regex).

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
# The changelog is the repository's CHANGELOG.md, included by changelog.md.
myst_heading_anchors = 4  # '#anchor' links to headings are checked (-n)
myst_enable_extensions = ["colon_fence"]
# Fenced code is highlighted by its language; doctests as pycon, shell sessions as console.
highlight_language = "text"

html_theme = "furo"
html_title = "uts58"
html_show_sourcelink = False
html_static_path: list[str] = []

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "undoc-members": True}

nitpicky = True
# Annotations and docstrings name the standard library's and other packages'
# types; without intersphinx (no network, D123) they cannot resolve, so they
# are plain text.  A name of uts58 that does not resolve still fails the build.
_EXTERNAL = (
    r"(str|int|float|bool|bytes|bytearray|object|type|None|list|dict|set|frozenset|tuple|"
    r"Callable|Iterable|Iterator|Mapping|MutableMapping|Sequence|Collection|Generator|Any|"
    r"Literal|NamedTuple|TypedDict|Unpack|Self|TypeVar|T|Path|PathLike|IO|BinaryIO|TextIO|Pattern|Match|"
    r"Enum|StrEnum|enum\..*|typing\..*|collections\..*|os\..*|io\..*|re\..*|pathlib\..*|"
    r"argparse\..*|html\..*|http\..*|socket(\..*)?|threading\..*|urllib\..*|xml\..*|"
    r"concurrent\..*|multiprocessing\..*|functools\..*|types\..*|"
    r"ValueError|TypeError|KeyError|Exception|NotImplementedError|DeprecationWarning|"
    r"pandas(\..*)?|pd\..*|pyarrow(\..*)?|pa\..*|dask(\..*)?|dd\..*|db\..*|pyspark(\..*)?|"
    r"jinja2(\..*)?|django(\..*)?|markupsafe(\..*)?|Markup|SafeString|markdown(\..*)?|"
    r"markdown_it(\..*)?|MarkdownIt|mdit_py_plugins(\..*)?|mistune(\..*)?|linkify_it(\..*)?|LinkifyIt|"
    r"bleach(\..*)?|nh3(\..*)?|selectolax(\..*)?|ada_url(\..*)?|publicsuffixlist(\..*)?|tqdm(\..*)?)"
)
nitpick_ignore_regex = [(r"py:.*", _EXTERNAL)]
nitpick_ignore = [
    ("py:class", "uts58.base.caches.F"),  # a type variable (of the cache decorator's signature)
    ("py:class", "Scan"),  # the C kernel's scanner, private (uts58.kernels._c), in a signature
    ("py:class", "Kind"),  # uts58.detect.link.Kind, the Literal["url", "email"] of Link.kind: not in an __all__
]


# --------------------------------------------------------------------------
# The API page (api.md) has one ``uts58-module`` directive per public module.
# Each object is documented once, where a reader looks for it (D123): a name
# of uts58's top level under ``uts58``, a function or class in the public
# module that defines it (else the first public module that exports it), a
# constant of ``__all__`` (which autodoc shows only with a ``#:`` comment) in
# the module that assigns it.


def public_modules() -> list[str]:
    """Every public module of uts58 (no part of its name starts with ``_``; not
    the generated tables, which are data)."""
    return sorted(
        m.name
        for m in pkgutil.walk_packages(uts58.__path__, "uts58.")
        if not any(part.startswith("_") for part in m.name.split(".")[1:]) and not m.name.startswith("uts58.tables")
    )


def _assigned(modname: str) -> set[str]:
    source = inspect.getsource(importlib.import_module(modname))
    names: set[str] = set()
    for node in ast.parse(source).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


@functools.cache
def _homes() -> dict[int, str]:
    homes: dict[int, str] = {id(getattr(uts58, name)): "uts58" for name in uts58.__all__}
    modules = public_modules()
    for modname in modules:
        for value in vars(importlib.import_module(modname)).values():
            if (callable(value) or isinstance(value, type)) and getattr(value, "__module__", None) == modname:
                homes.setdefault(id(value), modname)
    for modname in modules:
        module = importlib.import_module(modname)
        names = getattr(module, "__all__", None)
        if names is None:
            names = [n for n, v in vars(module).items() if getattr(v, "__module__", None) == modname]
        for name in names:
            value = getattr(module, name, None)
            if callable(value) or isinstance(value, type):
                homes.setdefault(id(value), modname)
    return homes


@functools.cache
def _constants(modname: str) -> list[str]:
    """The constants of ``modname.__all__`` documented on its entry."""
    module = importlib.import_module(modname)
    documented = {name for (_, name) in ModuleAnalyzer.for_module(modname).find_attr_docs()}
    assigned_publicly = set().union(*(_assigned(m) for m in public_modules()))
    here = _assigned(modname)
    found = []
    public = getattr(module, "__all__", None)
    if public is None:  # (a module without __all__: its own public assignments)
        public = sorted(n for n in here if not n.startswith("_"))
    for name in public:
        value = getattr(module, name)
        if callable(value) or isinstance(value, (type, types.ModuleType)) or name in documented:
            continue
        if modname == "uts58" or (name not in uts58.__all__ and (name in here or name not in assigned_publicly)):
            found.append(name)
    return found


class ModuleEntry(SphinxDirective):
    """``.. uts58-module:: NAME``: automodule, and the constants autodoc leaves out."""

    required_arguments = 1

    def run(self) -> list[Any]:
        modname = self.arguments[0]
        module = importlib.import_module(modname)
        lines = [f".. automodule:: {modname}"]
        if hasattr(module, "__all__"):
            lines.append("   :imported-members:")
        lines.append("")
        for name in _constants(modname):
            value = repr(getattr(module, name))
            lines += [f".. autodata:: {modname}.{name}"] + (["   :no-value:"] if len(value) > 70 else []) + [""]
        content = StringList(lines, source=f"<uts58-module {modname}>")
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, content, node)
        return node.children


_current_module: list[str] = [""]


def _track_module(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    if what == "module":
        _current_module[0] = name
    elif what in ("data", "attribute") and lines and inspect.getdoc(type(obj)) == "\n".join(lines).strip():
        lines.clear()  # (a constant without a comment of its own: not its type's docstring)


def _skip_elsewhere(app: Any, what: str, name: str, obj: Any, skip: bool, options: Any) -> bool | None:
    if what != "module" or not _current_module[0]:
        return None
    home = _homes().get(id(obj))
    if home is not None and home != _current_module[0]:
        return True
    return None


# --------------------------------------------------------------------------
# Docstrings name a function or class by its short name (:func:`find_links`)
# as Python code does after an import; Sphinx looks such a name up only in
# the current module.  A short name that is not found there resolves to the
# one documented object of that name, preferring the top level; an unknown or
# ambiguous name stays a warning, which fails the build (D123).


def _documented_name(target: str, module: str | None) -> str | None:
    """The documented name of the object ``target`` names (as written, or in ``module``)."""
    for path in (target, f"{module}.{target}" if module else ""):
        modname, _, attr = path.rpartition(".")
        if not modname.startswith("uts58") or attr.startswith("_"):
            continue
        try:
            value = getattr(importlib.import_module(modname), attr)
        except (ImportError, AttributeError):
            continue
        home = _homes().get(id(value))
        if home is not None:
            return f"{home}.{attr}"
    return None


def _resolve_short_name(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "").lstrip(".~")
    if not target:
        return None
    objects = env.get_domain("py").objects
    found = [name for name in objects if name.endswith("." + target)]
    for preferred in (
        f"uts58.{target}",
        f"{node.get('py:module')}.{target}",
        _documented_name(target, node.get("py:module")),
    ):
        if preferred in found or (preferred in objects and not found):
            found = [preferred]
    if len(found) != 1:
        return None
    entry = objects[found[0]]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, found[0])


def setup(app: Any) -> None:
    app.add_directive("uts58-module", ModuleEntry)
    app.connect("autodoc-process-docstring", _track_module)
    app.connect("autodoc-skip-member", _skip_elsewhere)
    app.connect("missing-reference", _resolve_short_name)


# Options are written --jobs and quotes as typed: docutils' smart quotes would turn
# `--` into an en dash in headings and prose (uts58 detect –jobs).
smartquotes = False
