"""an index of the log by kind: /history finds the rollbacks after a turn without reading half the log

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25

"""
from typing import Sequence, Union

from alembic import op


revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # CREATE INDEX needs no table rebuild, even on SQLite
    op.create_index('ix_log_entry_campaign_kind', 'log_entry', ['campaign_id', 'kind', 'seq'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_log_entry_campaign_kind', table_name='log_entry')
