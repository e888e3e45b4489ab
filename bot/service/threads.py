"""Opening a campaign's threads exactly once: each is recorded as opening before Discord is asked.

A crash or a lost response between asking Discord and storing the id leaves `*_opening_at` set and no id;
the next delivery then looks for the thread among the guild's active threads (by parent channel and its
deterministic name) and adopts it, and opens a new one only if none is there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.service.faults import crash_point
from bot.store import seats as seat_rows
from bot.store.models import Campaign, Seat

if TYPE_CHECKING:
    from bot.service.context import Services
    from bot.service.outbox import Deliverer


def thread_name(campaign: Campaign, seat: str | None = None, *, gm: bool = False) -> str:
    """The thread's name, the same every time, so a thread opened before a crash can be found again."""
    if gm:
        return f"{campaign.name} — GM"[:100]
    if seat is not None:
        return f"{campaign.name} — {seat}"[:100]
    return campaign.name[:100]


@dataclass(frozen=True)
class Slot:
    """Where one thread's id is kept, and what the thread is."""

    model: type[Campaign] | type[Seat]
    row_id: int
    id_column: str
    opening_column: str
    name: str
    private: bool
    member: int | None = None  # who must be in the (private) thread


def campaign_slot(campaign: Campaign) -> Slot:
    return Slot(Campaign, campaign.id, "thread_id", "thread_opening_at", thread_name(campaign), private=False)


def gm_slot(campaign: Campaign) -> Slot:
    return Slot(Campaign, campaign.id, "gm_thread_id", "gm_thread_opening_at", thread_name(campaign, gm=True),
                private=True, member=campaign.gm_user_id)


def seat_slot(campaign: Campaign, seat: Seat) -> Slot:
    return Slot(Seat, seat.id, "thread_id", "thread_opening_at", thread_name(campaign, seat.name), private=True,
                member=seat.user_id)


async def open_thread(services: Services, deliverer: Deliverer, campaign: Campaign, slot: Slot) -> int | None:
    """The slot's thread id: the stored one, one opened before a crash (adopted), or a new one."""
    async with services.db.write() as session:
        row = await session.get(slot.model, slot.row_id, with_for_update=True)
        if row is None:
            return None
        stored: int | None = getattr(row, slot.id_column)
        opening = getattr(row, slot.opening_column)
        if stored is None and opening is None:
            setattr(row, slot.opening_column, services.clock.now())
    if stored is not None:
        return int(stored)
    thread = None
    if opening is not None:  # an earlier try may have opened it: adopt it rather than open a second
        thread = await find_thread(deliverer, campaign.guild_id, campaign.channel_id, slot.name)
    if thread is None:
        crash_point("thread-opening")
        thread = await deliverer.create_thread(campaign.channel_id, slot.name, private=slot.private)
        crash_point("thread-opened")
    if slot.member is not None:
        await deliverer.add_member(thread, slot.member)  # idempotent: also after adopting
    return await keep_thread(services, slot, thread)


async def find_thread(deliverer: Deliverer, guild_id: int, channel_id: int, name: str) -> int | None:
    """The bot's active thread under this channel with this name, if Discord has one."""
    matches = [t.id for t in await deliverer.active_threads(guild_id)
               if t.parent_id == channel_id and t.name.strip() == name.strip()]
    return min(matches) if matches else None  # the oldest, should there somehow be two


async def keep_thread(services: Services, slot: Slot, thread_id: int) -> int:
    """Store a new thread's id, unless another delivery stored one first (then use that one)."""
    async with services.db.write() as session:
        row = await session.get(slot.model, slot.row_id, with_for_update=True)
        if row is None:
            return thread_id
        if getattr(row, slot.id_column) is None:
            setattr(row, slot.id_column, thread_id)
        return int(getattr(row, slot.id_column))


async def seat_of(services: Services, campaign_id: int, name: str) -> Seat | None:
    async with services.db.read() as session:
        return await seat_rows.named(session, campaign_id, name)
