"""Ten thousand phones on one box (issue 56), run by hand: ``python bench/swarm.py`` (SQLite) or
``DATABASE_URL=postgresql+psycopg://… python bench/swarm.py`` (PostgreSQL).

Serves the app with the repository's gunicorn config (gevent, ``BENCH_WORKERS`` workers, 2 by
default) and plays tables at it (``bench/tables.py``: five phones a table, a watcher at one table
in two, each table from an address of its own in 127.1.0.0/16 as a family behind its own Wi-Fi,
the limits as the app sets them), in steps of ``SWARM_STEPS`` phones at the tables (1,000, 2,500,
5,000, 10,000; the watchers come on top). Each step: the tables are added (``SWARM_RAMP`` new
tables a second), left ``SWARM_SETTLE`` s, then measured for ``SWARM_HOLD`` s:

- the fan-out of a hand change and of a saved manche to the table's other phones (p50, p95, p99
  and misses), from the write's answer to each stream hearing it;
- the server's resident memory (all its processes), CPU (of one core), open file descriptors;
  the generator's CPU, and the rest of the machine's (other work on the same cores);
- ``/healthz`` p95 (asked ten times a second by a process of its own) beside its idle figure,
  measured before the first phone;
- every answer that was not 2xx/3xx, by kind (status 0: none at all), and the streams refused.

``SWARM_RESTART=1``: after the last step the server is stopped (SIGTERM, as a deploy does) and
started again; every phone's stream reconnects by itself as a browser's would: how long until
every one is open again (waited for up to ``SWARM_RESTART_WAIT`` s, 60), and what was refused
meanwhile. ``SWARM_RAMP_WAIT`` (s): the most a step waits for its tables to be set up;
``SWARM_WAIT`` (10 s): how long a phone waits to hear a change before it is a miss;
``SWARM_TIMEOUT`` (30 s): how long a request waits for its answer before it counts as none.
``SWARM_DATABASE``: a migrated database to play on (the smoke test's), instead of a new one.

The phones run in ``SWARM_PROCS`` client processes (asyncio, one connection per request and per
stream). ``SWARM_SCALE`` speeds the tables' time up (1: a manche every 2–3 minutes, as at a real
table). ``SWARM_JSON`` writes every figure to that file too. Prints a markdown table.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.phones import Record  # noqa: E402
from bench.swarm_figures import Window, figures, markdown  # noqa: E402
from bench.tables import PLAYERS, WATCHER_EVERY, Table, prepared  # noqa: E402

STEPS = [int(n) for n in os.environ.get("SWARM_STEPS", "1000,2500,5000,10000").split(",")]
HOLD = float(os.environ.get("SWARM_HOLD", "120"))
SETTLE = float(os.environ.get("SWARM_SETTLE", "20"))
RAMP = float(os.environ.get("SWARM_RAMP", "25"))  # new tables a second
RAMP_WAIT = float(
    os.environ.get("SWARM_RAMP_WAIT", "0")
)  # the most a step waits for its tables (0: 3× the ramp + 60 s)
RESTART_WAIT = float(os.environ.get("SWARM_RESTART_WAIT", "60"))  # the most the restart waits for every stream
SCALE = float(os.environ.get("SWARM_SCALE", "1"))
PROCS = int(os.environ.get("SWARM_PROCS", "2"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
IDLE_SECONDS = float(os.environ.get("SWARM_IDLE", "15"))
PORT = int(os.environ.get("SWARM_PORT", "8791"))


def address(index: int) -> str:
    """Table ``index``'s own address (its watcher's: the same in 127.2.0.0/16)."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


# --- the server -------------------------------------------------------------------------------------


class Server:
    """gunicorn with the repository's config on ``PORT``; started, stopped, its processes read."""

    def __init__(self, database_url: str, workers: int, env: dict | None = None):
        self.env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench", "AUTO_MIGRATE": "0",
                    **(env or {})}  # fmt: skip
        self.workers = workers
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 120) -> float:
        """Started and answering /healthz: when it first answered (time.monotonic())."""
        with socket.socket() as taken:  # another server there would answer for this one
            if taken.connect_ex(("127.0.0.1", PORT)) == 0:
                raise RuntimeError(f"port {PORT} is taken: SWARM_PORT chooses another")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", str(self.workers), "-b", f"127.0.0.1:{PORT}",
             "--log-level", "warning", "app:create_app()"],
            cwd=ROOT, env=self.env, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=10):
                    return time.monotonic()
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=60)

    def pids(self) -> list[int]:
        if self.process is None or self.process.poll() is not None:
            return []
        master = self.process.pid
        try:
            return [master, *(int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split())]
        except OSError:
            return [master]


