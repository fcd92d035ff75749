"""The phones of ``bench/swarm.py``: plain asyncio sockets, one connection per request and one per
event stream, as a phone's browser makes them (its headers, its session cookie, its own address).

A ``Phone`` asks pages and writes (``fetch``) and holds one event stream (``Stream``) that behaves
as the page's ``EventSource`` under htmx-ext-sse: ``end`` closes it for good; a stream the server
closes is opened again after the last ``retry:`` it was given, with ``Last-Event-ID``; a refusal
(any status but 200) is tried again as htmx-ext-sse does, after 0.5 s, 1 s, 2 s… up to 64 s, from
the revision the page last heard (``since``). Every request and every stream opened is noted
(``Record``) with when it was asked, how long it took and its status (0: no answer at all).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import zlib

import brotli

HOST = "127.0.0.1"
TIMEOUT = float(os.environ.get("SWARM_TIMEOUT", "30"))  # a request with no answer by then counts as status 0
BROWSER = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36",
    "Accept-Language": "fr-FR,fr;q=0.9,en;q=0.8",
    "Accept-Encoding": "gzip, deflate, br",
}
PAGE = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8", "Sec-Fetch-Site": "same-origin",
        "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Upgrade-Insecure-Requests": "1"}  # fmt: skip
FETCH = {"Accept": "application/json", "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors",
         "Sec-Fetch-Dest": "empty"}  # fmt: skip
PART = {"Accept": "*/*", "HX-Request": "true", "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors",
        "Sec-Fetch-Dest": "empty"}  # fmt: skip
EVENTS = {"Accept": "text/event-stream", "Cache-Control": "no-cache", "Sec-Fetch-Site": "same-origin",
          "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}  # fmt: skip
VERSION = re.compile(rb'"version": (\d+)')  # the entry's own version: its first "version" key


class Record:
    """What one client process saw, as plain tuples (sent whole to the orchestrator at the end)."""

    def __init__(self):
        self.requests: list[tuple] = []  # (asked, took_ms, kind, status)
        self.streams: list[tuple] = []  # (asked, took_ms, status, phone)
        self.fanout: list[tuple] = []  # (when, kind, delay_ms) kind: "hand" | "manche"
        self.missed: list[tuple] = []  # (when, kind)
        self.aborted: list[tuple] = []  # (when, why): a table's round given up (a write refused or lost)
        self.failures: dict[str, int] = {}  # why a request had no answer at all (its exception), and how often


class Answer:
    def __init__(self, status: int, headers: dict, body: bytes, asked: float = 0.0):
        self.status, self.headers, self.body = status, headers, body
        self.asked = asked  # when it was asked (time.monotonic())

    def json(self):
        return json.loads(decoded(self.body, self.headers.get("content-encoding", "")))

    def text(self) -> str:
        return decoded(self.body, self.headers.get("content-encoding", "")).decode()


def decoded(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.decompress(body)
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    return body


def head_of(raw: bytes) -> tuple[int, dict, list]:
    """Status, headers (lower-case names, the last of each) and every Set-Cookie of a response head."""
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers, cookies = {}, []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name == "set-cookie":
            cookies.append(value)
        elif name:
            headers[name] = value
    return status, headers, cookies


def dechunked(body: bytes) -> bytes:
    out, rest = [], body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2 :]
    return b"".join(out)


class Phone:
    """One phone: its address, its cookies, its current stream."""

    def __init__(self, port: int, address: str, record: Record, name: str):
        self.port, self.address, self.record, self.name = port, address, record, name
        self.origin = f"http://{HOST}:{port}"
        self.cookies: dict[str, str] = {}
        self.stream: Stream | None = None

    def request_head(self, method: str, path: str, headers: dict, body: bytes) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in {**BROWSER, **headers}.items()]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if body or method not in ("GET", "HEAD"):
            lines.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def keep(self, cookies: list) -> None:
        for cookie in cookies:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            if value and "max-age=0" not in cookie.lower() and "expires=thu, 01 jan 1970" not in cookie.lower():
                self.cookies[name.strip()] = value
            else:
                self.cookies.pop(name.strip(), None)

    async def fetch(self, kind: str, method: str, path: str, headers: dict | None = None, body=None) -> Answer:
        """One request on a connection of its own; noted under ``kind``."""
        loop = asyncio.get_running_loop()
        headers = dict(headers or {})
        if isinstance(body, dict):
            body, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        elif isinstance(body, str):
            body, headers["Content-Type"] = body.encode(), "application/x-www-form-urlencoded"
        body = body or b""
        if method != "GET":
            headers.setdefault("Origin", self.origin)
        asked = loop.time()
        try:
            raw = await asyncio.wait_for(self._exchange(self.request_head(method, path, headers, body) + body), TIMEOUT)
            head, _, payload = raw.partition(b"\r\n\r\n")
            status, answer_headers, cookies = head_of(head)
        except (TimeoutError, OSError, ValueError, IndexError) as error:
            why = type(error).__name__
            self.record.failures[why] = self.record.failures.get(why, 0) + 1
            self.record.requests.append((asked, (loop.time() - asked) * 1000, kind, 0))
            return Answer(0, {}, b"", asked)
        self.keep(cookies)
        if answer_headers.get("transfer-encoding") == "chunked":
            payload = dechunked(payload)
        self.record.requests.append((asked, (loop.time() - asked) * 1000, kind, status))
        return Answer(status, answer_headers, payload, asked)

    async def _exchange(self, data: bytes) -> bytes:
        reader, writer = await asyncio.open_connection(HOST, self.port, local_addr=(self.address, 0))
        try:
            writer.write(data)
            return await reader.read()
        finally:
            writer.close()

    def listen(self, path: str, since: int | None) -> Stream:
        """The page's stream opens (the one before closes: the page was left)."""
        self.close_stream()
        self.stream = Stream(self, path, since)
        return self.stream

    def close_stream(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None


class Stream:
    """A page's EventSource (see the module): what it heard, when."""

    def __init__(self, phone: Phone, path: str, since: int | None):
        self.phone, self.path, self.since = phone, path, since
        self.retry = 2.0  # seconds, until the server says otherwise
        self.last_id: str | None = None
        self.entry: list[tuple[float, int]] = []  # (heard, version) of each ``entry`` event
        self.entry_data: bytes = b""  # the last ``entry`` event's JSON
        self.scores: dict[int, float] = {}  # revision -> first heard
        self.heard = asyncio.Event()  # set at each event of interest (the waiters look again)
        self.opened_at: float | None = None  # when its last opening was answered 200
        self.ended = False
        self.is_open = False  # a connection of it is open now, answered 200
        self.task = asyncio.get_running_loop().create_task(self.run())

    def close(self) -> None:
        self.task.cancel()

    def url(self) -> str:
        since = self.last_revision()
        if since is None:
            return self.path
        return self.path + ("&" if "?" in self.path else "?") + f"since={since}"

    def last_revision(self) -> int | None:
        return max(self.scores, default=self.since)

    async def run(self) -> None:
        backoff, url = 0, self.url()
        while True:
            status = await self.session(url)
            if status == "end":
                self.ended = True
                return
            if status in (200, 0):  # closed by the server, or no connection: the EventSource's own retry
                await asyncio.sleep(self.retry)
                continue
            backoff = max(min(backoff * 2, 128), 1)  # refused: htmx-ext-sse makes a new EventSource
            await asyncio.sleep(backoff * 0.5)
            self.last_id, url = None, self.url()

    async def session(self, url: str):
        """One connection of the stream: the status it was answered with (0: none), or "end"."""
        phone, loop = self.phone, asyncio.get_running_loop()
        headers = dict(EVENTS, **({"Last-Event-ID": self.last_id} if self.last_id else {}))
        asked = loop.time()
        writer = None
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(HOST, phone.port, local_addr=(phone.address, 0)), TIMEOUT
            )
            writer.write(phone.request_head("GET", url, headers, b""))
            status, answer, cookies = head_of((await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT))[:-4])
            phone.record.streams.append((asked, (loop.time() - asked) * 1000, status, phone.name))
            phone.keep(cookies)
            if status != 200:
                return status
            self.opened_at, self.is_open = loop.time(), True
            return await self.read(reader, answer.get("transfer-encoding") == "chunked")
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            if self.opened_at is None or self.opened_at < asked:  # it never opened
                phone.record.streams.append((asked, (loop.time() - asked) * 1000, 0, phone.name))
            return 200 if self.opened_at and self.opened_at >= asked else 0
        finally:
            self.is_open = False
            if writer is not None:
                writer.close()

    async def read(self, reader: asyncio.StreamReader, chunked: bool):
        buffer = b""
        while True:
            if chunked:
                size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    return 200
                chunk = (await reader.readexactly(size + 2))[:-2]
            else:
                chunk = await reader.read(65536)
                if not chunk:
                    return 200
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                if self.told(block) == "end":
                    return "end"

    def told(self, block: bytes):
        event, data, revision = None, b"", None
        for line in block.split(b"\n"):
            name, _, value = line.partition(b": ")
            if name == b"event":
                event = value
            elif name == b"data":
                data = value
            elif name == b"id":
                revision, self.last_id = value, value.decode()
            elif name == b"retry":
                self.retry = int(value) / 1000
        now = asyncio.get_running_loop().time()
        if event == b"end":
            return "end"
        if event == b"entry" and (found := VERSION.search(data)):
            self.entry.append((now, int(found.group(1))))
            self.entry_data = data
            self.heard.set()
        elif event == b"scores" and revision is not None:
            self.scores.setdefault(int(revision), now)
            self.heard.set()
        return None

    def entry_reached(self, version: int) -> float | None:
        """When an entry of at least this version was first heard (None: not yet)."""
        return next((when for when, heard in self.entry if heard >= version), None)

    def scores_after(self, revision: int) -> float | None:
        return min((when for rev, when in self.scores.items() if rev > revision), default=None)

    async def wait(self, found, timeout: float):
        """``found()`` once it holds (waited for event by event), or None after ``timeout`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (result := found()) is None:
            left = deadline - loop.time()
            if left <= 0:
                return None
            self.heard.clear()
            try:
                await asyncio.wait_for(self.heard.wait(), left)
            except TimeoutError:
                return found()
        return result
