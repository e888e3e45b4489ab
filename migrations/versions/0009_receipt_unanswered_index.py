"""receipts indexed the way every command reads them: a user's unanswered receipts of one command

The index it replaces began (user_id, campaign_id, …) while the read before every command names no campaign, so
that read went through every receipt the user made in the last day: the more a player did, the dearer each
command.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27

"""
from typing import Sequence, Union

from alembic import op


revision: str = '0009'
down_revision: Union[str, Sequence[str], None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # CREATE and DROP INDEX need no table rebuild, even on SQLite
    op.create_index('ix_receipt_unanswered', 'receipt', ['user_id', 'command', 'answered', 'at'], unique=False)
    op.drop_index('ix_receipt_user_command', table_name='receipt')


def downgrade() -> None:
    op.create_index('ix_receipt_user_command', 'receipt', ['user_id', 'campaign_id', 'command', 'at'],
                    unique=False)
    op.drop_index('ix_receipt_unanswered', table_name='receipt')
