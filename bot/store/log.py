"""The campaign's log, appended with Core statements: the hot path skips the ORM's flush of a new object."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from bot.store.db import session_write
from bot.store.models import Base, Campaign, LogEntry, Snapshot

_CAMPAIGN = Base.metadata.tables["campaign"]
# the next seq, and the version bump that makes a concurrent writer's stale copy fail (as the ORM's own would)
_NEXT_SEQ = (update(_CAMPAIGN).where(_CAMPAIGN.c.id == bindparam("cid"), _CAMPAIGN.c.version_id == bindparam("ver"))
             .values(log_seq=bindparam("seq"), version_id=bindparam("new_ver")))
# the same with the campaign's roll count (a logged /roll: one UPDATE, not the ORM's flush and then this one)
_NEXT_SEQ_ROLL = _NEXT_SEQ.values(roll_count=bindparam("rolls"))
_APPEND = insert(Base.metadata.tables["log_entry"])


async def append(session: AsyncSession, campaign: Campaign, *, at: datetime, kind: str, actor: str,
                 actor_user_id: int | None, visibility: dict[str, Any], body: dict[str, Any],
                 roll_count: int | None = None) -> int:
    """Append one entry (never changed afterwards) and return its seq; the campaign's row carries the count (and
    `roll_count`, the campaign's count of /rolls, when given)."""
    if campaign in session.dirty:
        await session.flush()  # its pending changes first, so the version checked below is the current one
    seq, version = campaign.log_seq + 1, campaign.version_id
    params = {"cid": campaign.id, "ver": version, "seq": seq, "new_ver": version + 1}
    if roll_count is None:
        changed = await session_write(session, _NEXT_SEQ, params)
    else:
        changed = await session_write(session, _NEXT_SEQ_ROLL, {**params, "rolls": roll_count})
    if changed != 1:
        raise StaleDataError("the campaign changed under this transaction")
    set_committed_value(campaign, "log_seq", seq)
    set_committed_value(campaign, "version_id", version + 1)
    if roll_count is not None:
        set_committed_value(campaign, "roll_count", roll_count)
    await session_write(session, _APPEND, {"campaign_id": campaign.id, "seq": seq, "at": at, "kind": kind,
                                           "actor": actor, "actor_user_id": actor_user_id, "turn": campaign.turn,
                                           "phase_key": campaign.phase_key, "visibility": visibility, "body": body})
    return seq


_START = select(func.max(Snapshot.seq)).where(Snapshot.campaign_id == bindparam("campaign"),
                                              Snapshot.undone.is_(False), Snapshot.kind == "start")
_SINCE = (select(LogEntry).where(LogEntry.campaign_id == bindparam("campaign"), LogEntry.seq > bindparam("seq"))
          .order_by(LogEntry.seq))
_SNAPSHOTS = (select(Snapshot).where(Snapshot.campaign_id == bindparam("campaign"), Snapshot.undone.is_(False))
              .order_by(Snapshot.seq))
_ALL_SNAPSHOTS = select(Snapshot).where(Snapshot.campaign_id == bindparam("campaign")).order_by(Snapshot.seq)


async def phase_start(session: AsyncSession, campaign_id: int) -> int:
    """The seq at which the current phase began (its start snapshot still in effect)."""
    return await session.scalar(_START, {"campaign": campaign_id}) or 0


async def since(session: AsyncSession, campaign_id: int, seq: int = 0) -> list[LogEntry]:
    """The entries after `seq`, in order (0: the whole log)."""
    return list(await session.scalars(_SINCE, {"campaign": campaign_id, "seq": seq}))


async def snapshots(session: AsyncSession, campaign_id: int, *, undone: bool = False) -> list[Snapshot]:
    """The snapshots in effect (or all of them, rolled back ones too), in order."""
    return list(await session.scalars(_ALL_SNAPSHOTS if undone else _SNAPSHOTS, {"campaign": campaign_id}))
