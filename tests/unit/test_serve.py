"""``uts58 serve`` (D129, D130): the playground's HTTP server and JSON API,
run on a free port in a thread and spoken to over real sockets — its answers
against the library's own, and every request it must refuse."""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import html5lib
import pytest
from conftest import playground_running

import uts58
import uts58.cli.playground as playground
import uts58.cli.serve as serve
from uts58 import Finder, Policy, check_link, find_links, format_email, format_url, linkify
from uts58.cli.main import build_parser, main
from uts58.cli.playground import LIMITS
from uts58.unicode.properties import DEFAULT_UNICODE_VERSION, available_versions

POLICIES = {"default": Policy.default, "strict": Policy.strict, "none": Policy.none}
TEXT = (
    "Docs https://example.com/guide?lang=ja#install, 日本語.jp/ガイド。 info@bücher.de, пример.рф/страница.\n"
    "زوروا موقع.مصر/صفحة — ดูที่ ไทย.ไทย/หน้า 🎉👍🏽 github.com/unicode-org/ раураl.com ssh://git.example.com/r "
    "192.168.0.1:8080/x localhost:8000/y http://intranet/wiki https://www.example.org/a/b/c/d/e/f/g/h/i/j "
    "詳細はexample.com/パス。次 helpers.py abcไทย.com see https://example.com/a\u2e60b next"
)


@pytest.fixture(scope="module")
def server() -> Iterator[serve.PlaygroundServer]:
    with playground_running() as running:
        yield running


def request(
    server: serve.PlaygroundServer,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 120,
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def post(server: serve.PlaygroundServer, path: str, payload: Any, **headers: str) -> tuple[int, dict[str, Any]]:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    status, got, data = request(
        server,
        "POST",
        path,
        body,
        {"Content-Type": "application/json", **{k.replace("_", "-"): v for k, v in headers.items()}},
    )
    assert got["content-type"] == "application/json" and got["cache-control"] == "no-store"
    assert b"Traceback" not in data
    answer: dict[str, Any] = json.loads(data)
    return status, answer


def library(text: str, options: dict[str, Any]) -> dict[str, Any]:
    """What the library itself gives for a request's options (its public API, called here)."""
    policy = POLICIES[options.get("policy", "default")]()
    detection: dict[str, Any] = {
        name: options[name]
        for name in ("schemes", "require_scheme", "bare_ipv4", "bare_localhost", "single_label_hosts", "cjk_prose")
        if name in options
    }
    detection["unicode_version"] = options.get("unicode_version", DEFAULT_UNICODE_VERSION)
    preset = options.get("preset")
    display: dict[str, Any] = {}
    if options.get("truncate") is not None:
        display = {"max_length": options["truncate"], "location": options.get("truncate_location", "end")}
    if options.get("strip_prefix"):
        display |= {"strip_scheme": True, "strip_www": True}
    finder = Finder.preset(preset, **detection) if preset else Finder(**detection)  # (whatever the policy, D65)
    links = list(find_links(text, finder))
    written = {"policy": policy, "display": display or None, **detection}
    if preset:
        written["preset"] = preset
    anchors = {(a.start, a.end): a for a in uts58.Linkifier(**written).anchors(text)}
    return {
        "links": [
            (
                link.start,
                link.end,
                len(text[: link.start].encode("utf-16-le", "surrogatepass")) // 2,
                len(text[: link.end].encode("utf-16-le", "surrogatepass")) // 2,
                link.kind,
                link.text,
                link.href,
                link.display,
                anchors[link.start, link.end].text if (link.start, link.end) in anchors else link.display,
                [reason.code for reason in check_link(link, policy)],
            )
            for link in links
        ],
        "html": linkify(text, **written),
        "markdown": linkify(text, format="markdown", **written),
    }


def served(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        "links": [
            (
                link["start"],
                link["end"],
                *link["utf16"],
                link["kind"],
                link["text"],
                link["href"],
                link["display"],
                link["shown"],
                [reason["code"] for reason in link["reasons"]],
            )
            for link in answer["links"]
        ],
        "html": answer["html"],
        "markdown": answer["markdown"],
    }


# Each option, with a value that changes what TEXT gives (so that it is seen to reach the Finder or the Linkifier).
OPTIONS: list[dict[str, Any]] = [
    {"schemes": ["http", "https", "ssh"]},
    {"require_scheme": True},
    {"unicode_version": "17.0.0"},
    {"policy": "strict"},
    {"policy": "none"},
    {"preset": "gfm"},
    {"preset": "all"},
    {"truncate": 12},
    {"truncate": 20, "truncate_location": "middle"},
    {"truncate": 20, "truncate_location": "smart"},
    {"strip_prefix": True},
    {"bare_ipv4": True},
    {"bare_localhost": True},
    {"single_label_hosts": True},
    {"cjk_prose": True},
]


def test_default_bind_is_loopback_and_the_cli_parses() -> None:
    server = serve.make_server(port=0)
    try:
        assert server.server_address[0] == "127.0.0.1" and server.loopback and server.port > 0
    finally:
        server.server_close()
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.quiet) == ("127.0.0.1", 8058, False)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "0", "-q"])
    assert (args.host, args.port, args.quiet) == ("0.0.0.0", 0, True)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--port", "eighty"])


