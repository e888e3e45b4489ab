"""Timers: one lock order with commands (no deadlock on PostgreSQL); a failing timer retried, never stalling others."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from bot.console.runner import Console
from bot.service import deadlines, gm, timers
from bot.service.context import Caller
from bot.store.models import Campaign, OutboxPost, Timer
from tests.conftest import _console, drop_schema, make_db

TWO_CAMPAIGNS = """
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@gaius /campaign start
@gaius /gm deadline set when:1d
@pompey #hispania /campaign create name:Hispania ruleset:freeform
@sertorius /campaign join seat:Lusitani
@pompey /campaign start
@pompey /gm deadline set when:1d
"""


@pytest.fixture
async def pg_console(tmp_path: object) -> AsyncIterator[Console]:
    """The console on PostgreSQL only: SQLite's BEGIN IMMEDIATE already serialises every writer."""
    from bot.store import migrate

    database, schema = await make_db("postgres", tmp_path)
    await migrate.upgrade(database)
    try:
        async for con in _console(database, tmp_path):
            yield con
    finally:
        await database.dispose()
        assert schema
        await drop_schema(schema)


async def _campaign(con: Console, name: str) -> Campaign:
    async with con.services.db.read() as session:
        found = await session.scalar(select(Campaign).where(Campaign.name == name))
        assert found is not None
        return found


async def _posts(con: Console, campaign_id: int, text: str) -> list[OutboxPost]:
    async with con.services.db.read() as session:
        rows = await session.scalars(select(OutboxPost).where(OutboxPost.campaign_id == campaign_id))
        return [r for r in rows if text in r.content]


@pytest.mark.postgres
async def test_a_timer_firing_while_the_gm_resets_the_deadline_never_deadlocks(pg_console: Console) -> None:
    con = pg_console
    await con.run_script(TWO_CAMPAIGNS)
    gaul = await _campaign(con, "Gaul")
    caller = Caller(user_id=con.fake.user("gaius"), name="gaius", guild_id=gaul.guild_id, channel_id=gaul.channel_id)
    rounds, fired = 40, 0
    for _ in range(rounds):
        async with con.services.db.write() as session:  # a deadline due right now, as a command would set it
            campaign = await session.scalar(select(Campaign).where(Campaign.id == gaul.id).with_for_update())
            assert campaign is not None
            await timers.set_deadline(session, con.services, campaign, con.clock.now())
            await session.flush()
            timer_id = await session.scalar(select(Timer.id).where(
                Timer.campaign_id == gaul.id, Timer.fired.is_(False), Timer.kind == "deadline"))
        assert timer_id is not None
        # the timer fires while the GM, in another transaction, clears and sets timers on the same campaign
        results = await asyncio.gather(deadlines.fire(con.services, timer_id),
                                       gm.deadline(con.services, caller, "2d", "Gaul"), return_exceptions=True)
        assert results[0] is True, results
        assert not isinstance(results[1], BaseException), results
        async with con.services.db.read() as session:
            timer = await session.get(Timer, timer_id)
        fired += timer is not None  # one outcome: the timer fired (and stays, fired) or the GM cleared it first
        assert timer is None or timer.fired
    assert len(await _posts(con, gaul.id, "has passed; the GM will advance")) == fired
    assert not await _posts(con, gaul.id, "could not run")
    await con.pump()  # and the deadline the GM set last still stands
    assert (await _campaign(con, "Gaul")).deadline == con.clock.now() + timedelta(days=2)


