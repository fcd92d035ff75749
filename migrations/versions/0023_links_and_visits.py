"""A join link may open only until a moment (``group_invite.expires_at``, the end of the day its
owner chose), and a group's member keeps the day it last opened the group's page
(``group_member.seen_at``), shown to the owner beside its name.

Added and dropped in place (SQLite's own ALTER TABLE … ADD/DROP COLUMN, no rebuild).

Revision ID: 0023
Revises: 0021
Create Date: 2026-11-29 15:00:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0023'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('group_invite', sa.Column('expires_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    op.add_column('group_member', sa.Column('seen_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    op.drop_column('group_member', 'seen_at')
    op.drop_column('group_invite', 'expires_at')
