"""The live table through real servers (issue 24): gunicorn with the repository's config (gevent
workers), raw event streams read from sockets as a phone's EventSource would, writes made through
the API of a server or through this test's own service on the same database. Every wait is for
an event, with a timeout; nothing sleeps a fixed time.

Classique (SPEC §2): K 10, 2 20, 5 5, 3 3, 9 9; in penalty mode the others add their hands.
"""

from __future__ import annotations

import http.cookiejar
import os
import signal
import socket
import time
import urllib.request

import pytest

from models.services.games import MancheEntry

from .sse_client import open_stream
from .test_server import Server, call

THREE = ["Ana", "Bob", "Chloé"]
HAND = {"winner": "Ana", "hands": {"Bob": ["KS", "2H"], "Chloé": ["5C"]}}  # Bob 30, Chloé 5


def live_server(database_url, workers: int = 1, **env) -> Server:
    return Server(database_url, workers=workers, env={"LIVE_HEARTBEAT_SECONDS": "1", **env}).start()


@pytest.fixture
def server(database_url):
    started = live_server(database_url)
    yield started
    started.stop()


def new_game(server, **settings):
    status, body = call(server.url + "/api/v1/games", "POST", {"variant": "classique", "players": THREE,
                                                                "first_dealer": 0, **settings})  # fmt: skip
    assert status == 201
    return body["id"], body["edit_token"], body["share_url"].rsplit("/", 1)[1]


def record(server, game_id, token, hand=HAND):
    return call(f"{server.url}/api/v1/games/{game_id}/manches", "POST", hand, {"Authorization": f"Bearer {token}"})


def test_a_manche_reaches_the_game_page_and_the_shared_view_within_a_second(server):
    game_id, token, share_id = new_game(server)
    page = open_stream(server.url, f"/games/{game_id}/events?since=0", {"Accept-Language": "fr"})
    shared = open_stream(server.url, f"/s/{share_id}/events?since=0", {"Accept-Language": "en"})
    assert page.status == shared.status == 200
    assert page.headers["content-type"].startswith("text/event-stream")
    assert page.headers["cache-control"] == "no-store" and page.headers["x-accel-buffering"] == "no"
    started = time.monotonic()
    assert record(server, game_id, token)[0] == 201
    for stream, said in ((page, "Manche 1 enregistrée. Totaux\u00a0: Ana 0, Chloé 5, Bob 30."),
                         (shared, "Round 1 recorded. Totals: Ana 0, Chloé 5, Bob 30.")):  # fmt: skip
        events = stream.events_until("said")
        assert time.monotonic() - started < 1.0
        assert [(e.event, e.id, e.data) for e in events] == [("scores", "1", "1"), ("said", None, said)]
    page.close()
    shared.close()


def test_a_stream_says_it_is_still_there_and_never_more_than_its_page(server, games):
    game_id, token, share_id = new_game(server)
    shared = open_stream(server.url, f"/s/{share_id}/events")
    _invite, invite_token = games.create_invite(game_id)  # a change of invites: nothing the shared view shows
    assert record(server, game_id, token)[0] == 201
    events = shared.events_until("said")
    assert [e.event for e in events] == ["scores", "said"]  # no "invites" event
    deadline = time.monotonic() + 3
    while not shared.comments[1:] and time.monotonic() < deadline:  # a heartbeat comment, each second here
        shared.next_event(timeout=0.5)
    assert shared.comments[1:], "no heartbeat"
    raw = shared.buffer.decode() + "".join(e.data for e in events)
    assert token not in raw and invite_token not in raw and "csrf" not in raw.lower()
    shared.close()


