"""The GM's use cases: advance, rollback, deadlines, seats, notes, tables, uploads, rulings, settings."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, tzinfo
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import cards, confirmations, digest, news, record, steps, timers
from bot.service.campaign_settings import LONGEST, SHORTEST, CampaignSettings
from bot.service.campaigns import hand_over_thread
from bot.service.context import Caller, Services
from bot.service.errors import NotFound, ServiceError
from bot.service.lookup import is_gm, require_gm
from bot.service.quoting import clip, clip_quotes
from bot.service.replies import Reply
from bot.service.steps import Actor, forgiving_act
from bot.service.summaries import gm_only, summary
from bot.service.unit import campaign_tx
from bot.store import orders as order_rows
from bot.store.models import Campaign, CampaignStatus, OrderStatus, Seat
from engine.core import Action, Event, OrderCheck, Phase, Roll, RulesError, Ruleset, Table, Viewer, Visibility, Window
from engine.core.names import Match, Names, UnknownName, fold, unknown_message
from engine.core.tables import parse_tables
from engine.core.when import deadline as deadline_at


def _running(campaign: Campaign) -> None:
    if campaign.status != CampaignStatus.RUNNING:
        raise ServiceError(f"**{campaign.name}** is not running ({campaign.status})")


def gm_actor(caller: Caller) -> Actor:
    return Actor("GM", caller.user_id, Viewer.gm())


@asynccontextmanager
async def gm_write(services: Services, caller: Caller, campaign_name: str | None, *,
                   running: bool = False) -> AsyncIterator[tuple[AsyncSession, Campaign]]:
    """A write transaction on a campaign the caller is GM of (and that is running, if asked)."""
    async with campaign_tx(services, caller, campaign_name) as tx:
        session, campaign = tx.session, tx.campaign
        require_gm(campaign, caller)
        if running:
            _running(campaign)
        yield session, campaign


async def advance_campaign(session: AsyncSession, services: Services, campaign: Campaign, actor: Actor) -> str:
    """Close the current window: resolve an order window, or time out the seats a turn waits for."""
    _running(campaign)
    ruleset = record.ruleset_of(campaign)
    state = record.state_of(campaign, ruleset)
    phase = ruleset.phase(state)
    if phase.window is Window.ORDERS:
        rows = list((await order_rows.open_all(session, campaign.id, phase.key)).values())
        orders = {r.seat: [c.canonical for c in map(OrderCheck.load, r.checks) if c.accepted] for r in rows}
        dice = record.dice_of(campaign, f"{phase.key}/resolve")
        try:
            step = await asyncio.to_thread(ruleset.resolve, state, orders, dice)
        except RulesError as exc:
            raise ServiceError(f"the turn cannot resolve: {exc}") from None
        record.snapshot(session, campaign, services, phase, kind="before")  # the default rollback target
        for row in rows:
            row.status = OrderStatus.RESOLVED
        missing = sorted(set(phase.waiting) - set(orders))
        new = await steps.record_step(session, services, campaign, ruleset, step, dice, kind="resolution",
                                      actor=actor, body={"orders": orders, "missing": missing},
                                      visibility=Visibility.gm_only())
        text = f"**{phase.label}** resolved; now **{new.label}**."
        secret = summary(step.events, dice.rolls, gm_only)
        return f"{text}\nFor the GM only:\n{secret}" if secret else text
    if phase.window is Window.TURN:
        done = []
        for seat in sorted(phase.waiting):
            action = ruleset.timeout_action(state, seat)
            if action is None:
                raise ServiceError(f"{ruleset.title} has no automatic action for **{seat}**: they must act")
            await play_for(session, services, campaign, ruleset, seat, action, actor, kind="timeout")
            done.append(f"**{seat}**: `{action}`")
        return "Acted for " + ", ".join(done) + "."
    if phase.window is Window.GM:
        raise ServiceError(f"**{phase.label}** waits for your ruling: see `/gm act`")
    raise ServiceError(f"**{campaign.name}** is over")


async def play_for(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                   seat: str, action: str, actor: Actor, *, kind: str) -> None:
    """Take `action` for `seat` (a timeout or an automatic player), logged as who really did it."""
    state = record.state_of(campaign, ruleset)
    dice = await record.act_dice(session, campaign)
    step = ruleset.act(state, Viewer.of_seat(seat), action, dice)
    await steps.record_step(session, services, campaign, ruleset, step, dice, kind="action",
                            actor=Actor(seat, None, Viewer.of_seat(seat)),
                            body={"action": action, "by": actor.name, "why": kind},
                            visibility=Visibility.to(seat))


async def automatic_orders(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                           state: Any, phase: Phase, seat: str) -> None:
    """An automatic seat's orders for an order window, checked like a player's and saved as its orders."""
    dice = await record.act_dice(session, campaign, "auto")
    text = await asyncio.to_thread(ruleset.autoplay, state, seat, dice)
    if not text:
        return
    checks = [c.dump() for c in ruleset.check(state, seat, text)]
    await order_rows.save(session, campaign_id=campaign.id, seat=seat, phase_key=phase.key, text=text,
                          checks=checks, now=services.clock.now())
    record.log(session, campaign, services, kind="orders", actor=seat, actor_user_id=None,
               visibility=Visibility.to(seat), body={"text": text, "checks": checks, "by": "automatic"})


async def advance(services: Services, caller: Caller, campaign_name: str | None, *,
                  confirmation: int | None = None) -> Reply:
    """Close the window; while played seats are still missing, ask the GM first."""
    async with gm_write(services, caller, campaign_name) as (session, campaign):
        if confirmation is None:
            question = await _missing(session, campaign)
            if question:
                return await confirmations.ask(session, services, caller, campaign, "gm advance",
                                               {"phase": campaign.phase_key}, question, "Advance anyway")
        else:
            row = await confirmations.claim(session, services, confirmation)
            if row.args.get("phase") != campaign.phase_key:
                raise ServiceError(f"**{campaign.name}** has moved on since you asked (it is now "
                                   f"**{campaign.phase_label}**): nothing was done. Run `/gm advance` again.")
        text = await advance_campaign(session, services, campaign, gm_actor(caller))
    return Reply(text, campaign_id=campaign.id)


@confirmations.doer("gm advance")
async def _advance_confirmed(services: Services, caller: Caller, campaign: str, args: dict[str, Any],
                             confirmation: int) -> Reply:
    return await advance(services, caller, campaign, confirmation=confirmation)


async def _missing(session: AsyncSession, campaign: Campaign) -> str:
    """The question to ask before advancing past seats a person plays that have not sent orders or acted yet
    ("" when nobody is missing, or when advancing would be refused anyway)."""
    if campaign.status != CampaignStatus.RUNNING or not record.has_state(campaign):
        return ""
    ruleset = record.ruleset_of(campaign)
    phase = ruleset.phase(record.state_of(campaign, ruleset, shared=True))
    played = sorted(s.name for s in await record.seats_of(session, campaign.id)  # a person waited for
                    if s.name in phase.waiting and s.user_id is not None and not s.automatic)
    if phase.window is Window.ORDERS:
        sent = await order_rows.seats_in(session, campaign.id, phase.key)
        missing = [name for name in played if name not in sent]
        if not missing:
            return ""
        names = ", ".join(f"**{n}**" for n in missing)
        return (f"{len(played) - len(missing)} of {len(played)} in — advance **{phase.label}** anyway? "
                f"No orders yet from {names}: they give none this time.")
    if phase.window is Window.TURN and played:
        names = ", ".join(f"**{n}**" for n in played)
        return (f"{names} {'has' if len(played) == 1 else 'have'} not finished — advance **{phase.label}** "
                f"anyway? Herald acts for them (the ruleset's action for a seat that ran out of time).")
    return ""


async def rollback(services: Services, caller: Caller, to: int | None, reason: str | None,
                   campaign_name: str | None) -> Reply:
    async with gm_write(services, caller, campaign_name, running=True) as (session, campaign):
        snaps = list(await record.snapshots_of(session, campaign.id))
        if to is None:
            began = max((s.seq for s in snaps if s.kind == "start" and s.phase_key == campaign.phase_key), default=0)
            earlier = [s for s in snaps if s.seq < began]
            if not earlier:
                raise ServiceError("there is no earlier phase to go back to")
            target = earlier[-1]
        else:
            matches = [s for s in snaps if s.id == to]
            if not matches:
                raise NotFound("no such snapshot: pick one from the list `to:` offers")
            target = matches[0]
        undone = [s for s in snaps if s.seq > target.seq]
        undone_keys = {s.phase_key for s in undone} | {campaign.phase_key or ""}
        for shot in undone:
            shot.undone = True
        for row in await order_rows.of_campaign(session, campaign.id):
            if row.phase_key == target.phase_key and row.status in (OrderStatus.RESOLVED, OrderStatus.OPEN):
                row.status = OrderStatus.OPEN
            elif row.phase_key in undone_keys and row.status in (OrderStatus.RESOLVED, OrderStatus.OPEN):
                row.status = OrderStatus.SUPERSEDED
        await timers.clear(session, campaign)
        from_label = campaign.phase_label
        ruleset = record.ruleset_of(campaign)
        campaign.state = target.state
        state = record.state_of(campaign, ruleset)
        phase = ruleset.phase(state)
        campaign.phase_key, campaign.phase_label, campaign.turn = phase.key, phase.label, phase.turn
        why = f" ({reason})" if reason else ""
        record.log(session, campaign, services, kind="rollback", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(),
                   body={"to_seq": target.seq, "to": target.phase_label, "from": from_label, "reason": reason})
        where = "the start of " if target.kind == "start" else ""
        notice = (f"⏪ The GM rolled **{campaign.name}** back from **{from_label}** to {where}"
                  f"**{target.phase_label}**{why}.")
        render = record.render_job(campaign, Viewer.spectator(), target.state, f"Map — {phase.label}")
        await steps.announce(session, services, campaign, ruleset, state, phase,  # one post: notice, map, open
                             title=f"⏪ Back to {target.phase_label}", intro=notice, render=render)
    return Reply(f"Rolled back to **{target.phase_label}**.", campaign_id=campaign.id)


async def snapshot_choices(services: Services, caller: Caller, campaign_name: str | None) -> list[tuple[int, str]]:
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        session, campaign = tx.session, tx.campaign
        if not is_gm(campaign, caller):
            return []
        snaps = await record.snapshots_of(session, campaign.id)
        zone = CampaignSettings.load(campaign.settings).zone()
        return [(s.id, snapshot_label(s.phase_label, s.kind, s.at, zone)) for s in reversed(snaps)][:25]


def snapshot_label(phase_label: str, kind: str, at: datetime, zone: tzinfo) -> str:
    """How a rollback menu names a snapshot: the phase and when it was taken, in the campaign's time zone."""
    when = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(zone)
    where = "before resolving " if kind == "before" else "start of "
    label = phase_label.removesuffix(" (before it resolved)")  # how the snapshot was kept; `where` says it
    return f"{where}{label} — {when:%a %d %b %H:%M} {when.tzname() or ''}".rstrip()


