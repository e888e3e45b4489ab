"""Confirmations: before what cannot be undone or hurts someone, Herald asks, and only the person who asked may
answer, once, within a few minutes. The question is kept in the database, so a restart between asking and
pressing still gets a clean answer, and a button carries only an unguessable token."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import receipts
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.replies import Reply
from bot.store.models import Campaign, Confirmation

LASTS = timedelta(minutes=5)
KEEP = timedelta(days=1)  # answered or expired questions are pruned after this, when a new one is asked
TOKEN_BYTES = 12  # 24 hex characters: the custom_id carries it, and no one guesses 96 bits
NOT_YOURS = "This is not your confirmation: only the person who asked can answer it."
UNKNOWN = "This confirmation is no longer valid: run the command again."

Doer = Callable[[Services, Caller, str, dict[str, Any], int], Awaitable[Reply]]
_DOERS: dict[str, Doer] = {}


def doer(command: str) -> Callable[[Doer], Doer]:
    """Register what confirming `command` does: (services, caller, "#campaign id", args, confirmation id)."""

    def register(fn: Doer) -> Doer:
        _DOERS[command] = fn
        return fn

    return register


async def ask(session: AsyncSession, services: Services, caller: Caller, campaign: Campaign, command: str,
              args: dict[str, Any], question: str, yes: str) -> Reply:
    """Write the question (in the caller's transaction) and answer with it and its buttons."""
    receipts.only_a_question()
    now = services.clock.now()
    await session.execute(delete(Confirmation).where(Confirmation.expires_at < now - KEEP))
    token = secrets.token_hex(TOKEN_BYTES)
    session.add(Confirmation(token=token, campaign_id=campaign.id, user_id=caller.user_id, command=command,
                             args=args, asked_at=now, expires_at=now + LASTS))
    minutes = int(LASTS.total_seconds() // 60)
    return Reply(f"{question}\n-# Only you can answer; this question expires in {minutes} minutes.",
                 campaign_id=campaign.id, confirm=(token, yes))


async def claim(session: AsyncSession, services: Services, confirmation_id: int) -> Confirmation:
    """Inside the confirmed command's own transaction (the campaign locked): mark the question answered, so two
    presses never do it twice; the command's change and this mark commit together or not at all."""
    row = await session.get(Confirmation, confirmation_id, populate_existing=True, with_for_update=True)
    if row is None:
        raise ServiceError(UNKNOWN)
    if row.answered_at is not None:
        raise ServiceError(already(row))
    row.answered_at = services.clock.now()
    return row


def already(row: Confirmation) -> str:
    return "This was already answered" + (f": {row.outcome}" if row.outcome else ".") + " Nothing was done again."


async def answer(services: Services, caller: Caller, token: str, *, confirmed: bool) -> Reply:
    """A press on a question's button: check whose it is and whether it still stands, then do it (or not)."""
    async with services.db.read() as session:
        row = await session.scalar(select(Confirmation).where(Confirmation.token == token))
        if row is None:
            raise ServiceError(UNKNOWN)
        if row.user_id != caller.user_id:
            raise ServiceError(NOT_YOURS)
        if row.answered_at is not None:
            raise ServiceError(already(row))
        expired = services.clock.now() >= row.expires_at
        confirmation_id, command, args, campaign = row.id, row.command, dict(row.args), f"#{row.campaign_id}"
    if expired:
        raise ServiceError(f"This confirmation expired ({int(LASTS.total_seconds() // 60)} minutes): nothing was "
                           f"done. Run `/{command}` again if you still want to.")
    if not confirmed:
        async with services.db.write() as session:
            claimed = await claim(session, services, confirmation_id)
            claimed.outcome = "cancelled"
        return Reply("Cancelled: nothing was done.")
    from bot.service import campaigns, gm  # noqa: F401  (importing them registers what confirming does)

    do = _DOERS.get(command)
    if do is None:  # asked by a Herald that did something this one no longer does
        raise ServiceError(UNKNOWN)
    reply = await do(services, caller, campaign, args, confirmation_id)
    async with services.db.write() as session:
        done = await session.get(Confirmation, confirmation_id)
        if done is not None:
            done.outcome = reply.text[:300]
    return reply