def test_a_phone_back_with_the_revision_it_saw_catches_up_once(server):
    game_id, token, _ = new_game(server)
    first = open_stream(server.url, f"/games/{game_id}/events?since=0")
    record(server, game_id, token)
    assert first.events_until("said")[0].id == "1"
    first.close()
    record(server, game_id, token)
    record(server, game_id, token)
    back = open_stream(server.url, f"/games/{game_id}/events", {"Last-Event-ID": "1"})
    events = back.events_until("said")
    # waited for until revision 3 and its sentence have come (a loaded machine is slow to send the
    # second change), then for half a second more, in which nothing is sent twice
    while not any(e.event == "scores" and e.id == "3" for e in events):
        events += back.events_until("said")
    while (event := back.next_event(timeout=0.5)) is not None:
        events.append(event)
    # manches 2 and 3 as two changes (the server still watched the game) or as one catch-up (it
    # had let it go): either way up to revision 3, each revision once, said once per change
    ids = [e.id for e in events if e.event == "scores"]
    assert ids in (["2", "3"], ["3"]) and len([e for e in events if e.event == "said"]) == len(ids)
    back.close()


def test_the_stream_ends_with_the_game(server):
    game_id, token, _ = new_game(server, rounds=1)
    stream = open_stream(server.url, f"/games/{game_id}/events?since=0")
    record(server, game_id, token)
    events = stream.events_until("end")
    assert [e.event for e in events] == ["scores", "said", "end"]
    assert "Partie terminée\u00a0: Ana gagne." in events[1].data
    assert stream.next_event(timeout=2) is None and stream.closed


def test_a_revoked_scorekeeper_is_told_live_and_its_stream_ends(server, games):
    game_id, _token, _ = new_game(server)
    invite_id, invite_token = games.create_invite(game_id)
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{server.url}/join/{game_id}/{invite_token}").read()  # this phone scanned the invite
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    stream = open_stream(server.url, f"/games/{game_id}/events", {"Cookie": cookie, "Accept-Language": "en"})
    games.revoke_invite(game_id, invite_id)
    events = stream.events_until("end")
    assert [e.event for e in events] == ["rights", "end"]
    assert "The invite this phone used was revoked" in events[0].data


def test_a_phone_removed_from_the_group_is_told_live_and_its_stream_ends(server, app):
    """A member's rights on its group's games rest on its membership: removed, its open stream says
    so in one sentence (not the revoked invite's) and ends; another phone's stream goes on."""
    groups = app.extensions["groups"]
    game_id, token, share_id = new_game(server)
    group_id, owner_token = groups.create("Dimanche", game_id=game_id)
    owner_id = next(m.id for m in groups.members(group_id) if m.owner)
    invite = groups.create_invite(group_id, by=owner_id)
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(urllib.request.Request(f"{server.url}/groups/{group_id}/join/{invite}", data=b"phone=Bob")).read()
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    stream = open_stream(server.url, f"/games/{game_id}/events", {"Cookie": cookie, "Accept-Language": "en"})
    reader = open_stream(server.url, f"/s/{share_id}/events")  # a group's game: read through its share link
    by_id = open_stream(server.url, f"/games/{game_id}/events")
    assert by_id.status == 404  # not by its id alone
    by_id.close()
    bob = next(m for m in groups.members(group_id) if not m.owner)
    assert bob.name == "Bob" and groups.membership(group_id, [owner_token]).owner
    groups.remove(group_id, bob.id, by=owner_id)
    events = stream.events_until("end")
    assert [e.event for e in events] == ["rights", "end"]
    assert events[0].data.splitlines()[0] == (
        "This phone was removed from the group: it no longer belongs to it and can no longer record rounds here."
    )
    assert 'id="live-top"' in events[0].data and 'id="share"' not in events[0].data  # drawn again for a reader
    record(server, game_id, token)  # the other stream hears the next manche: it was not ended
    assert "scores" in [e.event for e in reader.events_until("said")]


def test_too_many_streams_from_one_address_is_a_429(database_url):
    server = live_server(database_url, STREAMS_PER_CLIENT="2")
    try:
        game_id, _, _ = new_game(server)
        kept = [open_stream(server.url, f"/games/{game_id}/events") for _ in range(2)]
        refused = open_stream(server.url, f"/games/{game_id}/events")
        assert [s.status for s in kept] == [200, 200] and refused.status == 429
        kept[0].close()
        again = open_stream(server.url, f"/games/{game_id}/events")  # the closed one's place, at once
        assert again.status == 200
        again.close()
        kept[1].close()
    finally:
        server.stop()


