"""One CommandTree owns how errors look: domain errors as short private notes, the rest with an id."""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from bot.discord.answers import tell, tell_quietly
from bot.discord.outgoing import quote
from bot.service.errors import ServiceError
from engine.core import RulesError

__all__ = ["HeraldTree", "tell"]
log = logging.getLogger(__name__)


class HeraldTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """A replayed interaction, or a retry of a change already saved, is answered without running again."""
        if interaction.type is not discord.InteractionType.application_command:
            return True
        from bot.discord.replies import earlier_answer

        try:
            return not await earlier_answer(interaction)
        except Exception:
            log.exception("checking receipts for interaction %s failed; running the command", interaction.id)
            return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, ServiceError | RulesError):
            await tell_quietly(interaction, str(cause))
            return
        if isinstance(cause, app_commands.TransformerError):
            await tell_quietly(interaction, f"`{quote(cause.value)}` is not a valid {cause.type.name.lower()} here.")
            return
        if isinstance(cause, app_commands.CheckFailure):
            await tell_quietly(interaction, str(cause) or "you cannot use this command here")
            return
        error_id = secrets.token_hex(4)
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("error %s in /%s", error_id, command, exc_info=cause)
        await tell_quietly(interaction, f"Something went wrong on Herald's side (error `{error_id}`); "
                                        f"quote that id to whoever runs Herald.")