def process_figures(pid: int) -> tuple[int, int, int]:
    """(resident bytes, CPU ticks used so far, open file descriptors) of one process; zeros if gone."""
    try:
        rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, IndexError):
        return 0, 0, 0
    return rss, int(fields[11]) + int(fields[12]), fds


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


class Sampler(threading.Thread):
    """Once a second: the server's and the generator's processes, and the whole machine."""

    def __init__(self, server: Server, clients: list):
        super().__init__(daemon=True)
        self.server, self.clients = server, clients
        self.samples: list[dict] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            server = [process_figures(pid) for pid in self.server.pids()]
            own = [process_figures(pid) for pid in [os.getpid(), *(c.pid for c in self.clients)]]
            busy, total = machine_ticks()
            self.samples.append({
                "t": time.monotonic(), "rss": sum(s[0] for s in server), "server_ticks": sum(s[1] for s in server),
                "fds": sum(s[2] for s in server), "worker_fds": max((s[2] for s in server[1:]), default=0),
                "bench_ticks": sum(s[1] for s in own), "busy": busy, "total": total,
                "load": float(Path("/proc/loadavg").read_text().split()[0]),
            })  # fmt: skip


def probe(port: int, stop, out) -> None:
    """``/healthz`` ten times a second, each on a new connection, until ``stop``: (asked, ms, status)."""
    seen = []
    while not stop.is_set():
        asked = time.monotonic()
        status = 0
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
                sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
                head = sock.recv(4096)
                status = int(head.split(b" ", 2)[1]) if head else 0
        except (OSError, ValueError, IndexError):
            status = 0
        seen.append((asked, (time.monotonic() - asked) * 1000, status))
        time.sleep(max(0.0, 0.1 - (time.monotonic() - asked)))
    out.send(seen)


# --- the client processes -------------------------------------------------------------------------


def client(index: int, port: int, games: list, target, ready, open_streams, busy, quiet, stop, out) -> None:
    """One client process: the tables whose number is ``index`` modulo ``PROCS``, as many as
    ``target`` says in all; what it saw is sent to ``out`` once ``stop`` is set."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    record = Record()
    asyncio.run(play(index, port, games, (target, ready, open_streams, busy, quiet, stop), record))
    out.send(record.__dict__)


async def play(index, port, games, shared, record: Record) -> None:
    """``shared``: the tables wanted in all; this process's tables set up, streams open, tables
    playing a round; and the orchestrator's ``quiet`` (no new round) and ``stop``."""
    target, ready, open_streams, busy, quiet, stop = shared
    tables: list[Table] = []
    tasks: list[asyncio.Task] = []
    finished, calm = asyncio.Event(), asyncio.Event()
    room = asyncio.Semaphore(20)  # tables being set up at once

    async def start(table: Table) -> None:
        async with room:
            try:
                await table.set_up(games[table.index])
            except Exception as error:  # noqa: BLE001 — counted, the table is left out
                record.aborted.append((asyncio.get_running_loop().time(), f"set-up: {error}"))
                return
        ready.value += 1
        await table.play(finished, calm)

    while not stop.is_set():
        mine = [i for i in range(target.value) if i % PROCS == index]
        for i in mine[len(tables) :][: max(1, int(RAMP / PROCS))]:  # at most RAMP new tables a second in all
            table = Table(i, port, record, SCALE, address(i), i % WATCHER_EVERY == 0)
            tables.append(table)
            tasks.append(asyncio.create_task(start(table)))
        open_streams.value = sum(1 for t in tables for p in t.all_phones() if p.stream is not None and p.stream.is_open)
        busy.value = sum(1 for t in tables if t.busy)
        if quiet.is_set():
            calm.set()
        await asyncio.sleep(1.0)
    finished.set()
    for table in tables:
        table.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


# --- the run --------------------------------------------------------------------------------------


