"""A club night's byes, its players who left, and how it is ranked: a row of `night_bye` for each
player present who sits out a turn, a row of `night_gone` for each player the organiser marked as
gone (deleted when they come back), and two columns of `club_night`: `ranked_by` (by total, or per
table played) and `revision`, the count of the night's own changes its streams look at.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29 14:30:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        'club_night',
        sa.Column('ranked_by', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False, server_default='total'),
    )
    op.add_column('club_night', sa.Column('revision', sa.Integer(), nullable=False, server_default='0'))
    op.create_table(
        'night_bye',
        sa.Column('night_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.ForeignKeyConstraint(['night_id'], ['club_night.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('night_id', 'round', 'name'),
    )
    op.create_table(
        'night_gone',
        sa.Column('night_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('person', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['night_id'], ['club_night.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('night_id', 'person'),
    )


def downgrade() -> None:
    op.drop_table('night_gone')
    op.drop_table('night_bye')
    op.drop_column('club_night', 'revision')
    op.drop_column('club_night', 'ranked_by')
