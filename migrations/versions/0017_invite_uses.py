"""A join link knows the phones it let in: each member keeps the invite it joined through (a link
used by a phone the owner removed opens no more), and an invite may be limited to a number of
phones (``max_uses``; none: as many as open it until it is revoked).

Added and dropped in place (SQLite's own ALTER TABLE … ADD/DROP COLUMN, no rebuild of the tables).

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29 08:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('group_member', sa.Column('invite_id', sa.String(length=32), nullable=True))
    op.create_index('ix_group_member_invite_id', 'group_member', ['invite_id'])
    op.add_column('group_invite', sa.Column('max_uses', sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column('group_invite', 'max_uses')
    op.drop_index('ix_group_member_invite_id', 'group_member')
    op.drop_column('group_member', 'invite_id')
