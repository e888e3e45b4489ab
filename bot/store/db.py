"""The database: SQLite (WAL, busy timeout, BEGIN IMMEDIATE for writes) or PostgreSQL, same code."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import aiosqlite
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

SINGLE_READ = "herald_single_read"  # execution option: no BEGIN, each statement is its own transaction
BUSY_TIMEOUT_MS = 15_000
SQLITE_PRAGMAS = ("journal_mode=WAL", f"busy_timeout={BUSY_TIMEOUT_MS}", "synchronous=NORMAL", "foreign_keys=ON")


class _InlineConnection(aiosqlite.Connection):
    """aiosqlite, except that a statement which cannot wait runs at once on the event loop's thread.

    In WAL mode reading never waits, and neither does writing once `BEGIN IMMEDIATE` holds the write lock. What
    can wait goes to aiosqlite's thread: a write outside such a transaction, a writer's commit (which may
    checkpoint and sync the file), closing, pragmas, and taking the write lock while another connection holds it
    (it is first tried here without waiting; only if that fails does the thread wait in SQLite's busy handler).
    The rest takes microseconds, and a trip to the thread and back (a queue put, a wake-up, a self-pipe write, an
    event-loop turn) cost many times the statement's own CPU."""

    _writing = False  # this connection's transaction holds the write lock

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        conn = self._connection
        sql = args[0] if args and isinstance(args[0], str) else None
        head = sql.lstrip()[:16].upper() if sql is not None else ""
        if head.startswith(_LOCKING) and self._lock_at_once(conn, sql or ""):
            result = None
        elif self._may_wait(conn, fn, head, sql is None):
            result = await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        else:
            result = fn(*args, **kwargs)
        if head.startswith("BEGIN"):
            self._writing = head.startswith(_LOCKING)
        return result

    @staticmethod
    def _lock_at_once(conn: sqlite3.Connection, begin: str) -> bool:
        """Take the write lock if it is free now (no waiting on this thread); False if another connection has it."""
        conn.execute("PRAGMA busy_timeout=0")
        try:
            conn.execute(begin)
            return True
        except sqlite3.OperationalError as exc:
            if conn.in_transaction or ("locked" not in str(exc) and "busy" not in str(exc)):
                raise
            return False
        finally:
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    def _may_wait(self, conn: sqlite3.Connection, fn: Callable[..., Any], head: str, bare: bool) -> bool:
        if bare:  # a cursor, a fetch, a cursor's close, a rollback: instant; a writer's commit or a close may not be
            name = getattr(fn, "__name__", "")
            return getattr(fn, "__self__", None) is conn and (name in ("close", "backup") or
                                                                 (name == "commit" and self._writing))
        if head.startswith(_LOCKING) or head.startswith(("COMMIT", "END", "PRAGMA", "VACUUM", "ATTACH")):
            return True
        if head.startswith(("SELECT", "BEGIN", "ROLLBACK", "SAVEPOINT", "RELEASE")):
            return False
        return not (self._writing and conn.in_transaction)  # a write without the lock may wait for it


_LOCKING = ("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE")


def _sqlite_engine(url: str, begin: str) -> AsyncEngine:
    database = make_url(url).database or ":memory:"

    async def connect() -> aiosqlite.Connection:
        # the sqlite3 connection is used from two threads, never at once: each call is awaited before the next
        connector = partial(sqlite3.connect, database, timeout=15, check_same_thread=False)
        connection = _InlineConnection(connector, iter_chunk_size=64)
        connection._thread.daemon = True  # as SQLAlchemy's own aiosqlite connect does
        return await connection

    # One writer connection: SQLite lets one transaction write at a time anyway, and writers of this process then
    # wait their turn in the pool's queue, in order, instead of in SQLite's busy handler (which sleeps up to
    # 100 ms a try). Nested writes could never work on SQLite (the inner one waits for the outer's lock).
    pool = {"pool_size": 1, "max_overflow": 0} if begin == "BEGIN IMMEDIATE" else {}
    engine = create_async_engine(url, async_creator=connect, hide_parameters=True, **pool)

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
            self.writer = create_async_engine(url, pool_pre_ping=True, connect_args=connect_args or {},
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
    async def write_one(self) -> AsyncIterator[AsyncConnection]:
        """A connection for one write statement committed on its own (on SQLite without a BEGIN: the statement
        is its own transaction)."""
        async with self.writer.connect() as conn:
            if self.is_sqlite:
                await conn.execution_options(**{SINGLE_READ: True})
            yield conn
            await conn.commit()

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
