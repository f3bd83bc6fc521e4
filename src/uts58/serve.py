"""``uts58 serve``: the playground page on a local HTTP server (D129, D130).

The standard library's ``http.server.ThreadingHTTPServer``, bound to
127.0.0.1 unless ``--host`` asks for another interface.  It serves the page
(``uts58._serve_page``) and a JSON API, ``POST /api/links`` and
``POST /api/format`` (:mod:`uts58.playground`), and guards them from other
web pages the browser has open: the Host header must name this server by an
IP address, ``localhost`` or the host it was started with (DNS rebinding),
a POST must come from the page's own origin with a JSON body, and every
answer carries a strict Content-Security-Policy.  A body is at most 256 KiB
and read within a deadline; the text it holds bounds the work, which is
linear in it (D130).

:func:`answer` is the API without HTTP:

>>> status, data = answer("/api/links", '{"text": "see bücher.de"}'.encode())
>>> status, [link["href"] for link in data["links"]]
(200, ['https://xn--bcher-kva.de/'])
>>> answer("/api/links", b'{"text": "x", "schemes": "http"}')
(400, {'error': 'schemes must be an array of strings, not a string', 'field': 'schemes'})
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import socket
import socketserver
import sys
import threading
import time
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TextIO

from . import __version__
from ._cli_io import CLIError
from ._serve_page import FILES, SAMPLE
from .errors import OptionError
from .playground import DEFAULT_HOST, DEFAULT_PORT, LIMITS, analyze, format_address, settings

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "PlaygroundServer", "answer", "host_allowed", "make_server"]

MAX_BODY = LIMITS["body_bytes"]
SOCKET_TIMEOUT = 10.0  # seconds a read or write of the socket may wait
BODY_DEADLINE = 20.0  # seconds the whole body may take to arrive (a client sending a byte at a time)
BUSY_WAIT = 5.0  # seconds a request waits for a free slot before 503
SLOTS = 4  # requests worked on at once (each is linear in its text, D130)

API: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "/api/links": analyze,
    "/api/format": format_address,
}
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self';"
    " frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_HEADERS = {
    "Content-Security-Policy": _CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (a repeated key is refused, not silently overwritten)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key[:64]!r} is given twice")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def answer(path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """The HTTP status and the JSON object answering a POST of ``body`` to
    ``path`` of the API: 200 and the answer, or 400 (not UTF-8, not JSON, a
    bad field: ``field`` names it), 404, 413 with ``error`` saying why.

    >>> answer("/api/format", b'{"input": "x@xn--bcher-kva.de"}')
    (200, {'kind': 'email', 'minimal': 'x@bücher.de'})
    >>> answer("/api/links", b'{"text": "x"')[0], answer("/api/nothing", b"{}")[0]
    (400, 404)
    """
    handler = API.get(path)
    if handler is None:
        return 404, {"error": f"no API at {path[:200]}"}
    if len(body) > MAX_BODY:
        return 413, {"error": f"the body is {len(body):,} bytes; the most is {MAX_BODY:,}"}
    try:
        decoded = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return 400, {"error": f"the body is not UTF-8 (byte {exc.start})"}
    try:
        request = json.loads(decoded, object_pairs_hook=_unique, parse_constant=_no_constant)
    except RecursionError:
        return 400, {"error": "the body is not JSON the server reads: nested too deeply"}
    except ValueError as exc:  # (JSONDecodeError; a number of too many digits; a key twice)
        return 400, {"error": f"the body is not JSON: {str(exc)[:200]}"}
    if not isinstance(request, dict):
        return 400, {"error": "the body must be a JSON object"}
    try:
        return 200, handler(request)
    except OptionError as exc:
        return 400, {"error": str(exc), "field": exc.option}


def host_allowed(host: str | None, server_host: str, port: int) -> bool:
    """Whether a request's Host header names this server (D129): an IP
    address, ``localhost`` or ``server_host`` (as given to ``--host``), and
    the server's ``port``.  A DNS name of someone else's (rebinding: a page
    whose name resolves to 127.0.0.1) is refused.

    >>> host_allowed("127.0.0.1:8058", "127.0.0.1", 8058), host_allowed("localhost:8058", "127.0.0.1", 8058)
    (True, True)
    >>> host_allowed("evil.example:8058", "127.0.0.1", 8058), host_allowed("127.0.0.1:9", "127.0.0.1", 8058)
    (False, False)
    """
    if not host:
        return False
    if host.endswith("]") or ":" not in host:
        name, given = host, ""  # (no port: a browser leaves out :80)
    else:
        name, _, given = host.rpartition(":")
    if given != str(port) and not (given == "" and port == 80):
        return False
    name = name.lower()
    if name in ("localhost", server_host.lower()):
        return True
    bracketed = name.startswith("[") and name.endswith("]")
    try:
        address = ipaddress.ip_address(name[1:-1] if bracketed else name)
    except ValueError:
        return False
    return bracketed == (address.version == 6)  # ([::1]:8058, 127.0.0.1:8058; not ::1:8058)


class _Handler(BaseHTTPRequestHandler):
    """One request: the page's files, the settings, the API; nothing else."""

    server: PlaygroundServer
    server_version = "uts58-serve"
    sys_version = ""
    timeout = SOCKET_TIMEOUT  # (StreamRequestHandler: the socket's timeout)
    error_content_type = "application/json"

    def version_string(self) -> str:
        return self.server_version

    def _send(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in _HEADERS.items():
            self.send_header(name, value)
        # The preview frame is sandboxed (an opaque origin): its style sheet is
        # the one file another origin may load (D129).
        self.send_header(
            "Cross-Origin-Resource-Policy",
            "cross-origin" if getattr(self, "path", "") == "/preview.css" else "same-origin",
        )
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _json(self, status: int, data: Mapping[str, Any]) -> None:
        # ASCII JSON: a lone surrogate of the text comes back as the \\ud800 it was sent as.
        self._send(status, "application/json", json.dumps(data, ensure_ascii=True).encode("ascii"))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's errors (a bad request line, too long a header) as
        JSON, with the same headers as every answer, never echoing HTML."""
        self.close_connection = True
        if getattr(self, "request_version", "HTTP/0.9") == "HTTP/0.9":
            self.request_version = "HTTP/1.0"  # (else http.server writes the body alone, no status or headers)
        # The standard phrase only: http.server's message quotes the request back.
        self._json(code, {"error": self.responses.get(code, ("error",))[0]})

    def log_message(self, format: str, *args: Any) -> None:
        log = self.server.log
        if log is not None:
            log.write(f"{self.address_string()} - {format % args}\n")

    def _allowed(self) -> bool:
        if not host_allowed(self.headers.get("Host"), self.server.host, self.server.port):
            self._json(421, {"error": "the Host header does not name this server (DNS rebinding is refused)"})
            return False
        return True

    def do_GET(self) -> None:
        if not self._allowed():
            return
        path = self.path.split("?", 1)[0]
        if path == "/api/settings":
            self._json(200, {**settings(), "sample": SAMPLE, "version": __version__})
        elif path in FILES:
            content_type, text = FILES[path]
            self._send(200, content_type, text.encode("utf-8"))
        else:
            self._json(404, {"error": "not found"})

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_POST(self) -> None:
        if not self._allowed():
            return
        refused = self._refused()
        if refused is not None:
            self._json(*refused)
            return
        if not self.server.slots.acquire(timeout=BUSY_WAIT):
            self._json(503, {"error": "the server is busy; try again"})
            return
        try:
            status, data = self._answer()
        except Exception:  # (a bug: say so, and never send a traceback)
            self.server.failures += 1
            status, data = 500, {"error": "internal error (the server's log has nothing more: report it)"}
        finally:
            self.server.slots.release()
        self._json(status, data)

    def _refused(self) -> tuple[int, dict[str, str]] | None:
        """Why a POST is not read: another origin, not JSON, no length, too long."""
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{self.headers.get('Host', '')}".lower():
            return 403, {"error": "a request from another origin is refused"}
        fetch_site = self.headers.get("Sec-Fetch-Site")
        if fetch_site is not None and fetch_site not in ("same-origin", "none"):
            return 403, {"error": "a request from another site is refused"}
        content_type = self.headers.get("Content-Type", "")
        media, _, parameters = content_type.partition(";")
        charset = parameters.strip().lower().removeprefix("charset=").strip('"')
        if media.strip().lower() != "application/json" or (parameters.strip() and charset != "utf-8"):
            return 415, {"error": "the body must be JSON (Content-Type: application/json)"}
        if self.headers.get("Transfer-Encoding"):
            return 411, {"error": "send the body with a Content-Length"}
        length = self.headers.get("Content-Length", "")
        if not length.isdigit() or len(length) > 12:
            return 411, {"error": "send the body with a Content-Length"}
        if int(length) > MAX_BODY:
            self.close_connection = True  # (the body is not read)
            return 413, {"error": f"the body is {int(length):,} bytes; the most is {MAX_BODY:,}"}
        return None

    def _answer(self) -> tuple[int, dict[str, Any]]:
        length = int(self.headers["Content-Length"])
        deadline = time.monotonic() + BODY_DEADLINE
        chunks = []
        while length:
            if time.monotonic() > deadline:
                self.close_connection = True
                return 408, {"error": "the body took too long to arrive"}
            try:
                chunk = self.rfile.read1(min(length, 65536))
            except TimeoutError:
                self.close_connection = True
                return 408, {"error": "the body took too long to arrive"}
            if not chunk:
                return 400, {"error": "the body is shorter than its Content-Length"}
            chunks.append(chunk)
            length -= len(chunk)
        return answer(self.path.split("?", 1)[0], b"".join(chunks))


class PlaygroundServer(ThreadingHTTPServer):
    """The playground's HTTP server on ``host`` and ``port`` (0: a free port);
    ``url`` is where it is.  ``log``: where each request is logged (None: nowhere).

    >>> server = PlaygroundServer("127.0.0.1", 0, log=None)
    >>> server.url.startswith("http://127.0.0.1:"), server.port > 0
    (True, True)
    >>> server.server_close()
    """

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, log: TextIO | None = sys.stderr) -> None:
        if not isinstance(host, str):
            raise TypeError(f"host must be str, not {type(host).__name__}")
        if isinstance(port, bool) or not isinstance(port, int):
            raise TypeError(f"port must be int, not {type(port).__name__}")
        if not 0 <= port <= 65535:
            raise OptionError(f"port must be from 0 to 65535, not {port}", option="port")
        try:
            infos = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise OptionError(f"host {host!r}: {exc.strerror}", option="host") from None
        self.address_family = infos[0][0]
        self.host = host
        self.log = log
        self.slots = threading.BoundedSemaphore(SLOTS)
        self.failures = 0  # (requests that met a bug: the tests check there are none)
        super().__init__((str(infos[0][4][0]), int(infos[0][4][1])), _Handler)
        self.port: int = self.socket.getsockname()[1]

    def server_bind(self) -> None:
        # HTTPServer.server_bind also looks the host's name up (getfqdn), which may wait on DNS.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), int(self.server_address[1])

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client gone (reset, timed out) is no error of the server's; anything else is logged as usual.
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        """The page's address."""
        address = self.socket.getsockname()[0]
        shown = f"[{address}]" if ":" in address else address
        return f"http://{shown}:{self.port}/"

    @property
    def loopback(self) -> bool:
        """Is the server reachable from this machine only?"""
        return ipaddress.ip_address(self.socket.getsockname()[0]).is_loopback


def make_server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, log: TextIO | None = None) -> PlaygroundServer:
    """A :class:`PlaygroundServer`, bound and listening, not yet serving
    (call ``serve_forever``, from a thread if need be).

    >>> server = make_server(port=0)
    >>> server.loopback
    True
    >>> server.server_close()
    """
    return PlaygroundServer(host, port, log=log)


def run_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``uts58 serve``: serve until Ctrl-C (the command's body; ``uts58.cli`` parses its options)."""
    try:
        server = make_server(args.host, args.port, log=None if args.quiet else err)
    except OptionError as exc:
        raise CLIError(str(exc)) from None
    except OSError as exc:
        hint = " (another program has it: try --port 0)" if exc.errno == 98 else ""
        raise CLIError(f"cannot listen on {args.host} port {args.port}: {exc.strerror or exc}{hint}") from None
    if not server.loopback:
        err.write(
            f"uts58 serve: warning: listening on {args.host}, which other machines can reach:"
            " anyone who can connect can use the playground\n"
        )
    try:
        out.write(f"uts58 playground at {server.url} (Ctrl-C stops)\n")
        out.flush()
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        err.write("uts58 serve: stopped\n")
    finally:
        server.server_close()
    return 0
