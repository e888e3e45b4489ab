"""Receipts: what a state-changing command did, kept until its answer reaches the person, so that a command
retried because its answer was lost is not applied twice.

A command that changes a campaign through `campaign_tx` writes its receipt inside its own transaction (the
change and the receipt commit together, or neither does); what it answered is kept when the answer is sent.
A command that changes nothing through the unit of work (`campaign create`) gets its receipt after it commits."""

from __future__ import annotations

import asyncio
import logging
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

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
    """A receipt whose answer did not reach its person (`outcome` is empty when Herald stopped before it)."""

    id: int
    command: str
    at: datetime
    outcome: str


@dataclass
class Asked:
    """A state-changing command being carried out for one interaction, in the task that carries it out."""

    interaction_id: int
    user_id: int
    command: str
    task: asyncio.Task[object] | None = field(default_factory=asyncio.current_task)
    receipt_id: int | None = None  # written with the change
    only_asked: bool = False  # the command only asked a question: nothing to keep, asking again asks again


_asked: ContextVar[Asked | None] = ContextVar("herald_asked", default=None)


def expect(interaction_id: int, user_id: int, command: str) -> Asked:
    """This task is about to carry out a state-changing command: its unit of work writes the receipt."""
    asked = Asked(interaction_id, user_id, command)
    _asked.set(asked)
    return asked


def only_a_question() -> None:
    """The command carried out in this task changed nothing yet, it asked (bot/service/confirmations.py): its
    transaction keeps no receipt, so running it again asks again rather than reporting a lost answer."""
    asked = _asked.get()
    if asked is not None and asked.task is asyncio.current_task():
        asked.only_asked = True


def asked_for(interaction_id: int) -> Asked | None:
    """The command this task carries out for that interaction, if it is one."""
    asked = _asked.get()
    if asked is None or asked.interaction_id != interaction_id or asked.task is not asyncio.current_task():
        return None
    return asked


def due(services: Services, campaign_id: int) -> tuple[Asked, dict[str, Any]] | None:
    """The receipt the command carried out in this task is to keep and has not written yet (none if it only
    asked a question), as its column values: written with the change, by `keep_with_change` or in the same
    statement as the change's log entry (see store.log.append_and_keep)."""
    asked = _asked.get()
    if asked is None or asked.receipt_id is not None or asked.only_asked or asked.task is not asyncio.current_task():
        return None
    return asked, {"interaction_id": asked.interaction_id, "user_id": asked.user_id, "campaign_id": campaign_id,
                   "command": asked.command[:100], "at": services.clock.now(), "outcome": "", "answered": False}


ALREADY = "this request was already carried out"  # the same interaction carried out at the same moment elsewhere


async def keep_with_change(session: AsyncSession, services: Services, campaign_id: int, *,
                           written: Asked | None = None) -> Asked | None:
    """In a command's own write transaction: its receipt (once per command), to commit with the change, unless
    it is `written` already (with a log entry); the command it is for, if written."""
    if written is not None and written.receipt_id is not None:
        asked = written
    else:
        pending = due(services, campaign_id)
        if pending is None:
            return None
        asked, values = pending
        try:
            asked.receipt_id = await rows.add_in(session, **values)
        except IntegrityError:  # roll this one back
            raise ServiceError(ALREADY) from None
    now = services.clock.now()
    if services.receipts_pruned_at is None or now - services.receipts_pruned_at >= PRUNE_EVERY:
        await rows.prune(session, now - KEEP)
        services.receipts_pruned_at = now
    return asked


async def forget(session: AsyncSession, asked: Asked) -> None:
    """The receipt written earlier in this transaction, taken back: the command only asked a question after all."""
    if asked.receipt_id is not None:
        await rows.remove_in(session, asked.receipt_id)
        asked.receipt_id = None


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


async def settle(services: Services, receipt_id: int, *, answered: bool, outcome: str) -> None:
    """What the command answered and whether it reached the person: one statement, committed on its own."""
    await rows.settle(services.db, receipt_id, answered=answered, outcome=outcome[:OUTCOME_CHARS])


async def mark_answered(services: Services, receipt_id: int) -> None:
    await rows.answered(services.db, receipt_id)


async def earlier(services: Services, caller: Caller, interaction_id: int, command: str,
                  campaign: str | None) -> Earlier | bool | None:
    """Before a command runs: True if this very interaction (a gateway replay) was already carried out; else the
    caller's latest receipt for this command (and campaign, when it can be told) whose answer was lost; else
    None. One read, which nearly always finds nothing."""
    since = services.clock.now() - WINDOW
    found = await rows.earlier(services.db, interaction_id, caller.user_id, command, since)
    if not found:
        return None
    if any(row.interaction_id == interaction_id for row in found):
        return True
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
