"""Seat queries: a campaign's seats in table order, and the seat a user holds."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.db import session_rows
from bot.store.models import Seat

_OF_CAMPAIGN = select(Seat).where(Seat.campaign_id == bindparam("campaign")).order_by(Seat.position)
_OF_USER = select(Seat).where(Seat.campaign_id == bindparam("campaign"), Seat.user_id == bindparam("user"))
_ROSTER = select(Seat.name, Seat.automatic).where(Seat.campaign_id == bindparam("campaign")).order_by(Seat.position)
_HELD = select(Seat.id).where(Seat.campaign_id == bindparam("campaign"), Seat.user_id == bindparam("user"))


async def of_campaign(session: AsyncSession, campaign_id: int) -> list[Seat]:
    return list(await session.scalars(_OF_CAMPAIGN, {"campaign": campaign_id}))


async def roster(session: AsyncSession, campaign_id: int) -> list[Any]:
    """The seats' names and whether each plays itself (`.name`, `.automatic`), in table order: plain rows, for a
    reader that needs no more (a big campaign's status would otherwise build an ORM entity per seat)."""
    return await session_rows(session, _ROSTER, {"campaign": campaign_id})


async def of_user(session: AsyncSession, campaign_id: int, user_id: int) -> Seat | None:
    """The user's seat; the one found with the campaign is reused while it is still theirs."""
    known = session.info.get(("seat", campaign_id, user_id))
    if (isinstance(known, Seat) and inspect(known).persistent and known not in session.deleted
            and known.user_id == user_id and known.campaign_id == campaign_id):
        return known
    return await session.scalar(_OF_USER, {"campaign": campaign_id, "user": user_id})


async def held_by(session: AsyncSession, campaign_id: int, user_id: int) -> bool:
    return await session.scalar(_HELD, {"campaign": campaign_id, "user": user_id}) is not None


async def named(session: AsyncSession, campaign_id: int, name: str) -> Seat | None:
    """The seat of this exact name."""
    return await session.scalar(select(Seat).where(Seat.campaign_id == campaign_id, Seat.name == name))
