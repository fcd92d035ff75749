"""The live table (issue 24): the count of changes shared by every game goes (it serialised all
writes on PostgreSQL); each game's revision is what changes are noticed by: on PostgreSQL a
trigger announces a new revision with NOTIFY, delivered at commit; the phones entering a manche
right now (presence) have a small table of their own.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 02:00:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

CHANNEL = "carte_changes"  # models/services/notifications.py listens on it

# "<game id> <revision>" when a game's revision moves; "<game id> presence" when a phone enters,
# refreshes or leaves. NOTIFY inside a transaction is delivered when (and only if) it commits.
PG_FUNCTIONS = [
    f"""CREATE FUNCTION carte_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_notify('{CHANNEL}', NEW.id || ' ' || NEW.revision); RETURN NULL; END $$""",
    f"""CREATE FUNCTION carte_presence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_notify('{CHANNEL}', COALESCE(NEW.game_id, OLD.game_id) || ' presence'); RETURN NULL; END $$""",
]
PG_TRIGGERS = [
    """CREATE TRIGGER carte_game_changed AFTER UPDATE OF revision ON game
FOR EACH ROW WHEN (NEW.revision IS DISTINCT FROM OLD.revision) EXECUTE FUNCTION carte_game_changed()""",
    """CREATE TRIGGER carte_presence_changed AFTER INSERT OR UPDATE OR DELETE ON presence
FOR EACH ROW EXECUTE FUNCTION carte_presence_changed()""",
]


def upgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        for event in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS game_changes_{event}")
    else:
        op.execute("DROP TRIGGER IF EXISTS game_changes ON game")
        op.execute("DROP FUNCTION IF EXISTS game_changed()")
    op.drop_table('game_changes')
    op.create_table(
        'presence',
        sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('phone', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('editing', sa.Boolean(), nullable=False),
        sa.Column('seen', sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'phone'),
    )
    if op.get_bind().dialect.name != 'sqlite':
        for statement in PG_FUNCTIONS + PG_TRIGGERS:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != 'sqlite':
        op.execute("DROP TRIGGER carte_presence_changed ON presence")
        op.execute("DROP TRIGGER carte_game_changed ON game")
        op.execute("DROP FUNCTION carte_presence_changed()")
        op.execute("DROP FUNCTION carte_game_changed()")
    op.drop_table('presence')
    op.create_table(
        'game_changes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.execute("INSERT INTO game_changes (id, count) VALUES (1, 0)")
    # the counting triggers of 0005 back on game_changes (its downgrade drops them)
    if op.get_bind().dialect.name == 'sqlite':
        for event in ("INSERT", "UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER game_changes_{event.lower()} AFTER {event} ON game "
                "BEGIN UPDATE game_changes SET count = count + 1 WHERE id = 1; END"
            )
    else:
        op.execute(
            "CREATE FUNCTION game_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$ "
            "BEGIN UPDATE game_changes SET count = count + 1 WHERE id = 1; RETURN NULL; END $$"
        )
        op.execute(
            "CREATE CONSTRAINT TRIGGER game_changes AFTER INSERT OR UPDATE OR DELETE ON game "
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION game_changed()"
        )
