"""/undo: a player takes back their own last action while no new information has appeared."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.campaign import CAMPAIGN
from bot.discord.common import Text, campaign_names, herald, who
from bot.discord.replies import defer, send
from bot.service import undo


class Undo(commands.Cog):
    @app_commands.command(name="undo")
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def undo_(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Take back your last action (before a roll, a reveal or another seat) or your last orders."""
        await defer(interaction)
        await send(interaction, await undo.undo(herald(interaction).services, who(interaction), campaign))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Undo())