def parse_when(text: str, now: datetime, zone: tzinfo = UTC) -> datetime:
    """``2d``, ``in 36 hours``, ``friday 18:00``, ``tomorrow``, ``2026-12-01 18:00`` (read in `zone`): 1m to 366d
    from now."""
    try:
        due = deadline_at(text, now, zone)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None
    if not SHORTEST <= due - now <= LONGEST:
        raise ServiceError("a deadline is 1m to 366d away, like 2d, friday 18:00 or 2026-12-01 18:00")
    return due


async def deadline(services: Services, caller: Caller, when: str | None, campaign_name: str | None) -> Reply:
    async with gm_write(services, caller, campaign_name, running=True) as (session, campaign):
        if when is None:
            await timers.clear(session, campaign)
            record.log(session, campaign, services, kind="deadline", actor="GM", actor_user_id=caller.user_id,
                       visibility=Visibility.everyone(), body={"deadline": None})
            record.post(session, campaign, services, "thread", f"⏰ No deadline now for **{campaign.phase_label}**.")
            return Reply("Deadline cleared.", campaign_id=campaign.id)
        now = services.clock.now()
        due = parse_when(when, now, CampaignSettings.load(campaign.settings).zone())
        await timers.set_deadline(session, services, campaign, due)
        record.log(session, campaign, services, kind="deadline", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(), body={"deadline": due.isoformat()})
        ts = int(due.timestamp())
        told = f"<t:{ts}:F> (<t:{ts}:R>)" if campaign.paused_at is None else steps.paused_deadline(due - now)
        record.post(session, campaign, services, "thread", f"⏰ Deadline for **{campaign.phase_label}**: {told}.")
    return Reply(f"Deadline set: {told}.", campaign_id=campaign.id)