def test_streams_end_when_the_server_stops_well_within_the_graceful_timeout(database_url):
    """A stopping server (a restart) ends its streams without ``end``, which would stop the page
    listening for good: each is told when to come back (``retry``, a delay of its own, within
    feed.BACK_FIRST … BACK_LAST) and closed, and the browser connects again by itself."""
    server = live_server(database_url)
    game_id, _, _ = new_game(server)
    streams = [open_stream(server.url, f"/games/{game_id}/events") for _ in range(5)]
    started = time.monotonic()
    os.killpg(server.process.pid, signal.SIGTERM)
    server.process.wait(timeout=15)
    took = time.monotonic() - started
    for stream in streams:
        events = []
        while (event := stream.next_event(timeout=2)) is not None:
            events.append(event.event)
        assert "end" not in events and stream.closed
        assert 1000 <= stream.retries[-1] <= 20_000 and stream.retries[0] == 2000  # the first: the stream's own
    # gunicorn.conf.py: graceful_timeout 10 s; without the streams ended, the worker waits all of it
    assert took < 10, f"stopping took {took:.1f} s"
    server.forget_log()


def test_a_worker_full_of_streams_refuses_the_next_at_once_and_answers_the_rest(database_url):
    """A worker that holds STREAMS_PER_WORKER streams refuses the next one with a 503 and
    Retry-After at once, and still answers pages and writes (the streams it holds hear them)."""
    server = live_server(database_url, STREAMS_PER_WORKER="3")
    try:
        game_id, token, share = new_game(server)
        held = [open_stream(server.url, f"/games/{game_id}/events?since=0") for _ in range(2)]
        held.append(open_stream(server.url, f"/s/{share}/events?since=0"))
        started = time.monotonic()
        refused = open_stream(server.url, f"/games/{game_id}/events?since=0")
        assert (refused.status, time.monotonic() - started < 2) == (503, True)
        assert int(refused.headers["retry-after"]) > 0 and refused.headers["cache-control"] == "no-store"
        assert [s.status for s in held] == [200, 200, 200]
        with urllib.request.urlopen(server.url + "/healthz", timeout=5) as answer:
            assert answer.status == 200
        with urllib.request.urlopen(f"{server.url}/s/{share}", timeout=5) as answer:
            assert answer.status == 200
        assert record(server, game_id, token)[0] == 201
        for stream in held:
            assert "scores" in [e.event for e in stream.events_until("said")]
        held.pop().close()
        deadline = time.monotonic() + 5  # the closed stream's place comes back once its end is seen
        while (again := open_stream(server.url, f"/games/{game_id}/events")).status != 200:
            again.close()
            assert time.monotonic() < deadline, "the place of a closed stream never came back"
        again.close()
        for stream in held:
            stream.close()
    finally:
        server.stop()


def test_a_manche_recorded_on_one_app_server_reaches_a_stream_on_another(database_url):
    """Two app servers on one database (a PostgreSQL database, or one SQLite file), as behind a
    proxy: the database tells each server what the other wrote."""
    one, other = live_server(database_url), live_server(database_url)
    try:
        game_id, token, _ = new_game(one)
        stream = open_stream(other.url, f"/games/{game_id}/events?since=0")
        started = time.monotonic()
        assert record(one, game_id, token)[0] == 201
        assert stream.events_until("said")[0].id == "1"
        assert time.monotonic() - started < 1.0
        stream.close()
    finally:
        one.stop()
        other.stop()


def test_slow_clients_cost_a_connection_not_the_server(server):
    """Fifty sockets sending their headers a byte at a time: /healthz still answers at once (a
    gevent worker gives each connection a greenlet; issue 27, item 6)."""
    slow = []
    for _ in range(50):
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"G")
        slow.append(sock)
    for sock in slow:
        sock.sendall(b"E")
    started = time.monotonic()
    with urllib.request.urlopen(server.url + "/healthz", timeout=2) as response:
        assert response.status == 200
    assert time.monotonic() - started < 2
    for sock in slow:
        sock.close()


