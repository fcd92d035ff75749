"""A database out of reach answers 503 with Retry-After, never 500, and a write it stopped is
written once when retried with its key: connections refused (the database closed to new ones),
a role out of connections ("too many clients"), a write's connection cut before its commit, no
pooled connection free in time.

The PostgreSQL faults are made on a throwaway database of the test's own (``createdb``-like,
dropped after), never on the shared server's settings (/work/shared/TESTING.md)."""

from __future__ import annotations

import uuid
from contextlib import ExitStack

import pytest
from sqlalchemy import create_engine, event, func, select, text
from sqlalchemy.engine import make_url

from app import create_app
from models.services.db import WRITER_POOL, Database, Manche, database_url
from models.services.schema import migrate
from tests.conftest import PG_URL, USE_PG

THREE = ["Ana", "Bob", "Chloé"]
MANCHE = {"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["4C"]}}

pg_only = pytest.mark.skipif(not USE_PG, reason="a PostgreSQL server's connections")


def admin_engine():
    return create_engine(database_url(PG_URL), isolation_level="AUTOCOMMIT", poolclass=None)


@pytest.fixture
def own_database():
    """A database of this test's own on the PostgreSQL server, migrated; dropped after."""
    name = f"carte_fault_{uuid.uuid4().hex[:10]}"
    admin = admin_engine()
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(database_url(PG_URL)).set(database=name).render_as_string(hide_password=False)
    database = Database(url)
    migrate(database)
    database.dispose()
    try:
        yield name, url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def make_app(url: str):
    return create_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url, "AUTO_MIGRATE": False, "RATELIMIT_ENABLED": False}
    )


def close(app) -> None:
    app.extensions["feed"].close()
    app.extensions["database"].dispose()


def create(client):
    resp = client.post("/api/v1/games", json={"variant": "classique", "players": THREE})
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    return game, {"Authorization": f"Bearer {game['edit_token']}"}


def assert_unavailable(resp, json_body: bool = True) -> None:
    assert resp.status_code == 503, resp.get_data(as_text=True)
    assert int(resp.headers["Retry-After"]) >= 1
    if json_body:
        assert resp.get_json()["error"]["code"] in ("unavailable", "busy")


def stored(app, game_id: str) -> int:
    database = app.extensions["database"]
    return database.first(select(func.count()).select_from(Manche).where(Manche.game_id == game_id))[0]


def cut_connections(name: str) -> None:
    with admin_engine().connect() as connection:
        connection.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()"
            ),
            {"name": name},
        )


@pg_only
def test_a_database_refusing_connections_answers_503_then_the_retry_writes_once(own_database):
    name, url = own_database
    app = make_app(url)
    try:
        client = app.test_client()
        game, auth = create(client)
        path = f"/api/v1/games/{game['id']}/manches"
        headers = {**auth, "Idempotency-Key": "entry-1"}
        with admin_engine().connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
        cut_connections(name)
        assert_unavailable(client.post(path, json=MANCHE, headers=headers))
        assert_unavailable(client.get(f"/games/{game['id']}"), json_body=False)  # the pages' own error page
        with admin_engine().connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        assert client.post(path, json=MANCHE, headers=headers).status_code == 201
        assert client.post(path, json=MANCHE, headers=headers).status_code in (200, 201)  # a retry: the same manche
        assert stored(app, game["id"]) == 1
    finally:
        close(app)


@pg_only
def test_a_role_out_of_connections_answers_503(own_database):
    """ "Too many connections for role": the connection budget of the server is spent."""
    name, url = own_database
    role = f"carte_small_{uuid.uuid4().hex[:8]}"
    with admin_engine().connect() as connection:
        connection.execute(text(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT 1'))
    small_url = make_url(url).set(username=role, password=None).render_as_string(hide_password=False)
    holder = create_engine(small_url)
    app = make_app(small_url)
    try:
        with holder.connect():  # the role's one connection, taken
            resp = app.test_client().get("/api/v1/games/abcdefghijklmnop")
        assert_unavailable(resp)
    finally:
        close(app)
        holder.dispose()
        with admin_engine().connect() as connection:
            cut_connections(name)
            connection.execute(text(f'DROP ROLE "{role}"'))


@pg_only
def test_a_write_whose_connection_is_cut_before_its_commit_is_retried_once(own_database):
    """The backend of a write is terminated while the write runs (before its hands are inserted):
    503, nothing kept; the retry with the same key records the manche, once."""
    name, url = own_database
    app = make_app(url)
    writer = app.extensions["database"].writer
    cut = []

    def cut_before_the_hands(connection, _cursor, statement, *_args):
        if statement.startswith("INSERT INTO hand") and not cut:
            cut.append(connection.exec_driver_sql("SELECT pg_backend_pid()").scalar())
            with admin_engine().connect() as admin:
                admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": cut[0]})

    try:
        client = app.test_client()
        game, auth = create(client)
        path = f"/api/v1/games/{game['id']}/manches"
        headers = {**auth, "Idempotency-Key": "entry-1"}
        event.listen(writer, "before_cursor_execute", cut_before_the_hands)
        try:
            assert_unavailable(client.post(path, json=MANCHE, headers=headers))
        finally:
            event.remove(writer, "before_cursor_execute", cut_before_the_hands)
        assert cut and stored(app, game["id"]) == 0
        assert client.post(path, json=MANCHE, headers=headers).status_code == 201
        assert client.post(path, json=MANCHE, headers=headers).status_code in (200, 201)
        assert stored(app, game["id"]) == 1
    finally:
        close(app)


def test_no_pooled_connection_free_in_time_answers_503_then_the_retry_writes_once(app):
    """Every connection of the write pool is taken: a write waits the pool's timeout, answers 503
    with Retry-After, and writes once when retried with its key."""
    client = app.test_client()
    game, auth = create(client)
    path = f"/api/v1/games/{game['id']}/manches"
    headers = {**auth, "Idempotency-Key": "entry-1"}
    writer = app.extensions["database"].writer
    with ExitStack() as stack:
        for _ in range(WRITER_POOL):
            stack.enter_context(writer.connect())
        assert_unavailable(client.post(path, json=MANCHE, headers=headers))
    assert stored(app, game["id"]) == 0
    assert client.post(path, json=MANCHE, headers=headers).status_code == 201
    assert stored(app, game["id"]) == 1
