"""The command line at parity with the API (issue 13): detect and linkify take
the Finder's options, --tlds, --policy, --attr, --html; --json names every
input (D87, D88).  Each flag is checked against the API on the same text."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from counting import count_scans
from html5dom import justhtml_dom, without_marked_links

import uts58.cli.main
from uts58 import Finder, Policy, find_links, linkify, linkify_html
from uts58.cli.main import main
from uts58.hosts.tlds import load_tlds
from uts58.html.linkify import DEFAULT_SKIP, linkify_html_result

TEXT = (
    "See example.com, https://ok.example.com/s, ssh://git@host.corp/x.git and https://intranet/wiki\n"
    "then 10.0.0.1:8080/admin,\n"
    "localhost:3000 helpers.py www.readme.md раураl.com ok.corp x@example.org x@a.corp\n"
    "bidi example.com/a\u202eb and " + "https://example.org/" + "x" * 2100 + " end\n"
)

MARK = "data-cli"  # an attribute that marks the links uts58 wrote


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def records(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The message of a usage error (exit status 2), which must be one line naming an option."""
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    return err.splitlines()[-1]


def feed(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.fixture
def text_file(tmp_path: Path) -> Path:
    f = tmp_path / "in.txt"
    f.write_text(TEXT, encoding="utf-8")
    return f


@pytest.fixture
def tld_file(tmp_path: Path) -> Path:
    f = tmp_path / "tlds-alpha-by-domain.txt"
    f.write_text("# Version 2026010100, Last Updated Thu Jan  1 07:07:01 2026 UTC\nCORP\nCOM\nMD\n", encoding="ascii")
    return f


# The flags, and the Finder options they stand for.
FLAGS: list[tuple[list[str], dict[str, Any]]] = [
    (["--schemes", "https,SSH"], {"schemes": {"https", "ssh"}}),
    (["--schemes", ""], {"schemes": ()}),
    (["--require-scheme"], {"require_scheme": True}),
    (["--bare-ipv4"], {"bare_ipv4": True}),
    (["--bare-localhost"], {"bare_localhost": True}),
    (["--single-label-hosts"], {"single_label_hosts": True}),
    (["--only", "emails", "--schemes", "ssh"], {"urls": False, "schemes": {"ssh"}}),
    (
        ["--only", "urls", "--bare-ipv4", "--single-label-hosts"],
        {"emails": False, "bare_ipv4": True, "single_label_hosts": True},
    ),
]


@pytest.mark.parametrize(("flags", "options"), FLAGS)
def test_detect_flags_are_the_finder_options(
    capsys: pytest.CaptureFixture[str], text_file: Path, flags: list[str], options: dict[str, Any]
) -> None:
    code, plain, _ = run(capsys, "detect", "--json", str(text_file))
    code, out, err = run(capsys, "detect", "--json", *flags, str(text_file))
    expected = [{"file": str(text_file), **link.as_dict()} for link in Finder(**options).find_links(TEXT)]
    assert code == 0 and err == "" and records(out) == expected
    assert out != plain  # (the flag changes what is found in TEXT)


@pytest.mark.parametrize(("flags", "options"), FLAGS)
def test_linkify_flags_are_the_finder_options(
    capsys: pytest.CaptureFixture[str], text_file: Path, flags: list[str], options: dict[str, Any]
) -> None:
    kinds = (
        ("email",) if options.pop("urls", True) is False else ("url",) if options.pop("emails", True) is False else ()
    )
    code, out, err = run(capsys, "linkify", "--policy", "none", *flags, str(text_file))
    expected = linkify(TEXT, policy=Policy.none(), **options, **({"kinds": kinds} if kinds else {}))
    assert code == 0 and err == "" and out == expected
    assert out != linkify(TEXT, policy=Policy.none())


def test_tlds_file_is_known_tlds(capsys: pytest.CaptureFixture[str], text_file: Path, tld_file: Path) -> None:
    tlds = load_tlds(tld_file)
    code, out, _ = run(capsys, "detect", "--json", "--tlds", str(tld_file), str(text_file))
    assert code == 0 and records(out) == [
        {"file": str(text_file), **link.as_dict()} for link in find_links(TEXT, known_tlds=tlds)
    ]
    assert "ok.corp" in out and "x@example.org" not in out
    code, out, _ = run(capsys, "linkify", "--tlds", str(tld_file), str(text_file))
    assert code == 0 and out == linkify(TEXT, known_tlds=tlds)
    # A Public Suffix List works too; and "-" reads the list from standard input when the input is a file.
    psl = tld_file.with_name("psl.dat")
    psl.write_text("// ===BEGIN ICANN DOMAINS===\ncorp\n*.md\n// ===END ICANN DOMAINS===\n", encoding="utf-8")
    code, from_psl, _ = run(capsys, "linkify", "--tlds", str(psl), str(text_file))
    assert code == 0 and from_psl == linkify(TEXT, known_tlds={"corp", "md"}) != out


def test_tlds_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text_file: Path, tld_file: Path
) -> None:
    feed(monkeypatch, tld_file.read_bytes())
    code, out, _ = run(capsys, "detect", "--json", "--tlds", "-", str(text_file))
    assert code == 0 and [r["text"] for r in records(out)] == [
        link.text for link in find_links(TEXT, known_tlds=load_tlds(tld_file))
    ]
    for inputs in ([], ["-"], [str(text_file), "-"]):
        assert "argument --tlds: - (standard input) is the input" in usage_error(
            capsys, "detect", "--tlds", "-", *inputs
        )


