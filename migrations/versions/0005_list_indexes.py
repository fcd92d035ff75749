"""Issue 17: indexes for the list of games and the players' names, the count of changes to games
that the pages across games are kept under, and a game's count of changes other than a manche added

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 08:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

# The trigger adds one to game_changes.count in the transaction of every change to the game table
# (a manche, an edit, a join… each bumps its game's revision): the count a reader sees moves with
# every committed change to any game.
SQLITE_TRIGGERS = [
    f"""CREATE TRIGGER game_changes_{event.lower()} AFTER {event} ON game
    BEGIN UPDATE game_changes SET count = count + 1 WHERE id = 1; END"""
    for event in ("INSERT", "UPDATE", "DELETE")
]
# SET search_path FROM CURRENT: the function finds game_changes in the schema it was made in,
# whatever the search path of the session that changes a game.
PG_FUNCTION = """CREATE FUNCTION game_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN UPDATE game_changes SET count = count + 1 WHERE id = 1; RETURN NULL; END $$"""
# Deferred to the commit: the one row is locked only while the transaction commits, so writes to
# different games wait on each other for that moment, not for their whole transaction.
PG_TRIGGER = """CREATE CONSTRAINT TRIGGER game_changes AFTER INSERT OR UPDATE OR DELETE ON game
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION game_changed()"""


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reshaped', sa.Integer(), nullable=False, server_default='0'))
    op.create_index(
        'ix_game_listed', 'game', [sa.text('(finished_at IS NOT NULL)'), sa.text('created_at DESC'), 'id']
    )
    op.create_index('ix_player_name', 'player', ['name'])
    op.create_table(
        'game_changes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.execute("INSERT INTO game_changes (id, count) VALUES (1, 0)")
    if op.get_bind().dialect.name == 'sqlite':
        for trigger in SQLITE_TRIGGERS:
            op.execute(trigger)
    else:
        op.execute(PG_FUNCTION)
        op.execute(PG_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        for event in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS game_changes_{event}")  # 0006 dropped them already
    else:
        op.execute("DROP TRIGGER IF EXISTS game_changes ON game")  # 0006 dropped them already
        op.execute("DROP FUNCTION IF EXISTS game_changed()")
    op.drop_table('game_changes')
    op.drop_index('ix_player_name', table_name='player')
    op.drop_index('ix_game_listed', table_name='game')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('reshaped')
