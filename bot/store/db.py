"""The database: SQLite (WAL, busy timeout, BEGIN IMMEDIATE for writes) or PostgreSQL, same code."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import aiosqlite
from sqlalchemy import event, exc
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

SINGLE_READ = "herald_single_read"  # execution option: no BEGIN, each statement is its own transaction
IDLE_IN_TRANSACTION = "60s"  # PostgreSQL ends a transaction left idle this long (its client is gone)
PING_AFTER_IDLE = 10.0  # seconds a pooled PostgreSQL connection sat unused before it is checked on checkout
BUSY_TIMEOUT_MS = 15_000
CHECKPOINT_EVERY = 200  # commits of one connection between checkpoints (SQLite's own: every 1000 pages of WAL)
SQLITE_PRAGMAS = ("journal_mode=WAL", f"busy_timeout={BUSY_TIMEOUT_MS}", "synchronous=NORMAL", "foreign_keys=ON",
                  "wal_autocheckpoint=0")


class _InlineConnection(aiosqlite.Connection):
    """aiosqlite, except that a statement which cannot wait runs at once on the event loop's thread.

    In WAL mode reading never waits, and neither does writing once `BEGIN IMMEDIATE` holds the write lock, nor
    its commit (with synchronous=NORMAL a commit appends to the WAL without syncing; the automatic checkpoint,
    which syncs, is off on these connections and run in the thread every CHECKPOINT_EVERY commits instead).
    Taking the write lock (`BEGIN IMMEDIATE`, or a write that is its own transaction) is tried here without
    waiting; only if another connection holds it does aiosqlite's thread wait in SQLite's busy handler. Closing,
    pragmas and a write in a transaction without the lock go to the thread too.
    The rest takes microseconds, and a trip to the thread and back (a queue put, a wake-up, a self-pipe write, an
    event-loop turn) cost many times the statement's own CPU."""

    _writing = False  # this connection's transaction holds the write lock
    _commits = 0

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        conn = self._connection
        sql = args[0] if args and isinstance(args[0], str) else None
        head = sql.lstrip()[:16].upper() if sql is not None else ""
        done, result = False, None
        if head.startswith(_LOCKING) or self._alone(conn, fn, head):
            done, result = self._at_once(conn, fn, args, kwargs)
        if not done and self._may_wait(conn, fn, head, sql is None):
            result = await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        elif not done:
            result = fn(*args, **kwargs)
        if head.startswith("BEGIN"):
            self._writing = head.startswith(_LOCKING)
        elif self._writing and sql is None and getattr(fn, "__name__", "") == "commit":
            self._writing = False
            self._commits += 1
            if self._commits % CHECKPOINT_EVERY == 0:  # what SQLite's automatic checkpoint did, in the thread
                await super()._execute(_checkpoint, conn)  # type: ignore[no-untyped-call]
        return result

    @staticmethod
    def _at_once(conn: sqlite3.Connection, fn: Callable[..., Any], args: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> tuple[bool, Any]:
        """Run a statement that takes the write lock if the lock is free now (no waiting on this thread): (True,
        its result); (False, None) if another connection holds it (nothing was done: the thread waits for it)."""
        _pragma(conn, "busy_timeout=0")
        try:
            return True, fn(*args, **kwargs)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            return False, None
        finally:
            _pragma(conn, f"busy_timeout={BUSY_TIMEOUT_MS}")

    @staticmethod
    def _alone(conn: sqlite3.Connection, fn: Callable[..., Any], head: str) -> bool:
        """One write statement that is its own transaction (no BEGIN): failing for a busy lock, it leaves nothing
        behind (not so an executemany, whose rows would each be a transaction of their own)."""
        return (not conn.in_transaction and getattr(fn, "__name__", "") == "execute"
                and head.startswith(("INSERT", "UPDATE", "DELETE")))

    def _may_wait(self, conn: sqlite3.Connection, fn: Callable[..., Any], head: str, bare: bool) -> bool:
        if bare:  # a cursor, a fetch, a close of a cursor, a commit, a rollback: instant; closing may checkpoint
            name = getattr(fn, "__name__", "")
            return getattr(fn, "__self__", None) is conn and name in ("close", "backup")
        if head.startswith(_LOCKING) or head.startswith(("COMMIT", "END", "PRAGMA", "VACUUM", "ATTACH")):
            return True
        if head.startswith(("SELECT", "BEGIN", "ROLLBACK", "SAVEPOINT", "RELEASE")):
            return False
        return not (self._writing and conn.in_transaction)  # a write without the lock may wait for it


_LOCKING = ("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE")


def _pragma(conn: sqlite3.Connection, pragma: str) -> None:
    """A pragma, its answer read and its statement finished (an unfinished one would stop the next COMMIT)."""
    cursor = conn.execute(f"PRAGMA {pragma}")
    try:
        cursor.fetchall()
    finally:
        cursor.close()


def _checkpoint(conn: sqlite3.Connection) -> None:
    _pragma(conn, "wal_checkpoint(PASSIVE)")


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


def _ping_when_idle(engine: AsyncEngine) -> None:
    """Check a pooled connection before use only if it sat unused more than PING_AFTER_IDLE seconds: one that
    just came back from a command is alive, and a busy pool does not pay a round trip per checkout (what
    `pool_pre_ping` does). A connection the server or the network dropped while idle is replaced, unseen."""
    pool, dialect = engine.sync_engine.pool, engine.sync_engine.dialect

    @event.listens_for(pool, "checkin")
    def _checkin(_dbapi_conn: Any, record: Any) -> None:
        record.info["herald_idle_since"] = time.monotonic()

    @event.listens_for(pool, "checkout")
    def _checkout(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("herald_idle_since", None)
        if since is None or time.monotonic() - since <= PING_AFTER_IDLE:
            return  # just connected, or just used
        try:
            dialect.do_ping(dbapi_conn)
        except Exception as error:  # the pool discards it and checks out another (a new one if need be)
            raise exc.DisconnectionError(f"a pooled connection idle since {since:.0f} is gone") from error


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
            self.writer = create_async_engine(url, connect_args=args,
                                              hide_parameters=True)  # seeds and private text are parameters
            _ping_when_idle(self.writer)
            self.reader = self.writer
        self._write = async_sessionmaker(self.writer, expire_on_commit=False)
        self._read = async_sessionmaker(self.reader, expire_on_commit=False)
        # the same pools, with statements that are their own transactions (set once, not per use): on SQLite no
        # BEGIN; on PostgreSQL autocommit, one round trip a statement instead of BEGIN, the statement and COMMIT
        alone = {SINGLE_READ: True} if self.is_sqlite else {"isolation_level": "AUTOCOMMIT"}
        self._write_alone = self.writer.execution_options(**alone)
        self._read_alone = self.reader.execution_options(**alone)

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
        async with self._write_alone.connect() as conn:
            yield conn
            await conn.commit()

    @asynccontextmanager
    async def read_rows(self) -> AsyncIterator[AsyncConnection]:
        """Reads on a bare connection, for Core statements that need no ORM session; each SELECT reads a
        consistent snapshot of its own (on SQLite without a BEGIN: one round trip less per read)."""
        async with self._read_alone.connect() as conn:
            yield conn

    async def dispose(self) -> None:
        await self.writer.dispose()
        if self.reader is not self.writer:
            await self.reader.dispose()
