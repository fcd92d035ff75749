"""Carte ! as a club deploys it (issue 27): gunicorn with several workers on a new, empty database;
the limits counted once for the whole server in Redis, across every door; Redis out of reach.

Each test starts gunicorn from the project's directory, as the README says (``Server`` in
test_server.py). The database is the one the suite runs on: a new SQLite file, or a new
PostgreSQL database made on the server of ``DATABASE_URL`` and dropped at the end.
"""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import make_url, text

from models.services.db import Database

from .test_server import Server, call

PG_URL = os.environ.get("DATABASE_URL", "")
USE_PG = PG_URL.startswith("postgres")


@pytest.fixture
def empty_database_url(tmp_path):
    """A URL to a database that exists and holds nothing: no table, no schema revision."""
    if not USE_PG:
        yield f"sqlite:///{tmp_path / 'new.db'}"
        return
    name = f"carte_new_{uuid.uuid4().hex[:12]}"
    server = Database(PG_URL)
    with server.writer.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    with server.writer.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    server.dispose()


def schema_revisions(url: str) -> list[str]:
    database = Database(url)
    with database.reader.connect() as connection:
        revisions = list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())
    database.dispose()
    return revisions


def head_revision() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from models.services.schema import MIGRATIONS

    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


# --- 1. the schema, migrated once however many workers start ----------------------------------------


@pytest.mark.parametrize("attempt", [1, 2])
def test_three_workers_boot_on_an_empty_database(empty_database_url, tmp_path, attempt):
    """gunicorn -w 3 with the default settings (each worker migrates as it starts) on a database
    that holds nothing: the three boot, one of them migrates, and the server answers. Before the
    lock, the three upgraded at once and one died on a unique violation (3 starts out of 3)."""
    log = tmp_path / "gunicorn.log"
    server = Server(empty_database_url, workers=3, env={"AUTO_MIGRATE": "1"}, log=log).start()
    try:
        status, game = call(server.url + "/api/v1/games", "POST", {"variant": "classique", "players": ["Ana", "Bob"]})
        assert status == 201, game
        for _ in range(6):  # answered by whichever workers take them: each has its schema
            assert call(f"{server.url}/api/v1/games/{game['id']}")[0] == 200
    finally:
        server.stop()
    text_of_log = log.read_text()
    assert text_of_log.count("Booting worker") == 3, text_of_log
    assert "Worker failed to boot" not in text_of_log and "Traceback" not in text_of_log, text_of_log
    assert schema_revisions(empty_database_url) == [head_revision()]
