"""Delivering the outbox: each post is sent after the commit that wrote it, and marked sent, once.

Discord deduplicates a message by its nonce when `enforce_nonce` is set (discord.py sets it
whenever a nonce is given), so a crash between sending and marking sent cannot post twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import select

from bot.service import record
from bot.service.context import Services
from bot.service.text import split_message
from bot.store.models import Campaign, OutboxPost, Seat
from engine.core import Viewer
from engine.rulesets import get as get_ruleset

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 8
RENDER_SLOTS = asyncio.Semaphore(2)


class DeliveryError(Exception):
    def __init__(self, message: str, *, permanent: bool) -> None:
        super().__init__(message)
        self.permanent = permanent


class Deliverer(Protocol):
    """What delivery needs from Discord (or the console's stand-in)."""

    async def send(self, channel_id: int, content: str, *, file: tuple[str, bytes] | None,
                   buttons: list[dict[str, str]], nonce: str) -> int: ...

    async def create_thread(self, channel_id: int, name: str, *, private: bool) -> int: ...

    async def add_member(self, thread_id: int, user_id: int) -> None: ...

    async def remove_member(self, thread_id: int, user_id: int) -> None: ...


@dataclass
class _Target:
    channel_id: int | None
    skip: str | None = None


async def deliver_pending(services: Services, deliverer: Deliverer, *, limit: int = 100) -> int:
    """Send what is waiting, oldest first; returns how many posts were delivered."""
    async with services.db.read() as session:
        ids = list(await session.scalars(select(OutboxPost.id).where(
            OutboxPost.sent_at.is_(None), OutboxPost.attempts < MAX_ATTEMPTS).order_by(OutboxPost.id).limit(limit)))
    sent = 0
    for post_id in ids:
        if await deliver_one(services, deliverer, post_id):
            sent += 1
        else:
            break  # keep the order of a campaign's posts: retry from here next time
    return sent


async def _target(services: Services, deliverer: Deliverer, post: OutboxPost) -> _Target:
    """The channel a post goes to, opening the campaign's, the GM's or a seat's thread on first use.

    Discord is called outside any database transaction: writers must never wait on the network."""
    async with services.db.read() as session:
        campaign = await session.get(Campaign, post.campaign_id)
        seat = None
        if campaign is not None and post.target.startswith("seat:"):
            seat = await session.scalar(select(Seat).where(Seat.campaign_id == campaign.id,
                                                           Seat.name == post.target[5:]))
    if campaign is None:
        return _Target(None, "campaign deleted")
    if post.target == "channel":
        return _Target(campaign.channel_id)
    if post.target == "thread":
        if campaign.thread_id is None:
            thread = await deliverer.create_thread(campaign.channel_id, campaign.name[:100], private=False)
            return _Target(await _keep_thread(services, Campaign, campaign.id, "thread_id", thread))
        return _Target(campaign.thread_id)
    if post.target == "gm":
        if campaign.gm_thread_id is None:
            thread = await deliverer.create_thread(campaign.channel_id, f"{campaign.name} — GM"[:100], private=True)
            await deliverer.add_member(thread, campaign.gm_user_id)
            return _Target(await _keep_thread(services, Campaign, campaign.id, "gm_thread_id", thread))
        return _Target(campaign.gm_thread_id)
    if post.target.startswith("seat:"):
        if seat is None:
            return _Target(None, "no such seat")
        if seat.thread_id is not None:
            return _Target(seat.thread_id)
        if seat.user_id is None:
            return _Target(None, "no one holds this seat")
        thread = await deliverer.create_thread(campaign.channel_id, f"{campaign.name} — {seat.name}"[:100],
                                               private=True)
        await deliverer.add_member(thread, seat.user_id)
        return _Target(await _keep_thread(services, Seat, seat.id, "thread_id", thread))
    return _Target(None, f"unknown target {post.target}")


async def _keep_thread(services: Services, model: type[Campaign] | type[Seat], row_id: int, column: str,
                       thread_id: int) -> int:
    """Store a new thread's id, unless another delivery stored one first (then use that one)."""
    async with services.db.write() as session:
        row = await session.get(model, row_id, with_for_update=True)
        if row is None:
            return thread_id
        if getattr(row, column) is None:
            setattr(row, column, thread_id)
        return int(getattr(row, column))


def _render(job: dict[str, Any]) -> bytes | None:
    ruleset = get_ruleset(job["ruleset"])
    viewer = job["viewer"]
    return ruleset.render(ruleset.load(job["state"]), Viewer(viewer["kind"], viewer.get("seat")))


async def deliver_one(services: Services, deliverer: Deliverer, post_id: int) -> bool:
    async with services.db.read() as session:
        post = await session.get(OutboxPost, post_id)
        if post is None or post.sent_at is not None:
            return True
    try:
        target = await _target(services, deliverer, post)
        message_id = None
        if target.channel_id is not None:
            for user_id in post.components.get("add_users", []):
                await deliverer.add_member(target.channel_id, user_id)
            for user_id in post.components.get("remove_users", []):
                await deliverer.remove_member(target.channel_id, user_id)
            content, file = post.content, None
            if post.file_name and post.file_data is not None:
                file = (post.file_name, post.file_data)
            job = post.components.get("render")
            if job:
                async with RENDER_SLOTS:
                    png = await asyncio.to_thread(_render, job)
                if png is not None:
                    file = (job["name"], png)
                    content = content or job.get("caption", "")
            chunks = split_message(content)
            if file and not chunks:
                chunks = [""]
            buttons = post.components.get("buttons", [])
            for i, chunk in enumerate(chunks):
                last = i == len(chunks) - 1
                message_id = await deliverer.send(target.channel_id, chunk, file=file if last else None,
                                                  buttons=buttons if last else [], nonce=f"h{post.id}.{i}")
    except DeliveryError as exc:
        await _failed(services, post_id, str(exc), permanent=exc.permanent)
        return exc.permanent
    async with services.db.write() as session:
        row = await session.get(OutboxPost, post_id)
        if row is not None:
            row.sent_at, row.message_id = services.clock.now(), message_id
            row.attempts += 1
            if target.skip:
                row.error = f"not sent: {target.skip}"
    return True


async def _failed(services: Services, post_id: int, error: str, *, permanent: bool) -> None:
    log.warning("outbox post %s failed (%s): %s", post_id, "permanent" if permanent else "will retry", error)
    async with services.db.write() as session:
        row = await session.get(OutboxPost, post_id)
        if row is not None:
            row.attempts = MAX_ATTEMPTS if permanent else row.attempts + 1
            row.error = error
            if permanent:
                campaign = await session.get(Campaign, row.campaign_id)
                if campaign is not None and row.target != "gm":
                    record.post(session, campaign, services, "gm",
                                f"⚠️ A post to {row.target} could not be delivered: {error}")


async def run(services: Services, deliverer: Deliverer, *, idle: float = 30.0) -> None:
    """The delivery task: wake when a post is written (or every `idle` seconds), send, repeat."""
    backoff = 1.0
    while True:
        services.outbox_ready.clear()
        try:
            await deliver_pending(services, deliverer)
            backoff = 1.0
        except Exception:
            log.exception("outbox delivery failed; retrying in %.0fs", backoff)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 60.0)
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(services.outbox_ready.wait(), timeout=idle)
