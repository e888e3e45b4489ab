"""A player's undo: take back your own last action until new information appears — a roll, a reveal, another
seat acting, the window closing (the rule Rally the Troops uses). Orders are simply put back as they were until
the window resolves. Everything else is the GM's rollback."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import record, timers
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.quoting import clip
from bot.service.replies import Reply
from bot.service.unit import CampaignTx, campaign_tx
from bot.store import orders as order_rows
from bot.store.models import Campaign, CampaignStatus, LogEntry, OrderStatus, Seat, UndoPoint
from engine.core import Event, OrderCheck, Phase, Viewer, Visibility, Window

LOOK_BACK = 200  # log entries read to explain why an action can no longer be taken back
SHOWN_BACK = 20  # orders quoted back when an undo restores them (`/orders list` shows them all)
STANDS = "It stands; the GM can still roll the phase back (`/gm rollback`)."


async def remember(session: AsyncSession, services: Services, campaign: Campaign, seat: str, action: str,
                   before: dict[str, Any], *, takes_back: bool) -> None:
    """After a player's action: keep the state before it while it may be taken back (one per campaign: any
    later entry in the log ends the window anyway), or forget the last one."""
    point = await session.get(UndoPoint, campaign.id)
    if not takes_back:
        if point is not None:
            await session.delete(point)
        return
    values = {"seat": seat, "log_seq": campaign.log_seq, "phase_key": campaign.phase_key or "", "action": action,
              "state": before, "at": services.clock.now()}
    if point is None:
        session.add(UndoPoint(campaign_id=campaign.id, **values))
    else:
        for key, value in values.items():
            setattr(point, key, value)


async def undo(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name) as tx:
        seat = tx.require_seat()
        if tx.campaign.status != CampaignStatus.RUNNING:
            raise ServiceError(f"**{tx.campaign.name}** is not running")
        phase = tx.ruleset.phase(tx.state)
        if phase.window is Window.ORDERS and seat.name in phase.waiting:
            return await _orders_back(tx, phase, seat)
        return await _action_back(tx, seat)


async def _action_back(tx: CampaignTx, seat: Seat) -> Reply:
    campaign, session = tx.campaign, tx.session
    point = await session.get(UndoPoint, campaign.id)
    if point is None or point.seat != seat.name or point.log_seq != campaign.log_seq \
            or point.phase_key != campaign.phase_key:
        raise ServiceError(await why_not(session, campaign, seat.name))
    action, undoes = point.action, point.log_seq
    campaign.state = point.state
    state = tx.ruleset.load(point.state)
    phase = tx.ruleset.phase(state)
    campaign.phase_label = phase.label
    await session.delete(point)
    await tx.log(kind="undo", visibility=Visibility.to(seat.name), body={"undoes": undoes, "action": action})
    tx.post("gm", f"↩️ **{seat.name}** took back `{clip(action, 100)}`.")
    viewer = Viewer.of_seat(seat.name)
    actions = tx.ruleset.view(state, viewer).actions if seat.name in phase.waiting else ()
    return Reply(f"↩️ You took back `{clip(action, 100)}`: it is as if it never happened. Your turn goes on.",
                 campaign_id=campaign.id, phase_key=phase.key, actions=tuple(actions))


async def why_not(session: AsyncSession, campaign: Campaign, seat: str) -> str:
    """Why the seat's last action can no longer be taken back, in the player's words."""
    rows = await session.scalars(select(LogEntry).where(LogEntry.campaign_id == campaign.id)
                                 .order_by(LogEntry.seq.desc()).limit(LOOK_BACK))
    entries = sorted(rows, key=lambda e: e.seq)
    undone = record.undone_seqs(entries)
    mine = [e for e in entries if e.kind == "action" and e.actor == seat and e.actor_user_id is not None
            and e.seq not in undone]
    if not mine:
        if any(e.kind == "undo" and e.actor == seat for e in entries):
            return "you already took back your last action; one step back is all a player may take"
        return "you have no action of yours to take back"
    last = mine[-1]
    what = f"your last action (`{clip(str(last.body.get('action', '')), 60)}`)"
    ruleset = record.ruleset_of(campaign)
    if ruleset.reveals([Event.load(e) for e in last.body.get("events", [])]):
        return f"{what} revealed something hidden, so it cannot be taken back. {STANDS}"
    if last.body.get("rolls"):
        return f"{what} rolled dice, so it cannot be taken back. {STANDS}"
    for entry in entries:
        if entry.seq <= last.seq or entry.seq in undone or entry.kind == "undo":
            continue
        if entry.phase_key != last.phase_key or entry.kind == "resolution":
            break
        if entry.kind == "roll":
            return f"a roll came after {what}: new information is out. {STANDS}"
        if entry.kind in ("action", "gm-action") and entry.actor != seat:
            who = "the GM" if entry.kind == "gm-action" or entry.actor == "GM" else f"**{entry.actor}**"
            return f"{who} has acted since {what}. {STANDS}"
        if entry.kind == "action":
            return f"Herald acted for you after {what}. {STANDS}"
        return f"the GM has changed something since {what} ({entry.kind}). {STANDS}"
    return f"the window of {what} has closed (the game moved on to **{campaign.phase_label}**). {STANDS}"


async def _orders_back(tx: CampaignTx, phase: Phase, seat: Seat) -> Reply:
    """Orders: put them back as they were before the last submission or withdrawal of this window."""
    campaign, session = tx.campaign, tx.session
    rows = await session.scalars(select(LogEntry).where(
        LogEntry.campaign_id == campaign.id, LogEntry.phase_key == phase.key, LogEntry.actor == seat.name,
        LogEntry.kind.in_(("orders", "withdraw", "undo"))).order_by(LogEntry.seq))
    entries = list(rows)
    undone = record.undone_seqs(entries)
    changes = [e for e in entries if e.kind in ("orders", "withdraw") and e.seq not in undone]
    if not changes:
        raise ServiceError(f"you have sent no orders for **{phase.label}** to take back")
    last, earlier = changes[-1], (changes[-2] if len(changes) > 1 else None)
    now = tx.services.clock.now()
    if earlier is not None and earlier.kind == "orders":
        await order_rows.save(session, campaign_id=campaign.id, seat=seat.name, phase_key=phase.key,
                              text=earlier.body["text"], checks=earlier.body["checks"], now=now)
        stand = [c.canonical or c.text for c in map(OrderCheck.load, earlier.body["checks"]) if c.accepted]
        more = f"\n… and {len(stand) - SHOWN_BACK} more" if len(stand) > SHOWN_BACK else ""
        text = ("your earlier orders stand again (as understood):\n"
                + "\n".join(f"> {line}" for line in stand[:SHOWN_BACK]) + more)
    else:  # nothing before it in this window: no orders stand
        row = await order_rows.open_one(session, campaign.id, seat.name, phase.key)
        if row is not None:
            row.status = OrderStatus.WITHDRAWN
            row.updated_at = now
        await timers.clear_kind(session, campaign, "all-in")
        text = "you have no orders in now."
    await tx.log(kind="undo", visibility=Visibility.to(seat.name), body={"undoes": last.seq, "took_back": last.kind})
    took = "submission" if last.kind == "orders" else "withdrawal"
    return Reply(f"↩️ Took back your last {took} for **{phase.label}**: {text}\nYou can change them until the "
                 f"window resolves.", campaign_id=campaign.id)
