"""indexes for the hot lookups: a campaign by channel or thread, a seat by user or thread, history by turn

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25

"""
from typing import Sequence, Union

from alembic import op


revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# (table, index name, columns): names follow the models' naming convention (ix_%(column_0_label)s)
INDEXES = (
    ('campaign', 'ix_campaign_channel_id', ['channel_id']),
    ('campaign', 'ix_campaign_thread_id', ['thread_id']),
    ('campaign', 'ix_campaign_gm_thread_id', ['gm_thread_id']),
    ('seat', 'ix_seat_user_id', ['user_id']),
    ('seat', 'ix_seat_thread_id', ['thread_id']),
    ('log_entry', 'ix_log_entry_campaign_turn', ['campaign_id', 'turn']),
)


def upgrade() -> None:
    # CREATE INDEX needs no table rebuild, even on SQLite, so plain op.create_index is enough
    for table, name, columns in INDEXES:
        op.create_index(name, table, columns, unique=False)


def downgrade() -> None:
    for table, name, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
