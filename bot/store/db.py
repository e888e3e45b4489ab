"""The database: SQLite (WAL, busy timeout, BEGIN IMMEDIATE for writes) or PostgreSQL, same code."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Executable, Select, event, exc
from sqlalchemy.dialects import registry
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from bot.store import inline_sqlite
from bot.store.single_pg import SingleStatements

SINGLE_READ = "herald_single_read"  # execution option: no BEGIN, each statement is its own transaction
IDLE_IN_TRANSACTION = "60s"  # PostgreSQL ends a transaction left idle this long (its client is gone)
# PostgreSQL connections kept open, and opened beyond them in a burst (closed again when handed back): with
# SQLAlchemy's default 5 kept, every burst of commands past them paid for new connections, several round trips
# of set-up each, every time
PG_POOL_SIZE, PG_POOL_OVERFLOW = 20, 5  # with single_pg.POOL_SIZE: at most 29 a process (PostgreSQL allows 100)
PING_AFTER_IDLE = 10.0  # seconds a pooled PostgreSQL connection sat unused before it is checked on checkout
SQLITE_PRAGMAS = ("journal_mode=WAL", f"busy_timeout={inline_sqlite.BUSY_TIMEOUT_MS}", "synchronous=NORMAL",
                  "foreign_keys=ON", "wal_autocheckpoint=0")


registry.register("sqlite.herald_inline", "bot.store.inline_sqlite", "InlineDialect")


def _sqlite_engine(url: str, begin: str) -> AsyncEngine:
    """SQLite through sqlite3 on the event loop's thread, what may wait in a worker thread (see inline_sqlite);
    the URL's driver (`sqlite+aiosqlite://`, as configured) names the file, not the driver used."""
    parsed = make_url(url)
    inline = parsed.set(drivername="sqlite+herald_inline")

    # One writer connection: SQLite lets one transaction write at a time anyway, and writers of this process then
    # wait their turn in the pool's queue, in order, instead of in SQLite's busy handler (which sleeps up to
    # 100 ms a try). Nested writes could never work on SQLite (the inner one waits for the outer's lock).
    pool = {"pool_size": 1, "max_overflow": 0} if begin == "BEGIN IMMEDIATE" else {}
    engine = create_async_engine(inline, creator=inline_sqlite.connector(parsed.database or ":memory:"),
                                 hide_parameters=True, **pool)

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
            # straight on the driver's connection (its cursor still takes the write lock as inline_sqlite says):
            # SQLAlchemy's execution path for a statement without parameters or rows cost more than SQLite's BEGIN
            conn.connection.dbapi_connection.cursor().execute(begin).close()

    return engine


_PREPARED: dict[tuple[Any, str, frozenset[str]], inline_sqlite.Direct] = {}


def _prepared(stmt: Any, dialect: Any, params: dict[str, Any]) -> inline_sqlite.Direct:
    """The statement compiled once for this dialect and these parameters' names."""
    key = (stmt, dialect.name, frozenset(params))
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = inline_sqlite.Direct(stmt, dialect, params)
    return prepared


direct = 0  # statements run straight on a driver's connection (not seen by SQLAlchemy's events), for the bench
on_direct: list[Callable[[str], None]] = []  # and who is told each one's SQL (tests counting statements)
_RAW = "herald_driver"  # session.info: (the session's transaction, its driver connection, the dialect)


async def _driver_of(session: AsyncSession) -> tuple[Any, Any]:
    """The driver connection of the session's current transaction (sqlite3's, or SQLAlchemy's asyncpg adapter
    with the transaction begun) and its dialect, pending ORM changes flushed first (so statements keep their
    order). Kept in the session's info for the transaction it belongs to: asking SQLAlchemy each time (a greenlet
    switch, the session's connection lookup, the pool's proxy) cost more than the statement itself."""
    sync = session.sync_session
    kept = sync.info.get(_RAW)
    transaction = sync.get_transaction()
    if session.new or session.dirty or session.deleted:
        await session.flush()
    if kept is not None and transaction is not None and kept[0] is transaction:
        return kept[1], kept[2]
    dialect = session.get_bind().dialect
    proxied = await (await session.connection()).get_raw_connection()
    driver: Any
    if dialect.name == "sqlite":
        driver = proxied.driver_connection
    else:
        driver = proxied.dbapi_connection  # asyncpg's adapter begins its transaction on the first statement: now
        if driver._transaction is None and driver.isolation_level != "autocommit":
            await driver._start_transaction()
    sync.info[_RAW] = (sync.get_transaction(), driver, dialect)
    return driver, dialect


def _count(sql: str) -> None:
    global direct
    direct += 1
    for tell in on_direct:
        tell(sql)


async def _pg_run(adapter: Any, dialect: Any, prepared: inline_sqlite.Direct, args: list[Any],
                  status: bool) -> Any:
    """A statement straight on the asyncpg connection under SQLAlchemy's adapter (its lock held, as for its own
    statements): the rows, or with `status` the command's status ("UPDATE 1"). A database error is raised as
    SQLAlchemy would raise it (IntegrityError…), so callers need not know which path ran."""
    async with adapter._execute_mutex:
        try:
            if status:
                return await adapter._connection.execute(prepared.sql, *args)
            return await adapter._connection.fetch(prepared.sql, *args)
        except Exception as error:
            try:
                adapter._handle_exception(error)  # raises the DB-API error SQLAlchemy's adapter would
            except Exception as dbapi_error:
                raise exc.DBAPIError.instance(prepared.sql, args, dbapi_error, dialect.loaded_dbapi.Error,
                                              hide_parameters=True, dialect=dialect) from error
            raise


