"""A release rolled back and brought forward again keeps the club's history: on a database holding
games (players, manches, hands), a group with a member, an invite and a merged spelling, a club
night and an open entry, every migration's downgrade down to the first and every upgrade back up
keep each row they do not mean to drop — on SQLite (where a batch migration rebuilds ``game``)
and on PostgreSQL (a schema of its own: the walk drops every table on its way down)."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import inspect, text

from app import create_app
from models.core.scoring import MancheEntry
from models.core.standings import person
from models.services.db import Database
from models.services.open_entry import HandChange
from models.services.schema import downgrade, migrate
from tests.conftest import PG_URL, USE_PG, pg_url_with_schema

# The tables of the first revision, whose rows every migration after it keeps.
FIRST_TABLES = ("game", "player", "manche", "hand")


@pytest.fixture
def url(tmp_path):
    if not USE_PG:
        yield f"sqlite:///{tmp_path / 'walk.db'}"
        return
    schema = f"walk_{uuid.uuid4().hex[:12]}"
    admin = Database(PG_URL)
    with admin.writer.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    yield pg_url_with_schema(PG_URL, schema)
    with admin.writer.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def filled(url: str) -> None:
    """Two games of a group (one with two manches, one with a hand on its open entry), a member,
    an invite, a merged spelling and a night of two tables, written through the services."""
    app = create_app({"DATABASE_URL": url, "TESTING": True})
    games, groups, nights = (app.extensions[name] for name in ("games", "groups", "nights"))
    group_id, _token = groups.create("Les jeudis", "Ana")
    game, _ = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C", "KD"], "Chloé": ["8S"]}))
    games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["7H"], "Chloé": ["2C", "JK"]}))
    groups.add_game(group_id, game.id)
    other, _ = games.create_game("classique", ["Anna", "Bob"], first_dealer=1)
    groups.add_game(group_id, other.id)
    app.extensions["open_entries"].change_hand(
        games.get(other.id), 1, 1, HandChange(["9D"], None, True), "phone-b", "Bob"
    )
    groups.create_invite(group_id)
    groups.merge(group_id, person("Anna"), person("Ana"))
    nights.start(group_id, "Soirée", "classique", None, 1, [["Ana", "Bob"], ["Chloé", "Dan"]], "night-1")
    app.extensions["database"].dispose()


def counts(database: Database) -> dict[str, int]:
    """Every table's number of rows (but Alembic's own)."""
    with database.writer.connect() as conn:
        names = [n for n in inspect(conn).get_table_names() if n != "alembic_version"]
        return {name: conn.execute(text(f'SELECT count(*) FROM "{name}"')).scalar_one() for name in names}


# batch mode reflects ``game`` to rebuild it, and says it skips the index on an expression (the
# downgrade makes it again)
@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
def test_every_migration_down_and_up_keeps_the_rows_it_does_not_drop(url):
    filled(url)
    database = Database(url)
    try:
        at_head = counts(database)
        assert all(at_head[name] for name in (*FIRST_TABLES, "play_group", "club_night", "open_hand")), at_head
        # down to the first revision: the first tables keep every row
        downgrade(database, "0001")
        assert {name: counts(database)[name] for name in FIRST_TABLES} == {n: at_head[n] for n in FIRST_TABLES}
        # back up: every table of the first revision as it was; the later ones hold what they can
        migrate(database)
        again = counts(database)
        assert {name: again[name] for name in FIRST_TABLES} == {n: at_head[n] for n in FIRST_TABLES}
        # one step down and up from the head keeps every row of every table
        downgrade(database, "-1")
        migrate(database)
        assert counts(database) == again
    finally:
        database.dispose()
