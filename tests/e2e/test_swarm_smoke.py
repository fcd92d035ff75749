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
           "SWARM_RAMP_WAIT": "480", "SWARM_WAIT": "60", "SWARM_TIMEOUT": "120", "SWARM_RESTART_WAIT": "240"}  # fmt: skip
    run = subprocess.run([sys.executable, "bench/swarm.py"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=1500)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    step, ending, restart = json.loads(figures.read_text())["windows"]  # the rounds begun end before the restart
    assert step["tables"] == 40, run.stdout[-2000:]  # every table seated before the window (ramp up to 480 s)
    played = [step, ending]
    assert sum(w["hand"]["n"] for w in played) > 0 and sum(w["manche"]["n"] for w in played) > 0, played
    assert [w["missed"] for w in played] == [{"hand": 0, "manche": 0}] * 2  # every change reached every phone
    # every request answered: nothing but a 503 with Retry-After (the database busy on a loaded machine)
    assert [k for w in played for k in w["refused"] if not k.endswith(" 503")] == [], played
    assert [(w["streams_refused"], w["healthz_failed"]) for w in played] == [({}, 0)] * 2, played
    assert restart["streams_before"] >= 200
    assert restart["back"]["phones"] >= restart["streams_before"], restart  # every stream came back
    assert restart["streams_refused"].keys() <= {"0"}, restart  # refused by nobody: at most not yet listening
