"""Applying a rules step to the record: state, log, posts, and what happens at phase boundaries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import record, timers
from bot.service.campaign_settings import CampaignSettings
from bot.service.context import Services
from bot.service.summaries import gm_only, public, seat_only, summary
from bot.store.models import Campaign, CampaignStatus
from engine.core import Dice, Event, Phase, Roll, Ruleset, Step, Viewer, Visibility, Window


@dataclass(frozen=True)
class Actor:
    """Who caused a step: a seat, the GM, or the system (timers, automatic players)."""

    name: str
    user_id: int | None
    viewer: Viewer

    @classmethod
    def system(cls) -> Actor:
        return cls("system", None, Viewer.gm())


def _dump_step(step: Step[Any], dice: Dice) -> dict[str, Any]:
    return {"events": [e.dump() for e in step.events], "rolls": [r.dump() for r in dice.rolls]}


async def record_step(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                      step: Step[Any], dice: Dice, *, kind: str, actor: Actor, body: dict[str, Any],
                      visibility: Visibility) -> Phase:
    """Keep the new state, log the step with its events and rolls, post private news, cross phases."""
    campaign.state = ruleset.dump(step.state)
    phase = ruleset.phase(step.state)
    record.log(session, campaign, services, kind=kind, actor=actor.name, actor_user_id=actor.user_id,
               visibility=visibility, body={**body, **_dump_step(step, dice)})
    rolls = dice.rolls
    seen: list[Event | Roll] = [*step.events, *rolls]
    for seat in sorted({s for item in seen for s in item.visibility.seats}):
        if actor.viewer.kind == "seat" and actor.viewer.seat == seat:
            continue  # the actor reads it in their own reply
        text = summary(step.events, rolls, seat_only(seat))
        if text:
            record.post(session, campaign, services, f"seat:{seat}", text)
    if actor.name != "GM":  # the GM reads it in their own reply; timers and seats tell the GM's thread
        text = summary(step.events, rolls, gm_only)
        if text:
            record.post(session, campaign, services, "gm", text)
    if phase.key != campaign.phase_key:
        await enter_phase(session, services, campaign, ruleset, step.state, phase)
        return phase
    campaign.phase_label = phase.label  # a phase may relabel itself ("the GM rules (2 open)")
    if phase.window is Window.TURN:
        await schedule_autoplay(session, services, campaign, phase)
    return phase


async def phase_summary(session: AsyncSession, campaign: Campaign) -> str:
    """The public events and dice of everything logged since the current phase began."""
    lines = []
    for entry in await record.this_phase(session, campaign):
        events = [Event.load(e) for e in entry.body.get("events", [])]
        rolls = [Roll.load(r) for r in entry.body.get("rolls", [])]
        text = summary(events, rolls, public)
        if text:
            lines.append(text)
    return "\n".join(lines)


async def enter_phase(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                      state: Any, phase: Phase, *, first: bool = False) -> None:
    """Cross a phase boundary: summary, snapshot, map, and whatever the new window needs."""
    previous_label, previous_turn = campaign.phase_label, campaign.turn
    if not first:
        text = await phase_summary(session, campaign)
        if text:
            record.post(session, campaign, services, "thread", f"**{previous_label}**\n{text}")
    campaign.phase_key, campaign.phase_label, campaign.turn = phase.key, phase.label, phase.turn
    record.snapshot(session, campaign, services, phase)
    await timers.clear(session, campaign)
    if phase.window is Window.TURN or phase.turn != previous_turn or first or phase.ended:
        record.post(session, campaign, services, "thread", "",
                    render=record.render_job(campaign, Viewer.spectator(), campaign.state or {},
                                             f"Map — {phase.label}"))
    if phase.ended:
        await finish(session, services, campaign, ruleset, state, reason="the game is over")
        return
    await announce(session, services, campaign, ruleset, state, phase)


async def announce(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                   state: Any, phase: Phase) -> None:
    """Tell the table what the new window needs: orders, a seat's turn, or the GM's ruling."""
    settings = CampaignSettings.load(campaign.settings)
    seats = {s.name: s for s in await record.seats_of(session, campaign.id)}
    if phase.window is Window.ORDERS:
        names = ", ".join(sorted(phase.waiting)) or "everyone"
        text = f"📜 **{phase.label}**: orders are open for {names}. Use `/orders submit`."
        every = settings.span("deadline_every")
        if every:
            due = services.clock.now() + every
            await timers.set_deadline(session, services, campaign, due)
            text += f"\nDeadline: <t:{int(due.timestamp())}:F> (<t:{int(due.timestamp())}:R>)."
        record.post(session, campaign, services, "thread", text,
                    components={"buttons": [{"id": f"herald:orders:{campaign.id}", "label": "Write orders"}]})
        await schedule_autoplay(session, services, campaign, phase)
    elif phase.window is Window.TURN:
        for name in sorted(phase.waiting):
            seat = seats.get(name)
            if seat is None or seat.automatic or seat.user_id is None:
                continue
            who = f"<@{seat.user_id}>" if settings.ping else f"**{name}**"
            record.post(session, campaign, services, "thread", f"🎯 {who}, it's your turn ({name}) — {phase.label}.",
                        components={"buttons": [{"id": f"herald:turn:{campaign.id}", "label": "Take your turn"}]},
                        mentions=[seat.user_id] if settings.ping else ())
            timer = settings.span("turn_timer")
            if timer:
                await timers.set_turn_timer(session, services, campaign, name, services.clock.now() + timer)
        await schedule_autoplay(session, services, campaign, phase)
    elif phase.window is Window.GM:
        view = ruleset.view(state, Viewer.gm())
        choices = "\n".join(f"• `{a.text}` — {a.label}" if a.label != a.text else f"• `{a.text}`"
                            for a in view.actions)
        record.post(session, campaign, services, "gm",
                    f"⚖️ **{phase.label}**: your ruling is needed.\n{view.summary}\n{choices}".strip()
                    + "\nUse `/gm act`.")


async def schedule_autoplay(session: AsyncSession, services: Services, campaign: Campaign, phase: Phase) -> None:
    """An automatic seat to act: queue it as a due timer, so each of its actions is its own transaction."""
    seats = await record.seats_of(session, campaign.id)
    for seat in seats:
        if seat.automatic and seat.name in phase.waiting:
            if not await timers.pending_turn(session, campaign, seat.name):
                await timers.set_turn_timer(session, services, campaign, seat.name, services.clock.now())
            if phase.window is not Window.ORDERS:   # a turn is one seat's at a time; orders are everyone's
                return


async def finish(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                 state: Any, *, reason: str) -> None:
    """End the campaign: reveal the seed so anyone can re-derive every roll."""
    campaign.status = CampaignStatus.ENDED
    campaign.ended_at = services.clock.now()
    await timers.clear(session, campaign)
    final = ruleset.view(state, Viewer.spectator()).summary if state is not None else ""
    record.log(session, campaign, services, kind="end", actor="system", actor_user_id=None,
               visibility=Visibility.everyone(), body={"reason": reason, "seed": campaign.seed})
    record.post(session, campaign, services, "thread",
                f"🏁 **{campaign.name}** has ended: {reason}.\n{final}\n\n"
                f"The seed was `{campaign.seed}` (its SHA-256 is the commitment posted at the start, "
                f"`{campaign.commitment}`). Anyone can check every roll: `/campaign export`, then "
                f"`herald verify export.json`.")
