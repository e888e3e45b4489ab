"""Outbox queries: pending posts and their claims (leases), and the messages already sent near a post."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import OutboxPost

MAX_ATTEMPTS = 20  # failed sends wait RETRY_FIRST, doubling up to RETRY_MOST: about 3 hours before giving up
_PENDING = (OutboxPost.sent_at.is_(None), OutboxPost.attempts < MAX_ATTEMPTS)


async def lock_pending(session: AsyncSession, limit: int) -> Sequence[Any]:
    """The earliest pending posts (id, campaign_id, claimed_by, claimed_until), skipping rows another
    deliverer has locked (PostgreSQL)."""
    return (await session.execute(
        select(OutboxPost.id, OutboxPost.campaign_id, OutboxPost.claimed_by, OutboxPost.claimed_until)
        .where(*_PENDING).order_by(OutboxPost.id).limit(limit).with_for_update(skip_locked=True))).all()


async def other_claimants(session: AsyncSession, owner: str, now: datetime) -> list[str]:
    """Who else holds a live lease on a pending post."""
    return [c for c in await session.scalars(select(OutboxPost.claimed_by).where(
        *_PENDING, OutboxPost.claimed_until > now, OutboxPost.claimed_by != owner).distinct()) if c]


async def held_campaigns(session: AsyncSession, campaigns: Collection[int], owner: str, now: datetime,
                         dead: Collection[str]) -> set[int]:
    """Of these campaigns, those with a pending post under another live claim."""
    if not campaigns:
        return set()
    return {c for c in await session.scalars(select(OutboxPost.campaign_id).where(
        *_PENDING, OutboxPost.campaign_id.in_(campaigns), OutboxPost.claimed_by != owner,
        OutboxPost.claimed_until > now, OutboxPost.claimed_by.not_in(dead)).distinct()) if c is not None}


async def pending_ids(session: AsyncSession, campaigns: Collection[int], limit: int) -> dict[int, list[int]]:
    """Each campaign's first `limit` pending posts, in order (one query for them all)."""
    if not campaigns:
        return {}
    rank = func.row_number().over(partition_by=OutboxPost.campaign_id, order_by=OutboxPost.id).label("rank")
    ranked = select(OutboxPost.id, OutboxPost.campaign_id, rank).where(
        *_PENDING, OutboxPost.campaign_id.in_(campaigns)).subquery()
    out: dict[int, list[int]] = {c: [] for c in campaigns}
    for post_id, campaign_id in await session.execute(
            select(ranked.c.id, ranked.c.campaign_id).where(ranked.c.rank <= limit).order_by(ranked.c.id)):
        out[campaign_id].append(post_id)
    return out


async def claim(session: AsyncSession, post_ids: Collection[int], owner: str, until: datetime) -> None:
    await session.execute(update(OutboxPost).where(OutboxPost.id.in_(post_ids)).values(
        claimed_by=owner, claimed_until=until))


async def release(session: AsyncSession, post_ids: Collection[int], owner: str) -> None:
    """Give back our claims on posts still unsent."""
    await session.execute(update(OutboxPost).where(
        OutboxPost.id.in_(post_ids), OutboxPost.claimed_by == owner, OutboxPost.sent_at.is_(None)).values(
        claimed_by=None, claimed_until=None))


async def sent_near(session: AsyncSession, post: OutboxPost) -> set[int]:
    """Message ids the campaign's other posts of the day before this one were sent as."""
    known: set[int] = set()
    for parts, message_id in await session.execute(
            select(OutboxPost.sent_parts, OutboxPost.message_id).where(
                OutboxPost.campaign_id == post.campaign_id, OutboxPost.id != post.id,
                OutboxPost.created_at >= post.created_at - timedelta(days=1))):
        known.update(int(p) for p in parts or [])
        if message_id:
            known.add(int(message_id))
    return known


async def pending_count(session: AsyncSession) -> int:
    return int(await session.scalar(select(func.count()).select_from(OutboxPost).where(*_PENDING)) or 0)


async def next_retry(session: AsyncSession, backoff: str) -> datetime | None:
    """When the earliest post held back (claimed by `backoff`) after a failed send may be tried again."""
    due: datetime | None = await session.scalar(select(func.min(OutboxPost.claimed_until)).where(
        *_PENDING, OutboxPost.claimed_by == backoff))
    return due
