"""The table flow: players joining or leaving mid-game, undo of an edit or deletion, invites' last use

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 03:45:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('joined_after', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('start_total', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('left_after', sa.Integer(), nullable=True))
    with op.batch_alter_table('invite', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_used_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    op.create_table('undo_record',
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('manche_json', sa.Text(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id')
    )


def downgrade() -> None:
    op.drop_table('undo_record')
    with op.batch_alter_table('invite', schema=None) as batch_op:
        batch_op.drop_column('last_used_at')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('left_after')
        batch_op.drop_column('start_total')
        batch_op.drop_column('joined_after')
