"""House rules: house variants, and the rules a game was played with

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 03:00:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('house_variant',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('document_json', sa.Text(), nullable=False),
    sa.Column('edit_token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rules_json', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('rules_json')

    op.drop_table('house_variant')
