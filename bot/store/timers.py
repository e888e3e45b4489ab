"""Timer queries: a campaign's pending timers, the earliest due, and those due now."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import Timer

_PENDING = Timer.fired.is_(False)
_CLEAR_ANY = delete(Timer).where(Timer.campaign_id == bindparam("campaign"), _PENDING)
_CLEAR = _CLEAR_ANY.where(Timer.kind != "digest")  # a day's gathered posts outlive the phase (service/digest.py)
_CLEAR_KIND = _CLEAR_ANY.where(Timer.kind == bindparam("kind"))
_OF_KIND = select(Timer).where(Timer.campaign_id == bindparam("campaign"), _PENDING, Timer.kind == bindparam("kind"))
_EARLIEST = select(func.min(Timer.due_at)).where(_PENDING)
_DUE = select(Timer).where(_PENDING, Timer.due_at <= bindparam("now")).order_by(Timer.due_at, Timer.id)
_CAMPAIGN_OF = select(Timer.campaign_id).where(Timer.id == bindparam("id"))
_LOCKED = select(Timer).where(Timer.id == bindparam("id")).with_for_update()


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


async def due(session: AsyncSession, now: datetime) -> list[Timer]:
    return list(await session.scalars(_DUE, {"now": now}))


async def campaign_of(session: AsyncSession, timer_id: int) -> int | None:
    """The timer's campaign, read without a lock (to take the campaign's lock first)."""
    return await session.scalar(_CAMPAIGN_OF, {"id": timer_id})


async def locked(session: AsyncSession, timer_id: int) -> Timer | None:
    return await session.scalar(_LOCKED, {"id": timer_id})
