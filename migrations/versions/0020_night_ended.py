"""A club night can be ended (« Terminer la soirée »): the moment it was, or nothing while it goes
on. An ended night starts no turn; its page shows the podium and its result sheet.

Added and dropped in place (SQLite's own ALTER TABLE … ADD/DROP COLUMN, no rebuild).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29 11:30:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('club_night', sa.Column('ended_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    op.drop_column('club_night', 'ended_at')
