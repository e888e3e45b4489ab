"""Applying a rules step to the record: state, log, posts, and what happens at phase boundaries."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import cards, charts, digest, record, timers
from bot.service.campaign_settings import CampaignSettings
from bot.service.clock import format_span
from bot.service.context import Services
from bot.service.errors import ServiceError
from bot.service.summaries import gm_only, public, roll_line, seat_only, summary
from bot.store import timers as timer_rows
from bot.store.models import Campaign, CampaignStatus, TurnNotice
from engine.core import Dice, Event, Phase, Roll, RulesError, Ruleset, Step, Viewer, Visibility, Window
from engine.core.names import meant_action
from engine.core.when import shifted


@dataclass(frozen=True)
class Actor:
    """Who caused a step: a seat, the GM, or the system (timers, automatic players)."""

    name: str
    user_id: int | None
    viewer: Viewer

    @classmethod
    def system(cls) -> Actor:
        return cls("system", None, Viewer.gm())


async def forgiving_act(session: AsyncSession, campaign: Campaign, ruleset: Ruleset[Any], state: Any,
                        viewer: Viewer, action: str) -> tuple[Step[Any], Dice, str]:
    """Play `action`; refused as typed, play what it most likely says among the legal actions (a label, a unique
    start, a verb written out) — never a guess between several. Returns the step, its dice and what was played."""
    dice = await record.act_dice(session, campaign)
    try:
        return ruleset.act(state, viewer, action, dice), dice, action
    except RulesError as exc:
        refused = exc
    fresh = record.state_of(campaign, ruleset)  # the refused attempt may have changed the state it was given
    meant = meant_action(action, ((a.text, a.label) for a in ruleset.view(fresh, viewer).actions))
    if meant is None:
        raise ServiceError(str(refused)) from None
    dice = await record.act_dice(session, campaign)  # the same stream: nothing was logged in between
    try:
        return ruleset.act(fresh, viewer, meant, dice), dice, meant
    except RulesError:
        raise ServiceError(str(refused)) from None


def _dump_step(step: Step[Any], dice: Dice) -> dict[str, Any]:
    return {"events": [e.dump() for e in step.events], "rolls": [r.dump() for r in dice.rolls]}


async def record_step(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                      step: Step[Any], dice: Dice, *, kind: str, actor: Actor, body: dict[str, Any],
                      visibility: Visibility) -> Phase:
    """Keep the new state, log the step with its events and rolls, post private news, cross phases."""
    before, before_key = campaign.state, campaign.phase_key
    campaign.state = ruleset.dump(step.state)
    phase = ruleset.phase(step.state)
    record.log(session, campaign, services, kind=kind, actor=actor.name, actor_user_id=actor.user_id,
               visibility=visibility, body={**body, **_dump_step(step, dice)})
    if kind == "action" and actor.viewer.kind == "seat" and actor.user_id is not None and before is not None:
        from bot.service import undo  # it works through the unit of work, which records steps through here

        await undo.remember(session, services, campaign, actor.viewer.seat or "", str(body.get("action", "")),
                            before, takes_back=phase.key == before_key and not dice.rolls
                            and not ruleset.reveals(step.events))
    rolls = dice.rolls
    seen: list[Event | Roll] = [*step.events, *rolls]
    for seat in sorted({s for item in seen for s in item.visibility.seats}):
        if actor.viewer.kind == "seat" and actor.viewer.seat == seat:
            continue  # the actor reads it in their own reply
        text = summary(step.events, rolls, seat_only(seat))
        if text:
            private_news(session, services, campaign, f"seat:{seat}", text, cards.colour_of(seat))
    if actor.name != "GM":  # the GM reads it in their own reply; timers and seats tell the GM's thread
        text = summary(step.events, rolls, gm_only)
        if text:
            private_news(session, services, campaign, "gm", text, cards.GM)
    if phase.key != campaign.phase_key:
        await enter_phase(session, services, campaign, ruleset, step.state, phase)
        return phase
    campaign.phase_label = phase.label  # a phase may relabel itself ("the GM rules (2 open)")
    if phase.window is Window.TURN:
        await schedule_autoplay(session, services, campaign, phase)
    return phase


CARD_FROM = 600  # private news longer than this (a turn's results, a sheet) is shown as a card


def private_news(session: AsyncSession, services: Services, campaign: Campaign, target: str, text: str,
                 colour: int) -> None:
    """A seat's or the GM's news: a line or two as text, long results as a card with their labels as fields."""
    if len(text) <= CARD_FROM:
        record.post(session, campaign, services, target, text)
        return
    record.post(session, campaign, services, target, "",
                embeds=[cards.from_markdown(text, colour=colour, footer=campaign.name).dump()])


async def phase_summary(session: AsyncSession, campaign: Campaign) -> str:
    """The public events and dice of everything logged since the current phase began."""
    events, dice, _ = await phase_news(session, campaign)
    return "\n".join([*events, *dice])


async def phase_news(session: AsyncSession, campaign: Campaign) -> tuple[list[str], list[str], bool]:
    """The public events and the public dice logged since the current phase began, as lines, and whether the
    phase's orders were carried out (players' ships sailed, settlers settled: the map has news)."""
    events: list[str] = []
    dice: list[str] = []
    ordered = False
    for entry in await record.this_phase(session, campaign):
        logged = [Event.load(e) for e in entry.body.get("events", [])]
        rolls = [Roll.load(r) for r in entry.body.get("rolls", [])]
        events += [e.text for e in logged if public(e.visibility)]
        dice += [roll_line(r) for r in rolls if public(r.visibility) and r.kind != "shuffle"]
        ordered = ordered or (entry.kind == "resolution" and any(public(e.visibility) for e in logged))
    return events, dice, ordered


@dataclass
class Opening:
    """What a new window asks of the table: lines for the phase post, its buttons, whom it pings."""

    lines: list[str] = field(default_factory=list)
    pings: list[str] = field(default_factory=list)  # lines that must be message text: embeds ping no one
    buttons: list[dict[str, str]] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)
    deadline: datetime | None = None


async def enter_phase(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                      state: Any, phase: Phase, *, first: bool = False, intro: str = "") -> None:
    """Cross a phase boundary: one public post with what happened, the map and what is open now; a snapshot;
    whatever the new window needs. `intro` opens the card (the start's seats and dice commitment)."""
    previous_label, previous_turn = campaign.phase_label, campaign.turn
    events, dice, ordered = ([], [], False) if first else await phase_news(session, campaign)
    if not phase.ended:  # "**C.2 …** — orders are open": the card's Now says so, with its button
        events = [e for e in events if not e.startswith(f"**{phase.label}** — ")]
    campaign.phase_key, campaign.phase_label, campaign.turn = phase.key, phase.label, phase.turn
    campaign.news_seq = campaign.log_seq  # a phase crossed is news for whoever was away (bot/service/catchup.py)
    record.snapshot(session, campaign, services, phase)
    await timers.clear(session, campaign)
    # the map after it: once a turn, for a battle or a turn, and after orders were carried out in public
    with_map = phase.window is Window.TURN or phase.turn != previous_turn or first or phase.ended or ordered
    render = (record.render_job(campaign, Viewer.spectator(), campaign.state or {}, f"Map — {phase.label}")
              if with_map else None)
    # beside the whole board, where it cannot be legible at preview size: the part just played, drawn large
    focus = (record.focus_job(campaign, Viewer.spectator(), campaign.state or {}, f"Just played — {previous_label}")
             if render is not None and not first and not phase.ended and has_focus(ruleset) else None)
    card = phase_card(campaign, previous_label if not first else None, events, dice, phase,
                      image=render["name"] if render else None)
    card.description = "\n".join(p for p in (intro, card.description) if p)
    # the scores so far, once a turn (or, where seats take turns, once a round)
    if (phase.turn != previous_turn and phase.round_opens and not first) or phase.ended:
        chart: dict[str, Any] | None = charts.chart_job(campaign, Viewer.spectator(), f"Turn by turn — {phase.label}")
    else:
        chart = None
    if phase.ended:
        await finish(session, services, campaign, ruleset, state, reason="the game is over", card=card,
                     render=render, chart=chart)
        return
    opening = await open_window(session, services, campaign, ruleset, state, phase)
    await post_phase(session, services, campaign, card, opening, phase, render=render, chart=chart, focus=focus)


def has_focus(ruleset: Ruleset[Any]) -> bool:
    """Whether the ruleset draws a focused crop beside its map (Ruleset.render_focus)."""
    return type(ruleset).render_focus is not Ruleset.render_focus


def phase_card(campaign: Campaign, resolved: str | None, events: list[str], dice: list[str], phase: Phase, *,
               image: str | None) -> cards.Card:
    """The card of a phase post: the phase that resolved and what happened in it (its dice in a field)."""
    title = resolved or f"{campaign.name} begins: {phase.label}"
    card = cards.Card(title=title, description="\n".join(events), colour=cards.colour_of(title.split(" ")[0]),
                      image=image)
    card.add("🎲 Dice", "\n".join(dice))
    return card


async def post_phase(session: AsyncSession, services: Services, campaign: Campaign, card: cards.Card,
                     opening: Opening, phase: Phase, *, render: dict[str, Any] | None,
                     chart: dict[str, Any] | None = None, gathered: bool = True,
                     focus: dict[str, Any] | None = None) -> None:
    """The one public post of a phase boundary (nothing when there is nothing to tell); with the daily digest
    on, the card waits for the day's digest and only a ping goes out now (unless not `gathered`: a rollback
    is told at once)."""
    if opening.lines:
        card.add("Now", "\n".join(opening.lines))
    when = f"turn {phase.turn}" if phase.turn else ""
    card.footer = " · ".join(p for p in (campaign.name, when, "deadline" if opening.deadline else "") if p)
    if opening.deadline is not None:
        card.timestamp = opening.deadline.isoformat()
    if not (card.description or card.fields or render or opening.pings):
        return
    if gathered and CampaignSettings.load(campaign.settings).digest == "daily":
        if opening.pings:
            record.post(session, campaign, services, "thread", "\n".join(opening.pings), mentions=opening.mentions,
                        components={"buttons": opening.buttons} if opening.buttons else None)
        await digest.gather(session, services, campaign, {"embeds": [card.dump()], "render": render,
                                                          "buttons": opening.buttons})
        return
    record.post(session, campaign, services, "thread", "\n".join(opening.pings),
                embeds=[card.dump(), *chart_cards(focus), *chart_cards(chart)], render=render, chart=chart,
                focus=focus, components={"buttons": opening.buttons} if opening.buttons else None,
                mentions=opening.mentions)


def chart_cards(chart: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The chart's (or the focused crop's) own card on the phase post (dropped at delivery when there is no
    line to draw yet, or nothing played)."""
    if chart is None:
        return []
    return [cards.Card(title=chart["caption"], colour=cards.HERALD, image=chart["name"]).dump()]


async def announce(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                   state: Any, phase: Phase, *, title: str = "", intro: str = "",
                   render: dict[str, Any] | None = None) -> None:
    """Tell the table what the new window needs (after a rollback): one post — `title` and `intro` (what the GM
    did), the map and what is open now — and the GM's ruling in the GM's thread."""
    opening = await open_window(session, services, campaign, ruleset, state, phase)
    card = cards.Card(title=title or phase.label, description=intro,
                      colour=cards.colour_of(phase.label.split(" ")[0]), image=render["name"] if render else None)
    await post_phase(session, services, campaign, card, opening, phase, render=render, gathered=False)


async def open_window(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                      state: Any, phase: Phase) -> Opening:
    """Open what the new window needs (deadline, turn timers, the GM's ruling) and say what is open now."""
    settings = CampaignSettings.load(campaign.settings)
    seats = {s.name: s for s in await record.seats_of(session, campaign.id)}
    opening = Opening()
    wants = {row.user_id: row.how for row in await session.scalars(
        select(TurnNotice).where(TurnNotice.campaign_id == campaign.id))}  # /campaign notify: dm | ping
    played = [s for name in sorted(phase.waiting) if (s := seats.get(name)) is not None and not s.automatic
              and s.user_id is not None]
    where = f"<#{campaign.thread_id or campaign.channel_id}>"
    if phase.window is Window.ORDERS:
        names = ", ".join(sorted(phase.waiting)) or "everyone"
        text = f"📜 **{phase.label}**: orders are open for {names}. Use `/orders submit`."
        every = settings.span("deadline_every")
        due_text = ""
        if every:
            now = services.clock.now()
            due = shifted(now, settings.deadline_every, settings.zone()) or now + every
            await timers.set_deadline(session, services, campaign, due)
            if campaign.paused_at is not None:  # the timer is parked: its span runs from the resume, not now
                text += f"\nDeadline: {paused_deadline(every)}."
                due_text = f", {format_span(every)} to go once the GM resumes"
            else:
                text += f"\nDeadline: <t:{int(due.timestamp())}:F> (<t:{int(due.timestamp())}:R>)."
                due_text = f", due <t:{int(due.timestamp())}:R>"
                opening.deadline = due
        opening.lines.append(text)
        opening.buttons.append({"id": f"herald:orders:{campaign.id}", "label": "Write orders"})
        pings = [s.user_id for s in played if s.user_id is not None and wants.get(s.user_id) == "ping"]
        if pings:
            opening.pings.append("📜 " + " ".join(f"<@{uid}>" for uid in pings) + f": orders for {phase.label}.")
            opening.mentions.extend(pings)
        for seat in played:
            if seat.user_id is not None and wants.get(seat.user_id) == "dm":
                record.post(session, campaign, services, f"dm:{seat.user_id}",
                            f"📜 **{campaign.name}** waits for your orders as **{seat.name}** — {phase.label}"
                            f"{due_text}. Use `/orders submit` in {where}.")
        await schedule_autoplay(session, services, campaign, phase)
    elif phase.window is Window.TURN:
        for seat in played:
            name, how = seat.name, wants.get(seat.user_id or 0)
            ping = how == "ping" or (how is None and settings.ping)  # a player's own choice beats the campaign's
            who = f"<@{seat.user_id}>" if ping else f"**{name}**"
            opening.pings.append(f"🎯 {who}, it's your turn ({name}) — {phase.label}.")
            if ping and seat.user_id is not None:
                opening.mentions.append(seat.user_id)
            if not opening.buttons:
                opening.buttons.append({"id": f"herald:turn:{campaign.id}", "label": "Take your turn"})
            if how == "dm":
                record.post(session, campaign, services, f"dm:{seat.user_id}",
                            f"🎯 It's your turn in **{campaign.name}** as **{name}** — {phase.label}. Play it with "
                            f"`/act` in {where}.")
            timer = settings.span("turn_timer")
            if timer:
                await timers.set_turn_timer(session, services, campaign, name, services.clock.now() + timer)
        if not opening.pings and phase.waiting:
            opening.lines.append(f"🎯 **{phase.label}**: " + ", ".join(sorted(phase.waiting)) + " to play.")
        await schedule_autoplay(session, services, campaign, phase)
    elif phase.window is Window.GM:
        view = await asyncio.to_thread(ruleset.view, state, Viewer.gm())  # a big campaign's desk: off the loop
        choices = "\n".join(f"• `{a.text}` — {a.label}" if a.label != a.text else f"• `{a.text}`"
                            for a in view.actions)
        record.post(session, campaign, services, "gm",
                    f"⚖️ **{phase.label}**: your ruling is needed.\n{view.summary}\n{choices}".strip()
                    + "\nUse `/gm act`.")
        opening.lines.append(f"⚖️ **{phase.label}**: waiting for the GM's ruling.")
    return opening


def paused_deadline(left: timedelta) -> str:
    """How a deadline is told while the campaign is paused: its time left, counted from the resume."""
    return f"paused — {format_span(left)} left, counted from `/gm resume`"


async def parked_deadline_left(session: AsyncSession, campaign: Campaign) -> timedelta | None:
    """A paused campaign's deadline: the time its parked timer has left (None when there is no deadline)."""
    for timer in await timer_rows.pending(session, campaign.id, "deadline"):
        if timer.phase_key == (campaign.phase_key or "") and "left" in (timer.payload or {}):
            return timedelta(seconds=int(timer.payload["left"]))
    return None


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
                 state: Any, *, reason: str, card: cards.Card | None = None,
                 render: dict[str, Any] | None = None, chart: dict[str, Any] | None = None) -> None:
    """End the campaign: reveal the seed so anyone can re-derive every roll."""
    campaign.status = CampaignStatus.ENDED
    campaign.ended_at = services.clock.now()
    await timers.clear(session, campaign)
    await digest.flush(session, services, campaign)  # what the day gathered comes before the end
    final = (await asyncio.to_thread(ruleset.view, state, Viewer.spectator())).summary if state is not None else ""
    record.log(session, campaign, services, kind="end", actor="system", actor_user_id=None,
               visibility=Visibility.everyone(), body={"reason": reason, "seed": campaign.seed})
    text = (f"🏁 **{campaign.name}** has ended: {reason}.\n{final}\n\n"
            f"The seed was `{campaign.seed}` (its SHA-256 is the commitment posted at the start, "
            f"`{campaign.commitment}`). Anyone can check every roll: `/campaign export`, then "
            f"`herald verify export.json`.")
    # the last phase's news (when a phase ended it), the final map and the end, in one post
    end = cards.from_markdown(text, title=f"🏁 The end of {campaign.name}", colour=cards.HERALD)
    shown = [card.dump(), *chart_cards(chart)] if card is not None else []
    record.post(session, campaign, services, "thread", "", embeds=[*shown, end.dump()], render=render, chart=chart)
