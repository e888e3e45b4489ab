"""The campaign unit of work: one transaction per command that saves everything or nothing, surfaces a lost race
as a clear retryable error, and keeps `/orders submit` to a handful of SQL statements."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select, update

from bot.service import campaigns, orders, receipts
from bot.service.clock import ManualClock
from bot.service.context import Caller, Services
from bot.service.errors import Conflict, ServiceError
from bot.service.unit import campaign_tx
from bot.store import db as db_module
from bot.store import migrate
from bot.store import orders as order_rows
from bot.store.db import Database
from bot.store.models import Campaign, CampaignStatus, LogEntry, OrderSet, OrderStatus, OutboxPost, Receipt
from engine.core import Visibility

TABLE = 777
GM = Caller(user_id=1, name="gm", guild_id=1, channel_id=TABLE)
ROME = Caller(user_id=11, name="cato", guild_id=1, channel_id=TABLE)
CARTHAGE = Caller(user_id=12, name="hanno", guild_id=1, channel_id=TABLE)


async def _running(db: Database) -> Services:
    services = Services(db=db, clock=ManualClock())
    await campaigns.create(services, GM, "Punic Wars", "freeform", None)
    await campaigns.join(services, ROME, "Rome", None)
    await campaigns.join(services, CARTHAGE, "Carthage", None)
    await campaigns.start(services, GM, None)
    return services


async def _counts(db: Database) -> tuple[int, int, int, int]:
    async with db.read() as session:
        version = await session.scalar(select(Campaign.version_id))
        return (await session.scalar(select(func.count()).select_from(LogEntry)) or 0,
                await session.scalar(select(func.count()).select_from(OutboxPost)) or 0,
                await session.scalar(select(func.count()).select_from(OrderSet)) or 0, version or 0)


@contextmanager
def statements(db: Database) -> Iterator[list[str]]:
    """Every SQL statement sent to the database while the block runs (BEGIN included)."""
    seen: list[str] = []

    def on(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    def straight(statement: str) -> None:  # run straight on the driver's connection (bot.store.db.session_rows…)
        seen.append(statement)

    engines = {db.writer.sync_engine, db.reader.sync_engine}
    for engine in engines:
        event.listen(engine, "before_cursor_execute", on)
    db_module.on_direct.append(straight)
    try:
        yield seen
    finally:
        db_module.on_direct.remove(straight)
        for engine in engines:
            event.remove(engine, "before_cursor_execute", on)


async def test_the_unit_gives_the_campaign_the_callers_seat_and_its_state(db: Database) -> None:
    services = await _running(db)
    async with campaign_tx(services, ROME, write=False) as tx:
        assert tx.campaign.name == "Punic Wars" and tx.campaign.status is CampaignStatus.RUNNING
        assert tx.seat is not None and tx.seat.name == "Rome"
        assert tx.ruleset.id == "freeform" and tx.ruleset.phase(tx.state).label == tx.campaign.phase_label
    async with campaign_tx(services, GM, write=False) as tx:
        assert tx.seat is None and tx.is_gm
        with pytest.raises(ServiceError, match="no seat"):
            tx.require_seat()


async def test_a_failing_block_rolls_back_everything_including_its_posts(db: Database) -> None:
    services = await _running(db)
    before = await _counts(db)
    services.outbox_ready.clear()
    with pytest.raises(ServiceError, match="changed my mind"):
        async with campaign_tx(services, ROME) as tx:
            await tx.log(kind="note", visibility=Visibility.everyone(), body={"text": "never kept"})
            tx.post("thread", "a post that must never be delivered")
            await order_rows.save(tx.session, campaign_id=tx.campaign.id, seat="Rome",
                                  phase_key=tx.campaign.phase_key or "", text="hold", checks=[],
                                  now=services.clock.now())
            await tx.session.flush()  # written to the database inside the transaction, then taken back
            raise ServiceError("changed my mind")
    assert await _counts(db) == before
    assert not services.outbox_ready.is_set()  # the delivery task is woken only by a commit


async def test_a_lost_race_on_the_campaigns_version_is_a_clear_retryable_conflict(db: Database) -> None:
    services = await _running(db)
    before = await _counts(db)
    with pytest.raises(Conflict, match="try again") as caught:
        async with campaign_tx(services, ROME) as tx:
            # another writer's change this unit never saw: the campaign's version moved on under it
            campaign = Campaign.__table__
            await (await tx.session.connection()).execute(
                update(campaign).where(campaign.c.id == tx.campaign.id).values(version_id=campaign.c.version_id + 1))
            await tx.log(kind="note", visibility=Visibility.everyone(), body={"text": "lost the race"})
    assert caught.value.retryable
    assert await _counts(db) == before  # nothing of it was saved, the other change's stand-in included
    reply = await orders.submit(services, ROME, "hold Sicilia", None)  # and the retry works
    assert "saved" in reply.text


async def test_orders_submit_runs_at_most_six_statements_and_saves_what_it_says(db: Database) -> None:
    services = await _running(db)
    # find campaign+seat (PostgreSQL: under its row lock), save orders, ask whether every seat is in, bump the
    # campaign's log seq, append the log entry; PostgreSQL: the saving and the asking one statement, the bump and
    # the entry one (BEGIN and COMMIT are not counted)
    limit = 5 if db.is_sqlite else 3
    for text in ("hold Sicilia", "hold Sicilia | build a fleet"):  # first submission, then a replacement
        with statements(db) as seen:
            reply = await orders.submit(services, ROME, text, None)
        assert "saved (" in reply.text
        assert len(seen) <= limit, "\n".join(seen)
    async with db.read() as session:
        row = await session.scalar(select(OrderSet).where(OrderSet.seat == "Rome"))
    assert row is not None and row.text == "hold Sicilia | build a fleet"
    assert row.status is OrderStatus.OPEN and len(row.checks) >= 1


async def test_the_last_seat_in_is_noticed_within_the_same_few_statements(db: Database) -> None:
    services = await _running(db)
    await orders.submit(services, ROME, "hold Sicilia", None)
    with statements(db) as seen:
        await orders.submit(services, CARTHAGE, "raise a levy", None)
    assert len(seen) <= (6 if db.is_sqlite else 4), seen  # + the GM's "every seat has sent orders" post
    async with db.read() as session:
        posts = list(await session.scalars(select(OutboxPost.content).where(OutboxPost.target == "gm")))
    assert any("Every seat has sent orders" in p for p in posts)


@pytest.mark.parametrize("how", ["channel", "elsewhere", "name", "id"])
async def test_the_campaign_and_the_callers_seat_are_found_in_one_statement(db: Database, how: str) -> None:
    from bot.service.lookup import find_with_seat

    services = await _running(db)
    await campaigns.create(services, GM, "Other War", "freeform", None)  # the GM's second campaign, same channel
    async with db.read() as session:
        cid = await session.scalar(select(Campaign.id).where(Campaign.name == "Punic Wars"))
    caller = Caller(user_id=ROME.user_id, name="cato", guild_id=1, channel_id=99) if how == "elsewhere" else ROME
    name = {"name": "punic wars", "id": f"#{cid}"}.get(how)
    found = None
    async with db.read() as session:
        with statements(db) as seen:
            if how == "channel":  # two live campaigns in this channel: the caller is asked to name one
                with pytest.raises(ServiceError, match="several campaigns"):
                    await find_with_seat(session, caller, name)
            else:
                found = await find_with_seat(session, caller, name)
    queries = [s for s in seen if not s.startswith("BEGIN")]
    assert len(queries) == 1, queries
    if how != "channel":
        assert found is not None and found[0].name == "Punic Wars"
        assert found[1] is not None and found[1].name == "Rome"


@pytest.mark.parametrize("how", ["id", "name"])
async def test_a_button_or_a_named_campaign_is_found_and_locked_in_one_statement(db: Database, how: str) -> None:
    from bot.service.lookup import find_with_seat

    await _running(db)
    async with db.read() as session:
        cid = await session.scalar(select(Campaign.id).where(Campaign.name == "Punic Wars"))
    async with db.write() as session:
        with statements(db) as seen:
            campaign, seat = await find_with_seat(session, CARTHAGE, {"id": f"#{cid}", "name": "Punic Wars"}[how],
                                                  for_update=True)
    queries = [s for s in seen if not s.startswith("BEGIN")]
    assert len(queries) == 1, queries
    assert campaign.id == cid and seat is not None and seat.name == "Carthage"
    if not db.is_sqlite:  # PostgreSQL: the campaign's row, not the (outer-joined) seat's, is locked
        assert "FOR UPDATE OF campaign" in queries[0]


async def test_a_campaign_found_by_its_channel_for_a_change_is_locked_by_the_look_up_itself(db: Database) -> None:
    """A changing command in the campaign's channel (the usual way to play): one statement finds the campaign and
    the seat and, on PostgreSQL, takes the campaign's row lock; another writer waits for it until the commit."""
    from bot.service.lookup import find_with_seat

    await _running(db)
    async with db.write() as session:
        with statements(db) as seen:
            campaign, seat = await find_with_seat(session, CARTHAGE, None, for_update=True, plain=True)
        assert len(seen) == 1, seen
        assert campaign.name == "Punic Wars" and seat is not None and seat.name == "Carthage"
        if db.is_sqlite:
            return
        assert "FOR UPDATE OF campaign" in seen[0]
        other = asyncio.ensure_future(_rename(db, campaign.id))
        await asyncio.sleep(0.3)
        assert not other.done()  # waits for this transaction's lock
        campaign.phase_label = "changed under the lock"
    await other
    async with db.read() as session:
        kept = await session.get(Campaign, campaign.id)
        assert kept is not None and (kept.name, kept.phase_label) == ("Third Punic War", "changed under the lock")


