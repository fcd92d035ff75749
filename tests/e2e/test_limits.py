"""The rate limits as one count per client, through the test client:
one creation limit across every door that makes a game, one write limit across every page and
API call, a refusal that says which limit and when to come back, and counters out of reach
(Redis down) that neither refuse a write nor answer a 500. The same with gunicorn, two workers
and Redis: tests/e2e/test_club_deployment.py."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app import create_app
from views import limiting

PLAYERS = ["Ana", "Bob", "Chloé"]
NEW_GAME_FORM = {"variant": "classique", "shown_variant": "classique", "players": PLAYERS, "end": "target",
                 "first_dealer": "0"}  # fmt: skip
SETUP = {"REMOTE_ADDR": "198.51.100.1"}  # the address that prepares a test's games
PHONE = {"REMOTE_ADDR": "203.0.113.7"}  # the phone whose writes are counted
ROOT = Path(__file__).resolve().parents[2]


def limited_app(app_config, **config):
    return create_app({**app_config, "RATELIMIT_ENABLED": True, **config})


class Doors:
    """The five ways to make a game, from one browser (its session holds the rights "play again"
    needs) at one address: each call answers the status."""

    def __init__(self, client, document: dict, base_game: str):
        self.client = client
        self.document = document
        self.last_game = base_game  # "play again" starts from the game this browser made last

    def _made(self, response):
        if response.status_code == 303:
            self.last_game = response.headers["Location"].rsplit("/", 1)[1]
        return response

    def api_create(self, env):
        return self.client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}, environ_base=env)

    def api_import(self, env):
        return self.client.post("/api/v1/games/import", json=self.document, environ_base=env)

    def form_create(self, env):
        return self._made(self.client.post("/games", data=NEW_GAME_FORM, environ_base=env))

    def form_import(self, env):
        upload = (io.BytesIO(json.dumps(self.document).encode()), "game.json")
        return self._made(self.client.post("/games/import", data={"file": upload}, environ_base=env))

    def play_again(self, env):
        return self._made(self.client.post(f"/games/{self.last_game}/replay", environ_base=env))

    ALL = ("api_create", "api_import", "form_create", "form_import", "play_again")


@pytest.fixture
def doors_app(app_config):
    app = limited_app(app_config, CREATE_LIMIT="5 per hour", WRITE_LIMIT="1000 per minute")
    yield app
    app.extensions["database"].dispose()


def doors_for(app) -> Doors:
    client = app.test_client()
    client.set_cookie("lang", "en")
    made = client.post("/games", data=NEW_GAME_FORM, environ_base=SETUP)  # counted for SETUP, not PHONE
    assert made.status_code == 303
    base = made.headers["Location"].rsplit("/", 1)[1]
    document = client.get(f"/api/v1/games/{base}/export").get_json()
    return Doors(client, document, base)


def test_one_creation_limit_across_every_door(doors_app):
    """CREATE_LIMIT "5 per hour", ten creations round the five doors: the first five are made,
    one per door, and each door then refuses — "play again" included (before issue 27 each door
    counted apart, and "play again" not at all)."""
    doors = doors_for(doors_app)
    statuses = {door: [] for door in Doors.ALL}
    for _ in range(2):
        for door in Doors.ALL:
            statuses[door].append(getattr(doors, door)(PHONE).status_code)
    assert statuses == {
        "api_create": [201, 429],
        "api_import": [201, 429],
        "form_create": [303, 429],
        "form_import": [303, 429],
        "play_again": [303, 429],
    }
    assert doors.api_create({"REMOTE_ADDR": "192.0.2.55"}).status_code == 201  # per client: another one may


def test_the_refusal_says_which_limit_and_when_to_come_back(doors_app):
    doors = doors_for(doors_app)
    for _ in range(5):
        doors.api_create(PHONE)
    refused = doors.api_create(PHONE)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    error = refused.get_json()["error"]
    assert error["code"] == "rate_limited"
    assert error["message"].startswith("Too many new games from this connection (at most 5 in 1 hour): try again in")
    page = doors.form_create(PHONE)  # a page, in the browser's language
    assert page.status_code == 429 and "text/html" in page.content_type
    assert "Too many new games from this connection (at most 5 in 1 hour)" in page.get_data(as_text=True)
    doors.client.set_cookie("lang", "fr")
    french = doors.api_create(PHONE).get_json()["error"]["message"].replace("\N{NO-BREAK SPACE}", " ")
    assert french.startswith("Trop de nouvelles parties depuis cette connexion (5 au plus en 1 heure) :"), french


def test_one_write_limit_across_pages_and_the_api(app_config):
    """WRITE_LIMIT "4 per minute": two writes through the API and two through the pages use it up,
    whichever blueprint answers them (each blueprint used to count apart)."""
    app = limited_app(app_config, WRITE_LIMIT="4 per minute", CREATE_LIMIT="100 per hour")
    client = app.test_client()
    client.set_cookie("lang", "en")
    score = {"variant": "classique", "cards": ["8H"]}
    assert client.post("/api/v1/score", json=score, environ_base=PHONE).status_code == 200
    assert client.post("/games", data=NEW_GAME_FORM, environ_base=PHONE).status_code == 303
    assert client.post("/api/v1/score", json=score, environ_base=PHONE).status_code == 200
    assert client.post("/games", data=NEW_GAME_FORM, environ_base=PHONE).status_code == 303
    refused = client.post("/api/v1/score", json=score, environ_base=PHONE)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["message"].startswith(
        "Too many changes from this connection (at most 4 in 1 minute): try again in"
    )
    assert client.post("/games", data=NEW_GAME_FORM, environ_base=PHONE).status_code == 429
    assert client.get("/games/new", environ_base=PHONE).status_code == 200  # reading is never limited
    app.extensions["database"].dispose()


def test_a_door_declared_with_the_decorator_shares_the_new_games_count(app_config):
    """A view decorated ``@new_game_limit`` counts its POSTs with every other door that makes a
    game; its GETs are not counted."""
    app = limited_app(app_config, CREATE_LIMIT="2 per hour", WRITE_LIMIT="1000 per minute")

    @app.route("/another-door", methods=["GET", "POST"])
    @limiting.new_game_limit
    def another_door():
        return "made"

    client = app.test_client()
    client.set_cookie("lang", "en")
    assert client.post("/another-door", environ_base=PHONE).status_code == 200
    for _ in range(3):
        assert client.get("/another-door", environ_base=PHONE).status_code == 200
    created = client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}, environ_base=PHONE)
    assert created.status_code == 201 and created.headers["X-RateLimit-Remaining"] == "0"
    refused = client.post("/another-door", environ_base=PHONE)
    assert refused.status_code == 429 and "Too many new games" in refused.get_data(as_text=True)
    assert client.post("/another-door", environ_base=SETUP).status_code == 200  # another address: its own count
    app.extensions["database"].dispose()


def test_limits_turned_off_count_nothing_at_the_doors(app_config):
    app = create_app(
        {**app_config, "RATELIMIT_ENABLED": False, "CREATE_LIMIT": "1 per hour", "WRITE_LIMIT": "1 per hour"}
    )
    client = app.test_client()
    for _ in range(3):
        created = client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}, environ_base=PHONE)
        assert created.status_code == 201 and "X-RateLimit-Limit" not in created.headers
    assert "limiter" not in app.extensions
    app.extensions["database"].dispose()


def test_an_app_with_limits_off_beside_one_with_limits_on_counts_nothing(app_config):
    """The limiter is one per process (Flask-Limiter's extension object): an app made with the
    limits off after one with them on counts nothing, and leaves the other one's limits on."""
    on = limited_app(app_config, CREATE_LIMIT="1 per hour", WRITE_LIMIT="1000 per minute")
    off = create_app({**app_config, "RATELIMIT_ENABLED": False, "CREATE_LIMIT": "1 per hour"})
    body = {"variant": "classique", "players": PLAYERS}
    answers = [off.test_client().post("/api/v1/games", json=body, environ_base=PHONE) for _ in range(3)]
    assert [a.status_code for a in answers] == [201] * 3 and "X-RateLimit-Limit" not in answers[0].headers
    client = on.test_client()
    assert [client.post("/api/v1/games", json=body, environ_base=PHONE).status_code for _ in range(2)] == [201, 429]
    for app in (on, off):
        app.extensions["database"].dispose()


def test_house_rules_have_their_own_creation_count(app_config):
    """New house rules count toward CREATE_LIMIT apart from new games (a family that made its
    games for the evening may still write down its house rules)."""
    app = limited_app(app_config, CREATE_LIMIT="2 per hour", WRITE_LIMIT="1000 per minute")
    client = app.test_client()
    client.set_cookie("lang", "en")
    for _ in range(2):
        assert client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}).status_code == 201
    assert client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}).status_code == 429
    made = [client.post("/api/v1/variants", json={"base": "classique", "name": f"Chez nous {n}"}) for n in range(3)]
    assert [answer.status_code for answer in made] == [201, 201, 429]
    assert "Too many new house rules" in made[2].get_json()["error"]["message"]
    app.extensions["database"].dispose()


