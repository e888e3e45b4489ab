"""The database: SQLite (WAL, busy timeout, BEGIN IMMEDIATE for writes) or PostgreSQL, same code."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

SINGLE_READ = "herald_single_read"  # execution option: a connection that only runs one SELECT at a time
IDLE_IN_TRANSACTION = "60s"  # PostgreSQL ends a transaction left idle this long (its client is gone)
SQLITE_PRAGMAS = ("journal_mode=WAL", "busy_timeout=15000", "synchronous=NORMAL", "foreign_keys=ON")


def _sqlite_engine(url: str, begin: str) -> AsyncEngine:
    engine = create_async_engine(url, connect_args={"timeout": 15}, hide_parameters=True)

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy, not the driver, decides when a transaction begins
        cursor = dbapi_conn.cursor()
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        # A deferred BEGIN fails at once with "database is locked" when two writers collide after
        # reading; IMMEDIATE takes the write lock up front so writers queue on busy_timeout instead.
        if not conn.get_execution_options().get(SINGLE_READ):  # one SELECT is its own snapshot: no BEGIN
            conn.exec_driver_sql(begin)

    return engine


class Database:
    """Engines and session factories, built once in main() and closed with `dispose`."""

    def __init__(self, url: str, *, connect_args: dict[str, Any] | None = None) -> None:
        self.url = url
        parsed = make_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite:
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            self.writer = _sqlite_engine(url, "BEGIN IMMEDIATE")
            self.reader = _sqlite_engine(url, "BEGIN")
        else:
            args = dict(connect_args or {})
            # a process whose machine vanishes mid-transaction leaves its backend "idle in transaction", holding
            # row locks other processes wait on; Herald never waits on anything but the database inside one
            args["server_settings"] = {"idle_in_transaction_session_timeout": IDLE_IN_TRANSACTION,
                                       **args.get("server_settings", {})}
            self.writer = create_async_engine(url, pool_pre_ping=True, connect_args=args,
                                              hide_parameters=True)  # seeds and private text are parameters
            self.reader = self.writer
        self._write = async_sessionmaker(self.writer, expire_on_commit=False)
        self._read = async_sessionmaker(self.reader, expire_on_commit=False)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        async with self._write() as session, session.begin():
            yield session

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """One read-only transaction (never blocks writers on SQLite's WAL)."""
        async with self._read() as session, session.begin():
            yield session

    @asynccontextmanager
    async def write_rows(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction on a bare connection, for Core statements that need no ORM session."""
        async with self.writer.begin() as conn:
            yield conn

    @asynccontextmanager
    async def read_rows(self) -> AsyncIterator[AsyncConnection]:
        """Reads on a bare connection, for Core statements that need no ORM session; each SELECT reads a
        consistent snapshot of its own (on SQLite without a BEGIN: one round trip less per read)."""
        async with self.reader.connect() as conn:
            if self.is_sqlite:
                await conn.execution_options(**{SINGLE_READ: True})
            yield conn

    async def dispose(self) -> None:
        await self.writer.dispose()
        if self.reader is not self.writer:
            await self.reader.dispose()
