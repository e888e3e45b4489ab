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


class CleanText(app_commands.Transformer):
    """A text option with NUL characters dropped: PostgreSQL text cannot hold them, Discord shows none."""

    def __init__(self, min_length: int | None = None, max_length: int | None = None) -> None:
        self._min, self._max = min_length, max_length

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int | None:
        return self._min

    @property
    def max_value(self) -> int | None:
        return self._max

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        return str(value).replace("\x00", "")


Text = app_commands.Transform[str, CleanText]


async def campaign_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Campaign names for the `campaign:` option; no suggestions rather than an error."""
    prefix = current.replace("\x00", "")[:60]
    try:
        names = await campaigns.for_autocomplete(herald(interaction).services, who(interaction), prefix)
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
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ServiceError(f"`{quote(attachment.filename)}` is not UTF-8 text") from None
    if "\x00" in text:  # a binary file; PostgreSQL text could not hold it either
        raise ServiceError(f"`{quote(attachment.filename)}` holds NUL bytes: it is not a text file")
    return text
