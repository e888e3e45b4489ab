"""Orders: submit, check, list and withdraw; private to the seat and the GM until the window resolves."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import record, timers
from bot.service.campaign_settings import CampaignSettings
from bot.service.context import Caller, Services
from bot.service.errors import NotAllowed, ServiceError
from bot.service.lookup import find_campaign, is_gm, require_seat
from bot.service.quoting import clip
from bot.service.record import wake_after_commit
from bot.service.replies import Reply
from bot.store.models import Campaign, OrderSet, Seat, Timer
from engine.core import OrderCheck, Phase, RulesError, Verdict, Visibility, Window

MAX_ORDERS = 20_000      # characters in one submission (README, "Orders")
MAX_ORDER_LINES = 500    # lines in one submission
FORM_LIMIT = 4000        # what Discord's form field holds; longer orders go by file
MARK = {Verdict.ACCEPTED: "✅", Verdict.WARNING: "⚠️", Verdict.FLAGGED: "🚩", Verdict.REJECTED: "❌"}


def verdict_lines(checks: list[OrderCheck]) -> str:
    out = []
    for c in checks:  # a refused line is quoted back clipped: a 5,000-character typo needs no 5,000-character echo
        line = f"{MARK[c.verdict]} {c.line}: "
        if c.verdict is Verdict.REJECTED:
            line += f"`{clip(c.text, 200)}` — {clip(c.message, 1000, one_line=False)}"
        else:
            line += f"`{c.canonical}`" + (f" — {clip(c.message, 1000, one_line=False)}" if c.message else "")
        out.append(line)
    return "\n".join(out)


async def _window(session: AsyncSession, campaign: Campaign, seat: Seat) -> tuple[Phase, object]:
    if campaign.status != "running":
        raise ServiceError(f"**{campaign.name}** is not running")
    ruleset = record.ruleset_of(campaign)
    state = record.state_of(campaign, ruleset)
    phase = ruleset.phase(state)
    if phase.window is not Window.ORDERS:
        raise ServiceError(f"no orders are being taken now ({phase.label})")
    if seat.name not in phase.waiting:
        raise ServiceError(f"**{seat.name}** gives no orders in {phase.label}")
    return phase, state


def clean(text: str) -> str:
    """Orders as stored: NULs dropped (PostgreSQL text cannot hold them), line ends made plain."""
    return text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")


def _check(campaign: Campaign, state: object, seat: str, text: str) -> list[OrderCheck]:
    if not text.strip():
        raise ServiceError("your orders are empty")
    if len(text) > MAX_ORDERS:
        raise ServiceError(f"orders are at most {MAX_ORDERS:,} characters; yours are {len(text):,}. "
                           f"Nothing was saved.")
    lines = sum(1 for line in text.split("\n") if line.strip())
    if lines > MAX_ORDER_LINES:
        raise ServiceError(f"orders are at most {MAX_ORDER_LINES} lines; yours are {lines}. Nothing was saved.")
    try:
        return record.ruleset_of(campaign).check(state, seat, text)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None


async def submit(services: Services, caller: Caller, text: str, campaign_name: str | None) -> Reply:
    text = clean(text)
    async with services.db.write() as session:
        campaign = await find_campaign(session, caller, campaign_name, for_update=True)
        seat = await require_seat(session, campaign, caller)
        phase, state = await _window(session, campaign, seat)
        checks = _check(campaign, state, seat.name, text)
        verdicts = verdict_lines(checks)
        if not any(c.accepted for c in checks):
            return Reply(f"Nothing in these orders could be accepted, so your earlier orders (if any) stand:\n"
                         f"{verdicts}", campaign_id=campaign.id)
        now = services.clock.now()
        row = await session.scalar(select(OrderSet).where(
            OrderSet.campaign_id == campaign.id, OrderSet.seat == seat.name, OrderSet.phase_key == phase.key))
        if row is None:
            row = OrderSet(campaign_id=campaign.id, seat=seat.name, phase_key=phase.key, submitted_at=now)
            session.add(row)
        row.text, row.checks, row.status, row.updated_at = text, [c.dump() for c in checks], "open", now
        record.log(session, campaign, services, kind="orders", actor=seat.name, actor_user_id=caller.user_id,
                   visibility=Visibility.to(seat.name), body={"text": text, "checks": row.checks})
        await session.flush()
        all_in = await _all_in(session, campaign, phase)
        settings = CampaignSettings.load(campaign.settings)
        if all_in and settings.auto_advance in ("all-in", "both"):
            session.add(Timer(campaign_id=campaign.id, kind="all-in", phase_key=phase.key, due_at=now, payload={}))
            wake_after_commit(session, services.timers_changed)
        if all_in:
            record.post(session, campaign, services, "gm",
                        f"📬 Every seat has sent orders for **{phase.label}**.")
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


async def _all_in(session: AsyncSession, campaign: Campaign, phase: Phase) -> bool:
    seats = {s.name for s in await record.seats_of(session, campaign.id) if not s.automatic}
    expected = seats & set(phase.waiting)
    done = set(await session.scalars(select(OrderSet.seat).where(
        OrderSet.campaign_id == campaign.id, OrderSet.phase_key == phase.key, OrderSet.status == "open")))
    return bool(expected) and expected <= done


async def check(services: Services, caller: Caller, text: str, campaign_name: str | None) -> Reply:
    text = clean(text)
    async with services.db.read() as session:
        campaign = await find_campaign(session, caller, campaign_name)
        seat = await require_seat(session, campaign, caller)
        _, state = await _window(session, campaign, seat)
        checks = _check(campaign, state, seat.name, text)
    return Reply("Dry run — nothing was saved.\n" + verdict_lines(checks) + _cut_warning(text),
                 campaign_id=campaign.id)


async def show(services: Services, caller: Caller, seat_name: str | None, campaign_name: str | None) -> Reply:
    async with services.db.read() as session:
        campaign = await find_campaign(session, caller, campaign_name)
        if seat_name:
            if not is_gm(campaign, caller):
                own = await require_seat(session, campaign, caller)
                if own.name.lower() != seat_name.strip().lower():
                    raise NotAllowed("orders are private: you can only see your own")
            seats = [await record.seat_named(session, campaign, seat_name)]
        elif is_gm(campaign, caller) and not await _seated(session, campaign, caller):
            seats = await record.seats_of(session, campaign.id)
        else:
            seats = [await require_seat(session, campaign, caller)]
        rows = {r.seat: r for r in await session.scalars(select(OrderSet).where(
            OrderSet.campaign_id == campaign.id, OrderSet.phase_key == campaign.phase_key,
            OrderSet.status == "open"))}
        parts = []
        for seat in seats:
            row = rows.get(seat.name)
            if row is None:
                parts.append(f"**{seat.name}**: no orders yet for {campaign.phase_label}.")
            else:
                checks = [OrderCheck.load(c) for c in row.checks]
                parts.append(f"**{seat.name}** — {campaign.phase_label}:\n{verdict_lines(checks)}")
    return Reply("\n\n".join(parts), campaign_id=campaign.id)


async def _seated(session: AsyncSession, campaign: Campaign, caller: Caller) -> bool:
    return await session.scalar(select(Seat.id).where(Seat.campaign_id == campaign.id,
                                                      Seat.user_id == caller.user_id)) is not None


async def current_text(services: Services, caller: Caller, campaign_name: str | None) -> tuple[int, str]:
    """The caller's orders so far, to pre-fill the orders form."""
    async with services.db.read() as session:
        campaign = await find_campaign(session, caller, campaign_name)
        seat = await require_seat(session, campaign, caller)
        row = await session.scalar(select(OrderSet).where(
            OrderSet.campaign_id == campaign.id, OrderSet.seat == seat.name,
            OrderSet.phase_key == campaign.phase_key, OrderSet.status == "open"))
        current = row.text if row else ""
    if len(current) > FORM_LIMIT:  # the form would cut them: never show a form that drops lines
        raise ServiceError(f"your orders so far are {len(current):,} characters, more than the form holds "
                           f"({FORM_LIMIT:,}): send them as a file with `/orders submit file:`, "
                           f"or see them with `/orders list`")
    return campaign.id, current


async def withdraw(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    async with services.db.write() as session:
        campaign = await find_campaign(session, caller, campaign_name, for_update=True)
        seat = await require_seat(session, campaign, caller)
        phase, _ = await _window(session, campaign, seat)
        row = await session.scalar(select(OrderSet).where(
            OrderSet.campaign_id == campaign.id, OrderSet.seat == seat.name, OrderSet.phase_key == phase.key,
            OrderSet.status == "open"))
        if row is None:
            raise ServiceError(f"you have no orders to withdraw for {phase.label}")
        row.status = "withdrawn"
        row.updated_at = services.clock.now()
        await timers.clear_kind(session, campaign, "all-in")
        record.log(session, campaign, services, kind="withdraw", actor=seat.name, actor_user_id=caller.user_id,
                   visibility=Visibility.to(seat.name), body={})
    return Reply(f"Your orders for **{phase.label}** are withdrawn.", campaign_id=campaign.id)
