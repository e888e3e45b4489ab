"""/campaign: create, join, leave, start, status, list, mine, notify, follow, unfollow, end, export."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.common import CleanText, Text, campaign_names, herald, who
from bot.discord.replies import answer_soon, defer, send
from bot.service import campaigns, export
from bot.service import mine as where_needed
from bot.service.errors import ServiceError
from engine.core import RulesError
from engine.rulesets import available


async def ruleset_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=r, value=r) for r in available() if r.startswith(current.lower())][:25]


async def seat_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        names = await campaigns.free_seats(herald(interaction).services, who(interaction),
                                           interaction.namespace.campaign)
    except (ServiceError, RulesError):
        return []  # e.g. a LotE campaign whose sheets (its seats) are not uploaded yet
    return [app_commands.Choice(name=n, value=n) for n in names if n.lower().startswith(current.lower())][:25]


CAMPAIGN = "the campaign (default: the one of this channel or thread)"


class Campaign(commands.GroupCog, group_name="campaign"):
    """Create, join and follow campaigns."""

    @app_commands.command()
    @app_commands.describe(name="the campaign's name", ruleset="which game",
                           options="ruleset options as name=value pairs")
    @app_commands.autocomplete(ruleset=ruleset_choices)
    async def create(self, interaction: discord.Interaction, name: app_commands.Transform[str, CleanText(1, 60)],
                     ruleset: Text, options: Text | None = None) -> None:
        """Create a campaign in this channel; you become its GM."""
        await defer(interaction, ephemeral=False)
        await send(interaction, await campaigns.create(herald(interaction).services, who(interaction), name, ruleset,
                                                       options))

    @app_commands.command()
    @app_commands.describe(seat="the seat to take (a faction, colour or name)", campaign=CAMPAIGN)
    @app_commands.autocomplete(seat=seat_choices, campaign=campaign_names)
    async def join(self, interaction: discord.Interaction, seat: Text | None = None,
                   campaign: Text | None = None) -> None:
        """Take a seat in a campaign that has not started."""
        await defer(interaction)
        await send(interaction, await campaigns.join(herald(interaction).services, who(interaction), seat, campaign))

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def leave(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Leave your seat (once started, it waits for the GM to fill it)."""
        await defer(interaction)
        await send(interaction, await campaigns.leave(herald(interaction).services, who(interaction), campaign))

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def start(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """GM: lock the seats, set up the game and post the dice commitment."""
        await defer(interaction)
        await send(interaction, await campaigns.start(herald(interaction).services, who(interaction), campaign))

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def status(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Phase, deadline, and who has and has not sent orders."""
        answer_soon(interaction)
        await send(interaction, await campaigns.status(herald(interaction).services, who(interaction), campaign))

    @app_commands.command(name="list")
    async def list_(self, interaction: discord.Interaction) -> None:
        """Every campaign in this server."""
        await defer(interaction)
        await send(interaction, await campaigns.list_campaigns(herald(interaction).services, who(interaction)))

    @app_commands.command()
    async def mine(self, interaction: discord.Interaction) -> None:
        """Every campaign of yours, in every server, and what each waits on from you."""
        await defer(interaction)
        await send(interaction, await where_needed.mine(herald(interaction).services, who(interaction)))

    @app_commands.command()
    @app_commands.describe(how="dm: a direct message; ping: a mention in the thread; off: neither",
                           campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def notify(self, interaction: discord.Interaction, how: Literal["dm", "ping", "off"],
                     campaign: Text | None = None) -> None:
        """How Herald tells you it is your turn in this campaign."""
        await defer(interaction)
        await send(interaction, await where_needed.notify(herald(interaction).services, who(interaction), how,
                                                          campaign))

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def follow(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Follow a campaign's thread as a spectator."""
        await defer(interaction)
        await send(interaction, await campaigns.follow(herald(interaction).services, who(interaction), campaign,
                                                       on=True))

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def unfollow(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Stop following a campaign's thread."""
        await defer(interaction)
        await send(interaction, await campaigns.follow(herald(interaction).services, who(interaction), campaign,
                                                       on=False))

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def end(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """GM: end the campaign and reveal its dice seed."""
        await defer(interaction)
        await send(interaction, await campaigns.end(herald(interaction).services, who(interaction), campaign))

    @app_commands.command(name="export")
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def export_(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """The campaign's record as JSON: everything for the GM; the public record once it has ended."""
        await defer(interaction)
        await send(interaction, await export.export(herald(interaction).services, who(interaction), campaign))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Campaign())
