"""Campaign life: create, join, leave, start, status, list, follow, end."""

from __future__ import annotations

import re
import shlex
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import confirmations, record, steps
from bot.service.campaign_settings import CampaignSettings
from bot.service.clock import format_span
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.lookup import find_campaign, require_gm, seat_of
from bot.service.quoting import clip
from bot.service.replies import Reply
from bot.service.unit import campaign_tx
from bot.store import campaigns as campaign_rows
from bot.store import followers
from bot.store import orders as order_rows
from bot.store import seats as seat_rows
from bot.store.models import Campaign, CampaignStatus, Seat
from engine.core import RulesError, Setup, Viewer, Visibility, Window, commitment, new_seed
from engine.core import names as forgiving
from engine.rulesets import find as find_ruleset

NAME = re.compile(r"^[^\n:@#`*_~|<>]{1,60}$")
SEAT = re.compile(r"^[^\n:@#`*_~|<>]{1,32}$")
RESERVED_SEATS = {"all", "gm", "everyone", "none", "system", "spectator"}


def parse_options(text: str | None) -> dict[str, str]:
    """``a=1 b="two words"`` → {"a": "1", "b": "two words"}."""
    out: dict[str, str] = {}
    try:
        parts = shlex.split(text or "")
    except ValueError as exc:
        raise ServiceError(f"options: {exc}") from None
    for part in parts:
        for piece in part.split(","):
            if not piece:
                continue
            if "=" not in piece:
                raise ServiceError(f"options are name=value pairs; `{clip(piece, 40)}` has no `=`")
            key, value = piece.split("=", 1)
            out[key.strip()] = value.strip()
    return out


def fixed_seat_name(names: tuple[str, ...], typed: str) -> str:
    """One of a ruleset's fixed seat names (Terra Nova's powers), by any forgiving spelling: case, accents and a
    unique prefix do not matter; otherwise "did you mean …?" or the candidates, and the seats there are."""
    try:
        return forgiving.resolve(typed, names, what="seat")
    except forgiving.UnknownName as exc:
        raise ServiceError(f"{exc}; the seats are {', '.join(names)}") from None


def check_seat_name(name: str) -> str:
    name = " ".join(name.split())
    if not SEAT.match(name) or name.lower() in RESERVED_SEATS:
        raise ServiceError(f"`{clip(name, 40)}` cannot be a seat name: 1-32 characters, no `:@#` or markdown, "
                           f"not {', '.join(sorted(RESERVED_SEATS))}")
    return name


def hand_over_thread(session: AsyncSession, services: Services, campaign: Campaign, seat: Seat,
                     old_user: int | None) -> None:
    """The seat's private thread follows the seat: the old holder out, the new one (if any) in.

    Queued now, in this transaction, so the outbox removes the old holder before it delivers
    anything posted to the seat later: they never read what the GM sends their successor."""
    record.post(session, campaign, services, f"seat:{seat.name}",
                f"This is **{seat.name}**'s private thread" + (f", now <@{seat.user_id}>'s." if seat.user_id
                                                               else "; the seat is vacant."),
                components={"add_users": [seat.user_id] if seat.user_id else [],
                            "remove_users": [old_user] if old_user else []})


