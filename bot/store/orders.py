"""Order queries: a seat's orders for a window (saved in one statement), and who has sent theirs."""

from __future__ import annotations

import functools
from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.db import session_rows, session_write
from bot.store.models import Base, OrderSet, OrderStatus, Seat

_OPEN = OrderSet.status == OrderStatus.OPEN
_ONE = select(OrderSet).where(OrderSet.campaign_id == bindparam("campaign"), OrderSet.seat == bindparam("seat"),
                              OrderSet.phase_key == bindparam("phase"))
_OPEN_ONE = _ONE.where(_OPEN)
_OPEN_CHECKS = select(OrderSet.checks).where(OrderSet.campaign_id == bindparam("campaign"),
                                            OrderSet.seat == bindparam("seat"),
                                            OrderSet.phase_key == bindparam("phase"), _OPEN)
_OPEN_ALL = select(OrderSet).where(OrderSet.campaign_id == bindparam("campaign"),
                                   OrderSet.phase_key == bindparam("phase"), _OPEN)


def _waiting(count: int) -> Any:
    """`Seat.name IN (:w0, …)` for a window waiting for `count` seats: plain parameters, one statement per count
    (an expanding IN is rewritten per call, and cannot run straight on the driver's connection)."""
    return Seat.name.in_([bindparam(f"w{i}", type_=Seat.name.type) for i in range(count)])


def _waiting_params(waiting: Collection[str]) -> dict[str, str]:
    return {f"w{i}": name for i, name in enumerate(sorted(waiting))}


@functools.cache
def _missing(count: int) -> Any:
    """The played (not automatic) seats this window waits for that have no open orders yet."""
    return select(Seat.name).where(
        Seat.campaign_id == bindparam("campaign"), Seat.automatic.is_(False), _waiting(count),
        ~select(OrderSet.id).where(OrderSet.campaign_id == Seat.campaign_id, OrderSet.seat == Seat.name,
                                   OrderSet.phase_key == bindparam("phase"), _OPEN).exists())


@functools.cache
def _played(count: int) -> Any:
    return select(Seat.name).where(Seat.campaign_id == bindparam("campaign"), Seat.automatic.is_(False),
                                   _waiting(count))


@functools.cache
def _all_in(count: int) -> Any:
    return select((_played(count).exists() & ~_missing(count).exists()).label("all_in"))


_SAVES: dict[str, Any] = {}
_TABLE = Base.metadata.tables["order_set"]


def _save_statement(dialect: str) -> Any:
    """INSERT … ON CONFLICT (the window) DO UPDATE: one statement whether the seat sent orders before or not."""
    if dialect not in _SAVES:
        insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
        stmt = insert(_TABLE)  # the table, not the entity: no ORM bulk-insert machinery for one row
        _SAVES[dialect] = stmt.on_conflict_do_update(
            index_elements=[_TABLE.c.campaign_id, _TABLE.c.seat, _TABLE.c.phase_key],
            set_={"text": stmt.excluded.text, "checks": stmt.excluded.checks, "status": stmt.excluded.status,
                  "updated_at": stmt.excluded.updated_at})
    return _SAVES[dialect]


async def save(session: AsyncSession, *, campaign_id: int, seat: str, phase_key: str, text: str,
               checks: list[dict[str, Any]], now: datetime) -> None:
    """The seat's orders for this window, open; an earlier submission's text and checks are replaced."""
    await session_write(session, _save_statement(session.get_bind().dialect.name), {
        "campaign_id": campaign_id, "seat": seat, "phase_key": phase_key, "text": text, "checks": checks,
        "status": OrderStatus.OPEN, "submitted_at": now, "updated_at": now})


@functools.cache
def _save_and_check(count: int) -> Any:
    """PostgreSQL: the orders saved and "is every seat in?" answered in one statement (one round trip, not two).
    The SELECT does not see the row its WITH writes, so it counts the saving seat in itself: every other played
    seat the window waits for must have open orders."""
    stmt = postgresql.insert(_TABLE).values(
        {name: bindparam("o_" + name, type_=_TABLE.c[name].type) for name in _SAVED})
    saved = stmt.on_conflict_do_update(
        index_elements=[_TABLE.c.campaign_id, _TABLE.c.seat, _TABLE.c.phase_key],
        set_={"text": stmt.excluded.text, "checks": stmt.excluded.checks, "status": stmt.excluded.status,
              "updated_at": stmt.excluded.updated_at}).returning(_TABLE.c.id).cte("saved")
    others_missing = _missing(count).where(Seat.name != bindparam("o_seat"))
    return select((_played(count).exists() & ~others_missing.exists()).label("all_in")).add_cte(saved)


