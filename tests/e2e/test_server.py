"""The app under gunicorn with several workers: parallel writes record once, and a server killed
with SIGKILL in the middle of a stream of writes loses no acknowledged manche."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import text

from models.services.db import Database

pytestmark = pytest.mark.serial  # gunicorn with several workers, killed and restarted

ROOT = Path(__file__).resolve().parents[2]


LISTENING = re.compile(rb"Listening at: http://127\.0\.0\.1:(\d+)")


class Server:
    """gunicorn serving create_app() on 127.0.0.1 with ``workers`` processes (of ``threads`` threads),
    run from the project's directory (so it reads gunicorn.conf.py); its log goes to ``log``.

    gunicorn binds a port the system chooses (``:0``) and says which in its log: a port picked
    here and let go before gunicorn binds it could be taken meanwhile (by another suite's server
    or an outgoing connection), and the test would then fail, or talk to somebody else's server."""

    def __init__(self, database_url: str, workers: int = 3, threads: int = 1, env: dict | None = None, log=None):
        self.database_url = database_url
        self.workers = workers
        self.threads = threads
        self.extra_env = env or {}
        self.log = log
        self.own_log = log is None  # a temporary file, removed when the server stops
        self.port = None
        self.url = None
        self.process = None

    def start(self):
        env = {
            **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEB_CONCURRENCY", "GUNICORN_CMD_ARGS")},
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "server-test",
            "AUTO_MIGRATE": "0",
            "WRITE_LIMIT": "100000 per minute",
            "CREATE_LIMIT": "100000 per minute",
            **self.extra_env,
        }
        if not self.log:
            handle, self.log = tempfile.mkstemp(prefix="carte-gunicorn-", suffix=".log")
            os.close(handle)
        log = open(self.log, "wb")  # noqa: SIM115 (the child writes to it)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", str(self.workers), "--threads", str(self.threads),
             "-b", "127.0.0.1:0", "--log-level", "info", "--timeout", "30", "app:create_app()"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True,
        )  # fmt: skip
        log.close()
        deadline = time.monotonic() + 30
        while self.port is None and time.monotonic() < deadline:
            found = LISTENING.search(Path(self.log).read_bytes())
            if found:
                self.port = int(found.group(1))
                self.url = f"http://127.0.0.1:{self.port}"
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.05)
        while self.url and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start")

    def kill(self):
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.forget_log()

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=15)
        self.forget_log()

    def forget_log(self):
        if self.own_log and self.log:
            Path(self.log).unlink(missing_ok=True)


def call(url: str, method: str = "GET", body=None, headers=None, timeout: float = 15):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


@pytest.fixture
def server(database_url):
    s = Server(database_url).start()
    yield s
    s.stop()


def new_game(server, players=("Ana", "Bob", "Chloé")):
    status, game = call(
        server.url + "/api/v1/games", "POST", {"variant": "classique", "players": list(players), "first_dealer": 0}
    )
    assert status == 201
    return game, {"Authorization": f"Bearer {game['edit_token']}"}


MANCHE = {"winner": "Ana", "hands": {"Bob": ["KS", "3C"], "Chloé": ["8H"]}}  # Bob 10 + 3 = 13, Chloé 8 = 50


def test_parallel_saves_of_the_same_manche_record_it_once(server):
    game, auth = new_game(server)
    url = f"{server.url}/api/v1/games/{game['id']}/manches"
    with ThreadPoolExecutor(max_workers=24) as pool:
        results = list(pool.map(lambda _: call(url, "POST", {**MANCHE, "number": 1}, auth), range(24)))
    codes = sorted(code for code, _ in results)
    assert codes.count(201) == 1, codes
    assert set(codes) == {201, 409}, codes
    loser = next(body for code, body in results if code == 409)
    assert loser["error"]["code"] == "conflict"
    _, state = call(f"{server.url}/api/v1/games/{game['id']}")
    assert len(state["manches"]) == 1 and state["totals"] == {"Ana": 0, "Bob": 13, "Chloé": 50}


def test_parallel_retries_with_one_idempotency_key_record_once(server):
    game, auth = new_game(server)
    url = f"{server.url}/api/v1/games/{game['id']}/manches"
    headers = {**auth, "Idempotency-Key": "tap-42"}
    with ThreadPoolExecutor(max_workers=24) as pool:
        results = list(pool.map(lambda _: call(url, "POST", MANCHE, headers), range(24)))
    assert all(code == 201 for code, _ in results), [c for c, _ in results]
    assert {body["number"] for _, body in results} == {1}
    _, state = call(f"{server.url}/api/v1/games/{game['id']}")
    assert len(state["manches"]) == 1