def test_bad_tlds_file_is_a_usage_error(capsys: pytest.CaptureFixture[str], text_file: Path, tmp_path: Path) -> None:
    err = usage_error(capsys, "linkify", "--tlds", str(tmp_path / "missing"), str(text_file))
    assert err.startswith("uts58 linkify: error: argument --tlds: ") and "No such file" in err
    bad = tmp_path / "bad.txt"
    bad.write_text("com\nexample.com\n", encoding="utf-8")
    assert "argument --tlds: " in usage_error(capsys, "detect", "--tlds", str(bad), str(text_file))
    bad.write_bytes(b"com\n\xff\n")
    assert "argument --tlds: " in usage_error(capsys, "detect", "--tlds", str(bad), str(text_file))


def linked(html: str) -> list[tuple[str, str]]:
    """(href, text) of the links uts58 wrote, per an independent HTML5 parser."""
    return without_marked_links(justhtml_dom(html), MARK)[1]


@pytest.mark.parametrize("policy", ["default", "strict", "none"])
def test_detect_policy_reports_what_linkify_links(
    capsys: pytest.CaptureFixture[str], text_file: Path, policy: str
) -> None:
    """D87: with --policy, detect leaves out what the policy refuses: its links are linkify's."""
    code, out, _ = run(capsys, "detect", "--json", "--policy", policy, str(text_file))
    found = [r["href"] for r in records(out)]
    policy_object = getattr(Policy, policy)()
    # (hrefs: linkify's text may differ, with its Bidi controls escaped by the policy)
    assert code == 0 and found == [href for href, _ in linked(linkify(TEXT, policy=policy_object, attrs={MARK: ""}))]
    code, marked, _ = run(capsys, "detect", "--policy", policy, str(text_file))
    assert marked.replace("⸠", "").replace("⸡", "") == TEXT and marked.count("⸠") == len(found)
    # Without --policy, every link detection finds (as before).
    code, every, _ = run(capsys, "detect", "--json", str(text_file))
    assert records(every) == [{"file": str(text_file), **link.as_dict()} for link in find_links(TEXT)]
    assert len(records(every)) > len(found) or policy == "none"