def test_cli_refuses_a_port_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "port must be from 0 to 65535, not 70000" in capsys.readouterr().err


def _start(*argv: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "uts58", "serve", "--port", "0", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline() if process.stdout else ""
    return process, line


@pytest.mark.parametrize(("argv", "warned"), [((), False), (("--host", "0.0.0.0"), True)])
def test_cli_prints_the_url_serves_and_stops_on_ctrl_c(argv: tuple[str, ...], warned: bool) -> None:
    process, line = _start(*argv)
    try:
        assert line.startswith("uts58 playground at http://") and line.endswith("/ (Ctrl-C stops)\n"), line
        url = line.split()[3]
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/")
        response = connection.getresponse()
        assert response.status == 200 and b"uts58 playground" in response.read()
        connection.close()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        err = process.stderr.read() if process.stderr else ""
        assert err.endswith("uts58 serve: stopped\n")
        assert ("other machines can reach" in err) == warned
        assert ("listening on all interfaces (0.0.0.0)" in err) == warned
        assert url == f"http://127.0.0.1:{port}/"  # (a browser opens it; not http://0.0.0.0:P/)
    finally:
        process.kill()
        process.wait(30)


def test_the_page_its_headers_and_no_inline_script(server: serve.PlaygroundServer) -> None:
    status, headers, body = request(server, "GET", "/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self';" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe" not in csp and "http" not in csp  # nothing inline, nothing from elsewhere
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-store"
    document = html5lib.parse(body, namespaceHTMLElements=False)
    scripts = document.findall(".//script")
    assert [s.get("src") for s in scripts] == ["/playground.js"] and not (scripts[0].text or "").strip()
    assert document.findall(".//style") == [] and not [e for e in document.iter() if e.get("style") is not None]
    assert not [e for e in document.iter() for name in e.keys() if name.startswith("on")]
    assert [e.get("href") for e in document.findall(".//link")] == ["/playground.css", "/favicon.svg"]
    for resource in ("/playground.js", "/playground.css", "/preview.css", "/favicon.svg"):
        status, headers, data = request(server, "GET", resource)
        assert status == 200 and data and headers["x-content-type-options"] == "nosniff", resource
    _, _, script = request(server, "GET", "/playground.js")
    for unsafe in (b"innerHTML", b"outerHTML", b"insertAdjacentHTML", b"document.write", b"eval(", b"Function("):
        assert unsafe not in script, unsafe  # (the values the server sends are written as text, D129)


@pytest.mark.parametrize(
    "options", [{}, *OPTIONS], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
def test_every_option_reaches_the_library(server: serve.PlaygroundServer, options: dict[str, Any]) -> None:
    status, answer = post(server, "/api/links", {"text": TEXT, **options})
    assert status == 200, answer
    got, expected = served(answer), library(TEXT, options)
    assert got == expected
    if options:
        assert got != library(TEXT, {}), "the option changed nothing: the test cannot tell whether it was read"
    for link in answer["links"]:
        assert link["linked"] == (link["reasons"] == [])


def test_offsets_are_utf16_for_astral_text_and_lone_surrogates(server: serve.PlaygroundServer) -> None:
    text = "👍🏽\ud800 見て 𠀀.example.com/𝒳 and x@bücher.de"
    status, answer = post(server, "/api/links", {"text": text})
    assert status == 200
    units = text.encode("utf-16-le", "surrogatepass")
    assert [
        units[2 * a : 2 * b].decode("utf-16-le", "surrogatepass")
        for a, b in (link["utf16"] for link in answer["links"])
    ] == [link.text for link in find_links(text)]
    assert answer["utf16_length"] == len(units) // 2


def test_format_box(server: serve.PlaygroundServer) -> None:
    url = "https://xn--bcher-kva.de/stra%C3%9Fe?q=%E2%82%AC"
    assert post(server, "/api/format", {"input": url}) == (
        200,
        {"kind": "url", "minimal": format_url(url), "maximal": format_url(url, escape="maximal")},
    )
    assert post(server, "/api/format", {"input": "x@xn--bcher-kva.de", "unicode_version": "17.0.0"}) == (
        200,
        {"kind": "email", "minimal": format_email("x@xn--bcher-kva.de", unicode_version="17.0.0")},
    )
    status, answer = post(server, "/api/format", {"input": "javascript:alert(1)"})
    assert status == 200 and "javascript" in answer["error"] and "minimal" not in answer


def test_settings(server: serve.PlaygroundServer) -> None:
    status, _, body = request(server, "GET", "/api/settings")
    settings = json.loads(body)
    assert status == 200 and settings["choices"]["unicode_version"] == list(available_versions())
    assert settings["choices"]["policy"] == list(POLICIES) and settings["limits"] == LIMITS
    assert settings["defaults"]["unicode_version"] == DEFAULT_UNICODE_VERSION


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"text": 1}, "text"),
        ({}, "text"),
        ({"text": "x", "schemes": "http"}, "schemes"),
        ({"text": "x", "schemes": [1]}, "schemes"),
        ({"text": "x", "schemes": ["javascript"]}, "schemes"),
        ({"text": "x", "schemes": ["no scheme"]}, "schemes"),
        ({"text": "x", "schemes": ["s"] * 33}, "schemes"),
        ({"text": "x", "require_scheme": "yes"}, "require_scheme"),
        ({"text": "x", "require_scheme": 1}, "require_scheme"),
        ({"text": "x", "unicode_version": 17}, "unicode_version"),
        ({"text": "x", "unicode_version": "99.0.0"}, "unicode_version"),
        ({"text": "x", "policy": "lax"}, "policy"),
        ({"text": "x", "policy": ["default"]}, "policy"),
        ({"text": "x", "preset": 3}, "preset"),
        ({"text": "x", "truncate": True}, "truncate"),
        ({"text": "x", "truncate": 0}, "truncate"),
        ({"text": "x", "truncate": 1.5}, "truncate"),
        ({"text": "x", "truncate": 10**6}, "truncate"),
        ({"text": "x", "truncate_location": "left"}, "truncate_location"),
        ({"text": "x", "strip_prefix": None}, "strip_prefix"),
        ({"text": "x", "cjk_prose": "true"}, "cjk_prose"),
        ({"text": "x", "colour": "red"}, "colour"),
        ({"text": "x" * (LIMITS["text_chars"] + 1)}, "text"),
    ],
)
def test_a_bad_field_is_a_400_naming_it(server: serve.PlaygroundServer, payload: dict[str, Any], field: str) -> None:
    status, answer = post(server, "/api/links", payload)
    assert status == 400 and answer["field"] == field and field in answer["error"], answer


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"text": "x"', "not JSON"),
        (b"[" * 200_000, "not JSON"),
        (b'{"text": NaN}', "not JSON"),
        (b'{"text": "x", "text": "y"}', "given twice"),
        (b'{"text": "x", "truncate": ' + b"9" * 5000 + b"}", "not JSON"),
        (b'["text"]', "JSON object"),
        (b'"text"', "JSON object"),
        (b'{"text": "\xff"}', "not UTF-8"),
        (b"\xfe\xff\x00{\x00}", "not UTF-8"),  # (UTF-16, which json.loads of bytes would take)
    ],
)
def test_a_bad_body_is_a_400(server: serve.PlaygroundServer, body: bytes, says: str) -> None:
    status, answer = post(server, "/api/links", body)
    assert status == 400 and says in answer["error"], answer


