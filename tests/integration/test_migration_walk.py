"""Every migration keeps the rows it does not mean to drop, both ways: a database at the head,
holding games (manches, hands, players, an invite), a group (members, a merge, an invite), a club
night and an open entry, is walked down one revision at a time to the first and back up, as an
operator does with ``alembic downgrade`` / ``upgrade`` (``migrations/env.py`` run from the command
line). At each step, every table there before and after holds as many rows; back at the head,
the indexes and triggers are those it had."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from models.services.db import Database
from models.services.schema import MIGRATIONS
from tests.e2e.test_group_files import played_group
from tests.e2e.test_nights import proposed, start


def alembic_config(url: str) -> Config:
    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def row_counts(url: str) -> dict[str, int]:
    """Each table's number of rows (Alembic's own table aside)."""
    database = Database(url)
    try:
        with database.writer.connect() as connection:
            names = [n for n in inspect(connection).get_table_names() if n != "alembic_version"]
            return {n: connection.execute(text(f'SELECT count(*) FROM "{n}"')).scalar_one() for n in names}
    finally:
        database.dispose()


SCHEMA_PARTS = {
    "sqlite": "SELECT type || ' ' || name FROM sqlite_master WHERE type IN ('index', 'trigger')"
    " AND name NOT LIKE 'sqlite_autoindex%'",
    "postgresql": "SELECT 'index ' || indexname FROM pg_indexes WHERE schemaname = current_schema()"
    " UNION SELECT 'trigger ' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
    " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE NOT t.tgisinternal AND n.nspname = current_schema()",
}


def schema_parts(url: str) -> set[str]:
    """The database's indexes and triggers, by name."""
    database = Database(url)
    try:
        with database.writer.connect() as connection:
            return set(connection.exec_driver_sql(SCHEMA_PARTS[connection.dialect.name]).scalars())
    finally:
        database.dispose()


def kept(before: dict, after: dict) -> dict:
    """The tables there on both sides whose number of rows moved: (before, after)."""
    return {n: (before[n], after[n]) for n in before.keys() & after.keys() if before[n] != after[n]}


def test_every_migration_keeps_the_rows_it_does_not_mean_to_drop(app, database_url):
    ana, _bob, group_id, (_first, _second, third) = played_group(app)
    ana.put(f"/games/{third}/entry/hands/1", json={"number": 2, "cards": ["K"], "done": False})
    start(ana, group_id, proposed(ana, group_id))
    app.extensions["feed"].close()
    app.extensions["database"].dispose()
    at_head, parts = row_counts(database_url), schema_parts(database_url)
    assert "index ix_game_listed" in parts
    assert all(at_head[t] for t in ("game", "player", "manche", "hand", "play_group", "group_alias", "club_night",
                                    "open_entry", "open_hand"))  # fmt: skip
    config = alembic_config(database_url)
    revisions = [s.revision for s in ScriptDirectory.from_config(config).walk_revisions()]  # head first
    counts = at_head
    for lower in revisions[1:]:
        command.downgrade(config, lower)
        now = row_counts(database_url)
        assert kept(counts, now) == {}, f"down to {lower}"
        counts = now
    for higher in reversed(revisions[:-1]):
        command.upgrade(config, higher)
        now = row_counts(database_url)
        assert kept(counts, now) == {}, f"up to {higher}"
        counts = now
    assert {t: counts[t] for t in ("game", "player", "manche", "hand")} == {
        t: at_head[t] for t in ("game", "player", "manche", "hand")
    }
    assert schema_parts(database_url) == parts  # the indexes and triggers made again, none lost
