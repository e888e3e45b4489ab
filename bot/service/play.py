"""Playing and looking: act on your turn, roll dice, see the map, the history and your sheet."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from sqlalchemy import Integer, Text, bindparam, func, select, type_coerce, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import cache, record, steps
from bot.service.charts import pending_orders
from bot.service.context import Caller, Services
from bot.service.errors import NotAllowed, NotFound, ServiceError
from bot.service.lookup import find_campaign, is_gm, require_seat, viewer_of
from bot.service.replies import Reply
from bot.service.steps import Actor
from bot.service.summaries import roll_line, summary
from bot.store.models import Campaign, LogEntry, Snapshot
from engine.core import Dice, Event, OrderCheck, Roll, RulesError, Viewer, Visibility, new_seed

RENDER_SLOTS = cache.RENDER_SLOTS  # one limit for every render thread (this name kept for its importers)


def phase_tag(phase_key: str | None) -> str:
    """A short fingerprint of a phase, carried by action menus so a stale menu is recognised."""
    return hashlib.sha256((phase_key or "").encode()).hexdigest()[:8]


async def act(services: Services, caller: Caller, action: str, campaign_name: str | None, *,
              expected_tag: str | None = None) -> Reply:
    async with services.db.write() as session:
        campaign = await find_campaign(session, caller, campaign_name, for_update=True)
        seat = await require_seat(session, campaign, caller)
        if campaign.status != "running":
            raise ServiceError(f"**{campaign.name}** is not running")
        if expected_tag is not None and expected_tag != phase_tag(campaign.phase_key):
            raise ServiceError("that menu is out of date: the game has moved on. Use `/act` for the current one.")
        ruleset = record.ruleset_of(campaign)
        state = record.state_of(campaign, ruleset)
        dice = await record.act_dice(session, campaign)
        viewer = Viewer.of_seat(seat.name)
        try:
            step = ruleset.act(state, viewer, action, dice)
        except RulesError as exc:
            raise ServiceError(str(exc)) from None
        # the action's own text stays with its seat (a tactic chosen in secret, say); its events say what is public
        phase = await steps.record_step(session, services, campaign, ruleset, step, dice, kind="action",
                                        actor=Actor(seat.name, caller.user_id, viewer), body={"action": action},
                                        visibility=Visibility.to(seat.name))
        text = summary(step.events, dice.rolls, lambda v: v.allows(viewer)) or f"`{action}` done."
        actions = ruleset.view(step.state, viewer).actions if seat.name in phase.waiting else ()
    return Reply(text, campaign_id=campaign.id, phase_key=phase.key, actions=tuple(actions))


async def legal_actions(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    """What the caller may do now, as text and as actions for menus."""
    async with services.db.read() as session:
        campaign = await find_campaign(session, caller, campaign_name)
        if campaign.status != "running":
            raise ServiceError(f"**{campaign.name}** is not running")
        viewer = await viewer_of(session, campaign, caller)
        ruleset = record.ruleset_of(campaign)
        state = record.state_of(campaign, ruleset, shared=True)
        if viewer.kind == "spectator":
            raise NotAllowed(f"you have no seat in **{campaign.name}** (watch it with `/campaign follow`)")
        view = ruleset.view(state, viewer)
        if viewer.kind == "seat" and viewer.seat not in view.phase.waiting:
            waiting = ", ".join(f"**{s}**" for s in sorted(view.phase.waiting)) or "the GM"
            raise NotAllowed(f"not your turn: {view.phase.label} waits for {waiting}")
        if not view.actions:
            raise ServiceError("you have nothing to do right now")
    return Reply(view.summary, campaign_id=campaign.id, phase_key=view.phase.key, actions=view.actions)


async def roll(services: Services, caller: Caller, notation: str, private: bool,
               campaign_name: str | None) -> Reply:
    async with services.db.write() as session:
        try:
            campaign: Campaign | None = await find_campaign(session, caller, campaign_name, for_update=True)
        except NotFound:
            if campaign_name:
                raise
            campaign = None
        if campaign is None or campaign.status != "running":
            try:
                result = Dice(new_seed(), "roll").notation(notation, purpose=caller.name)
            except RulesError as exc:
                raise ServiceError(str(exc)) from None
            return Reply(f"🎲 **{caller.name}** rolls {result.text()}\n-# Not a campaign roll, so not logged.",
                         ephemeral=private)
        viewer = await viewer_of(session, campaign, caller)
        if not private:
            vis = Visibility.everyone()
        elif viewer.kind == "seat" and viewer.seat:
            vis = Visibility.to(viewer.seat)
        else:
            vis = Visibility.gm_only()
        campaign.roll_count += 1
        dice = record.dice_of(campaign, f"roll/{campaign.roll_count}")
        try:
            result = dice.notation(notation, purpose=str(viewer), visibility=vis)
        except RulesError as exc:
            raise ServiceError(str(exc)) from None
        record.log(session, campaign, services, kind="roll", actor=str(viewer), actor_user_id=caller.user_id,
                   visibility=vis, body={"rolls": [result.dump()], "events": []})
    return Reply(f"🎲 **{caller.name}** rolls {result.text()}\n-# {campaign.name}, roll #{campaign.roll_count}"
                 f" — from the campaign's committed seed, verifiable when it ends.", ephemeral=private,
                 campaign_id=campaign.id)


MAX_TURN = 2**31 - 1


async def _state_at(session: AsyncSession, campaign: Campaign, turn: int | None) -> tuple[dict[str, Any], str]:
    if turn is None or turn == campaign.turn:
        return campaign.state or {}, campaign.phase_label or ""
    if not 0 <= turn <= MAX_TURN:  # the database's integer column holds no more
        raise NotFound(f"**{campaign.name}** has no turn {turn} on record")
    shot = await session.scalar(select(Snapshot).where(
        Snapshot.campaign_id == campaign.id, Snapshot.turn == turn, Snapshot.undone.is_(False))
        .order_by(Snapshot.seq.desc()).limit(1))
    if shot is None:
        raise NotFound(f"**{campaign.name}** has no turn {turn} on record")
    return shot.state, shot.phase_label


async def map_image(services: Services, caller: Caller, turn: int | None, campaign_name: str | None) -> Reply:
    async with services.db.read() as session:
        campaign = await find_campaign(session, caller, campaign_name)
        if campaign.state is None:
            raise ServiceError(f"**{campaign.name}** has not started yet")
        viewer = await viewer_of(session, campaign, caller)
        data, label = await _state_at(session, campaign, turn)
        pending = await pending_orders(session, campaign, viewer) if turn in (None, campaign.turn) else []
    ruleset = record.ruleset_of(campaign)
    shown = campaign.turn if turn is None else turn
    if pending:  # the seat's own orders drawn on its map: not kept, orders change without a new version
        async with cache.RENDER_SLOTS:
            png = await asyncio.to_thread(lambda: ruleset.render_orders(ruleset.load(data), viewer, pending))
    else:
        # the PNG is kept per campaign version, turn and viewer (cache.render adds the viewer to the key)
        png = await cache.render(ruleset, data, viewer, key=(campaign.id, campaign.version_id, shown))
    if png is None:
        hint = " The GM can upload one with `/gm upload kind:regions`." if "regions" in ruleset.uploads else ""
        return Reply(f"**{campaign.name}** has no map.{hint}", campaign_id=campaign.id)
    return Reply(f"**{campaign.name}** — {label}", file=(f"{record.slug(campaign.name)}-map.png", png),
                 campaign_id=campaign.id)


class Entry(NamedTuple):
    """One log entry as /history reads it (its columns, not an ORM object: a busy turn has hundreds)."""

    seq: int
    kind: str
    actor: str
    turn: int
    visibility: dict[str, Any]
    body: dict[str, Any]


def entry_lines(entry: Entry | LogEntry, viewer: Viewer, *, undone: bool) -> list[str]:
    """What `viewer` may read of one log entry."""
    vis = Visibility.load(entry.visibility)
    events = [Event.load(e) for e in entry.body.get("events", [])]
    rolls = [Roll.load(r) for r in entry.body.get("rolls", [])]
    head = f"`#{entry.seq}` {entry.kind} — {entry.actor}"
    lines = []
    if vis.allows(viewer):
        if "action" in entry.body:
            head += f": `{entry.body['action']}`"
        if entry.kind == "orders":
            checks = [OrderCheck.load(c) for c in entry.body.get("checks", [])]
            lines += [f"> {c.canonical or c.text}" for c in checks if c.accepted]
        if entry.kind == "note":
            lines.append(entry.body.get("text", ""))
        if entry.kind == "rollback":
            head += f": back to {entry.body.get('to')}"
    lines += [e.text for e in events if e.visibility.allows(viewer)]
    lines += [roll_line(r) for r in rolls if r.visibility.allows(viewer) and r.kind != "shuffle"]
    if not lines and not vis.allows(viewer):
        return []
    if undone:
        head = "↩️ ~~" + head.replace("~", "") + "~~ (undone by a rollback)"
    return [head, *lines]


def _page_statement(*, rollbacks_by_turn: bool) -> Any:
    """One turn's entries and the rollbacks after them that may strike them through, in one statement built once
    (parameters: cid, turn).

    A rollback that undoes an entry of turn T comes after it and is logged at a turn <= T (it returns to a
    snapshot no later than the entry); the turns before T are fewer rows than the log after T for an early turn,
    more for a late one, so the rollbacks are looked for through the index of whichever is shorter (`+ 0` keeps
    SQLite, which has no statistics, off the other). The JSON columns come back as text, decoded off the loop
    for a big page."""
    t = LogEntry.__table__
    cid, turn = bindparam("cid", type_=Integer), bindparam("turn", type_=Integer)
    columns = (t.c.seq, t.c.kind, t.c.actor, t.c.turn, type_coerce(t.c.visibility, Text).label("visibility"),
               type_coerce(t.c.body, Text).label("body"))
    of_turn = select(*columns).where(t.c.campaign_id == cid, t.c.turn == turn)
    first = select(func.min(t.c.seq + 0)).where(t.c.campaign_id == cid, t.c.turn == turn).scalar_subquery()
    if rollbacks_by_turn:
        after = (t.c.turn < turn, t.c.seq + 0 > first)
    else:
        after = (t.c.seq > first, t.c.turn + 0 < turn)
    rollbacks = select(*columns).where(t.c.campaign_id == cid, t.c.kind == "rollback", *after)
    # no ORDER BY (rows are sorted in Python): asked for seq order, SQLite walks the whole log by seq instead
    return union_all(of_turn, rollbacks)


_PAGE_EARLY = _page_statement(rollbacks_by_turn=True)
_PAGE_LATE = _page_statement(rollbacks_by_turn=False)
OFF_LOOP_ENTRIES = 40  # a page longer than this is decoded and written in a thread (~50 µs an entry)


def _json(value: Any) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str | bytes) else dict(value)


def _entries(rows: Sequence[Any]) -> list[Entry]:
    return [Entry(r.seq, r.kind, r.actor, r.turn, _json(r.visibility), _json(r.body)) for r in rows]


async def turn_rows(session: AsyncSession, campaign_id: int, turn: int, *, current: int) -> Sequence[Any]:
    """One turn's log entries, from the (campaign_id, turn) index, with the rollbacks that came after them
    (few, and possibly turns later: they are what strike an undone entry through); JSON still undecoded.
    `current` is the campaign's turn now, to pick the shorter way to the rollbacks."""
    if not 0 <= turn <= MAX_TURN:  # the database's integer column holds no more
        return []
    statement = _PAGE_EARLY if turn * 2 < current else _PAGE_LATE
    return sorted((await session.execute(statement, {"cid": campaign_id, "turn": turn})).all(), key=lambda r: r.seq)


