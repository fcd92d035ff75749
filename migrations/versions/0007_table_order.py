"""Issue 28: where each player sits around the table (a newcomer may sit between two players)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 09:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('place', sa.Integer(), nullable=False, server_default='0'))
    # Until now everybody sat in seat order, a newcomer after the last: the place is the seat.
    op.execute('UPDATE player SET place = seat')


def downgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('place')
