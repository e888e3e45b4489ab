"""/odds: exact odds of an order or action before you commit it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.campaign import CAMPAIGN
from bot.discord.common import Text, campaign_names, herald, who
from bot.discord.replies import defer, send
from bot.service import odds


class Odds(commands.Cog):
    @app_commands.command(name="odds")
    @app_commands.describe(order="the order or action to count (separate lines with ` | `), e.g. settle Cuba",
                           campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def odds_(self, interaction: discord.Interaction, order: Text, campaign: Text | None = None) -> None:
        """What may happen if you gave this order: exact odds, from what your seat may know. Only you see it."""
        await defer(interaction)
        text = order.replace("\\n", "\n").replace(" | ", "\n")
        await send(interaction, await odds.odds(herald(interaction).services, who(interaction), text, campaign))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Odds())
