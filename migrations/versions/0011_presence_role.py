"""The phones entering a manche say whose phone they are: the owner's (« L'organisateur ») or a
scorekeeper's (« Un téléphone invité »), for a phone that gave itself no name.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 10:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite has it, with its default): a batch would reflect the tables it
    # refers to, and the game's expression index makes SQLAlchemy warn at every new database.
    op.add_column('presence', sa.Column('owner', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('presence') as batch:
        batch.drop_column('owner')
