"""Where am I needed: every campaign of yours, in every server, with what it waits on from you; and how you want
to hear that it is your turn (a DM, a ping in the thread, or nothing)."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import record
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.replies import Reply
from bot.service.unit import campaign_tx
from bot.store import orders as order_rows
from bot.store.models import Campaign, CampaignStatus, Seat, TurnNotice
from engine.core import RulesError, Window

NOTICES = ("dm", "ping", "off")
SHOWN = 50  # campaigns listed; a person in more is told how many were left out


async def mine(services: Services, caller: Caller) -> Reply:
    """Every campaign the caller plays or runs, across servers, those that need them first."""
    async with services.db.read() as session:
        rows = (await session.execute(
            select(Campaign, Seat).outerjoin(Seat, (Seat.campaign_id == Campaign.id) & (Seat.user_id == caller.user_id))
            .where(Campaign.status != CampaignStatus.ENDED,
                   or_(Seat.id.is_not(None), Campaign.gm_user_id == caller.user_id))
            .order_by(Campaign.id))).all()
        lines: list[tuple[bool, str]] = []
        for campaign, seat in rows:
            needed, what = await _waits_on(session, campaign, seat, caller)
            role = f"as **{seat.name}**" if seat is not None else "as GM"
            lines.append((needed, f"• **{campaign.name}** ({campaign.ruleset}, in <#{campaign.channel_id}>) {role}: "
                                  f"{what}"))
    if not lines:
        return Reply("You play in no running campaign, in any server. Join one with `/campaign join`.")
    lines.sort(key=lambda item: not item[0])  # what needs you first, each group in the order joined
    count = sum(1 for n, _ in lines if n)
    head = (f"**{count} of your {len(lines)} campaign(s) need you:**" if count
            else f"Nothing needs you now in your {len(lines)} campaign(s).")
    text = "\n".join([head, *(line for _, line in lines[:SHOWN])])
    if len(lines) > SHOWN:
        text += f"\n… and {len(lines) - SHOWN} more."
    return Reply(text)


async def _waits_on(session: AsyncSession, campaign: Campaign, seat: Seat | None, caller: Caller) -> tuple[bool, str]:
    """(whether it needs the caller now, what it waits on from them)."""
    gm = campaign.gm_user_id == caller.user_id
    if campaign.status == CampaignStatus.LOBBY:
        if gm:
            return True, "in the lobby: start it with `/campaign start` when the seats are filled"
        return False, "in the lobby, waiting for the GM to start it"
    try:
        ruleset = record.ruleset_of(campaign)
        phase = ruleset.phase(record.state_of(campaign, ruleset, shared=True))
    except (ServiceError, RulesError):
        return False, "this Herald cannot read it (see `/campaign status` in its server)"
    when = f"<t:{int(campaign.deadline.timestamp())}:R>" if campaign.deadline is not None else ""
    due = f", due {when}" if when else ""
    if seat is not None and seat.name in phase.waiting:
        if phase.window is Window.ORDERS:
            sent = await order_rows.open_one(session, campaign.id, seat.name, phase.key)
            if sent is None:
                return True, f"📜 your orders for **{phase.label}** are {f'due {when}' if when else 'awaited'}"
            until = f" until the deadline, {when}" if when else ""
            return False, f"✅ your orders for **{phase.label}** are in (you can change them{until})"
        if phase.window is Window.TURN:
            return True, f"🎯 your turn — **{phase.label}**{due}"
    if gm:
        if phase.window is Window.GM:
            return True, f"⚖️ your ruling is needed — **{phase.label}** (`/gm act`)"
        if phase.window is Window.ORDERS and await order_rows.all_in(session, campaign.id, phase.key, phase.waiting):
            return True, f"📬 every seat is in for **{phase.label}**: `/gm advance`"
    waiting = ", ".join(f"**{s}**" for s in sorted(phase.waiting)) or "the GM"
    return False, f"nothing from you — **{phase.label}** waits for {waiting}{due}"


async def notify(services: Services, caller: Caller, how: str, campaign_name: str | None) -> Reply:
    """Choose a personal 'your turn' notice for one campaign you play in: dm, ping, or off (not even a ping)."""
    how = how.strip().lower()
    if how not in NOTICES:
        raise ServiceError("choose `dm`, `ping` or `off`")
    async with campaign_tx(services, caller, campaign_name) as tx:
        seat = tx.require_seat()
        row = await tx.session.get(TurnNotice, (tx.campaign.id, caller.user_id))
        if row is None:
            tx.session.add(TurnNotice(campaign_id=tx.campaign.id, user_id=caller.user_id, how=how))
        else:
            row.how = how
        if how == "off":
            text = (f"No notices from **{tx.campaign.name}** now: the thread names **{seat.name}** when it is your "
                    f"turn, without pinging you. `/campaign mine` shows what waits on you.")
        else:
            where = "by direct message" if how == "dm" else "with a ping in the campaign thread"
            text = (f"When **{tx.campaign.name}** waits for **{seat.name}** (your turn, or orders opening), Herald "
                    f"tells you {where}. Turn it off with `/campaign notify how:off`.")
    return Reply(text, campaign_id=tx.campaign.id)