def test_parallel_games_and_manches_lose_nothing(server):
    games = [new_game(server, (f"A{i}", f"B{i}")) for i in range(4)]

    def play(pair):
        game, auth = pair
        url = f"{server.url}/api/v1/games/{game['id']}/manches"
        for n in range(1, 6):
            code, _ = call(
                url, "POST", {"winner": game["players"][0], "hands": {game["players"][1]: ["3C"]}, "number": n}, auth
            )
            assert code == 201
        return game["id"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        ids = list(pool.map(play, games))
    for game_id in ids:
        _, state = call(f"{server.url}/api/v1/games/{game_id}")
        assert [m["number"] for m in state["manches"]] == [1, 2, 3, 4, 5]
        assert sum(state["totals"].values()) == 15  # five manches × a 3 of clubs


def test_answers_through_gunicorn_arrive_whole_on_one_kept_alive_connection(server):
    """A page, a write's JSON, a 304 and a HEAD, one after another on one connection: each answer
    is framed by its headers (the next one is read where it starts)."""
    game, auth = new_game(server)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=15)

    def ask(method, path, body=None, headers=None):
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer, answer.read()

    try:
        page, html = ask("GET", f"/games/{game['id']}", headers={"Accept-Encoding": "identity"})
        assert page.status == 200 and int(page.headers["Content-Length"]) == len(html) > 0
        assert html.rstrip().endswith(b"</html>")
        written, body = ask("POST", f"/api/v1/games/{game['id']}/manches", json.dumps(MANCHE),
                            {**auth, "Content-Type": "application/json"})  # fmt: skip
        assert written.status == 201 and json.loads(body)["number"] == 1
        stored, _ = ask("GET", f"/games/{game['id']}", headers={"Accept-Encoding": "br"})
        assert stored.status == 200 and stored.headers["Content-Encoding"] == "br"
        again, empty = ask("GET", f"/games/{game['id']}", headers={"If-None-Match": stored.headers["ETag"]})
        assert again.status == 304 and empty == b""
        head, nothing = ask("HEAD", f"/games/{game['id']}")
        assert head.status == 200 and nothing == b""
        health, _ = ask("GET", "/healthz")
        assert health.status == 200
    finally:
        connection.close()


def test_sigkill_in_the_middle_of_writes_loses_no_acknowledged_manche(database_url):
    server = Server(database_url, workers=2).start()
    game, auth = new_game(server, ("Ana", "Bob"))
    url = f"{server.url}/api/v1/games/{game['id']}/manches"
    acknowledged: list[int] = []
    stop = threading.Event()

    def writer():
        number = 1
        while not stop.is_set() and number < 900:
            try:
                code, body = call(
                    url, "POST", {"winner": "Ana", "hands": {"Bob": ["3C"]}, "number": number}, auth, timeout=3
                )
            except (OSError, http.client.HTTPException):  # the server killed mid-answer: not acknowledged
                return
            if code == 201:
                acknowledged.append(body["number"])
                number += 1

    thread = threading.Thread(target=writer)
    thread.start()
    time.sleep(1.5)
    server.kill()  # SIGKILL to the whole process group, mid-stream
    stop.set()
    thread.join(timeout=10)
    assert len(acknowledged) > 5, "the stream of writes had started"

    database = Database(database_url)
    if database.is_sqlite:
        with database.reader.connect() as conn:
            assert conn.execute(text("PRAGMA integrity_check")).scalar_one() == "ok"
    database.dispose()
    restarted = Server(database_url, workers=2).start()
    try:
        _, state = call(f"{restarted.url}/api/v1/games/{game['id']}")
        stored = [m["number"] for m in state["manches"]]
        assert set(acknowledged) <= set(stored), "an acknowledged manche was lost"
        assert stored == list(range(1, len(stored) + 1))
        assert state["totals"]["Bob"] == 3 * len(stored)
    finally:
        restarted.stop()


# --- rate limits: one count for the whole server (issue 12) ---------------------------------------

SPLIT_WARNING = "worker processes each keep their own rate-limit counters"


def test_one_process_with_threads_counts_the_limit_once(database_url, tmp_path):
    """The README's command (gunicorn -w 1 --threads 8): 30 creations at once, a limit of 10 —
    exactly 10 go through (with -w 2 and counters in memory, each worker would let 10 through)."""
    log = tmp_path / "gunicorn.log"
    server = Server(database_url, workers=1, threads=8, env={"CREATE_LIMIT": "10 per hour"}, log=log).start()
    try:
        body = {"variant": "classique", "players": ["Ana", "Bob"]}
        with ThreadPoolExecutor(max_workers=10) as pool:
            codes = list(pool.map(lambda _: call(server.url + "/api/v1/games", "POST", body)[0], range(30)))
    finally:
        server.stop()
    assert sorted(codes) == [201] * 10 + [429] * 20
    assert SPLIT_WARNING not in log.read_text()


def test_gunicorn_warns_once_when_workers_keep_their_own_counters(database_url, tmp_path):
    log = tmp_path / "gunicorn.log"
    Server(database_url, workers=2, log=log).start().stop()
    assert log.read_text().count(SPLIT_WARNING) == 1, log.read_text()


def redis_reachable() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.mark.skipif(not redis_reachable() and os.environ.get("CI") != "true", reason="no Redis on 127.0.0.1:6379")
def test_gunicorn_does_not_warn_when_the_counters_are_in_redis(database_url, tmp_path):
    log = tmp_path / "gunicorn.log"
    Server(database_url, workers=2, env={"REDIS_URL": "redis://127.0.0.1:6379/0"}, log=log).start().stop()
    text = log.read_text()
    assert "Booting worker" in text and SPLIT_WARNING not in text
