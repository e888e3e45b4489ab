"""Playing and looking: act on your turn, roll dice, see the map, the history and your sheet."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from sqlalchemy import Integer, Text, bindparam, func, select, type_coerce, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import cache, record
from bot.service.charts import pending_orders
from bot.service.context import Caller, Services
from bot.service.errors import NotAllowed, NotFound, ServiceError
from bot.service.guide import grammar_blocks
from bot.service.lookup import find_campaign, viewer_of
from bot.service.replies import Reply
from bot.service.steps import Actor, forgiving_act
from bot.service.summaries import roll_line, summary
from bot.service.unit import campaign_tx
from bot.store import log as log_rows
from bot.store.db import session_rows
from bot.store.models import Campaign, LogEntry, Snapshot
from engine.core import Dice, Event, OrderCheck, Roll, RulesError, Viewer, Visibility, new_seed

RENDER_SLOTS = cache.RENDER_SLOTS  # one limit for every render thread (this name kept for its importers)


def phase_tag(phase_key: str | None) -> str:
    """A short fingerprint of a phase, carried by action menus so a stale menu is recognised."""
    return hashlib.sha256((phase_key or "").encode()).hexdigest()[:8]


async def act(services: Services, caller: Caller, action: str, campaign_name: str | None, *,
              expected_tag: str | None = None) -> Reply:
    async with campaign_tx(services, caller, campaign_name) as tx:
        campaign, session = tx.campaign, tx.session
        seat = tx.require_seat()
        if campaign.status != "running":
            raise ServiceError(f"**{campaign.name}** is not running")
        if expected_tag is not None and expected_tag != phase_tag(campaign.phase_key):
            raise ServiceError("that menu is out of date: the game has moved on. Use `/act` for the current one.")
        ruleset, state = tx.ruleset, tx.state
        viewer = Viewer.of_seat(seat.name)
        step, dice, action = await forgiving_act(session, campaign, ruleset, state, viewer, action)
        # the action's own text stays with its seat (a tactic chosen in secret, say); its events say what is public
        phase = await tx.record_step(step, dice, kind="action", actor=Actor(seat.name, caller.user_id, viewer),
                                     body={"action": action}, visibility=Visibility.to(seat.name))
        text = summary(step.events, dice.rolls, lambda v: v.allows(viewer)) or f"`{action}` done."
        actions = ruleset.view(step.state, viewer).actions if seat.name in phase.waiting else ()
    return Reply(text, campaign_id=campaign.id, phase_key=phase.key, actions=tuple(actions))


async def legal_actions(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    """What the caller may do now, as text and as actions for menus."""
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        campaign = tx.campaign
        if campaign.status != "running":
            raise ServiceError(f"**{campaign.name}** is not running")
        viewer = tx.viewer
        state = tx.shared_state()
        if viewer.kind == "spectator":
            raise NotAllowed(f"you have no seat in **{campaign.name}** (watch it with `/campaign follow`)")
        view = tx.ruleset.view(state, viewer)
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
            campaign: Campaign | None = await find_campaign(session, caller, campaign_name, for_update=True,
                                                            plain=True)
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
                         ephemeral=private, card="roll")
        viewer = await viewer_of(session, campaign, caller)
        if not private:
            vis = Visibility.everyone()
        elif viewer.kind == "seat" and viewer.seat:
            vis = Visibility.to(viewer.seat)
        else:
            vis = Visibility.gm_only()
        rolls = campaign.roll_count + 1
        dice = record.dice_of(campaign, f"roll/{rolls}")
        try:
            result = dice.notation(notation, purpose=str(viewer), visibility=vis)
        except RulesError as exc:
            raise ServiceError(str(exc)) from None
        # Core statements, the count bumped with the log's seq (not the ORM's flush of the campaign and the entry)
        await log_rows.append(session, campaign, at=services.clock.now(), kind="roll", actor=str(viewer),
                              actor_user_id=caller.user_id, visibility=vis.dump(),
                              body={"rolls": [result.dump()], "events": []}, roll_count=rolls)
    return Reply(f"🎲 **{caller.name}** rolls {result.text()}\n-# {campaign.name}, roll #{campaign.roll_count}"
                 f" — from the campaign's committed seed, verifiable when it ends.", ephemeral=private,
                 campaign_id=campaign.id, card="roll")


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
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        campaign = tx.campaign
        if campaign.state is None:
            raise ServiceError(f"**{campaign.name}** has not started yet")
        viewer = tx.viewer
        data, label = await _state_at(tx.session, campaign, turn)
        pending = await pending_orders(tx.session, campaign, viewer) if turn in (None, campaign.turn) else []
    ruleset = record.ruleset_of(campaign)
    shown = campaign.turn if turn is None else turn
    if pending:  # the seat's own orders drawn on its map: not kept, orders change without a new version
        async with cache.RENDER_SLOTS:
            png = await asyncio.to_thread(lambda: ruleset.render_orders(ruleset.load(data), viewer, pending))
    else:
        # the PNG is kept per campaign, turn and viewer (cache.render adds the viewer) for exactly this state:
        # not the campaign's version, which a /roll or an order bumps without changing anything drawn
        png = await cache.render(ruleset, data, viewer, key=(campaign.id, shown))
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


def entry_lines(entry: Entry | LogEntry, viewer: Viewer, *, undone: bool | str) -> list[str]:
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
        why = undone if isinstance(undone, str) else "undone by a rollback"
        head = "↩️ ~~" + head.replace("~", "") + f"~~ ({why})"
    return [head, *lines]


def _page_statement() -> Any:
    """One turn's entries and the rollbacks after them that may strike them through, in one statement built once
    (parameters: cid, turn).

    A rollback that undoes an entry of turn T comes after it and is logged at a turn < T (it returns to a
    snapshot no later than the entry; those of turn T itself are among its entries). They are few, and found
    through the (campaign_id, kind, seq) index however long the log (`+ 0` keeps SQLite, which has no
    statistics, off the turn index). The JSON columns come back as text, decoded off the loop for a big page."""
    t = LogEntry.__table__
    cid, turn = bindparam("cid", type_=Integer), bindparam("turn", type_=Integer)
    columns = (t.c.seq, t.c.kind, t.c.actor, t.c.turn, type_coerce(t.c.visibility, Text).label("visibility"),
               type_coerce(t.c.body, Text).label("body"))
    of_turn = select(*columns).where(t.c.campaign_id == cid, t.c.turn == turn)
    first = select(func.min(t.c.seq + 0)).where(t.c.campaign_id == cid, t.c.turn == turn).scalar_subquery()
    rollbacks = select(*columns).where(t.c.campaign_id == cid, t.c.kind == "rollback", t.c.seq > first,
                                       t.c.turn + 0 < turn)
    # no ORDER BY (rows are sorted in Python): asked for seq order, SQLite walks the whole log by seq instead
    return union_all(of_turn, rollbacks)


_PAGE = _page_statement()
OFF_LOOP_ENTRIES = 40  # a page longer than this is decoded and written in a thread (~50 µs an entry)


def _json(value: Any) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str | bytes) else dict(value)


def _entries(rows: Sequence[Any]) -> list[Entry]:
    return [Entry(r.seq, r.kind, r.actor, r.turn, _json(r.visibility), _json(r.body)) for r in rows]


async def turn_rows(session: AsyncSession, campaign_id: int, turn: int, *, current: int) -> Sequence[Any]:
    """One turn's log entries, from the (campaign_id, turn) index, with the rollbacks that came after them
    (few, and possibly turns later: they are what strike an undone entry through); JSON still undecoded.
    `current` (the campaign's turn now) is no longer needed: the rollbacks have an index of their own."""
    if not 0 <= turn <= MAX_TURN:  # the database's integer column holds no more
        return []
    return sorted(await session_rows(session, _PAGE, {"cid": campaign_id, "turn": turn}), key=lambda r: r.seq)


async def turn_entries(session: AsyncSession, campaign_id: int, turn: int, *, current: int) -> list[Entry]:
    """`turn_rows`, decoded."""
    return _entries(await turn_rows(session, campaign_id, turn, current=current))


# entries that keep the campaign running but tell no story: /history leaves them out unless asked for all
BOOKKEEPING = frozenset({"settings", "deadline", "pause", "resume", "seat", "join", "leave", "tables", "upload",
                         "create", "withdraw"})


def _page(rows: Sequence[Any], turn: int, viewer: Viewer, *, everything: bool = True) -> tuple[list[str], int]:
    """What `viewer` may read of one turn's rows, undone entries struck through; and how many bookkeeping
    entries were left out (none when `everything`)."""
    entries = _entries(rows)
    undone = record.undone_seqs(cast("Sequence[LogEntry]", entries))  # it reads seq, kind and body only
    taken = {int(e.body["undoes"]) for e in entries if e.kind == "undo"}  # by its own player, with /undo
    shown = [e for e in entries if e.turn == turn and (everything or e.kind not in BOOKKEEPING)]
    hidden = sum(1 for e in entries if e.turn == turn) - len(shown)
    return [line for e in shown
            for line in entry_lines(e, viewer, undone="taken back with /undo" if e.seq in taken else e.seq in undone)
            ], hidden


async def _last_resolved(session: AsyncSession, campaign: Campaign) -> int:
    """The latest turn an order window was resolved in, or the current turn when none has been."""
    t = LogEntry.__table__
    latest = await session.scalar(select(func.max(t.c.turn)).where(
        t.c.campaign_id == campaign.id, t.c.kind == "resolution", t.c.turn <= campaign.turn))
    return campaign.turn if latest is None else int(latest)


async def history(services: Services, caller: Caller, turn: int | None, campaign_name: str | None, *,
                  everything: bool = False) -> Reply:
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        campaign, viewer = tx.campaign, tx.viewer
        wanted = await _last_resolved(tx.session, campaign) if turn is None else turn
        rows = await turn_rows(tx.session, campaign.id, wanted, current=campaign.turn)
    if len(rows) > OFF_LOOP_ENTRIES:
        async with cache.RENDER_SLOTS:
            lines, hidden = await asyncio.to_thread(functools.partial(_page, rows, wanted, viewer,
                                                                      everything=everything))
    else:
        lines, hidden = _page(rows, wanted, viewer, everything=everything)
    more = f"\n-# {hidden} bookkeeping entr{'y' if hidden == 1 else 'ies'} (settings, deadlines, seats…) left " \
           f"out: `/history all:yes` shows them." if hidden else ""
    if not lines:
        return Reply(f"Nothing on record for turn {wanted} of **{campaign.name}** that you may see.{more}",
                     campaign_id=campaign.id)
    which = " (the last resolved)" if turn is None and wanted != campaign.turn else ""
    return Reply(f"**{campaign.name}** — turn {wanted}{which}, as {viewer}:\n" + "\n".join(lines) + more,
                 campaign_id=campaign.id)


async def sheet(services: Services, caller: Caller, seat_name: str | None, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        campaign = tx.campaign
        if not record.has_state(campaign):  # the shared decode below compares the stored text: none decoded here
            raise ServiceError(f"**{campaign.name}** has not started yet")
        state = tx.shared_state()
        if seat_name:
            seat = await record.seat_named(tx.session, campaign, seat_name)
            if not tx.is_gm:
                own = tx.require_seat()
                if own.name != seat.name:
                    raise NotAllowed(f"**{seat.name}**'s sheet is private to that seat and the GM")
            viewer = Viewer.of_seat(seat.name)
        else:
            viewer = tx.viewer
        view = tx.ruleset.view(state, viewer)
        title = f"**{campaign.name}** — {viewer if viewer.kind == 'seat' else viewer.kind}"
    return Reply(f"{title}\n{view.sheet or view.summary}", campaign_id=campaign.id, card="sheet")


async def orders_help(services: Services, caller: Caller, campaign_name: str | None) -> str:
    """The order grammar of the campaign here, if there is one and its ruleset documents one."""
    async with services.db.read() as session:
        try:
            campaign = await find_campaign(session, caller, campaign_name)
        except NotFound:
            return ""
    text = record.ruleset_by_id(campaign.ruleset).orders_help
    return f"\n\n**Orders in {campaign.name}** ({campaign.ruleset}):\n{grammar_blocks(text)}" if text else ""
