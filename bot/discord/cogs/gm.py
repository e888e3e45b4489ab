"""/gm: the GM's commands. Gated by the campaign's GM, the GM role, or Manage Server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.campaign import CAMPAIGN
from bot.discord.common import CleanText, Text, campaign_names, herald, read_text, who
from bot.discord.replies import defer, send
from bot.service import gm, schedule
from bot.service.errors import ServiceError
from bot.service.gm import MAX_MODIFIER
from bot.service.lookup import MAX_ID
from engine.core import RulesError


async def snapshot_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    try:
        rows = await gm.snapshot_choices(herald(interaction).services, who(interaction),
                                         interaction.namespace.campaign)
    except (ServiceError, RulesError):
        return []  # no campaign here (yet): nothing to offer, and an autocomplete must not fail
    return [app_commands.Choice(name=label[:100], value=sid) for sid, label in rows
            if current.lower() in label.lower()][:25]


async def table_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        names = await gm.table_names(herald(interaction).services, who(interaction), interaction.namespace.campaign)
    except (ServiceError, RulesError):
        return []
    return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]


async def gm_action_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        actions = await gm.gm_action_choices(herald(interaction).services, who(interaction),
                                             interaction.namespace.campaign)
    except (ServiceError, RulesError):
        return []
    needle = current.lower()
    return [app_commands.Choice(name=a.label[:100], value=a.text) for a in actions
            if len(a.text) <= 100 and (needle in a.text.lower() or needle in a.label.lower())][:25]


class GM(commands.GroupCog, group_name="gm"):
    """Run a campaign: advance, roll back, deadlines, seats, notes, tables, rulings."""

    deadline = app_commands.Group(name="deadline", description="The current phase's deadline")
    seat = app_commands.Group(name="seat", description="Who sits where")
    table = app_commands.Group(name="table", description="Dice tables: the ruleset's and the campaign's own")

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def advance(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Close the current window: resolve the orders and post the summary."""
        await defer(interaction)
        await send(interaction, await gm.advance(herald(interaction).services, who(interaction), campaign))

    @app_commands.command()
    @app_commands.describe(to="the phase to go back to (default: the previous one)", reason="said in the thread",
                           campaign=CAMPAIGN)
    @app_commands.autocomplete(to=snapshot_choices, campaign=campaign_names)  # type: ignore[misc]  # int and str
    async def rollback(self, interaction: discord.Interaction, to: app_commands.Range[int, 1, MAX_ID] | None = None,
                       reason: Text | None = None,
                       campaign: Text | None = None) -> None:
        """Go back to the start of an earlier phase (announced in the thread)."""
        await defer(interaction)
        await send(interaction, await gm.rollback(herald(interaction).services, who(interaction), to, reason,
                                                  campaign))

    @deadline.command(name="set")
    @app_commands.describe(when="2d, in 36 hours, tomorrow, friday 18:00, 2026-12-01 18:00 (the campaign's time "
                                "zone: /gm settings time_zone)", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def deadline_set(self, interaction: discord.Interaction, when: Text, campaign: Text | None = None) -> None:
        """Set the deadline; reminders go to seats that have not sent orders."""
        await defer(interaction)
        await send(interaction, await gm.deadline(herald(interaction).services, who(interaction), when, campaign))

    @deadline.command(name="clear")
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def deadline_clear(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Remove the deadline."""
        await defer(interaction)
        await send(interaction, await gm.deadline(herald(interaction).services, who(interaction), None, campaign))

    @deadline.command(name="extend")
    @app_commands.describe(by="how much later: 1d, 12h, 2 days", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def deadline_extend(self, interaction: discord.Interaction, by: Text, campaign: Text | None = None) -> None:
        """Push the deadline back (reminders move with it)."""
        await defer(interaction)
        await send(interaction, await schedule.extend(herald(interaction).services, who(interaction), by, campaign))

    @app_commands.command()
    @app_commands.describe(reason="said in the thread (a vacation, a holiday…)", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def pause(self, interaction: discord.Interaction, reason: Text | None = None,
                    campaign: Text | None = None) -> None:
        """Stop the clock: deadlines, reminders and turn timers keep their time left until you resume."""
        await defer(interaction)
        await send(interaction, await schedule.pause(herald(interaction).services, who(interaction), reason, campaign))

    @app_commands.command()
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def resume(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """Start the clock again after /gm pause."""
        await defer(interaction)
        await send(interaction, await schedule.resume(herald(interaction).services, who(interaction), campaign))

    async def _seat(self, interaction: discord.Interaction, op: str, seat: str, user: discord.User | None,
                    campaign: str | None) -> None:
        await defer(interaction)
        await send(interaction, await gm.seat_change(herald(interaction).services, who(interaction), op, seat,
                                                     user.id if user else None, campaign))

    @seat.command(name="assign")
    @app_commands.describe(seat="the seat", user="who takes it", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def seat_assign(self, interaction: discord.Interaction, seat: Text, user: discord.User,
                          campaign: Text | None = None) -> None:
        """Give a vacant (or, before the start, a new) seat to someone."""
        await self._seat(interaction, "assign", seat, user, campaign)

    @seat.command(name="replace")
    @app_commands.describe(seat="the seat", user="who takes it over", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def seat_replace(self, interaction: discord.Interaction, seat: Text, user: discord.User,
                           campaign: Text | None = None) -> None:
        """Hand a seat, with its secrets and orders, to someone else."""
        await self._seat(interaction, "replace", seat, user, campaign)

    @seat.command(name="kick")
    @app_commands.describe(seat="the seat", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def seat_kick(self, interaction: discord.Interaction, seat: Text, campaign: Text | None = None) -> None:
        """Vacate a seat (before the start: remove it)."""
        await self._seat(interaction, "kick", seat, None, campaign)

    @seat.command(name="auto")
    @app_commands.describe(seat="the seat", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def seat_auto(self, interaction: discord.Interaction, seat: Text, campaign: Text | None = None) -> None:
        """Let Herald's automatic player take a seat (rulesets that have one)."""
        await self._seat(interaction, "auto", seat, None, campaign)

    @app_commands.command()
    @app_commands.describe(text="the narrative", seat="send it privately to this seat instead", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def note(self, interaction: discord.Interaction, text: app_commands.Transform[str, CleanText(1, 4000)],
                   seat: Text | None = None, campaign: Text | None = None) -> None:
        """Post narrative to the campaign thread, or privately to one seat."""
        await defer(interaction)
        await send(interaction, await gm.note(herald(interaction).services, who(interaction), text, seat, campaign))

    @table.command(name="roll")
    @app_commands.describe(name="the table", modifier="added to the roll", private="only you see it",
                           campaign=CAMPAIGN)
    @app_commands.autocomplete(name=table_choices, campaign=campaign_names)
    async def table_roll(self, interaction: discord.Interaction, name: Text,
                         modifier: app_commands.Range[int, -MAX_MODIFIER, MAX_MODIFIER] = 0, private: bool = False,
                         campaign: Text | None = None) -> None:
        """Roll on one of the ruleset's or the campaign's tables."""
        await defer(interaction)
        await send(interaction, await gm.table_roll(herald(interaction).services, who(interaction), name, private,
                                                    modifier, campaign))

    @table.command(name="upload")
    @app_commands.describe(file="a TOML file of tables (see /help tables)", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def table_upload(self, interaction: discord.Interaction, file: discord.Attachment,
                           campaign: Text | None = None) -> None:
        """Add or replace the campaign's own dice tables."""
        await defer(interaction)
        text = await read_text(file)
        await send(interaction, await gm.table_upload(herald(interaction).services, who(interaction), text, campaign))

    @table.command(name="list")
    @app_commands.describe(campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def table_list(self, interaction: discord.Interaction, campaign: Text | None = None) -> None:
        """The tables you can roll on."""
        from bot.service.replies import Reply

        await defer(interaction)
        names = await gm.table_names(herald(interaction).services, who(interaction), campaign)
        await send(interaction, Reply("Tables: " + (", ".join(f"`{n}`" for n in names) or "none yet")))

    @app_commands.command()
    @app_commands.describe(kind="what the file is (the ruleset lists the kinds it takes)", file="the file",
                           campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def upload(self, interaction: discord.Interaction, kind: Text, file: discord.Attachment,
                     campaign: Text | None = None) -> None:
        """Give the ruleset a file: regions, sheets, map data…"""
        await defer(interaction)
        text = await read_text(file)
        await send(interaction, await gm.upload(herald(interaction).services, who(interaction), kind.strip(), text,
                                                campaign))

    @app_commands.command()
    @app_commands.describe(action="a GM action in the ruleset's words (results, rulings, edits)", campaign=CAMPAIGN)
    @app_commands.autocomplete(action=gm_action_choices, campaign=campaign_names)
    async def act(self, interaction: discord.Interaction, action: Text, campaign: Text | None = None) -> None:
        """Take a GM action: write a result, record a ruling, edit a sheet."""
        await defer(interaction)
        await send(interaction, await gm.act(herald(interaction).services, who(interaction), action, campaign))

    @app_commands.command()
    @app_commands.describe(key="reminders, auto_advance, deadline_every, ping, turn_timer, digest or time_zone",
                           value="the new value",
                           campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def settings(self, interaction: discord.Interaction, key: Text | None = None, value: Text | None = None,
                       campaign: Text | None = None) -> None:
        """Show or change the campaign's settings."""
        await defer(interaction)
        await send(interaction, await gm.settings(herald(interaction).services, who(interaction), key, value,
                                                  campaign))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GM())