async def create(services: Services, caller: Caller, name: str, ruleset_id: str, options: str | None) -> Reply:
    name = " ".join(name.split())
    if not NAME.match(name):
        raise ServiceError("a campaign name is 1-60 characters, without `:@#` or markdown")
    try:
        ruleset = find_ruleset(ruleset_id)  # forgiving: `Terra Nova`, `lote`
        parsed = ruleset.parse_options(parse_options(options))
    except RulesError as exc:
        raise ServiceError(str(exc)) from None
    seed = (services.secret or new_seed)()
    async with services.db.write() as session:
        if await campaign_rows.name_taken(session, caller.guild_id, name):
            raise ServiceError(f"this server already has a campaign called **{name}**")
        campaign = Campaign(
            guild_id=caller.guild_id, channel_id=caller.channel_id, name=name, ruleset=ruleset.id,
            ruleset_version=ruleset.version, options=parsed, settings=CampaignSettings().dump(), files={},
            tables={}, gm_user_id=caller.user_id, status=CampaignStatus.LOBBY, seed=seed.hex(),
            commitment=commitment(seed), created_at=services.clock.now(), turn=0, log_seq=0, roll_count=0)
        session.add(campaign)
        try:
            await session.flush()
        except IntegrityError:
            raise ServiceError(f"this server already has a campaign called **{name}**") from None
        record.log(session, campaign, services, kind="create", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(),
                   body={"ruleset": ruleset.id, "version": ruleset.version, "options": parsed})
        opts = ", ".join(f"{k}={v}" for k, v in parsed.items()) or "none"
        record.post(session, campaign, services, "thread",
                    f"📯 **{name}** — a {ruleset.title} campaign run by <@{caller.user_id}>.\n"
                    f"Options: {opts}.\nJoin with `/campaign join`; follow this thread to watch.")
    text = (f"Created **{name}** ({ruleset.title}). Players join with `/campaign join`; "
            f"when the seats are filled, start it with `/campaign start`.")
    if ruleset.uploads:
        text += "\nFiles it takes before the start (`/gm upload`): " + "; ".join(
            f"`{k}` — {v}" for k, v in ruleset.uploads.items())
    return Reply(text, ephemeral=False, campaign_id=campaign.id)


async def join(services: Services, caller: Caller, seat_name: str | None, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name) as tx:
        session, campaign = tx.session, tx.campaign
        if await seat_of(session, campaign, caller):
            raise ServiceError(f"you already have a seat in **{campaign.name}**")
        if campaign.status != CampaignStatus.LOBBY:
            raise ServiceError(f"**{campaign.name}** has started; ask the GM to give you a seat "
                               f"(`/gm seat assign`)")
        ruleset = record.ruleset_of(campaign)
        rule = ruleset.seat_rule(campaign.options, campaign.files)
        seats = await record.seats_of(session, campaign.id)
        taken = {s.name.lower() for s in seats}
        if len(seats) >= rule.maximum:
            raise ServiceError(f"**{campaign.name}** is full ({rule.maximum} seats)")
        if rule.names:
            free = [n for n in rule.names if n.lower() not in taken]
            if seat_name:
                name = fixed_seat_name(rule.names, seat_name)
                if name.lower() in taken:
                    raise ServiceError(f"**{name}** is taken; free seats: {', '.join(free) or 'none'}")
            else:
                name = free[0]
        else:
            name = check_seat_name(seat_name or caller.name)
            if name.lower() in taken:
                raise ServiceError(f"the seat **{name}** is taken; pick another name with `seat:`")
        now = services.clock.now()
        session.add(Seat(campaign_id=campaign.id, name=name, user_id=caller.user_id, automatic=False,
                         position=len(seats), joined_at=now, looked_seq=campaign.log_seq + 1, looked_at=now))
        record.log(session, campaign, services, kind="join", actor=name, actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(), body={"seat": name})
        record.post(session, campaign, services, "thread", f"🪑 <@{caller.user_id}> joins as **{name}**.")
    return Reply(f"You joined **{campaign.name}** as **{name}**.", campaign_id=campaign.id)


async def leave(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name) as tx:
        session, campaign = tx.session, tx.campaign
        seat = await seat_of(session, campaign, caller)
        if seat is None:
            raise ServiceError(f"you have no seat in **{campaign.name}**")
        if campaign.status == CampaignStatus.LOBBY:
            await session.delete(seat)
            text = f"🚪 **{seat.name}** left."
        else:
            seat.user_id = None  # the seat and its secrets stay, waiting for the GM to fill it
            text = f"🚪 <@{caller.user_id}> left the seat **{seat.name}**; it waits for the GM to fill it."
            hand_over_thread(session, services, campaign, seat, caller.user_id)
            record.post(session, campaign, services, "gm",
                        f"**{seat.name}** is vacant. Fill it with `/gm seat assign seat:{seat.name}`.")
        record.log(session, campaign, services, kind="leave", actor=seat.name, actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(), body={"seat": seat.name})
        record.post(session, campaign, services, "thread", text)
    return Reply(f"You left **{campaign.name}**.", campaign_id=campaign.id)


