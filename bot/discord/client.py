"""The bot: lean intents and caches, one tree, the cogs, and the background tasks it owns."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord.ext import commands

from bot.discord.delivery import DiscordDelivery
from bot.discord.tree import HeraldTree
from bot.discord.views import ActionSelect, ConfirmButton, OrdersButton, StaleComponent, TurnButton, orders_form_sent
from bot.service import deadlines, outbox, timers
from bot.service.context import Services

log = logging.getLogger(__name__)
COGS = ("bot.discord.cogs.campaign", "bot.discord.cogs.orders", "bot.discord.cogs.gm", "bot.discord.cogs.play",
        "bot.discord.cogs.undo")


class HeraldBot(commands.Bot):
    def __init__(self, services: Services, *, gm_role: str = "GM", background: bool = True,
                 sync_commands: bool = False, **kwargs: object) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, tree_cls=HeraldTree, help_command=None,
            intents=discord.Intents(guilds=True), member_cache_flags=discord.MemberCacheFlags.none(),
            max_messages=None, chunk_guilds_at_startup=False,  # no pings unless a message names whom
            allowed_mentions=discord.AllowedMentions.none(), **kwargs)  # type: ignore[arg-type]
        self.services = services
        self.gm_role = gm_role
        self.background = background
        self.sync_commands = sync_commands
        self.delivery = DiscordDelivery(self)
        self._tasks: list[asyncio.Task[None]] = []

    async def setup_hook(self) -> None:
        for cog in COGS:
            await self.load_extension(cog)
        self.add_dynamic_items(TurnButton, OrdersButton, ActionSelect, ConfirmButton, StaleComponent)
        self.add_listener(orders_form_sent, "on_interaction")
        if self.sync_commands:
            await self.tree.sync()
        if self.background:
            self._tasks.append(asyncio.create_task(outbox.run(self.services, self.delivery), name="herald-outbox"))
            self._tasks.append(asyncio.create_task(self._timers(), name="herald-timers"))

    async def _timers(self) -> None:
        """RoboDanny's timer pattern: sleep until the earliest due time, re-armed when one is added.

        A failing timer is rescheduled by `deadlines.fire`; only a failing database makes the loop
        back off, briefly at first (1 s, doubling to a minute)."""
        backoff = 1.0
        while True:
            self.services.timers_changed.clear()
            try:
                await deadlines.run_due(self.services)
                async with self.services.db.read() as session:
                    nxt = await timers.earliest(session)
                backoff = 1.0
            except Exception:
                log.exception("timer loop failed; retrying in %.0fs", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)
                continue
            wait = 3600.0
            if nxt is not None:
                wait = max(0.0, min(wait, (nxt - self.services.clock.now()).total_seconds()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.services.timers_changed.wait(), timeout=wait)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await super().close()
