"""A small client of the Chrome DevTools Protocol, for the browser tests
(test code: no Playwright or Selenium needed, nothing downloaded).

Headless Chromium is started with ``--remote-debugging-pipe``: it reads
commands from its fd 3 and writes answers and events to its fd 4, each a
JSON message ended by a NUL byte.  Every wait has a timeout, and the
browser (its whole process group) is killed when the ``with`` block ends,
whatever happened inside it.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import signal
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from browser import HEADLESS_FLAGS, chromium, chromium_env

# tests/browser.py's flags, less --virtual-time-budget (it is for --dump-dom: a live page runs in real time).
FLAGS = [
    *HEADLESS_FLAGS,
    "--disable-extensions",
    "--disable-default-apps",
    "--hide-scrollbars",
    "--mute-audio",
    "--remote-debugging-pipe",
]


class CDPError(AssertionError):
    """The browser answered a command with an error, or did not answer in time."""


class Browser:
    """Headless Chromium driven over the DevTools pipe.

    ``with Browser(tmp_path) as browser: page = browser.new_page(); page.goto(url)``
    """

    def __init__(self, workdir: Path, *, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.workdir = workdir
        self.pid = 0
        self._next = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        self.log = workdir / "chromium.log"

    def __enter__(self) -> Browser:
        exe = chromium()
        commands_r, commands_w = os.pipe()  # we write commands; the browser reads them on its fd 3
        answers_r, answers_w = os.pipe()  # the browser writes on its fd 4; we read
        # Above 4, so that moving them to 3 and 4 in the child cannot overwrite one with the other.
        child_r = fcntl.fcntl(commands_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_w = fcntl.fcntl(answers_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(commands_r)
        os.close(answers_w)
        log = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            self.pid = os.posix_spawn(
                exe,
                [exe, *FLAGS, f"--user-data-dir={self.workdir / 'profile'}", "about:blank"],
                chromium_env(self.workdir),
                file_actions=[
                    (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
                    (os.POSIX_SPAWN_DUP2, log, 1),
                    (os.POSIX_SPAWN_DUP2, log, 2),
                    (os.POSIX_SPAWN_DUP2, child_r, 3),
                    (os.POSIX_SPAWN_DUP2, child_w, 4),
                ],
                setpgroup=0,  # its own process group: killed whole at the end (renderers, GPU process, …)
            )
        finally:
            for fd in (log, child_r, child_w):
                os.close(fd)
        self._out = commands_w
        self._in = answers_r
        try:
            self.call("Browser.getVersion")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Kill the browser's process group and reap it (idempotent)."""
        if self.pid:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.pid = 0
            for fd in (self._out, self._in):
                try:
                    os.close(fd)
                except OSError:
                    pass

    def _send(self, method: str, params: dict[str, Any] | None, session: str | None) -> int:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            _, writable, _ = select.select([], [self._out], [], self.timeout)
            if not writable:
                raise CDPError(f"the browser does not read its commands ({method})")
            data = data[os.write(self._out, data) :]
        return self._next

    def _receive(self, deadline: float, what: str) -> dict[str, Any]:
        """The next message, read before ``deadline``."""
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            readable, _, _ = select.select([self._in], [], [], max(left, 0))
            if not readable:
                raise CDPError(f"no answer from the browser in time: {what} (log: {self._log_tail()})")
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise CDPError(f"the browser closed its pipe: {what} (log: {self._log_tail()})")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        decoded: dict[str, Any] = json.loads(message)
        return decoded

    def _log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-1500:]
        except OSError:
            return "none"

    def call(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Send a command and wait for its answer (events meanwhile are kept for :meth:`event`)."""
        sent = self._send(method, params, session)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            message = self._receive(deadline, method)
            if message.get("id") == sent:
                if "error" in message:
                    raise CDPError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            if "method" in message:
                self._events.append(message)

    def event(self, method: str, session: str | None = None, timeout: float | None = None) -> dict[str, Any]:
        """The first event ``method`` (of ``session``) not yet taken, waiting for it if need be."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for k, message in enumerate(self._events):
                if message["method"] == method and message.get("sessionId") == session:
                    del self._events[k]
                    params: dict[str, Any] = message.get("params", {})
                    return params
            message = self._receive(deadline, f"event {method}")
            if "method" in message:
                self._events.append(message)

    def new_page(self, width: int = 1280, height: int = 900) -> Page:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.call("Page.enable")
        page.call("Runtime.enable")
        page.call("Log.enable")
        page.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        return page


class Page:
    """One tab of the browser (a flattened DevTools session)."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session
        self.console: list[dict[str, Any]] = []

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float | None = None) -> dict[str, Any]:
        return self.browser.call(method, params, self.session, timeout)

    def goto(self, url: str) -> None:
        self.browser._events = [m for m in self.browser._events if m["method"] != "Page.loadEventFired"]
        answer = self.call("Page.navigate", {"url": url})
        if answer.get("errorText"):
            raise CDPError(f"navigating to {url}: {answer['errorText']}")
        self.browser.event("Page.loadEventFired", self.session)

    def evaluate(self, expression: str, timeout: float | None = None) -> Any:
        """The value of a JavaScript expression (a promise is awaited), as JSON values."""
        answer = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            timeout,
        )
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            raise CDPError(f"{expression[:80]!r} threw: {details.get('exception', {}).get('description', details)}")
        return answer["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 20.0) -> Any:
        """Poll ``expression`` until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CDPError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)

    def insert_text(self, text: str) -> None:
        """Type ``text`` where the focus is, as an input method would (one ``input`` event)."""
        self.call("Input.insertText", {"text": text})

    def errors(self) -> list[str]:
        """The exceptions thrown and the CSP violations and errors logged so far."""
        out = []
        kept = []
        for message in self.browser._events:
            if message.get("sessionId") != self.session:
                kept.append(message)
                continue
            params = message.get("params", {})
            if message["method"] == "Runtime.exceptionThrown":
                out.append(str(params.get("exceptionDetails", {}).get("text")))
            elif message["method"] == "Runtime.consoleAPICalled" and params.get("type") == "error":
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
            elif message["method"] == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(str(params["entry"].get("text")))
            else:
                kept.append(message)
        self.browser._events = kept
        return out

    def screenshot(self, path: Path) -> bytes:
        """A PNG of the whole page, written to ``path``."""
        metrics = self.call("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 6000), "scale": 1}
        data = base64.b64decode(
            self.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})["data"]
        )
        path.write_bytes(data)
        return data
