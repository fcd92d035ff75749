"""gunicorn on 127.0.0.1 with the repository's config (gunicorn.conf.py: gevent) and
``BENCH_WORKERS`` workers (2 by default), for the benchmarks (started, waited for, stopped)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECRET_KEY = "bench"  # what the served app signs its session cookies with (bench/lighthouse.py signs its own alike)
SERVERS: dict[str, int] = {}  # base URL -> gunicorn's master process


def cpu_seconds(base: str) -> float:
    """The CPU time (user and system) the server at ``base`` has used so far: its master and its
    workers, from /proc (Linux). What a request costs the server, whatever else the machine runs."""
    master = SERVERS[base]
    pids = [master]
    try:
        pids += [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return float("nan")
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def database_url(name: str, workdir: str) -> str:
    """The database a benchmark serves, made anew: with ``DATABASE_URL`` (PostgreSQL) a schema
    ``carte_<name>`` dropped and created again, its URL setting the search path to it; else a
    SQLite file ``<name>.db`` in ``workdir``."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(workdir) / name}.db"
    from sqlalchemy import text

    from models.services.db import Database

    admin = Database(url)
    with admin.writer.begin() as conn:
        conn.execute(text(f"DROP SCHEMA IF EXISTS carte_{name} CASCADE; CREATE SCHEMA carte_{name}"))
    admin.dispose()
    return url + ("&" if "?" in url else "?") + f"options=-csearch_path%3Dcarte_{name}"


@contextmanager
def gunicorn(database_url: str, port: int, app: str = "app:create_app()", **env):
    """Serve ``app`` (the Carte app unless told) on ``port`` with the app's gunicorn settings
    until the block ends; yields its base URL."""
    environment = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": "0", **env}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", os.environ.get("BENCH_WORKERS", "2"), "-b", f"127.0.0.1:{port}",
         "--log-level", "warning", app],
        cwd=ROOT, env=environment, start_new_session=True, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    SERVERS[base] = server.pid
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()


def lua_file(script: str) -> str:
    """A wrk script written to a file of its own (the caller removes it): its path."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(script)
    return handle.name
