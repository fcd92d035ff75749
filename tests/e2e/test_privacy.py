"""A browser sees its own games (issue 12): the list of games, the player pages and the names
suggested for a new game cover the games this browser created, holds rights to or opened (the
game page or a share link); a server-wide list needs the administrator's token."""

from __future__ import annotations

import re
import secrets

import pytest

from app import create_app
from models.services.games import MancheEntry
from tests.e2e.test_sql_counts import StatementCounter
from views import rights

PLAYERS = ["Ana", "Bob", "Chloé"]
NEW_GAME_FORM = {"variant": "classique", "shown_variant": "classique", "players": PLAYERS, "end": "target",
                 "first_dealer": "0"}  # fmt: skip
ADMIN_TOKEN = "admin-9f2c4e1b7a6d5c3e8f0a1b2c"


def browser(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


@pytest.fixture
def client(app):
    return browser(app)


def page_of(client, url: str, status: int = 200, **kwargs) -> str:
    response = client.get(url, **kwargs)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def listed(page: str) -> list[str]:
    return re.findall(r'class="game-link" href="/games/([^"]+)"', page)


def every_listed(client, url: str) -> list[str]:
    """The games listed on every page of the list, following its "Next page" links."""
    games = []
    while url:
        page = page_of(client, url)
        games += listed(page)
        following = re.search(r'rel="next" href="([^"]+)"', page)
        url = following.group(1).replace("&amp;", "&") if following else None
    return games


def create_in(client) -> str:
    response = client.post("/games", data=NEW_GAME_FORM)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def session_cookie(client) -> str:
    cookie = client.get_cookie("session")
    return f"session={cookie.value}" if cookie else ""


def test_another_browser_sees_nothing_of_a_game_until_it_opens_the_share_link(app, client, games):
    game_id = create_in(client)
    games.record_manche(game_id, MancheEntry("Ana", {"Bob": ["KH"], "Chloé": ["3C"]}))
    assert listed(page_of(client, "/games")) == [game_id]
    assert '<option value="Ana">' in page_of(client, "/games/new")
    assert "<h1>Ana</h1>" in page_of(client, "/players/Ana")

    other = browser(app)
    page = page_of(other, "/games")
    assert listed(page) == [] and "Ana" not in page
    assert "No game on this phone yet." in page and 'href="/games/new"' in page
    assert "Ana" not in page_of(other, "/games/new")  # no name from another browser's games
    assert listed(page_of(other, "/games?player=Ana")) == []
    player = page_of(other, "/players/Ana", status=404)
    assert game_id not in player and "Games played" not in player
    assert "No game on this phone yet." in player and 'href="/games/new"' in player

    share_id = games.get(game_id).share_id
    assert other.get(f"/s/{share_id}").status_code == 200  # the share link still opens the game
    assert listed(page_of(other, "/games")) == [game_id]  # and from now on it is one of this browser's games
    assert "<dt>Games played</dt><dd>1</dd>" in page_of(other, "/players/Ana")
    assert '<option value="Ana">' in page_of(other, "/games/new")
    assert other.post(f"/games/{game_id}/manches", data={"winner": "0"}).status_code == 401  # still read-only


def test_a_player_page_tells_nothing_of_the_games_of_other_browsers(app, client, games):
    create_in(client)  # Ana plays in this browser's game
    stranger, _ = games.create_game("classique", ["Zoé", "Ana"], first_dealer=0)
    page = page_of(client, "/players/Zoé", status=404)
    assert "Nobody called “Zoé” has played here yet." in page and stranger.id not in page
    assert "<dt>Games played</dt><dd>1</dd>" in page_of(client, "/players/Ana")  # not 2
    assert "Zoé" not in page_of(client, "/games/new")


def test_opening_a_game_page_makes_it_one_of_this_browsers_games(app, client, games):
    first, _ = games.create_game("classique", PLAYERS, first_dealer=0)
    second, _ = games.create_game("classique", ["Dan", "Eve"], first_dealer=0)
    client.get(f"/games/{first.id}")
    assert listed(page_of(client, "/games")) == [first.id]
    client.get(f"/games/{second.id}")
    assert listed(page_of(client, "/games")) == [second.id, first.id]


def test_the_admin_with_the_secret_sees_every_game(app_config, games):
    app = create_app({**app_config, "ADMIN_TOKEN": ADMIN_TOKEN})
    try:
        service = app.extensions["games"]
        ids = [service.create_game("classique", names, first_dealer=0)[0].id for names in (PLAYERS, ["Dan", "Ana"])]
        admin = browser(app)
        response = admin.get("/games", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert response.status_code == 200 and "no-store" in response.headers["Cache-Control"]
        assert sorted(listed(response.get_data(as_text=True))) == sorted(ids)
        assert "All the games on this server" in response.get_data(as_text=True)
        player = admin.get("/players/Ana", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert "<dt>Games played</dt><dd>2</dd>" in player.get_data(as_text=True)
        assert listed(page_of(admin, "/games")) == []  # without the header: a browser like any other
        wrong = admin.get("/games", headers={"Authorization": "Bearer " + ADMIN_TOKEN[:-1] + "x"})
        assert wrong.status_code == 403 and listed(wrong.get_data(as_text=True)) == []
    finally:
        app.extensions["database"].dispose()


def test_without_admin_token_there_is_no_server_wide_list(app, client, games):
    assert app.config["ADMIN_TOKEN"] is None
    games.create_game("classique", PLAYERS, first_dealer=0)
    for token in ("", "None", "anything"):
        response = client.get("/games", headers={"Authorization": f"Bearer {token}"})
        assert listed(response.get_data(as_text=True)) == [], token
        assert response.status_code in (200, 403)


def test_the_empty_states_speak_french_first(app, games):
    french = app.test_client()
    page = page_of(french, "/games")
    assert "Aucune partie sur ce téléphone pour l'instant." in page
    assert 'href="/games/new"' in page


def test_the_session_remembers_the_last_games_opened_and_stays_well_under_4_kb(app, client, games):
    with client.session_transaction() as session:  # house rules this browser wrote, the most it keeps
        session["house_tokens"] = [
            [f"h{n:016x}", secrets.token_urlsafe(24)] for n in range(rights.MAX_REMEMBERED["house_tokens"])
        ]
    created = [create_in(client) for _ in range(rights.MAX_REMEMBERED["tokens"] + 5)]
    others = [games.create_game("classique", PLAYERS, first_dealer=0)[0].id for _ in range(rights.MAX_OPENED + 10)]
    for game_id in others:
        client.get(f"/games/{game_id}")
    page_of(client, "/games/new")
    with client.session_transaction() as session:
        assert [key for key, _ in session["tokens"]] == created[-rights.MAX_REMEMBERED["tokens"] :]  # the newest
        assert session["opened"] == others[-rights.MAX_OPENED :]
        assert "csrf_token" not in session  # no token: forms from other sites are refused by their origin
    size = len(session_cookie(client))
    assert size < 3300, size  # browsers keep 4096 bytes per cookie
    shown = set(every_listed(client, "/games"))
    assert shown == set(created[-rights.MAX_REMEMBERED["tokens"] :]) | set(others[-rights.MAX_OPENED :])


def test_a_game_whose_token_is_let_go_stays_among_the_opened(app, client, games):
    created = [create_in(client) for _ in range(rights.MAX_REMEMBERED["tokens"] + 1)]
    with client.session_transaction() as session:
        assert created[0] not in dict(session["tokens"]) and session["opened"] == [created[0]]
    assert created[0] in every_listed(client, "/games")


def test_opening_the_same_game_again_sets_no_cookie_and_costs_one_statement(app, client, games):
    game, _ = games.create_game("classique", PLAYERS, first_dealer=0)
    share_id = games.create_game("classique", PLAYERS, first_dealer=0)[0].share_id
    assert "session=" in client.get(f"/games/{game.id}").headers.get("Set-Cookie", "")  # first visit: noted
    with StatementCounter(app.extensions["database"]) as counter:
        again = client.get(f"/games/{game.id}")
    assert again.status_code == 200 and "Set-Cookie" not in again.headers
    assert counter.count == 1  # the revision; the visit is noted in the session, not the database
    assert "Set-Cookie" in client.get(f"/s/{share_id}").headers  # the shared view, noted…
    assert "Set-Cookie" not in client.get(f"/s/{share_id}").headers  # …once


def test_healthz_and_static_files_set_no_cookie_even_for_a_browser_with_a_session(client):
    create_in(client)
    assert client.get_cookie("session") is not None
    for url in ("/healthz", "/static/css/app.css", "/static/js/app.js"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Set-Cookie" not in response.headers, url


# --- the session cookies a worker verified lately (views/sessions.py, issue 17) --------------------


def test_a_remembered_cookie_is_opened_as_its_own_copy(app, client, games):
    """A cookie opened from the memo is a copy: what one visit adds to its session (a game opened)
    is not in the session the same old cookie opens next time."""
    first, _ = games.create_game("classique", PLAYERS, first_dealer=0)
    second, _ = games.create_game("classique", PLAYERS, first_dealer=0)
    client.get(f"/games/{first.id}")
    old = client.get_cookie("session").value
    assert "Set-Cookie" not in client.get(f"/games/{first.id}").headers  # opened from the memo
    assert "Set-Cookie" in client.get(f"/games/{second.id}").headers  # the second is noted: a new cookie
    client.set_cookie("session", old)  # the old cookie again: the first game in it, the second not
    assert "Set-Cookie" not in client.get(f"/games/{first.id}").headers
    assert "Set-Cookie" in client.get(f"/games/{second.id}").headers


def test_a_changed_cookie_is_not_believed_for_being_like_a_remembered_one(app, client):
    game_id = create_in(client)
    cookie = client.get_cookie("session").value
    assert client.get(f"/games/{game_id}/manches/new").status_code == 200  # its writer, remembered now
    payload, _, signature = cookie.rpartition(".")
    forged = payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    client.set_cookie("session", forged)
    assert client.get(f"/games/{game_id}/manches/new").status_code in (401, 403)  # no rights from it
    client.set_cookie("session", cookie)
    assert client.get(f"/games/{game_id}/manches/new").status_code == 200  # the real one still opens


def test_a_remembered_cookie_is_not_believed_under_another_secret(app_config, games):
    one = create_app(app_config)
    two = create_app({**app_config, "SECRET_KEY": "another-secret"})
    try:
        writer = browser(one)
        game_id = create_in(writer)
        cookie = writer.get_cookie("session").value
        assert writer.get(f"/games/{game_id}/manches/new").status_code == 200
        two.session_interface = one.session_interface  # even sharing the memo
        stranger = browser(two)
        stranger.set_cookie("session", cookie)
        assert stranger.get(f"/games/{game_id}/manches/new").status_code in (401, 403)
    finally:
        one.extensions["database"].dispose()
        two.extensions["database"].dispose()
