"""Finding the campaign a request is about, and who the caller is in it."""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service.context import Caller
from bot.service.errors import NotAllowed, NotFound
from bot.service.quoting import clip
from bot.store import campaigns, seats
from bot.store.models import Campaign, CampaignStatus, Seat
from engine.core import Viewer
from engine.core.names import Names, hint, unknown_message

_ID = re.compile(r"[0-9]{1,40}")  # ASCII only: str.isdigit() takes "²", which int() refuses
MAX_ID = 2**31 - 1  # the database's integer column
MAX_NAME = 60  # campaign names are 1-60 characters (campaigns.NAME)


async def find_campaign(session: AsyncSession, caller: Caller, name: str | None = None, *,
                        for_update: bool = False, include_ended: bool = True, plain: bool = False) -> Campaign:
    """By name; else the campaign of this thread or channel; else the caller's only campaign here."""
    return (await find_with_seat(session, caller, name, for_update=for_update, include_ended=include_ended,
                                 plain=plain))[0]


async def find_with_seat(session: AsyncSession, caller: Caller, name: str | None = None, *,
                         for_update: bool = False, include_ended: bool = True,
                         plain: bool = False) -> campaigns.Found:
    """The campaign (as `find_campaign`) and the caller's seat in it, in one round trip; `plain`: on SQLite, the
    session's entities made from plain rows without the ORM's query machinery (see store.campaigns._plain)."""
    found, locked = await _find(session, caller, name, include_ended, for_update, plain)
    if for_update and not locked:  # PostgreSQL: one writer per campaign; SQLite: BEGIN IMMEDIATE holds it
        await campaigns.lock(session, found[0])
    return found


async def _find(session: AsyncSession, caller: Caller, name: str | None, include_ended: bool,
                lock: bool, plain: bool = False) -> tuple[campaigns.Found, bool]:
    """The campaign and seat, and whether the campaign's row lock was taken with them (by id or name)."""
    guild, user = caller.guild_id, caller.user_id
    if name and name.startswith("#") and _ID.fullmatch(name[1:]):  # buttons carry the campaign's id
        campaign_id = int(name[1:])
        found = None if campaign_id > MAX_ID else await campaigns.by_id(session, guild, user, campaign_id,
                                                                        lock=lock, plain=plain)
        if found is None:
            raise NotFound("that campaign no longer exists")
        return found, lock
    if name:
        wanted = " ".join(name.replace("\x00", "").split()).lower()
        found = None if len(wanted) > MAX_NAME else await campaigns.by_name(session, guild, user, wanted,
                                                                            lock=lock, plain=plain)
        if found is None and len(wanted) <= MAX_NAME:
            found = await campaigns.by_name(session, guild, user, (await _forgiven_name(session, guild, name)).lower(),
                                            lock=lock, plain=plain)
        if found is None:
            raise NotFound(f"no campaign called **{clip(name, 60)}** in this server (see `/campaign list`)")
        return found, lock
    here = await campaigns.here(session, guild, user, caller.channel_id, plain=plain, lock=lock)
    threads = here.threads()
    if len(threads) == 1:
        return threads[0], here.locked
    in_channel = here.in_channel()
    live = [f for f in in_channel if f[0].status != CampaignStatus.ENDED] or (in_channel if include_ended else [])
    if len(live) == 1:
        return live[0], here.locked
    if len(live) > 1:
        names = ", ".join(f"**{c.name}**" for c, _ in live)
        raise NotFound(f"several campaigns run in this channel ({names}): name one with `campaign:`")
    mine = here.mine()
    if len(mine) == 1:
        return mine[0], here.locked
    if len(mine) > 1:
        names = ", ".join(f"**{c.name}**" for c, _ in mine)
        raise NotFound(f"you play in several campaigns ({names}): name one with `campaign:`")
    raise NotFound("no campaign here: create one with `/campaign create`, or name one with `campaign:`")


async def _forgiven_name(session: AsyncSession, guild_id: int, typed: str) -> str:
    """The campaign a misspelt or shortened name means (accents and case aside, a unique prefix), or NotFound
    with "did you mean …?": read only after the exact look-up missed, so the common path costs nothing more."""
    names = await session.scalars(select(Campaign.name).where(Campaign.guild_id == guild_id))
    meant = Names(names).match(typed)
    if meant.name is not None:
        return meant.name
    if meant.candidates:
        raise NotFound(unknown_message(meant, what="campaign's name"))
    raise NotFound(f"no campaign called **{clip(typed, 60)}** in this server{hint(meant)} (see `/campaign list`)")


def is_gm(campaign: Campaign, caller: Caller) -> bool:
    return caller.user_id == campaign.gm_user_id or caller.is_gm_role


def require_gm(campaign: Campaign, caller: Caller) -> None:
    if not is_gm(campaign, caller):
        raise NotAllowed(f"only the GM of **{campaign.name}** can do that")


async def seat_of(session: AsyncSession, campaign: Campaign, caller: Caller) -> Seat | None:
    return await seats.of_user(session, campaign.id, caller.user_id)


async def require_seat(session: AsyncSession, campaign: Campaign, caller: Caller) -> Seat:
    seat = await seat_of(session, campaign, caller)
    if seat is None:
        raise NotAllowed(f"you have no seat in **{campaign.name}**")
    return seat


async def viewer_of(session: AsyncSession, campaign: Campaign, caller: Caller) -> Viewer:
    """A seated player sees as their seat; the GM sees all; anyone else is a spectator."""
    seat = await seat_of(session, campaign, caller)
    if seat is not None:
        return Viewer.of_seat(seat.name)
    if is_gm(campaign, caller):
        return Viewer.gm()
    return Viewer.spectator()
