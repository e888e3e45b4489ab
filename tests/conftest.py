"""Shared fixtures: a real database (SQLite file or PostgreSQL schema) upgraded by Alembic, and the console."""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from bot.console.fake import FakeDiscord
from bot.console.runner import Console
from bot.store import migrate
from bot.store.db import Database
from tests.discord_spec import validate_request

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


@pytest.fixture
async def db(backend: str, tmp_path: object) -> AsyncIterator[Database]:
    database, schema = await make_db(backend, tmp_path)
    await migrate.upgrade(database)
    yield database
    await database.dispose()
    if schema:
        await drop_schema(schema)


@pytest.fixture
async def sqlite_db(tmp_path: object) -> AsyncIterator[Database]:
    database, _ = await make_db("sqlite", tmp_path)
    await migrate.upgrade(database)
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
