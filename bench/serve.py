"""gunicorn with 2 workers on 127.0.0.1, for the benchmarks (started, waited for, stopped)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def gunicorn(database_url: str, port: int, **env):
    """Serve the app on ``port`` until the block ends; yields its base URL."""
    environment = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench", "AUTO_MIGRATE": "0", **env}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}", "--log-level", "warning",
         "app:create_app()"],
        cwd=ROOT, env=environment, start_new_session=True, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
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