REMOVES = {"kick": "Remove them", "replace": "Replace them", "auto": "Hand it to Herald"}  # confirm buttons


def _removal_question(op: str, seat: str, held: int, user_id: int | None) -> str:
    if op == "kick":
        return f"Remove <@{held}> from **{seat}**? They lose the seat and its private thread."
    if op == "replace":
        return f"Hand **{seat}** from <@{held}> to <@{user_id}>? <@{held}> loses the seat and its private thread."
    return f"Hand **{seat}** from <@{held}> to Herald's automatic player? <@{held}> loses the seat."


async def seat_change(services: Services, caller: Caller, op: str, seat_name: str, user_id: int | None,
                      campaign_name: str | None, *, confirmation: int | None = None) -> Reply:
    """assign (a vacant or new seat), kick (vacate; in the lobby, remove), replace, auto (an automatic player);
    taking a seat from a person is confirmed first."""
    async with gm_write(services, caller, campaign_name) as (session, campaign):
        if campaign.status == CampaignStatus.ENDED:
            raise ServiceError(f"**{campaign.name}** has ended")
        ruleset = record.ruleset_of(campaign)
        seats = await record.seats_of(session, campaign.id)
        typed = Names(s.name for s in seats).match(seat_name)  # forgiving: case, accents, a unique prefix
        creating = op in ("assign", "auto") and campaign.status == CampaignStatus.LOBBY
        fixed = ruleset.seat_rule(campaign.options, campaign.files).names if creating else ()
        if fixed:  # the ruleset names its seats (Terra Nova's powers): a forgiving name is one of those
            from bot.service.campaigns import fixed_seat_name
            meant = fixed_seat_name(fixed, seat_name)
            typed = Match(seat_name, meant) if any(s.name == meant for s in seats) else Match(seat_name)
            seat_name = meant
        elif creating and typed.name is not None and fold(typed.name) != fold(seat_name):
            typed = Match(seat_name)  # in the lobby a shorter name is a new seat, not the start of an old one
        seat = next((s for s in seats if s.name == typed.name), None)
        if user_id is not None and any(s.user_id == user_id and s is not seat for s in seats):
            raise ServiceError(f"<@{user_id}> already holds a seat in **{campaign.name}**")
        old_user = seat.user_id if seat else None
        if creating and seat is None:
            seat = await _new_seat(session, services, campaign, ruleset, seats, seat_name)
        if seat is None:
            raise NotFound(f"**{campaign.name}**: {unknown_message(typed, what='seat')}")
        held = seat.user_id if seat.user_id is not None and not seat.automatic else None
        if confirmation is not None:
            row = await confirmations.claim(session, services, confirmation)
            if row.args.get("previous") != held:
                raise ServiceError(f"**{seat.name}** changed hands since you asked: nothing was done. "
                                   f"Run the command again.")
        elif held is not None and op in REMOVES and held != user_id:
            return await confirmations.ask(session, services, caller, campaign, f"gm seat {op}",
                                           {"seat": seat.name, "user": user_id, "previous": held},
                                           _removal_question(op, seat.name, held, user_id), REMOVES[op])
        if op == "assign":
            if seat.user_id is not None and not seat.automatic and seat.user_id != user_id:
                raise ServiceError(f"**{seat.name}** is held by <@{seat.user_id}>: use `/gm seat replace`")
            seat.user_id, seat.automatic = user_id, False
            text = f"🪑 <@{user_id}> takes the seat **{seat.name}**."
        elif op == "replace":
            seat.user_id, seat.automatic = user_id, False
            text = f"🔁 <@{user_id}> replaces " + (f"<@{old_user}>" if old_user else "nobody") + f" as **{seat.name}**."
        elif op == "kick":
            if campaign.status == CampaignStatus.LOBBY:
                await session.delete(seat)
                text = f"🚪 The GM removed the seat **{seat.name}**."
            else:
                seat.user_id, seat.automatic = None, False
                text = f"🚪 The GM vacated the seat **{seat.name}**."
        elif op == "auto":
            if type(ruleset).autoplay is Ruleset.autoplay:
                raise ServiceError(f"{ruleset.title} has no automatic players")
            seat.user_id, seat.automatic = None, True
            text = f"🤖 **{seat.name}** is played by Herald's automatic player."
        else:
            raise ServiceError(f"unknown seat operation `{op}`")
        record.log(session, campaign, services, kind="seat", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(),
                   body={"op": op, "seat": seat.name, "user": user_id, "previous": old_user})
        if seat.user_id is not None and seat.user_id != old_user:  # its new holder starts looking from here
            news.new_holder(seat, campaign, services.clock.now())
        record.post(session, campaign, services, "thread", text)
        if seat in seats and old_user != seat.user_id and campaign.status != CampaignStatus.LOBBY:
            hand_over_thread(session, services, campaign, seat, old_user)
        if campaign.status == CampaignStatus.RUNNING and campaign.phase_key:
            state = record.state_of(campaign, ruleset)
            await steps.schedule_autoplay(session, services, campaign, ruleset.phase(state))
    return Reply(text, campaign_id=campaign.id)


