"""The documentation's examples run (D123).

The Python examples of README.md and docs/**/*.md are doctests (``pycon``
blocks, collected by pytest's ``--doctest-glob``); here, every shell session
(a ``console`` block: ``$ uts58 …`` lines, each followed by its exact output)
is run through :func:`uts58.cli.main.main` and its output compared, and every other
fenced block must be of a language that is not run (output, data, a template,
or set-up commands), so that no runnable example goes untested.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from uts58.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

# Fenced blocks that are not run, and why: output or data shown as it is, a
# synopsis, a template (rendered by a pycon example beside it), or commands
# that set up a machine (``shell``: checked below to hold nothing else).
NOT_RUN = {
    "text": "output or a synopsis",
    "html": "output",
    "json": "output",
    "toml": "configuration",
    "django": "a Django template, rendered by the pycon example beside it",
    "jinja": "a Jinja2 template, rendered by the pycon example beside it",
    "shell": "set-up commands (make, pip, apt-get): they install, nothing to compare",
}
RUN = {"pycon", "console"}
# MyST directives: markup of the site, not examples.
MYST = {"{toctree}", "{eval-rst}", "{include}"}
SETUP_COMMAND = re.compile(r"(make|pip|python -m pip|apt-get|export|cd|git clone|UTS58_PURE_PYTHON=1 make)\b")

_FENCE = re.compile(
    r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.M | re.S
)


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    language: str
    body: str

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line} ({self.language or 'no language'})"


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for m in _FENCE.finditer(text):
        language = m.group("info").strip().split()[0] if m.group("info").strip() else ""
        line = text.count("\n", 0, m.start()) + 1
        found.append(Block(path, line, language, m.group("body")))
    return found


ALL_BLOCKS = [b for path in DOCUMENTS for b in blocks(path)]
CONSOLE = [b for b in ALL_BLOCKS if b.language == "console"]


def test_the_documents_have_examples() -> None:
    counts = {language: sum(b.language == language for b in ALL_BLOCKS) for language in RUN}
    assert counts["pycon"] >= 40 and counts["console"] >= 5, counts


def test_every_fenced_block_is_run_or_is_not_runnable() -> None:
    """A block is a doctest (pycon), a shell session (console), or of a language that is not run."""
    wrong = [
        str(b) for b in ALL_BLOCKS if b.language not in RUN and b.language not in NOT_RUN and b.language not in MYST
    ]
    assert wrong == []


def test_a_pycon_block_is_a_doctest_and_python_is_never_shown_otherwise() -> None:
    not_doctest = [str(b) for b in ALL_BLOCKS if b.language == "pycon" and not b.body.lstrip().startswith(">>>")]
    assert not_doctest == []


def test_shell_blocks_only_set_up() -> None:
    """A ``shell`` block holds set-up commands; a command of uts58 goes in a ``console`` session."""
    wrong = []
    for b in ALL_BLOCKS:
        if b.language == "shell":
            for line in b.body.splitlines():
                command = line.split("#", 1)[0].strip()
                if command and not SETUP_COMMAND.match(command):
                    wrong.append(f"{b}: {line}")
    assert wrong == []


def test_readme_is_a_front_page() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    first_block = next(b for b in blocks(ROOT / "README.md"))
    assert first_block.body.split()[:2] == ["make", "demo"] and "make test" in first_block.body


# --------------------------------------------------------------------------
# Shell sessions


@dataclass(frozen=True)
class Command:
    block: Block
    argv: list[str]
    stdin: bytes | None
    expected: str


def _printf(argument: str) -> bytes:
    """What ``printf 'ARGUMENT'`` writes (its escapes; no conversion specifications)."""
    assert "%" not in argument, "printf with a conversion: not supported in the docs' sessions"
    return argument.encode("utf-8").decode("unicode_escape").encode("latin-1")


def commands(block: Block) -> list[Command]:
    """Each ``$ …`` line with the output lines after it.  Forms: ``uts58 ARGS``,
    ``printf 'TEXT' | uts58 ARGS``, ``cat FILE`` (a file an earlier command wrote)."""
    found: list[Command] = []
    lines = block.body.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        assert line.startswith("$ "), f"{block}: {line!r} is not a command line"
        k += 1
        output = []
        while k < len(lines) and not lines[k].startswith("$ "):
            output.append(lines[k])
            k += 1
        words = shlex.split(line[2:])
        stdin = None
        if words[0] == "printf":
            assert words[2] == "|", f"{block}: {line!r}"
            stdin, words = _printf(words[1]), words[3:]
        assert words[0] in ("uts58", "cat"), f"{block}: {line!r}: only uts58 (and printf …|, cat) are run"
        found.append(Command(block, words, stdin, "\n".join(output) + ("\n" if output else "")))
    return found


def run(argv: list[str], stdin: bytes | None) -> str:
    """Run one command as the shell would, in the current directory: stdout, then stderr."""
    if argv[0] == "cat":
        return "".join(Path(name).read_text(encoding="utf-8") for name in argv[1:])
    out, err = io.StringIO(), io.StringIO()
    real_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(argv[1:])
            except SystemExit:  # (argparse's usage errors)
                pass
    finally:
        sys.stdin = real_stdin
    return out.getvalue() + err.getvalue()


_CHECKER = doctest.OutputChecker()


@pytest.mark.parametrize("block", CONSOLE, ids=str)
def test_console_session(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command runs in a directory holding a copy of examples/ (so a
    command names examples/sample.txt as it would from a checkout); its output
    is compared as a doctest's is (``...`` stands for any text, D123)."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")  # (argparse wraps its usage lines to the terminal)
    for command in commands(block):
        got = run(command.argv, command.stdin)
        flags = doctest.ELLIPSIS
        assert _CHECKER.check_output(command.expected, got, flags), (
            f"{block}: $ {shlex.join(command.argv)}\nexpected:\n{command.expected}\ngot:\n{got}"
        )


def test_the_session_runner_can_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong expected output is noticed (the comparison is not vacuous)."""
    monkeypatch.chdir(tmp_path)
    block = Block(ROOT / "README.md", 0, "console", "$ printf 'see example.com\\n' | uts58 detect\nsee example.com\n")
    (command,) = commands(block)
    got = run(command.argv, command.stdin)
    assert got == "see ⸠example.com⸡\n"
    assert not _CHECKER.check_output(command.expected, got, doctest.ELLIPSIS)
    assert os.getcwd() == str(tmp_path)


