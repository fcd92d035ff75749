"""Club nights: several tables of one group at once, round after round (« une soirée de club »);
each game of a night knows its round and its table.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 03:00:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'club_night',
        sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('group_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column('variant', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('target', sa.Integer(), nullable=True),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('start_key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['play_group.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_id', 'start_key'),
    )
    # Plain ADD COLUMNs (SQLite has them): a batch would reflect the game table, whose expression
    # index (ix_game_listed) SQLAlchemy cannot read, and warn at every start on a new database.
    op.add_column('game', sa.Column('night_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))
    op.add_column('game', sa.Column('night_round', sa.Integer(), nullable=True))
    op.add_column('game', sa.Column('night_table', sa.Integer(), nullable=True))
    # One game per table of a round: a round started twice (two phones at once) writes it once.
    op.create_index('ix_game_night', 'game', ['night_id', 'night_round', 'night_table'], unique=True)


def downgrade() -> None:
    op.drop_index('ix_game_night', table_name='game')
    # Plain DROP COLUMNs (SQLite has them since 3.35), as the upgrade's ADD COLUMNs: a batch would
    # rebuild the game table, losing its expression index and its triggers.
    op.drop_column('game', 'night_table')
    op.drop_column('game', 'night_round')
    op.drop_column('game', 'night_id')
    op.drop_table('club_night')