_SAVED = ["campaign_id", "seat", "phase_key", "text", "checks", "status", "submitted_at", "updated_at"]


async def save_and_check(session: AsyncSession, *, campaign_id: int, seat: str, phase_key: str, text: str,
                         checks: list[dict[str, Any]], now: datetime, waiting: Collection[str]) -> bool:
    """`save` the seat's orders, then whether every played seat the window waits for has sent theirs (`all_in`):
    on PostgreSQL in one statement."""
    if session.get_bind().dialect.name != "postgresql":
        await save(session, campaign_id=campaign_id, seat=seat, phase_key=phase_key, text=text, checks=checks,
                   now=now)
        return await all_in(session, campaign_id, phase_key, waiting)
    values = {"campaign_id": campaign_id, "seat": seat, "phase_key": phase_key, "text": text, "checks": checks,
              "status": OrderStatus.OPEN, "submitted_at": now, "updated_at": now}
    rows = await session_rows(session, _save_and_check(len(waiting)), {
        **{"o_" + name: value for name, value in values.items()},
        "campaign": campaign_id, "phase": phase_key, **_waiting_params(waiting)})
    return bool(rows[0].all_in)


async def open_one(session: AsyncSession, campaign_id: int, seat: str, phase_key: str | None) -> OrderSet | None:
    return await session.scalar(_OPEN_ONE, {"campaign": campaign_id, "seat": seat, "phase": phase_key})


async def open_checks(session: AsyncSession, campaign_id: int, seat: str,
                      phase_key: str | None) -> list[dict[str, Any]] | None:
    """The checks of the seat's open orders for the window (None: it has none), read as a plain row."""
    rows = await session_rows(session, _OPEN_CHECKS, {"campaign": campaign_id, "seat": seat, "phase": phase_key})
    return list(rows[0].checks) if rows else None


async def open_all(session: AsyncSession, campaign_id: int, phase_key: str | None) -> dict[str, OrderSet]:
    """Every seat's open orders for the window, by seat name."""
    return {r.seat: r for r in await session.scalars(_OPEN_ALL, {"campaign": campaign_id, "phase": phase_key})}


async def all_in(session: AsyncSession, campaign_id: int, phase_key: str, waiting: Collection[str]) -> bool:
    """Whether every played seat the window waits for has open orders (False if it waits for none)."""
    params = {"campaign": campaign_id, "phase": phase_key, **_waiting_params(waiting)}
    return bool((await session_rows(session, _all_in(len(waiting)), params))[0].all_in)


_SEATS_IN = select(OrderSet.seat).where(OrderSet.campaign_id == bindparam("campaign"),
                                        OrderSet.phase_key == bindparam("phase"), _OPEN)
_ALL = select(OrderSet).where(OrderSet.campaign_id == bindparam("campaign")).order_by(OrderSet.id)
# the seats in table order, each with whether it has open orders for the window: one statement for a status
_ROSTER_SENT = select(Seat.name, Seat.automatic, select(OrderSet.id).where(
    OrderSet.campaign_id == Seat.campaign_id, OrderSet.seat == Seat.name, OrderSet.phase_key == bindparam("phase"),
    _OPEN).exists().label("sent")).where(Seat.campaign_id == bindparam("campaign")).order_by(Seat.position)


async def seats_in(session: AsyncSession, campaign_id: int, phase_key: str | None) -> set[str]:
    """The seats with open orders for the window."""
    return {row.seat for row in await session_rows(session, _SEATS_IN, {"campaign": campaign_id, "phase": phase_key})}


async def roster_sent(session: AsyncSession, campaign_id: int, phase_key: str | None) -> list[Any]:
    """The seats in table order (`.name`, `.automatic`) and whether each has open orders for the window
    (`.sent`): the roster and `seats_in` in one statement."""
    return await session_rows(session, _ROSTER_SENT, {"campaign": campaign_id, "phase": phase_key})


async def of_campaign(session: AsyncSession, campaign_id: int) -> list[OrderSet]:
    """Every order set the campaign ever had, oldest first."""
    return list(await session.scalars(_ALL, {"campaign": campaign_id}))