async def test_a_failing_timer_is_retried_soon_and_never_holds_up_the_others(
        console: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    await console.run_script(TWO_CAMPAIGNS)
    gaul, hispania = await _campaign(console, "Gaul"), await _campaign(console, "Hispania")
    handle = deadlines._handle
    failures = {"left": 2}

    async def flaky(session: Any, services: Any, campaign: Campaign, timer: Timer) -> None:
        if campaign.id == gaul.id and timer.kind == "deadline" and failures["left"]:
            failures["left"] -= 1
            raise ConnectionResetError("Discord reset the connection")
        await handle(session, services, campaign, timer)

    monkeypatch.setattr(deadlines, "_handle", flaky)
    out = "\n".join(await console.run_line("clock +1d"))
    # Hispania's timer fired although Gaul's failed first
    assert "#Hispania: ⏰ The deadline for **Turn 1 — orders** has passed" in out
    assert len(await _posts(console, hispania.id, "has passed; the GM will advance")) == 1
    assert not await _posts(console, gaul.id, "has passed")
    async with console.services.db.read() as session:
        timer = await session.scalar(select(Timer).where(Timer.campaign_id == gaul.id, Timer.kind == "deadline"))
        assert timer is not None and not timer.fired and timer.payload["attempts"] == 1
        assert timer.due_at == console.clock.now() + deadlines.RETRY_AFTER[0]
    await console.run_line("clock +30s")  # the second try fails too: the pause grows
    assert not await _posts(console, gaul.id, "has passed")
    await console.run_line("clock +1m")
    assert not await _posts(console, gaul.id, "has passed")
    await console.run_line("clock +1m")
    assert len(await _posts(console, gaul.id, "has passed; the GM will advance")) == 1
    assert not await _posts(console, gaul.id, "could not run")


async def test_a_timer_that_keeps_failing_is_given_up_with_a_note_to_the_gm(
        lite: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    await lite.run_script(TWO_CAMPAIGNS)
    gaul = await _campaign(lite, "Gaul")

    handle = deadlines._handle

    async def broken(session: Any, services: Any, campaign: Campaign, timer: Timer) -> None:
        if timer.kind == "deadline":
            raise RuntimeError("the map data is corrupt")
        await handle(session, services, campaign, timer)

    monkeypatch.setattr(deadlines, "_handle", broken)
    await lite.run_line("clock +1d")
    for pause in deadlines.RETRY_AFTER:
        assert not await _posts(lite, gaul.id, "given up")
        await lite.run_line(f"clock +{int(pause.total_seconds())}s")
    notes = await _posts(lite, gaul.id, "could not run")
    assert len(notes) == 1 and notes[0].target == "gm"
    assert "the map data is corrupt" in notes[0].content and "5 tries" in notes[0].content
    async with lite.services.db.read() as session:
        assert await timers.earliest(session) is None  # nothing left to fire, nothing looping


async def test_a_process_fires_its_guilds_timers_first_and_another_processes_once_they_waited(
        console: Console) -> None:
    """Three processes sharing deadlines: each fires its own shards' guilds' first, so they seldom reach for the same
    campaign; a deadline of another process's guild is fired here only once it has been due OTHERS_AFTER (its
    process is dead or behind), so it still fires."""
    no_reminders = TWO_CAMPAIGNS.replace("/campaign start\n", "/campaign start\n/gm settings key:reminders value:off\n")
    await console.run_script(no_reminders.replace("@gaius /gm deadline", "@gaius #forum /gm deadline"))
    gaul, hispania = await _campaign(console, "Gaul"), await _campaign(console, "Hispania")
    async with console.services.db.write() as session:  # Gaul's guild on shard 0 of 3, Hispania's on shard 1
        for campaign, shard in ((gaul, 0), (hispania, 1)):
            await session.execute(update(Campaign).where(Campaign.id == campaign.id).values(
                guild_id=((3000 + shard) << 22) + 5))
    assert gaul.deadline is not None
    console.clock.advance(gaul.deadline - console.clock.now())  # both deadlines are due now
    shard_0 = (3, frozenset({0}))
    async with console.services.db.read() as session:  # the next one for this process: its own, now
        assert await timers.earliest(session, shard_0) == console.clock.now()
    assert await deadlines.run_due(console.services, shard_0) == 1
    assert len(await _posts(console, gaul.id, "has passed;")) == 1
    assert not await _posts(console, hispania.id, "has passed;")  # left to shard 1's process, for now
    async with console.services.db.read() as session:  # and looked at again once that one has had its time
        assert await timers.earliest(session, shard_0) == console.clock.now() + timers.OTHERS_AFTER
    console.clock.advance(timers.OTHERS_AFTER)
    assert await deadlines.run_due(console.services, shard_0) == 1  # shard 1's process is gone: fired here
    assert len(await _posts(console, hispania.id, "has passed;")) == 1
    assert len(await _posts(console, gaul.id, "has passed;")) == 1
