"""A campaign's states turn by turn, read from its snapshots: what the charts draw."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import Snapshot

MAX_TURNS = 200   # a chart of more turns is not read at a glance; the latest are drawn


async def states_by_turn(session: AsyncSession, campaign_id: int) -> list[tuple[int, dict[str, Any]]]:
    """Each recorded turn's last snapshot still in force (rolled back ones are not), oldest turn first."""
    last = (select(func.max(Snapshot.id).label("id"))     # ids grow with time: the turn's latest snapshot
            .where(Snapshot.campaign_id == campaign_id, Snapshot.undone.is_(False))
            .group_by(Snapshot.turn).subquery())
    rows = await session.execute(
        select(Snapshot.turn, Snapshot.state).where(Snapshot.id.in_(select(last.c.id)))
        .order_by(Snapshot.turn.desc()).limit(MAX_TURNS))
    return sorted(((turn, state) for turn, state in rows.all()), key=lambda row: row[0])
