"""``uts58 serve``: the playground page on a local HTTP server (D129, D130).

The standard library's ``http.server.ThreadingHTTPServer``, bound to
127.0.0.1 unless ``--host`` asks for another interface.  It serves the page
(``uts58.cli._page``) and a JSON API, ``POST /api/links`` and
``POST /api/format`` (:mod:`uts58.cli.playground`), and guards them from other
web pages the browser has open: the Host header must name this server by an
IP address, ``localhost`` or the host it was started with (DNS rebinding),
a POST must come from the page's own origin with a JSON body, and every
answer carries a strict Content-Security-Policy.  A body is at most 256 KiB;
the request's head and its body each arrive within a deadline, and the
connections open at once are bounded; the text a body holds bounds the work,
which is linear in it (D130).

:func:`uts58.cli.playground.answer` is the API without HTTP.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import ipaddress
import json
import math
import re
import socket
import socketserver
import sys
import threading
import time
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TextIO

from .. import __version__
from ..errors import OptionError
from ._page import FILES, SAMPLE
from .io import CLIError
from .playground import DEFAULT_HOST, DEFAULT_PORT, MAX_BODY, answer, settings

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "PlaygroundServer", "host_allowed", "make_server"]

# D130: the defaults of PlaygroundServer's limits (attributes, so that a test can shrink them).
SOCKET_TIMEOUT = 10.0  # seconds a read or write of the socket may wait
HEAD_DEADLINE = 10.0  # seconds the request line and headers may take in all (a header every few seconds)
BODY_DEADLINE = 20.0  # seconds the whole body may take to arrive (a client sending a byte at a time)
BUSY_WAIT = 5.0  # seconds a request waits for a free slot before 503
SLOTS = 4  # requests worked on at once (each is linear in its text, D130)
QUICK_BODY = 4096  # bytes: a body this small may also take the quick slot (D135)
CONNECTIONS = 128  # connections open at once (a thread each)
# D135: a connection that has spent this long reading its request or
# sending its answer is stalled: when all connections are open, the one
# stalled longest is closed for a new one (slowloris, slow readers); with
# none stalled the new one gets a 503 at once.
STALLED = 1.0
BACKLOG = 256  # connections the kernel holds before they are accepted (the library's default is 5)
WRITE_DEADLINE = 30.0  # seconds an answer may take to be sent in all
MAX_ANSWER = 8 << 20  # bytes of one answer (a 413 asks for less text)
ANSWER_BUDGET = 64 << 20  # bytes of the answers being sent at once (a 503 past it)
# What a connection over the limit is sent before it is closed: never read, so no request to answer.
_BUSY_BODY = b'{"error": "the server has too many connections; try again"}'
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    + f"Content-Length: {len(_BUSY_BODY)}\r\n".encode()
    + b"Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\nX-Content-Type-Options: nosniff\r\n"
    + b"Cache-Control: no-store\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
    + _BUSY_BODY
)

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
# What is logged is the client's bytes: each control character (C0, DEL, C1)
# as \xNN, as http.server's own log_message writes it, so that no escape
# sequence of a request line reaches the operator's terminal.
_LOGGED = str.maketrans({c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))})
# An absolute-form request target (RFC 9112 §3.2.2): its authority and the path.
_ABSOLUTE = re.compile(r"http://([^/?#@]+)([/?][^#]*)?", re.IGNORECASE)
# A Content-Length: ASCII digits only (str.isdigit is true of "²").
_DIGITS = re.compile(r"[0-9]+")
# A field name is a token (RFC 9110 §5.1, §5.6.2).
_FIELD_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


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


class _DeadlineReader(io.RawIOBase):
    """The socket, read until ``deadline`` (a time.monotonic): each read
    waits at most ``timeout`` and never past the deadline, so that a part of
    a request (its head, its body) has a deadline in all, not only for each
    read (D130).  Past it, a read raises TimeoutError."""

    def __init__(self, connection: socket.socket, timeout: float) -> None:
        super().__init__()
        self._connection = connection
        self._timeout = timeout
        self.deadline = math.inf

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the deadline has passed")
        self._connection.settimeout(min(self._timeout, left))
        try:
            return self._connection.recv_into(buffer)
        finally:
            self._connection.settimeout(self._timeout)  # (a write waits the whole timeout)


class _Handler(BaseHTTPRequestHandler):
    """One request: the page's files, the settings, the API; nothing else."""

    server: PlaygroundServer
    server_version = "uts58-serve"
    sys_version = ""
    error_content_type = "application/json"
    _host = ""  # the host the request names: its Host header, or the authority of an absolute-form target
    _length = 0  # the body's Content-Length, once checked
    _body = b""

    def setup(self) -> None:
        super().setup()
        self._reserved = 0  # (bytes of the answer budget this request holds)
        self.connection.settimeout(self.server.socket_timeout)  # (for writes; each read sets its own)
        self.rfile.close()  # (the socket's own reader: reads go through the deadline instead)
        self._reader = _DeadlineReader(self.connection, self.server.socket_timeout)
        self._reader.deadline = time.monotonic() + self.server.head_deadline
        self.rfile = io.BufferedReader(self._reader)

    def version_string(self) -> str:
        return self.server_version

    def _send(self, status: int, content_type: str, data: bytes) -> None:
        server = self.server
        if len(data) > server.max_answer:
            status, content_type = 413, "application/json"
            data = json.dumps({"error": f"the answer would be {len(data):,} bytes; the most is"
                               f" {server.max_answer:,}: send less text"}).encode("ascii")  # fmt: skip
        if not server.reserve(len(data)):
            self.close_connection = True
            status, content_type = 503, "application/json"
            data = b'{"error": "the server is sending too much at once; try again"}'
            server.reserve(len(data), force=True)
        self._reserved = len(data)
        server.phase(self.connection, "writing")
        try:
            self._answer(status, content_type, data)
        finally:
            server.release(self._reserved)
            self._reserved = 0

    def _answer(self, status: int, content_type: str, data: bytes) -> None:
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
            self._write(data)

    def _write(self, data: bytes) -> None:
        """``data`` to the socket within ``write_deadline`` in all (a slow
        reader holds the answer's memory that long at most: D135)."""
        deadline = time.monotonic() + self.server.write_deadline
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the answer's deadline has passed")
            self.connection.settimeout(min(self.server.socket_timeout, left))
            view = view[self.connection.send(view[:65536]) :]

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
            log.write(f"{self.address_string()} - {(format % args).translate(_LOGGED)}\n")

    def _allowed(self) -> bool:
        """Whether the request is for this server (else its refusal is sent):
        HTTP/1.0 or later (an HTTP/0.9 answer has no headers to carry the
        security ones); field names without white space (RFC 9112 §5.1: ``Host :``
        is a 400, not another header); one Host header and one Content-Length
        at most (RFC 9112 §3.2, §6.3: two may disagree, and which one wins is
        the attacker's game), and the host it names allowed (D129), white
        space around it aside.  An absolute-form target's authority is that
        host, its path the path (RFC 9112 §3.2.2)."""
        self.server.phase(self.connection, "working")
        if self.request_version == "HTTP/0.9":
            self.close_connection = True
            self.request_version = "HTTP/1.0"  # (answered as HTTP/1.0: with its status line and headers)
            self._json(505, {"error": "HTTP/0.9 is not supported: send HTTP/1.0 or HTTP/1.1"})
            return False
        # (a line the header parser cannot read, "Host : x", ends its headers: the rest is its "payload")
        if self.headers.defects or self.headers.get_payload() or not all(map(_FIELD_NAME.fullmatch, self.headers)):
            self._json(400, {"error": "a header's name holds white space or is not a token"})
            return False
        for name in ("Host", "Content-Length"):
            if len(self.headers.get_all(name, ())) > 1:
                self._json(400, {"error": f"the {name} header is given more than once"})
                return False
        # (RFC 9110 §5.5: the white space around a value is not the value)
        self._host = self.headers.get("Host", "").strip(" \t")
        if not self.path.startswith("/"):
            absolute = _ABSOLUTE.fullmatch(self.path)
            if absolute is None:
                self._json(400, {"error": "the request target is neither a path nor an http:// URL"})
                return False
            self._host, path = absolute.group(1), absolute.group(2) or "/"
            self.path = path if path.startswith("/") else "/" + path
        if not host_allowed(self._host, self.server.host, self.server.port):
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
        # The body is read before a slot is taken: a slow client holds a
        # connection (at most max_connections), never one of the SLOTS of work (D130).
        refused = self._refused()
        if refused is None:
            self.server.phase(self.connection, "reading")  # (the body: a slow one is stalled too)
            refused = self._read()
            self.server.phase(self.connection, "working")
        if refused is not None:
            self._json(*refused)
            return
        # D135: a small request that finds every slot taken (by large ones)
        # waits for the quick slot, which only small requests take: one
        # answers in milliseconds, whatever the large ones cost.
        server = self.server
        lane = server.slots
        if not lane.acquire(blocking=False):
            lane = server.quick if len(self._body) <= QUICK_BODY else server.slots
            if not lane.acquire(timeout=server.busy_wait):
                self._json(503, {"error": "the server is busy; try again"})
                return
        try:
            status, data = answer(self.path.split("?", 1)[0], self._body)
        except Exception:  # (a bug: say so, and never send a traceback)
            server.failures += 1
            status, data = 500, {"error": "internal error (the server's log has nothing more: report it)"}
        finally:
            lane.release()
        self._json(status, data)

    def _refused(self) -> tuple[int, dict[str, str]] | None:
        """Why a POST is not read: another origin, not JSON, no length, too long."""
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{self._host}".lower():
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
        length = self.headers.get("Content-Length")
        if length is None:
            return 411, {"error": "send the body with a Content-Length"}
        digits = length.strip(" \t")
        if not _DIGITS.fullmatch(digits):  # (RFC 9112 §6.3: an invalid length is a 400)
            return 400, {"error": "the Content-Length is not a number"}
        digits = digits.lstrip("0") or "0"
        if len(digits) > 12 or int(digits) > MAX_BODY:  # (at most 12 digits: int() of a long one is slow)
            self.close_connection = True  # (the body is not read)
            shown = f"{int(digits):,}" if len(digits) <= 12 else f"more than {10**12 - 1:,}"
            return 413, {"error": f"the body is {shown} bytes; the most is {MAX_BODY:,}"}
        self._length = int(digits)
        return None

    def _read(self) -> tuple[int, dict[str, str]] | None:
        """Read the body into ``_body`` within ``body_deadline``; or why not."""
        length = self._length
        self._reader.deadline = time.monotonic() + self.server.body_deadline
        chunks = []
        while length:
            try:
                chunk = self.rfile.read1(min(length, 65536))
            except TimeoutError:  # (a read waited too long, or the body's deadline passed)
                self.close_connection = True
                return 408, {"error": "the body took too long to arrive"}
            if not chunk:
                return 400, {"error": "the body is shorter than its Content-Length"}
            chunks.append(chunk)
            length -= len(chunk)
        self._body = b"".join(chunks)
        return None


