"""The campaign record, low level: log entries, snapshots, outbox posts, seats and dice."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import cache
from bot.service.context import Services
from bot.service.errors import NotFound, ServiceError
from bot.service.news import NEWS
from bot.store import campaigns as campaign_rows
from bot.store import log as log_rows
from bot.store import seats as seat_rows
from bot.store.models import Campaign, CampaignStatus, LogEntry, OutboxPost, Seat, Snapshot
from engine.core import Dice, Phase, RulesError, Ruleset, Viewer, Visibility
from engine.core.names import Names, UnknownName
from engine.rulesets import get as get_ruleset


def ruleset_by_id(ruleset_id: str) -> Ruleset[Any]:
    try:
        return get_ruleset(ruleset_id)
    except RulesError as exc:
        raise ServiceError(str(exc)) from exc


def ruleset_of(campaign: Campaign) -> Ruleset[Any]:
    """The campaign's ruleset, if this build can still read the version it started with."""
    ruleset = ruleset_by_id(campaign.ruleset)
    if campaign.status != CampaignStatus.LOBBY and not ruleset.can_read(campaign.ruleset_version):
        raise ServiceError(f"this campaign runs {ruleset.title} {campaign.ruleset_version}, which this build "
                           f"({ruleset.version}) cannot continue; run the matching Herald version")
    return ruleset


def has_state(campaign: Campaign) -> bool:
    """Whether the campaign has a state (it has started), without decoding it while it is still stored text."""
    text = campaign_rows.stored_text(campaign)
    return text != "null" if text is not None else campaign.state is not None


def state_of(campaign: Campaign, ruleset: Ruleset[Any], *, shared: bool = False) -> Any:
    """The campaign's decoded state: the caller's own copy, or with `shared` (a reader that never changes it)
    one from the per-process cache, keyed by the campaign's version and checked against the stored data (its
    stored JSON text while the campaign's `state` is not decoded yet, see store.campaigns.stored_text)."""
    if shared and campaign.id is not None and campaign.version_id is not None:
        text = campaign_rows.stored_text(campaign)  # not decoded yet: the cache compares the text (no decoding)
        if text is not None and text != "null":
            return cache.shared_state_of_text(campaign.id, campaign.version_id, ruleset, text)
    if campaign.state is None:
        raise ServiceError(f"**{campaign.name}** has not started yet")
    if shared and campaign.id is not None and campaign.version_id is not None:
        return cache.shared_state(campaign.id, campaign.version_id, ruleset, campaign.state)
    return ruleset.load(campaign.state)


def dice_of(campaign: Campaign, scope: str) -> Dice:
    return Dice(bytes.fromhex(campaign.seed), scope)


async def seats_of(session: AsyncSession, campaign_id: int) -> list[Seat]:
    return await seat_rows.of_campaign(session, campaign_id)


async def seat_named(session: AsyncSession, campaign: Campaign, name: str) -> Seat:
    seats = {seat.name: seat for seat in await seats_of(session, campaign.id)}
    try:
        return seats[Names(seats).resolve(name, what="seat")]  # forgiving: case, accents, a unique prefix
    except UnknownName as exc:
        raise NotFound(f"**{campaign.name}**: {exc}") from None


def log(session: AsyncSession, campaign: Campaign, services: Services, *, kind: str, actor: str,
        actor_user_id: int | None, visibility: Visibility, body: dict[str, Any]) -> LogEntry:
    """Append one entry to the campaign's log; entries are never changed afterwards."""
    campaign.log_seq += 1
    if kind in NEWS:  # "since you last looked" (news.py): set in the UPDATE the log seq makes anyway
        campaign.news_seq = campaign.log_seq
    entry = LogEntry(campaign_id=campaign.id, seq=campaign.log_seq, at=services.clock.now(), kind=kind,
                     actor=actor, actor_user_id=actor_user_id, turn=campaign.turn, phase_key=campaign.phase_key,
                     visibility=visibility.dump(), body=body)
    session.add(entry)
    return entry


UNDOABLE = ("action", "gm-action", "resolution", "upload")  # the log entries that changed the state


def snapshot(session: AsyncSession, campaign: Campaign, services: Services, phase: Phase, *,
             kind: str = "start") -> Snapshot:
    """Keep the state as it is now: at the start of a phase, or just before a resolution."""
    label = phase.label if kind == "start" else f"{phase.label} (before it resolved)"
    shot = Snapshot(campaign_id=campaign.id, seq=campaign.log_seq, turn=phase.turn, phase_key=phase.key,
                    phase_label=label, kind=kind, state=campaign.state or {}, at=services.clock.now())
    session.add(shot)
    return shot


