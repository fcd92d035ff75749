"""The write path in SQL statements (issues 17 and 29): recording, editing and deleting a manche
cost a constant number of statements whatever the game's length — the game's revision checked
against the view this process kept (with what another process added since, in the same statement),
then one short transaction (the revision compared and bumped in one statement, batched inserts) — and the answer
is built from what was written, not read back."""

from __future__ import annotations

import pytest
from sqlalchemy import event
from sqlmodel import Session

from models.services.games import MancheEntry

PLAYERS = ["Ana", "Bob", "Chloé"]


class Statements:
    """The SQL statements the app's engines run while it is open (text of each)."""

    def __init__(self, database):
        self.engines = database.engines
        self.seen: list[str] = []

    def _record(self, _conn, _cursor, statement, *_args):
        self.seen.append(" ".join(statement.split()))

    def __enter__(self):
        for engine in self.engines:
            event.listen(engine, "before_cursor_execute", self._record)
        return self

    def __exit__(self, *exc):
        for engine in self.engines:
            event.remove(engine, "before_cursor_execute", self._record)


def game_of(client, manches: int) -> tuple[str, dict]:
    """A classique game over 1,000 manches with ``manches`` recorded (Ana out, Bob 3C, Chloé KD 2S)."""
    created = client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS, "rounds": 1000})
    game = created.get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for _ in range(manches):
        assert client.post(f"/api/v1/games/{game['id']}/manches", json=BODY, headers=auth).status_code == 201
    return game["id"], auth


BODY = {"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["KD", "2S"]}}


def statements_of(app, do) -> list[str]:
    with Statements(app.extensions["database"]) as seen:
        do()
    return seen.seen


@pytest.mark.parametrize("key", [None, "phone-1"])
def test_recording_a_manche_costs_the_same_statements_whatever_the_length(app, client, key):
    short, short_auth = game_of(client, 1)
    long, long_auth = game_of(client, 60)
    headers = {"Idempotency-Key": key} if key else {}

    def record(game_id, auth):
        def do():
            response = client.post(f"/api/v1/games/{game_id}/manches", json=BODY, headers={**auth, **headers})
            assert response.status_code == 201, response.get_json()

        return statements_of(app, do)

    small, large = record(short, short_auth), record(long, long_auth)
    assert small == large
    # the token's rights: none (the owner's token was found to be the game's own at its first
    # write, and an edit token never changes: issue 29), the kept view checked against the game's
    # revision (1, issue 29: no read of the game), the idempotency check (with a key), then the
    # write transaction: BEGIN, the revision compared and bumped, the manche, its hands (and the
    # key), the open entry moved on to the next manche — nothing read back
    assert not any("edit_token_hash" in s for s in small)
    assert sum(s.startswith("UPDATE game SET") for s in small) == 1
    assert sum(s.startswith("INSERT") for s in small) == (3 if key else 2)
    assert sum(s.startswith("UPDATE open_entry") for s in small) == 1
    assert len([s for s in small if s != "BEGIN IMMEDIATE"]) == (7 if key else 5), small  # SQLite's BEGIN too


def test_recording_a_manche_builds_no_sql_and_runs_it_as_core_statements(client):
    """The statements of a manche write are built once, at import, and run as Core statements on
    the tables: one built per write, or run through the ORM (which then keeps the session's objects
    in step with it), cost the write more CPU than the manche's own insert."""
    game_id, auth = game_of(client, 1)
    ran: list = []

    def record():
        ran.append([])
        assert client.post(f"/api/v1/games/{game_id}/manches", json=BODY, headers=auth).status_code == 201

    def seen(state):
        ran[-1].append((state.statement, state.is_orm_statement))

    event.listen(Session, "do_orm_execute", seen)
    try:
        record(), record()
    finally:
        event.remove(Session, "do_orm_execute", seen)
    first, second = ran
    assert [type(s).__name__ for s, _ in first] == ["Update", "Insert", "Insert", "Update"], first
    assert [id(s) for s, _ in first] == [id(s) for s, _ in second], "a statement built per write"
    assert not [s for s, orm in first if orm], "a statement run through the ORM"


def test_editing_and_deleting_cost_the_same_whatever_the_length(app, client):
    short, short_auth = game_of(client, 2)
    long, long_auth = game_of(client, 60)
    edit = {"winner": "Bob", "hands": {"Ana": ["4C"], "Chloé": ["5D"]}}

    def put(game_id, auth, number):
        def do():
            assert client.put(f"/api/v1/games/{game_id}/manches/{number}", json=edit, headers=auth).status_code == 200

        return statements_of(app, do)

    def delete(game_id, auth, number):
        def do():
            assert client.delete(f"/api/v1/games/{game_id}/manches/{number}", headers=auth).status_code == 200

        return statements_of(app, do)

    assert put(short, short_auth, 1) == put(long, long_auth, 30)
    assert delete(short, short_auth, 2) == delete(long, long_auth, 60)


def test_the_answer_to_a_write_is_what_a_read_then_shows(client):
    """Built from what was written (not read back), the answer must still be the truth."""
    game_id, auth = game_of(client, 2)
    answer = client.post(f"/api/v1/games/{game_id}/manches", json=BODY, headers=auth).get_json()
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert answer["totals"] == game["totals"] == {"Ana": 0, "Bob": 9, "Chloé": 90}  # 3 × 3, 3 × (10 + 20)
    assert answer["points"] == game["manches"][-1]["points"] == {"Ana": 0, "Bob": 3, "Chloé": 30}
    edited = client.put(
        f"/api/v1/games/{game_id}/manches/3",
        json={"winner": "Bob", "hands": {"Ana": ["4C"], "Chloé": []}},
        headers=auth,
    ).get_json()
    assert edited == client.get(f"/api/v1/games/{game_id}").get_json()


def test_a_service_write_reads_the_game_once_when_given_its_view(app, games):
    game, _ = games.create_game("classique", PLAYERS, rounds=1000, first_dealer=0)
    view = games.get(game.id)
    seen = statements_of(app, lambda: games.record_manche(view, MancheEntry("Ana", BODY["hands"])))
    assert not any(s.startswith("SELECT") for s in seen), seen  # the view it was given: no read at all
