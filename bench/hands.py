"""One manche, many hands under load (issue 45), run by hand: `python bench/hands.py` (SQLite) or
`DATABASE_URL=postgresql+psycopg://… python bench/hands.py` (PostgreSQL).

Serves the app with the repository's gunicorn config (as ``bench/live.py``) and, in one run, on
one game of eight players (deux-jeux):

1. **the live table's fan-out**, the reference: ``MANCHES`` manches recorded one after another
   through the API, each from the moment its answer came back (stored) to each of the 8 phones'
   event streams saying ``scores`` — its p50/p95, and how many phones never said it (waited for
   up to ``WAIT_SECONDS`` each manche);
2. **8 phones filling one manche at once**: each phone (a thread) changes its own hand through
   the API every ``INTERVAL`` seconds for ``BENCH_HANDS_SECONDS`` (20 by default); each change,
   from the moment its answer came back (stored, with the entry's version) to the first ``entry``
   event of that version or a later one on each of the *other* 7 phones' streams (the feed may
   fold two changes into one event: a later version carries the change too) — p50/p95/max, and
   the p95 as a ratio to the fan-out of step 1. Once the phones stop, each stream is waited for
   until it has said the last version (up to ``WAIT_SECONDS``: a stream that never does is not
   waited for forever), and every change a phone never heard is counted as missed.

Prints a markdown table. Ratios compare across machines; raw figures do not.
"""

from __future__ import annotations

import bisect
import http.cookiejar
import json
import os
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live import PORT, serve  # noqa: E402
from bench.phone import PHONE  # noqa: E402
from bench.serve import database_url  # noqa: E402

PLAYERS = ["Ana", "Bob", "Chloé", "Dan", "Eve", "Fred", "Gus", "Hugo"]
SECONDS = float(os.environ.get("BENCH_HANDS_SECONDS", "20"))
INTERVAL = 0.2
MANCHES = 10
WAIT_SECONDS = 10.0  # the most a phone's stream is waited for, before what it did not say is a miss
BASE = f"http://127.0.0.1:{PORT}"


def call(path: str, body=None, token: str | None = None, method: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        BASE + path, data=data, headers=headers, method=method or ("POST" if data else "GET")
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


class Phone(threading.Thread):
    """One phone's event stream on the manche entry: when each ``scores`` revision and each entry
    version first arrived."""

    def __init__(self, path: str, cookie: str):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", PORT))
        head = f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: {cookie}\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in PHONE.items() if k != "Accept-Encoding")
        self.sock.sendall((head + "\r\n").encode())
        self.open = threading.Event()
        self.changed = threading.Condition()  # told of each entry or scores event heard
        self.versions: list[tuple[int, float]] = []  # (entry version, arrived), in order of arrival
        self.scores: dict[int, float] = {}  # revision -> arrived

    def run(self) -> None:
        buffer, headed = b"", False
        while chunk := self.receive():
            buffer += chunk
            if not headed and b"\r\n\r\n" in buffer:
                buffer, headed = buffer.split(b"\r\n\r\n", 1)[1], True
            while headed and b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                self.heard(block.decode(), time.monotonic())

    def receive(self) -> bytes:
        try:
            return self.sock.recv(65536)
        except OSError:  # closed by the bench: the stream is over
            return b""

    def heard(self, block: str, now: float) -> None:
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
        if block.startswith("retry:"):
            self.open.set()
        with self.changed:
            if fields.get("event") == "entry":
                self.versions.append((json.loads(fields["data"])["version"], now))
            elif fields.get("event") == "scores":
                self.scores.setdefault(int(fields["id"]), now)
            self.changed.notify_all()

    def scores_said(self, revision: int, deadline: float) -> float | None:
        """When this stream said revision ``revision``'s scores, waited for until ``deadline``
        (time.monotonic()); None: not by then."""
        with self.changed:
            self.changed.wait_for(lambda: revision in self.scores, max(deadline - time.monotonic(), 0.0))
            return self.scores.get(revision)

    def version_said(self, version: int, deadline: float) -> float | None:
        """When this stream said entry version ``version`` or a later one, waited for until
        ``deadline``; None: not by then."""
        with self.changed:
            self.changed.wait_for(lambda: self.reached(version) is not None, max(deadline - time.monotonic(), 0.0))
            return self.reached(version)

    def reached(self, version: int) -> float | None:
        """When a version at least ``version`` first arrived (versions arrive in order)."""
        ordered = [v for v, _ in self.versions]
        index = bisect.bisect_left(ordered, version)
        return self.versions[index][1] if index < len(self.versions) else None