async def _rename(db: Database, campaign_id: int) -> None:
    async with db.write_rows() as conn:
        await conn.execute(update(Campaign).where(Campaign.id == campaign_id)
                           .values(name="Third Punic War", version_id=Campaign.version_id + 1))


async def test_a_campaign_found_by_its_channel_is_read_again_under_its_row_lock(db: Database) -> None:
    """PostgreSQL: the channel's look-up takes no lock (it may match several campaigns); the lock taken after it
    reads the campaign again, so a change committed in between is what the command sees and writes over."""
    from bot.store import campaigns as campaign_rows

    if db.is_sqlite:
        pytest.skip("SQLite's BEGIN IMMEDIATE holds the whole database before the look-up")
    await _running(db)
    async with db.write() as session:
        here = await campaign_rows.here(session, CARTHAGE.guild_id, CARTHAGE.user_id, CARTHAGE.channel_id,
                                        plain=True)
        campaign, seat = here.in_channel()[0]
        read = campaign.version_id
        async with db.write_rows() as other:  # another command commits while this one has not locked yet
            await other.execute(update(Campaign).where(Campaign.id == campaign.id)
                                .values(name="Third Punic War", version_id=Campaign.version_id + 1))
        await campaign_rows.lock(session, campaign)
        assert (campaign.name, campaign.version_id) == ("Third Punic War", read + 1)
        assert seat is not None and seat.name == "Carthage"
        campaign.phase_label = "changed under the lock"  # written against the version locked: no conflict
    async with db.read() as session:
        kept = await session.get(Campaign, campaign.id)
        assert kept is not None
        assert (kept.name, kept.phase_label, kept.version_id) == ("Third Punic War", "changed under the lock",
                                                                  read + 2)