def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    url = os.environ.get("SWARM_DATABASE") or prepared_database()
    games = prepared(url, max(STEPS) // len(PLAYERS))
    server = Server(url, WORKERS)
    server.start()
    run = Run(server, games)
    windows: list[Window] = []
    try:
        windows += run.steps()
        if os.environ.get("SWARM_RESTART") == "1":
            restart = run.restart()
            windows += [run.drained, restart]
    finally:  # what was measured is told, whatever stopped the run
        records, checks = run.stop()
        server.stop()
        report(url, windows, records, run, checks)


def report(url: str, windows: list, records: list[dict], run, checks: list) -> None:
    results = figures(windows, records, run.sampler.samples, checks, run.idle)
    for reason in sorted({why for record in records for _, why in record["aborted"]})[:10]:
        print("given up:", reason)
    print("requests with no answer, by cause:", [record["failures"] for record in records])
    database = "PostgreSQL" if url.startswith("postgres") else "SQLite"
    print(markdown(results, f"{database}, gunicorn.conf.py (gevent), {WORKERS} workers, {PROCS} client processes, "
                            f"time scale {SCALE:g}×, {os.cpu_count()} cores"))  # fmt: skip
    if os.environ.get("SWARM_JSON"):
        Path(os.environ["SWARM_JSON"]).write_text(json.dumps(results, indent=1))


def prepared_database() -> str:
    from bench.serve import database_url
    from models.services.db import Database
    from models.services.schema import migrate

    url = database_url("swarm", tempfile.mkdtemp(prefix="carte-swarm-"))
    database = Database(url)
    migrate(database)
    database.dispose()
    return url


class Run:
    """The client processes, the probe and the sampler around one server."""

    def __init__(self, server: Server, games: list):
        self.server = server
        context = multiprocessing.get_context("fork")
        self.stop_event = context.Event()
        self.targets = [context.Value("i", 0) for _ in range(1)]
        self.ready = context.Value("i", 0, lock=False)
        self.open = [context.Value("i", 0, lock=False) for _ in range(PROCS)]
        self.busy = [context.Value("i", 0, lock=False) for _ in range(PROCS)]
        self.quiet = context.Event()
        self.pipes, self.clients = [], []
        for index in range(PROCS):
            mine, theirs = context.Pipe(duplex=False)
            shared = (self.targets[0], self.ready, self.open[index], self.busy[index], self.quiet, self.stop_event)
            process = context.Process(target=client, args=(index, PORT, games, *shared, theirs), daemon=True)
            self.pipes.append(mine)
            self.clients.append(process)
        self.probe_in, probe_out = context.Pipe(duplex=False)
        self.probe = context.Process(target=probe, args=(PORT, self.stop_event, probe_out), daemon=True)
        self.sampler = Sampler(server, self.clients)
        self.probe.start()
        self.sampler.start()
        started = time.monotonic()
        time.sleep(IDLE_SECONDS)  # the idle figures: the server up, no phone yet
        self.idle = Window("idle", 0, started, time.monotonic())
        for process in self.clients:
            process.start()

    def streams_open(self) -> int:
        return sum(value.value for value in self.open)

    def steps(self) -> list[Window]:
        windows = []
        for phones in STEPS:
            tables = phones // len(PLAYERS)
            self.targets[0].value = tables
            deadline = time.monotonic() + (RAMP_WAIT or tables / RAMP * 3 + 60)
            while self.ready.value < tables and time.monotonic() < deadline:
                time.sleep(1)
            time.sleep(SETTLE)
            started = time.monotonic()
            time.sleep(HOLD)
            window = Window(f"{phones:,} phones", phones, started, time.monotonic())
            window.tables, window.streams_open = self.ready.value, self.streams_open()
            windows.append(window)
            print(f"step {phones}: {window.tables} tables ready, {window.streams_open} streams open", flush=True)
        return windows

    def restart(self) -> Window:
        """The server stopped and started again: until every stream is open again (or
        ``RESTART_WAIT``). The rounds being played end first, none begins: what was asked before
        is answered before, and the phones are on their pages."""
        self.quiet.set()
        drained = Window("rounds ending", 0, time.monotonic(), 0)
        deadline = time.monotonic() + RESTART_WAIT
        while time.monotonic() < deadline and sum(value.value for value in self.busy):
            time.sleep(0.5)
        time.sleep(2)  # the last pages' streams open
        drained.end = time.monotonic()
        self.drained = drained
        before = self.streams_open()
        stopped = time.monotonic()
        self.server.stop()
        try:
            self.server.start()
        except RuntimeError as error:  # told in the figures: what came back, and when
            print(f"restart: {error}", flush=True)
        deadline = time.monotonic() + RESTART_WAIT
        while time.monotonic() < deadline and self.streams_open() < before:
            time.sleep(0.5)
        window = Window("restart", 0, stopped, time.monotonic())
        window.streams_open, window.streams_before = self.streams_open(), before
        return window

    def stop(self) -> tuple[list[dict], list]:
        self.stop_event.set()
        records = [pipe.recv() for pipe in self.pipes]
        healthz = self.probe_in.recv()
        self.sampler.stopped.set()
        for process in [*self.clients, self.probe]:
            process.join(timeout=30)
        return records, healthz


if __name__ == "__main__":
    main()
