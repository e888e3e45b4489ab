"""Delivering the outbox: each post is sent after the commit that wrote it, and appears exactly once.

Exactly once does not lean on Discord's nonce check (it lasts minutes). A process claims posts with a lease
(one that dies lets it lapse); a post goes out in parts, and before each part `sending_since` is committed,
after it the message id is. A post found with `sending_since` set is uncertain (a crash or a lost response):
the channel's recent messages are searched for the part, which is adopted if Discord has it and sent if not.
Leases last `HERALD_OUTBOX_LEASE` seconds (default 120), renewed at every part; a claim of a process of
this machine that no longer runs (a kill -9, then a restart) is taken over at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.service import cache, cards, charts, record, threads
from bot.service.context import Services
from bot.service.faults import crash_point
from bot.service.text import split_message
from bot.store import outbox as outbox_rows
from bot.store.models import Campaign, OutboxPost
from engine.core import Viewer
from engine.rulesets import get as get_ruleset

log = logging.getLogger(__name__)
MAX_ATTEMPTS = outbox_rows.MAX_ATTEMPTS
RETRY_FIRST = timedelta(seconds=2)
RETRY_MOST = timedelta(minutes=15)
BACKOFF = "backoff"  # the claimant of a post waiting to be retried
RENDER_SLOTS = cache.RENDER_SLOTS  # shared with /map: one limit for every render thread
CLOCK_SLACK = timedelta(minutes=2)  # Discord's clock and ours may differ: look a little before `sending_since`
PUBLIC_TARGETS = ("thread", "channel")  # a public post's cards stay one message (the rest attached as text)
PRIVATE_CARD_MESSAGES = 3  # a seat's or the GM's long results may take a few
# campaigns whose posts are sent at once (each campaign's own in order): one post after another waits out every
# round trip to Discord and the database in turn, so a busy bot's posts would queue behind each other
SENDERS = 8


def _pid_namespace() -> str:
    """Which PID namespace this process lives in (containers have their own), or "" if it cannot tell."""
    try:
        return os.readlink("/proc/self/ns/pid").removeprefix("pid:[").removesuffix("]")
    except OSError:
        return ""


# this process's claims: host | PID namespace | pid | a random tag (a restarted process may reuse the pid)
PROCESS = f"{socket.gethostname()[:24]}|{_pid_namespace()}|{os.getpid()}|{secrets.token_hex(4)}"


def claimant_is_dead(claimant: str) -> bool:
    """Whether a claim was made by a process of this machine that no longer runs (killed, or restarted):
    its posts need not wait for the lease. Claims from elsewhere, or when unsure, wait for the lease."""
    try:
        host, ns, pid_text, _tag = claimant.split("|")
        pid = int(pid_text)
    except ValueError:
        return False
    my_host, my_ns, my_pid, _ = PROCESS.split("|")
    if claimant == PROCESS or not ns or (host, ns) != (my_host, my_ns):
        return False
    if pid == int(my_pid):
        return True  # our own pid with another tag: an earlier run (a container's pid 1, restarted)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def lease() -> timedelta:
    """How long a claim holds without renewal (short in kill -9 tests, so a restart takes over soon)."""
    return timedelta(seconds=float(os.environ.get("HERALD_OUTBOX_LEASE", "120")))


class DeliveryError(Exception):
    def __init__(self, message: str, *, permanent: bool) -> None:
        super().__init__(message)
        self.permanent = permanent


class LostClaim(Exception):
    """Another process took the post over (our lease lapsed): leave it to them."""


@dataclass(frozen=True)
class Posted:
    """One of the bot's own messages already in a channel, as much as reconciling needs."""

    id: int
    content: str
    files: tuple[str, ...] = ()
    custom_ids: tuple[str, ...] = ()
    embeds: tuple[str, ...] = ()  # cards.signature of its embeds


@dataclass(frozen=True)
class OpenThread:
    """One of the bot's active threads."""

    id: int
    parent_id: int
    name: str


