"""What every cog shares: the caller, the campaign option's autocomplete, reading attached text."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord.caller import caller_of
from bot.discord.outgoing import quote
from bot.service import campaigns
from bot.service.context import Caller
from bot.service.errors import ServiceError

if TYPE_CHECKING:
    from bot.discord.client import HeraldBot

MAX_TEXT_FILE = 256 * 1024


def herald(interaction: discord.Interaction) -> HeraldBot:
    return interaction.client  # type: ignore[return-value]


def who(interaction: discord.Interaction) -> Caller:
    return caller_of(interaction, herald(interaction).gm_role)


async def campaign_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Campaign names for the `campaign:` option; no suggestions rather than an error."""
    try:
        names = await campaigns.for_autocomplete(herald(interaction).services, who(interaction), current[:100])
    except ServiceError:
        return []
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names][:25]


async def read_text(attachment: discord.Attachment) -> str:
    """An attached text file's content, or a clear reason it cannot be read."""
    if attachment.size > MAX_TEXT_FILE:
        raise ServiceError(f"`{quote(attachment.filename)}` is {attachment.size // 1024} KiB; text files up to "
                           f"{MAX_TEXT_FILE // 1024} KiB are read")
    data = await attachment.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ServiceError(f"`{quote(attachment.filename)}` is not UTF-8 text") from None