def test_linkify_attr(capsys: pytest.CaptureFixture[str], text_file: Path) -> None:
    attrs = {"rel": "nofollow ugc", "class": 'a"b&c', MARK: ""}
    argv = [f"--attr={name}={value}" for name, value in attrs.items()]
    code, out, err = run(capsys, "linkify", *argv, str(text_file))
    assert code == 0 and err == "" and out == linkify(TEXT, attrs=attrs)
    anchors = [node for node in justhtml_dom(out) if node[0] == "html" and node[1] == "a"]
    assert anchors and all(dict(a[2])["class"] == 'a"b&c' and dict(a[2])["rel"] == "nofollow ugc" for a in anchors)
    # A value may hold "=".
    code, out, _ = run(capsys, "linkify", "--attr", "title=a=b", str(text_file))
    assert out == linkify(TEXT, attrs={"title": "a=b"})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--attr", "rel"], "argument --attr: 'rel' is not NAME=VALUE"),
        (["--attr", "a b=c"], "argument --attr: 'a b' is not an attribute name"),
        (["--attr", "=c"], "argument --attr: '' is not an attribute name"),
        (["--attr", "href=/x"], "argument --attr: 'href' is not an attribute name"),
        (["--attr", "rel=a", "--attr", "REL=b"], "argument --attr: 'REL' given twice"),
        (["--attr", "rel=a", "--markdown"], "argument --attr: a Markdown link has no attributes"),
        (["--attr", "title=\udcff"], "argument --attr: 'title=\\udcff' is not UTF-8"),
        (["--html", "--markdown"], "argument --html: "),
        (["--schemes", "https,javascript"], "argument --schemes: ['javascript'] are never linked"),
        (["--schemes", "https,,ssh"], "argument --schemes: [''] are not URL schemes"),
        (["--schemes", "h t"], "argument --schemes: ['h t'] are not URL schemes"),
        (["--policy", "lax"], "argument --policy: invalid choice: 'lax'"),
        (["--only", "url"], "argument --only: invalid choice: 'url'"),
    ],
)
def test_bad_options_are_usage_errors_naming_them(
    capsys: pytest.CaptureFixture[str], text_file: Path, argv: list[str], message: str
) -> None:
    err = usage_error(capsys, "linkify", *argv, str(text_file))
    assert err.startswith("uts58 linkify: error: ") and message in err
    if "--attr" not in argv and "--html" not in argv:  # detect takes the detection options too
        err = usage_error(capsys, "detect", *argv, str(text_file))
        assert err.startswith("uts58 detect: error: ") and message in err


def test_library_errors_are_named_by_option(capsys: pytest.CaptureFixture[str], text_file: Path) -> None:
    """A library error from a combination the parser let through names the
    flag of its option (OptionError.option, _FLAG_OF), not a guess from its message."""
    parser = uts58.cli.main.build_parser()
    with pytest.raises(SystemExit):
        uts58.cli.main._usage_error(
            parser, uts58.OptionError("kinds must hold 'url' and/or 'email', not []", option="kinds")
        )
    assert "error: argument --only: kinds must hold" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        uts58.cli.main._usage_error(parser, uts58.OptionError("rel: whatever the message says", option="display"))
    assert "error: argument --truncate: rel: whatever" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        uts58.cli.main._usage_error(parser, ValueError("something else"))
    assert capsys.readouterr().err.endswith("error: something else\n")


def test_one_finder_per_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, tld_file: Path
) -> None:
    made: list[Finder] = []
    real = uts58.cli.main.Finder

    def counting(**options: Any) -> Finder:
        made.append(real(**options))
        return made[-1]

    monkeypatch.setattr(uts58.cli.main, "Finder", counting)
    paths = []
    for n in range(3):
        path = tmp_path / f"{n}.txt"
        path.write_text(TEXT * 20, encoding="utf-8")
        paths.append(str(path))
    flags = ["--schemes", "https,ssh", "--tlds", str(tld_file), "--bare-ipv4", "--policy", "strict"]
    assert main(["detect", "--json", "-j", "2", "--block-size", "2000", *flags, *paths]) == 0
    tlds = load_tlds(tld_file)
    assert made == [
        real(schemes={"https", "ssh"}, known_tlds=tlds, bare_ipv4=True, file_extensions=Policy.strict().file_extensions)
    ]
    made.clear()
    assert main(["linkify", "--only", "urls", *flags, *paths]) == 0
    assert made == [
        real(schemes={"https", "ssh"}, known_tlds=tlds, bare_ipv4=True, file_extensions=Policy.strict().file_extensions)
    ]
    capsys.readouterr()


