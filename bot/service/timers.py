"""Due times: deadlines, reminders before them, and turn timers. Firing lives in deadlines.py.

Every caller holds its campaign's row lock first (`find_campaign(for_update=True)`), then touches its
timers: the one lock order `deadlines.fire` follows too, so PostgreSQL never deadlocks on them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service.campaign_settings import CampaignSettings
from bot.service.context import Services
from bot.service.record import wake_after_commit
from bot.store import timers as timer_rows
from bot.store.models import Campaign, Timer
from bot.store.timers import Shards

PARKED = datetime(9000, 1, 1, tzinfo=UTC)  # a paused campaign's timers wait here, their time left in the payload


def _add(session: AsyncSession, services: Services, campaign: Campaign, timer: Timer) -> None:
    """Queue a timer; a paused campaign's is parked at once with its time left."""
    if campaign.paused_at is not None:
        park(timer, services.clock.now())
    session.add(timer)


def park(timer: Timer, now: datetime) -> None:
    """Hold a timer: it keeps the time it had left and falls due only when unparked."""
    left = max(0, int((timer.due_at - now).total_seconds()))
    timer.payload = {**(timer.payload or {}), "left": left}
    timer.due_at = PARKED


def unpark(timer: Timer, now: datetime) -> None:
    """Let a parked timer run again, with the time it had left when parked."""
    payload = dict(timer.payload or {})
    left = int(payload.pop("left", 0))
    timer.payload = payload
    timer.due_at = now + timedelta(seconds=left)


async def pending(session: AsyncSession, campaign: Campaign) -> list[Timer]:
    """The campaign's timers still to fire, of every kind."""
    return list(await session.scalars(select(Timer).where(Timer.campaign_id == campaign.id, Timer.fired.is_(False))))


async def clear(session: AsyncSession, campaign: Campaign) -> None:
    await timer_rows.clear(session, campaign.id)
    campaign.deadline = None


async def set_deadline(session: AsyncSession, services: Services, campaign: Campaign, due: datetime) -> None:
    """A deadline for the current phase, with its reminders; replaces any earlier one."""
    await clear(session, campaign)
    campaign.deadline = due
    key = campaign.phase_key or ""
    _add(session, services, campaign, Timer(campaign_id=campaign.id, kind="deadline", phase_key=key, due_at=due,
                                            payload={}))
    now = services.clock.now()
    for span in CampaignSettings.load(campaign.settings).reminder_spans():
        if due - span > now:
            _add(session, services, campaign, Timer(campaign_id=campaign.id, kind="reminder", phase_key=key,
                                                    due_at=due - span, payload={"before": int(span.total_seconds())}))
    wake_after_commit(session, services.timers_changed)


async def set_turn_timer(session: AsyncSession, services: Services, campaign: Campaign, seat: str,
                         due: datetime) -> None:
    _add(session, services, campaign, Timer(campaign_id=campaign.id, kind="turn", phase_key=campaign.phase_key or "",
                                            due_at=due, payload={"seat": seat}))
    wake_after_commit(session, services.timers_changed)


async def pending_turn(session: AsyncSession, campaign: Campaign, seat: str) -> bool:
    return any(t.payload.get("seat") == seat for t in await timer_rows.pending(session, campaign.id, "turn"))


# another process's timers wait this long for it before this one fires them (it died, or has a crowd to fire)
OTHERS_AFTER = timedelta(seconds=5)


async def earliest(session: AsyncSession, shards: Shards | None = None) -> datetime | None:
    return await timer_rows.earliest(session, shards, OTHERS_AFTER)


async def due(session: AsyncSession, now: datetime, limit: int, shards: Shards | None = None) -> list[int]:
    """Due timers: with `shards`, this process's guilds' first, another's once it has had OTHERS_AFTER."""
    return await timer_rows.due(session, now, limit, shards, OTHERS_AFTER)


async def clear_kind(session: AsyncSession, campaign: Campaign, kind: str) -> None:
    await timer_rows.clear(session, campaign.id, kind)
