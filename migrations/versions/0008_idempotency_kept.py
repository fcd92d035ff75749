"""Issue 27: an idempotency key outlives the manche it recorded. A deletion (or the undo of a
saving) marks the key with the revision that took the manche away instead of deleting the key, and
the undo of that deletion clears the mark; keys are let go after a stated time, found by their
date through a new index.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 02:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('idempotency', schema=None) as batch_op:
        batch_op.add_column(sa.Column('gone_revision', sa.Integer(), nullable=True))
    op.create_index('ix_idempotency_created_at', 'idempotency', ['created_at'])


def downgrade() -> None:
    op.drop_index('ix_idempotency_created_at', table_name='idempotency')
    with op.batch_alter_table('idempotency', schema=None) as batch_op:
        batch_op.drop_column('gone_revision')
