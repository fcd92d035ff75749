"""The schema migrated once however many processes start together (issue 27, item 1): migrate()
takes PostgreSQL's advisory lock, or a lock on a file beside the SQLite database, around the
upgrade; the first caller upgrades, the others wait and then find nothing left to do."""

from __future__ import annotations

import os
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from models.services.db import Database
from models.services.schema import migrate

PG_URL = os.environ.get("DATABASE_URL", "")
USE_PG = PG_URL.startswith("postgres")
CALLERS = 6


@pytest.fixture
def empty_url(tmp_path):
    """A new SQLite file, or a new PostgreSQL schema (the advisory lock is the database's: a schema
    of the test database is enough to show it)."""
    if not USE_PG:
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    schema = f"empty_{uuid.uuid4().hex[:12]}"
    admin = Database(PG_URL)
    with admin.writer.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in PG_URL else "?"
    yield f"{PG_URL}{separator}options=-csearch_path%3D{schema}"
    with admin.writer.begin() as connection:
        connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def test_callers_migrating_at_the_same_moment_upgrade_once(empty_url):
    barrier = threading.Barrier(CALLERS)

    def start(_):
        database = Database(empty_url)  # a process of its own would have its own engines too
        try:
            barrier.wait(timeout=30)
            migrate(database)
        finally:
            database.dispose()

    with ThreadPoolExecutor(max_workers=CALLERS) as pool:
        list(pool.map(start, range(CALLERS)))  # any caller's error is raised here
    database = Database(empty_url)
    with database.reader.connect() as connection:
        assert len(connection.execute(text("SELECT version_num FROM alembic_version")).all()) == 1
    assert {"game", "manche", "idempotency"} <= set(inspect(database.reader).get_table_names())
    database.dispose()


@pytest.mark.skipif(USE_PG, reason="the lock file is SQLite's")
def test_the_sqlite_lock_is_a_file_beside_the_database(tmp_path):
    database = Database(f"sqlite:///{tmp_path / 'carte.db'}")
    migrate(database)
    database.dispose()
    assert (tmp_path / "carte.db.migrate-lock").exists()


@pytest.mark.skipif(not USE_PG, reason="PostgreSQL's advisory lock")
def test_the_migration_waits_for_the_lock_beyond_the_lock_timeout(empty_url):
    """A migration started while another holds the lock waits for it, even past the writes'
    lock_timeout (a large database can take a while to upgrade), and keeps that timeout for its
    own statements."""
    from models.services.schema import ADVISORY_KEY

    holder = Database(empty_url)
    waiter = Database(empty_url, lock_timeout=0.2)
    done = threading.Event()
    with holder.writer.begin() as connection:
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_KEY})
        thread = threading.Thread(target=lambda: (migrate(waiter), done.set()))
        thread.start()
        assert not done.wait(1.0), "the migration did not wait for the lock"
    thread.join(timeout=60)
    assert done.is_set()
    with waiter.writer.connect() as connection:
        assert connection.execute(text("SHOW lock_timeout")).scalar_one() == "200ms"
    holder.dispose()
    waiter.dispose()


def test_migration_0008_keeps_the_keys_as_standing(empty_url):
    """0007 → 0008 (issue 27): the keys already kept stay, each for a manche that stands (no
    deletion mark), and the keys' dates are indexed for the purge."""
    database = Database(empty_url)
    migrate(database, "0007")
    with database.writer.begin() as connection:
        connection.execute(text(
            "INSERT INTO game (id, variant, options_json, mode, table_id, target, rounds, first_dealer, edit_token_hash,"
            " share_id, revision, reshaped, created_at, updated_at) VALUES ('g1', 'classique', '{}', 'penalty',"
            " 'classique', 500, NULL, 0, 'h', 's1', 1, 0, '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
        ))  # fmt: skip
        connection.execute(text(
            "INSERT INTO idempotency (game_id, key, manche_number, created_at) VALUES ('g1', 'K', 1, '2026-01-01')"
        ))  # fmt: skip
    migrate(database)
    with database.reader.connect() as connection:
        assert connection.execute(text("SELECT key, manche_number, gone_revision FROM idempotency")).all() == [
            ("K", 1, None)
        ]
    assert "ix_idempotency_created_at" in {
        index["name"] for index in inspect(database.reader).get_indexes("idempotency")
    }
    database.dispose()


def test_migration_0018_leaves_one_owner_per_group_and_the_database_keeps_it_so(empty_url):
    """0017 → 0018: a group that hand-overs sent at once left with three owners keeps the one who
    joined first (a removed phone's flag aside); from then on a second live owner is refused by
    the database itself."""
    database = Database(empty_url)
    migrate(database, "0017")
    member = ("INSERT INTO group_member (id, group_id, token_hash, name, owner, joined_at, removed_at) VALUES"
              " (:id, 'g1', :id, NULL, :owner, :joined, :removed)")  # fmt: skip
    with database.writer.begin() as connection:
        connection.execute(text(
            "INSERT INTO play_group (id, name, watch_id, revision, created_at) VALUES ('g1', 'Jeudi', 'w1', 0,"
            " '2026-01-01 00:00:00')"
        ))  # fmt: skip
        for id_, owner, joined, removed in (("a", False, "01", None), ("b", True, "03", None), ("c", True, "02", None),
                                            ("d", True, "04", None), ("e", True, "00", "05")):  # fmt: skip
            day = f"2026-01-{joined} 00:00:00" if joined != "00" else "2025-12-31 00:00:00"
            gone = None if removed is None else f"2026-01-{removed} 00:00:00"
            connection.execute(text(member), {"id": id_, "owner": owner, "joined": day, "removed": gone})
    migrate(database)
    with database.reader.connect() as connection:
        owners = connection.execute(text("SELECT id FROM group_member WHERE owner ORDER BY id")).scalars().all()
    assert owners == ["c", "e"]  # c joined first of the live owners; e was removed
    with pytest.raises(IntegrityError), database.writer.begin() as connection:
        connection.execute(text("UPDATE group_member SET owner = true WHERE id = 'a'"))
    with database.writer.begin() as connection:  # a hand-over: the owner's flag cleared first, then given
        connection.execute(text("UPDATE group_member SET owner = false WHERE id = 'c'"))
        connection.execute(text("UPDATE group_member SET owner = true WHERE id = 'a'"))
    database.dispose()
