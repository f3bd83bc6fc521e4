"""Attacks on ``uts58 serve`` over loopback, each bounded in time (D135):
a burst of clients, slowloris connections, slow readers of large answers.
Each returns its figures; ``tests/unit/test_serve_attacks.py`` asserts on them,
and ``python tests/serve_attacks.py`` prints them (the issue's before/after).
Nothing here waits longer than its ``seconds``."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

PROBE_TEXT = json.dumps({"text": "see example.com and x@example.org"}).encode()
# A link-dense text of 100 KB, not ASCII (each link's record is long, and JSON escapes it).
DENSE_TEXT = " ".join(f"ü{i}.bücher-example{i % 97}.de/π" for i in range(6000))[:100_000]


def post_bytes(port: int, body: bytes, path: str = "/api/links") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def exchange(port: int, data: bytes, timeout: float) -> tuple[int, float]:
    """Send ``data``, read the answer to its end: (status, seconds); status 0: none came."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
            connection.sendall(data)
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
    except OSError:
        return 0, time.monotonic() - started
    status = int(answer[9:12]) if answer.startswith(b"HTTP/1.") and len(answer) >= 12 else 0
    return status, time.monotonic() - started


def probes(port: int, count: int, timeout: float) -> list[tuple[int, float]]:
    """``count`` normal requests one after another: (status, seconds) each."""
    return [exchange(port, post_bytes(port, PROBE_TEXT), timeout) for _ in range(count)]


def burst(port: int, clients: int = 200, timeout: float = 30.0) -> dict[str, Any]:
    """``clients`` normal requests at once: how many were answered, how many
    with 200, and the slowest answer."""
    results: list[tuple[int, float]] = []
    lock = threading.Lock()
    go = threading.Event()

    def one() -> None:
        go.wait()
        result = exchange(port, post_bytes(port, PROBE_TEXT), timeout)
        with lock:
            results.append(result)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    go.set()
    for thread in threads:
        thread.join(timeout + 5)
    answered = [r for r in results if r[0]]
    return {
        "clients": clients,
        "answered": len(answered),
        "ok": sum(1 for status, _ in results if status == 200),
        "slowest": max((seconds for _, seconds in results), default=0.0),
    }


@contextlib.contextmanager
def slowloris(port: int, connections: int = 200, every: float = 0.2) -> Iterator[list[socket.socket]]:
    """``connections`` clients that send a request head a header at a time, never ending it."""
    stop, ready = threading.Event(), threading.Event()
    opened: list[socket.socket] = []

    def dribble() -> None:
        for _ in range(connections):
            with contextlib.suppress(OSError):
                c = socket.create_connection(("127.0.0.1", port), timeout=5)
                c.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
                opened.append(c)
        ready.set()
        while not stop.wait(every):
            for c in list(opened):
                try:
                    c.sendall(b"X-a: b\r\n")
                except OSError:
                    opened.remove(c)
                    c.close()

    thread = threading.Thread(target=dribble, daemon=True)
    thread.start()
    try:
        ready.wait(20)
        time.sleep(1.5)  # (older than a normal request's head)
        yield opened
    finally:
        stop.set()
        thread.join(10)
        for c in opened:
            c.close()


@contextlib.contextmanager
def slow_readers(port: int, readers: int = 32) -> Iterator[list[socket.socket]]:
    """``readers`` clients that ask for the answer to a 100 KB link-dense text and never read it."""
    body = json.dumps({"text": DENSE_TEXT}).encode()
    opened = []
    for _ in range(readers):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.settimeout(10)
        c.connect(("127.0.0.1", port))
        c.sendall(post_bytes(port, body))
        opened.append(c)
    try:
        time.sleep(2.0)  # (the answers are made, and stuck in the sockets)
        yield opened
    finally:
        for c in opened:
            c.close()


def answer_size(port: int) -> tuple[int, int]:
    """(status, bytes) of the answer to the 100 KB link-dense text."""
    body = json.dumps({"text": DENSE_TEXT}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as c:
        c.sendall(post_bytes(port, body))
        answer = b""
        while chunk := c.recv(1 << 20):
            answer += chunk
    return int(answer[9:12]), len(answer)


def rss(pid: int) -> int:
    """The resident memory of process ``pid`` in bytes (Linux), or 0."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


@contextlib.contextmanager
def serving(python: str = sys.executable) -> Iterator[tuple[int, int]]:
    """``uts58 serve --port 0`` in a process of its own (the attacks' threads
    do not share its interpreter): (port, pid); stopped at the end."""
    child = subprocess.Popen(
        [python, "-m", "uts58", "serve", "--port", "0", "-q"], stdout=subprocess.PIPE, text=True, encoding="utf-8"
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # "uts58 playground at http://127.0.0.1:PORT/ (Ctrl-C stops)"
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        yield port, child.pid
    finally:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(10)


def _report() -> None:  # pragma: no cover (run by hand: the issue's figures)
    with serving() as (port, _):
        print("burst of 200:", burst(port))
    for count in (40, 200):
        with serving() as (port, _), slowloris(port, count):
            got = probes(port, 20, 10)
            print(f"under {count} slowloris: probes answered 200:", sum(st == 200 for st, _ in got), "of 20;"
                  " slowest", round(max(t for _, t in got), 3))  # fmt: skip
    with serving() as (port, pid):
        print("answer to 100 KB link-dense text: status, bytes", answer_size(port))
        before = rss(pid)
        with slow_readers(port, 32):
            held = rss(pid) - before
            got = probes(port, 10, 10)
        print(f"32 slow readers: {held / 1e6:.0f} MB more resident; probes 200:",
              sum(st == 200 for st, _ in got), "of 10; slowest", round(max(t for _, t in got), 3))  # fmt: skip
        time.sleep(1)
        print(f"after: {(rss(pid) - before) / 1e6:.0f} MB more resident")


if __name__ == "__main__":
    _report()
