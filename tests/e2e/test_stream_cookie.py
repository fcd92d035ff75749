"""A game page's event stream and the session cookie (issue 24's phone id; a lost "opened" game
seen in CI): a phone's cookie is written by the pages it navigates to, never by a stream that
answers in the background — that answer's cookie, arriving after the next page's, would take
away what the next page remembered."""

from __future__ import annotations

NEW_GAME_FORM = {"variant": "classique", "shown_variant": "classique", "players": ["Ana", "Bob"], "end": "target",
                 "first_dealer": "0"}  # fmt: skip


def open_stream(client, game):
    return client.get(f"/games/{game.id}/events?since={game.revision}", buffered=False)


def test_the_stream_of_a_phone_that_may_not_write_sets_no_cookie(client, games):
    game, _ = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    page = client.get(f"/games/{game.id}")
    assert page.status_code == 200 and "Set-Cookie" in page.headers  # the game is remembered as opened
    stream = open_stream(client, game)
    try:
        assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
        assert "Set-Cookie" not in stream.headers
    finally:
        stream.close()


def test_the_stream_of_a_phone_that_created_its_game_sets_no_cookie(client):
    """A phone that may write got its id with its rights (here: it created the game through the
    form), so its stream has nothing to write either."""
    created = client.post("/games", data=NEW_GAME_FORM)
    assert created.status_code == 303
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    with client.session_transaction() as session:
        assert isinstance(session.get("phone"), str)
    stream = client.get(f"/games/{game_id}/events?since=1", buffered=False)
    try:
        assert stream.status_code == 200 and "Set-Cookie" not in stream.headers
    finally:
        stream.close()


# --- the service worker's copies (views/sessions.py, static/js/sw.js) ------------------------------


def test_a_copy_kept_for_offline_sets_no_cookie_where_a_visit_would(client, games):
    """The service worker fetches a page it keeps for offline with the cookie of that moment,
    and its answer may come after the next page's. Seen in CI: the copy of the previous game
    page, which a visit would move to the end of the games opened, came last, and its cookie took
    away the game opened just after it."""
    first, _ = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    second, _ = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    for game in (first, second):
        assert "Set-Cookie" in client.get(f"/games/{game.id}").headers  # each remembered as opened
    copy = client.get(f"/games/{first.id}", headers={"X-Offline-Copy": "1"})
    assert copy.status_code == 200 and "Set-Cookie" not in copy.headers
    assert "Cookie" in copy.headers["Vary"]  # the page read the cookie all the same
    with client.session_transaction() as session:
        assert session["opened"] == [first.id, second.id]
    visit = client.get(f"/games/{first.id}")  # a visit does move it: the rule is the copy's only
    assert "Set-Cookie" in visit.headers
    with client.session_transaction() as session:
        assert session["opened"] == [second.id, first.id]


def test_a_copy_kept_for_offline_starts_no_session(client, games):
    """A shared view opened for the first time starts this browser's session (the game opened);
    its copy kept for offline starts none."""
    game, _ = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    copy = client.get(f"/s/{game.share_id}", headers={"X-Offline-Copy": "1"})
    assert copy.status_code == 200 and "Set-Cookie" not in copy.headers
    assert client.get_cookie("session") is None
