"""The first schema: games, players, manches, hands, idempotency keys

Revision ID: 0001
Revises: 
Create Date: 2026-11-22 01:39:52.620789
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('game',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('variant', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('options_json', sa.Text(), nullable=False),
    sa.Column('mode', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('table_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('target', sa.Integer(), nullable=True),
    sa.Column('rounds', sa.Integer(), nullable=True),
    sa.Column('first_dealer', sa.Integer(), nullable=False),
    sa.Column('edit_token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('share_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('finished_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('share_id')
    )
    op.create_table('idempotency',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=128), nullable=False),
    sa.Column('manche_number', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'key')
    )
    with op.batch_alter_table('idempotency', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_idempotency_game_id'), ['game_id'], unique=False)

    op.create_table('manche',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('winner_seat', sa.Integer(), nullable=True),
    sa.Column('blocked', sa.Boolean(), nullable=False),
    sa.Column('last_card', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'number')
    )
    with op.batch_alter_table('manche', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_manche_game_id'), ['game_id'], unique=False)

    op.create_table('player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('team', sqlmodel.sql.sqltypes.AutoString(length=90), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'seat')
    )
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_game_id'), ['game_id'], unique=False)

    op.create_table('hand',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('manche_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('cards', sa.Text(), nullable=True),
    sa.Column('typed', sa.Integer(), nullable=True),
    sa.Column('value', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['manche_id'], ['manche.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('manche_id', 'seat')
    )
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_manche_id'), ['manche_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_manche_id'))

    op.drop_table('hand')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_game_id'))

    op.drop_table('player')
    with op.batch_alter_table('manche', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_manche_game_id'))

    op.drop_table('manche')
    with op.batch_alter_table('idempotency', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_idempotency_game_id'))

    op.drop_table('idempotency')
    op.drop_table('game')
