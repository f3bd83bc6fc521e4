"""Check every relative link of the built documentation site (D123).

    python tools/check_site_links.py [SITE]     (default: site/)

Parses each ``SITE/**/*.html`` with the standard library's HTML parser and
fails (exit 1, one line per broken link) when a relative ``href`` or ``src``
names a file that does not exist, or a ``#fragment`` that is no ``id`` (or
``<a name>``) of its target page.  Links with a scheme (``https:``,
``mailto:``) or to another host are not followed: the build has no network.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif name in ("href", "src") and not (tag == "link" and ("rel", "preconnect") in attrs):
                self.links.append((self.getpos()[0], value))


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def broken_links(site: Path) -> tuple[list[str], int]:
    """``file:line: link (why)`` for each relative link of ``site`` that leads
    nowhere, and the number of links read."""
    pages = {path.resolve(): parse(path) for path in sorted(site.rglob("*.html"))}
    problems: list[str] = []
    for path, page in pages.items():
        for line, link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("//"):
                continue
            target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            where = f"{path.relative_to(site.resolve())}:{line}: {link}"
            if not target.is_file():
                problems.append(f"{where} (no file {target})")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(parts.fragment) not in ids:
                    problems.append(f"{where} (no id {parts.fragment!r} in {target.name})")
    return problems, sum(len(page.links) for page in pages.values())


def main(argv: list[str]) -> int:
    site = Path(argv[0] if argv else "site")
    if not (site / "index.html").is_file():
        print(f"{site}: no built site (run make docs)", file=sys.stderr)
        return 1
    problems, count = broken_links(site)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{site}: {count} links checked, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
