"""One owner per group, said by the database: a unique index on the group of its live owner
(``group_member (group_id) WHERE owner AND removed_at IS NULL``). A group that hand-overs sent at
once left with several owners keeps the one of them who joined first (the others stay members).

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29 08:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None

LIVE_OWNER = "owner AND removed_at IS NULL"


def upgrade() -> None:
    op.execute(
        "UPDATE group_member SET owner = false WHERE owner AND removed_at IS NULL AND EXISTS ("
        " SELECT 1 FROM group_member AS other WHERE other.group_id = group_member.group_id"
        " AND other.owner AND other.removed_at IS NULL AND (other.joined_at < group_member.joined_at"
        " OR (other.joined_at = group_member.joined_at AND other.id < group_member.id)))"
    )
    op.create_index(
        'ix_group_member_one_owner', 'group_member', ['group_id'], unique=True,
        sqlite_where=sa.text(LIVE_OWNER), postgresql_where=sa.text(LIVE_OWNER),
    )


def downgrade() -> None:
    op.drop_index('ix_group_member_one_owner', table_name='group_member')
