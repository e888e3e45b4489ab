"""Firing due timers: reminders, deadlines, all-in auto-advance, turn timers and automatic players."""

from __future__ import annotations

import logging

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import record, timers
from bot.service.campaign_settings import CampaignSettings
from bot.service.context import Services
from bot.service.gm import advance_campaign, play_for
from bot.service.steps import Actor
from bot.store.models import Campaign, OrderSet, Timer
from engine.core import Window

log = logging.getLogger(__name__)
MAX_FIRINGS = 5000  # a whole game of automatic players is one firing per action


async def run_due(services: Services) -> int:
    """Fire every timer that is due, including those that firing makes due; returns how many fired."""
    fired = 0
    while fired < MAX_FIRINGS:
        async with services.db.read() as session:
            due = [t.id for t in await timers.due(session, services.clock.now())]
        if not due:
            break
        for timer_id in due:
            await fire(services, timer_id)
            fired += 1
    return fired


async def fire(services: Services, timer_id: int) -> None:
    try:
        async with services.db.write() as session:
            # locked: with several processes on one PostgreSQL, the second to reach a timer sees it fired
            timer = await session.get(Timer, timer_id, with_for_update=True)
            if timer is None or timer.fired:
                return
            timer.fired = True
            campaign = await session.get(Campaign, timer.campaign_id, with_for_update=True)
            if campaign is None or campaign.status != "running" or timer.phase_key != campaign.phase_key:
                return
            await _handle(session, services, campaign, timer)
    except Exception as exc:  # a failing timer must not fire forever nor stop the others
        log.exception("timer %s failed", timer_id)
        async with services.db.write() as session:
            timer = await session.get(Timer, timer_id)
            if timer is not None:
                timer.fired = True
                campaign = await session.get(Campaign, timer.campaign_id)
                if campaign is not None:
                    record.post(session, campaign, services, "gm",
                                f"⚠️ The {timer.kind} timer could not run: {exc}. Please act by hand.")


async def _handle(session: AsyncSession, services: Services, campaign: Campaign, timer: Timer) -> None:
    settings = CampaignSettings.load(campaign.settings)
    ruleset = record.ruleset_of(campaign)
    state = record.state_of(campaign, ruleset)
    phase = ruleset.phase(state)
    if timer.kind == "reminder":
        if phase.window is not Window.ORDERS:
            return
        done = set(await session.scalars(select(OrderSet.seat).where(
            OrderSet.campaign_id == campaign.id, OrderSet.phase_key == phase.key, OrderSet.status == "open")))
        late = [s for s in await record.seats_of(session, campaign.id)
                if s.name in phase.waiting and s.name not in done and s.user_id and not s.automatic]
        if late and campaign.deadline:
            ts = int(campaign.deadline.timestamp())
            who = " ".join(f"<@{s.user_id}>" for s in late)
            record.post(session, campaign, services, "thread",
                        f"⏰ {who}: orders for **{phase.label}** are due <t:{ts}:R> (<t:{ts}:F>).",
                        mentions=[s.user_id for s in late if s.user_id])
    elif timer.kind == "deadline":
        if settings.auto_advance in ("deadline", "both"):
            record.post(session, campaign, services, "thread", f"⏰ The deadline for **{phase.label}** has passed.")
            await advance_campaign(session, services, campaign, Actor.system())
        else:
            campaign.deadline = None
            record.post(session, campaign, services, "thread",
                        f"⏰ The deadline for **{phase.label}** has passed; the GM will advance.")
            record.post(session, campaign, services, "gm",
                        f"⏰ The deadline for **{phase.label}** has passed: `/gm advance` when ready.")
    elif timer.kind == "all-in":
        if settings.auto_advance in ("all-in", "both") and phase.window is Window.ORDERS:
            await advance_campaign(session, services, campaign, Actor.system())
    elif timer.kind == "turn":
        seat_name = str(timer.payload.get("seat"))
        if phase.window is not Window.TURN or seat_name not in phase.waiting:
            return
        seat = await record.seat_named(session, campaign, seat_name)
        if seat.automatic:
            action = ruleset.autoplay(state, seat_name, await record.act_dice(session, campaign, "auto"))
            if action is None:
                raise RuntimeError(f"the automatic player for {seat_name} found no action")
            await play_for(session, services, campaign, ruleset, seat_name, action, Actor.system(), kind="automatic")
        else:
            action = ruleset.timeout_action(state, seat_name)
            if action is None:
                return
            record.post(session, campaign, services, "thread",
                        f"⌛ **{seat_name}** ran out of time; Herald plays `{action}` for them.")
            await play_for(session, services, campaign, ruleset, seat_name, action, Actor.system(), kind="timeout")
            after = ruleset.phase(record.state_of(campaign, ruleset))
            if after.key == timer.phase_key and seat_name in after.waiting:
                await timers.set_turn_timer(session, services, campaign, seat_name, services.clock.now())
