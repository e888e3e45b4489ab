"""The schema: Alembic upgrades and downgrades on SQLite and PostgreSQL, and matches the models; concurrent
writers on one campaign all land."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import bindparam, inspect, select

from bot.service import campaigns, orders
from bot.service.clock import ManualClock
from bot.service.context import Caller, Services
from bot.store import migrate
from bot.store.db import Database
from bot.store.models import Base, LogEntry, OrderSet, Seat
from tests.conftest import drop_schema, make_db

TABLES = {"campaign", "seat", "log_entry", "snapshot", "order_set", "follower", "timer", "outbox"}


async def _tables(db: Database) -> set[str]:
    async with db.reader.connect() as conn:
        return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))


async def test_migrations_upgrade_match_the_models_and_downgrade(backend: str, tmp_path: Path) -> None:
    db, schema = await make_db(backend, tmp_path)
    try:
        await migrate.upgrade(db)
        assert await migrate.current(db) == migrate.head(db.url)
        assert await _tables(db) >= TABLES
        async with db.reader.connect() as conn:
            diff = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata))
        assert diff == []
        await migrate.downgrade(db, "base")
        assert not TABLES & await _tables(db)
        await migrate.upgrade(db)
        assert await _tables(db) >= TABLES
    finally:
        await db.dispose()
        if schema:
            await drop_schema(schema)


async def test_concurrent_orders_from_every_seat_all_land(db: Database) -> None:
    services = Services(db=db, clock=ManualClock())
    table = 555

    def who(n: int) -> Caller:
        return Caller(user_id=1000 + n, name=f"p{n}", guild_id=1, channel_id=table)

    gm = Caller(user_id=1, name="gm", guild_id=1, channel_id=table)
    await campaigns.create(services, gm, "Rush", "freeform", None)
    for n in range(8):
        await campaigns.join(services, who(n), f"Seat {n}", None)
    await campaigns.start(services, gm, None)
    await asyncio.gather(*(orders.submit(services, who(n), f"order {n}", None) for n in range(8)))
    async with db.read() as session:
        saved = list(await session.scalars(select(OrderSet.seat)))
        seqs = list(await session.scalars(select(LogEntry.seq).order_by(LogEntry.seq)))
    assert sorted(saved) == [f"Seat {n}" for n in range(8)]
    assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_pooled_connection_dropped_while_idle_is_replaced_unseen(db: Database,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.store import db as db_module

    async def backend_pid() -> int:
        async with db.read_rows() as conn:
            return int((await conn.exec_driver_sql("SELECT pg_backend_pid()")).scalar_one())

    pings = 0
    do_ping = db.writer.sync_engine.dialect.do_ping

    def counted(dbapi_conn: Any) -> bool:
        nonlocal pings
        pings += 1
        return do_ping(dbapi_conn)

    monkeypatch.setattr(db.writer.sync_engine.dialect, "do_ping", counted)
    first = await backend_pid()
    for _ in range(20):  # a busy pool: no round trip spent checking connections just used
        assert await backend_pid() == first
    assert pings == 0
    other = Database(db.url)
    async with other.writer.connect() as conn:  # the server (or the network) drops the idle connection
        await conn.exec_driver_sql(f"SELECT pg_terminate_backend({first})")
    await other.dispose()
    monkeypatch.setattr(db_module, "PING_AFTER_IDLE", 0.0)  # as if it sat idle longer than that
    assert await backend_pid() != first  # checked on checkout, found gone, replaced: the command never sees it
    assert pings == 1


def test_a_direct_statements_arguments_are_what_sqlalchemy_would_bind() -> None:
    """Direct binds a statement's parameters itself (given ones converted by their types, constants once): the
    same values SQLAlchemy's construct_params gives, and its checks where that shortcut does not apply."""
    from sqlalchemy.dialects import sqlite

    from bot.store import campaigns as campaign_rows
    from bot.store import orders as order_rows
    from bot.store.inline_sqlite import Direct

    dialect = sqlite.dialect()
    params = {"channel": 7, "user": 11, "guild": 1}
    here = Direct(campaign_rows._PLAIN_HERE, dialect, params)  # a constant inside (campaigns not ENDED)
    assert here.plan is not None
    values = here.compiled.construct_params(params)
    expected = [v if p is None else p(v) for v, p in zip((values[n] for n in here.names), here.bind_types,
                                                          strict=True)]
    assert here.args(params) == expected and "ended" in [str(a).lower() for a in expected]
    with pytest.raises(ValueError, match="expanding"):  # SQL rewritten per call: never compiled once
        Direct(select(Seat.name).where(Seat.name.in_(bindparam("waiting", expanding=True))), dialect, {"waiting"})
    waiting = Direct(order_rows._missing(3), dialect, {"campaign", "phase", "w0", "w1", "w2"})
    assert waiting.plan is not None
    args = waiting.args({"campaign": 1, "phase": "t1", "w0": "A", "w1": "B", "w2": "C"})
    assert [a for a in args if a in ("A", "B", "C", "t1", 1)] == [1, "A", "B", "C", "t1"]
    missing = Direct(campaign_rows._PLAIN_HERE, dialect, {"channel", "user"})
    with pytest.raises(Exception, match="guild"):
        missing.args({"channel": 7, "user": 11})


