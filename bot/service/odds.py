"""/odds: what may happen if you gave this order (or took this action), counted exactly, privately to you."""

from __future__ import annotations

import asyncio

from bot.service.cache import RENDER_SLOTS
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.orders import clean
from bot.service.replies import Reply
from bot.service.unit import campaign_tx
from bot.store.models import CampaignStatus
from engine.core import RulesError

MAX_ODDS = 2000   # characters asked about at once (the answer of a few battles already fills a message)
MAX_ODDS_LINES = 10


async def odds(services: Services, caller: Caller, text: str, campaign_name: str | None) -> Reply:
    """The exact odds of `text` (order lines, or an action) for the caller's seat, from what that seat may know."""
    text = clean(text)
    if not text.strip():
        raise ServiceError("write the order or action to count, e.g. `settle Cuba` or `explore 14`")
    if len(text) > MAX_ODDS:
        raise ServiceError(f"ask about at most {MAX_ODDS:,} characters at once; yours are {len(text):,}")
    if sum(1 for line in text.split("\n") if line.strip()) > MAX_ODDS_LINES:
        raise ServiceError(f"ask about at most {MAX_ODDS_LINES} lines at once")
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        campaign = tx.campaign
        seat = tx.require_seat()
        if campaign.status != CampaignStatus.RUNNING:
            raise ServiceError(f"**{campaign.name}** is not running")
        ruleset, state = tx.ruleset, tx.state   # decoded for this call alone: counting never touches the cache
    try:
        async with RENDER_SLOTS:   # a big battle takes a second or two of CPU: off the event loop, a few at once
            answer = await asyncio.to_thread(ruleset.odds, state, seat.name, text)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None
    return Reply(f"🎲 Odds for **{seat.name}** in **{campaign.name}** (exact; only what you may know):\n{answer}",
                 campaign_id=campaign.id)
