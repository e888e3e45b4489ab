"""a campaign can be paused (vacations): when it was, so its timers keep their remaining time

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # a plain DROP COLUMN, not a batch copy: on SQLite the copy drops the old table, and with foreign keys on
    # that deletes every seat, log entry and order of every campaign
    op.drop_column('campaign', 'paused_at')