async def test_straight_statements_fail_as_sqlalchemys_would_and_leave_the_transaction_to_roll_back(
        db: Database) -> None:
    """A statement run straight on the driver's connection (both backends) that breaks a constraint raises
    SQLAlchemy's IntegrityError, and what the transaction did before it is rolled back with it."""
    from sqlalchemy import insert
    from sqlalchemy.exc import IntegrityError

    from bot.store.db import session_rows, session_write
    from bot.store.models import Campaign, CampaignStatus

    now = ManualClock().now()
    row = {"id": 9999, "guild_id": 1, "channel_id": 2, "name": "Dup", "ruleset": "freeform",
           "ruleset_version": "1", "options": {}, "settings": {}, "files": {}, "tables": {}, "gm_user_id": 3,
           "status": CampaignStatus.LOBBY, "seed": "00" * 32, "commitment": "00" * 32, "created_at": now}
    with pytest.raises(IntegrityError):
        async with db.write() as session:
            assert await session_write(session, insert(Campaign.__table__), row) == 1
            await session_write(session, insert(Campaign.__table__), row)  # the same id again
    async with db.read() as session:
        names = await session_rows(session, select(Campaign.__table__.c.name), {})
    assert "Dup" not in [r.name for r in names]


async def test_the_read_before_every_command_uses_its_index_not_the_users_whole_day(tmp_path: Path) -> None:
    """The receipt read before each command finds the user's unanswered receipts of that command by index: it
    does not go through every receipt the user made since the last prune."""
    from bot.store import receipts

    database = Database(f"sqlite+aiosqlite:///{tmp_path}/plan.db")
    await migrate.upgrade(database, "head")
    compiled = receipts._EARLIER.compile(dialect=database.writer.sync_engine.dialect)
    async with database.read_rows() as conn:
        plan = (await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + compiled.string,
                                           tuple(0 for _ in compiled.positiontup or ()))).all()
    await database.dispose()
    details = " ".join(str(row[-1]) for row in plan)
    assert "ix_receipt_unanswered (user_id=? AND command=? AND answered=? AND at>?)" in details, details


async def test_a_receipt_kept_twice_for_one_interaction_is_refused_as_sqlalchemy_refuses_it(db: Database) -> None:
    """Two processes carrying out one interaction at the same moment: the second receipt, written straight on the
    driver's connection, fails with IntegrityError (the command then answers "already carried out")."""
    from sqlalchemy.exc import IntegrityError

    from bot.store import receipts

    receipt = {"interaction_id": 77, "user_id": 5, "campaign_id": None, "command": "/roll", "outcome": "",
               "answered": False, "at": ManualClock().now()}
    async with db.write() as session:
        first = await receipts.add_in(session, **receipt)
    with pytest.raises(IntegrityError):
        async with db.write() as session:
            await receipts.add_in(session, **receipt)
    assert [r.id for r in await receipts.earlier(db, 77, 5, "/roll", ManualClock().now())] == [first]


async def test_the_receipt_read_before_a_command_survives_its_connection_being_dropped(db: Database) -> None:
    """PostgreSQL: the single statements around every command run on a small pool of their own; one whose
    connection the server (or the network) dropped while idle runs again on another, and the command never sees
    it."""
    from bot.store import receipts

    if db.is_sqlite:
        pytest.skip("SQLite: a file, no connection to lose")
    now = ManualClock().now()
    async with db.write() as session:
        first = await receipts.add_in(session, interaction_id=91, user_id=5, campaign_id=None, command="/roll",
                                      outcome="", answered=False, at=now)
    assert [r.id for r in await receipts.earlier(db, 91, 5, "/roll", now)] == [first]
    single = db._single
    assert single is not None and single._pool is not None
    async with single._pool.acquire() as conn:
        pids = [await conn.fetchval("SELECT pg_backend_pid()")]
    other = Database(db.url)
    async with other.writer.connect() as conn:
        for pid in pids:
            await conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
    await other.dispose()
    assert [r.id for r in await receipts.earlier(db, 91, 5, "/roll", now)] == [first]
    await receipts.settle(db, first, answered=True, outcome="🎲 7")
    assert await receipts.earlier(db, 91, 5, "/roll", now)  # this interaction's own receipt, answered or not