async def _receipts(db: Database) -> list[Receipt]:
    async with db.read() as session:
        return list(await session.scalars(select(Receipt).order_by(Receipt.id)))


async def test_a_commands_receipt_commits_with_its_change_or_not_at_all(db: Database) -> None:
    services = await _running(db)
    before = len(await _receipts(db))
    asked = receipts.expect(interaction_id=9001, user_id=ROME.user_id, command="orders submit#abc")
    with pytest.raises(ServiceError, match="your orders are empty"):
        await orders.submit(services, ROME, "   ", None)  # refused: nothing saved, so no receipt either
    assert asked.receipt_id is None and len(await _receipts(db)) == before
    reply = await orders.submit(services, ROME, "hold Sicilia", None)
    assert "saved" in reply.text and asked.receipt_id is not None
    kept = (await _receipts(db))[-1]
    assert (kept.id, kept.interaction_id, kept.answered) == (asked.receipt_id, 9001, False)
    async with db.read() as session:  # in the same transaction as the orders it receipts
        assert await session.scalar(select(func.count()).select_from(OrderSet)) == 1
    await orders.submit(services, ROME, "hold Sicilia | build a fleet", None)  # the same task's later write
    assert len(await _receipts(db)) == before + 1  # one receipt per command, however many units it runs
    await receipts.settle(services, asked.receipt_id, answered=True, outcome=reply.text)
    kept = (await _receipts(db))[-1]
    assert kept.answered and kept.outcome.startswith("Orders for")