def _sqlite_run(conn: Any, dialect: Any, prepared: inline_sqlite.Direct, args: list[Any]) -> Any:
    """A statement straight on the sqlite3 connection; a database error raised as SQLAlchemy would raise it."""
    try:
        return conn.execute(prepared.sql, args)
    except sqlite3.Error as error:
        raise exc.DBAPIError.instance(prepared.sql, args, error, sqlite3.Error, hide_parameters=True,
                                      dialect=dialect) from error


def _changed(status: str) -> int:
    """Rows a write changed, from its status ("UPDATE 2", "INSERT 0 1")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


async def session_rows(session: AsyncSession, stmt: Any, params: dict[str, Any]) -> list[Any]:
    """A Core SELECT's rows (attributes by column name) read in the session's own transaction, straight on the
    driver's connection (see inline_sqlite.Direct: SQLAlchemy's statement machinery costs ten to twenty times
    SQLite's own time on a small read, and on PostgreSQL several times what asyncpg spends). Pending ORM changes
    are flushed first, as the session's own queries would."""
    driver, dialect = await _driver_of(session)
    prepared = _prepared(stmt, dialect, params)
    args = prepared.args(params)
    _count(prepared.sql)
    if dialect.name == "sqlite":
        return prepared.rows(_sqlite_run(driver, dialect, prepared, args).fetchall())
    return prepared.rows(await _pg_run(driver, dialect, prepared, args, status=False))


async def session_write(session: AsyncSession, stmt: Any, params: dict[str, Any]) -> int:
    """A Core write in the session's own transaction (which on SQLite holds the write lock), straight on the
    driver's connection as `session_rows`; how many rows it changed. Pending ORM changes are flushed first, so
    the statements reach the database in the order they were made."""
    driver, dialect = await _driver_of(session)
    prepared = _prepared(stmt, dialect, params)
    args = prepared.args(params)
    _count(prepared.sql)
    if dialect.name == "sqlite":
        return int(_sqlite_run(driver, dialect, prepared, args).rowcount)
    return _changed(await _pg_run(driver, dialect, prepared, args, status=True))


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
            # single statements around every command straight on sqlite3 (a file: ":memory:" is one per connection)
            self._direct: inline_sqlite.DirectConnection | None = inline_sqlite.DirectConnection(
                parsed.database, SQLITE_PRAGMAS) if parsed.database and parsed.database != ":memory:" else None
            self._single: SingleStatements | None = None
        else:
            args = dict(connect_args or {})
            # a process whose machine vanishes mid-transaction leaves its backend "idle in transaction", holding
            # row locks other processes wait on; Herald never waits on anything but the database inside one
            args["server_settings"] = {"idle_in_transaction_session_timeout": IDLE_IN_TRANSACTION,
                                       **args.get("server_settings", {})}
            self.writer = create_async_engine(url, connect_args=args, pool_size=PG_POOL_SIZE,
                                              max_overflow=PG_POOL_OVERFLOW,
                                              hide_parameters=True)  # seeds and private text are parameters
            self._single = SingleStatements(url, self.writer.sync_engine.dialect, args)
            _ping_when_idle(self.writer)
            self.reader = self.writer
            self._direct = None
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

    async def select(self, stmt: Select[Any], params: dict[str, Any]) -> Sequence[Any]:
        """One SELECT's rows, read as its own snapshot, straight on the driver's connection (SQLite: a sqlite3
        connection of its own, see inline_sqlite.Direct; PostgreSQL: a pool of its own, see single_pg)."""
        dialect = self.writer.sync_engine.dialect
        prepared = _prepared(stmt, dialect, params)
        _count(prepared.sql)
        if self._direct is not None:
            return await self._direct.read(prepared, params)
        if self._single is not None:
            return prepared.rows(await self._single.run(prepared, prepared.args(params)))
        async with self.read_rows() as conn:  # SQLite in memory: the pool's one connection is the database
            return list((await conn.execute(stmt, params)).all())

    async def write_alone(self, stmt: Executable, params: dict[str, Any]) -> None:
        """One write statement committed on its own, straight on the driver's connection (as `select`)."""
        dialect = self.writer.sync_engine.dialect
        prepared = _prepared(stmt, dialect, params)
        _count(prepared.sql)
        if self._direct is not None:
            await self._direct.write(prepared, params)
            return
        if self._single is not None:
            await self._single.run(prepared, prepared.args(params), status=True)
            return
        async with self.write_one() as conn:  # SQLite in memory
            await conn.execute(stmt, params)

    @asynccontextmanager
    async def read_rows(self) -> AsyncIterator[AsyncConnection]:
        """Reads on a bare connection, for Core statements that need no ORM session; each SELECT reads a
        consistent snapshot of its own (on SQLite without a BEGIN: one round trip less per read)."""
        async with self._read_alone.connect() as conn:
            yield conn

    async def dispose(self) -> None:
        if self._direct is not None:
            await self._direct.close()
        if self._single is not None:
            await self._single.close()
        await self.writer.dispose()
        if self.reader is not self.writer:
            await self.reader.dispose()
