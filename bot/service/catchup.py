"""Since you last looked: one private digest of what happened in a campaign that this viewer may see, since
their mark — the phases resolved (headlines, not every post), their seat's own news, deadlines set or moved,
what waits on them now and the map as they may see it. `/catchup` asks for it; a seated player is also shown it
once by itself, after their next command, when they come back to news.

When it shows itself (the threshold, so that it is not noise):
- the campaign has news since the seat's mark (`campaign.news_seq`: a phase crossed, a deadline set or moved, a
  pause, a seat changing hands, a GM note, ruling or upload, a rollback, the end — see news.NEWS). Orders,
  actions and rolls of the phase in play are not news by themselves: they are told when the phase resolves;
- and the holder's mark is older than the campaign's `catchup` setting (12h unless the GM changes it; `off`
  never): someone who played an hour ago read the thread. A mark is moved whenever the check below runs, so in a
  lively game the digest stays quiet;
- and, read with the holder's eyes, something is there: a phase resolved, news private to their seat, a
  deadline, a rollback, the end. Otherwise the mark moves silently.
A player turns it off for themselves with `/catchup auto:off`.

The cost: the seat's mark is on the seat's row and the campaign's news seq on the campaign's, both read by the
statement every command already makes, so a command with nothing new runs no SQL for this (news.notice). Only a
command that finds news runs one more short transaction, after its own answer went out (`automatic`).

Marks: a seat's mark belongs to the seat and is reset when the seat changes hands (news.new_holder): the new holder
is not told the old holder's backlog as news (they may still read the seat's past with /history, which the seat
may see whoever holds it). The GM and spectators have a mark per person (`look_mark`) moved by /catchup only.
Hidden information: every line is filtered by what the viewer may see (an entry's visibility, each event's),
as /history filters; the map is the ruleset's view for that viewer."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import cache, record
from bot.service.campaign_settings import CampaignSettings
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.news import Due, forget
from bot.service.quoting import clip
from bot.service.replies import Reply
from bot.service.steps import parked_deadline_left, paused_deadline
from bot.service.summaries import roll_line
from bot.service.unit import campaign_tx
from bot.store import campaigns as campaign_rows
from bot.store import marks
from bot.store import orders as order_rows
from bot.store.models import Campaign, CampaignStatus, LogEntry, LookMark
from engine.core import Event, Roll, Viewer, Visibility, Window

MOST_PHASES = 8        # resolved phases named one by one; earlier ones are counted
MOST_MINE = 8          # lines of the seat's own news; more are counted
MOST_DEADLINES = 3
HEADLINE = 180         # characters of an event's first line kept as a headline
OFF_LOOP_ENTRIES = 200  # a digest of more entries than this is sorted out in a thread


# -- what changed, as one viewer may see it ------------------------------------------------------------------------

@dataclass
class Since:
    """What a viewer may see of the entries after their mark, sorted out for the digest."""

    phases: list[tuple[str, list[str]]] = field(default_factory=list)  # resolved phases: name, event lines
    this_phase: int = 0            # lines they may see from the phase still in play
    mine: list[str] = field(default_factory=list)  # news private to their seat (or a seat change of theirs)
    deadlines: list[str] = field(default_factory=list)
    rollbacks: list[str] = field(default_factory=list)
    ended: str | None = None
    entries: int = 0               # entries after the mark (all, seen or not: only a count)
    cut: bool = False              # more entries than were read

    def worth_showing(self) -> bool:
        return bool(self.phases or self.mine or self.deadlines or self.rollbacks or self.ended)


def _first_line(text: str, limit: int = HEADLINE) -> str:
    """An event's first line (a heading takes the next line with it), and how many more."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if len(lines) > 1 and (lines[0].endswith(":") or lines[0].startswith("#")
                           or (lines[0].startswith("**") and lines[0].endswith("**"))):
        heading = lines[0].lstrip("# ")
        lines[:2] = [f"{heading}{'' if heading.endswith(':') else ':'} {lines[1].lstrip('-•> ')}"]
    head = clip(lines[0], limit) if lines else ""
    return head + (f" (+{len(lines) - 1} more lines)" if len(lines) > 1 else "")


def _deadline_line(entry: LogEntry) -> str:
    if entry.kind == "pause":
        why = entry.body.get("reason")
        return "⏸️ The GM paused the campaign" + (f" ({clip(str(why), 120)})" if why else "")
    if entry.kind == "resume":
        return "▶️ The GM resumed the campaign"
    due = entry.body.get("deadline")
    if not due:
        return "⏰ Deadline cleared"
    try:
        ts = int(datetime.fromisoformat(str(due)).timestamp())
    except ValueError:
        return "⏰ Deadline set"
    return f"⏰ Deadline set to <t:{ts}:F>"


