"""Timer queries: a campaign's pending timers, the earliest due, and those due now."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import Campaign, Timer

_PENDING = Timer.fired.is_(False)
_CLEAR_ANY = delete(Timer).where(Timer.campaign_id == bindparam("campaign"), _PENDING)
_CLEAR = _CLEAR_ANY.where(Timer.kind != "digest")  # a day's gathered posts outlive the phase (service/digest.py)
_CLEAR_KIND = _CLEAR_ANY.where(Timer.kind == bindparam("kind"))
_OF_KIND = select(Timer).where(Timer.campaign_id == bindparam("campaign"), _PENDING, Timer.kind == bindparam("kind"))
_EARLIEST = select(func.min(Timer.due_at)).where(_PENDING)
_DUE = (select(Timer.id).where(_PENDING, Timer.due_at <= bindparam("now")).order_by(Timer.due_at, Timer.id)
        .limit(bindparam("limit")))
_CAMPAIGN_OF = select(Timer.campaign_id).where(Timer.id == bindparam("id"))
_LOCKED = select(Timer).where(Timer.id == bindparam("id")).with_for_update()
# a campaign another process (or a command) holds is skipped, not waited for: its timer is tried again shortly
_CLAIM_CAMPAIGN = select(Campaign).where(Campaign.id == bindparam("id")).with_for_update(skip_locked=True)


async def clear(session: AsyncSession, campaign_id: int, kind: str | None = None) -> None:
    """Drop the campaign's pending timers of its phase (of one kind, if given); fired ones stay as history."""
    if kind is None:
        await session.execute(_CLEAR, {"campaign": campaign_id})
    else:
        await session.execute(_CLEAR_KIND, {"campaign": campaign_id, "kind": kind})


async def pending(session: AsyncSession, campaign_id: int, kind: str) -> list[Timer]:
    return list(await session.scalars(_OF_KIND, {"campaign": campaign_id, "kind": kind}))


async def earliest(session: AsyncSession) -> datetime | None:
    return await session.scalar(_EARLIEST)


async def due(session: AsyncSession, now: datetime, limit: int) -> list[int]:
    """The ids of the earliest `limit` timers due by `now`."""
    return list(await session.scalars(_DUE, {"now": now, "limit": limit}))


async def campaign_of(session: AsyncSession, timer_id: int) -> int | None:
    """The timer's campaign, read without a lock (to take the campaign's lock first)."""
    return await session.scalar(_CAMPAIGN_OF, {"id": timer_id})


async def claim_campaign(session: AsyncSession, campaign_id: int) -> Campaign | None:
    """The campaign under its row lock, or None if another transaction holds it (PostgreSQL: SKIP LOCKED; SQLite
    has one writer at a time, so nothing else holds it)."""
    return await session.scalar(_CLAIM_CAMPAIGN, {"id": campaign_id})


async def locked(session: AsyncSession, timer_id: int) -> Timer | None:
    return await session.scalar(_LOCKED, {"id": timer_id})
