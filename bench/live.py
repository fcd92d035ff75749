"""The live table under load (issue 24), run by hand: `python bench/live.py` (SQLite) or
`DATABASE_URL=postgresql+psycopg://… python bench/live.py` (PostgreSQL, adds the writers;
``BENCH_ONLY=writers``: the writers alone).

Serves the app with the repository's gunicorn config (gevent, ``WEB_CONCURRENCY`` workers, 1 by
default) and measures, in one run:

1. ``/healthz`` p50/p95 with wrk (Debian package), idle, then with ``STREAMS`` open event streams
   (plain sockets held by this process, ``Accept: text/event-stream``, the session cookie a phone
   has): the ratio of the two p95;
2. one manche recorded through the API, fanned out to all the open streams: from the moment its
   answer came back (the manche stored) to each stream's ``scores`` event, p50/p95/max;
3. the worker's memory per open stream (its resident set before and after, over ``STREAMS``);
4. on PostgreSQL: N writers on N games (wrk, one connection per thread, each on its own games),
   the throughput per game and in all for N = 1 and N = 8 — no row is shared by all games any
   more, so 8 writers together do at least what one does (per game, they share the CPU), and every
   2xx is a manche stored (counted afterwards: a request still in flight when wrk stops is stored
   too, so stored ≥ 2xx).

Prints a markdown table. Ratios and per-stream figures compare across machines; raw figures
do not. Needs `wrk`; raises its own open-files limit for the streams.
"""

from __future__ import annotations

import json
import os
import re
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.phone import PHONE  # noqa: E402
from bench.serve import database_url, lua_file  # noqa: E402

STREAMS = int(os.environ.get("BENCH_STREAMS", "1000"))
ONLY = os.environ.get("BENCH_ONLY", "")  # "writers": the writers' rows alone (PostgreSQL)
DURATION = os.environ.get("BENCH_SECONDS", "8")
PORT = 8790
HAND = {"winner": "Ana", "hands": {"Bob": ["3C", "KD"], "Chloé": ["8H"]}}
P95 = """
done = function(summary, latency, requests)
  io.write(string.format("p95_us %d\\n", latency:percentile(95)))
end
"""


def raise_open_files(count: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, count))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def call(base: str, path: str, body=None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                     headers=headers, method="POST" if body is not None else "GET")  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def new_game(base: str) -> tuple[str, str]:
    game = call(base, "/api/v1/games", {"variant": "classique", "players": ["Ana", "Bob", "Chloé"],
                                        "first_dealer": 0, "rounds": 1000, "mode": "wins"})  # fmt: skip
    return game["id"], game["edit_token"]


def wrk(url: str, connections: int = 16, threads: int = 2, script: str | None = None, headers=None) -> dict:
    lua = lua_file((Path(script).read_text() if script else "") + P95)
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{DURATION}s", "--latency", "-s", lua]
    for key, value in {**PHONE, **(headers or {})}.items():
        command += ["-H", f"{key}: {value}"]
    run = subprocess.run([*command, url], capture_output=True, text=True, check=True)
    os.unlink(lua)
    out = run.stdout
    if "p95_us" not in out:
        raise RuntimeError(f"wrk gave no latency:\n{out}\n{run.stderr}")

    def ms(label):
        value, unit = re.search(rf"{label}\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) / 1000 if unit == "us" else float(value) * 1000 if unit == "s" else float(value)

    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"p50": ms("50%"), "p95": int(re.search(r"p95_us (\d+)", out).group(1)) / 1000,
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "errors": int(non2xx.group(1)) if non2xx else 0}  # fmt: skip


class Streams:
    """``count`` open event streams of one game, read by one selector loop."""

    def __init__(self, port: int, path: str, count: int, cookie: str | None):
        self.selector = selectors.DefaultSelector()
        self.buffers: dict = {}
        self.sockets = []
        head = f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in PHONE.items())
        head += f"Cookie: {cookie}\r\n" if cookie else ""
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall((head + "\r\n").encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.buffers[sock] = b""
            self.sockets.append(sock)
        self.wait_for(lambda data: b"retry:" in data, timeout=60)

    def wait_for(self, found, timeout: float) -> dict:
        """Read until ``found(buffer)`` holds for every stream; the moment it first held, per stream."""
        when: dict = {}
        deadline = time.monotonic() + timeout
        while len(when) < len(self.sockets) and time.monotonic() < deadline:
            for key, _ in self.selector.select(timeout=0.5):
                chunk = key.fileobj.recv(65536)
                self.buffers[key.fileobj] += chunk
                if key.fileobj not in when and found(self.buffers[key.fileobj]):
                    when[key.fileobj] = time.monotonic()
        return when

    def close(self) -> None:
        for sock in self.sockets:
            self.selector.unregister(sock)
            sock.close()


def worker_rss(master_pid: int) -> int:
    """The resident set of the (first) worker, in bytes."""
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children").read_text().split()
    status = Path(f"/proc/{children[0]}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) * 1024


def serve(database_url: str):
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench", "STREAMS_PER_CLIENT": "100000",
           "WRITE_LIMIT": "1000000 per minute", "CREATE_LIMIT": "1000000 per minute"}  # fmt: skip
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-b", f"127.0.0.1:{PORT}", "--log-level", "warning",
                               "app:create_app()"], cwd=ROOT, env=env, start_new_session=True)  # fmt: skip
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the app did not start")