class Deliverer(Protocol):
    """What delivery needs from Discord (or the console's stand-in)."""

    async def send(self, channel_id: int, content: str, *, files: Sequence[tuple[str, bytes]] = (),
                   embeds: Sequence[dict[str, Any]] = (), buttons: list[dict[str, str]], nonce: str,
                   mentions: Sequence[int] = ()) -> int: ...

    async def recent(self, channel_id: int, after: datetime) -> list[Posted]:
        """The bot's own messages in the channel created after `after`, oldest first."""
        ...

    async def create_thread(self, channel_id: int, name: str, *, private: bool) -> int: ...

    async def active_threads(self, guild_id: int) -> list[OpenThread]:
        """The bot's own active threads in the guild."""
        ...

    async def open_dm(self, user_id: int) -> int:
        """The direct-message channel with a user (a `dm:<user id>` post: a notice they asked for)."""
        ...

    async def add_member(self, thread_id: int, user_id: int) -> None: ...

    async def remove_member(self, thread_id: int, user_id: int) -> None: ...


@dataclass
class _Target:
    channel_id: int | None
    skip: str | None = None


@dataclass
class _Part:
    content: str
    files: list[tuple[str, bytes]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    buttons: list[dict[str, str]] = field(default_factory=list)


async def deliver_pending(services: Services, deliverer: Deliverer, *, limit: int = 100,
                          owner: str = PROCESS, senders: int = SENDERS) -> int:
    """Claim what is waiting and send it, oldest first per campaign (`senders` campaigns at once; the console
    sends one after another, so a script reads the same every time); returns how many posts were delivered."""
    claimed = await claim(services, owner, limit=limit)
    if senders <= 1:
        queues: list[list[int]] = [[post_id for post_id, _ in claimed]]  # in id order; a failure blocks its campaign
    else:
        by_campaign: dict[object, list[int]] = {}  # a campaign's posts in order; a post of no campaign alone
        for post_id, campaign_id in claimed:
            by_campaign.setdefault(campaign_id if campaign_id is not None else ("alone", post_id), []).append(post_id)
        queues = list(by_campaign.values())
    campaign_of = dict(claimed)
    gate = asyncio.Semaphore(senders)

    async def in_order(post_ids: list[int]) -> int:
        sent, blocked = 0, set()
        async with gate:
            for post_id in post_ids:
                campaign_id = campaign_of[post_id]
                if campaign_id is not None and campaign_id in blocked:
                    continue  # keep the order of a campaign's posts: its later posts wait for the earlier one
                if await deliver_one(services, deliverer, post_id, owner=owner):
                    sent += 1
                elif campaign_id is not None:
                    blocked.add(campaign_id)
        return sent

    results = await asyncio.gather(*(in_order(ids) for ids in queues), return_exceptions=True)
    failed = next((r for r in results if isinstance(r, BaseException)), None)
    if failed is not None:
        # before releasing: if this process fails here, its leases lapse, as they would if it were killed
        raise failed
    await release(services, owner, [post_id for post_id, _ in claimed])
    return sum(r for r in results if isinstance(r, int))


async def claim(services: Services, owner: str, *, limit: int = 100) -> list[tuple[int, int | None]]:
    """Take posts to deliver: unclaimed, ours, or whose lease lapsed; a campaign only from its earliest post.

    PostgreSQL: rows another deliverer is claiming right now are skipped (FOR UPDATE SKIP LOCKED). SQLite:
    the write transaction is BEGIN IMMEDIATE, so claims are serial."""
    now = services.clock.now()
    async with services.db.write() as session:
        rows = await outbox_rows.lock_pending(session, limit)
        locked = {r.id for r in rows}
        campaigns = {r.campaign_id for r in rows if r.campaign_id is not None}
        dead = sorted(c for c in await outbox_rows.other_claimants(session, owner, now) if claimant_is_dead(c))
        # a campaign is ours only if no other live claim holds any of its pending posts, and then only the run
        # of its posts from its earliest pending one that we hold locked (so its order is never broken)
        held = await outbox_rows.held_campaigns(session, campaigns, owner, now, dead)
        queue = await outbox_rows.pending_ids(session, campaigns - held, limit)
        take: list[tuple[int, int | None]] = []
        for r in rows:
            if r.campaign_id is None:
                if (r.claimed_by in (None, owner, *dead) or r.claimed_until is None
                        or r.claimed_until <= now):
                    take.append((r.id, None))
                continue
            ids = queue.get(r.campaign_id)
            if ids and ids[0] == r.id and r.id in locked:
                ids.pop(0)
                take.append((r.id, r.campaign_id))
            elif ids is not None:
                queue.pop(r.campaign_id)  # a gap: someone else holds the next one; stop this campaign here
        if take:
            await outbox_rows.claim(session, [i for i, _ in take], owner, now + lease())
    return take


async def release(services: Services, owner: str, post_ids: list[int]) -> None:
    """Give back the claims on posts not delivered, so another process need not wait for the lease."""
    if not post_ids:
        return
    async with services.db.write() as session:
        await outbox_rows.release(session, post_ids, owner)


async def _target(services: Services, deliverer: Deliverer, post: OutboxPost) -> _Target:
    """The channel a post goes to, opening the campaign's, the GM's or a seat's thread on first use.

    Discord is called outside any database transaction: writers must never wait on the network."""
    async with services.db.read() as session:
        campaign = await session.get(Campaign, post.campaign_id) if post.campaign_id is not None else None
    if campaign is None:
        return _Target(None, "campaign deleted")
    if post.target == "channel":
        return _Target(campaign.channel_id)
    if post.target == "thread":
        return _Target(campaign.thread_id or await threads.open_thread(
            services, deliverer, campaign, threads.campaign_slot(campaign)))
    if post.target == "gm":
        return _Target(campaign.gm_thread_id or await threads.open_thread(
            services, deliverer, campaign, threads.gm_slot(campaign)))
    if post.target.startswith("seat:"):
        seat = await threads.seat_of(services, campaign.id, post.target[5:])
        if seat is None:
            return _Target(None, "no such seat")
        if seat.thread_id is not None:
            return _Target(seat.thread_id)
        if seat.user_id is None:
            return _Target(None, "no one holds this seat")
        return _Target(await threads.open_thread(services, deliverer, campaign, threads.seat_slot(campaign, seat)))
    if post.target.startswith("dm:") and post.target[3:].isascii() and post.target[3:].isdigit():
        return _Target(await deliverer.open_dm(int(post.target[3:])))
    return _Target(None, f"unknown target {post.target}")


async def _render(job: dict[str, Any]) -> bytes | None:
    """Draw a queued map in a thread (decoding its state there too: big states take milliseconds), kept as /map
    keeps it: the spectators' /map of this turn after a phase change is then the picture already posted."""
    viewer = job["viewer"]
    key = (job["campaign_id"], job["turn"]) if "campaign_id" in job and "turn" in job else None  # older jobs: none
    return await cache.render(get_ruleset(job["ruleset"]), job["state"], Viewer(viewer["kind"], viewer.get("seat")),
                              key=key)


async def _parts(services: Services, post: OutboxPost) -> list[_Part]:
    """The messages a post becomes: its text split to fit, then its cards (in one message for a public post, a
    few for a private one); the files (the map the cards show) and buttons ride on the last one. Cards past
    that are attached whole as text."""
    content = post.content
    files: list[tuple[str, bytes]] = []
    if post.file_name and post.file_data is not None:
        files.append((post.file_name, post.file_data))
    embeds = [dict(e) for e in post.components.get("embeds", [])]
    job = post.components.get("render")
    if job:
        png = await (charts.chart_for_post(services, job) if "chart" in job else _render(job))
        if png is not None:
            files.append((job["name"], png))
            if not embeds:
                content = content or job.get("caption", "")
    chart = post.components.get("chart")
    if chart:
        png = await charts.chart_for_post(services, chart)
        if png is not None:
            files.append((chart["name"], png))
    focus = post.components.get("focus")
    if focus:
        viewer = focus["viewer"]
        png = await cache.render_focus(get_ruleset(focus["ruleset"]), focus["state"],
                                       Viewer(viewer["kind"], viewer.get("seat")))
        if png is not None:
            files.append((focus["name"], png))
    names = {name for name, _ in files}
    for embed in embeds:  # a map that could not be drawn is not shown as a broken image
        if embed.get("image") and str(embed["image"].get("url", "")).removeprefix("attachment://") not in names:
            embed.pop("image")
    for extra in (chart, focus):  # a chart with no line yet, a crop with nothing played: no empty card behind
        if extra:
            embeds = [e for e in embeds if e.get("image") or e.get("title") != extra["caption"]
                      or e.get("description") or e.get("fields")]
    groups = cards.fit(embeds)
    most = 1 if post.target in PUBLIC_TARGETS else PRIVATE_CARD_MESSAGES
    if len(groups) > most:
        whole = cards.as_text(embeds)
        files.append((f"{(job or {}).get('name', 'post').removesuffix('.png')}-full.md", whole.encode()))
        note = f"-# … the whole of it ({len(whole)} characters) is attached."
        content = f"{content}\n{note}" if content.strip() else note
        groups = groups[:most]
    parts = [_Part(chunk) for chunk in split_message(content)]
    for i, group in enumerate(groups):
        if i or not parts:
            parts.append(_Part(""))
        parts[-1].embeds = group
    if files and not parts:
        parts = [_Part("")]
    if parts:
        parts[-1].files = files
        parts[-1].buttons = list(post.components.get("buttons", []))
    return parts


async def deliver_one(services: Services, deliverer: Deliverer, post_id: int, *, owner: str = PROCESS) -> bool:
    """Send one claimed post, part by part; False if it must wait (a failure to retry, or a lost claim)."""
    async with services.db.read() as session:
        post = await session.get(OutboxPost, post_id)
        if post is None or post.sent_at is not None:
            return True
    try:
        target = await _target(services, deliverer, post)
        if target.channel_id is None:
            await _finish(services, post_id, owner, skip=target.skip)
            return True
        for user_id in post.components.get("add_users", []):
            await deliverer.add_member(target.channel_id, user_id)
        for user_id in post.components.get("remove_users", []):
            await deliverer.remove_member(target.channel_id, user_id)
        parts = await _parts(services, post)
        done, uncertain = list(post.sent_parts or []), post.sending_since
        mentions = [int(u) for u in post.components.get("mentions", [])]
        for i, part in enumerate(parts):
            if i < len(done):
                continue
            last = i == len(parts) - 1
            if uncertain is not None:
                found = await _reconcile(services, deliverer, post, target.channel_id, part, uncertain)
                uncertain = None
                if found is not None:
                    log.info("outbox post %s part %s was already in the channel: adopted %s", post_id, i, found)
                    await _record_part(services, post_id, owner, found, last=last)
                    continue
            await _begin_part(services, post_id, owner)
            crash_point("before-send")
            message_id = await deliverer.send(target.channel_id, part.content, files=part.files,
                                              embeds=part.embeds, buttons=part.buttons, nonce=f"h{post.id}.{i}",
                                              mentions=mentions)
            crash_point("after-send")
            await _record_part(services, post_id, owner, message_id, last=last)
        if not parts:
            await _finish(services, post_id, owner, skip="nothing to send")
    except LostClaim:
        log.info("outbox post %s was taken over by another deliverer", post_id)
        return False
    except DeliveryError as exc:
        await _failed(services, post_id, str(exc), permanent=exc.permanent)
        return exc.permanent
    return True


async def _reconcile(services: Services, deliverer: Deliverer, post: OutboxPost, channel_id: int, part: _Part,
                     since: datetime) -> int | None:
    """The id of this part if Discord already has it (sent before a crash or a lost response), else None."""
    async with services.db.read() as session:
        known = await outbox_rows.sent_near(session, post)
    known.update(int(p) for p in post.sent_parts or [])
    files = tuple(name for name, _ in part.files)
    embeds = cards.signature(part.embeds)
    try:
        recent = await deliverer.recent(channel_id, since - CLOCK_SLACK)
    except DeliveryError as exc:
        if not exc.permanent:
            raise
        # the channel cannot be read (no Read Message History): a possible repeat beats a lost post
        log.warning("outbox post %s: cannot look for an uncertain part (%s); sending it", post.id, exc)
        return None
    for message in recent:
        if message.id in known:
            continue  # another post's message that happens to read the same
        if (message.content.strip() == part.content.strip() and tuple(message.files) == files
                and message.embeds == embeds and bool(message.custom_ids) == bool(part.buttons)):
            return message.id
    return None


async def _begin_part(services: Services, post_id: int, owner: str) -> None:
    """Mark a part in flight (committed before Discord is asked), renewing the claim; fails if it was lost."""
    now = services.clock.now()
    async with services.db.write() as session:
        row = await session.get(OutboxPost, post_id, with_for_update=True)
        if row is None or row.sent_at is not None or row.claimed_by != owner:
            raise LostClaim
        row.sending_since, row.claimed_until = now, now + lease()


async def _record_part(services: Services, post_id: int, owner: str, message_id: int, *, last: bool) -> None:
    """Keep a sent part's message id; the post is sent when its last part is."""
    now = services.clock.now()
    async with services.db.write() as session:
        row = await session.get(OutboxPost, post_id, with_for_update=True)
        if row is None:
            return
        row.sent_parts = [*(row.sent_parts or []), message_id]
        row.sending_since, row.claimed_until = None, now + lease()
        if last:
            row.sent_at, row.message_id = now, message_id
            row.attempts += 1
            row.claimed_by = row.claimed_until = None


async def _finish(services: Services, post_id: int, owner: str, *, skip: str | None) -> None:
    """A post with nowhere to go (its seat or campaign is gone) is done, with the reason kept."""
    async with services.db.write() as session:
        row = await session.get(OutboxPost, post_id)
        if row is not None and row.sent_at is None:
            row.sent_at, row.attempts = services.clock.now(), row.attempts + 1
            row.claimed_by = row.claimed_until = row.sending_since = None
            if skip:
                row.error = f"not sent: {skip}"


async def _failed(services: Services, post_id: int, error: str, *, permanent: bool) -> None:
    """Give up on a refused post (telling the GM), or hold a post whose send failed for a while, then retry.

    The hold is a claim by nobody (`BACKOFF`): it keeps every deliverer, and the campaign's later posts, off
    the post until it lapses, so an outage of Discord is waited out, not counted down in seconds."""
    async with services.db.write() as session:
        row = await session.get(OutboxPost, post_id)
        if row is None:
            return
        row.attempts += 1
        row.error = error
        if not permanent and row.attempts < MAX_ATTEMPTS:
            wait = min(RETRY_FIRST * 2 ** (row.attempts - 1), RETRY_MOST)
            row.claimed_by, row.claimed_until = BACKOFF, services.clock.now() + wait
            log.warning("outbox post %s failed (retry in %s): %s", post_id, wait, error)
            return
        log.warning("outbox post %s given up after %s attempts: %s", post_id, row.attempts, error)
        row.attempts = MAX_ATTEMPTS
        if permanent:
            row.sending_since = None  # Discord refused it: nothing is in flight
        row.claimed_by = row.claimed_until = None
        campaign = await session.get(Campaign, row.campaign_id) if row.campaign_id is not None else None
        if campaign is not None and row.target != "gm":
            record.post(session, campaign, services, "gm",
                        f"⚠️ A post to {row.target} could not be delivered: {error[:300]}")


async def pending_count(services: Services) -> int:
    """How many posts still wait to be delivered (for tests and `herald verify`)."""
    async with services.db.read() as session:
        return await outbox_rows.pending_count(session)


async def next_retry(services: Services) -> datetime | None:
    """When the earliest post held back after a failed send may be tried again."""
    async with services.db.read() as session:
        return await outbox_rows.next_retry(session, BACKOFF)


async def run(services: Services, deliverer: Deliverer, *, idle: float = 30.0) -> None:
    """The delivery task: wake when a post is written, when a held-back post may be retried, or every `idle`
    seconds; send; repeat."""
    backoff = 1.0
    while True:
        services.outbox_ready.clear()
        try:
            await deliver_pending(services, deliverer)
            retry = await next_retry(services)
            backoff = 1.0
        except Exception:
            log.exception("outbox delivery failed; retrying in %.0fs", backoff)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 60.0)
            continue
        wait = idle
        if retry is not None:
            wait = max(0.05, min(idle, (retry - services.clock.now()).total_seconds()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(services.outbox_ready.wait(), timeout=wait)
