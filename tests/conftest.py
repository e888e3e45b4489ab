"""Shared fixtures: a real database (SQLite file or PostgreSQL schema) upgraded by Alembic once a session, and the
console."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from bot.console.fake import FakeDiscord
from bot.console.runner import Console
from bot.store import migrate
from bot.store.db import Database
from tests.discord_spec import validate_request

# No property test has a deadline: a deadline is a timed assertion, and it fails on a loaded machine for no
# fault of the code (speed is measured by the benchmarks under bench/, side by side).
settings.register_profile("herald", deadline=None)
settings.load_profile("herald")

PG_URL = os.environ.get("HERALD_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


async def make_db(backend: str, tmp_path: object) -> tuple[Database, str | None]:
    """A fresh database: an SQLite file, or a PostgreSQL schema of its own (dropped afterwards)."""
    if backend == "sqlite":
        return Database(f"sqlite+aiosqlite:///{tmp_path}/herald.db"), None
    schema = f"t_{secrets.token_hex(6)}"
    admin = Database(PG_URL)
    async with admin.writer.begin() as conn:
        await conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    await admin.dispose()
    return Database(PG_URL, connect_args={"server_settings": {"search_path": schema}}), schema


async def drop_schema(schema: str) -> None:
    admin = Database(PG_URL)
    async with admin.writer.begin() as conn:
        await conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    await admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


class Migrated:
    """A database Alembic upgraded once for the whole session, handed to each test as it was just after that.

    SQLite: the migrated file, copied for each test (a real file of its own: commits are real, across
    connections and processes). PostgreSQL: one migrated schema for the session, every table emptied (and
    the schema revision put back) before each test. Each test still gets its own `Database`.
    """

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.sqlite_file: Path | None = None
        self.schema: str | None = None
        self.tables: list[str] = []
        self.sequences: list[str] = []
        self.superuser = False
        self.revision = ""

    async def sqlite(self, tmp_path: Path) -> Database:
        if self.sqlite_file is None:
            template = self.tmp / "template.db"
            database = Database(f"sqlite+aiosqlite:///{template}")
            await migrate.upgrade(database)
            await database.dispose()
            with contextlib.closing(sqlite3.connect(template)) as conn:  # all of it in the one file to copy
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.sqlite_file = template
        shutil.copyfile(self.sqlite_file, tmp_path / "herald.db")
        return Database(f"sqlite+aiosqlite:///{tmp_path}/herald.db")

    async def postgres(self) -> Database:
        if self.schema is None:
            database, schema = await make_db("postgres", self.tmp)
            await migrate.upgrade(database)
            async with database.writer.connect() as conn:
                rows = await conn.exec_driver_sql(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
                self.tables = [r[0] for r in rows]
                rows = await conn.exec_driver_sql(
                    "SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = current_schema()")
                self.sequences = [r[0] for r in rows]
                self.superuser = bool((await conn.exec_driver_sql(
                    "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).scalar_one())
                self.revision = (await conn.exec_driver_sql("SELECT version_num FROM alembic_version")).scalar_one()
            await database.dispose()
            self.schema = schema
        database = Database(PG_URL, connect_args={"server_settings": {"search_path": self.schema}})
        async with database.writer.begin() as conn:
            await conn.exec_driver_sql("SET LOCAL lock_timeout = '20s'")  # a connection a test leaked fails loudly
            # DELETE, not TRUNCATE: on tables this small it is several times faster; foreign keys are not
            # checked while emptying everything (which needs a superuser, as the default test role is), and
            # the sequences start again
            if self.superuser:
                await conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
                for table in self.tables:
                    await conn.exec_driver_sql(f"DELETE FROM {table}")
                for sequence in self.sequences:
                    await conn.exec_driver_sql(f"ALTER SEQUENCE {sequence} RESTART")
            else:
                await conn.exec_driver_sql(f"TRUNCATE {', '.join(self.tables)} RESTART IDENTITY CASCADE")
            await conn.exec_driver_sql(f"INSERT INTO alembic_version (version_num) VALUES ('{self.revision}')")
        return database

    def drop(self) -> None:
        if self.schema is not None:
            asyncio.run(drop_schema(self.schema))


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Migrated]:
    once = Migrated(tmp_path_factory.mktemp("migrated"))
    yield once
    once.drop()


@pytest.fixture
async def db(backend: str, migrated: Migrated, tmp_path: Path) -> AsyncIterator[Database]:
    """The database for a test, on both backends: migrated once a session, as new for every test."""
    database = await (migrated.sqlite(tmp_path) if backend == "sqlite" else migrated.postgres())
    yield database
    await database.dispose()


@pytest.fixture
async def fresh_db(backend: str, tmp_path: object) -> AsyncIterator[Database]:
    """A database of its own, migrated for this test alone: for tests about migrating itself."""
    database, schema = await make_db(backend, tmp_path)
    await migrate.upgrade(database)
    yield database
    await database.dispose()
    if schema:
        await drop_schema(schema)


@pytest.fixture
async def sqlite_db(migrated: Migrated, tmp_path: Path) -> AsyncIterator[Database]:
    database = await migrated.sqlite(tmp_path)
    yield database
    await database.dispose()


async def _console(database: Database, tmp_path: object) -> AsyncIterator[Console]:
    lines: list[str] = []
    con = Console(database, seed="tests", out_dir=None, echo=lines.append, base_dir=tmp_path)  # type: ignore[arg-type]
    con.transcript = lines  # type: ignore[attr-defined]
    await con.start()
    yield con
    await con.close()


@pytest.fixture
async def console(db: Database, tmp_path: object) -> AsyncIterator[Console]:
    """The console on both backends."""
    async for con in _console(db, tmp_path):
        yield con


@pytest.fixture
async def lite(sqlite_db: Database, tmp_path: object) -> AsyncIterator[Console]:
    """The console on SQLite only, for tests about the Discord layer rather than the database."""
    async for con in _console(sqlite_db, tmp_path):
        yield con


@pytest.fixture(autouse=True)
def discord_spec(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every request a FakeDiscord receives is checked against Discord's API spec and limits: Discord's refusal
    is raised to the bot, and the test fails unless it is marked `discord_refuses` (it means to be refused)."""
    refused: list[str] = []

    def check(method: str, path: str, body: Any) -> list[str]:
        errors = validate_request(method, path, body)
        refused.extend(f"{method} {path}: {e}" for e in errors)
        return errors

    monkeypatch.setattr(FakeDiscord, "validate", staticmethod(check))
    yield refused
    if refused and request.node.get_closest_marker("discord_refuses") is None:
        pytest.fail("Discord would refuse what Herald sent:\n" + "\n".join(refused[:10]), pytrace=False)