async def test_a_submit_carried_out_for_an_interaction_keeps_its_receipt_without_a_statement_more(
        db: Database) -> None:
    """PostgreSQL: the receipt goes in the statement that appends the log entry, so a submit holds the campaign's
    lock for three statements and its commit; SQLite writes it in a statement of its own (no row locks there)."""
    services = await _running(db)
    services.receipts_pruned_at = services.clock.now()  # the hourly prune of old receipts is not due
    receipts.expect(interaction_id=9010, user_id=ROME.user_id, command="orders submit#abc")
    with statements(db) as seen:
        await orders.submit(services, ROME, "hold Sicilia", None)
    assert len(seen) == (6 if db.is_sqlite else 3), seen
    [kept] = await _receipts(db)
    async with db.read() as session:
        campaign_id = await session.scalar(select(Campaign.id))
    assert (kept.interaction_id, kept.campaign_id, kept.answered) == (9010, campaign_id, False)


async def test_a_command_that_logged_and_then_only_asked_keeps_no_receipt(db: Database) -> None:
    services = await _running(db)
    asked = receipts.expect(interaction_id=9011, user_id=ROME.user_id, command="gm advance#abc")
    async with campaign_tx(services, ROME) as tx:
        await tx.log(kind="note", visibility=Visibility.everyone(), body={"text": "a note first"})
        receipts.only_a_question()  # then it asked before doing anything that cannot be undone
    assert asked.receipt_id is None and await _receipts(db) == []


async def test_a_receipt_lost_with_its_transaction_is_written_by_the_retry(db: Database) -> None:
    services = await _running(db)
    asked = receipts.expect(interaction_id=9002, user_id=ROME.user_id, command="orders submit#abc")
    with pytest.raises(Conflict):
        async with campaign_tx(services, ROME) as tx:
            campaign = Campaign.__table__
            await (await tx.session.connection()).execute(
                update(campaign).where(campaign.c.id == tx.campaign.id).values(version_id=campaign.c.version_id + 1))
            await tx.log(kind="note", visibility=Visibility.everyone(), body={"text": "lost the race"})
    assert asked.receipt_id is None and await _receipts(db) == []
    await orders.submit(services, ROME, "hold Sicilia", None)
    assert asked.receipt_id is not None and [r.interaction_id for r in await _receipts(db)] == [9002]


