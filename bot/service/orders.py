"""Orders: submit, check, list and withdraw; private to the seat and the GM until the window resolves."""

from __future__ import annotations

import asyncio

from bot.service import record, timers
from bot.service.campaign_settings import CampaignSettings
from bot.service.context import Caller, Services
from bot.service.errors import NotAllowed, ServiceError
from bot.service.quoting import clip
from bot.service.record import wake_after_commit
from bot.service.replies import Reply
from bot.service.unit import CampaignTx, campaign_tx
from bot.store import orders, seats
from bot.store.models import CampaignStatus, OrderStatus, Seat, Timer
from engine.core import OrderCheck, Phase, RulesError, Verdict, Visibility, Window

MAX_ORDERS = 20_000      # characters in one submission (README, "Orders")
MAX_ORDER_LINES = 500    # lines in one submission
FORM_LIMIT = 4000        # what Discord's form field holds; longer orders go by file
MARK = {Verdict.ACCEPTED: "✅", Verdict.WARNING: "⚠️", Verdict.FLAGGED: "🚩", Verdict.REJECTED: "❌"}


def verdict_lines(checks: list[OrderCheck], text: str = "") -> str:
    """One line a check; given the orders' text, an accepted line's own `# comment` follows it (an automatic
    seat's reason, or a player's note to self)."""
    written = text.splitlines()
    out = []
    for c in checks:  # a refused line is quoted back clipped: a 5,000-character typo needs no 5,000-character echo
        line = f"{MARK[c.verdict]} {c.line}: "
        if c.verdict is Verdict.REJECTED:
            line += f"`{clip(c.text, 200)}` — {clip(c.message, 1000, one_line=False)}"
        else:
            line += f"`{c.canonical}`" + (f" — {clip(c.message, 1000, one_line=False)}" if c.message else "")
            own = written[c.line - 1] if 0 < c.line <= len(written) else ""
            if "#" in own and own.split("#", 1)[1].strip():
                line += f" # {clip(own.split('#', 1)[1].strip(), 200)}"
        out.append(line)
    return "\n".join(out)


def _window(tx: CampaignTx) -> tuple[Phase, Seat]:
    """The order window open now, and the caller's seat, which must be one it waits for."""
    campaign = tx.campaign
    seat = tx.require_seat()
    if campaign.status != CampaignStatus.RUNNING:
        raise ServiceError(f"**{campaign.name}** is not running")
    phase = tx.ruleset.phase(tx.state)
    if phase.window is not Window.ORDERS:
        raise ServiceError(f"no orders are being taken now ({phase.label})")
    if seat.name not in phase.waiting:
        raise ServiceError(f"**{seat.name}** gives no orders in {phase.label}")
    return phase, seat


def clean(text: str) -> str:
    """Orders as stored: NULs dropped (PostgreSQL text cannot hold them), line ends made plain."""
    return text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")


async def _check(tx: CampaignTx, seat: str, text: str) -> list[OrderCheck]:
    if not text.strip():
        raise ServiceError("your orders are empty")
    if len(text) > MAX_ORDERS:
        raise ServiceError(f"orders are at most {MAX_ORDERS:,} characters; yours are {len(text):,}. "
                           f"Nothing was saved.")
    lines = sum(1 for line in text.split("\n") if line.strip())
    if lines > MAX_ORDER_LINES:
        raise ServiceError(f"orders are at most {MAX_ORDER_LINES} lines; yours are {lines}. Nothing was saved.")
    try:
        if tx.ruleset.slow_checks:  # a check that counts battles' odds takes CPU: off the event loop
            return await asyncio.to_thread(tx.ruleset.check, tx.state, seat, text)
        return tx.ruleset.check(tx.state, seat, text)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None


