"""A game page's event stream and the session cookie (issue 24's phone id; a lost "opened" game
seen in CI): a phone's cookie is written by the pages it navigates to, never by a stream that
answers in the background — that answer's cookie, arriving after the next page's, would take
away what the next page remembered."""

from __future__ import annotations


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


def test_a_phone_that_may_write_has_its_id_from_its_game_page(client, games):
    """A cookie from before phones had ids (the edit token, no id): the game page makes the id,
    so that its stream has nothing to write."""
    game, token = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    with client.session_transaction() as session:
        session["tokens"] = [[game.id, token]]
    assert client.get(f"/games/{game.id}").status_code == 200
    with client.session_transaction() as session:
        assert isinstance(session.get("phone"), str)
    stream = open_stream(client, game)
    try:
        assert stream.status_code == 200 and "Set-Cookie" not in stream.headers
    finally:
        stream.close()