async def _seat_confirmed(services: Services, caller: Caller, campaign: str, args: dict[str, Any],
                          confirmation: int, *, op: str) -> Reply:
    return await seat_change(services, caller, op, args["seat"], args["user"], campaign, confirmation=confirmation)


for _op in REMOVES:
    confirmations.doer(f"gm seat {_op}")(functools.partial(_seat_confirmed, op=_op))


async def _new_seat(session: AsyncSession, services: Services, campaign: Campaign, ruleset: Ruleset[Any],
                    seats: list[Seat], name: str) -> Seat:
    from bot.service.campaigns import check_seat_name, fixed_seat_name

    rule = ruleset.seat_rule(campaign.options, campaign.files)
    if len(seats) >= rule.maximum:
        raise ServiceError(f"**{campaign.name}** is full ({rule.maximum} seats)")
    if rule.names:
        name = fixed_seat_name(rule.names, name)
    else:
        name = check_seat_name(name)
    seat = Seat(campaign_id=campaign.id, name=name, user_id=None, automatic=False, position=len(seats),
                joined_at=services.clock.now())
    session.add(seat)
    return seat


async def note(services: Services, caller: Caller, text: str, seat_name: str | None,
               campaign_name: str | None) -> Reply:
    async with gm_write(services, caller, campaign_name) as (session, campaign):
        if seat_name:
            seat = await record.seat_named(session, campaign, seat_name)
            vis, target, where = Visibility.to(seat.name), f"seat:{seat.name}", f"privately to **{seat.name}**"
        else:
            vis, target, where = Visibility.everyone(), "thread", "to the campaign thread"
        record.log(session, campaign, services, kind="note", actor="GM", actor_user_id=caller.user_id,
                   visibility=vis, body={"text": text, "to": seat_name})
        record.post(session, campaign, services, target, f"📜 **The GM:** {text}")
    return Reply(f"Note posted {where}.", campaign_id=campaign.id)


