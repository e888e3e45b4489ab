"""Receipts: what a state-changing command did, kept until its answer reaches the person, so that a command
retried because its answer was lost is not applied twice."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.exc import DBAPIError, IntegrityError

from bot.service import lookup
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.store import receipts as rows

log = logging.getLogger(__name__)

WINDOW = timedelta(minutes=15)  # an interaction token lives 15 minutes: past that a retry is a new decision
KEEP = timedelta(days=1)
OUTCOME_CHARS = 500

# commands that change a campaign; `gm settings` only when given a value
CHANGING = frozenset({
    "gm advance", "gm rollback", "gm note", "gm act", "gm seat assign", "gm seat replace", "gm seat kick",
    "gm seat auto", "gm deadline set", "gm deadline clear", "gm settings", "gm table upload", "gm upload",
    "campaign create", "campaign join", "campaign leave", "campaign start", "campaign end",
    "orders submit", "orders withdraw", "act", "undo", "campaign notify",
})


PRUNE_EVERY = timedelta(hours=1)  # receipts past KEEP are pruned by a process at most this often, not per command
ASKED = "#"  # a receipt's command is "<name>#<digest of the options>": a retry is the same command, asked alike


def command_name(command: str) -> str:
    return command.split(ASKED, 1)[0]


@dataclass(frozen=True)
class Earlier:
    """A receipt whose answer did not reach its person."""

    id: int
    command: str
    at: datetime
    outcome: str


async def record(services: Services, *, interaction_id: int, user_id: int, campaign_id: int | None,
                 command: str, outcome: str) -> int | None:
    """Write the receipt of a committed command (its own short transaction); None if this interaction has one."""
    now = services.clock.now()
    try:
        async with services.db.write_rows() as conn:
            receipt_id = await rows.add(conn, interaction_id=interaction_id, user_id=user_id,
                                        campaign_id=campaign_id, command=command[:100], at=now,
                                        outcome=outcome[:OUTCOME_CHARS], answered=False)
            if services.receipts_pruned_at is None or now - services.receipts_pruned_at >= PRUNE_EVERY:
                await rows.prune(conn, now - KEEP)
                services.receipts_pruned_at = now
            return receipt_id
    except IntegrityError:
        log.warning("interaction %s already has a receipt", interaction_id)
        return None


async def mark_answered(services: Services, receipt_id: int) -> None:
    async with services.db.write_rows() as conn:
        await rows.answered(conn, receipt_id)


async def replayed(services: Services, *, interaction_id: int, user_id: int, command: str) -> bool:
    """Whether this very interaction (a gateway replay) was already carried out."""
    async with services.db.read_rows() as conn:
        return await rows.exists(conn, interaction_id, user_id, command)


async def unanswered(services: Services, caller: Caller, command: str, campaign: str | None) -> Earlier | None:
    """The caller's latest receipt for this command (and campaign, when it can be told) whose answer was lost."""
    since = services.clock.now() - WINDOW
    async with services.db.read_rows() as conn:  # nearly always none: then the campaign need not be looked up
        found = await rows.unanswered(conn, caller.user_id, command, since)
    if not found:
        return None
    campaign_id = await _campaign_id(services, caller, campaign) if command_name(command) != "campaign create" else None
    for row in found:  # a receipt without a campaign (a reply that named none) still counts
        if campaign_id is None or row.campaign_id in (campaign_id, None):
            return Earlier(row.id, row.command, row.at, row.outcome)
    return None


async def _campaign_id(services: Services, caller: Caller, name: str | None) -> int | None:
    try:
        async with services.db.read() as session:
            return int((await lookup.find_campaign(session, caller, name)).id)
    except (ServiceError, ValueError, OverflowError, DBAPIError):  # a hostile `campaign:` is the command's to refuse
        return None
