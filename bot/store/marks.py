""""Since you last looked" marks: a seat's (on its own row, read with the seat) and a mark for someone not seated;
the log entries and phase names since a mark."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import LogEntry, LookMark, Seat, Snapshot

# a seat's mark moves only from where this command read it: of two commands racing, one moves it (and shows the
# digest), the other finds it moved and shows nothing
_CLAIM = (update(Seat).where(Seat.id == bindparam("seat_id"), Seat.looked_seq == bindparam("old"))
          .values(looked_seq=bindparam("new"), looked_at=bindparam("at")).execution_options(synchronize_session=False))
MOST_READ = 2000  # entries read for one digest: a longer absence is told by its latest entries and a count
_SINCE = (select(LogEntry).where(LogEntry.campaign_id == bindparam("campaign"), LogEntry.seq > bindparam("seq"))
          .order_by(LogEntry.seq.desc()).limit(MOST_READ))
_LABELS = (select(Snapshot.phase_key, Snapshot.phase_label)
           .where(Snapshot.campaign_id == bindparam("campaign"), Snapshot.kind == "start",
                  Snapshot.phase_key.in_(bindparam("keys", expanding=True)))
           .order_by(Snapshot.seq))
_PREVIOUS_START = (select(Snapshot.seq).where(Snapshot.campaign_id == bindparam("campaign"),
                                              Snapshot.kind == "start", Snapshot.undone.is_(False))
                   .order_by(Snapshot.seq.desc()).limit(1).offset(1))


async def claim(session: AsyncSession, seat_id: int, old: int, new: int, at: datetime) -> bool:
    """Move a seat's mark from `old` to `new`; False when another command moved it first."""
    result = await session.execute(_CLAIM, {"seat_id": seat_id, "old": old, "new": new, "at": at})
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


async def since(session: AsyncSession, campaign_id: int, seq: int) -> list[LogEntry]:
    """The entries after `seq`, oldest first; at most the latest MOST_READ of them."""
    return list(reversed((await session.scalars(_SINCE, {"campaign": campaign_id, "seq": seq})).all()))


async def phase_labels(session: AsyncSession, campaign_id: int, keys: set[str]) -> dict[str, str]:
    """How each of these phases was named when it began (the latest start of a phase key wins)."""
    if not keys:
        return {}
    rows = await session.execute(_LABELS, {"campaign": campaign_id, "keys": sorted(keys)})
    return dict(rows.all())


async def previous_phase_start(session: AsyncSession, campaign_id: int) -> int:
    """Where the phase before the current one began (0 when there was none): a first /catchup's mark."""
    return await session.scalar(_PREVIOUS_START, {"campaign": campaign_id}) or 0


async def unseated(session: AsyncSession, campaign_id: int, user_id: int) -> LookMark | None:
    return await session.get(LookMark, (campaign_id, user_id))
