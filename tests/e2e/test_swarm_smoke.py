"""The swarm of bench/swarm.py, small: 200 phones at 40 tables (and 20 watchers), their time ten
times a table's, on a real gunicorn, then a restart of the server. Not a timed test (the waits are
long enough for a loaded machine): every change must reach every phone of its table, nothing may
be refused, and every phone's stream must come back after the restart by itself (bench/README.md has the figures of the full steps)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.serial
@pytest.mark.slow
def test_two_hundred_phones_hear_every_change_and_come_back_after_a_restart(database_url, tmp_path):
    figures = tmp_path / "swarm.json"
    env = {**os.environ, "SWARM_DATABASE": database_url, "SWARM_STEPS": "200", "SWARM_HOLD": "40",
           "SWARM_SETTLE": "3", "SWARM_IDLE": "2", "SWARM_SCALE": "10", "SWARM_PROCS": "1",
           "SWARM_RESTART": "1", "SWARM_JSON": str(figures), "SWARM_PORT": str(free_port()),
           # waited for as long as a loaded machine needs: a miss is a change never heard, not a slow one
           "SWARM_RAMP_WAIT": "240", "SWARM_WAIT": "60", "SWARM_TIMEOUT": "120", "SWARM_RESTART_WAIT": "240"}  # fmt: skip
    run = subprocess.run([sys.executable, "bench/swarm.py"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=900)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    step, restart = json.loads(figures.read_text())["windows"]
    assert step["tables"] == 40
    assert step["hand"]["n"] > 0 and step["manche"]["n"] > 0, step  # the tables played
    assert step["missed"] == {"hand": 0, "manche": 0}
    assert (step["refused"], step["streams_refused"], step["aborted"], step["healthz_failed"]) == ({}, {}, 0, 0)
    assert restart["streams_before"] >= 200
    assert restart["back"]["phones"] >= restart["streams_before"], restart  # every stream came back
    assert restart["streams_refused"].keys() <= {"0"}, restart  # refused by nobody: at most not yet listening
