"""A group's revision moves whenever one of its games changes: a game of the group inserted,
updated (a manche recorded, corrected, undone, the game finished, moved into the group) or
deleted bumps ``play_group.revision`` in the same transaction, so that the group's page can be
kept per revision and asked with one small lookup, whatever its number of games.

SQLite: a trigger per row. PostgreSQL: a trigger per statement, over the rows the statement
changed (a transition table): the group's row is locked only once the statement has locked its
games, so a write of one game and a write of several games of the group (a phone removed) never
wait for each other in a circle.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 07:00:00.000000
"""

from alembic import op


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None

BUMP = "UPDATE play_group SET revision = revision + 1 WHERE id IN "

SQLITE_TRIGGERS = {
    "group_game_inserted": f"""CREATE TRIGGER group_game_inserted AFTER INSERT ON game
WHEN NEW.group_id IS NOT NULL BEGIN {BUMP}(NEW.group_id); END""",
    "group_game_updated": f"""CREATE TRIGGER group_game_updated AFTER UPDATE ON game
WHEN NEW.group_id IS NOT NULL OR OLD.group_id IS NOT NULL BEGIN {BUMP}(NEW.group_id, OLD.group_id); END""",
    "group_game_deleted": f"""CREATE TRIGGER group_game_deleted AFTER DELETE ON game
WHEN OLD.group_id IS NOT NULL BEGIN {BUMP}(OLD.group_id); END""",
}

# event -> the transition tables it has, each named as the rows it holds
PG_EVENTS = {"insert": ("NEW TABLE AS changed",), "update": ("OLD TABLE AS before", "NEW TABLE AS changed"),
             "delete": ("OLD TABLE AS changed",)}  # fmt: skip


def pg_statements(event: str, tables: tuple) -> list[str]:
    rows = "SELECT group_id FROM changed" + (" UNION SELECT group_id FROM before" if len(tables) == 2 else "")
    return [
        f"""CREATE FUNCTION carte_group_game_{event}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN {BUMP}({rows}); RETURN NULL; END $$""",
        f"""CREATE TRIGGER carte_group_game_{event} AFTER {event.upper()} ON game
REFERENCING {' '.join(tables)} FOR EACH STATEMENT EXECUTE FUNCTION carte_group_game_{event}()""",
    ]


def upgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        for statement in SQLITE_TRIGGERS.values():
            op.execute(statement)
    else:
        for event, tables in PG_EVENTS.items():
            for statement in pg_statements(event, tables):
                op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER {name}")
    else:
        for event in PG_EVENTS:
            op.execute(f"DROP TRIGGER carte_group_game_{event} ON game")
            op.execute(f"DROP FUNCTION carte_group_game_{event}()")