def _seat_line(entry: LogEntry, seat: str) -> str | None:
    body = entry.body
    if body.get("seat") != seat:
        return None
    return {"replace": "🔁 Your seat changed hands", "assign": "🪑 Your seat was assigned",
            "kick": "🚪 Your seat was vacated", "auto": "🤖 Your seat went to Herald's automatic player"}.get(
        str(body.get("op")), "🪑 Your seat changed")


def sort_out(entries: Sequence[LogEntry], viewer: Viewer, *, labels: dict[str, str], current_key: str | None,
             cut: bool = False) -> Since:
    """The digest's material: only what `viewer` may see of `entries` (oldest first), undone ones left out."""
    since = Since(entries=len(entries), cut=cut)
    undone = record.undone_seqs(entries)
    seat = viewer.seat if viewer.kind == "seat" else None
    by_phase: dict[str, list[tuple[int, str]]] = {}  # each line and its rank as a headline (0 first, see below)
    for entry in entries:
        if entry.seq in undone:
            continue
        vis = Visibility.load(entry.visibility)
        key = entry.phase_key or ""
        lines = by_phase.setdefault(key, [])
        if entry.kind in ("deadline", "pause", "resume") and vis.allows(viewer):
            since.deadlines.append(_deadline_line(entry))
            continue
        if entry.kind == "rollback" and vis.allows(viewer):
            why = entry.body.get("reason")
            since.rollbacks.append(f"⏪ The GM rolled back to **{clip(str(entry.body.get('to')), 100)}**"
                                   + (f" ({clip(str(why), 120)})" if why else ""))
            continue
        if entry.kind == "end" and vis.allows(viewer):
            since.ended = clip(str(entry.body.get("reason") or "it ended"), 200)
            continue
        if entry.kind == "seat" and seat is not None and vis.allows(viewer):
            line = _seat_line(entry, seat)
            if line:
                since.mine.append(line)
            continue
        if entry.kind == "note" and vis.allows(viewer):
            text = "📜 The GM: " + _first_line(str(entry.body.get("text", "")))
            if vis.public:
                lines.append((1, text))
            elif seat is not None:
                since.mine.append(text)
            continue
        if (entry.kind == "action" and seat is not None and entry.actor == seat and vis.allows(viewer)
                and entry.body.get("why") == "timeout"):
            since.mine.append(f"⏱️ Your time ran out: Herald played `{clip(str(entry.body.get('action')), 100)}`")
        own = seat is not None and entry.actor == seat and entry.actor_user_id is not None
        if seat is not None and not own:  # the seat's own dice (a research roll), not the public ones
            since.mine += [roll_line(r) for r in (Roll.load(d) for d in entry.body.get("rolls", []))
                           if not r.visibility.public and seat in r.visibility.seats and r.kind != "shuffle"]
        for event in (Event.load(e) for e in entry.body.get("events", [])):
            if not event.visibility.allows(viewer) or not event.text.strip():
                continue
            private = not event.visibility.public and bool(event.visibility.seats)
            if private and seat is not None:  # to their seat (or they could not see it)
                if not own:  # their own action's news they read in its answer
                    since.mine.append(_first_line(event.text, 300))
            elif private:  # the GM: what went privately to seats, each named
                since.mine.append(f"{', '.join(sorted(event.visibility.seats))}: {_first_line(event.text, 300)}")
            elif not own:  # (their own actions they read in their answers) a resolution's public news heads its
                # phase; then other public lines; then the GM's own
                rank = (0 if entry.kind == "resolution" else 1) if event.visibility.public else 2
                lines.append((rank, _first_line(event.text)))
    for key, lines in by_phase.items():
        if key == (current_key or ""):
            since.this_phase = len(lines)
        elif key:  # "**C.1 …** — orders are open" opens the next phase: the card of the phase crossed says that
            opening = tuple(f"**{label}** — " for label in labels.values())
            since.phases.append((labels.get(key, key), [text for _, text in sorted(lines, key=lambda r: r[0])
                                                        if not text.startswith(opening)]))
    return since


# -- the digest as a card --------------------------------------------------------------------------------------------

@dataclass
class Now:
    """What waits on the viewer now, already worded."""

    lines: list[str] = field(default_factory=list)