def test_a_client_that_stalls_in_its_headers_is_let_go(server):
    """A request whose headers stop coming is closed once gunicorn's ``keepalive`` (5 s in
    gunicorn.conf.py) has passed: with the gevent worker it bounds the reading of every request's
    headers, the first one included (issue 27, item 6: a timeout for headers)."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.settimeout(15)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
    started = time.monotonic()
    try:
        closed = sock.recv(1024) == b""  # waits for the server to end the connection
    except ConnectionResetError:
        closed = True
    sock.close()
    assert closed
    assert 4 < time.monotonic() - started < 10


def test_the_service_s_own_writes_reach_the_server_s_streams(server, games):
    """A write made by another process on the same database (here this test's own service)."""
    game_id, _token, _ = new_game(server)
    stream = open_stream(server.url, f"/games/{game_id}/events?since=0", {"Accept-Language": "en"})
    games.record_manche(game_id, MancheEntry("Bob", {"Ana": ["3C"], "Chloé": ["9C"]}))  # Ana 3, Chloé 9
    events = stream.events_until("said")
    assert events[-1].data == "Round 1 recorded. Totals: Bob 0, Ana 3, Chloé 9."
    stream.close()


def joined(server, game_id: str, token: str) -> str:
    """The session cookie of a phone that opened the owner's link (the rights to write)."""
    jar = http.cookiejar.CookieJar()
    urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)).open(
        f"{server.url}/join/{game_id}/{token}", timeout=10
    ).read()
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def heard_within(streams, wanted, started: float, limit: float = 1.0) -> None:
    """Every stream hears an event ``wanted(event)`` holds for, within ``limit`` s of ``started``."""
    for stream in streams:
        while True:
            event = stream.next_event(timeout=max(started + limit - time.monotonic(), 0.01))
            assert event is not None, f"not heard within {limit} s"
            if wanted(event):
                break


@pytest.mark.serial
def test_a_table_split_across_two_app_servers_hears_every_change_within_a_second(database_url):
    """One table's phones, half on each of two app servers on one database (a load balancer
    without stickiness): a hand counted, the winner said and the manche saved on either server
    reach every phone, on both, within a second."""
    one, other = live_server(database_url), live_server(database_url)
    try:
        game_id, token, _ = new_game(one)
        revision = call(f"{one.url}/api/v1/games/{game_id}", "GET")[1]["revision"]
        cookie = joined(one, game_id, token)  # the servers share their key: the cookie opens both
        path = f"/games/{game_id}/events?since={revision}&entering=1"
        phones = [open_stream(server.url, path, {"Cookie": cookie}) for server in (one, other, one, other)]
        assert [p.status for p in phones] == [200] * 4
        bearer = {"Authorization": f"Bearer {token}"}
        for server, seat, body in ((one, "hands/1", {"number": 1, "cards": ["K"], "done": True}),
                                   (other, "winner", {"number": 1, "winner": "Ana"}),
                                   (other, "hands/2", {"number": 1, "cards": ["3"], "done": True})):  # fmt: skip
            started = time.monotonic()
            status, entry = call(f"{server.url}/api/v1/games/{game_id}/entry/{seat}", "PUT", body, bearer)
            assert status == 200
            heard_within(phones, lambda e, v=entry["version"]: e.event == "entry" and f'"version": {v},' in e.data,
                         started)  # fmt: skip
        started = time.monotonic()
        status, _ = call(f"{other.url}/api/v1/games/{game_id}/entry/save", "POST", {"number": 1},
                         {**bearer, "Idempotency-Key": "split-table-1"})  # fmt: skip
        assert status == 201
        heard_within(phones, lambda e: e.event == "scores" and e.id == str(revision + 1), started)
        for phone in phones:
            phone.close()
    finally:
        one.stop()
        other.stop()
