"""A manche keeps the name of the phone that saved it: a second phone saving the same manche is
told whose phone did (« Manche 9 enregistrée par le téléphone d'Ana »).

Added and dropped in place (SQLite's own ALTER TABLE … ADD/DROP COLUMN, no rebuild of the table:
a rebuild with foreign keys on would take every hand of the game with it).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29 04:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('manche', sa.Column('saved_by', sa.String(length=40), nullable=True))


def downgrade() -> None:
    op.drop_column('manche', 'saved_by')
