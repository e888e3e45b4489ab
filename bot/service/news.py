"""What is news to a player who was away, and which commands owe them the "since you last looked" digest.

Kept apart from the digest itself (bot/service/catchup.py) because the unit of work and the log call it on every
command: it compares columns the command's lookup already read and runs no SQL of its own."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime

from bot.store.models import Campaign, Seat

# the log entries a player who was away should hear of (with every phase crossed, see steps.enter_phase): they
# move the campaign's news_seq, which a seat's mark is compared with. Orders, actions and rolls within a phase
# are not news by themselves: the phase's resolution tells them. record.log sets news_seq for these kinds; the
# Core append (bot/store/log.py, through CampaignTx.log) is for orders, withdrawals and undos, never news.
NEWS = frozenset({"deadline", "pause", "resume", "seat", "note", "gm-action", "upload", "rollback", "end", "setup"})


@dataclass(frozen=True)
class Due:
    """A command of a seat's holder found news in the campaign since the seat's mark."""

    campaign_id: int
    seat_id: int


_DUES: ContextVar[list[Due] | None] = ContextVar("herald_catchup_dues", default=None)


def begin() -> None:
    """A slash command starts: the campaigns it finds news in are collected for after its answer."""
    _DUES.set([])


def notice(campaign: Campaign, seat: Seat | None) -> None:
    """The campaign and seat a command's lookup found: two columns compared, no statement."""
    if seat is None or seat.looked_seq >= campaign.news_seq or not seat.catchup_auto:
        return
    dues = _DUES.get()
    if dues is not None and all(d.campaign_id != campaign.id for d in dues):
        dues.append(Due(campaign.id, seat.id))


def taken() -> list[Due]:
    """The digests this command owes (once: a second call finds none)."""
    dues = _DUES.get()
    if not dues:
        return []
    out = list(dues)
    dues.clear()
    return out


def forget(campaign_id: int) -> None:
    """/catchup is itself the digest: its command owes no other for this campaign."""
    dues = _DUES.get()
    if dues:
        dues[:] = [d for d in dues if d.campaign_id != campaign_id]


def new_holder(seat: Seat, campaign: Campaign, now: datetime) -> None:
    """A seat changed hands (or was taken): its new holder starts looking from here, not from the old holder's
    mark (the seat's past stays readable with /history, as the seat may see it)."""
    seat.looked_seq, seat.looked_at, seat.catchup_auto = campaign.log_seq, now, True
