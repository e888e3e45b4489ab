"""confirmations for what cannot be undone, the player's undo point, per-player turn notices

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('confirmation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=32), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('command', sa.String(length=40), nullable=False),
    sa.Column('args', sa.JSON(), nullable=False),
    sa.Column('asked_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('outcome', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], name=op.f('fk_confirmation_campaign_id_campaign'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_confirmation')),
    sa.UniqueConstraint('token', name=op.f('uq_confirmation_token'))
    )
    with op.batch_alter_table('confirmation', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_confirmation_campaign_id'), ['campaign_id'], unique=False)
    op.create_table('undo_point',
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.String(length=40), nullable=False),
    sa.Column('log_seq', sa.Integer(), nullable=False),
    sa.Column('phase_key', sa.String(length=80), nullable=False),
    sa.Column('action', sa.Text(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], name=op.f('fk_undo_point_campaign_id_campaign'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('campaign_id', name=op.f('pk_undo_point'))
    )
    op.create_table('turn_notice',
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('how', sa.String(length=8), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], name=op.f('fk_turn_notice_campaign_id_campaign'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('campaign_id', 'user_id', name=op.f('pk_turn_notice'))
    )


def downgrade() -> None:
    op.drop_table('turn_notice')
    op.drop_table('undo_point')
    with op.batch_alter_table('confirmation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_confirmation_campaign_id'))
    op.drop_table('confirmation')
