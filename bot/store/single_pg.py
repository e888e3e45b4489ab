"""PostgreSQL: the single statements around every command (the receipt read before it, the answer marked after
it), each its own transaction, on a small asyncpg pool of their own.

Through SQLAlchemy each of them cost a pool checkout and check-in, an autocommit isolation level set and reset,
and its statement machinery: several times what asyncpg spends on the statement. They are compiled once
(inline_sqlite.Direct, with the PostgreSQL dialect's own parameter and result conversions) and run here. The
connections speak JSON as SQLAlchemy's do (text in, decoded out), and a connection the server or the network
dropped while idle is replaced and the statement run again on another: each of these reads, or sets a receipt to
fixed values, so running it twice changes nothing.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import exc
from sqlalchemy.engine import make_url

from bot.store.inline_sqlite import Direct

POOL_SIZE = 4  # connections at most (the single statements are short: a busy process shares them)
SQLALCHEMY_ONLY = ("prepared_statement_cache_size", "prepared_statement_name_func", "async_fallback",
                   "async_creator_fn")  # connect arguments SQLAlchemy's dialect takes for itself
# what a connection the server or the network dropped may raise, depending on when the news reaches asyncpg
GONE = (asyncpg.exceptions.ConnectionDoesNotExistError, asyncpg.exceptions.InterfaceError,
        asyncpg.exceptions.InternalClientError, asyncpg.exceptions.AdminShutdownError, ConnectionError)


async def _speak_json(conn: asyncpg.Connection) -> None:
    for kind in ("json", "jsonb"):  # SQLAlchemy binds JSON as its text and leaves the decoding to the driver
        await conn.set_type_codec(kind, encoder=str, decoder=json.loads, schema="pg_catalog", format="text")


class SingleStatements:
    """Statements that are each their own transaction, on a pool opened on first use."""

    def __init__(self, url: str, dialect: Any, connect_args: dict[str, Any]) -> None:
        _, params = dialect.create_connect_args(make_url(url))
        self._connect = {k: v for k, v in {**params, **connect_args}.items() if k not in SQLALCHEMY_ONLY}
        self._dialect = dialect
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()

    async def _opened(self) -> asyncpg.Pool:
        async with self._opening:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(min_size=1, max_size=POOL_SIZE, init=_speak_json,
                                                       **self._connect)
        return self._pool

    async def run(self, stmt: Direct, args: list[Any], *, status: bool = False) -> Any:
        """The rows, or with `status` the command's status ("UPDATE 1"); a database error raised as SQLAlchemy
        would raise it."""
        pool = self._pool or await self._opened()
        for attempt in (1, 2):
            async with pool.acquire() as conn:
                try:
                    if status:
                        return await conn.execute(stmt.sql, *args)
                    return await conn.fetch(stmt.sql, *args)
                except Exception as error:
                    if attempt == 1 and (isinstance(error, GONE) or conn.is_closed()):
                        continue  # the pool replaces a closed connection: once more, on another
                    if isinstance(error, asyncpg.PostgresError):
                        raise exc.DBAPIError.instance(stmt.sql, args, error, asyncpg.PostgresError,
                                                      hide_parameters=True, dialect=self._dialect) from error
                    raise
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