async def start(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name) as tx:
        session, campaign = tx.session, tx.campaign
        require_gm(campaign, caller)
        if campaign.status != CampaignStatus.LOBBY:
            raise ServiceError(f"**{campaign.name}** has already started")
        ruleset = record.ruleset_of(campaign)
        seats = await record.seats_of(session, campaign.id)
        rule = ruleset.seat_rule(campaign.options, campaign.files)
        if not rule.minimum <= len(seats) <= rule.maximum:
            raise ServiceError(f"{ruleset.title} needs {rule.minimum}-{rule.maximum} seats; "
                               f"**{campaign.name}** has {len(seats)}")
        dice = record.dice_of(campaign, "setup")
        try:
            state = ruleset.setup(Setup(tuple(s.name for s in seats), campaign.options, dice, campaign.files,
                                        frozenset(s.name for s in seats if s.automatic), campaign.name))
        except RulesError as exc:
            raise ServiceError(f"the campaign cannot start: {exc}") from None
        campaign.status = CampaignStatus.RUNNING
        campaign.started_at = services.clock.now()
        campaign.state = ruleset.dump(state)
        phase = ruleset.phase(state)
        record.log(session, campaign, services, kind="setup", actor="GM", actor_user_id=caller.user_id,
                   visibility=Visibility.everyone(),
                   body={"ruleset": ruleset.id, "version": ruleset.version, "options": campaign.options,
                         "seats": [s.name for s in seats], "commitment": campaign.commitment,
                         "rolls": [r.dump() for r in dice.rolls]})
        roster = ", ".join(f"**{s.name}**" + (f" (<@{s.user_id}>)" if s.user_id else " (automatic)")
                           for s in seats)
        intro = (f"Seats: {roster}.\n"
                 f"Dice commitment (SHA-256 of the secret seed, revealed at the end): `{campaign.commitment}`")
        if CampaignSettings.load(campaign.settings).digest == "daily":  # the commitment cannot wait for midnight
            record.post(session, campaign, services, "thread", f"⚔️ **{campaign.name}** begins. {intro}")
            intro = ""
        await steps.enter_phase(session, services, campaign, ruleset, state, phase, first=True, intro=intro)
    return Reply(f"**{campaign.name}** has started: {phase.label}.", campaign_id=campaign.id)