def compose(campaign_name: str, who: str, since: Since, now: Now, *, looked_at: datetime | None, turn: int = 0,
            first: bool = False) -> str:
    """The digest's markdown (a heading, fields of lists): cards.present("catchup", …) makes it a card."""
    out = [f"## Since you last looked — {clip(campaign_name, 60)} ({who})"]
    if looked_at is not None:
        ts = int(looked_at.timestamp())
        when = f"Since <t:{ts}:f> (<t:{ts}:R>)"
    else:
        when = "Since the phase before this one" if first else "Since you last looked"
    resolved = len(since.phases)
    count = f"{resolved} phase{'s' if resolved != 1 else ''} resolved" if resolved else "no phase resolved"
    more = f"; the latest {since.entries:,} entries read, `/history` has the rest" if since.cut else ""
    out.append(f"{when}: {count}{more}.")
    if since.ended:
        out += ["", f"🏁 **The campaign has ended**: {since.ended}."]
    if since.phases:
        out += ["", "**Phases resolved**"]
        shown = since.phases[-MOST_PHASES:]
        if len(since.phases) > len(shown):
            out.append(f"- …{len(since.phases) - len(shown)} earlier phase(s): `/history` tells them")
        for label, lines in shown:
            head = f"- **{clip(label, 100)}**"
            if lines:
                head += f": {lines[0]}" + (f" (+{len(lines) - 1} more)" if len(lines) > 1 else "")
            out.append(head)
    if since.mine:
        out += ["", f"**{'Sent privately to seats' if who == 'GM' else who}**"]
        out += [f"- {line}" for line in since.mine[-MOST_MINE:]]
        if len(since.mine) > MOST_MINE:
            out.append(f"- …and {len(since.mine) - MOST_MINE} earlier: `/history`")
    if since.deadlines or since.rollbacks:
        out += ["", "**Deadlines and rollbacks**"]
        out += [f"- {line}" for line in since.rollbacks[-MOST_DEADLINES:]]
        out += [f"- {line}" for line in dict.fromkeys(since.deadlines[-MOST_DEADLINES:])]  # each said once
        if len(since.deadlines) > MOST_DEADLINES:
            out.append(f"- (the deadline changed {len(since.deadlines)} times)")
    if since.this_phase:
        out += ["", f"-# And {since.this_phase} line(s) from the phase in play: `/history turn:{turn}` has them."]
    if now.lines:
        out += ["", "**Now**", *[f"- {line}" for line in now.lines]]
    return "\n".join(out)


async def what_waits(session: AsyncSession, campaign: Campaign, viewer: Viewer, state: Any) -> Now:
    """The phase in play and what it waits for, for this viewer: their orders, their turn, the GM's ruling."""
    now = Now()
    if campaign.status == CampaignStatus.ENDED:
        now.lines.append(f"🏁 Over: {clip(campaign.phase_label or '', 150)}")
        return now
    ruleset = record.ruleset_of(campaign)
    phase = ruleset.phase(state)
    now.lines.append(f"**{clip(phase.label, 150)}**")
    if campaign.paused_at is not None:
        left = await parked_deadline_left(session, campaign)
        now.lines.append("⏸️ " + (paused_deadline(left) if left is not None else "paused by the GM"))
    elif campaign.deadline is not None:
        ts = int(campaign.deadline.timestamp())
        now.lines.append(f"⏰ Deadline <t:{ts}:F> (<t:{ts}:R>)")
    seat = viewer.seat if viewer.kind == "seat" else None
    waiting = ", ".join(f"**{s}**" for s in sorted(phase.waiting)) or "nobody"
    if phase.window is Window.ORDERS:
        sent = await order_rows.seats_in(session, campaign.id, phase.key)
        if seat is not None and seat in phase.waiting:
            now.lines.append("✅ Your orders are in; you may change them until it resolves (`/orders list`)"
                             if seat in sent else "📜 **Your orders are due**: `/orders submit`")
        elif viewer.is_gm:
            missing = sorted(phase.waiting - sent)
            now.lines.append(f"📜 Orders from {len(phase.waiting & sent)} of {len(phase.waiting)} seats"
                             + (f"; not yet: {', '.join(missing)}" if missing else "; all in: `/gm advance`"))
        else:
            now.lines.append(f"📜 Orders are open for {waiting}")
    elif phase.window is Window.TURN:
        if seat is not None and seat in phase.waiting:
            choices = len(ruleset.view(state, viewer).actions)
            now.lines.append(f"🎯 **Your turn**: {choices} choice(s) waiting (`/act`)")
        else:
            now.lines.append(f"🎯 Waiting for {waiting} to play")
    elif phase.window is Window.GM:
        now.lines.append("⚖️ **Your ruling is needed**: `/gm act`" if viewer.is_gm
                         else "⚖️ Waiting for the GM's ruling")
    return now


# -- reading, and the two ways it is asked for ----------------------------------------------------------------------

@dataclass
class Digest:
    text: str
    worth: bool
    map_job: tuple[Any, dict[str, Any], Viewer, tuple[int, int, int]] | None