@pytest.mark.parametrize(
    "flags",
    [
        ["--policy", "default"],
        ["--policy", "none", "--schemes", "https,ssh", "--bare-ipv4", "--single-label-hosts"],
        ["--only", "urls", "--require-scheme", "--policy", "strict"],
    ],
)
def test_jobs_do_not_change_the_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tld_file: Path, flags: list[str]
) -> None:
    big = tmp_path / "big.txt"
    big.write_text(TEXT * 60, encoding="utf-8")
    small = tmp_path / "small.txt"
    small.write_text(TEXT, encoding="utf-8")
    outputs = []
    for mode in ([], ["--json"], ["--json", "--offsets", "utf16"]):
        for jobs in ("1", "2"):
            code, out, _ = run(
                capsys,
                "detect",
                *mode,
                "-j",
                jobs,
                "--block-size",
                "3000",
                "--tlds",
                str(tld_file),
                *flags,
                str(big),
                str(small),
            )
            assert code == 0 and out
            outputs.append(out)
    assert outputs[0] == outputs[1] and outputs[2] == outputs[3] and outputs[4] == outputs[5]
    # One block or many: the same links.
    code, whole, _ = run(capsys, "detect", "--json", "--tlds", str(tld_file), *flags, str(big), str(small))
    assert whole == outputs[2]
    files = {r["file"] for r in records(whole)}
    assert files == {str(big), str(small)}


def test_json_always_names_the_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text_file: Path
) -> None:
    """D88: "file" is in every record: the name as given, "-" for standard input, named or not."""
    code, out, _ = run(capsys, "detect", "--json", str(text_file))
    assert {r["file"] for r in records(out)} == {str(text_file)}
    for name in ([], ["-"]):
        feed(monkeypatch, TEXT.encode())
        code, from_stdin, _ = run(capsys, "detect", "--json", *name)
        assert code == 0 and [r.pop("file") for r in records(from_stdin)] == ["-"] * len(records(out))
        assert [{**r, "file": "-"} for r in records(out)] == records(from_stdin)


