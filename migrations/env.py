"""Alembic environment: async engines, batch mode for SQLite, Herald's naming convention."""

from __future__ import annotations

import asyncio
from typing import Any

from alembic import context
from sqlalchemy.engine import Connection

from bot.store.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(**kwargs: Any) -> None:
    context.configure(target_metadata=target_metadata, render_as_batch=True, compare_type=True, **kwargs)


def run_migrations_offline() -> None:
    _configure(url=config.get_main_option("sqlalchemy.url"), literal_binds=True,
               dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    from bot.store.db import Database

    db = Database(config.get_main_option("sqlalchemy.url") or _default_url())
    try:
        async with db.writer.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await db.dispose()


def _default_url() -> str:
    from bot.settings import Settings

    return Settings().url


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:  # called by Herald itself, inside its own connection
        _run(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
