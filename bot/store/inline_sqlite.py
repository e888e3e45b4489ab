"""SQLite through the standard `sqlite3` driver on the event loop's thread, under SQLAlchemy's asyncio API.

In WAL mode reading never waits, and neither does writing once `BEGIN IMMEDIATE` holds the write lock, nor its
commit (with synchronous=NORMAL a commit appends to the WAL without syncing; the automatic checkpoint, which
syncs, is off on these connections and run in a worker thread every CHECKPOINT_EVERY commits instead). Such a
statement takes microseconds, so it runs right where SQLAlchemy calls it: no driver adapter, no trip to another
thread and back per call (aiosqlite's queue put, thread wake-up, self-pipe write and event-loop turn, and
SQLAlchemy's greenlet switch for each of execute, fetch and close cost many times the statement's own CPU).

What can wait goes to a worker thread, the task awaiting it (SQLAlchemy's `await_` from inside its greenlet) and
the event loop free meanwhile: taking the write lock (`BEGIN IMMEDIATE`, or a write that is its own
transaction) is tried at once without waiting, and only if another connection holds it does a thread wait in
SQLite's busy handler; pragmas, a write in a transaction without the lock, closing and the checkpoint go to the
thread too.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from greenlet import getcurrent  # type: ignore[import-untyped]
from sqlalchemy import pool
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import URL
from sqlalchemy.util.concurrency import await_, in_greenlet

T = TypeVar("T")
BUSY_TIMEOUT_MS = 15_000
CHECKPOINT_EVERY = 200  # commits of one connection between checkpoints (SQLite's own: every 1000 pages of WAL)
LOCKING = ("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE")
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
trips = 0  # calls sent to a worker thread, for the capacity bench


def in_thread(fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` in a worker thread, awaited from SQLAlchemy's greenlet (the event loop turns meanwhile); called
    outside one (a plain synchronous use), it runs here. If the awaiting task is cancelled, the call is still
    waited for: the connection is never used from two threads at once."""
    global trips
    if not in_greenlet():
        return fn(*args)
    trips += 1
    done = asyncio.get_running_loop().run_in_executor(None, fn, *args)
    try:
        return await_(asyncio.shield(done))
    except asyncio.CancelledError:
        await_(asyncio.wait([done]))
        raise


class _Done:
    """An awaitable that is already done: awaiting it returns at once, without an event-loop turn."""

    def __await__(self) -> Any:
        return iter(())


_DONE = _Done()


def _awaited() -> None:
    """SQLAlchemy's AsyncConnection checks that a statement awaited something (else, it supposes, the driver is
    not an async one): once per SQLAlchemy call, a switch to the awaiting side and straight back."""
    current = getcurrent()
    if getattr(current, "__sqlalchemy_greenlet_provider__", False) and not getattr(current, "herald_awaited", False):
        current.herald_awaited = True
        await_(_DONE)


def _pragma(conn: sqlite3.Connection, pragma: str) -> None:
    """A pragma, its answer read and its statement finished (an unfinished one would stop the next COMMIT)."""
    cursor = sqlite3.Cursor(conn)
    try:
        sqlite3.Cursor.execute(cursor, f"PRAGMA {pragma}").fetchall()
    finally:
        cursor.close()


def checkpoint(conn: sqlite3.Connection) -> None:
    _pragma(conn, "wal_checkpoint(PASSIVE)")


