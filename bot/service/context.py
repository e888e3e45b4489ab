"""Who is calling, and the long-lived things every use case needs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.service.clock import Clock, SystemClock
from bot.store.db import Database


@dataclass(frozen=True, slots=True)
class Caller:
    """The Discord user behind a request, and where they asked from."""

    user_id: int
    name: str
    guild_id: int
    channel_id: int
    is_gm_role: bool = False  # holds the GM role or Manage Server in this guild


@dataclass
class Services:
    """Built once in main(): the database, the clock, and the wake-ups for background tasks."""

    db: Database
    clock: Clock = field(default_factory=SystemClock)
    secret: Callable[[], bytes] | None = None  # seed source; None: `secrets`
    outbox_ready: asyncio.Event = field(default_factory=asyncio.Event)
    timers_changed: asyncio.Event = field(default_factory=asyncio.Event)
    receipts_pruned_at: datetime | None = None  # receipts.record prunes old ones when this is an hour old
