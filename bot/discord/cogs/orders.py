"""/orders: submit (text, a form, or an attached file), check, list, withdraw."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.campaign import CAMPAIGN
from bot.discord.common import Text, campaign_names, herald, read_text, who
from bot.discord.replies import answer_soon, defer, send
from bot.discord.views import OrdersModal
from bot.service import orders


async def _text(interaction: discord.Interaction, text: str | None, file: discord.Attachment | None,
                campaign: str | None, *, dry_run: bool) -> str | None:
    """The orders from the text option or the file; with neither, open the form and return None."""
    if file is not None:
        return await read_text(file)
    if text:
        return text.replace("\\n", "\n").replace(" | ", "\n")
    campaign_id, current = await orders.current_text(herald(interaction).services, who(interaction), campaign)
    await interaction.response.send_modal(OrdersModal(campaign_id, current, dry_run=dry_run))
    return None


class Orders(commands.GroupCog, group_name="orders"):
    """Your orders for the current order window: private until it resolves."""

    @app_commands.command()
    @app_commands.describe(text="your orders (separate lines with ` | `); leave out to open a form",
                           file="a text file of orders, one per line", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def submit(self, interaction: discord.Interaction, text: Text | None = None,
                     file: discord.Attachment | None = None, campaign: Text | None = None) -> None:
        """Send your orders; each line is answered: accepted, rejected (why) or flagged."""
        body = await _text(interaction, text, file, campaign, dry_run=False)
        if body is None:
            return
        answer_soon(interaction)  # a deferral only if it takes long (a big campaign's orders)
        await send(interaction, await orders.submit(herald(interaction).services, who(interaction), body, campaign))

    @app_commands.command()
    @app_commands.describe(text="orders to check (separate lines with ` | `); leave out to open a form",
                           file="a text file of orders", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def check(self, interaction: discord.Interaction, text: Text | None = None,
                    file: discord.Attachment | None = None, campaign: Text | None = None) -> None:
        """Check orders without sending them."""
        body = await _text(interaction, text, file, campaign, dry_run=True)
        if body is None:
            return
        answer_soon(interaction)
        await send(interaction, await orders.check(herald(interaction).services, who(interaction), body, campaign))

    @app_commands.command(name="list")
    @app_commands.describe(seat="GM: whose orders (default: every seat's)", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def list_(self, interaction: discord.Interaction, seat: Text | None = None,
                    campaign: Text | None = None) -> None:
        """Your orders as Herald understood them (the GM sees every seat's)."""
        answer_soon(interaction)
        await send(interaction, await orders.show(herald(interaction).services, who(interaction), seat, campaign))

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def withdraw(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Take back your orders for the current window."""
        await defer(interaction)
        await send(interaction, await orders.withdraw(herald(interaction).services, who(interaction), campaign))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Orders())
