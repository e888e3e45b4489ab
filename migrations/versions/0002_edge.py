"""the Discord edge: outbox claims and parts, threads recorded as they open, command receipts

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0002'
down_revision: Union[str, Sequence[str], None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('thread_opening_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('gm_thread_opening_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('thread_opening_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claimed_by', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('sent_parts', sa.JSON(), nullable=False, server_default='[]'))
        batch_op.add_column(sa.Column('sending_since', sa.DateTime(timezone=True), nullable=True))
    op.create_table('receipt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('interaction_id', sa.BigInteger(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=True),
    sa.Column('command', sa.String(length=100), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('outcome', sa.Text(), nullable=False),
    sa.Column('answered', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], name=op.f('fk_receipt_campaign_id_campaign'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_receipt')),
    sa.UniqueConstraint('interaction_id', name=op.f('uq_receipt_interaction_id'))
    )
    with op.batch_alter_table('receipt', schema=None) as batch_op:
        batch_op.create_index('ix_receipt_user_command', ['user_id', 'campaign_id', 'command', 'at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('receipt', schema=None) as batch_op:
        batch_op.drop_index('ix_receipt_user_command')
    op.drop_table('receipt')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('sending_since')
        batch_op.drop_column('sent_parts')
        batch_op.drop_column('claimed_until')
        batch_op.drop_column('claimed_by')
    # plain DROP COLUMNs, not batch copies: on SQLite a copy of `seat` or `campaign` drops the old table, and with
    # foreign keys on that deletes every row referring to it (a campaign's seats, log, orders…)
    op.drop_column('seat', 'thread_opening_at')
    op.drop_column('campaign', 'gm_thread_opening_at')
    op.drop_column('campaign', 'thread_opening_at')
