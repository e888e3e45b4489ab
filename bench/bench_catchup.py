""""Since you last looked": what it costs a command, measured side by side in one run on SQLite.

Three figures per round, interleaved so that the machine's noise falls on all of them alike:
* **caught up**: `/orders submit` by a seat with nothing new since its mark (the common case: the check compares
  two columns the lookup already read);
* **news, quiet**: the same command when the campaign has news since the mark but the player was here recently,
  plus the follow-up that moves the mark silently (one short transaction after the answer);
* **news, digest**: the same command after 40 resolved turns (about 200 entries) and three days away, plus the
  follow-up that reads the entries and writes the digest (a freeform campaign without regions: no map drawn).
The report gives each one's median milliseconds and its ratio to the first."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from bot.service import campaigns, catchup, confirmations, gm, news, orders
from bot.service.clock import ManualClock
from bot.service.context import Caller, Services
from bot.store import migrate
from bot.store.db import Database

ROUNDS = 9
TURNS = 40


async def _campaign(db: Database, table: int) -> tuple[Services, ManualClock, Caller, Caller]:
    clock = ManualClock()
    services = Services(db=db, clock=clock)
    host, rome, carthage = (Caller(1, "gm", 1, table), Caller(11, "cato", 1, table), Caller(12, "hanno", 1, table))
    await campaigns.create(services, host, f"Bench {table}", "freeform", None)
    await campaigns.join(services, rome, "Rome", None)
    await campaigns.join(services, carthage, "Carthage", None)
    await campaigns.start(services, host, None)
    return services, clock, host, rome


async def _command(services: Services, caller: Caller) -> list[news.Due]:
    news.begin()
    await orders.submit(services, caller, "hold Sicilia | build a fleet", None)
    return news.taken()


async def _follow_up(services: Services, caller: Caller, dues: list[news.Due]) -> Any:
    return [await catchup.automatic(services, caller, due) for due in dues]


async def _timed(work: Callable[[], Awaitable[Any]]) -> float:
    start = time.perf_counter()
    await work()
    return (time.perf_counter() - start) * 1000


async def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite+aiosqlite:///{tmp}/bench.db")
        await migrate.upgrade(db)
        try:
            figures: dict[str, list[float]] = {"caught up": [], "news, quiet": [], "news, digest": []}
            for n in range(ROUNDS):
                services, clock, host, rome = await _campaign(db, 100 + n)
                await _follow_up(services, rome, await _command(services, rome))  # the start: a quiet mark move
                figures["caught up"].append(await _timed(lambda s=services, r=rome: _command(s, r)))

                await gm.deadline(services, host, "3d", None)  # news; Rome was here a moment ago

                async def quiet(s: Services = services, r: Caller = rome) -> None:
                    assert await _follow_up(s, r, await _command(s, r)) == [None]

                figures["news, quiet"].append(await _timed(quiet))
                for turn in range(TURNS):
                    await gm.act(services, host, f"result all: turn {turn}, the legions march", None)
                    await gm.note(services, host, f"the Senate meets, turn {turn}", "Rome", None)
                    asked = await gm.advance(services, host, None)  # Carthage gave no orders: the GM is asked
                    assert asked.confirm is not None
                    await confirmations.answer(services, host, asked.confirm[0], confirmed=True)
                clock.advance(timedelta(days=3))

                async def digest(s: Services = services, r: Caller = rome) -> None:
                    shown = await _follow_up(s, r, await _command(s, r))
                    assert shown and shown[0] is not None and "Since you last looked" in shown[0].text

                figures["news, digest"].append(await _timed(digest))
        finally:
            await db.dispose()
    base = statistics.median(figures["caught up"])
    print(f"SQLite, {ROUNDS} rounds (a new campaign each), medians:")
    for name, values in figures.items():
        middle = statistics.median(values)
        print(f"  {name:14} {middle:8.2f} ms   {middle / base:5.2f}× of caught up")


def main() -> None:
    asyncio.run(run())


def cases() -> dict[str, Callable[[], object]]:
    return {}


if __name__ == "__main__":
    main()
