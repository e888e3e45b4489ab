"""The discord.py internals the console and tests rely on; if an upgrade moves them, this fails first."""

from __future__ import annotations

import inspect

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.console.runner import Console


def test_discord_py_is_the_pinned_minor_version() -> None:
    assert discord.version_info[:2] == (2, 7)


def test_the_private_hooks_we_drive_still_exist() -> None:
    assert hasattr(discord.Client, "_async_setup_hook")
    assert "route" in inspect.signature(AsyncWebhookAdapter.request).parameters
    assert async_context.get(None) is None or isinstance(async_context.get(), AsyncWebhookAdapter)
    state_parsers = {"READY", "GUILD_CREATE", "INTERACTION_CREATE", "THREAD_CREATE", "CHANNEL_CREATE"}
    assert all(hasattr(discord.state.ConnectionState, f"parse_{p.lower()}") for p in state_parsers)


async def test_every_interaction_is_answered(lite: Console) -> None:
    await lite.run_line("@ann #t /campaign create name:Quick ruleset:freeform")
    await lite.run_line("@bob /campaign status")
    await lite.run_line("@bob /roll notation:d20")
    assert lite.fake.answered and all(lite.fake.answered.values())