def _locked(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


class InlineCursor(sqlite3.Cursor):
    connection: InlineConnection

    def execute(self, sql: str, parameters: Any = (), /) -> InlineCursor:
        _awaited()
        conn = self.connection
        head = sql.lstrip()[:16].upper()
        run = sqlite3.Cursor.execute
        if head.startswith(LOCKING) or (not conn.in_transaction and head.startswith(WRITES)):
            # takes the write lock: at once if it is free, else wait for it in a thread (nothing was done yet)
            _pragma(conn, "busy_timeout=0")
            try:
                run(self, sql, parameters)
            except sqlite3.OperationalError as exc:
                if not _locked(exc):
                    raise
                _pragma(conn, f"busy_timeout={BUSY_TIMEOUT_MS}")
                in_thread(run, self, sql, parameters)
            finally:
                _pragma(conn, f"busy_timeout={BUSY_TIMEOUT_MS}")
        elif self._may_wait(head):
            in_thread(run, self, sql, parameters)
        else:
            run(self, sql, parameters)
        if head.startswith("BEGIN"):
            conn.writing = head.startswith(LOCKING)
        return self

    def executemany(self, sql: str, seq_of_parameters: Iterable[Any], /) -> InlineCursor:
        # outside a transaction each row would be a transaction of its own, each taking the lock: in the thread
        _awaited()
        if self.connection.writing and self.connection.in_transaction:
            sqlite3.Cursor.executemany(self, sql, seq_of_parameters)
        else:
            in_thread(sqlite3.Cursor.executemany, self, sql, list(seq_of_parameters))
        return self

    async def _async_soft_close(self) -> None:
        """What SQLAlchemy's asyncio API calls before handing back a result to read outside its greenlet: rows
        are read here without awaiting anything, so the statement stays open until they are read or closed."""

    def _may_wait(self, head: str) -> bool:
        if head.startswith(("SELECT", "WITH", "BEGIN", "ROLLBACK", "SAVEPOINT", "RELEASE")):
            return False
        if head.startswith(("COMMIT", "END", "PRAGMA", "VACUUM", "ATTACH")):
            return True
        return not (self.connection.writing and self.connection.in_transaction)  # a write without the lock


class InlineConnection(sqlite3.Connection):
    """A sqlite3 connection whose cursors run statements as the module says; commits are counted for the
    checkpoint, and closing (which may checkpoint) is done in a thread."""

    writing = False  # this connection's transaction holds the write lock
    commits = 0

    def cursor(self, factory: Any = None) -> Any:  # sqlite3's own `execute` shortcut comes through here too
        return super().cursor(factory or InlineCursor)

    def commit(self) -> None:
        super().commit()  # WAL: a transaction that wrote holds the write lock already; a reader's never waits
        if self.writing:
            self.writing = False
            self.commits += 1
            if self.commits % CHECKPOINT_EVERY == 0:  # what SQLite's automatic checkpoint did, in a thread
                in_thread(checkpoint, self)

    def rollback(self) -> None:
        super().rollback()
        self.writing = False

    def close(self) -> None:
        in_thread(sqlite3.Connection.close, self)


def connector(database: str) -> Callable[[], InlineConnection]:
    """What makes a connection: used from the loop's thread and worker threads, never two at once."""
    def connect() -> InlineConnection:
        return sqlite3.connect(database, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False,
                               isolation_level=None, factory=InlineConnection)
    return connect


class InlineDialect(SQLiteDialect_pysqlite):
    """SQLAlchemy's pysqlite dialect, allowed under its asyncio API (`creator` gives the connections)."""

    driver = "inline"
    supports_statement_cache = True
    is_async = True

    @classmethod
    def get_pool_class(cls, url: URL) -> type[pool.Pool]:
        return pool.AsyncAdaptedQueuePool if cls._is_url_file_db(url) else pool.StaticPool


class Direct:
    """One Core statement compiled once for a dialect and run straight on the driver's connection (sqlite3's
    here; asyncpg's through bot.store.db and single_pg), its parameters and rows converted by the columns' own
    types: for the statements of the hot path, where SQLAlchemy's connection and statement machinery costs some
    20 times what SQLite itself spends on them, and several times what asyncpg does."""

    def __init__(self, stmt: Any, dialect: Any, keys: Iterable[str] = ()) -> None:
        # an INSERT or UPDATE without values of its own names the columns it is given (as SQLAlchemy does per call)
        self.compiled = stmt.compile(dialect=dialect, column_keys=sorted(keys))
        self.sql: str = self.compiled.string
        self.head = self.sql.lstrip()[:16].upper()
        self.names: list[str] = list(self.compiled.positiontup or [])
        binds = self.compiled.binds
        self.bind_types = [binds[n].type._cached_bind_processor(dialect) for n in self.names]
        # a SELECT's columns, or what an INSERT/UPDATE … RETURNING gives back
        columns = list(stmt.selected_columns if hasattr(stmt, "selected_columns") else stmt.exported_columns)
        self.result_types = [c.type._cached_result_processor(dialect, None) for c in columns]
        # only the columns whose type converts what sqlite3 gives (dates, enums, JSON…): most pass as they are
        self.converted = [(i, p) for i, p in enumerate(self.result_types) if p is not None]
        self.row = _row_type(tuple(c.key for c in columns)) if columns else None
        self.plan = self._plan(set(keys))

    def _plan(self, keys: set[str]) -> list[tuple[str | None, Any, Any]] | None:
        """Each positional parameter as (the key it is given by, or None; else its constant, converted once; the
        conversion of a given value), when every one is a plain value: `args` then skips SQLAlchemy's
        construct_params per call. None (construct_params each time) for a callable or a missing one."""
        plan: list[tuple[str | None, Any, Any]] = []
        for name, process in zip(self.names, self.bind_types, strict=True):
            bind = self.compiled.binds[name]
            if bind.expanding:  # its SQL is rewritten per call, which this compiled-once string cannot be
                raise ValueError(f"{name}: an expanding IN cannot run straight on the driver's connection; "
                                 f"give each value a parameter of its own")
            if bind.callable is not None:
                return None
            key = bind.key if bind.key in keys else name if name in keys else None
            if key is not None:
                plan.append((key, None, process))
            elif bind.required:
                return None  # construct_params says which value is missing
            else:
                plan.append((None, bind.value if process is None else process(bind.value), None))
        return plan

    def args(self, params: dict[str, Any]) -> list[Any]:
        if self.plan is not None:
            return [constant if key is None else params[key] if process is None else process(params[key])
                    for key, constant, process in self.plan]
        values = self.compiled.construct_params(params)
        return [value if process is None else process(value)
                for value, process in zip((values[n] for n in self.names), self.bind_types, strict=True)]

    def rows(self, fetched: list[tuple[Any, ...]]) -> list[Any]:
        assert self.row is not None
        make, converted = self.row._make, self.converted
        if not converted:
            return [make(r) for r in fetched]
        out = []
        for fetched_row in fetched:
            values = list(fetched_row)
            for i, process in converted:
                values[i] = process(values[i])
            out.append(make(values))
        return out


_ROW_TYPES: dict[tuple[str, ...], Any] = {}


def _row_type(keys: tuple[str, ...]) -> Any:
    from collections import namedtuple

    if keys not in _ROW_TYPES:
        _ROW_TYPES[keys] = namedtuple("Row", keys)
    return _ROW_TYPES[keys]


class DirectConnection:
    """A sqlite3 connection of its own for `Direct` statements, each its own transaction: on the event loop's
    thread, except a write that finds the write lock held by another connection, which waits for it in a
    worker thread (the connection is used by one caller at a time)."""

    def __init__(self, database: str, pragmas: Iterable[str]) -> None:
        self._database, self._pragmas = database, tuple(pragmas)
        self._conn: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self._database, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False,
                                   isolation_level=None)
            for pragma in self._pragmas:
                _pragma(conn, pragma)
            self._conn = conn
        return self._conn

    async def read(self, stmt: Direct, params: dict[str, Any]) -> list[Any]:
        """A SELECT's rows (reading never waits in WAL mode)."""
        args = stmt.args(params)
        async with self._lock:
            return stmt.rows(self._connection().execute(stmt.sql, args).fetchall())

    async def write(self, stmt: Direct, params: dict[str, Any]) -> None:
        """A write, its own transaction: at once if the write lock is free, else waited for in a thread."""
        global trips
        args = stmt.args(params)
        async with self._lock:
            conn = self._connection()
            _pragma(conn, "busy_timeout=0")
            try:
                conn.execute(stmt.sql, args)
                return
            except sqlite3.OperationalError as exc:
                if not _locked(exc):
                    raise
            finally:
                _pragma(conn, f"busy_timeout={BUSY_TIMEOUT_MS}")
            trips += 1
            done = asyncio.get_running_loop().run_in_executor(None, conn.execute, stmt.sql, args)
            try:
                await asyncio.shield(done)
            except asyncio.CancelledError:
                await asyncio.wait([done])
                raise

    async def close(self) -> None:
        async with self._lock:
            if self._conn is not None:
                await asyncio.to_thread(self._conn.close)  # the last connection to close may checkpoint
                self._conn = None