async def test_a_writer_waiting_for_another_writers_lock_leaves_the_event_loop_free(tmp_path: Path) -> None:
    """SQLite statements run on the event loop's thread, except those that can wait: taking the write lock
    while another process holds it must sleep in a worker thread, not freeze the bot."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/locked.db")
    await migrate.upgrade(db)
    services = await _running(db)
    receipt = await receipts.record(services, interaction_id=9003, user_id=ROME.user_id, campaign_id=None,
                                    command="orders submit#abc", outcome="")
    assert receipt is not None
    other = sqlite3.connect(tmp_path / "locked.db", isolation_level=None)  # another process, say `herald export`
    other.execute("BEGIN IMMEDIATE")
    try:
        settle = asyncio.create_task(receipts.settle(services, receipt, answered=True, outcome="ok"))  # no BEGIN
        submit = asyncio.create_task(orders.submit(services, ROME, "hold Sicilia", None))  # BEGIN IMMEDIATE
        ticks = 0
        for _ in range(20):  # the loop keeps turning while both wait for the lock
            await asyncio.sleep(0.01)
            ticks += 1
        assert not submit.done() and not settle.done() and ticks == 20
    finally:
        other.execute("COMMIT")
        other.close()
    assert "saved" in (await submit).text
    await settle
    assert [r.answered for r in await _receipts(db)] == [True]
    await db.dispose()


async def test_the_wal_is_checkpointed_every_so_many_commits_and_writing_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own checkpoint (it syncs the file) is off on Herald's connections: Herald runs it in a worker
    thread every CHECKPOINT_EVERY commits, and the commits after it still work."""
    from bot.store import inline_sqlite as db_module

    runs: list[int] = []

    def counted(conn: sqlite3.Connection) -> None:
        runs.append(1)
        original(conn)

    original = db_module.checkpoint
    monkeypatch.setattr(db_module, "CHECKPOINT_EVERY", 3)
    monkeypatch.setattr(db_module, "checkpoint", counted)
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/wal.db")
    await migrate.upgrade(db)
    services = await _running(db)
    for n in range(8):
        assert "saved" in (await orders.submit(services, ROME, f"hold Sicilia {n}", None)).text
    assert len(runs) >= 2  # and every submit after a checkpoint was saved
    await db.dispose()


@pytest.mark.parametrize("how", ["here", "#id", "name"])
async def test_a_readers_campaign_and_seat_are_the_stored_ones(db: Database, how: str) -> None:
    """The look-up of campaign_tx (on SQLite plain rows made into the session's entities) gives every column as
    stored, and a writer's change to them is saved, checked against the version read."""
    from sqlalchemy import inspect

    from bot.service.lookup import find_with_seat
    from bot.store.models import Seat

    services = await _running(db)
    await orders.submit(services, ROME, "hold Sicilia", None)  # a JSON state, a log, a phase: every kind of column
    async with db.read() as session:
        stored, stored_seat = await find_with_seat(session, ROME)  # the ORM's own entities
    name = {"here": None, "#id": f"#{stored.id}", "name": "punic WARS"}[how]
    async with campaign_tx(services, ROME, name, write=False) as tx:
        campaign, seat = tx.campaign, tx.seat
        assert campaign in tx.session and inspect(campaign).persistent
    assert seat is not None and stored_seat is not None
    for column in Campaign.__mapper__.column_attrs:
        assert getattr(campaign, column.key) == getattr(stored, column.key), column.key
    for column in Seat.__mapper__.column_attrs:
        assert getattr(seat, column.key) == getattr(stored_seat, column.key), column.key
    assert campaign.status is CampaignStatus.RUNNING and isinstance(campaign.state, dict)
    async with campaign_tx(services, CARTHAGE, name) as tx:  # a writer changes what it found
        assert tx.seat is not None and tx.seat.name == "Carthage"
        tx.campaign.phase_label = "Turn 1 — orders (renamed)"
        tx.seat.automatic = True
    async with db.read() as session:
        again, carthage = await find_with_seat(session, CARTHAGE)
        assert again.phase_label == "Turn 1 — orders (renamed)" and again.version_id == stored.version_id + 1
        assert carthage is not None and carthage.automatic
    async with campaign_tx(services, CARTHAGE, name, write=False) as tx:
        assert tx.seat is not None and tx.seat.name == "Carthage"
    async with campaign_tx(services, GM, name, write=False) as tx:
        assert tx.seat is None and tx.is_gm
