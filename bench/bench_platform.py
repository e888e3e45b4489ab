"""The platform: a freeform turn of 20 seats through the service layer on SQLite, and outbox delivery."""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from collections.abc import Callable

from bot.service import campaigns, gm, orders, outbox
from bot.service.clock import ManualClock
from bot.service.context import Caller, Services
from bot.store import migrate
from bot.store.db import Database

SEATS = 20
_names = itertools.count()


class _NoDiscord:
    """Delivery to nowhere: measures the outbox's own work, not a network."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)

    async def send(self, channel_id: int, content: str, **_: object) -> int:
        return next(self.ids)

    async def create_thread(self, channel_id: int, name: str, *, private: bool) -> int:
        return next(self.ids)

    async def add_member(self, thread_id: int, user_id: int) -> None:
        return None

    async def remove_member(self, thread_id: int, user_id: int) -> None:
        return None


async def _turn(services: Services) -> None:
    table = 100 + next(_names)
    host = Caller(1, "gm", 1, table)
    players = [Caller(1000 + i, f"p{i}", 1, table) for i in range(SEATS)]
    await campaigns.create(services, host, f"Bench {table}", "freeform", None)
    for i, player in enumerate(players):
        await campaigns.join(services, player, f"Seat {i}", None)
    await campaigns.start(services, host, None)
    for player in players:
        await orders.submit(services, player, "hold the line\nsend envoys\nraise taxes", None)
    await gm.act(services, host, "result all: the turn passes", None)
    await gm.advance(services, host, None)
    await outbox.deliver_pending(services, _NoDiscord())  # type: ignore[arg-type]


def _freeform_turn() -> None:
    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            db = Database(f"sqlite+aiosqlite:///{tmp}/bench.db")
            await migrate.upgrade(db)
            try:
                await _turn(Services(db=db, clock=ManualClock()))
            finally:
                await db.dispose()

    asyncio.run(run())


def cases() -> dict[str, Callable[[], object]]:
    return {f"new SQLite db + freeform campaign, {SEATS} seats, 1 turn": _freeform_turn}
