"""The campaign's log, appended with Core statements: the hot path skips the ORM's flush of a new object."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from bot.store.db import session_rows, session_write
from bot.store.models import Base, Campaign, LogEntry, Snapshot

_CAMPAIGN = Base.metadata.tables["campaign"]
# the next seq, and the version bump that makes a concurrent writer's stale copy fail (as the ORM's own would)
_NEXT_SEQ = (update(_CAMPAIGN).where(_CAMPAIGN.c.id == bindparam("cid"), _CAMPAIGN.c.version_id == bindparam("ver"))
             .values(log_seq=bindparam("seq"), version_id=bindparam("new_ver")))
# the same with the campaign's roll count (a logged /roll: one UPDATE, not the ORM's flush and then this one)
_NEXT_SEQ_ROLL = _NEXT_SEQ.values(roll_count=bindparam("rolls"))
_LOG = Base.metadata.tables["log_entry"]
_APPEND = insert(_LOG)
_ENTRY = ["campaign_id", "seq", "at", "kind", "actor", "actor_user_id", "turn", "phase_key", "visibility", "body"]


def _bump_and_append(bump: Any) -> Any:
    """PostgreSQL: the version bump and the entry in one statement (one round trip, not two): the entry is
    inserted from the UPDATE's RETURNING, so it is written only if the campaign's version was still the one read
    (no row changed: the caller raises, and the transaction is rolled back)."""
    bumped = bump.returning(_CAMPAIGN.c.id).cte("bumped")
    # the entry's parameters named apart from the campaign's columns (an UPDATE sets every column it is given)
    values = [bumped.c.id, bindparam("seq", type_=_LOG.c.seq.type),
              *[bindparam("entry_" + name, type_=_LOG.c[name].type) for name in _ENTRY[2:]]]
    return insert(_LOG).from_select(_ENTRY, select(*values).select_from(bumped))


_BUMP_AND_APPEND = _bump_and_append(_NEXT_SEQ)
_BUMP_AND_APPEND_ROLL = _bump_and_append(_NEXT_SEQ_ROLL)
_RECEIPT = Base.metadata.tables["receipt"]
RECEIPT_COLUMNS = ("interaction_id", "user_id", "campaign_id", "command", "at", "outcome", "answered")


def _bump_append_and_keep(bump: Any) -> Any:
    """PostgreSQL: `_bump_and_append`, and the command's receipt (see service.receipts) with them, in one
    statement: a command that changes a campaign holds its row lock from the look-up to the commit, and each round
    trip in between is one every other writer of the campaign waits for. Both rows are written only if the version
    was still the one read; (entries appended, the receipt's id)."""
    bumped = bump.returning(_CAMPAIGN.c.id).cte("bumped")
    values = [bumped.c.id, bindparam("seq", type_=_LOG.c.seq.type),
              *[bindparam("entry_" + name, type_=_LOG.c[name].type) for name in _ENTRY[2:]]]
    appended = (insert(_LOG).from_select(_ENTRY, select(*values).select_from(bumped))
                .returning(_LOG.c.seq).cte("appended"))
    receipt = [bindparam("r_" + name, type_=_RECEIPT.c[name].type) for name in RECEIPT_COLUMNS]
    kept = (insert(_RECEIPT).from_select(list(RECEIPT_COLUMNS), select(*receipt).select_from(bumped))
            .returning(_RECEIPT.c.id).cte("kept"))
    return select(select(func.count()).select_from(appended).scalar_subquery().label("appended"),
                  select(kept.c.id).scalar_subquery().label("receipt"))


_BUMP_APPEND_AND_KEEP = _bump_append_and_keep(_NEXT_SEQ)


async def append(session: AsyncSession, campaign: Campaign, *, at: datetime, kind: str, actor: str,
                 actor_user_id: int | None, visibility: dict[str, Any], body: dict[str, Any],
                 roll_count: int | None = None) -> int:
    """Append one entry (never changed afterwards) and return its seq; the campaign's row carries the count (and
    `roll_count`, the campaign's count of /rolls, when given)."""
    if campaign in session.dirty:
        await session.flush()  # its pending changes first, so the version checked below is the current one
    seq, version = campaign.log_seq + 1, campaign.version_id
    params = {"cid": campaign.id, "ver": version, "seq": seq, "new_ver": version + 1}
    entry = {"at": at, "kind": kind, "actor": actor, "actor_user_id": actor_user_id, "turn": campaign.turn,
             "phase_key": campaign.phase_key, "visibility": visibility, "body": body}
    if session.get_bind().dialect.name == "postgresql":
        both = _BUMP_AND_APPEND if roll_count is None else _BUMP_AND_APPEND_ROLL
        rolls = {} if roll_count is None else {"rolls": roll_count}
        changed = await session_write(session, both, {**params, **rolls,
                                                      **{"entry_" + name: value for name, value in entry.items()}})
        if changed != 1:
            raise StaleDataError("the campaign changed under this transaction")
        _bumped(campaign, seq, version + 1, roll_count)
        return seq
    if roll_count is None:
        changed = await session_write(session, _NEXT_SEQ, params)
    else:
        changed = await session_write(session, _NEXT_SEQ_ROLL, {**params, "rolls": roll_count})
    if changed != 1:
        raise StaleDataError("the campaign changed under this transaction")
    _bumped(campaign, seq, version + 1, roll_count)
    await session_write(session, _APPEND, {"campaign_id": campaign.id, "seq": seq, **entry})
    return seq


def locks_rows(session: AsyncSession) -> bool:
    """Whether this database locks rows (PostgreSQL), where a round trip less while locked is worth a statement."""
    return bool(session.get_bind().dialect.name == "postgresql")


async def append_and_keep(session: AsyncSession, campaign: Campaign, receipt: dict[str, Any], *, at: datetime,
                          kind: str, actor: str, actor_user_id: int | None, visibility: dict[str, Any],
                          body: dict[str, Any]) -> tuple[int, int]:
    """PostgreSQL: `append`, and the receipt of the command (its column values) in the same statement; (the
    entry's seq, the receipt's id). IntegrityError if the interaction has a receipt already."""
    if campaign in session.dirty:
        await session.flush()
    seq, version = campaign.log_seq + 1, campaign.version_id
    entry = {"at": at, "kind": kind, "actor": actor, "actor_user_id": actor_user_id, "turn": campaign.turn,
             "phase_key": campaign.phase_key, "visibility": visibility, "body": body}
    [row] = await session_rows(session, _BUMP_APPEND_AND_KEEP, {
        "cid": campaign.id, "ver": version, "seq": seq, "new_ver": version + 1,
        **{"entry_" + name: value for name, value in entry.items()},
        **{"r_" + name: receipt[name] for name in RECEIPT_COLUMNS}})
    if row.appended != 1:
        raise StaleDataError("the campaign changed under this transaction")
    _bumped(campaign, seq, version + 1, None)
    return seq, int(row.receipt)


def _bumped(campaign: Campaign, seq: int, version: int, roll_count: int | None) -> None:
    """The campaign entity as the database now has it (as loaded: nothing left to flush)."""
    set_committed_value(campaign, "log_seq", seq)
    set_committed_value(campaign, "version_id", version)
    if roll_count is not None:
        set_committed_value(campaign, "roll_count", roll_count)


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
