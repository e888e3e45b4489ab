"""when each IDENTIFY bucket was last used, so a process restarted within Discord's 5 s window waits it out

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('identify_bucket',
    sa.Column('bucket', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('sent_ms', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('bucket', name=op.f('pk_identify_bucket'))
    )


def downgrade() -> None:
    op.drop_table('identify_bucket')