async def status(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        session, campaign = tx.session, tx.campaign
        lines = [f"**{campaign.name}** — {campaign.ruleset} — {campaign.status}"]
        if campaign.status == CampaignStatus.LOBBY:
            seats = await seat_rows.roster(session, campaign.id)
            rule = record.ruleset_of(campaign).seat_rule(campaign.options, campaign.files)
            names = ", ".join(s.name + (" (automatic)" if s.automatic else "") for s in seats) or "none yet"
            lines.append(f"Seats ({len(seats)}/{rule.maximum}, at least {rule.minimum}): {names}")
            if rule.names:
                free = [n for n in rule.names if n not in {s.name for s in seats}]
                lines.append(f"Free seats: {', '.join(free) or 'none'}")
            return Reply("\n".join(lines), campaign_id=campaign.id, card="status")
        if campaign.status != CampaignStatus.RUNNING:
            lines.append(f"Last phase: **{campaign.phase_label}**")
            return Reply("\n".join(lines), campaign_id=campaign.id, card="status")
        ruleset = record.ruleset_of(campaign)
        state = record.state_of(campaign, ruleset, shared=True)  # read only: the cached decode
        phase = ruleset.phase(state)
        lines.append(f"Phase: **{phase.label}**")
        if campaign.paused_at:  # the clock is stopped: a countdown would mislead
            parked = await steps.parked_deadline_left(session, campaign)
            left = f"; the deadline has {format_span(parked)} left" if parked is not None else ""
            lines.append(f"⏸️ Paused since <t:{int(campaign.paused_at.timestamp())}:F>{left} (`/gm resume`)")
        elif campaign.deadline:
            ts = int(campaign.deadline.timestamp())
            lines.append(f"Deadline: <t:{ts}:F> (<t:{ts}:R>)")
        if phase.window is Window.ORDERS:
            for seat in await order_rows.roster_sent(session, campaign.id, phase.key):  # seats and who sent orders
                if seat.name in phase.waiting:
                    mark = "✅ submitted" if seat.sent else "⏳ not yet"
                    lines.append(f"{mark} — **{seat.name}**")
        elif phase.window is Window.TURN:
            lines.append("Waiting for: " + ", ".join(f"**{s}**" for s in sorted(phase.waiting)))
            lines.append(ruleset.view(state, Viewer.spectator()).summary)
        elif phase.window is Window.GM:
            lines.append("Waiting for the GM's ruling.")
        return Reply("\n".join(lines), campaign_id=campaign.id, card="status")


async def list_campaigns(services: Services, caller: Caller) -> Reply:
    async with services.db.read() as session:
        rows = await campaign_rows.in_guild(session, caller.guild_id)
        if not rows:
            return Reply("No campaigns in this server yet: `/campaign create`.")
        lines = [f"• **{c.name}** — {c.ruleset}, {c.status}" + (f", {c.phase_label}" if c.phase_label else "")
                 + f", in <#{c.channel_id}>" for c in rows]
        return Reply("\n".join(lines))


async def follow(services: Services, caller: Caller, campaign_name: str | None, *, on: bool) -> Reply:
    async with campaign_tx(services, caller, campaign_name, for_update=False) as tx:
        session, campaign = tx.session, tx.campaign
        if on:
            await followers.add(session, campaign.id, caller.user_id)
            record.post(session, campaign, services, "thread", "", components={"add_users": [caller.user_id]})
            text = f"You follow **{campaign.name}**: its thread now shows in your channel list."
        else:
            await followers.remove(session, campaign.id, caller.user_id)
            record.post(session, campaign, services, "thread", "", components={"remove_users": [caller.user_id]})
            text = f"You no longer follow **{campaign.name}**."
    return Reply(text, campaign_id=campaign.id, thread_id=campaign.thread_id)


async def end(services: Services, caller: Caller, campaign_name: str | None, *,
              confirmation: int | None = None) -> Reply:
    """Ask the GM to confirm (the seed is revealed and the game is over for good); confirmed, end it."""
    async with campaign_tx(services, caller, campaign_name) as tx:
        session, campaign = tx.session, tx.campaign
        require_gm(campaign, caller)
        if campaign.status == CampaignStatus.ENDED:
            raise ServiceError(f"**{campaign.name}** has already ended")
        if confirmation is None:
            return await confirmations.ask(
                session, services, caller, campaign, "campaign end", {},
                f"End **{campaign.name}** for good? Its dice seed is revealed to everyone, and it cannot be undone.",
                "End the campaign")
        await confirmations.claim(session, services, confirmation)
        state: Any = None
        ruleset = record.ruleset_of(campaign)
        if campaign.state is not None:
            state = record.state_of(campaign, ruleset)
        await steps.finish(session, services, campaign, ruleset, state, reason="the GM ended it")
    return Reply(f"**{campaign.name}** has ended; the seed is revealed in its thread.", campaign_id=campaign.id)


@confirmations.doer("campaign end")
async def _end_confirmed(services: Services, caller: Caller, campaign: str, args: dict[str, Any],
                         confirmation: int) -> Reply:
    return await end(services, caller, campaign, confirmation=confirmation)


async def for_autocomplete(services: Services, caller: Caller, prefix: str) -> list[str]:
    async with services.db.read() as session:
        return await campaign_rows.names_starting(session, caller.guild_id, prefix)


async def free_seats(services: Services, caller: Caller, campaign_name: str | None) -> list[str]:
    """Seat names still free to join (fixed-name rulesets only)."""
    async with services.db.read() as session:
        try:
            campaign = await find_campaign(session, caller, campaign_name)
        except ServiceError:
            return []
        rule = record.ruleset_of(campaign).seat_rule(campaign.options, campaign.files)
        taken = {s.name for s in await record.seats_of(session, campaign.id)}
        return [n for n in rule.names if n not in taken]