def test_oversize_bodies_are_refused(server: serve.PlaygroundServer) -> None:
    big = json.dumps({"text": "a.io " * (LIMITS["body_bytes"] // 5)}).encode()
    assert len(big) > LIMITS["body_bytes"]
    status, answer = post(server, "/api/links", big)
    assert status == 413 and "262,144" in answer["error"]
    # A Content-Length over the limit is refused before any of the body is read.
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(
            f"POST /api/links HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {10**11}\r\n\r\n".encode()
        )
        assert s.recv(4096).startswith(b"HTTP/1.0 413 ")


def test_the_largest_hostile_request_is_answered(server: serve.PlaygroundServer) -> None:
    """The most links a request can hold (a link every five characters, the
    whole text limit): answered, every link reported, within the generous
    time the client allows (the work is linear in the text, D130)."""
    text = ("a.io " * (LIMITS["text_chars"] // 5))[: LIMITS["text_chars"]]
    status, answer = post(server, "/api/links", {"text": text, "truncate": 3, "policy": "strict"})
    assert status == 200
    assert len(answer["links"]) == len(list(find_links(text))) == LIMITS["text_chars"] // 5
    assert answer["html"] == linkify(text, policy=Policy.strict(), display={"max_length": 3, "location": "end"})
    dense = ("https://" + "x." * 30 + "example.com/(" + "[" * 40 + ") ") * 1000
    status, answer = post(server, "/api/links", {"text": dense[: LIMITS["text_chars"]]})
    assert status == 200 and len(answer["links"]) == len(list(find_links(dense[: LIMITS["text_chars"]])))


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:{port}", True),
        ("localhost:{port}", True),
        ("LOCALHOST:{port}", True),
        ("[::1]:{port}", True),
        ("evil.example:{port}", False),  # DNS rebinding: a name that resolves to 127.0.0.1
        ("127.0.0.1.nip.io:{port}", False),
        ("127.0.0.1:{other}", False),
        ("127.0.0.1", False),
        ("::1:{port}", False),
        ("", False),
    ],
)
def test_the_host_header_must_name_this_server(server: serve.PlaygroundServer, host: str, allowed: bool) -> None:
    value = host.format(port=server.port, other=server.port + 1)
    for method, body in (("GET", None), ("POST", b'{"text": "example.com"}')):
        status, _, data = request(
            server, method, "/api/links" if body else "/", body, {"Host": value, "Content-Type": "application/json"}
        )
        assert (status != 421) == allowed, (method, value, status, data)
        if allowed:
            assert status == 200


def test_no_host_header_is_refused(server: serve.PlaygroundServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.0 421 ")


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Origin": "http://127.0.0.1:1"}, 403),
        ({"Origin": "https://127.0.0.1:{port}"}, 403),
        ({"Sec-Fetch-Site": "cross-site"}, 403),
        ({"Sec-Fetch-Site": "same-site"}, 403),
        ({"Origin": "http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}, 200),
        ({}, 200),  # (curl, scripts: no browser sends a POST without an Origin)
        ({"Content-Type": "text/plain"}, 415),  # (what a form or a "simple" cross-site fetch can send)
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({"Content-Type": "application/json; charset=latin-1"}, 415),
        ({"Content-Type": "application/json; charset=utf-8"}, 200),
    ],
)
def test_other_origins_and_content_types_are_refused(
    server: serve.PlaygroundServer, headers: dict[str, str], status: int
) -> None:
    sent = {"Content-Type": "application/json", **{k: v.format(port=server.port) for k, v in headers.items()}}
    got, answer_headers, data = request(server, "POST", "/api/links", b'{"text": "example.com"}', sent)
    assert got == status, data
    assert "access-control-allow-origin" not in answer_headers


def test_other_methods_paths_and_garbage(server: serve.PlaygroundServer) -> None:
    for method in ("PUT", "DELETE", "OPTIONS", "PATCH"):
        status, headers, data = request(server, method, "/api/links", b"{}")
        assert status == 501 and headers["content-type"] == "application/json" and b"<" not in data
        assert "access-control-allow-origin" not in headers
    assert request(server, "GET", "/etc/passwd")[0] == 404
    assert request(server, "GET", "/../serve.py")[0] == 404
    assert request(server, "POST", "/api/nothing", b"{}", {"Content-Type": "application/json"})[0] == 404
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(b"\x16\x03\x01 garbage <script>\r\n\r\n")
        answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.0 400 ") and b"<script>" not in answer and b"Traceback" not in answer
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:  # no Content-Length
        s.sendall(
            f"POST /api/links HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n".encode()
        )
        assert s.recv(4096).startswith(b"HTTP/1.0 411 ")


def test_a_bug_is_a_500_without_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(request: Any) -> dict[str, Any]:
        raise RuntimeError("secret detail /home/user")

    monkeypatch.setitem(playground.API, "/api/links", broken)
    running = serve.make_server(port=0)
    threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        status, answer = post(running, "/api/links", {"text": "x"})
        assert status == 500 and "secret" not in json.dumps(answer) and running.failures == 1
    finally:
        running.shutdown()
        running.server_close()


def test_a_slow_client_is_cut_off_and_others_are_served() -> None:
    running = serve.make_server(port=0)
    running.socket_timeout = 0.5
    threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        with socket.create_connection(("127.0.0.1", running.port), timeout=30) as slow:
            slow.sendall(
                f"POST /api/links HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\nContent-Type: application/json\r\n"
                'Content-Length: 100\r\n\r\n{"text": '.encode()
            )
            assert post(running, "/api/links", {"text": "example.com"})[0] == 200  # (meanwhile)
            started = time.monotonic()
            assert slow.recv(4096).startswith(b"HTTP/1.0 408 ")
            assert time.monotonic() - started < 25
        with socket.create_connection(("127.0.0.1", running.port), timeout=30) as silent:  # not even a request line
            assert silent.recv(4096) == b""
    finally:
        running.shutdown()
        running.server_close()


def test_a_busy_server_says_so(monkeypatch: pytest.MonkeyPatch, server: serve.PlaygroundServer) -> None:
    monkeypatch.setattr(server, "busy_wait", 0.1)
    for _ in range(serve.SLOTS):
        assert server.slots.acquire(timeout=5)
    try:
        # A small request takes the quick slot (D135); a large one waits, then 503.
        assert post(server, "/api/links", {"text": "x"})[0] == 200
        status, answer = post(server, "/api/links", {"text": "x" * serve.QUICK_BODY})
        assert status == 503 and "busy" in answer["error"]
        assert server.quick.acquire(timeout=5)
        try:
            status, answer = post(server, "/api/links", {"text": "x"})
            assert status == 503 and "busy" in answer["error"]
        finally:
            server.quick.release()
    finally:
        for _ in range(serve.SLOTS):
            server.slots.release()
    assert post(server, "/api/links", {"text": "x"})[0] == 200


def raw(server: serve.PlaygroundServer, data: bytes) -> bytes:
    """What the server answers ``data`` sent on a socket of its own, read to the end."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(data)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def closed(connection: socket.socket) -> bool:
    """Whether the server has closed ``connection`` without a word."""
    try:
        return connection.recv(4096) == b""
    except ConnectionResetError:
        return True


def test_control_characters_of_a_request_are_escaped_in_the_log() -> None:
    log = io.StringIO()
    with playground_running(log) as running:
        host = f"Host: 127.0.0.1:{running.port}\r\n".encode()
        # An OSC setting the terminal's title, an SGR colour, DEL, a C1 CSI (0x9b); a lone CR.
        hostile = b"/\x1b]0;PWNED\x07\x1b[31mred\x7f\x9b2J"
        assert raw(running, b"GET " + hostile + b" HTTP/1.1\r\n" + host + b"\r\n").startswith(b"HTTP/1.0 404 ")
        assert raw(running, b"GET " + hostile + b"\rmore HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.0 400 ")
    written = log.getvalue()
    assert written.count("\n") == 2, written  # (the 404, the 400)
    assert not [c for c in written if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0], written
    assert written.count("/\\x1b]0;PWNED\\x07\\x1b[31mred\\x7f\\x9b2J") == 2, written
    assert written.count("2J\\x0dmore HTTP/1.1") == 1, written  # (the 400's request line, as http.server logs it)


@pytest.mark.parametrize(
    ("length", "status"),
    [
        (b"\xb2", 400),  # superscript two: str.isdigit() is true of it
        (b"\xb9\xb2", 400),
        (b"+17", 400),
        (b"-17", 400),
        (b"17, 17", 400),
        (b"0x11", 400),
        (b"1_7", 400),
        (b"", 400),
        (b" 17\t", 200),
        (b"0" * 30 + b"17", 200),
        (b"9" * 13, 413),
        (b"9" * 60_000, 413),  # (not converted: int() of so many digits is slow, or refused)
        (None, 411),
    ],
)
def test_the_content_length_is_ascii_digits(server: serve.PlaygroundServer, length: bytes | None, status: int) -> None:
    body = b'{"text": "a.io"} '
    assert len(body) == 17
    head = (
        f"POST /api/links HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n".encode()
        + (b"" if length is None else b"Content-Length: " + length + b"\r\n")
    )
    answer = raw(server, head + b"\r\n" + body)
    assert answer.startswith(f"HTTP/1.0 {status} ".encode()), answer[:200]
    data = json.loads(answer.partition(b"\r\n\r\n")[2])
    assert ("links" in data) == (status == 200) and b"Traceback" not in answer


def _trickle(connection: socket.socket, stop: threading.Event) -> None:
    with contextlib.suppress(OSError):
        while not stop.wait(0.1):
            connection.sendall(b" ")


def test_the_body_deadline_holds_whatever_each_read_waits() -> None:
    """The body arrives within body_deadline in all: a read waits no longer
    than the time left, so a client that stalls, or trickles a byte at a
    time (each read well within the socket's timeout), is cut off then."""
    with playground_running(socket_timeout=8.0, body_deadline=0.6) as running:
        head = (
            f"POST /api/links HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n"
        ).encode()
        for trickle in (False, True):
            with socket.create_connection(("127.0.0.1", running.port), timeout=30) as slow:
                slow.sendall(head + b"{")
                started_at = time.monotonic()
                stop = threading.Event()
                if trickle:
                    threading.Thread(target=_trickle, args=(slow, stop), daemon=True).start()
                try:
                    assert slow.recv(4096).startswith(b"HTTP/1.0 408 ")
                finally:
                    stop.set()
                assert 0.5 < time.monotonic() - started_at < 4, trickle  # (not the socket's 8 s)
        assert post(running, "/api/links", {"text": "example.com"})[0] == 200


def test_a_slow_body_holds_no_slot_of_work() -> None:
    """A body is read before the request takes one of the SLOTS: as many
    clients sending their bodies slowly as there are slots leave the server
    free to answer others (it only waits busy_wait for a slot)."""
    with playground_running(body_deadline=30.0, busy_wait=0.2) as running:
        head = (
            f"POST /api/links HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{"
        ).encode()
        slow = [socket.create_connection(("127.0.0.1", running.port), timeout=30) for _ in range(serve.SLOTS + 1)]
        try:
            for connection in slow:
                connection.sendall(head)
            deadline = time.monotonic() + 20
            while running.connections < len(slow) and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.3)  # (the slow requests' threads are reading their bodies by now)
            assert post(running, "/api/links", {"text": "example.com"})[0] == 200
        finally:
            for connection in slow:
                connection.close()


def test_the_head_has_a_deadline_in_all() -> None:
    """A client sending a header line now and then, each within the socket's
    timeout, is cut off when head_deadline has passed since it connected."""
    with playground_running(socket_timeout=8.0, head_deadline=0.6) as running:
        with socket.create_connection(("127.0.0.1", running.port), timeout=30) as slow:
            stop = threading.Event()

            def send() -> None:
                with contextlib.suppress(OSError):
                    slow.sendall(b"GET / HTTP/1.1\r\n")
                    while not stop.wait(0.1):
                        slow.sendall(b"X-Slow: 1\r\n")

            threading.Thread(target=send, daemon=True).start()
            started_at = time.monotonic()
            try:
                assert closed(slow)
            finally:
                stop.set()
            assert 0.5 < time.monotonic() - started_at < 4
        assert request(running, "GET", "/")[0] == 200


def test_the_connections_open_at_once_are_bounded() -> None:
    """Over the limit, with no connection stalled (D135: none has waited
    `stalled` seconds), a new connection is answered 503 and closed at once."""
    with playground_running(max_connections=2, head_deadline=60.0, stalled=60.0) as running:
        idle = [socket.create_connection(("127.0.0.1", running.port), timeout=30) for _ in range(2)]
        try:
            deadline = time.monotonic() + 20
            while running.connections < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert running.connections == 2
            with socket.create_connection(("127.0.0.1", running.port), timeout=30) as third:
                started_at = time.monotonic()
                busy = third.recv(4096)
                assert busy.startswith(b"HTTP/1.1 503 ") and b"Retry-After: 1" in busy
                assert b"Content-Security-Policy: " in busy and busy.endswith(b'try again"}')
                assert closed(third) and time.monotonic() - started_at < 2  # (at once: not at the head's deadline)
            idle.pop().close()
            while running.connections > 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert request(running, "GET", "/")[0] == 200
        finally:
            for connection in idle:
                connection.close()


def test_a_server_on_every_interface_gives_a_loopback_url() -> None:
    running = serve.make_server("0.0.0.0", 0)
    try:
        assert running.everywhere and not running.loopback
        assert running.url == f"http://127.0.0.1:{running.port}/"
    finally:
        running.server_close()
    try:
        running = serve.make_server("::", 0)
    except OSError as exc:
        pytest.skip(f"this machine cannot listen on IPv6 ({exc})")
    try:
        assert running.everywhere and running.url == f"http://[::1]:{running.port}/"
    finally:
        running.server_close()
    running = serve.make_server(port=0)
    try:
        assert not running.everywhere and running.url == f"http://127.0.0.1:{running.port}/"
    finally:
        running.server_close()


def test_the_footer_names_the_host_the_page_came_from(server: serve.PlaygroundServer) -> None:
    _, _, script = request(server, "GET", "/playground.js")
    assert b"Served from ${location.host} by" in script and b"127.0.0.1" not in script


@pytest.mark.parametrize("name", ["Host", "Content-Length"])
def test_a_header_given_twice_is_a_400(server: serve.PlaygroundServer, name: str) -> None:
    body = b'{"text": "a.io"}'
    host = f"Host: 127.0.0.1:{server.port}\r\n".encode()
    length = f"Content-Length: {len(body)}\r\n".encode()
    twice = {"Host": host, "Content-Length": length}[name]
    head = b"POST /api/links HTTP/1.1\r\n" + host + length + twice + b"Content-Type: application/json\r\n\r\n"
    answer = raw(server, head + body)
    assert answer.startswith(b"HTTP/1.0 400 ") and f"the {name} header is given more than once".encode() in answer
    assert raw(server, head.replace(twice, b"", 1) + body).startswith(b"HTTP/1.0 200 ")  # (once: answered)


@pytest.mark.parametrize(
    ("target", "host", "status"),
    [
        ("http://127.0.0.1:{port}/api/links", "127.0.0.1:{port}", 200),
        ("HTTP://localhost:{port}/api/links?x=1", None, 200),
        ("http://[::1]:{port}/api/links", "evil.example:{port}", 200),  # (RFC 9112 §3.2.2: Host is ignored)
        ("http://evil.example:{port}/api/links", "127.0.0.1:{port}", 421),
        ("http://127.0.0.1:{other}/api/links", "127.0.0.1:{port}", 421),
        ("https://127.0.0.1:{port}/api/links", "127.0.0.1:{port}", 400),
        ("http://user@127.0.0.1:{port}/api/links", "127.0.0.1:{port}", 400),
        ("http:///api/links", "127.0.0.1:{port}", 400),
        ("api/links", "127.0.0.1:{port}", 400),
        ("*", "127.0.0.1:{port}", 400),
    ],
)
def test_an_absolute_form_target_is_checked_as_a_host(
    server: serve.PlaygroundServer, target: str, host: str | None, status: int
) -> None:
    body = b'{"text": "see a.io"}'
    line = f"POST {target} HTTP/1.1\r\n" + (f"Host: {host}\r\n" if host else "")
    head = line.format(port=server.port, other=server.port + 1) + (
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    answer = raw(server, head.encode() + body)
    assert answer.startswith(f"HTTP/1.0 {status} ".encode()), answer[:300]
    data = json.loads(answer.partition(b"\r\n\r\n")[2])
    assert (status != 200) or [link["text"] for link in data["links"]] == ["a.io"]
    if status == 200:  # the page, too, and an Origin is compared with the target's authority
        page = raw(server, f"GET http://127.0.0.1:{server.port}?x HTTP/1.1\r\n\r\n".encode())
        assert page.startswith(b"HTTP/1.0 200 ") and b"uts58 playground" in page
        origin = f"Origin: http://127.0.0.1:{server.port}\r\n".encode()
        absolute = f"POST http://127.0.0.1:{server.port}/api/links HTTP/1.1\r\n".encode()
        rest = f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
        assert raw(server, absolute + origin + rest).startswith(b"HTTP/1.0 200 ")
        assert raw(server, absolute + origin.replace(b"127.0.0.1", b"evil.example") + rest).startswith(b"HTTP/1.0 403 ")


def test_small_protocol_faults() -> None:
    """Issue 36's small findings: a missing field is named as missing; a
    space before a header's colon is a 400 (RFC 9112 §5.1), white space
    around the Host value is not part of it; HTTP/0.9 gets a 505 with the
    status line and every security header (before: a bare JSON body)."""
    with playground_running() as running:
        assert post(running, "/api/links", {}) == (
            400,
            {"error": "text is missing: the request must give it (a string)", "field": "text"},
        )
        assert post(running, "/api/format", {})[1]["error"].startswith("input is missing")
        host = f"127.0.0.1:{running.port}"
        spaced = raw(running, f"GET / HTTP/1.1\r\nHost : {host}\r\n\r\n".encode())
        assert spaced.startswith(b"HTTP/1.0 400 ") and b"white space" in spaced
        trailing = raw(running, f"GET / HTTP/1.1\r\nHost: {host} \t\r\n\r\n".encode())
        assert trailing.startswith(b"HTTP/1.0 200 ")
        old = raw(running, b"GET /\r\n\r\n")
        assert old.startswith(b"HTTP/1.0 505 ")
        head, _, body = old.partition(b"\r\n\r\n")
        for name in serve._HEADERS:
            assert f"\r\n{name}: ".encode() in head
        assert json.loads(body) == {"error": "HTTP/0.9 is not supported: send HTTP/1.0 or HTTP/1.1"}
