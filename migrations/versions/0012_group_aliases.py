"""Groups (issue 42): two spellings of one person merged by the group's owner (undone by deleting
the row; the games keep their names).

Named 0012 and revising 0010: another branch may add 0011 (an open-entry table); whichever merges
second sets its down_revision to the other.

Revision ID: 0012
Revises: 0010
Create Date: 2026-12-01 10:00:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0012'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'group_alias',
        sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('group_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('person', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('counted_as', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['play_group.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_id', 'person'),
    )


def downgrade() -> None:
    op.drop_table('group_alias')