# --- Redis out of reach --------------------------------------------------------------------------


@pytest.fixture
def closed_port():
    """A local port bound but not listening: a connection to it is refused, for the whole test."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    yield sock.getsockname()[1]
    sock.close()


def in_another_process(function, *args):
    """``function(*args)`` (a function of a test module, its arguments and answer JSON) run by a
    Python process of its own: the limiter is one per process (Flask-Limiter's extension object),
    and it keeps what it learnt there (that Redis went away)."""
    code = (f"import json, sys; from {function.__module__} import {function.__name__} as run; "
            "print(json.dumps(run(*json.loads(sys.argv[1]))))")  # fmt: skip
    path = os.pathsep.join([str(ROOT), str(ROOT / "tests")])  # the module as pytest named it (e2e.…, tests.e2e.…)
    done = subprocess.run([sys.executable, "-c", code, json.dumps(args)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": path}, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1]), done.stderr


def out_of_reach(config: dict) -> dict:
    """What a phone meets with the counters' Redis out of reach."""
    client = create_app(config).test_client()
    made = client.post("/api/v1/games", json={"variant": "classique", "players": ["Ana", "Bob"]})
    game = made.get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    manche = {"winner": "Ana", "hands": {"Bob": ["KS", "3C"]}}
    recorded = [client.post(f"/api/v1/games/{game['id']}/manches", json=manche, headers=auth) for _ in range(2)]
    form = client.post("/games", data=NEW_GAME_FORM)
    page = client.get(f"/games/{game['id']}")
    third = client.post("/api/v1/games", json={"variant": "classique", "players": ["Ana", "Bob"]})
    refused = client.post("/api/v1/games", json={"variant": "classique", "players": ["Ana", "Bob"]})
    return {
        "statuses": [made.status_code, *[(r.status_code, r.get_json()["number"]) for r in recorded],
                     form.status_code, page.status_code, third.status_code],
        "refused": [refused.status_code, refused.get_json()["error"]["code"]],
    }  # fmt: skip


def test_redis_out_of_reach_refuses_no_write_limits_in_memory_and_says_so_once(app_config, closed_port):
    """The limits fail open onto this process's memory: the manches are recorded, the pages
    answer, never a 500; CREATE_LIMIT still holds (in memory); the log says once, not at every
    write, why the counts are local now."""
    config = {**app_config, "RATELIMIT_ENABLED": True, "CREATE_LIMIT": "3 per hour", "WRITE_LIMIT": "1000 per minute",
              "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{closed_port}/0", "PROPAGATE_EXCEPTIONS": False}  # fmt: skip
    seen, log = in_another_process(out_of_reach, config)
    assert seen == {"statuses": [201, [201, 1], [201, 2], 303, 200, 201], "refused": [429, "rate_limited"]}, seen
    assert log.count("Rate limit storage unreachable - falling back to in-memory storage") == 1, log
    assert "Traceback" not in log, log


def test_a_server_error_under_the_api_is_json(app_config, monkeypatch):
    """Whatever goes wrong, an API client reads JSON (it used to get werkzeug's HTML page)."""

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug")

    app = limited_app(app_config, PROPAGATE_EXCEPTIONS=False)
    # a game that exists (an unknown id is a 404 before the game is read): its reading breaks
    game, _token = app.extensions["games"].create_game("classique", ["Ana", "Bob"], first_dealer=0)
    monkeypatch.setattr(app.extensions["games"], "get", broken)
    answer = app.test_client().get(f"/api/v1/games/{game.id}")
    assert answer.status_code == 500 and answer.is_json
    assert answer.get_json()["error"]["code"] == "internal_error"
    app.extensions["database"].dispose()


def test_a_busy_write_keeps_its_own_retry_after(app_config, monkeypatch):
    """A write answered 503 (the database busy) asks to come back in BUSY_RETRY_AFTER seconds,
    limits or not: the limit's window (an hour for CREATE_LIMIT) is not put in its place, and
    the limit is still named."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from views.errors import BUSY_RETRY_AFTER

    app = limited_app(app_config, CREATE_LIMIT="5 per hour", WRITE_LIMIT="1000 per minute")

    def busy(*_args, **_kwargs):
        raise OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(app.extensions["games"], "create_game", busy)
    answer = app.test_client().post("/api/v1/games", json={"variant": "classique", "players": PLAYERS})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == str(BUSY_RETRY_AFTER)
    assert answer.headers["X-RateLimit-Limit"] == "5" and answer.headers["X-RateLimit-Remaining"] == "4"
    app.extensions["database"].dispose()


def test_a_limit_that_is_no_rate_stops_the_app(app_config):
    with pytest.raises(RuntimeError, match="WRITE_LIMIT"):
        limited_app(app_config, WRITE_LIMIT="300 a minute")