def writers(base: str, count: int, games_each: int = 8) -> dict:
    """``count`` wrk connections (one thread each), each recording manches on games of its own
    (``games_each`` of them in turn: a game holds at most 1,000 manches); checks afterwards that
    every 2xx is a manche stored."""
    own = [[new_game(base) for _ in range(games_each)] for _ in range(count)]
    rows = ",".join("{" + ",".join(f'{{"{g}","{t}"}}' for g, t in mine) + "}" for mine in own)
    body = json.dumps(HAND, ensure_ascii=False).replace('"', '\\"')
    script = f"""
writers = {{{rows}}}
local n = 0
setup = function(thread) n = n + 1; thread:set("w", n) end
init = function(args) mine = writers[w]; i = 0; ok = 0 end
request = function()
  i = i + 1
  local g = mine[(i % #mine) + 1]
  return wrk.format("POST", "/api/v1/games/" .. g[1] .. "/manches",
    {{["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. g[2]}}, "{body}")
end
"""
    path = lua_file(script)
    result = wrk(base + "/", connections=count, threads=count, script=path)
    os.unlink(path)
    stored = sum(len(call(base, f"/api/v1/games/{g}")["manches"]) for mine in own for g, _ in mine)
    if stored < result["requests"] - result["errors"]:
        raise RuntimeError(f"{result['requests'] - result['errors']} manches answered 2xx, only {stored} stored")
    return {**result, "per_writer": result["rps"] / count, "stored": stored}


def main() -> None:
    raise_open_files(STREAMS * 2 + 200)
    url = database_url("live", tempfile.mkdtemp(prefix="carte-live-"))
    server = serve(url)
    base = f"http://127.0.0.1:{PORT}"
    try:
        rows = measure(base, server.pid, url.startswith("postgres"))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
    print(f"\n{'PostgreSQL' if url.startswith('postgres') else 'SQLite'}, gunicorn.conf.py (gevent, "
          f"{os.environ.get('WEB_CONCURRENCY', '1')} worker), {STREAMS:,} streams, wrk -t2 -c16 -d{DURATION}s, "
          f"{os.cpu_count()} cores\n")  # fmt: skip
    print("| measure | value | target |\n|---|---:|---|")
    for label, value, target in rows:
        print(f"| {label} | {value} | {target} |")


def measure(base: str, master: int, postgres: bool) -> list[tuple]:
    if ONLY == "writers":
        return writer_rows(base)
    game_id, token = new_game(base)
    with urllib.request.urlopen(urllib.request.Request(f"{base}/games/{game_id}", headers=PHONE)) as response:
        cookie = (response.headers.get("Set-Cookie") or "").split(";", 1)[0] or None
    idle = wrk(base + "/healthz")
    rss_before = worker_rss(master)
    streams = Streams(PORT, f"/games/{game_id}/events", STREAMS, cookie)
    rss_after = worker_rss(master)
    busy = wrk(base + "/healthz")
    started = time.monotonic()
    call(base, f"/api/v1/games/{game_id}/manches", HAND, token)
    stored = time.monotonic()
    arrived = streams.wait_for(lambda data: b"event: scores" in data, timeout=30)
    delays = sorted(t - stored for t in arrived.values())
    streams.close()
    ms = [d * 1000 for d in delays]
    rows = [
        ("`/healthz` idle p50 / p95", f"{idle['p50']:.2f} / {idle['p95']:.2f} ms", ""),
        (f"`/healthz` with {STREAMS:,} streams open p50 / p95", f"{busy['p50']:.2f} / {busy['p95']:.2f} ms", ""),
        ("p95 with streams ÷ p95 idle", f"{busy['p95'] / idle['p95']:.2f}×", "≤ 2×"),
        ("streams that got the manche", f"{len(delays):,} of {STREAMS:,}", "all"),
        ("fan-out from the manche stored: p50 / p95 / max",
         f"{statistics.median(ms):.0f} / {ms[int(len(ms) * 0.95) - 1]:.0f} / {ms[-1]:.0f} ms", "p95 ≤ 1,000 ms (aim 300)"),
        ("the write itself (API round trip)", f"{(stored - started) * 1000:.0f} ms", ""),
        ("worker memory per open stream", f"{(rss_after - rss_before) / STREAMS / 1024:.1f} KB", ""),
    ]  # fmt: skip
    return rows + (writer_rows(base) if postgres else [])


def writer_rows(base: str) -> list[tuple]:
    """1 writer, then 8, each on games of its own; the rows of the table."""
    one, eight = writers(base, 1), writers(base, 8)
    return [
        ("1 writer on games of its own: manches/s", f"{one['per_writer']:,.0f} ({one['requests']:,} sent, "
         f"{one['errors']} non-2xx, {one['stored']:,} stored)", ""),
        ("8 writers on games of their own: manches/s per writer", f"{eight['per_writer']:,.0f} (total "
         f"{eight['rps']:,.0f}; {eight['requests']:,} sent, {eight['errors']} non-2xx, {eight['stored']:,} stored)",
         ""),
        # One writer alone already keeps the worker busy between its round trips, so 8 writers
        # share the same CPU: what a row shared by all games would show is 8 writers together
        # doing less than one alone (each waiting on the others' lock).
        ("all writers, 8 ÷ 1", f"{eight['rps'] / one['rps']:.2f}×", "≥ 1× (no lock shared by all games)"),
    ]  # fmt: skip


if __name__ == "__main__":
    main()