async def turn_entries(session: AsyncSession, campaign_id: int, turn: int, *, current: int) -> list[Entry]:
    """`turn_rows`, decoded."""
    return _entries(await turn_rows(session, campaign_id, turn, current=current))


def _page(rows: Sequence[Any], turn: int, viewer: Viewer) -> list[str]:
    """What `viewer` may read of one turn's rows, undone entries struck through."""
    entries = _entries(rows)
    undone = record.undone_seqs(cast("Sequence[LogEntry]", entries))  # it reads seq, kind and body only
    return [line for e in entries if e.turn == turn for line in entry_lines(e, viewer, undone=e.seq in undone)]


async def history(services: Services, caller: Caller, turn: int | None, campaign_name: str | None) -> Reply:
    async with services.db.read() as session:
        campaign = await find_campaign(session, caller, campaign_name)
        viewer = await viewer_of(session, campaign, caller)
        wanted = campaign.turn if turn is None else turn
        rows = await turn_rows(session, campaign.id, wanted, current=campaign.turn)
    if len(rows) > OFF_LOOP_ENTRIES:
        async with cache.RENDER_SLOTS:
            lines = await asyncio.to_thread(_page, rows, wanted, viewer)
    else:
        lines = _page(rows, wanted, viewer)
    if not lines:
        return Reply(f"Nothing on record for turn {wanted} of **{campaign.name}** that you may see.",
                     campaign_id=campaign.id)
    return Reply(f"**{campaign.name}** — turn {wanted}, as {viewer}:\n" + "\n".join(lines), campaign_id=campaign.id)