# --------------------------------------------------------------------------
# Links


def _slug(heading: str) -> str:
    """A heading's anchor as MyST and GitHub write it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_the_readmes_links_lead_somewhere() -> None:
    """The README is no page of the site (whose links Sphinx checks with -n):
    its relative links name files of the repository and headings in them."""
    text = _FENCE.sub("", (ROOT / "README.md").read_text(encoding="utf-8"))  # (not in examples' output)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    relative = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert len(relative) >= 20
    broken = []
    for link in relative:
        path, _, fragment = link.partition("#")
        target = ROOT / path
        if not target.exists():
            broken.append(link)
        elif fragment:
            headings = re.findall(r"(?m)^#+ (.*)$", target.read_text(encoding="utf-8"))
            if fragment not in {_slug(h) for h in headings}:
                broken.append(link)
    assert broken == []


def test_the_site_link_checker_finds_what_is_broken(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from check_site_links import broken_links
    finally:
        sys.path.remove(str(ROOT / "tools"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="a.html#here">ok</a> <a href="a.html#gone">no id</a> <a href="missing.html">no file</a>'
        '<img src="sub/p.png"> <a href="https://example.com/x">external</a> <a href="#top">self</a><p id="top">',
        encoding="utf-8",
    )
    (tmp_path / "a.html").write_text('<h1 id="here">A</h1><a href="sub/">dir</a>', encoding="utf-8")
    (tmp_path / "sub" / "index.html").write_text('<a href="../index.html#top">up</a>', encoding="utf-8")
    problems, count = broken_links(tmp_path)
    assert count == 8
    assert [p.split(": ", 1)[1].split(" (")[0] for p in problems] == ["a.html#gone", "missing.html", "sub/p.png"]


def test_every_public_module_has_its_api_entry() -> None:
    """docs/api.md documents every public module of uts58 (no part of its name
    starts with ``_``; not the generated tables), each once; a new module must be added there."""
    import pkgutil

    import uts58

    public = {
        m.name
        for m in pkgutil.walk_packages(uts58.__path__, "uts58.")
        if not any(part.startswith("_") for part in m.name.split(".")[1:]) and not m.name.startswith("uts58.tables")
    }
    entries = re.findall(r"^\.\. uts58-module:: (\S+)$", (ROOT / "docs" / "api.md").read_text(encoding="utf-8"), re.M)
    assert len(entries) == len(set(entries))
    assert set(entries) == public | {"uts58"}
