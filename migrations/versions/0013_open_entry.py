"""One manche, many hands: the manche a table is counting together (one row per game) and its
hands, one per seat, each changed by the phone counting it; on PostgreSQL a change of the entry's
version is announced on the live table's channel ("<game id> entry"), delivered at commit.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 02:00:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

CHANNEL = "carte_changes"  # models/services/notifications.py listens on it

PG_FUNCTION = f"""CREATE FUNCTION carte_entry_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_notify('{CHANNEL}', NEW.game_id || ' entry'); RETURN NULL; END $$"""
PG_TRIGGER = """CREATE TRIGGER carte_entry_changed AFTER INSERT OR UPDATE OF version ON open_entry
FOR EACH ROW EXECUTE FUNCTION carte_entry_changed()"""


def upgrade() -> None:
    op.create_table(
        'open_entry',
        sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('winner', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=True),
        sa.Column('expected', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('changed_at', sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_table(
        'open_hand',
        sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('cards', sa.Text(), nullable=False),
        sa.Column('typed', sa.Integer(), nullable=True),
        sa.Column('done', sa.Boolean(), nullable=False),
        sa.Column('value', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('phone', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
        sa.Column('changed_at', sa.Float(), nullable=False),
        sa.Column('replaced_json', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['open_entry.game_id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'seat'),
    )
    if op.get_bind().dialect.name != 'sqlite':
        op.execute(PG_FUNCTION)
        op.execute(PG_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name != 'sqlite':
        op.execute("DROP TRIGGER carte_entry_changed ON open_entry")
        op.execute("DROP FUNCTION carte_entry_changed()")
    op.drop_table('open_hand')
    op.drop_table('open_entry')