def campaign_tables(campaign: Campaign) -> dict[str, Table]:
    ruleset = record.ruleset_by_id(campaign.ruleset)
    tables = {**ruleset.tables()}
    tables.update({name: Table.load(raw) for name, raw in (campaign.tables or {}).items()})
    return tables


MAX_MODIFIER = 1000


async def table_roll(services: Services, caller: Caller, name: str, private: bool, modifier: int,
                     campaign_name: str | None) -> Reply:
    if abs(modifier) > MAX_MODIFIER:
        raise ServiceError(f"a table modifier runs from -{MAX_MODIFIER} to {MAX_MODIFIER}")
    async with gm_write(services, caller, campaign_name) as (session, campaign):
        tables = campaign_tables(campaign)
        titles = {t.title: key for key, t in tables.items() if t.title}  # "naval attrition" finds its tables
        try:
            table = tables.get(name) or tables[Names(tables, aliases=titles).resolve(name, what="table")]
        except UnknownName as exc:
            raise NotFound(f"{exc} (tables: {', '.join(sorted(tables)) or 'none'})") from None
        vis = Visibility.gm_only() if private else Visibility.everyone()
        campaign.roll_count += 1
        dice = record.dice_of(campaign, f"table/{campaign.roll_count}")
        outcome = table.roll(dice, modifier=modifier, visibility=vis)
        record.log(session, campaign, services, kind="roll", actor="GM", actor_user_id=caller.user_id,
                   visibility=vis, body={"table": table.name, "rolls": [r.dump() for r in dice.rolls],
                                         "events": []})
        text = f"🎲 {outcome.roll.text()}"
        if not private:
            rolled = outcome.roll.text().removeprefix(f"{table.title or table.name}: ")
            card = cards.Card(title=f"🎲 The GM rolls on {table.title or table.name}", description=rolled,
                              colour=cards.GM, footer=f"{campaign.name}, roll #{campaign.roll_count}")
            record.post(session, campaign, services, "thread", "", embeds=[card.dump()])
    return Reply(text + ("" if private else "\n(posted in the campaign thread)"), campaign_id=campaign.id)


