""""since you last looked": each seat's mark, the campaign's latest news, a mark for those not seated

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0007'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('news_seq', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('seat', schema=None) as batch_op:
        # a seat of a campaign already running has seen everything so far: no backlog on the first command
        batch_op.add_column(sa.Column('looked_seq', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('looked_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('catchup_auto', sa.Boolean(), nullable=False, server_default=sa.true()))
    op.execute("UPDATE seat SET looked_seq = (SELECT campaign.log_seq FROM campaign "
               "WHERE campaign.id = seat.campaign_id)")
    op.create_table('look_mark',
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], name=op.f('fk_look_mark_campaign_id_campaign'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('campaign_id', 'user_id', name=op.f('pk_look_mark'))
    )


def downgrade() -> None:
    op.drop_table('look_mark')
    # plain DROP COLUMN (SQLite 3.35+ has it), not a batch copy: on SQLite a batch copy drops the old table, and
    # with foreign keys on that deletes every row referring to it (a campaign's seats, log, orders…)
    for table, column in (('seat', 'catchup_auto'), ('seat', 'looked_at'), ('seat', 'looked_seq'),
                          ('campaign', 'news_seq')):
        op.drop_column(table, column)
