"""Groups (issue 42): people who play together (« une tablée »), the phones that are members, and
the group a game was played in.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 10:00:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'play_group',
        sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column('watch_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('watch_id'),
    )
    op.create_table(
        'group_member',
        sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('group_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
        sa.Column('owner', sa.Boolean(), nullable=False),
        sa.Column('joined_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('removed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(['group_id'], ['play_group.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token_hash'),
    )
    op.create_index('ix_group_member_group_id', 'group_member', ['group_id'], unique=False)
    op.create_table(
        'group_invite',
        sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('group_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('revoked_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(['group_id'], ['play_group.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token_hash'),
    )
    op.create_index('ix_group_invite_group_id', 'group_invite', ['group_id'], unique=False)
    # A plain ADD COLUMN (SQLite has it): a batch would reflect the table, whose expression index
    # (ix_game_listed) SQLAlchemy cannot read, and warn at every start on a new database.
    op.add_column('game', sa.Column('group_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))
    op.create_index('ix_game_group_id', 'game', ['group_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_game_group_id', table_name='game')
    # A plain DROP COLUMN (SQLite has it since 3.35), as the upgrade's ADD COLUMN: a batch would
    # rebuild the game table, losing its expression index.
    op.drop_column('game', 'group_id')
    op.drop_index('ix_group_invite_group_id', table_name='group_invite')
    op.drop_table('group_invite')
    op.drop_index('ix_group_member_group_id', table_name='group_member')
    op.drop_table('group_member')
    op.drop_table('play_group')
