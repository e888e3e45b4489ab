"""Followers: users who asked to see a campaign's thread without a seat."""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import Follower


async def add(session: AsyncSession, campaign_id: int, user_id: int) -> None:
    """Follow (once: following again changes nothing)."""
    if not await session.get(Follower, (campaign_id, user_id)):
        session.add(Follower(campaign_id=campaign_id, user_id=user_id))


async def remove(session: AsyncSession, campaign_id: int, user_id: int) -> None:
    await session.execute(delete(Follower).where(Follower.campaign_id == campaign_id, Follower.user_id == user_id))
