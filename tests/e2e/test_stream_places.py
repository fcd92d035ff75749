"""A stream's place in its address's count comes back as soon as its client closes it, not at the
stream's next heartbeat: under Werkzeug's development server and under gunicorn's gevent worker.
The heartbeat is set to a minute here, so that nothing but the closed socket can give it back."""

from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from app import create_app

from .sse_client import open_stream
from .test_live_server import live_server, new_game

PER_CLIENT = 24


def open_close_reopen(url: str, game_id: str) -> tuple[list[int], list[int], int]:
    """Open ``PER_CLIENT`` streams, close them, open as many again at once, then one more: the
    statuses of the first, of the second, and of the one too many."""
    path = f"/games/{game_id}/events"
    first = [open_stream(url, path) for _ in range(PER_CLIENT)]
    for stream in first:
        stream.close()
    again = [open_stream(url, path) for _ in range(PER_CLIENT)]
    extra = open_stream(url, path)
    for stream in (*again, extra):
        stream.close()
    return [s.status for s in first], [s.status for s in again], extra.status


@pytest.fixture
def dev_server(app_config):
    """The app under Werkzeug's development server (threaded), as ``flask run`` serves it."""
    app = create_app({**app_config, "STREAMS_PER_CLIENT": PER_CLIENT, "LIVE_HEARTBEAT_SECONDS": 60})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    app.extensions["feed"].close()  # the streams still open end, their threads with them
    server.shutdown()
    thread.join(timeout=10)
    app.extensions["database"].dispose()


def test_closed_streams_give_their_places_back_at_once_under_the_dev_server(dev_server):
    app, url = dev_server
    game, _ = app.extensions["games"].create_game("classique", ["Ana", "Bob"], first_dealer=0)
    first, again, extra = open_close_reopen(url, game.id)
    assert first == again == [200] * PER_CLIENT
    assert extra == 429  # the limit itself still holds


def test_closed_streams_give_their_places_back_at_once_under_gunicorn(database_url):
    server = live_server(database_url, STREAMS_PER_CLIENT=str(PER_CLIENT), LIVE_HEARTBEAT_SECONDS="60")
    try:
        game_id, _, _ = new_game(server)
        first, again, extra = open_close_reopen(server.url, game_id)
        assert first == again == [200] * PER_CLIENT
        assert extra == 429
    finally:
        server.stop()
