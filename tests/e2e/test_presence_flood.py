"""Who is entering a manche, under a flood (gunicorn, the repository's config): one invite opened by
300 new phones, each saying it enters, reaches a watcher as a few small events — at most one a
second, at most ``MAX_ENTERING`` phones named — while a phone of the table that enters is still
shown to it within a second or two. Every wait is for an event, with a timeout."""

from __future__ import annotations

import http.client
import time
from urllib.parse import urlencode

from models.services.presence import MAX_ENTERING

from .sse_client import open_stream
from .test_live_server import live_server, new_game

FLOOD = 300


class Phone:
    """A browser: its own session cookie, on one kept-alive connection to the server."""

    def __init__(self, connection: http.client.HTTPConnection, cookie: str = ""):
        self.connection, self.cookie = connection, cookie

    def ask(self, method: str, path: str, form: dict | None = None) -> int:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = urlencode(form) if form is not None else None
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status


def presence_until(stream, wanted, timeout: float = 5.0):
    """The watcher's presence events until one whose text ``wanted`` accepts (and that one)."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = stream.next_event(timeout=deadline - time.monotonic())
        if event is None:
            break
        if event.event == "presence":
            seen.append(event)
            if wanted(event.data):
                return seen
    raise AssertionError(f"no such presence within {timeout} s; saw {[e.data[:80] for e in seen]}")


def test_one_invite_flooded_with_new_phones_costs_a_watcher_a_few_small_events(database_url, games):
    server = live_server(database_url)
    try:
        game_id, token, share_id = new_game(server)
        _invite, invite_token = games.create_invite(game_id)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=15)
        table = Phone(connection)
        assert table.ask("GET", f"/join/{game_id}/{invite_token}?name=Chlo%C3%A9") in (302, 303)
        watcher = open_stream(server.url, f"/s/{share_id}/events", {"Accept-Language": "en"})
        started = time.monotonic()
        assert table.ask("POST", f"/games/{game_id}/presence", {"number": "1"}) == 204
        presence_until(watcher, lambda said: "Chloé is entering round 1" in said)
        assert time.monotonic() - started < 1.5  # a phone of the table is shown promptly

        flood_started = time.monotonic()
        for _ in range(FLOOD):  # a new phone each time: a new session through the same invite
            phone = Phone(connection)
            assert phone.ask("GET", f"/join/{game_id}/{invite_token}") in (302, 303)
            assert phone.ask("POST", f"/games/{game_id}/presence", {"number": "1"}) == 204
        flooded = time.monotonic() - flood_started

        # Chloé, still entering, moves to correcting round 1: the watcher hears it, flood or not.
        moved = time.monotonic()
        assert table.ask("POST", f"/games/{game_id}/presence", {"number": "1", "editing": "1"}) == 204
        events = presence_until(watcher, lambda said: "Chloé is correcting round 1" in said, timeout=10)
        assert time.monotonic() - moved < 2.5  # at most a presence gap and a tick behind
        told = sum(len(e.data.encode()) for e in events)
        assert len(events) <= flooded + 3, (len(events), flooded)  # at most one a second
        assert events[-1].data.count("…") == MAX_ENTERING  # Chloé and as many new phones as fit
        assert told < MAX_ENTERING * 60 * (flooded + 3), told  # bounded: was 0.7 MB
        connection.close()
        watcher.close()
    finally:
        server.stop()
