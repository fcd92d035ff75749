"""The database's schema: brought to the latest revision with Alembic (``migrations/``), once per
deployment however many processes start at the same moment.

A migration keeps the rows it does not mean to drop, both ways (``keys_held``: SQLite's foreign
keys are not enforced while its tables are rebuilt, and checked before the commit).

Every worker of ``gunicorn -w 3`` migrates as it starts (unless ``AUTO_MIGRATE=0``): they take
one lock in turn, and the first upgrades while the others wait; each of them then finds the schema
at its revision and has nothing left to do. The lock is the database's own on PostgreSQL (an
advisory lock held by the migration's transaction, so it is let go when that transaction ends,
whatever happens) and a lock on a file beside the database on SQLite (``instance/carte.db.migrate-lock``
by default; the system lets it go when the process ends). Whatever runs the app — ``flask run``,
gunicorn, another server, ``flask --app app migrate`` by hand — the same lock is taken.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from sqlalchemy import text

from .db import Database

try:
    import fcntl
except ImportError:  # not on Windows, where the app is never served by several processes
    fcntl = None

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
# The advisory lock's key (any 64-bit number the app alone uses): "carte" spelled in ASCII.
ADVISORY_KEY = 0x6361727465


def migrate(database: Database, revision: str = "head") -> None:
    """Bring the schema up to ``revision`` with Alembic, one process at a time."""
    from alembic import command

    _migrated(database, command.upgrade, revision)


def downgrade(database: Database, revision: str) -> None:
    """Take the schema back down to ``revision`` (a release rolled back), one process at a time:
    every row the migrations on the way do not mean to drop is kept."""
    from alembic import command

    _migrated(database, command.downgrade, revision)


def _migrated(database: Database, step, revision: str) -> None:
    from alembic.config import Config

    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    with _file_lock(database), database.writer.connect() as connection, keys_held(connection):
        if not database.is_sqlite:
            _advisory_lock(connection)
        config.attributes["connection"] = connection
        step(config, revision)


@contextlib.contextmanager
def keys_held(connection):
    """One transaction on ``connection`` for a migration. On SQLite the foreign keys are not
    enforced while it runs (set before the transaction begins: SQLite ignores the setting inside
    one), so that a table rebuilt by a batch operation — copied, dropped, renamed — does not
    cascade its drop to the rows that refer to it; they are checked whole before the commit (a
    row left without its parent fails the migration, which writes nothing) and enforced again
    after. PostgreSQL alters its tables in place: nothing to hold there."""
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        connection.connection.dbapi_connection.execute("PRAGMA foreign_keys=OFF")
    try:
        with connection.begin():
            yield connection
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                if broken is not None:
                    raise RuntimeError(f"the migration left a row of {broken[0]} without its {broken[2]}")
    finally:
        if sqlite:
            connection.connection.dbapi_connection.execute("PRAGMA foreign_keys=ON")


def _advisory_lock(connection) -> None:
    """Wait, as long as it takes, for PostgreSQL's advisory lock, held until this transaction ends.

    The wait has no time limit (another process may be migrating a large database), while the
    migration's own statements keep the usual ``lock_timeout``."""
    usual = connection.execute(text("SHOW lock_timeout")).scalar_one()
    connection.execute(text("SET LOCAL lock_timeout = 0"))
    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_KEY})
    connection.execute(text("SELECT set_config('lock_timeout', :usual, true)"), {"usual": usual})


@contextlib.contextmanager
def _file_lock(database: Database):
    """On SQLite, an exclusive lock on ``<database file>.migrate-lock`` while the schema is brought
    up to date (nothing on PostgreSQL, nor for a database in memory, which one process alone sees)."""
    path = database.writer.url.database
    if not database.is_sqlite or fcntl is None or not path or path == ":memory:":
        yield
        return
    with open(f"{path}.migrate-lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