async def table_upload(services: Services, caller: Caller, text: str, campaign_name: str | None) -> Reply:
    async with gm_write(services, caller, campaign_name) as (session, campaign):
        try:
            tables = parse_tables(text)
        except RulesError as exc:
            raise ServiceError(clip_quotes(str(exc))) from None
        campaign.tables = {**(campaign.tables or {}), **{n: t.dump() for n, t in tables.items()}}
        record.log(session, campaign, services, kind="tables", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.gm_only(), body={"source": text, "names": sorted(tables)})
    return Reply(f"Tables saved: {', '.join(f'`{n}`' for n in sorted(tables))}.", campaign_id=campaign.id)


async def table_names(services: Services, caller: Caller, campaign_name: str | None) -> list[str]:
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        campaign = tx.campaign
        if not is_gm(campaign, caller):
            return []
        return sorted(campaign_tables(campaign))


async def upload(services: Services, caller: Caller, kind: str, text: str, campaign_name: str | None) -> Reply:
    async with gm_write(services, caller, campaign_name) as (session, campaign):
        ruleset = record.ruleset_of(campaign)
        if kind not in ruleset.uploads:
            kinds = ", ".join(f"`{k}`" for k in ruleset.uploads) or "none"
            raise ServiceError(f"{ruleset.title} takes no `{clip(kind, 40)}` files (it takes: {kinds})")
        try:
            if campaign.status == CampaignStatus.LOBBY:
                summary = ruleset.check_upload(kind, text)
                campaign.files = {**campaign.files, kind: text}
                record.log(session, campaign, services, kind="upload", actor="GM", actor_user_id=caller.user_id,
                           visibility=Visibility.gm_only(), body={"kind": kind, "text": text})
                return Reply(f"`{kind}` saved for the start: {summary}.", campaign_id=campaign.id)
            _running(campaign)
            state = record.state_of(campaign, ruleset)
            dice = record.dice_of(campaign, f"{campaign.phase_key}/upload{campaign.log_seq}")
            step = ruleset.upload(state, kind, text)
        except RulesError as exc:
            raise ServiceError(f"`{kind}` not accepted: {clip_quotes(str(exc))}") from None
        await steps.record_step(session, services, campaign, ruleset, step, dice, kind="upload",
                                actor=gm_actor(caller), body={"kind": kind, "text": text},
                                visibility=Visibility.gm_only())
    return Reply(f"`{kind}` taken into play.", campaign_id=campaign.id)