def wake_after_commit(session: AsyncSession, flag: asyncio.Event) -> None:
    """Wake a background task once this transaction commits (waking it earlier, it would find nothing)."""
    key = ("wake", id(flag))
    if session.info.get(key):
        return
    session.info[key] = True

    def _set(_session: object) -> None:
        flag.set()

    event.listen(session.sync_session, "after_commit", _set, once=True)


def post(session: AsyncSession, campaign: Campaign, services: Services, target: str, content: str, *,
         file: tuple[str, bytes] | None = None, render: dict[str, Any] | None = None,
         components: dict[str, Any] | None = None, mentions: Sequence[int] = (),
         embeds: Sequence[dict[str, Any]] = (), chart: dict[str, Any] | None = None,
         focus: dict[str, Any] | None = None) -> OutboxPost:
    """Queue a post in this transaction; the delivery task sends it after commit, exactly once.

    `mentions` are the users this post means to ping; no one else is pinged, whatever the text says.
    `embeds` are cards (Discord's embed JSON, see bot/service/cards.py); one showing the map names the render's
    file as `attachment://`; `chart` is a chart job (bot/service/charts.py) drawn at delivery beside the map, and
    `focus` a focused crop's job (focus_job) drawn there too."""
    extra = dict(components or {})
    if embeds:
        extra["embeds"] = [dict(e) for e in embeds]
    if mentions:
        extra["mentions"] = sorted({int(u) for u in mentions})
    if render is not None:
        extra["render"] = render
    if chart is not None:
        extra["chart"] = chart
    if focus is not None:
        extra["focus"] = focus
    row = OutboxPost(campaign_id=campaign.id, target=target, content=content,
                     file_name=file[0] if file else None, file_data=file[1] if file else None,
                     components=extra, created_at=services.clock.now())
    session.add(row)
    wake_after_commit(session, services.outbox_ready)
    return row


def render_job(campaign: Campaign, viewer: Viewer, state_data: dict[str, Any], caption: str) -> dict[str, Any]:
    """What the delivery task needs to draw a map after commit, off the event loop."""
    return {"ruleset": campaign.ruleset, "viewer": {"kind": viewer.kind, "seat": viewer.seat},
            "state": state_data, "campaign_id": campaign.id, "turn": campaign.turn,
            "name": f"{slug(campaign.name)}-turn{campaign.turn}.png", "caption": caption}


def focus_job(campaign: Campaign, viewer: Viewer, state_data: dict[str, Any], caption: str) -> dict[str, Any]:
    """What the delivery task needs to draw the focused crop beside a turn's map (Ruleset.render_focus)."""
    return {**render_job(campaign, viewer, state_data, caption),
            "name": f"{slug(campaign.name)}-turn{campaign.turn}-played.png"}


def slug(text: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in text)
    return "-".join(p for p in out.split("-") if p)[:40] or "campaign"


async def snapshots_of(session: AsyncSession, campaign_id: int) -> Sequence[Snapshot]:
    return await log_rows.snapshots(session, campaign_id)


def undone_seqs(entries: Sequence[LogEntry]) -> set[int]:
    """Seqs of state-changing entries that a later rollback took back."""
    out: set[int] = set()
    for entry in entries:
        if entry.kind == "undo":  # a player took back their own last action
            out.add(int(entry.body["undoes"]))
        elif entry.kind == "rollback":
            back_to = int(entry.body["to_seq"])
            out.update(e.seq for e in entries if back_to < e.seq < entry.seq and e.kind in UNDOABLE)
    return out


async def this_phase(session: AsyncSession, campaign: Campaign) -> list[LogEntry]:
    """The log entries of the current phase that are still in effect (not taken back by a rollback)."""
    await session.flush()
    entries = await log_rows.since(session, campaign.id, await log_rows.phase_start(session, campaign.id))
    undone = undone_seqs(entries)
    return [e for e in entries if e.seq not in undone]


async def actions_this_phase(session: AsyncSession, campaign: Campaign) -> int:
    """How many actions this phase has seen: it keys their dice, so a replay after a rollback rolls the same."""
    return sum(1 for e in await this_phase(session, campaign) if e.kind in ("action", "gm-action", "upload"))


async def act_dice(session: AsyncSession, campaign: Campaign, what: str = "act") -> Dice:
    """The dice for the next action of this phase (automatic players' choices use `what="auto"`)."""
    n = await actions_this_phase(session, campaign)
    return dice_of(campaign, f"{campaign.phase_key}/{what}{n}")