def test_json_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    """A file name of bytes that are not UTF-8 is written as JSON escapes that give the name back."""
    name = os.fsdecode(b"caf\xe9.txt")
    (tmp_path / name).write_text("see example.com\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "uts58", "detect", "--json", name],
        cwd=tmp_path,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert done.returncode == 0 and done.stderr == b""
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert os.fsencode(record["file"]) == b"caf\xe9.txt" and record["text"] == "example.com"


HTML = (
    '<p title="see example.org and x@y.org">Docs at example.com/a and\n'
    "x@example.org</p><!-- example.net -->\n<pre>\nexample.net\n</pre>\n"
    '<ul>\n<li>one <a href="/">b.example.com</a> ssh://h.corp/x</li>\n<li>раураl.com and\n\n'
    "www.example.com/path?q=1&amp;r=2</li></ul>\n<script>var u = 'example.com';</script>\n"
)


@pytest.mark.parametrize(
    ("flags", "options"),
    [
        ([], {}),
        (["--policy", "none"], {"policy": Policy.none()}),
        (["--schemes", "https,ssh", "--single-label-hosts"], {"schemes": {"https", "ssh"}, "single_label_hosts": True}),
        (["--only", "emails"], {"kinds": ("email",)}),
    ],
)
def test_linkify_html(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    flags: list[str],
    options: dict[str, Any],
) -> None:
    f = tmp_path / "in.html"
    f.write_text(HTML, encoding="utf-8")
    code, out, err = run(capsys, "linkify", "--html", f"--attr={MARK}=", *flags, str(f))
    assert code == 0 and err == "" and out == linkify_html(HTML, attrs={MARK: ""}, **options)
    # Independently parsed: the DOM of the input plus links, and the links the API finds in the text.
    dom, links = without_marked_links(justhtml_dom(out), MARK)
    assert dom == justhtml_dom(HTML) and links
    # Standard input, read in pieces of a few bytes: the same (the input is one fragment, not cut).
    monkeypatch.setattr(uts58.cli.io, "READ_SIZE", 7)
    feed(monkeypatch, HTML.encode())
    code, from_stdin, _ = run(capsys, "linkify", "--html", f"--attr={MARK}=", *flags)
    assert from_stdin == out


def test_linkify_html_each_input_is_a_fragment(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An element left open in one file does not swallow the next (D88)."""
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    a.write_text("<pre>a.example.com\n", encoding="utf-8")
    b.write_text("<p>b.example.com</p>\n", encoding="utf-8")
    code, out, _ = run(capsys, "linkify", "--html", str(a), str(b))
    assert code == 0 and out == linkify_html(a.read_text()) + linkify_html(b.read_text())
    assert 'href="https://b.example.com/"' in out and 'href="https://a.example.com/"' not in out


def test_linkify_html_undecodable_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    good = tmp_path / "good.html"
    good.write_text("<p>example.com</p>", encoding="utf-8")
    bad = tmp_path / "bad.html"
    bad.write_bytes(b"<p>example.com</p>" * 100 + b"\xc3(")
    code, out, err = run(capsys, "linkify", "--html", str(good), str(bad))
    assert (
        code == 2
        and out == ""
        and err == f"uts58 linkify: {bad}: invalid UTF-8 at byte offset 1800 (invalid continuation byte)\n"
    )
    feed(monkeypatch, bad.read_bytes())
    code, out, err = run(capsys, "linkify", "--html")
    assert code == 2 and out == "" and "<stdin>: invalid UTF-8 at byte offset 1800" in err
    # -o: nothing written.
    target = tmp_path / "out.html"
    code, _, _ = run(capsys, "linkify", "--html", "-o", str(target), str(good), str(bad))
    assert code == 2 and not target.exists()
    # A surrogate encoded in UTF-8 is not UTF-8 either (no lone surrogate reaches the parser).
    bad.write_bytes(b"<p>example.com \xed\xa0\x80</p>")
    code, out, err = run(capsys, "linkify", "--html", str(bad))
    assert code == 2 and out == "" and "invalid UTF-8 at byte offset 15" in err
    # --errors replace reads U+FFFD, as the API would be given it.
    code, out, _ = run(capsys, "linkify", "--html", "--errors", "replace", str(bad))
    assert code == 0 and out == linkify_html(bad.read_bytes().decode("utf-8", "replace"))


@pytest.mark.parametrize(
    "hostile",
    [
        "<p>" + "a" * 300_000 + " example.com</p>",  # a huge line
        "<div>" * 2000 + "example.com" + "</div>" * 2000,  # deeper than browsers build
        "(" * 50_000 + "example.com" + ")" * 50_000,  # nested brackets
        "<p>\x00 example.com</p><p>\x00</p>",  # NULs
        "<b>" * 5000 + "x.com " * 5000,  # reconstructed formatting elements
    ],
)
def test_linkify_html_hostile(capsys: pytest.CaptureFixture[str], tmp_path: Path, hostile: str) -> None:
    f = tmp_path / "in.html"
    f.write_text(hostile, encoding="utf-8")
    code, out, err = run(capsys, "linkify", "--html", str(f))
    # The API's output; where it stopped linking (D133), the CLI says so on standard error.
    result = linkify_html_result(hostile)
    said = "" if result.unlinked is None else f"uts58 linkify: {f}: {result.unlinked.message(hostile)}\n"
    assert code == 0 and err == said and out == result.html
    if hostile.startswith("<div>"):
        assert result.unlinked == (510 * len("<div>"), "depth") and "line 1, column 2551" in err
    code, out, err = run(capsys, "detect", "--json", "--policy", "default", str(f))
    # The same text as plain text: detect --policy reports the links linkify writes.
    assert code == 0 and [(r["href"], r["text"]) for r in records(out)] == linked(linkify(hostile, attrs={MARK: ""}))


def test_linkify_html_scans_each_character_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Steps, not seconds (D38): detection scans at most the input's characters, however it is shaped,
    so doubling the input at most doubles the scanning."""
    scanned = []
    for n in (500, 1000, 2000):
        fragment = "".join(f"<p>see ((example.com/{i}) and x{i}@example.org\n</p>" for i in range(n))
        f = tmp_path / "in.html"
        f.write_text(fragment, encoding="utf-8")
        counts = count_scans(monkeypatch)
        code, out, _ = run(capsys, "linkify", "--html", "--policy", "strict", str(f))
        monkeypatch.undo()
        assert code == 0 and out.count("<a ") == 2 * n
        assert counts.chars <= len(fragment)
        scanned.append(counts.chars / len(fragment))
    assert scanned[2] <= scanned[0] * 1.01  # per character: flat as the input doubles


def test_detect_policy_scans_each_character_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text_file: Path
) -> None:
    counts = count_scans(monkeypatch)
    code, _, _ = run(capsys, "detect", "--policy", "default", "--block-size", "64", str(text_file))
    assert code == 0 and counts.chars == len(TEXT)
    feed(monkeypatch, TEXT.encode() * 3)
    monkeypatch.setattr(uts58.cli.io, "READ_SIZE", 5)
    counts.chars = 0
    code, _, _ = run(capsys, "detect", "--policy", "default")
    assert code == 0 and counts.chars == 3 * len(TEXT)


def test_help_lists_the_new_options(capsys: pytest.CaptureFixture[str]) -> None:
    for command, options in (
        ("detect", ["--schemes LIST", "--tlds FILE", "--policy", "--bare-ipv4", "--require-scheme"]),
        ("linkify", ["--schemes LIST", "--tlds FILE", "--attr NAME=VALUE", "--html", "--only"]),
    ):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert all(option in text for option in options)
    with pytest.raises(SystemExit):
        main(["detect", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "file (as given; - for standard input)" in text


@pytest.mark.parametrize(
    ("argv", "options"),
    [
        (["--rel", "nofollow ugc"], {"rel": "nofollow ugc"}),
        (["--target", "_blank"], {"target": "_blank"}),
        (
            ["--rel", "nofollow", "--target", "_blank", "--external-only", "--internal-host", "example.com"],
            {"rel": "nofollow", "target": "_blank", "external_only": True, "internal_hosts": ["example.com"]},
        ),
        (["--truncate", "12"], {"display": {"max_length": 12}}),
        (["--truncate", "14", "--truncate-location", "middle"], {"display": {"max_length": 14, "location": "middle"}}),
        (
            ["--truncate", "14", "--truncate-location", "smart", "--strip-prefix", "--strip-trailing-slash"],
            {
                "display": {
                    "max_length": 14,
                    "location": "smart",
                    "strip_scheme": True,
                    "strip_www": True,
                    "strip_trailing_slash": True,
                }
            },
        ),
        (["--strip-prefix"], {"display": {"strip_scheme": True, "strip_www": True}}),
        (["--truncate", "12", "--markdown"], {"display": {"max_length": 12}, "format": "markdown"}),
    ],
)
def test_link_presets_and_display_flags_are_linkifys_options(
    capsys: pytest.CaptureFixture[str], text_file: Path, argv: list[str], options: dict[str, Any]
) -> None:
    """(issue 13: --rel, --target, --external-only, --internal-host, --truncate…: D82, D83, D90.)"""
    code, out, err = run(capsys, "linkify", *argv, str(text_file))
    assert code == 0 and err == ""
    assert out == linkify(TEXT, **options)
    plain = linkify(TEXT, format=options.get("format", "html"))
    assert (out == plain) is False  # every flag changes something on this text


def test_truncate_keeps_every_href(capsys: pytest.CaptureFixture[str], text_file: Path) -> None:
    _, whole, _ = run(capsys, "linkify", str(text_file))
    _, short, _ = run(capsys, "linkify", "--truncate", "8", "--strip-prefix", str(text_file))
    hrefs = [dict(node[2])["href"] for node in justhtml_dom(whole) if node[0] == "html" and node[1] == "a"]
    shown = [node for node in justhtml_dom(short) if node[0] == "html" and node[1] == "a"]
    assert hrefs and [dict(node[2])["href"] for node in shown] == hrefs
    assert any("title" in dict(node[2]) for node in shown)


def test_html_input_takes_the_presets_and_display(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "in.html"
    html = "<p>see https://www.example.com/guide/2024/setup/install.html and <code>x.com</code> docs.example.com</p>"
    page.write_text(html, encoding="utf-8")
    argv = ["--html", "--truncate", "20", "--rel", "nofollow", "--external-only", "--internal-host", "example.com"]
    code, out, err = run(capsys, "linkify", *argv, str(page))
    expected = linkify_html(
        html, display={"max_length": 20}, rel="nofollow", external_only=True, internal_hosts=["example.com"]
    )
    assert code == 0 and err == "" and out == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--truncate", "0"], "argument --truncate: must be at least 1, not 0"),
        (["--truncate", "x"], "argument --truncate: 'x' is not a whole number"),
        (["--truncate-location", "middle"], "argument --truncate-location: needs --truncate N"),
        (["--external-only"], "argument --external-only: external_only: needs rel= or target="),
        (["--internal-host", "example.com", "--rel", "x"], "argument --internal-host: internal_hosts: needs"),
        (["--internal-host", "a b", "--rel", "x", "--external-only"], "argument --internal-host: internal_hosts:"),
        (["--rel", "x", "--markdown"], "argument --rel: rel: a Markdown link has no attributes"),
        (["--target", "_blank", "--attr", "target=x"], "argument --target: target is given twice"),
    ],
)
def test_bad_link_flags_are_usage_errors_naming_them(
    capsys: pytest.CaptureFixture[str], text_file: Path, argv: list[str], message: str
) -> None:
    err = usage_error(capsys, "linkify", *argv, str(text_file))
    assert err.startswith("uts58 linkify: error: ") and message in err


def test_linkify_html_documents_and_skip(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--html keeps a document whole (D109); --skip adds opt-out selectors to
    the defaults (D110); --html-as reads an input as a document or a fragment."""
    page = tmp_path / "page.html"
    text = (
        '<!DOCTYPE html>\n<html lang="de"><head><title>a.com</title></head>\n<body class=x>'
        "<p>a.com <span class=nl>b.com</span> <i class=no-linkify>c.com</i></p></body></html>\n<!-- end -->\n"
    )
    page.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "linkify", "--html", "--skip", ".nl", f"--attr={MARK}=", str(page))
    assert code == 0 and err == ""
    assert out == linkify_html(text, skip=(*DEFAULT_SKIP, ".nl"), attrs={MARK: ""})
    assert (
        out.count(MARK) == 1 and out.startswith('<!DOCTYPE html>\n<html lang="de">') and out.endswith("<!-- end -->\n")
    )
    frames = tmp_path / "frames.html"
    frames.write_text("<frameset> www.a.com/</frameset>", encoding="utf-8")
    for how, linked in (("auto", True), ("fragment", True), ("document", False)):
        code, out, _ = run(capsys, "linkify", "--html", "--html-as", how, str(frames))
        assert code == 0 and ("<a " in out) == linked, how
    for argv, message in (
        (["--html", "--skip", "[x"], "argument --skip: skip: '[x' is not a selector"),
        (["--skip", ".x"], "argument --skip: only with --html"),
        (["--html-as", "document"], "argument --html-as: only with --html"),
    ):
        with pytest.raises(SystemExit) as info:
            main(["linkify", *argv, str(page)])
        assert info.value.code == 2 and message in capsys.readouterr().err
