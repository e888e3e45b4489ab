"""Firing due timers: reminders, deadlines, all-in auto-advance, turn timers and automatic players."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import digest, record, timers
from bot.service.campaign_settings import CampaignSettings
from bot.service.context import Services
from bot.service.errors import ServiceError
from bot.service.gm import advance_campaign, automatic_orders, play_for
from bot.service.record import wake_after_commit
from bot.service.steps import Actor
from bot.store import campaigns as campaign_rows
from bot.store import orders as order_rows
from bot.store import timers as timer_rows
from bot.store.models import Campaign, CampaignStatus, Timer
from bot.store.timers import Shards
from engine.core import Window

log = logging.getLogger(__name__)
MAX_FIRINGS = 5000  # a whole game of automatic players is one firing per action
BATCH = 200  # due timers read at a time
BUSY_PAUSE = 0.5  # seconds before looking again at a due timer whose campaign another transaction held
# A timer whose handler fails is tried again after these pauses, then given up with a note to the GM.
RETRY_AFTER = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(hours=1))


async def run_due(services: Services, shards: Shards | None = None) -> int:
    """Fire every timer that is due, including those that firing makes due; returns how many fired.

    A timer that fails is rescheduled (see `_retry_later`), so it never blocks the ones behind it. A timer whose
    campaign another process is firing (or a command is changing) is left for now: `busy` tells the loop to look
    again shortly, and several processes share a crowd of due timers instead of queueing on each one in turn.
    With `shards` (count, ids), the timers of this process's guilds come first; another process's wait
    `timers.OTHERS_AFTER` for it, so processes seldom reach for the same campaign."""
    fired = 0
    stuck: set[int] = set()  # failed and could not even be rescheduled: leave them to the loop's backoff
    busy: set[int] = set()
    while fired < MAX_FIRINGS:
        async with services.db.read() as session:
            due = [t for t in await timers.due(session, services.clock.now(), BATCH + len(stuck) + len(busy), shards)
                   if t not in stuck and t not in busy]
        if not due:
            break
        for timer_id in due:
            outcome = await _fire(services, timer_id, skip_busy=True)
            if outcome == "busy":
                busy.add(timer_id)
                continue
            if outcome == "stuck":
                stuck.add(timer_id)
            fired += 1
    if stuck:
        raise TimerStuck(f"timers {sorted(stuck)} failed and could not be rescheduled")
    return fired


class TimerStuck(Exception):
    """Some timers failed and even rescheduling them failed (the database is likely away)."""


async def fire(services: Services, timer_id: int) -> bool:
    """Fire one timer, waiting for its campaign if a command holds it; False only if it failed and could not be
    rescheduled."""
    return await _fire(services, timer_id, skip_busy=False) != "stuck"


async def _fire(services: Services, timer_id: int, *, skip_busy: bool) -> Literal["done", "busy", "stuck"]:
    """Fire one timer: "done" (fired, or nothing left to do), "busy" (`skip_busy` and its campaign is held by
    another transaction: nothing done), or "stuck" (it failed and could not be rescheduled).

    Locks in the one order every command uses: the campaign row first, then its timers. The timer is read
    unlocked only to learn its campaign, then re-read under the campaign's lock. The claim is the transaction
    itself: a process that dies mid-fire has fired nothing (its connection's transaction rolls back), and
    PostgreSQL ends one left idle by a vanished machine (see store/db.py), so another process fires it, once."""
    try:
        async with services.db.write() as session:
            campaign_id = await timer_rows.campaign_of(session, timer_id)
            if campaign_id is None:
                return "done"
            if skip_busy:
                campaign = await timer_rows.claim_campaign(session, campaign_id)
                if campaign is None:
                    return "busy"
            else:
                campaign = await campaign_rows.locked(session, campaign_id)
            # with several processes on one PostgreSQL, the second to reach a timer sees it fired or gone
            timer = await timer_rows.locked(session, timer_id)
            if timer is None or timer.fired or timer.due_at > services.clock.now():
                return "done"
            if campaign is not None and campaign.paused_at is not None:  # came due as the GM paused: it waits
                timers.park(timer, timer.due_at)
                return "done"
            timer.fired = True
            if campaign is not None and timer.kind == digest.KIND:  # spans phases; published even after the end
                digest.publish(session, services, campaign, timer)
                return "done"
            if campaign is None or campaign.status != CampaignStatus.RUNNING or timer.phase_key != campaign.phase_key:
                return "done"
            await _handle(session, services, campaign, timer)
    except Exception as exc:  # a failing timer must not fire forever nor stop the others
        if isinstance(exc, ServiceError):
            log.warning("timer %s refused: %s", timer_id, exc)
        else:
            log.exception("timer %s failed", timer_id)
        try:
            await _retry_later(services, timer_id, exc)
        except Exception:
            log.exception("timer %s could not be rescheduled", timer_id)
            return "stuck"
    return "done"


async def _retry_later(services: Services, timer_id: int, exc: Exception) -> None:
    """Try a failed timer again after a growing pause; after the last try, tell the GM and stop."""
    async with services.db.write() as session:
        campaign_id = await timer_rows.campaign_of(session, timer_id)
        if campaign_id is None:
            return
        campaign = await campaign_rows.locked(session, campaign_id)
        timer = await timer_rows.locked(session, timer_id)
        if timer is None or timer.fired:
            return
        attempts = int(timer.payload.get("attempts", 0)) + 1
        reason = (str(exc) if isinstance(exc, ServiceError) else f"{type(exc).__name__}: {exc}")[:300]
        if attempts <= len(RETRY_AFTER) and not isinstance(exc, ServiceError):  # a refusal won't change
            timer.payload = {**timer.payload, "attempts": attempts, "error": reason}
            timer.due_at = services.clock.now() + RETRY_AFTER[attempts - 1]
            wake_after_commit(session, services.timers_changed)
            return
        timer.fired = True
        if campaign is not None:
            record.post(session, campaign, services, "gm",
                        f"⚠️ The {timer.kind} timer could not run ({reason}); it is given up after "
                        f"{attempts} {'try' if attempts == 1 else 'tries'}. Please act by hand.")


async def _handle(session: AsyncSession, services: Services, campaign: Campaign, timer: Timer) -> None:
    settings = CampaignSettings.load(campaign.settings)
    ruleset = record.ruleset_of(campaign)
    state = record.state_of(campaign, ruleset)
    phase = ruleset.phase(state)
    if timer.kind == "reminder":
        if phase.window is not Window.ORDERS:
            return
        done = await order_rows.seats_in(session, campaign.id, phase.key)
        late = [s for s in await record.seats_of(session, campaign.id)
                if s.name in phase.waiting and s.name not in done and s.user_id and not s.automatic]
        # a reminder that comes due only after its deadline (the bot was down) would say "due 1h ago": the
        # deadline's own notice says it better
        if late and campaign.deadline and campaign.deadline > services.clock.now():
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
        if phase.window not in (Window.TURN, Window.ORDERS) or seat_name not in phase.waiting:
            return
        seat = await record.seat_named(session, campaign, seat_name)
        if phase.window is Window.ORDERS:   # an automatic power writes its orders (a player's turn timer: nothing)
            if seat.automatic:
                await automatic_orders(session, services, campaign, ruleset, state, phase, seat_name)
            return
        if seat.automatic:
            dice = await record.act_dice(session, campaign, "auto")
            action = await asyncio.to_thread(ruleset.autoplay, state, seat_name, dice)   # a search may take a second
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