async def act(services: Services, caller: Caller, action: str, campaign_name: str | None) -> Reply:
    async with gm_write(services, caller, campaign_name, running=True) as (session, campaign):
        ruleset = record.ruleset_of(campaign)
        state = record.state_of(campaign, ruleset)
        step, dice, action = await forgiving_act(session, campaign, ruleset, state, Viewer.gm(), action)
        await steps.record_step(session, services, campaign, ruleset, step, dice, kind="gm-action",
                                actor=gm_actor(caller), body={"action": action}, visibility=Visibility.gm_only())
        text = gm_reply(step.events, dice.rolls) or "Done."
    return Reply(text, campaign_id=campaign.id, card="news" if len(text) > steps.CARD_FROM else None)


SEAT_NEWS_SHOWN = 1500  # the seats' private news of a GM action, repeated in the GM's answer up to this long


def gm_reply(events: Sequence[Event], rolls: Sequence[Roll]) -> str:
    """What a GM action did, for the GM: everything, except that the seats' own news, when long (a turn's
    results with their sheets), is only named: it is in each seat's thread, which the GM reads too."""
    to_seats = summary(events, rolls, lambda v: not v.public and bool(v.seats))
    if len(to_seats) <= SEAT_NEWS_SHOWN:
        return summary(events, rolls, lambda v: True)
    shown: list[Visibility] = [*(e.visibility for e in events), *(r.visibility for r in rolls)]
    seats = sorted({s for vis in shown if not vis.public for s in vis.seats})
    rest = summary(events, rolls, lambda v: v.public or not v.seats)
    told = f"📬 Sent privately to {', '.join(f'**{s}**' for s in seats)}: in their threads (and `/history`)."
    return "\n".join(p for p in (told, rest) if p)


async def settings(services: Services, caller: Caller, key: str | None, value: str | None,
                   campaign_name: str | None) -> Reply:
    async with gm_write(services, caller, campaign_name) as (session, campaign):
        current = CampaignSettings.load(campaign.settings)
        if key is None:
            return Reply(f"Settings of **{campaign.name}**:\n{current.describe()}", campaign_id=campaign.id)
        if value is None:
            raise ServiceError(f"give a value for `{clip(key, 40)}`")
        updated = current.with_value(key, value)
        campaign.settings = updated.dump()
        if current.digest != "off" and updated.digest == "off":
            await digest.flush(session, services, campaign)  # what was gathered is published now, not lost
        elif updated.time_zone != current.time_zone:
            await digest.retime(session, services, campaign)
        record.log(session, campaign, services, kind="settings", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(), body={"key": key, "value": value})
    return Reply(f"Settings of **{campaign.name}**:\n{updated.describe()}", campaign_id=campaign.id)


async def gm_action_choices(services: Services, caller: Caller, campaign_name: str | None) -> list[Action]:
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        campaign = tx.campaign
        if campaign.status != CampaignStatus.RUNNING or not is_gm(campaign, caller):
            return []  # the GM's actions name pending rulings: nobody else may even see the list
        ruleset = record.ruleset_of(campaign)
        return list(ruleset.view(record.state_of(campaign, ruleset), Viewer.gm()).actions)
