"""The GM's hold on the clock: extend a deadline, pause a campaign for a vacation, resume it."""

from __future__ import annotations

from bot.service import record, steps, timers
from bot.service.campaign_settings import LONGEST, SHORTEST, CampaignSettings
from bot.service.clock import format_span
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.gm import gm_write
from bot.service.replies import Reply
from bot.store.models import CampaignStatus
from engine.core import Visibility
from engine.core.when import shifted, span


def _stamp(ts: int) -> str:
    return f"<t:{ts}:F> (<t:{ts}:R>)"


async def extend(services: Services, caller: Caller, by: str, campaign_name: str | None) -> Reply:
    """Push the current deadline back by a span (``1d``, ``12h``, ``in 2 days``)."""
    more = span(by)
    if more is None or not SHORTEST <= more <= LONGEST:
        raise ServiceError(f"extend takes a span from 1m to 366d, like 1d, 12h or 2 days (not `{by[:40]}`)")
    async with gm_write(services, caller, campaign_name, running=True) as (session, campaign):
        if campaign.deadline is None:
            raise ServiceError(f"**{campaign.phase_label}** has no deadline to extend: `/gm deadline set`")
        parked = await steps.parked_deadline_left(session, campaign) if campaign.paused_at else None
        if parked is not None:  # paused: the time left grows, and still counts from the resume
            now = services.clock.now()
            due = now + parked + more
            told = steps.paused_deadline(parked + more)
        else:  # `1d` is the same clock time a day later in the campaign's zone, summer time or not
            due = shifted(campaign.deadline, by, CampaignSettings.load(campaign.settings).zone()) or (
                campaign.deadline + more)
            told = _stamp(int(due.timestamp()))
        await timers.set_deadline(session, services, campaign, due)
        record.log(session, campaign, services, kind="deadline", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(), body={"deadline": due.isoformat(), "extended": by})
        record.post(session, campaign, services, "thread",
                    f"⏰ The GM extended the deadline for **{campaign.phase_label}** by {format_span(more)}: "
                    f"{told}.")
    return Reply(f"Deadline extended by {format_span(more)}: {told}.", campaign_id=campaign.id)


async def pause(services: Services, caller: Caller, reason: str | None, campaign_name: str | None) -> Reply:
    """Stop every timer of a running campaign; each keeps the time it had left."""
    async with gm_write(services, caller, campaign_name, running=True) as (session, campaign):
        if campaign.paused_at is not None:
            raise ServiceError(f"**{campaign.name}** is already paused: `/gm resume` to go on")
        now = services.clock.now()
        campaign.paused_at = now
        for timer in await timers.pending(session, campaign):
            timers.park(timer, now)
        left = f" The deadline had {format_span(campaign.deadline - now)} to go; it keeps them." \
            if campaign.deadline else ""
        why = f" ({reason.strip()})" if reason and reason.strip() else ""
        record.log(session, campaign, services, kind="pause", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(), body={"reason": reason or ""})
        record.post(session, campaign, services, "thread",
                    f"⏸️ The GM paused **{campaign.name}**{why}: deadlines, reminders and turn timers are stopped "
                    f"until the GM resumes.{left}")
    return Reply(f"Paused **{campaign.name}**.{left} `/gm resume` starts the clock again.", campaign_id=campaign.id)


async def resume(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    """Start a paused campaign's timers again, each with the time it had left."""
    async with gm_write(services, caller, campaign_name) as (session, campaign):
        if campaign.paused_at is None:
            raise ServiceError(f"**{campaign.name}** is not paused")
        now = services.clock.now()
        campaign.paused_at = None
        running = campaign.status == CampaignStatus.RUNNING
        deadline = None
        for timer in await timers.pending(session, campaign):
            timers.unpark(timer, now)
            if timer.kind == "deadline" and timer.phase_key == campaign.phase_key:
                deadline = timer.due_at
        campaign.deadline = deadline
        record.wake_after_commit(session, services.timers_changed)
        record.log(session, campaign, services, kind="resume", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(), body={"deadline": deadline.isoformat() if deadline else None})
        due = f" The deadline is now {_stamp(int(deadline.timestamp()))}." if deadline else ""
        if running:
            record.post(session, campaign, services, "thread", f"▶️ The GM resumed **{campaign.name}**.{due}")
    return Reply(f"Resumed **{campaign.name}**.{due}", campaign_id=campaign.id)

