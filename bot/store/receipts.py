"""Receipt queries, as Core statements built once: they run around every state-changing command."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from bot.store.db import Database, session_rows, session_write
from bot.store.models import Base

_T = Base.metadata.tables["receipt"]
# this very interaction (a gateway replay), or the user's unanswered receipts of the command since then: one read
_EARLIER = (select(_T.c.id, _T.c.interaction_id, _T.c.command, _T.c.at, _T.c.outcome, _T.c.campaign_id)
            .where(_T.c.user_id == bindparam("user"), _T.c.command == bindparam("command"),
                   or_(_T.c.interaction_id == bindparam("iid"),
                       (_T.c.answered.is_(False)) & (_T.c.at >= bindparam("since"))))
            .order_by(_T.c.at.desc(), _T.c.id.desc()))
_INSERT = insert(_T)
_INSERT_ID = insert(_T).returning(_T.c.id)
_SETTLE = (update(_T).where(_T.c.id == bindparam("rid"))
           .values(answered=bindparam("answered"), outcome=bindparam("outcome")))
_ANSWERED = update(_T).where(_T.c.id == bindparam("rid")).values(answered=True)
_REMOVE = delete(_T).where(_T.c.id == bindparam("rid"))
_PRUNE = delete(_T).where(_T.c.at < bindparam("before"))


async def add(conn: AsyncConnection | AsyncSession, **values: Any) -> int | None:
    """A new receipt's id (IntegrityError if the interaction has one already)."""
    key = (await conn.execute(_INSERT, values)).inserted_primary_key  # type: ignore[attr-defined]
    return int(key[0]) if key is not None else None


async def add_in(session: AsyncSession, **values: Any) -> int:
    """A new receipt's id, written in the session's own transaction straight on the driver's connection (its
    command's change commits with it); IntegrityError if the interaction has one already."""
    return int((await session_rows(session, _INSERT_ID, values))[0].id)


async def remove_in(session: AsyncSession, receipt_id: int) -> None:
    await session_write(session, _REMOVE, {"rid": receipt_id})


async def prune(conn: AsyncConnection | AsyncSession, before: datetime) -> None:
    await conn.execute(_PRUNE, {"before": before})


async def answered(db: Database, receipt_id: int) -> None:
    await db.write_alone(_ANSWERED, {"rid": receipt_id})


async def settle(db: Database, receipt_id: int, *, answered: bool, outcome: str) -> None:
    """What the command answered, and whether the answer reached the person: one statement, its own transaction."""
    await db.write_alone(_SETTLE, {"rid": receipt_id, "answered": answered, "outcome": outcome})


async def earlier(db: Database, interaction_id: int, user_id: int, command: str,
                  since: datetime) -> Sequence[Any]:
    """The receipt of this interaction if any, and the user's unanswered receipts of the command since then,
    latest first: one read, its own snapshot."""
    return await db.select(_EARLIER, {"iid": interaction_id, "user": user_id, "command": command, "since": since})
