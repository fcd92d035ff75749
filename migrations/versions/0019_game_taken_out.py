"""A game taken out of its group keeps the group it was taken from (``game.taken_from``), so that
the notice that follows can put it back, and only there (an undo), while nothing else has moved it.

Added and dropped in place (SQLite's own ALTER TABLE … ADD/DROP COLUMN, no rebuild of the table:
the rebuild would drop migration 0015's triggers on ``game``).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29 11:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('game', sa.Column('taken_from', sa.String(length=32), nullable=True))


def downgrade() -> None:
    op.drop_column('game', 'taken_from')
