"""The live feed survives any error: its thread logs it, waits, subscribes again and catches every
stream up from the revision it had, so the next manche reaches the streams; meanwhile /healthz
says the worker's feed is down."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from models.services.feed import Change
from tests.conftest import USE_PG
from tests.integration.test_connection_faults import admin_engine, close, cut_connections, make_app, own_database

__all__ = ["own_database"]  # the fixture, used below

THREE = ["Ana", "Bob", "Chloé"]
MANCHE = {"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["4C"]}}


def create(client):
    resp = client.post("/api/v1/games", json={"variant": "classique", "players": THREE})
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    return game, {"Authorization": f"Bearer {game['edit_token']}"}


def next_change(listener, timeout: float = 15.0) -> Change:
    """The next change the stream hears (presence events skipped), within ``timeout`` seconds."""
    while True:
        event = listener.get(timeout)
        assert event is not None, "the stream heard nothing"
        if isinstance(event, Change):
            return event


def wait_for(condition, timeout: float = 15.0) -> None:
    stop = threading.Event()
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        stop.wait(0.01)
    raise AssertionError("never happened")


def test_the_feed_goes_on_after_reading_a_game_failed(app):
    """Reading a game fails once in the feed's thread (an OperationalError, as a cut connection
    raises): the thread lives on, /healthz says the feed is down until it hears again, and the
    manche reaches the stream."""
    client = app.test_client()
    game, auth = create(client)
    feed = app.extensions["feed"]
    listener = feed.listen(game["id"])
    read_game = feed.read_game
    failed = []

    def fails_once(game_id):
        if not failed:
            failed.append(game_id)
            raise OperationalError("SELECT …", {}, Exception("the connection was cut"))
        return read_game(game_id)

    feed.read_game = fails_once
    try:
        path = f"/api/v1/games/{game['id']}/manches"
        assert client.post(path, json=MANCHE, headers=auth).status_code == 201
        change = next_change(listener)
        assert failed and change.facts == (("recorded", 1),)
        wait_for(lambda: not feed.down)  # it heard and read again
        assert feed.thread.is_alive()
        assert client.get("/healthz").status_code == 200
        assert client.post(path, json=MANCHE, headers=auth).status_code == 201
        assert next_change(listener).facts == (("recorded", 2),)
    finally:
        feed.read_game = read_game
        listener.close()


def test_healthz_says_when_the_feed_is_down(app):
    feed = app.extensions["feed"]
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    feed.failures = 1  # as the feed's thread counts a failure
    resp = client.get("/healthz")
    assert resp.status_code == 503 and b"feed" in resp.data
    feed.failures = 0
    assert client.get("/healthz").status_code == 200


@pytest.mark.skipif(not USE_PG, reason="a PostgreSQL outage (the SQLite watcher's failure is tested above)")
def test_the_feed_comes_back_after_a_postgresql_outage(own_database):
    """Every connection of the database cut, the listener's too, and new ones refused: the feed
    is down; once the database is back, the next manche reaches the stream."""
    name, url = own_database
    app = make_app(url)
    try:
        client = app.test_client()
        game, auth = create(client)
        feed = app.extensions["feed"]
        listener = feed.listen(game["id"])
        with admin_engine().connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
        cut_connections(name)
        wait_for(lambda: feed.down)
        assert client.get("/healthz").status_code == 503
        with admin_engine().connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        path = f"/api/v1/games/{game['id']}/manches"
        assert client.post(path, json=MANCHE, headers=auth).status_code == 201
        assert next_change(listener).facts == (("recorded", 1),)
        wait_for(lambda: not feed.down)
        assert client.get("/healthz").status_code == 200
        listener.close()
    finally:
        close(app)
