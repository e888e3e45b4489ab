"""One CommandTree owns how errors look: domain errors as short private notes, the rest with an id."""

from __future__ import annotations

import contextlib
import logging
import secrets

import discord
from discord import app_commands

from bot.service.errors import ServiceError
from engine.core import RulesError

log = logging.getLogger(__name__)


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A private answer, whether or not the interaction was already answered or deferred."""
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
        return
    original = interaction.response.type
    if original is discord.InteractionResponseType.deferred_channel_message and not _deferred_ephemeral(interaction):
        # a public "thinking…" would turn this note public: remove it and answer privately
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(text, ephemeral=True)


def _deferred_ephemeral(interaction: discord.Interaction) -> bool:
    return bool(interaction.extras.get("herald_ephemeral", False))


class HeraldTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, ServiceError | RulesError):
            await tell(interaction, str(cause))
            return
        if isinstance(cause, app_commands.TransformerError):
            await tell(interaction, f"`{cause.value}` is not a valid {cause.type.name.lower()} here.")
            return
        if isinstance(cause, app_commands.CheckFailure):
            await tell(interaction, str(cause) or "you cannot use this command here")
            return
        error_id = secrets.token_hex(4)
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("error %s in /%s", error_id, command, exc_info=cause)
        await tell(interaction, f"Something went wrong on Herald's side (error `{error_id}`); "
                                f"quote that id to whoever runs Herald.")
