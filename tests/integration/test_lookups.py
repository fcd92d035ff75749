"""What the cached pages are kept under: a game's revision and, for the pages across games, the
count and revisions of the reader's games, each read in one indexed Core statement, and exact with
several worker processes — here two apps on one database, as two gunicorn workers."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import column, event, func, literal, select, text
from sqlalchemy.exc import DBAPIError

from app import create_app
from models.services import history
from models.services.db import Database, Game
from models.services.games import MancheEntry

USE_PG = os.environ.get("DATABASE_URL", "").startswith("postgres")

THREE = ["Ana", "Bob", "Chloé"]
# Classique (SPEC §2): Ana goes out; Bob's 3♣ counts 3, Chloé's K♦ 10.
ANA_OUT = MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]})
# Bob goes out; Ana's 5♥ counts 5, Chloé's 9♣ 9.
BOB_OUT = MancheEntry("Bob", {"Ana": ["5H"], "Chloé": ["9C"]})


def test_every_change_to_a_reader_s_games_moves_their_state(app, games):
    """The pages across games are kept under ``scope_state``: it moves with every change to one of
    the reader's games (and only theirs: another family's game leaves it alone)."""
    database = app.extensions["database"]
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    other, _ = games.create_game("classique", THREE, first_dealer=0)
    scope = history.Scope(ids=(game.id,))
    states = [history.scope_state(database, scope)]

    def moved():
        states.append(history.scope_state(database, scope))
        return states[-1] != states[-2]

    games.record_manche(game.id, ANA_OUT)
    assert moved()
    games.edit_manche(game.id, 1, BOB_OUT)
    assert moved()
    games.record_manche(game.id, ANA_OUT)
    assert moved()
    games.delete_manche(game.id, 2)
    assert moved()
    games.join_player(game.id, "Dan")
    assert moved()
    games.create_invite(game.id)
    assert moved()
    games.record_manche(other.id, ANA_OUT)
    assert not moved()  # not this reader's game
    assert history.scope_state(database, history.Scope(ids=(game.id, other.id))) == (2, states[-1][1] + 1, 0)
    assert history.scope_state(database, history.EVERY_GAME)[0] == 2
    assert history.scope_state(database, history.Scope()) == (0, 0, 0)


def test_every_change_to_a_group_s_game_moves_its_members_and_the_administrator_s_state(app, games):
    """A group's games are not read one by one: the group's revision stands for them (its games'
    triggers move it), for its members and for the administrator alike."""
    database = app.extensions["database"]
    group_id, _token = app.extensions["groups"].create("Les jeudis", "Ana")
    scopes = (history.Scope(groups=(group_id,)), history.EVERY_GAME)
    states = [tuple(history.scope_state(database, scope) for scope in scopes)]

    def moved():
        states.append(tuple(history.scope_state(database, scope) for scope in scopes))
        return all(now != then for now, then in zip(states[-1], states[-2], strict=True))

    game, _ = games.create_game("classique", THREE, first_dealer=0, group=group_id)
    assert moved()
    games.record_manche(game.id, ANA_OUT)
    assert moved()
    games.edit_manche(game.id, 1, BOB_OUT)
    assert moved()
    games.delete_manche(game.id, 1)
    assert moved()
    games.join_player(game.id, "Dan")
    assert moved()


@pytest.fixture
def second_worker(app_config):
    other = create_app(app_config)
    yield other
    other.extensions["database"].dispose()


def test_a_page_kept_by_one_worker_shows_what_another_wrote(app, client, second_worker):
    admin = {"Authorization": "Bearer admin-secret", "Accept-Language": "en"}
    app.config["ADMIN_TOKEN"] = second_worker.config["ADMIN_TOKEN"] = "admin-secret"
    other = second_worker.test_client()
    assert "Zoé" not in client.get("/games", headers=admin).get_data(as_text=True)  # kept by the first
    created = other.post("/api/v1/games", json={"variant": "classique", "players": ["Zoé", "Yann"]}).get_json()
    listed = client.get("/games", headers=admin).get_data(as_text=True)
    assert "Zoé" in listed  # the first worker's page was not served stale
    assert "<dt>Games played</dt><dd>1</dd>" in client.get("/players/Zo%C3%A9", headers=admin).get_data(as_text=True)
    other.post("/api/v1/games", json={"variant": "classique", "players": ["Zoé", "Xavier"]})  # her page is kept…
    player = client.get("/players/Zo%C3%A9", headers=admin).get_data(as_text=True)
    assert "<dt>Games played</dt><dd>2</dd>" in player  # …and shows the second game
    share = "/s/" + created["share_url"].rsplit("/s/", 1)[1]
    pages = (f"/games/{created['id']}", share)
    for page in pages:  # kept by the first worker before the manche
        assert ">10<" not in client.get(page).get_data(as_text=True).replace(" ", "")
    # Zoé goes out; Yann's K♦ counts 10 (SPEC §2)
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    body = {"winner": "Zoé", "hands": {"Yann": ["KD"]}}
    assert other.post(f"/api/v1/games/{created['id']}/manches", json=body, headers=auth).status_code == 201
    for page in pages:  # Yann's 10 points, written by the other worker
        assert ">10<" in client.get(page).get_data(as_text=True).replace(" ", "")


PID = select(func.pg_backend_pid())


@pytest.mark.skipif(not USE_PG, reason="a dropped connection is PostgreSQL's (a server restart)")
def test_lookups_go_on_when_every_pooled_connection_was_dropped(database_url):
    """After a restart every connection the reads' pool keeps is dead, not only the first one
    tried: each is pinged at checkout and replaced."""
    database = Database(database_url)
    try:
        with database.reader.connect() as one, database.reader.connect() as two:  # two kept in the pool
            pids = [one.scalar(PID), two.scalar(PID)]
        with database.writer.begin() as conn:
            for pid in pids:
                conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        assert database.first(select(literal(1))) == (1,)
        assert database.first(PID)[0] not in pids
    finally:
        database.dispose()


def test_a_failed_lookup_is_sqlalchemys_error(app):
    """A lookup that fails for another reason says so as every other statement does (SQLAlchemy's
    error, which the error pages know)."""
    with pytest.raises(DBAPIError):
        app.extensions["database"].first(select(column("no_such_column")).select_from(Game))


def test_lookups_reuse_the_pooled_connections(database_url):
    """Reads take their connection from the reads' pool: five in a row open one connection, and
    ``dispose`` lets it go."""
    database = Database(database_url)
    connects = []
    event.listen(database.reader, "connect", lambda *args: connects.append(1))
    try:
        for _ in range(5):
            assert database.first(select(literal(1))) == (1,)
        assert len(connects) == 1
        database.dispose()
        assert database.all(select(literal(2))) == [(2,)]
        assert len(connects) == 2
    finally:
        database.dispose()


@pytest.mark.skipif(not USE_PG, reason="a dropped connection is PostgreSQL's (a server restart)")
def test_a_pooled_lookup_connection_found_dropped_is_replaced(database_url):
    """The connection kept between reads was cut (a server restart): the next read answers, on a
    new one."""
    database = Database(database_url)
    try:
        pid = database.first(PID)[0]  # its connection is kept in the pool now
        with database.writer.begin() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        assert database.first(PID)[0] != pid
    finally:
        database.dispose()


def test_the_shared_views_state_answers_a_boolean_on_both_databases(app, games):
    """The shared view's one question (``history.shared_state``) reads its row by name, a boolean
    one on SQLite too, and a game that is not there is None."""
    database = app.extensions["database"]
    game, _token = games.create_game("classique", THREE, rounds=3, first_dealer=0)
    games.record_manche(game.id, ANA_OUT)
    state = history.shared_state(database, game.share_id)
    assert (state.game_id, state.revision, state.finished) == (game.id, 1, False)
    for _ in range(2):
        games.record_manche(game.id, BOB_OUT)  # the third manche of three: the game is over
    assert history.shared_state(database, game.share_id).finished is True
    assert history.shared_state(database, "no-such-share") is None
