"""Receipt queries, as Core statements built once on a bare connection: they run around every command."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store.models import Base

_T = Base.metadata.tables["receipt"]
_UNANSWERED = (select(_T.c.id, _T.c.command, _T.c.at, _T.c.outcome, _T.c.campaign_id)
               .where(_T.c.user_id == bindparam("user"), _T.c.command == bindparam("command"),
                      _T.c.answered.is_(False), _T.c.at >= bindparam("since"))
               .order_by(_T.c.at.desc(), _T.c.id.desc()))
_REPLAYED = select(_T.c.id).where(_T.c.interaction_id == bindparam("iid"), _T.c.user_id == bindparam("user"),
                                  _T.c.command == bindparam("command"))
_INSERT = insert(_T)
_ANSWERED = update(_T).where(_T.c.id == bindparam("rid")).values(answered=True)
_PRUNE = delete(_T).where(_T.c.at < bindparam("before"))


async def add(conn: AsyncConnection, **values: Any) -> int | None:
    """A new receipt's id (IntegrityError if the interaction has one already)."""
    key = (await conn.execute(_INSERT, values)).inserted_primary_key
    return int(key[0]) if key is not None else None


async def prune(conn: AsyncConnection, before: datetime) -> None:
    await conn.execute(_PRUNE, {"before": before})


async def answered(conn: AsyncConnection, receipt_id: int) -> None:
    await conn.execute(_ANSWERED, {"rid": receipt_id})


async def exists(conn: AsyncConnection, interaction_id: int, user_id: int, command: str) -> bool:
    row = (await conn.execute(_REPLAYED, {"iid": interaction_id, "user": user_id, "command": command})).first()
    return row is not None


async def unanswered(conn: AsyncConnection, user_id: int, command: str, since: datetime) -> Sequence[Any]:
    """The user's unanswered receipts for the command since then, latest first."""
    return (await conn.execute(_UNANSWERED, {"user": user_id, "command": command, "since": since})).all()