def session_cookie(game_id: str, token: str) -> str:
    """The cookie of a phone that joined with the owner's link (the rights to write)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{BASE}/join/{game_id}/{token}", timeout=30).read()
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def percentiles(delays: list[float]) -> tuple[float, float, float]:
    ms = sorted(d * 1000 for d in delays)
    if not ms:  # nothing heard at all: the misses say it
        return float("nan"), float("nan"), float("nan")
    return statistics.median(ms), ms[max(int(len(ms) * 0.95) - 1, 0)], ms[-1]


def fan_out(game_id: str, token: str, phones: list[Phone]) -> tuple[list[float], int]:
    """The live table's reference: manches recorded one by one, stored → each phone's scores; and
    how many times a phone never said a manche's scores."""
    delays, missed = [], 0
    hands = {name: ["K"] for name in PLAYERS[1:]}
    for _ in range(MANCHES):
        call(f"/api/v1/games/{game_id}/manches", {"winner": "Ana", "hands": hands}, token)
        stored = time.monotonic()
        revision = len(call(f"/api/v1/games/{game_id}", token=token)["manches"])
        deadline = stored + WAIT_SECONDS
        for phone in phones:
            arrived = phone.scores_said(revision, deadline)
            if arrived is None:
                missed += 1
            else:
                delays.append(max(arrived - stored, 0.0))
    return delays, missed


def filling(game_id: str, token: str, phones: list[Phone]) -> tuple[list[float], int, int]:
    """8 phones, each changing its own hand every INTERVAL s: stored → the other 7 phones."""
    number = call(f"/api/v1/games/{game_id}/entry", token=token)["number"]
    changes: list[tuple[int, int, float]] = []  # (seat, version, stored)
    lock, end = threading.Lock(), time.monotonic() + SECONDS

    def count(seat: int) -> None:
        turn = 0
        while time.monotonic() < end:
            turn += 1
            body = {"number": number, "cards": ["K"] * (turn % 2 + 1), "done": False, "me": PLAYERS[seat]}
            version = call(f"/api/v1/games/{game_id}/entry/hands/{seat}", body, token, "PUT")["version"]
            with lock:
                changes.append((seat, version, time.monotonic()))
            time.sleep(INTERVAL)

    writers = [threading.Thread(target=count, args=(seat,)) for seat in range(len(PLAYERS))]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    last = max((version for _seat, version, _stored in changes), default=0)
    deadline = time.monotonic() + WAIT_SECONDS
    for phone in phones:  # each stream says the last version (or is given up on, its misses counted)
        phone.version_said(last, deadline)
    delays, missed = [], 0
    for seat, version, stored in changes:
        for index, phone in enumerate(phones):
            if index == seat:
                continue
            arrived = phone.reached(version)
            if arrived is None:
                missed += 1
            else:
                delays.append(max(arrived - stored, 0.0))
    return delays, len(changes), missed


def measure() -> list[tuple]:
    game = call("/api/v1/games", {"variant": "deux-jeux", "players": PLAYERS, "first_dealer": 0, "rounds": 1000})
    game_id, token = game["id"], game["edit_token"]
    cookie = session_cookie(game_id, token)
    phones = [Phone(f"/games/{game_id}/events?entering=1", cookie) for _ in PLAYERS]
    for phone in phones:
        phone.start()
        phone.open.wait(10)
    delays, silent = fan_out(game_id, token, phones)
    reference = percentiles(delays)
    for phone in phones:  # the streams' entry number follows the manches recorded: reopen them
        phone.sock.close()
    number = len(call(f"/api/v1/games/{game_id}", token=token)["manches"]) + 1
    phones = [Phone(f"/games/{game_id}/events?entering={number}", cookie) for _ in PLAYERS]
    for phone in phones:
        phone.start()
        phone.open.wait(10)
    delays, changes, missed = filling(game_id, token, phones)
    hands = percentiles(delays)
    for phone in phones:
        phone.sock.close()
    return [
        (f"live table: a manche stored → 8 phones ({MANCHES} manches), p50 / p95 / max",
         "{:.0f} / {:.0f} / {:.0f} ms".format(*reference), ""),
        (f"8 phones filling one manche ({changes:,} changes in {SECONDS:.0f} s), a change stored → the other 7: "
         "p50 / p95 / max", "{:.0f} / {:.0f} / {:.0f} ms".format(*hands), "p95 ≤ 300 ms"),
        ("manches whose scores never reached a phone", f"{silent} of {MANCHES * len(PLAYERS)}", "0"),
        ("changes that never reached a phone", f"{missed} of {changes * 7:,}", "0"),
        ("p95 of a hand ÷ p95 of a manche", f"{hands[1] / reference[1]:.2f}×", ""),
    ]  # fmt: skip


def main() -> None:
    url = database_url("hands", tempfile.mkdtemp(prefix="carte-hands-"))
    server = serve(url)
    try:
        rows = measure()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
    print(f"\n{'PostgreSQL' if url.startswith('postgres') else 'SQLite'}, gunicorn.conf.py (gevent, "
          f"{os.environ.get('WEB_CONCURRENCY', '1')} worker), {os.cpu_count()} cores\n")  # fmt: skip
    print("| measure | value | target |\n|---|---:|---|")
    for label, value, target in rows:
        print(f"| {label} | {value} | {target} |")


if __name__ == "__main__":
    main()
