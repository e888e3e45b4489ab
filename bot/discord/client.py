"""The bot: lean intents and caches, one tree, the cogs, and the background tasks it owns."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

import discord
from discord.ext import commands

from bot.discord.cogs.catchup import shown_once
from bot.discord.delivery import DiscordDelivery
from bot.discord.tree import HeraldTree
from bot.discord.views import ActionSelect, ConfirmButton, OrdersButton, StaleComponent, TurnButton, orders_form_sent
from bot.ops import heap
from bot.ops.commands import finished
from bot.ops.locks import IdentifyGate
from bot.service import deadlines, outbox, timers
from bot.service.context import Services
from bot.store.timers import Shards

log = logging.getLogger(__name__)
COGS = ("bot.discord.cogs.campaign", "bot.discord.cogs.orders", "bot.discord.cogs.gm", "bot.discord.cogs.play",
        "bot.discord.cogs.undo", "bot.discord.cogs.odds", "bot.discord.cogs.catchup")


class HeraldBot(commands.Bot):
    def __init__(self, services: Services, *, gm_role: str = "GM", background: bool = True,
                 sync_commands: bool = False, poll: float = 30.0, settle_heap: bool = False,
                 **kwargs: object) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, tree_cls=HeraldTree, help_command=None,
            intents=discord.Intents(guilds=True), member_cache_flags=discord.MemberCacheFlags.none(),
            max_messages=None, chunk_guilds_at_startup=False,  # no pings unless a message names whom
            allowed_mentions=discord.AllowedMentions.none(), **kwargs)  # type: ignore[arg-type]
        self.services = services
        self.gm_role = gm_role
        self.background = background
        self.sync_commands = sync_commands
        self.settle_heap = settle_heap  # a long-lived process (herald run): see bot.ops.heap
        self.poll = poll  # how often to look for posts and timers another process left (or wrote)
        self.delivery = DiscordDelivery(self)
        self._tasks: list[asyncio.Task[None]] = []

    async def setup_hook(self) -> None:
        for cog in COGS:
            await self.load_extension(cog)
        self.add_dynamic_items(TurnButton, OrdersButton, ActionSelect, ConfirmButton, StaleComponent)
        self.add_listener(orders_form_sent, "on_interaction")
        self.add_listener(self._command_done, "on_app_command_completion")
        if self.sync_commands:
            await self.tree.sync()
        if self.settle_heap:  # before the background tasks start: nothing is waiting on the loop yet
            heap.settle()
        if self.background:
            self._tasks.append(asyncio.create_task(outbox.run(self.services, self.delivery, idle=self.poll),
                                                   name="herald-outbox"))
            self._tasks.append(asyncio.create_task(self._timers(), name="herald-timers"))

    async def _command_done(self, interaction: discord.Interaction, _command: object) -> None:
        finished(interaction, "ok")
        await shown_once(interaction)  # "since you last looked", when the command found news for its caller

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> None:
        """A background task the bot owns: cancelled and awaited when it closes."""
        self._tasks.append(asyncio.create_task(coro, name=name))

    async def _timers(self) -> None:
        """RoboDanny's timer pattern: sleep until the earliest due time, re-armed when one is added.

        A failing timer is rescheduled by `deadlines.fire`; only a failing database makes the loop
        back off, briefly at first (1 s, doubling to a minute)."""
        backoff = 1.0
        while True:
            self.services.timers_changed.clear()
            try:
                shards = self.timer_shards()
                await deadlines.run_due(self.services, shards)
                async with self.services.db.read() as session:
                    nxt = await timers.earliest(session, shards)
                backoff = 1.0
            except Exception:
                log.exception("timer loop failed; retrying in %.0fs", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)
                continue
            wait = self.poll  # another process may have set an earlier timer, or died before firing one
            if nxt is not None:
                left = (nxt - self.services.clock.now()).total_seconds()
                # still due after firing: another transaction held its campaign; look again shortly
                wait = min(wait, left) if left > 0 else deadlines.BUSY_PAUSE
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.services.timers_changed.wait(), timeout=wait)

    def timer_shards(self) -> Shards | None:
        """(shard count, shards owned) when this process owns only some guilds: it fires their timers first."""
        return None

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await super().close()


class ShardedHeraldBot(HeraldBot, commands.AutoShardedBot):
    """The bot as `herald run` starts it: some or all of Discord's shards (`shard_ids`, `shard_count`), each
    IDENTIFY paced with every other process on the database (see bot/ops/locks.py)."""

    def __init__(self, services: Services, *, gate: IdentifyGate, **kwargs: Any) -> None:
        super().__init__(services, **kwargs)
        self.gate = gate
        self._max_concurrency: int | None = None

    def timer_shards(self) -> Shards | None:
        if self.shard_ids is None or not self.shard_count:
            return None  # every shard is ours
        return self.shard_count, frozenset(self.shard_ids)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if self._max_concurrency is None:
            try:
                _, _, limits = await self.http.get_bot_gateway()
                self._max_concurrency = int(limits.get("max_concurrency", 1))
            except Exception:  # the gateway is found again by discord.py itself; pace as strictly as Discord may
                log.warning("could not read the session start limit; identifying one shard at a time")
                self._max_concurrency = 1
        await self.gate.wait(shard_id or 0, self._max_concurrency)

    async def close(self) -> None:
        await super().close()
        await self.gate.close()
