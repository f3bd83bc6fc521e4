"""HTML5 DOMs for the tests, built by parsers that uts58 does not use.

The checks of linkify_html compare the DOM of its output with the DOM of its
input, both built by an independent spec-conformant parser (justhtml, a
complete implementation of the WHATWG parsing algorithm, and html5lib), never
by the parser that produced the output.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

HTMLSAFETY = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "htmlsafety"

# A DOM node as plain data: ("#text", data) | ("#comment", data) |
# (namespace, name, sorted attributes, children, template contents).
Node = tuple[Any, ...]


def corpus(*names: str) -> list[tuple[str, str]]:
    """(id, input) of the public corpora in shared/data/htmlsafety; the test
    is skipped, with the reason, where they are absent."""
    files = [HTMLSAFETY / f"{name}.jsonl" for name in names] if names else sorted(HTMLSAFETY.glob("*.jsonl"))
    if not files or not all(f.exists() for f in files):
        pytest.skip(f"the public HTML corpora are not in {HTMLSAFETY}")
    items = []
    for path in files:
        with path.open(encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                items.append((f"{path.stem}:{record['id']}", record["input"]))
    return items


def fragment_contexts() -> list[tuple[str, str, str]]:
    """(id, context element, input) of html5lib's fragment tests whose
    context is an HTML element."""
    path = HTMLSAFETY / "html5lib-tree.jsonl"
    if not path.exists():
        pytest.skip(f"the public HTML corpora are not in {HTMLSAFETY}")
    found = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            context = record["meta"].get("fragment")
            if context and " " not in context:
                found.append((record["id"], context, record["input"]))
    return found


def justhtml_dom(fragment: str, *, context: str = "div", scripting: bool = True) -> list[Node]:
    """The children of ``<context>`` after ``innerHTML = fragment``, per justhtml."""
    from justhtml import JustHTML
    from justhtml.parser.context import FragmentContext

    doc = JustHTML(
        fragment, fragment=True, fragment_context=FragmentContext(context), sanitize=False, scripting_enabled=scripting
    )
    return _justhtml_children(doc.root)


def _justhtml_children(parent: Any) -> list[Node]:
    out: list[Node] = []
    # An explicit stack: hostile inputs nest deeper than Python recursion.
    stack: list[tuple[Any, list[Node]]] = [(parent, out)]
    while stack:
        node, into = stack.pop()
        for child in node.children or ():
            kind = type(child).__name__
            if kind == "Text":
                _add_text(into, child.data)
            elif kind == "Comment":
                into.append(("#comment", child.data))
            elif kind in ("Element", "Template"):
                kids: list[Node] = []
                content: list[Node] = []
                into.append((child.namespace or "html", child.name, tuple(sorted(child.attrs.items())), kids, content))
                stack.append((child, kids))
                if getattr(child, "template_content", None) is not None:
                    stack.append((child.template_content, content))
            else:
                into.append((f"#{kind}",))
    return out


def _add_text(into: list[Node], data: str) -> None:
    """Adjacent text nodes are one text (a parser never makes two)."""
    if into and into[-1][0] == "#text":
        into[-1] = ("#text", into[-1][1] + data)
    elif data:
        into.append(("#text", data))


def iter_elements(nodes: list[Node]) -> Iterator[tuple[Node, tuple[str, ...]]]:
    """Every element with the names of its ancestors."""
    stack = [(n, ()) for n in reversed(nodes)]
    while stack:
        node, path = stack.pop()
        if node[0].startswith("#"):
            continue
        yield node, path
        below = (*path, node[1])
        stack.extend((n, below) for n in reversed(node[3]))
        stack.extend((n, below) for n in reversed(node[4]))


def without_marked_links(nodes: list[Node], marker: str) -> tuple[list[Node], list[tuple[str, str]]]:
    """The DOM with every ``a`` that has the ``marker`` attribute replaced by
    its text, and the (href, text) of those links.  A marked link that is not
    an HTML ``a`` holding one text node is left in place (so the comparison
    with the input fails)."""
    links: list[tuple[str, str]] = []
    result: list[Node] = []
    stack: list[tuple[list[Node], list[Node]]] = [(nodes, result)]
    while stack:
        children, out = stack.pop()
        for node in children:
            if node[0] == "#text":
                _add_text(out, node[1])
            elif node[0].startswith("#"):
                out.append(node)
            elif node[0] == "html" and node[1] == "a" and any(k == marker for k, _ in node[2]) and _one_text(node):
                links.append((dict(node[2]).get("href", ""), node[3][0][1]))
                _add_text(out, node[3][0][1])
            else:
                kids: list[Node] = []
                content: list[Node] = []
                out.append((node[0], node[1], node[2], kids, content))
                stack.append((node[3], kids))
                stack.append((node[4], content))
    return result, links


def _one_text(node: Node) -> bool:
    return len(node[3]) == 1 and node[3][0][0] == "#text" and not node[4]


_NAMESPACES = {
    "http://www.w3.org/1999/xhtml": "html",
    "http://www.w3.org/2000/svg": "svg",
    "http://www.w3.org/1998/Math/MathML": "math",
}


def html5lib_dom(fragment: str, *, context: str = "div", scripting: bool = True) -> list[Node]:
    """The same as :func:`justhtml_dom`, per html5lib (an older implementation
    of the same algorithm: two parsers, so that a bug of one is not taken
    for a property of the output)."""
    import xml.etree.ElementTree as ET

    import html5lib

    parser = html5lib.HTMLParser(namespaceHTMLElements=True)
    root = parser.parseFragment(fragment, container=context, scripting=scripting)
    out: list[Node] = []
    if root.text:
        _add_text(out, root.text)
    stack: list[tuple[Any, list[Node]]] = [(root, out)]
    while stack:
        element, into = stack.pop()
        for child in element:
            if child.tag is ET.Comment:
                into.append(("#comment", child.text or ""))
            elif isinstance(child.tag, str):
                ns, _, name = child.tag[1:].partition("}") if child.tag.startswith("{") else ("", "", child.tag)
                attrs = tuple(sorted((_attr_name(k), v) for k, v in child.attrib.items()))
                kids: list[Node] = []
                if child.text:
                    _add_text(kids, child.text)
                into.append((_NAMESPACES.get(ns, ns), name, attrs, kids, []))
                stack.append((child, kids))
            if child.tail:
                _add_text(into, child.tail)
    return out


def _attr_name(name: str) -> str:
    if name.startswith("{"):
        ns, _, local = name[1:].partition("}")
        prefixes = {"http://www.w3.org/1999/xlink": "xlink", "http://www.w3.org/XML/1998/namespace": "xml"}
        prefix = prefixes.get(ns, "xmlns")
        return f"{prefix} {local}"
    return name


def justhtml_document(page: str, *, scripting: bool = True) -> list[Node]:
    """The children of the document ``page`` parses to, per justhtml."""
    from justhtml import JustHTML

    return _justhtml_children(JustHTML(page, sanitize=False, scripting_enabled=scripting).root)


def texts_to_link(nodes: list[Node], skip_tags: Iterable[str], skip: Iterable[str]) -> list[str]:
    """The text nodes of the DOM that lie outside the skipped elements: in
    ``skip_tags`` (HTML elements by name; foreign ones are under ``svg`` or
    ``math``) or matching one of the ``skip`` selectors (``.class`` and
    ``[attribute]`` forms), in document order."""
    tags = frozenset(skip_tags)
    classes = {s[1:] for s in skip if s.startswith(".")}
    attributes = {s[1:-1] for s in skip if s.startswith("[") and s.endswith("]")}
    assert len(classes) + len(attributes) == len(set(skip)), "a selector form this oracle does not read"

    def skipped(node: Node) -> bool:
        attrs = dict(node[2])
        return (
            node[0] != "html"
            or node[1] in tags
            or bool(classes & set(attrs.get("class", "").split()))
            or bool(attributes & attrs.keys())
        )

    out: list[str] = []
    stack = [list(reversed(nodes))]
    while stack:
        if not stack[-1]:
            stack.pop()
            continue
        node = stack[-1].pop()
        if node[0] == "#text":
            out.append(node[1])
        elif not node[0].startswith("#") and not skipped(node):
            stack.append(list(reversed(node[3])))
    return out
