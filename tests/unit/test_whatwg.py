"""uts58.hosts.whatwg, the one module that calls ada-url: parsing and splitting
special URLs, their display tails, IDNA, IP hosts, and the check of ada's C
API.  Every test runs with the C kernels (ada through its C API) and with
the Python ones (ada through its Python functions)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import tomllib

from uts58 import kernels as _kernels
from uts58.hosts import whatwg
from uts58.hosts.whatwg import Components, Display, parse_display, parse_special, parse_special_href
from uts58.unicode.properties import link_properties

pytestmark = pytest.mark.usefixtures("kernel_mode")

ROOT = Path(__file__).resolve().parents[2]


def test_parse_special_splits_the_serialization() -> None:
    c = parse_special("HTTPS://user:pw@Bücher.de:8443/a/../b c?q=1#f:~:text=x")
    assert c == Components(
        "https://user:pw@xn--bcher-kva.de:8443/b%20c?q=1#f:~:text=x",
        "https",
        "user:pw",
        "xn--bcher-kva.de",
        "8443",
        "/b%20c",
        "q=1",
        "f:~:text=x",
    )
    assert c.href == parse_special_href(c.href).href  # type: ignore[union-attr]
    assert parse_special("https://[::1]/") == Components(
        "https://[::1]/", "https", None, "[::1]", None, "/", None, None
    )
    assert parse_special("https://example.com?") is not None and parse_special("https://example.com?").query == ""  # type: ignore[union-attr]
    assert parse_special("https://exa mple.com/") is None
    assert parse_special("") is None


def test_parse_display_gives_the_tail_for_people() -> None:
    props = link_properties()
    d = parse_display("https://example.com/%E3%81%82)?q=%C3%A9.#%F0%9F%98%80", False, props)
    assert d == Display(
        "https://example.com/%E3%81%82)?q=%C3%A9.#%F0%9F%98%80", "https", None, "example.com", None, "/あ%29?q=é.#😀"
    )
    # keep_root: a path that is only "/" is shown only when asked
    assert parse_display("https://example.com/?q", False, props).tail == "?q"  # type: ignore[union-attr]
    assert parse_display("https://example.com/?q", True, props).tail == "/?q"  # type: ignore[union-attr]
    assert parse_display("https://exa mple.com/", True, props) is None


def test_normalize_and_is_valid_for_any_scheme() -> None:
    assert whatwg.normalize("SSH://git@Example.com/x.git") == "ssh://git@Example.com/x.git"
    assert whatwg.normalize("http://exa mple.com") is None
    assert whatwg.is_valid("tel:+15551234") and not whatwg.is_valid("http://[::1")


def test_idna_and_ip_hosts() -> None:
    assert whatwg.idna_to_ascii("Bücher.DE") == "xn--bcher-kva.de"
    assert whatwg.idna_to_unicode("xn--bcher-kva.de") == "bücher.de"
    assert whatwg.idna_to_unicode("xn--zz") == "xn--zz"  # not decodable: kept
    assert whatwg.ip_host("0x7f.1") == "127.0.0.1"
    assert whatwg.ip_host("[0:0::1]") == "[::1]"
    assert whatwg.ip_host("example.com") is None and whatwg.ip_host("a b") is None


def test_ada_status_says_why() -> None:
    status = whatwg.ada_status()
    if _kernels.accelerated():
        assert status == "on"
    else:
        assert status == "off: the C accelerator is not in use"


def test_a_changed_c_api_is_refused_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    # If ada-url changed a signature or a struct, the accelerator must not
    # call it: the check fails and says what differs.
    monkeypatch.setitem(whatwg._SIGNATURES, "ada_free", "int(*)(void *)")
    addresses, why = whatwg._check_c_api()
    assert addresses is None and "ada_free is void(*)(void *), not int(*)(void *)" in why
    monkeypatch.setitem(whatwg._STRUCTS, "ada_string", [("data", "char *")])
    monkeypatch.setitem(whatwg._SIGNATURES, "ada_free", "void(*)(void *)")
    addresses, why = whatwg._check_c_api()
    assert addresses is None and "struct ada_string" in why


def test_installed_ada_url_is_in_the_declared_range() -> None:
    declared = next(
        d
        for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
        if d.startswith("ada-url")
    )
    low, high = re.fullmatch(r"ada-url>=([0-9.]+),<([0-9]+)", declared).groups()  # type: ignore[union-attr]
    installed = tuple(int(x) for x in whatwg.ada_version().split(".")[:2])
    assert tuple(int(x) for x in low.split(".")) <= installed < (int(high),)


def test_only_whatwg_imports_ada_url() -> None:
    # The one adapter: no other module of the package imports ada_url.
    importers = []
    package = ROOT / "src" / "uts58"
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n.split(".")[0] == "ada_url" for n in names):
                importers.append(".".join(path.relative_to(package).with_suffix("").parts))
    assert sorted(set(importers)) == ["hosts.whatwg"]


def test_version_report_in_both_modes() -> None:
    from uts58.cli.main import version_report

    report = version_report()
    assert report.startswith("uts58 ") and f"ada-url: {whatwg.ada_version()}" in report
    assert f"accelerator: {_kernels.status()}\n" in report and f"ada C API: {whatwg.ada_status()}\n" in report
