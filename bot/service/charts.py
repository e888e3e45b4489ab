"""/chart: a campaign's numbers over its turns (score, victory or leadership points; LotE treasury and income);
and a seat's pending orders, which /map draws on the seat's own map.

`progress_chart` is what the turn summary or the end of a campaign may call to attach the same chart.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import cache, record
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.lookup import find_campaign, viewer_of
from bot.service.replies import Reply
from bot.store import orders as order_rows
from bot.store.history import states_by_turn
from bot.store.models import Campaign
from engine.core import Viewer
from engine.rulesets.progress import chart_keys, chart_png


def _draw(campaign: Campaign, rows: list[tuple[int, dict[str, Any]]], viewer: Viewer,
          key: str | None) -> bytes | None:
    ruleset = record.ruleset_of(campaign)
    states = [(turn, ruleset.load(data)) for turn, data in rows]
    return chart_png(ruleset.id, states, viewer, key)


def _asked(campaign: Campaign, rows: list[tuple[int, dict[str, Any]]], viewer: Viewer,
           key: str | None) -> tuple[list[str], bytes | None]:
    """The charts this viewer may ask for and, when `key` is one of them (or none was named), the chart: the
    states are decoded and drawn together, in the caller's worker thread."""
    ruleset = record.ruleset_of(campaign)
    states = [(turn, ruleset.load(data)) for turn, data in rows]
    keys = chart_keys(ruleset.id, states[-1][1], viewer)
    if not keys or (key is not None and key not in keys):
        return keys, None
    return keys, chart_png(ruleset.id, states, viewer, key)


async def _rows(session: AsyncSession, campaign: Campaign) -> list[tuple[int, dict[str, Any]]]:
    rows = [(turn, data) for turn, data in await states_by_turn(session, campaign.id) if turn != campaign.turn]
    if campaign.state is not None:
        rows.append((campaign.turn, campaign.state))
    return rows


async def progress_chart(session: AsyncSession, campaign: Campaign, viewer: Viewer,
                         key: str | None = None) -> bytes | None:
    """The chart PNG for `viewer` over every recorded turn, drawn in a thread; None when there is nothing to chart."""
    rows = await _rows(session, campaign)
    if not rows:
        return None
    async with cache.RENDER_SLOTS:
        return await asyncio.to_thread(_draw, campaign, rows, viewer, key)


def chart_job(campaign: Campaign, viewer: Viewer, caption: str) -> dict[str, Any]:
    """An outbox render job for the chart up to this turn: drawn by the delivery task after commit."""
    return {"chart": {"campaign_id": campaign.id, "turn": campaign.turn, "viewer": {"kind": viewer.kind,
                                                                                     "seat": viewer.seat}},
            "name": f"{record.slug(campaign.name)}-chart-turn{campaign.turn}.png", "caption": caption}


async def chart_for_post(services: Services, job: dict[str, Any]) -> bytes | None:
    """Draw a queued chart: the campaign's turns on record up to the job's turn, for the job's viewer."""
    spec = job["chart"]
    async with services.db.read() as session:
        campaign = await session.get(Campaign, spec["campaign_id"])
        if campaign is None:
            return None
        rows = [(turn, data) for turn, data in await states_by_turn(session, campaign.id) if turn <= spec["turn"]]
    if len(rows) < 2:   # one point is not a line
        return None
    viewer = Viewer(spec["viewer"]["kind"], spec["viewer"].get("seat"))
    async with cache.RENDER_SLOTS:
        return await asyncio.to_thread(_draw, campaign, rows, viewer, None)


async def chart_image(services: Services, caller: Caller, what: str | None, campaign_name: str | None) -> Reply:
    async with services.db.read() as session:
        campaign = await find_campaign(session, caller, campaign_name)
        if campaign.state is None:
            raise ServiceError(f"**{campaign.name}** has not started yet")
        viewer = await viewer_of(session, campaign, caller)
        rows = await _rows(session, campaign)
    async with cache.RENDER_SLOTS:   # decoding every turn's state and drawing stay off the event loop
        keys, png = await asyncio.to_thread(_asked, campaign, rows, viewer, what)
    if not keys:
        return Reply(f"**{campaign.name}** has no chart you may see.", campaign_id=campaign.id)
    if what is not None and what not in keys:
        raise ServiceError(f"no `{what}` chart here; choose from: {', '.join(keys)}")
    if png is None:
        return Reply(f"**{campaign.name}** has no chart you may see.", campaign_id=campaign.id)
    return Reply(f"**{campaign.name}** — {what or keys[0]} by turn",
                 file=(f"{record.slug(campaign.name)}-{what or keys[0]}.png", png), campaign_id=campaign.id)


async def pending_orders(session: AsyncSession, campaign: Campaign, viewer: Viewer) -> list[str]:
    """A seat's open orders for the current window, as understood (canonical lines): drawn on its own map."""
    if viewer.kind != "seat" or viewer.seat is None:
        return []
    checks = await order_rows.open_checks(session, campaign.id, viewer.seat, campaign.phase_key)
    if checks is None:
        return []
    return [c["canonical"] for c in checks if c.get("canonical") and c.get("verdict") != "rejected"]
