"""The campaign unit of work: one transaction around one command on one campaign, committed once at the end."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from bot.logs import bind
from bot.service import news, receipts, record, steps
from bot.service.context import Caller, Services
from bot.service.errors import Conflict, NotAllowed, ServiceError
from bot.service.lookup import find_with_seat, is_gm
from bot.store import log as log_rows
from bot.store.models import Campaign, OutboxPost, Seat
from engine.core import Dice, Phase, Ruleset, Step, Viewer, Visibility


class CampaignTx:
    """What a command works with: the campaign, the caller's seat, the ruleset, the state (loaded on first use),
    and the ways to change the record. Nothing is saved until the block ends without an error."""

    def __init__(self, services: Services, caller: Caller, session: AsyncSession, campaign: Campaign,
                 seat: Seat | None) -> None:
        self.services, self.caller, self.session = services, caller, session
        self.campaign, self.seat = campaign, seat
        self._ruleset: Ruleset[Any] | None = None
        self._state: Any = None
        self._state_loaded = False
        self.kept: receipts.Asked | None = None  # the command whose receipt this transaction wrote

    @property
    def ruleset(self) -> Ruleset[Any]:
        if self._ruleset is None:
            self._ruleset = record.ruleset_of(self.campaign)
        return self._ruleset

    @property
    def state(self) -> Any:
        """The decoded state, loaded once (a campaign not started yet is a clear error)."""
        if not self._state_loaded:
            self._state = record.state_of(self.campaign, self.ruleset)
            self._state_loaded = True
        return self._state

    @property
    def is_gm(self) -> bool:
        return is_gm(self.campaign, self.caller)

    @property
    def viewer(self) -> Viewer:
        """A seated player sees as their seat; the GM sees all; anyone else is a spectator (no query: the seat
        came with the campaign)."""
        if self.seat is not None:
            return Viewer.of_seat(self.seat.name)
        return Viewer.gm() if self.is_gm else Viewer.spectator()

    def shared_state(self) -> Any:
        """The decoded state from the per-process cache, for a reader that never changes it."""
        return record.state_of(self.campaign, self.ruleset, shared=True)

    def require_seat(self) -> Seat:
        if self.seat is None:
            raise NotAllowed(f"you have no seat in **{self.campaign.name}**")
        return self.seat

    async def log(self, *, kind: str, visibility: Visibility, body: dict[str, Any], actor: str | None = None) -> int:
        """Append to the campaign's log as the caller (their seat's name, unless `actor` says otherwise); its seq."""
        name = actor if actor is not None else (self.seat.name if self.seat is not None else self.caller.name)
        at, seen = self.services.clock.now(), visibility.dump()
        pending = receipts.due(self.services, self.campaign.id) if log_rows.locks_rows(self.session) else None
        if pending is None:
            return await log_rows.append(self.session, self.campaign, at=at, kind=kind, actor=name,
                                         actor_user_id=self.caller.user_id, visibility=seen, body=body)
        # PostgreSQL: the receipt in the entry's statement (one round trip less while the campaign is locked)
        asked, receipt = pending
        try:
            seq, asked.receipt_id = await log_rows.append_and_keep(
                self.session, self.campaign, receipt, at=at, kind=kind, actor=name,
                actor_user_id=self.caller.user_id, visibility=seen, body=body)
        except IntegrityError:
            raise ServiceError(receipts.ALREADY) from None
        self.kept = asked
        return seq

    def post(self, target: str, content: str, *, file: tuple[str, bytes] | None = None,
             render: dict[str, Any] | None = None, components: dict[str, Any] | None = None,
             mentions: Sequence[int] = ()) -> OutboxPost:
        """Queue a post; it is written with the change and delivered only if the block commits."""
        return record.post(self.session, self.campaign, self.services, target, content, file=file, render=render,
                           components=components, mentions=mentions)

    async def record_step(self, step: Step[Any], dice: Dice, *, kind: str, actor: steps.Actor,
                          body: dict[str, Any], visibility: Visibility) -> Phase:
        """Keep a rules step (state, log, posts, phase crossing); `state` is the step's state from here on."""
        phase = await steps.record_step(self.session, self.services, self.campaign, self.ruleset, step, dice,
                                        kind=kind, actor=actor, body=body, visibility=visibility)
        self._state, self._state_loaded = step.state, True
        return phase


@asynccontextmanager
async def campaign_tx(services: Services, caller: Caller, name: str | None = None, *, write: bool = True,
                      for_update: bool | None = None, include_ended: bool = True) -> AsyncIterator[CampaignTx]:
    """Find the campaign (and the caller's seat) and run the block in one transaction: committed once when it
    ends, rolled back entirely (log, orders, outbox posts) if it raises. A write locks the campaign unless told
    not to; a write that lost a race on the campaign's version raises `Conflict`, which is safe to retry."""
    lock = write if for_update is None else for_update
    kept: receipts.Asked | None = None
    tx: CampaignTx | None = None
    try:
        async with services.db.write() if write else services.db.read() as session:
            campaign, seat = await find_with_seat(session, caller, name, for_update=lock,
                                                  include_ended=include_ended, plain=True)
            bind(campaign_id=campaign.id)  # every later line of this command names its campaign
            news.notice(campaign, seat)  # "since you last looked": two columns already read, no statement
            tx = CampaignTx(services, caller, session, campaign, seat)
            yield tx
            if write:  # the command's receipt commits with its change (see receipts)
                if tx.kept is not None and tx.kept.only_asked:  # written with a log entry, then it only asked
                    await receipts.forget(session, tx.kept)
                kept = await receipts.keep_with_change(session, services, campaign.id, written=tx.kept)
    except BaseException as exc:
        if kept is None and tx is not None:
            kept = tx.kept
        if kept is not None:  # not committed after all
            kept.receipt_id = None
        if isinstance(exc, StaleDataError):
            raise Conflict("the campaign was changed by someone else at the same moment, so nothing of this was "
                           "saved: try again") from None
        raise