async def _digest(session: AsyncSession, campaign: Campaign, viewer: Viewer, who: str, old_seq: int,
                  looked_at: datetime | None, *, first: bool = False) -> Digest:
    entries = await marks.since(session, campaign.id, old_seq)
    labels = await marks.phase_labels(session, campaign.id, {e.phase_key for e in entries if e.phase_key})
    cut = len(entries) >= marks.MOST_READ
    if len(entries) > OFF_LOOP_ENTRIES:
        async with cache.RENDER_SLOTS:
            since = await asyncio.to_thread(lambda: sort_out(entries, viewer, labels=labels,
                                                             current_key=campaign.phase_key, cut=cut))
    else:
        since = sort_out(entries, viewer, labels=labels, current_key=campaign.phase_key, cut=cut)
    ruleset = record.ruleset_of(campaign)
    state = record.state_of(campaign, ruleset, shared=True) if campaign.state is not None else None
    now = await what_waits(session, campaign, viewer, state) if state is not None else Now()
    text = compose(campaign.name, who, since, now, looked_at=looked_at, turn=campaign.turn, first=first)
    job = (ruleset, dict(campaign.state), viewer, (campaign.id, campaign.version_id, campaign.turn)) \
        if campaign.state is not None else None
    return Digest(text, since.worth_showing(), job)


async def _reply(campaign_id: int, campaign_name: str, digest: Digest) -> Reply:
    """The digest as a private card, with the map as its viewer may see it."""
    file = None
    if digest.map_job is not None:
        ruleset, data, viewer, key = digest.map_job
        png = await cache.render(ruleset, data, viewer, key=key)  # the same cache as /map
        if png is not None:
            file = (f"{record.slug(campaign_name)}-now.png", png)
    return Reply(digest.text, campaign_id=campaign_id, card="catchup", file=file)


def _who(viewer: Viewer) -> str:
    return viewer.seat if viewer.kind == "seat" and viewer.seat else ("GM" if viewer.is_gm else "spectator")


async def automatic(services: Services, caller: Caller, due: Due) -> Reply | None:
    """After a command that found news: the digest, once, if it passes the threshold (see the module's notes);
    the mark moves either way, and a command racing this one finds it moved and shows nothing."""
    now = services.clock.now()
    async with services.db.write() as session:
        found = await campaign_rows.by_id(session, caller.guild_id, caller.user_id, due.campaign_id)
        campaign, seat = found if found is not None else (None, None)
        if campaign is None or seat is None or seat.id != due.seat_id:
            return None
        old_seq, old_at = seat.looked_seq, seat.looked_at
        if old_seq >= campaign.news_seq or not seat.catchup_auto:
            return None
        if not await marks.claim(session, seat.id, old_seq, campaign.log_seq, now):
            return None
        away = CampaignSettings.load(campaign.settings).span("catchup")
        if away is None or (old_at is not None and now - old_at < away) or campaign.status == CampaignStatus.LOBBY:
            return None
        digest = await _digest(session, campaign, Viewer.of_seat(seat.name), seat.name, old_seq, old_at)
        if not digest.worth:
            return None
        campaign_id, name = campaign.id, campaign.name
    return await _reply(campaign_id, name, digest)


async def catchup(services: Services, caller: Caller, campaign_name: str | None, auto: bool | None = None) -> Reply:
    """/catchup: the digest since the caller's mark (their seat's, or their own when not seated), which then moves
    to now; `auto` turns the digest's showing itself on or off for their seat."""
    now = services.clock.now()
    async with campaign_tx(services, caller, campaign_name, for_update=False) as tx:
        campaign, seat, session = tx.campaign, tx.seat, tx.session
        forget(campaign.id)  # this is the digest: the command owes no other
        if campaign.status == CampaignStatus.LOBBY:
            raise ServiceError(f"**{campaign.name}** has not started yet: nothing to catch up on")
        viewer = tx.viewer
        first = False
        if seat is not None:
            old_seq, old_at = seat.looked_seq, seat.looked_at
            seat.looked_seq, seat.looked_at = campaign.log_seq, now
            if auto is not None:
                seat.catchup_auto = auto
        else:
            if auto is not None:
                raise ServiceError("only a seated player is shown the digest by itself; `/catchup` shows it to you")
            mark = await marks.unseated(session, campaign.id, caller.user_id)
            if mark is None:
                old_seq, old_at, first = await marks.previous_phase_start(session, campaign.id), None, True
                session.add(LookMark(campaign_id=campaign.id, user_id=caller.user_id, seq=campaign.log_seq, at=now))
            else:
                old_seq, old_at = mark.seq, mark.at
                mark.seq, mark.at = campaign.log_seq, now
        digest = await _digest(session, campaign, viewer, _who(viewer), old_seq, old_at, first=first)
        campaign_id, name = campaign.id, campaign.name
    reply = await _reply(campaign_id, name, digest)
    if auto is not None:
        setting = "shown by itself after your next command when you come back to news" if auto else \
            "no longer shown by itself (ask with `/catchup`)"
        reply.text += f"\n\n-# This digest is now {setting}."
    return reply