async def submit(services: Services, caller: Caller, text: str, campaign_name: str | None) -> Reply:
    text = clean(text)
    async with campaign_tx(services, caller, campaign_name) as tx:
        campaign = tx.campaign
        phase, seat = _window(tx)
        checks = await _check(tx, seat.name, text)
        verdicts = verdict_lines(checks)
        if not any(c.accepted for c in checks):
            return Reply(f"Nothing in these orders could be accepted, so your earlier orders (if any) stand:\n"
                         f"{verdicts}", campaign_id=campaign.id)
        now = services.clock.now()
        dumped = [c.dump() for c in checks]
        all_in = await orders.save_and_check(tx.session, campaign_id=campaign.id, seat=seat.name,
                                             phase_key=phase.key, text=text, checks=dumped, now=now,
                                             waiting=phase.waiting)
        await tx.log(kind="orders", visibility=Visibility.to(seat.name), body={"text": text, "checks": dumped})
        if all_in and CampaignSettings.load(campaign.settings).auto_advance in ("all-in", "both"):
            tx.session.add(Timer(campaign_id=campaign.id, kind="all-in", phase_key=phase.key, due_at=now,
                                 payload={}))
            wake_after_commit(tx.session, services.timers_changed)
        if all_in:
            tx.post("gm", f"📬 Every seat has sent orders for **{phase.label}**.")
    rejected = sum(1 for c in checks if not c.accepted)
    head = f"Orders for **{phase.label}** saved ({len(checks) - rejected} accepted"
    head += f", {rejected} rejected — fix and submit again" if rejected else ""
    head += "). You can change them until the turn resolves.\n"
    return Reply(head + verdicts + _cut_warning(text), campaign_id=campaign.id)


def _cut_warning(text: str) -> str:
    """A form holds FORM_LIMIT characters and Discord cuts a longer paste without a word: say so."""
    if len(text) != FORM_LIMIT:
        return ""
    return (f"\n⚠️ These orders are exactly {FORM_LIMIT:,} characters, all the form holds: if you pasted more, "
            f"Discord cut the rest. Send longer orders as a file with `/orders submit file:`.")


async def check(services: Services, caller: Caller, text: str, campaign_name: str | None) -> Reply:
    text = clean(text)
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        _, seat = _window(tx)
        checks = await _check(tx, seat.name, text)
    return Reply("Dry run — nothing was saved.\n" + verdict_lines(checks) + _cut_warning(text),
                 campaign_id=tx.campaign.id)


async def show(services: Services, caller: Caller, seat_name: str | None, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        campaign, session = tx.campaign, tx.session
        if campaign.phase_key is None:
            raise ServiceError(f"**{campaign.name}** has not started yet: orders open with `/campaign start`")
        if seat_name:
            own = None if tx.is_gm else tx.require_seat()
            named = await record.seat_named(session, campaign, seat_name)  # forgiving: `eng` is England
            if own is not None and own.name != named.name:
                raise NotAllowed("orders are private: you can only see your own")
            shown = [named]
        elif tx.is_gm and tx.seat is None:
            shown = await seats.of_campaign(session, campaign.id)
        else:
            shown = [tx.require_seat()]
        rows = await orders.open_all(session, campaign.id, campaign.phase_key)
        parts = []
        for seat in shown:
            row = rows.get(seat.name)
            if row is None:
                parts.append(f"**{seat.name}**: no orders yet for {campaign.phase_label}.")
            else:
                checks = [OrderCheck.load(c) for c in row.checks]
                parts.append(f"**{seat.name}** — {campaign.phase_label}:\n{verdict_lines(checks, row.text)}")
    return Reply("\n\n".join(parts), campaign_id=campaign.id)


async def current_text(services: Services, caller: Caller, campaign_name: str | None) -> tuple[int, str]:
    """The caller's orders so far, to pre-fill the orders form."""
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        seat = tx.require_seat()
        row = await orders.open_one(tx.session, tx.campaign.id, seat.name, tx.campaign.phase_key)
        current = row.text if row else ""
    if len(current) > FORM_LIMIT:  # the form would cut them: never show a form that drops lines
        raise ServiceError(f"your orders so far are {len(current):,} characters, more than the form holds "
                           f"({FORM_LIMIT:,}): send them as a file with `/orders submit file:`, "
                           f"or see them with `/orders list`")
    return tx.campaign.id, current


async def withdraw(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name) as tx:
        phase, seat = _window(tx)
        row = await orders.open_one(tx.session, tx.campaign.id, seat.name, phase.key)
        if row is None:
            raise ServiceError(f"you have no orders to withdraw for {phase.label}")
        row.status = OrderStatus.WITHDRAWN
        row.updated_at = services.clock.now()
        await timers.clear_kind(tx.session, tx.campaign, "all-in")
        await tx.log(kind="withdraw", visibility=Visibility.to(seat.name), body={})
    return Reply(f"Your orders for **{phase.label}** are withdrawn.", campaign_id=tx.campaign.id)
