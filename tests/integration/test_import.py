"""Hardening (issue 12): a big import never blocks the other tables, a busy database answers 503
with Retry-After (never 500) and writes nothing, and a game holds at most MAX_MANCHES manches.

The busy cases hold a lock from a second connection, as another writer would: SQLite's write lock
(BEGIN IMMEDIATE), or on PostgreSQL the game's row (SELECT … FOR UPDATE) or the manche table.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, event, func, select, text
from sqlmodel import Session

from app import create_app
from models.core.variant import MAX_MANCHES
from models.services.db import Game, Manche
from models.services.faults import is_busy

USE_PG = os.environ.get("DATABASE_URL", "").startswith("postgres")
THREE = ["Ana", "Bob", "Chloé"]


def import_document(manches: int, rounds: int | None = MAX_MANCHES, target: int | None = None) -> dict:
    """A classique game (penalty mode) in which Ana goes out every manche, Bob is left with 3C and
    Chloé with KD 2S. Table classique (SPEC §2, seed 000): 3 is worth 3, K 10, 2 20; so each
    manche Bob adds 3 and Chloé 10 + 20 = 30."""
    return {
        "format": "carte-game/1",
        "game": {
            "variant": "classique",
            "players": THREE,
            "mode": "penalty",
            "rounds": rounds,
            "target": target,
            "first_dealer": 0,
            "manches": [
                {"number": n + 1, "winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["KD", "2S"]}}
                for n in range(manches)
            ],
        },
        "totals": {"Ana": 0, "Bob": 3 * manches, "Chloé": 30 * manches},
    }


def create(client, players=None):
    resp = client.post("/api/v1/games", json={"variant": "classique", "players": players or THREE})
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    return game, {"Authorization": f"Bearer {game['edit_token']}"}


def count(app, model) -> int:
    with Session(app.extensions["database"].reader) as session:
        return session.execute(select(func.count()).select_from(model)).scalar_one()


# --- the import ----------------------------------------------------------------------------------


def test_an_import_of_the_most_manches_gives_the_whole_game(client):
    resp = client.post("/api/v1/games/import", json=import_document(MAX_MANCHES))
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    assert len(game["manches"]) == MAX_MANCHES
    # 1,000 manches: Bob 3 × 1,000, Chloé 30 × 1,000; the game was played over 1,000 manches: over
    assert game["totals"] == {"Ana": 0, "Bob": 3000, "Chloé": 30000}
    assert game["status"] == "finished" and game["winners"] == ["Ana"]
    assert game["manches"][-1] == {**game["manches"][-1], "number": 1000, "winner": "Ana"}
    assert game["manches"][-1]["points"] == {"Ana": 0, "Bob": 3, "Chloé": 30}
    again = client.post("/api/v1/games/import", json=client.get(f"/api/v1/games/{game['id']}/export").get_json())
    assert again.status_code == 201 and again.get_json()["totals"] == game["totals"]


def test_an_import_beyond_the_most_manches_is_refused_and_saves_nothing(client, app):
    resp = client.post("/api/v1/games/import", json=import_document(MAX_MANCHES + 1, rounds=None))
    assert resp.status_code == 422
    error = resp.get_json()["error"]
    assert error["code"] == "validation_error" and error["field"] == "game.manches"
    assert "1000" in error["message"] and "1001" in error["message"]
    assert count(app, Game) == 0


def test_an_import_refused_at_its_last_manche_saves_nothing(client, app):
    document = import_document(50)
    document["game"]["manches"][-1]["hands"]["Bob"] = ["ZZ"]
    resp = client.post("/api/v1/games/import", json=document)
    assert resp.status_code == 422 and resp.get_json()["error"]["field"] == "game.manches.49.hands.Bob"
    assert count(app, Game) == 0 and count(app, Manche) == 0


def test_a_game_records_no_manche_beyond_the_most(client, games):
    game, auth = games.import_game(import_document(MAX_MANCHES, rounds=None, target=100_000))
    assert len(game.manches) == MAX_MANCHES and not game.finished  # Chloé's 30,000 is short of 100,000
    resp = client.post(
        f"/api/v1/games/{game.id}/manches",
        json={"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["4C"]}},
        headers={"Authorization": f"Bearer {auth}"},
    )
    assert resp.status_code == 422 and "1000" in resp.get_json()["error"]["message"]
    assert len(games.get(game.id).manches) == MAX_MANCHES


def test_another_game_is_written_while_a_large_import_is_being_written(app):
    """Another table records a manche (201) while the import's transaction is open, instead of
    waiting for a long import to finish (SQLite: the write lock) and failing."""
    database = app.extensions["database"]
    other, auth = create(app.test_client())
    results: dict = {}
    importing, recording = threading.Event(), threading.Event()

    def record():
        resp = app.test_client().post(
            f"/api/v1/games/{other['id']}/manches",
            json={"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["4C"]}},
            headers=auth,
        )
        results["other"] = resp.status_code

    recorder = threading.Thread(target=record)

    def on_statement(_conn, _cursor, statement, *_args):
        current = threading.current_thread()
        if current.name == "importer" and statement.startswith("INSERT INTO manche") and not importing.is_set():
            importing.set()  # the import holds its write transaction: the other table writes now
            recorder.start()
            assert recording.wait(30), "the other write never reached the database"
        elif current is recorder and statement.startswith(("BEGIN IMMEDIATE", "UPDATE game")):
            recording.set()  # the other write asks for its lock while the import holds its own

    def run_import():
        resp = app.test_client().post("/api/v1/games/import", json=import_document(MAX_MANCHES))
        results["import"] = resp.status_code

    event.listen(database.writer, "before_cursor_execute", on_statement)
    try:
        importer = threading.Thread(target=run_import, name="importer")
        importer.start()
        importer.join(120)
        recorder.join(120)
    finally:
        event.remove(database.writer, "before_cursor_execute", on_statement)
    assert importing.is_set() and recording.is_set()
    assert results == {"import": 201, "other": 201}
    assert [m["number"] for m in app.test_client().get(f"/api/v1/games/{other['id']}").get_json()["manches"]] == [1]


# --- a busy database ------------------------------------------------------------------------------


@pytest.fixture
def busy_app(app_config):
    """The app with a lock timeout of 50 ms: a write that cannot have its lock gives up at once."""
    application = create_app({**app_config, "DATABASE_LOCK_TIMEOUT": 0.05})
    yield application
    application.extensions["database"].dispose()


@contextmanager
def held_lock(database_url: str, game_id: str | None = None, table: str | None = None):
    """Another writer holding a lock: SQLite's write lock, or on PostgreSQL the game's row (or a
    whole table, in SHARE mode: reads go on, inserts wait)."""
    if not USE_PG:
        connection = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            connection.rollback()
            connection.close()
        return
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as connection, connection.begin():
            if table:
                connection.execute(text(f"LOCK TABLE {table} IN SHARE MODE"))
            else:
                connection.execute(text("SELECT id FROM game WHERE id = :id FOR UPDATE"), {"id": game_id})
            yield
    finally:
        engine.dispose()


def assert_busy(resp, json_body: bool):
    assert resp.status_code == 503, resp.get_data(as_text=True)
    assert int(resp.headers["Retry-After"]) >= 1
    if json_body:
        error = resp.get_json()["error"]
        assert error["code"] == "busy" and error["message"].strip()
        return error["message"]
    return resp.get_data(as_text=True)


def test_a_write_that_cannot_have_its_lock_answers_503_and_writes_nothing(busy_app, database_url):
    client = busy_app.test_client()
    game, auth = create(client)
    body = {"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["4C"]}}
    with held_lock(database_url, game["id"]):
        message = assert_busy(client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth), True)
        assert message == "Le serveur est occupé\u00a0: réessayez dans un instant."  # French by default
        english = client.post(
            f"/api/v1/games/{game['id']}/manches", json=body, headers={**auth, "Accept-Language": "en"}
        )
        assert assert_busy(english, True) == "The server is busy: try again in a moment."
        assert client.get(f"/api/v1/games/{game['id']}").get_json()["manches"] == []  # reading goes on
    assert count(busy_app, Manche) == 0
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)
    assert resp.status_code == 201 and resp.get_json()["number"] == 1  # the lock released, the write goes through


def test_a_web_write_that_cannot_have_its_lock_shows_the_error_page(busy_app, database_url):
    client = busy_app.test_client()
    game, auth = create(client)
    client.post(
        f"/api/v1/games/{game['id']}/manches",
        json={"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["4C"]}},
        headers=auth,
    )
    with client.session_transaction() as session:
        session["tokens"] = {game["id"]: game["edit_token"]}
    with held_lock(database_url, game["id"]):
        page = assert_busy(client.post(f"/games/{game['id']}/manches/1/delete", data={"confirm": "1"}), False)
        assert "Le serveur est occupé" in page and "(503)" in page
    assert count(busy_app, Manche) == 1  # not deleted
    assert client.post(f"/games/{game['id']}/manches/1/delete", data={"confirm": "1"}).status_code == 303


def test_an_import_that_cannot_have_its_lock_answers_503_and_leaves_no_game(busy_app, database_url):
    client = busy_app.test_client()
    with held_lock(database_url, table="manche"):
        assert_busy(client.post("/api/v1/games/import", json=import_document(20)), True)
    # PostgreSQL: the game and its players were inserted before the manches waited; all rolled back
    assert count(busy_app, Game) == 0
    assert client.post("/api/v1/games/import", json=import_document(20)).status_code == 201


def test_only_a_lock_not_had_in_time_counts_as_busy(tmp_path):
    path = tmp_path / "busy.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    waiter = sqlite3.connect(path, timeout=0, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError) as locked:
        waiter.execute("BEGIN IMMEDIATE")
    holder.rollback()
    with pytest.raises(sqlite3.OperationalError) as missing:
        waiter.execute("SELECT * FROM nowhere")
    waiter.close()
    holder.close()
    assert is_busy(locked.value) and not is_busy(missing.value)