class PlaygroundServer(ThreadingHTTPServer):
    """The playground's HTTP server on ``host`` and ``port`` (0: a free port);
    ``url`` is where to browse to it.  ``log``: where each request is logged
    (None: nowhere).  Its limits (D130) are attributes: ``socket_timeout``,
    ``head_deadline``, ``body_deadline``, ``busy_wait`` (seconds) and
    ``max_connections``.

    >>> server = PlaygroundServer("127.0.0.1", 0, log=None)
    >>> server.url.startswith("http://127.0.0.1:"), server.port > 0, server.max_connections
    (True, True, 128)
    >>> server.server_close()
    """

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = BACKLOG
    socket_timeout = SOCKET_TIMEOUT
    head_deadline = HEAD_DEADLINE
    body_deadline = BODY_DEADLINE
    write_deadline = WRITE_DEADLINE
    busy_wait = BUSY_WAIT
    max_connections = CONNECTIONS
    stalled = STALLED
    max_answer = MAX_ANSWER
    answer_budget = ANSWER_BUDGET

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
        self.quick = threading.BoundedSemaphore(1)
        self.failures = 0  # (requests that met a bug: the tests check there are none)
        # The connections open, each with its phase ("reading", "working",
        # "writing") and since when (D135); and the answer bytes being sent.
        self._open: dict[Any, tuple[str, float]] = {}
        self.sending = 0
        self.most_sending = 0  # (the most held at once: the tests read it)
        self.evicted = 0
        self._counting = threading.Lock()
        super().__init__((str(infos[0][4][0]), int(infos[0][4][1])), _Handler)
        self.port: int = self.socket.getsockname()[1]

    def server_bind(self) -> None:
        # HTTPServer.server_bind also looks the host's name up (getfqdn), which may wait on DNS.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), int(self.server_address[1])

    @property
    def connections(self) -> int:
        """The connections open now, each with its thread."""
        return len(self._open)

    def process_request(self, request: Any, client_address: Any) -> None:
        # D130, D135: a thread per connection, and at most max_connections of
        # them; when all are open, the one stalled longest (reading its request
        # or sending its answer for more than `stalled` seconds) is closed for
        # this one, and with none stalled this one is answered 503 at once.
        now = time.monotonic()
        victim = None
        with self._counting:
            full = len(self._open) >= self.max_connections
            if full:
                stalled = [(since, c) for c, (phase, since) in self._open.items() if phase != "working"]
                since, victim = min(stalled, key=lambda entry: entry[0], default=(now, None))
                if victim is not None and now - since > self.stalled:
                    del self._open[victim]
                    self.evicted += 1
                    full = False
                else:
                    victim = None
            if not full:
                self._open[request] = ("reading", now)
        if victim is not None:
            with contextlib.suppress(OSError):
                victim.shutdown(socket.SHUT_RDWR)  # (its thread's read or write fails, and it ends)
        if full:
            if self.log is not None:
                self.log.write(f"{client_address[0]} - refused: {self.max_connections} connections are open\n")
            with contextlib.suppress(OSError):
                request.setblocking(False)
                request.send(_BUSY)  # (a small answer: the socket's buffer takes it whole, or nothing is waited for)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._closed(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._closed(request)

    def _closed(self, request: Any) -> None:
        with self._counting:
            self._open.pop(request, None)

    def phase(self, connection: Any, phase: str) -> None:
        """What ``connection`` does now, from now (D135)."""
        with self._counting:
            if connection in self._open:
                self._open[connection] = (phase, time.monotonic())

    def reserve(self, size: int, *, force: bool = False) -> bool:
        """Take ``size`` bytes of the answer budget (D135), unless it would pass it."""
        with self._counting:
            if not force and self.sending and self.sending + size > self.answer_budget:
                return False
            self.sending += size
            self.most_sending = max(self.most_sending, self.sending)
            return True

    def release(self, size: int) -> None:
        with self._counting:
            self.sending -= size

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client gone (reset, timed out) is no error of the server's; anything else is a bug, logged as usual.
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            with self._counting:
                self.failures += 1
            super().handle_error(request, client_address)

    @property
    def everywhere(self) -> bool:
        """Does the server listen on every interface (``0.0.0.0``, ``::``)?"""
        return ipaddress.ip_address(self.socket.getsockname()[0]).is_unspecified

    @property
    def url(self) -> str:
        """The page's address: where the server listens, or this machine's
        loopback address when it listens everywhere (a browser does not open
        ``http://0.0.0.0:P/`` everywhere)."""
        address = ipaddress.ip_address(self.socket.getsockname()[0])
        if address.is_unspecified:
            address = ipaddress.ip_address("::1" if address.version == 6 else "127.0.0.1")
        shown = f"[{address}]" if address.version == 6 else str(address)
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
    """``uts58 serve``: serve until Ctrl-C (the command's body; ``uts58.cli.main`` parses its options)."""
    try:
        server = make_server(args.host, args.port, log=None if args.quiet else err)
    except OptionError as exc:
        raise CLIError(str(exc)) from None
    except OSError as exc:
        hint = " (another program has it: try --port 0)" if exc.errno == 98 else ""
        raise CLIError(f"cannot listen on {args.host} port {args.port}: {exc.strerror or exc}{hint}") from None
    if not server.loopback:
        where = f"all interfaces ({args.host})" if server.everywhere else args.host
        err.write(
            f"uts58 serve: warning: listening on {where}, which other machines can reach:"
            " anyone who can connect can use the playground\n"
        )
    answer("/api/links", b'{"text": "example.com"}')  # (the tables load now, not in the first request)
    try:
        out.write(f"uts58 playground at {server.url} (Ctrl-C stops)\n")
        out.flush()
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        err.write("uts58 serve: stopped\n")
    finally:
        server.server_close()
    return 0
