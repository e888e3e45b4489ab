"""The campaign's log, appended with Core statements: the hot path skips the ORM's flush of a new object."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from bot.store.models import Base, Campaign

_CAMPAIGN = Base.metadata.tables["campaign"]
# the next seq, and the version bump that makes a concurrent writer's stale copy fail (as the ORM's own would)
_NEXT_SEQ = (update(_CAMPAIGN).where(_CAMPAIGN.c.id == bindparam("cid"), _CAMPAIGN.c.version_id == bindparam("ver"))
             .values(log_seq=bindparam("seq"), version_id=bindparam("new_ver")))
_APPEND = insert(Base.metadata.tables["log_entry"])


async def append(session: AsyncSession, campaign: Campaign, *, at: datetime, kind: str, actor: str,
                 actor_user_id: int | None, visibility: dict[str, Any], body: dict[str, Any]) -> int:
    """Append one entry (never changed afterwards) and return its seq; the campaign's row carries the count."""
    if campaign in session.dirty:
        await session.flush()  # its pending changes first, so the version checked below is the current one
    seq, version = campaign.log_seq + 1, campaign.version_id
    result = await session.execute(_NEXT_SEQ, {"cid": campaign.id, "ver": version, "seq": seq,
                                               "new_ver": version + 1})
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleDataError("the campaign changed under this transaction")
    set_committed_value(campaign, "log_seq", seq)
    set_committed_value(campaign, "version_id", version + 1)
    await session.execute(_APPEND, {"campaign_id": campaign.id, "seq": seq, "at": at, "kind": kind, "actor": actor,
                                    "actor_user_id": actor_user_id, "turn": campaign.turn,
                                    "phase_key": campaign.phase_key, "visibility": visibility, "body": body})
    return seq
