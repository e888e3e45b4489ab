"""Timer queries: a campaign's pending timers, the earliest due, and those due now."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, bindparam, delete, func, literal_column, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import Campaign, Timer

Shards = tuple[int, Collection[int]]  # (shard count, the shards this process owns)
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


async def earliest(session: AsyncSession, shards: Shards | None = None,
                   others_after: timedelta = timedelta(0)) -> datetime | None:
    """When the next timer falls due; with `shards`, another process's counted `others_after` later."""
    if shards is None:
        return await session.scalar(_EARLIEST)
    owned = _owned(shards)
    base = select(func.min(Timer.due_at)).join(Campaign, Campaign.id == Timer.campaign_id).where(_PENDING)
    mine = await session.scalar(base.where(owned))
    theirs = await session.scalar(base.where(~owned))
    times = [t for t in (mine, theirs + others_after if theirs is not None else None) if t is not None]
    return min(times, default=None)


def _owned(shards: Shards) -> ColumnElement[bool]:
    """The timer's campaign is in a guild of these shards (Discord's rule: (guild_id >> 22) % shard_count)."""
    count, ids = shards
    return (Campaign.guild_id.op(">>")(literal_column("22")) % count).in_(list(ids))  # PostgreSQL: bigint >> int


async def due(session: AsyncSession, now: datetime, limit: int, shards: Shards | None = None,
              others_after: timedelta = timedelta(0)) -> list[int]:
    """The ids of the earliest `limit` timers due by `now`; with `shards`, another process's only once they have
    been due for `others_after` (their process is dead, or behind)."""
    if shards is None:
        return list(await session.scalars(_DUE, {"now": now, "limit": limit}))
    return list(await session.scalars(
        select(Timer.id).join(Campaign, Campaign.id == Timer.campaign_id)
        .where(_PENDING, Timer.due_at <= now, or_(_owned(shards), Timer.due_at <= now - others_after))
        .order_by(Timer.due_at, Timer.id).limit(limit)))


async def campaign_of(session: AsyncSession, timer_id: int) -> int | None:
    """The timer's campaign, read without a lock (to take the campaign's lock first)."""
    return await session.scalar(_CAMPAIGN_OF, {"id": timer_id})


async def claim_campaign(session: AsyncSession, campaign_id: int) -> Campaign | None:
    """The campaign under its row lock, or None if another transaction holds it (PostgreSQL: SKIP LOCKED; SQLite
    has one writer at a time, so nothing else holds it)."""
    return await session.scalar(_CLAIM_CAMPAIGN, {"id": campaign_id})


async def locked(session: AsyncSession, timer_id: int) -> Timer | None:
    return await session.scalar(_LOCKED, {"id": timer_id})
