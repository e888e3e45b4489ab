"""Locks between Herald processes: one process per SQLite file, and IDENTIFY paced across every process.

SQLite has one writer by design: a second process on the same file is refused at start with a clear
message (an exclusive lock on `<db>.lock`, held for the process's life and freed by the kernel when it
dies). On PostgreSQL many processes share the database; Discord lets a bot start at most
`max_concurrency` sessions per 5 seconds, one per bucket `shard_id % max_concurrency`, so each IDENTIFY
takes its bucket's advisory lock, waits until 6 seconds (5, and a margin) have passed since the bucket's last
IDENTIFY as the database records it (from any process: one stopped or killed and restarted at once too), and
records its own."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO

from sqlalchemy import insert, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store.db import Database
from bot.store.models import IdentifyBucket

log = logging.getLogger(__name__)
# seconds a bucket stays taken after its IDENTIFY may go: Discord's 5 s, plus a margin for the time between the
# hook returning and Discord receiving the frame (a busy process may send its IDENTIFY late, the next one early)
IDENTIFY_WINDOW = 6.0
NAMESPACE = 0x48455241  # "HERA": the first key of every Herald advisory lock (a shared database may hold others)
MIGRATION_LOCK = 0x4D494752  # "MIGR": the second key of the upgrade lock; an identify bucket is a small number


class DatabaseInUse(Exception):
    """Another Herald process already runs on this SQLite file."""


class SingleWriter:
    """Holds `<db>.lock` exclusively while open; a second holder is refused at once, not made to wait."""

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise DatabaseInUse(
                f"{self.path.with_suffix('')} is already in use by Herald ({holder}). SQLite takes one Herald "
                "process per file: stop the other one, or give this one its own HERALD_DATA_DIR. To run "
                "several processes, use PostgreSQL (HERALD_DATABASE_URL; see \"Running at scale\" in the "
                "README).") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing drops the lock; the file stays, harmless
            self._file = None

    def __enter__(self) -> SingleWriter:
        self.acquire()
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


def single_writer(db: Database) -> contextlib.AbstractContextManager[object]:
    """The SQLite file's lock, or nothing to hold (PostgreSQL, or an in-memory database)."""
    name = make_url(db.url).database
    if not db.is_sqlite or not name or name == ":memory:":
        return contextlib.nullcontext()
    return SingleWriter(Path(name))


@contextlib.asynccontextmanager
async def migrating(db: Database) -> AsyncIterator[None]:
    """One schema upgrade at a time on PostgreSQL: processes started together queue here, and the later ones
    find the schema already at head (SQLite has one process, and Alembic's own write lock)."""
    if db.is_sqlite:
        yield
        return
    async with db.writer.connect() as conn:
        await conn.execute(text("SELECT pg_advisory_lock(:ns, :key)"), {"ns": NAMESPACE, "key": MIGRATION_LOCK})
        await conn.commit()
        try:
            yield
        finally:
            await conn.execute(text("SELECT pg_advisory_unlock(:ns, :key)"),
                               {"ns": NAMESPACE, "key": MIGRATION_LOCK})
            await conn.commit()


class IdentifyGate:
    """Paces IDENTIFYs: per bucket, one every IDENTIFY_WINDOW seconds across all processes on the database
    (PostgreSQL advisory locks; SQLite runs one process), and across restarts (the bucket's last IDENTIFY is
    recorded in the database, so a process stopped or killed just after one cannot send the next too soon)."""

    def __init__(self, db: Database, *, window: float = IDENTIFY_WINDOW) -> None:
        self.db, self.window = db, window
        self._local: dict[int, asyncio.Lock] = {}
        self._holds: set[asyncio.Task[None]] = set()
        self._closing = asyncio.Event()

    async def wait(self, shard_id: int, max_concurrency: int) -> None:
        """Return when this shard may IDENTIFY; its bucket stays taken for the window after."""
        bucket = shard_id % max(1, max_concurrency)
        local = self._local.setdefault(bucket, asyncio.Lock())
        await local.acquire()
        conn: AsyncConnection | None = None
        try:
            if not self.db.is_sqlite:
                conn = await self.db.writer.connect()
                # session-level: held across transactions until unlocked, freed if this process dies
                await conn.execute(text("SELECT pg_advisory_lock(:ns, :bucket)"),
                                   {"ns": NAMESPACE, "bucket": bucket})
                await conn.commit()
            await self._wait_out_last(bucket)
        except BaseException:
            local.release()
            if conn is not None:
                await conn.close()
            raise
        log.info("shard %s may identify (bucket %s of %s)", shard_id, bucket, max_concurrency)
        task = asyncio.create_task(self._hold(local, conn, bucket), name=f"herald-identify-{bucket}")
        self._holds.add(task)
        task.add_done_callback(self._holds.discard)

    async def _wait_out_last(self, bucket: int) -> None:
        """Sleep until the window since this bucket's last IDENTIFY has passed, then record this one as sent now
        (its holder of the bucket is the only writer of the row)."""
        async with self.db.writer.begin() as conn:
            last = (await conn.execute(select(IdentifyBucket.sent_ms).where(IdentifyBucket.bucket == bucket))
                    ).scalar_one_or_none()
        if last is not None:
            await asyncio.sleep(min(self.window, max(0.0, self.window - (time.time() - last / 1000))))
        now = round(time.time() * 1000)
        async with self.db.writer.begin() as conn:
            if last is None:
                await conn.execute(insert(IdentifyBucket).values(bucket=bucket, sent_ms=now))
            else:
                await conn.execute(update(IdentifyBucket).where(IdentifyBucket.bucket == bucket).values(sent_ms=now))

    async def _hold(self, local: asyncio.Lock, conn: AsyncConnection | None, bucket: int) -> None:
        try:
            with contextlib.suppress(TimeoutError):  # the window passes, or the bot closes first
                await asyncio.wait_for(self._closing.wait(), self.window)
        finally:
            local.release()
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.execute(text("SELECT pg_advisory_unlock(:ns, :bucket)"),
                                       {"ns": NAMESPACE, "bucket": bucket})
                    await conn.commit()
                with contextlib.suppress(Exception):
                    await conn.close()

    async def close(self) -> None:
        """Give back every bucket now (a task cancelled before it starts would never run its `finally`)."""
        self._closing.set()
        await asyncio.gather(*self._holds, return_exceptions=True)
