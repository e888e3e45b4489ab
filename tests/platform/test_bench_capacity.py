"""bench_capacity measures what it says: its prepared payloads do the command, and its seeded rows are really read."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bench import bench_capacity as bc
from bot.store.models import Campaign, LogEntry, Seat


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[bc.Table]:
    table = await bc.Table.open(f"sqlite+aiosqlite:///{tmp_path}/bench.db")
    await table.script(bc.FREEFORM)
    yield table
    await table.close()


async def test_a_prepared_submit_saves_orders_each_time_and_its_round_trips_are_counted(table: bc.Table) -> None:
    submit = table.op(bc.SUBMIT)
    await submit()
    assert table.reply().startswith("Orders for **Turn 1 — orders** saved (2 accepted)")
    statements, hops = await bc._count_round_trips(table, submit, 2)
    # BEGIN, the reads, the writes; only a wait for a lock another connection holds goes to the thread
    assert statements >= 3 and hops < statements
    async with table.db.read() as session:
        orders = await session.scalar(select(func.count()).select_from(LogEntry).where(LogEntry.kind == "orders"))
    assert orders == 3  # one log entry per submit: the bench measured real work, not an error reply


async def test_seeded_campaigns_and_history_are_what_the_commands_then_read(table: bc.Table) -> None:
    await bc._many_campaigns(table, 30)
    await table.script(bc._one_turn("war9", "Long War"))
    await bc._long_history(table, "Long War", 9)
    async with table.db.read() as session:
        assert await session.scalar(select(func.count()).select_from(Campaign)) == 32
        assert await session.scalar(select(func.count()).select_from(Seat)) == 3 + 30 * 4 + 2
    await table.op("@catowar9 #war9 /history turn:9")()
    assert table.reply().startswith("**Long War** — turn 9, as Rome:")
    await table.op("@gaius #forum /campaign status")()  # the extra campaigns sit in other channels
    assert table.reply() == "Punic Wars — freeform — running"  # the title of its card