async def sheet(services: Services, caller: Caller, seat_name: str | None, campaign_name: str | None) -> Reply:
    async with services.db.read() as session:
        campaign = await find_campaign(session, caller, campaign_name)
        if campaign.state is None:
            raise ServiceError(f"**{campaign.name}** has not started yet")
        ruleset = record.ruleset_of(campaign)
        state = record.state_of(campaign, ruleset, shared=True)
        if seat_name:
            seat = await record.seat_named(session, campaign, seat_name)
            if not is_gm(campaign, caller):
                own = await require_seat(session, campaign, caller)
                if own.name != seat.name:
                    raise NotAllowed(f"**{seat.name}**'s sheet is private to that seat and the GM")
            viewer = Viewer.of_seat(seat.name)
        else:
            viewer = await viewer_of(session, campaign, caller)
        view = ruleset.view(state, viewer)
        title = f"**{campaign.name}** — {viewer if viewer.kind == 'seat' else viewer.kind}"
    return Reply(f"{title}\n{view.sheet or view.summary}", campaign_id=campaign.id)


async def orders_help(services: Services, caller: Caller, campaign_name: str | None) -> str:
    """The order grammar of the campaign here, if there is one and its ruleset documents one."""
    async with services.db.read() as session:
        try:
            campaign = await find_campaign(session, caller, campaign_name)
        except NotFound:
            return ""
    text = record.ruleset_by_id(campaign.ruleset).orders_help
    return f"\n\n**Orders in {campaign.name}** ({campaign.ruleset}):\n{text}" if text else ""
