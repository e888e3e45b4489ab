"""/catchup: "since you last looked", privately; and the same digest shown once by itself after a command."""

from __future__ import annotations

import logging
from typing import Literal

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.answers import post
from bot.discord.cogs.campaign import CAMPAIGN
from bot.discord.common import Text, campaign_names, herald, who
from bot.discord.replies import defer, messages_for, send
from bot.service import catchup, news

log = logging.getLogger(__name__)


class Catchup(commands.Cog):
    @app_commands.command(name="catchup")
    @app_commands.describe(campaign=CAMPAIGN,
                           auto="your seat: show this by itself after your next command when you come back to news")
    @app_commands.autocomplete(campaign=campaign_names)
    async def catchup_(self, interaction: discord.Interaction, campaign: Text | None = None,
                       auto: Literal["on", "off"] | None = None) -> None:
        """What happened since you last looked, as you may see it, and what waits on you now. Only you see it."""
        await defer(interaction)
        await send(interaction, await catchup.catchup(herald(interaction).services, who(interaction), campaign,
                                                      None if auto is None else auto == "on"))


async def shown_once(interaction: discord.Interaction) -> None:
    """After a slash command's answer: the digest it found owed (news since the caller's mark), as a private
    follow-up. Never on a form (a modal answer takes no follow-up: the next command shows it)."""
    dues = news.taken()
    if not dues or interaction.response.type is discord.InteractionResponseType.modal:
        return
    if interaction.extras.get("herald_deferred") and not (interaction.extras.get("herald_original_used")
                                                          or interaction.extras.get("herald_thinking_removed")):
        return  # a follow-up would replace a public "thinking…": never the place for a private digest
    caller = who(interaction)
    for due in dues:
        try:
            reply = await catchup.automatic(herald(interaction).services, caller, due)
            if reply is None:
                continue
            for message in messages_for(interaction, reply):
                await post(interaction, message, ephemeral=True)
        except (discord.HTTPException, OSError, TimeoutError, aiohttp.ClientError) as exc:
            log.warning("the catch-up digest for interaction %s was not delivered: %s", interaction.id, exc)
        except Exception:
            log.exception("the catch-up digest for interaction %s failed", interaction.id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Catchup())
