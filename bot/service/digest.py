"""The daily digest (`/gm settings digest daily`): for chatty rulesets, the phase posts of a day are gathered
and the campaign thread gets them as one post at the next midnight in the campaign's `time_zone`, with the latest
map. Turning the digest off (or ending the campaign) publishes what was gathered at once.

The gathered posts wait in one timer row (kind `digest`), written in the transaction of each phase, so the
digest is as exactly-once as the outbox it is finally written to. Pings never wait: a seat whose turn it is
is told at once."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import cards, record, timers
from bot.service.campaign_settings import CampaignSettings
from bot.service.context import Services
from bot.service.record import wake_after_commit
from bot.store import timers as timer_rows
from bot.store.models import Campaign, Timer

KIND = "digest"


def next_midnight(now: datetime, zone: ZoneInfo) -> datetime:
    """The end of `now`'s day in `zone` (the next local midnight), in `now`'s own time zone."""
    local = now.astimezone(zone)
    return datetime.combine(local.date() + timedelta(days=1), time(0), tzinfo=zone).astimezone(now.tzinfo)


def day_of(now: datetime, zone: ZoneInfo) -> str:
    """The local date a digest gathered on `now` is named for."""
    return f"{now.astimezone(zone):%Y-%m-%d}"


async def gather(session: AsyncSession, services: Services, campaign: Campaign, post: dict[str, Any]) -> None:
    """Keep a phase post (its cards, map and buttons) for today's digest."""
    pending = await timer_rows.pending(session, campaign.id, KIND)
    if pending:
        timer = pending[0]
        kept = timer.payload.get("posts", [])
        if post.get("render"):  # only the latest map is shown: earlier states need not be kept
            kept = [{**p, "render": None} for p in kept]
        timer.payload = {**timer.payload, "posts": [*kept, post]}
        return
    now, zone = services.clock.now(), CampaignSettings.load(campaign.settings).zone()
    session.add(Timer(campaign_id=campaign.id, kind=KIND, phase_key="", due_at=next_midnight(now, zone),
                      payload={"posts": [post], "day": day_of(now, zone)}))
    wake_after_commit(session, services.timers_changed)


def publish(session: AsyncSession, services: Services, campaign: Campaign, timer: Timer) -> None:
    """The day's posts as one: every card (only the last keeps its map, the latest), the last buttons."""
    posts: list[dict[str, Any]] = timer.payload.get("posts", [])
    if not posts:
        return
    embeds: list[dict[str, Any]] = []
    for post in posts:
        for embed in post.get("embeds", []):
            embeds.append({k: v for k, v in embed.items() if k != "image"})
    render = next((p["render"] for p in reversed(posts) if p.get("render")), None)
    if render is not None:
        embeds[-1]["image"] = {"url": f"attachment://{render['name']}"}
    day = timer.payload.get("day") or f"{timer.due_at - timedelta(days=1):%Y-%m-%d}"  # rows from before "day"
    head = cards.Card(title=f"{campaign.name} — the day's news, {day}", colour=cards.HERALD,
                      description=f"{len(posts)} phase(s) resolved.").dump()
    buttons = next((p["buttons"] for p in reversed(posts) if p.get("buttons")), None)
    record.post(session, campaign, services, "thread", "", embeds=[head, *embeds], render=render,
                components={"buttons": buttons} if buttons else None)


async def flush(session: AsyncSession, services: Services, campaign: Campaign) -> None:
    """Publish what was gathered now (the campaign ended, or the digest was turned off)."""
    for timer in await timer_rows.pending(session, campaign.id, KIND):
        timer.fired = True
        publish(session, services, campaign, timer)


async def retime(session: AsyncSession, services: Services, campaign: Campaign) -> None:
    """The campaign's time zone changed: the day being gathered ends at the next midnight of the new zone."""
    zone = CampaignSettings.load(campaign.settings).zone()
    now = services.clock.now()
    due = next_midnight(now, zone)
    for timer in await timer_rows.pending(session, campaign.id, KIND):
        if timer.due_at >= timers.PARKED:  # paused: it keeps the time to the new midnight for the resume
            timer.payload = {**timer.payload, "left": int((due - now).total_seconds())}
        else:
            timer.due_at = due
        wake_after_commit(session, services.timers_changed)
