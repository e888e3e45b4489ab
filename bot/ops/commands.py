"""One log line and the metrics per command: which, for whom, how long, and how it ended."""

from __future__ import annotations

import logging
import time

import discord

from bot.logs import FIELDS, bind
from bot.ops import metrics

log = logging.getLogger("bot.commands")
STARTED = "herald_started"  # interaction.extras key: when Herald began handling it
DONE = "herald_outcome"


def command_name(interaction: discord.Interaction) -> str:
    return interaction.command.qualified_name if interaction.command else "?"


def started(interaction: discord.Interaction) -> None:
    """Note the start, and bind the ids every line of this command carries."""
    interaction.extras.setdefault(STARTED, time.perf_counter())
    bind(interaction_id=interaction.id, guild_id=interaction.guild_id, user_id=interaction.user.id,
         shard_id=interaction.guild.shard_id if interaction.guild else None)


def finished(interaction: discord.Interaction, outcome: str) -> None:
    """The command's line and metrics, once: ok, refused (the user was told why), error, or repeat."""
    if interaction.type is not discord.InteractionType.application_command or DONE in interaction.extras:
        return
    interaction.extras[DONE] = outcome
    name = command_name(interaction)
    seconds = time.perf_counter() - interaction.extras.get(STARTED, time.perf_counter())
    metrics.COMMANDS.labels(command=name, outcome=outcome).inc()
    metrics.COMMAND_SECONDS.labels(command=name).observe(seconds)
    log.info("/%s %s in %.0f ms", name, outcome, seconds * 1000,
             extra={FIELDS: {"command": name, "outcome": outcome, "latency_ms": round(seconds * 1000, 1)}})
