"""A raw Server-Sent Events client for the live-table tests: a plain socket, so that a test sees
every byte a phone's EventSource would (comments, ids, the end of the stream) and never blocks
longer than it says (TESTING.md: a page's stream never finishes, read it with a raw client)."""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass
class Event:
    event: str = "message"
    data: str = ""
    id: str | None = None


@dataclass
class Stream:
    sock: socket.socket
    status: int
    headers: dict
    buffer: bytes = b""
    comments: list = field(default_factory=list)
    retries: list = field(default_factory=list)  # each ``retry:`` the server sent, in milliseconds
    closed: bool = False

    def next_event(self, timeout: float = 5.0) -> Event | None:
        """The next event, or None when none came within ``timeout`` or the stream ended."""
        deadline = time.monotonic() + timeout
        while True:
            block, sep, rest = self.buffer.partition(b"\n\n")
            if sep:
                self.buffer = rest
                event = parse(block.decode(), self.comments, self.retries)
                if event is not None:
                    return event
                continue
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            except OSError:
                chunk = b""
            if not chunk:
                self.closed = True
                continue
            self.buffer += chunk

    def events_until(self, kind: str, timeout: float = 5.0) -> list[Event]:
        """Every event up to and including the first of ``kind``."""
        seen = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            event = self.next_event(deadline - time.monotonic())
            if event is None:
                break
            seen.append(event)
            if event.event == kind:
                return seen
        raise AssertionError(f"no {kind!r} event within {timeout} s; saw {[e.event for e in seen]}")

    def close(self) -> None:
        self.sock.close()


def parse(block: str, comments: list, retries: list | None = None) -> Event | None:
    event, data, seen = Event(), [], False
    for line in block.split("\n"):
        if line.startswith(":"):
            comments.append(line[1:].strip())
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            event.event, seen = value, True
        elif name == "data":
            data.append(value)
            seen = True
        elif name == "id":
            event.id, seen = value, True
        elif name == "retry" and retries is not None:
            retries.append(int(value))
    if not seen or (event.event == "message" and not data):
        return None
    event.data = "\n".join(data)
    return event


def open_stream(url: str, path: str, headers: dict | None = None, timeout: float = 5.0) -> Stream:
    """GET ``path`` as an EventSource does (``Accept: text/event-stream``) and read the headers.
    HTTP/1.0: the answer comes unchunked, and ends when the server closes the stream."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
    lines = [f"GET {path} HTTP/1.0", f"Host: {parts.hostname}:{parts.port}", "Accept: text/event-stream",
             "Cache-Control: no-cache"] + [f"{k}: {v}" for k, v in (headers or {}).items()]  # fmt: skip
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = sock.recv(65536)
        if not chunk:
            break
        raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    stream = Stream(sock, int(status_line.split()[1]), found)
    stream.buffer = body
    return stream
