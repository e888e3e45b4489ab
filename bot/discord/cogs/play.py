"""/roll, /act, /map, /history, /sheet and /help."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.campaign import CAMPAIGN
from bot.discord.common import CleanText, Text, campaign_names, herald, who
from bot.discord.replies import answer_soon, defer, send
from bot.service import charts, guide, play
from bot.service.errors import ServiceError
from bot.service.play import MAX_TURN
from bot.service.replies import Reply
from engine.core import RulesError
from engine.rulesets import available

HELP = {
    "start": (
        "**Herald** runs long campaigns here.\n"
        "• `/campaign create name ruleset [options]` — you become the GM; a thread opens for spectators.\n"
        "• `/campaign join [seat]`, `/campaign leave`, `/campaign start` (GM), `/campaign status`, "
        "`/campaign list`, `/campaign follow`/`unfollow`, `/campaign end` (GM), `/campaign export`.\n"
        "• `/orders submit|check|list|withdraw` — private orders for the current window; "
        "`/odds order` — the exact odds of an order before you give it.\n"
        "• `/act` — your move on your turn (menus, or type it); `/sheet` — your private view; "
        "`/map [turn]`; `/chart`; `/history [turn]`; `/roll 2d6+1 [private]`; `/odds order`.\n"
        "• `/catchup` — since you last looked: what happened that you may see, what waits on you, the map "
        "(shown once by itself when you come back after a while; `/catchup auto:off` stops that).\n"
        "• GM: `/gm advance|rollback|deadline|seat|note|table|upload|act|settings`.\n"
        "More: `/help orders`, `/help gm`, `/help tables`, `/help dice`, `/help rulesets`, `/help terra-nova`."),
    "orders": (
        "**Orders** are private to your seat and the GM until the phase resolves, and you can change them "
        "until then. `/orders submit` with `text:` (separate lines with ` | `), an attached text file, or "
        "nothing to open a form. Every line is answered: ✅ accepted (as understood), ⚠️ warning, "
        "🚩 flagged for the GM, ❌ rejected (why). `/orders check` does the same without saving, "
        "with 🎲 the exact odds of each risky line; "
        "`/odds order` gives them for one order or action before you commit it (only you see it)."),
    "gm": (
        "**GM commands**: `/gm advance` resolves the window and posts the summary; `/gm rollback [to]` returns "
        "to the start of an earlier phase (announced); `/gm deadline set 2d` (reminders go to seats that have "
        "not sent orders); `/gm settings auto_advance both` advances at the deadline or when all are in; "
        "`/gm settings catchup off` keeps \"since you last looked\" from showing itself; "
        "`/gm seat assign|replace|kick|auto`; `/gm note text [seat]`; `/gm table roll name`; "
        "`/gm upload kind file`; `/gm act` for the ruleset's GM actions (results, rulings, edits)."),
    "tables": (
        "**Campaign tables** are a TOML file given to `/gm table upload`:\n```toml\n[weather]\n"
        "dice = \"2d6\"\ntitle = \"Weather at sea\"\n\"2-4\" = \"Storm\"\n\"5-9\" = \"Clear\"\n\"10+\" = \"Fog\"\n"
        "```\nEvery total the dice can make needs a row; `N`, `N-M`, `N+` and `N-` are ranges."),
    "dice": (
        "**Dice** in a campaign come from its secret seed, whose SHA-256 was posted at the start. Each roll "
        "draws from its own stream (HMAC of the seed and the roll's purpose), and every roll is logged. When "
        "the campaign ends the seed is revealed: `/campaign export`, then `herald verify export.json` "
        "re-derives every roll. `/roll` takes common notation: `2d6+1`, `4d6kh3` / `4d6kl1` (keep the highest or "
        "lowest), `4d6dl1` / `2d20dh1` (drop them), `1d20+5 adv` / `dis`, `3d6x6` (exploding), `d%`, `4dF`; "
        "words after the dice label the roll: `1d20+5 to hit`. Dropped dice are shown ~~struck through~~."),
}


async def action_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        reply = await play.legal_actions(herald(interaction).services, who(interaction), interaction.namespace.campaign)
    except (ServiceError, RulesError):
        return []
    needle = current.lower()
    return [app_commands.Choice(name=a.label[:100], value=a.text) for a in reply.actions
            if len(a.text) <= 100 and (needle in a.text.lower() or needle in a.label.lower())][:25]


async def help_topics(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    needle = current.lower()
    topics = [*guide.GENERAL_TOPICS, *available()]
    return [app_commands.Choice(name=t, value=t) for t in topics if needle in t][:25]


class Play(commands.Cog):
    @app_commands.command()
    @app_commands.describe(notation="dice like 2d6+1, 4d6kh3, 1d20+5 adv to hit, 3d6x6, d%",
                           private="only you (and the GM) see it",
                           campaign="roll in this campaign's logged stream (default: the one here)")
    @app_commands.autocomplete(campaign=campaign_names)
    async def roll(self, interaction: discord.Interaction, notation: app_commands.Transform[str, CleanText(1, 100)],
                   private: bool = False, campaign: Text | None = None) -> None:
        """Roll dice; inside a campaign they come from its seeded, logged stream."""
        answer_soon(interaction, ephemeral=private)
        await send(interaction, await play.roll(herald(interaction).services, who(interaction), notation, private,
                                                campaign))

    @app_commands.command()
    @app_commands.describe(action="what to do (leave out for menus of your legal actions)", campaign=CAMPAIGN)
    @app_commands.autocomplete(action=action_choices, campaign=campaign_names)
    async def act(self, interaction: discord.Interaction, action: Text | None = None,
                  campaign: Text | None = None) -> None:
        """Take your turn: choose from menus, or type an action."""
        await defer(interaction)
        services, caller = herald(interaction).services, who(interaction)
        if action:
            reply = await play.act(services, caller, action, campaign)
        else:
            reply = await play.legal_actions(services, caller, campaign)
        await send(interaction, reply)

    @app_commands.command(name="map")
    @app_commands.describe(turn="an earlier turn (default: now)", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def map_(self, interaction: discord.Interaction, turn: app_commands.Range[int, 0, MAX_TURN] | None = None,
                   campaign: Text | None = None) -> None:
        """The map as you may see it."""
        answer_soon(interaction)  # a map drawn before comes from the cache
        await send(interaction, await play.map_image(herald(interaction).services, who(interaction), turn, campaign))

    @app_commands.command()
    @app_commands.describe(what="which numbers (default: the campaign's score)", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def chart(self, interaction: discord.Interaction,
                    what: Literal["score", "treasury", "income"] | None = None,
                    campaign: Text | None = None) -> None:
        """Scores (or your treasury and income) turn by turn, as a line chart you may see."""
        await defer(interaction)
        await send(interaction, await charts.chart_image(herald(interaction).services, who(interaction), what,
                                                         campaign))

    @app_commands.command()
    @app_commands.describe(turn="which turn (default: the last resolved one)", campaign=CAMPAIGN,
                           everything="also the bookkeeping: settings, deadlines, seats, uploads")
    @app_commands.rename(everything="all")
    @app_commands.autocomplete(campaign=campaign_names)
    async def history(self, interaction: discord.Interaction, turn: app_commands.Range[int, 0, MAX_TURN] | None = None,
                      campaign: Text | None = None, everything: bool = False) -> None:
        """What happened in a turn, as far as you may know."""
        answer_soon(interaction)
        await send(interaction, await play.history(herald(interaction).services, who(interaction), turn, campaign,
                                                   everything=everything))

    @app_commands.command()
    @app_commands.describe(seat="GM: any seat's sheet", campaign=CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_names)
    async def sheet(self, interaction: discord.Interaction, seat: Text | None = None,
                    campaign: Text | None = None) -> None:
        """Your seat's private sheet (the GM may see any seat's)."""
        answer_soon(interaction)
        await send(interaction, await play.sheet(herald(interaction).services, who(interaction), seat, campaign))

    @app_commands.command(name="help")
    @app_commands.describe(topic="start, orders, gm, tables, dice, rulesets, or a ruleset (terra-nova…)",
                           campaign="for orders: whose order form")
    @app_commands.autocomplete(topic=help_topics, campaign=campaign_names)
    async def help_(self, interaction: discord.Interaction, topic: Text = "start",
                    campaign: Text | None = None) -> None:
        """How to use Herald; `rulesets` and a ruleset's name tell its options and order grammar."""
        try:
            kind, name = guide.topic_of(topic)
        except RulesError as exc:
            raise ServiceError(str(exc)) from None
        if kind == "ruleset":
            await send(interaction, Reply(guide.ruleset_help(name), ephemeral=True))
        elif name == "rulesets":
            await send(interaction, Reply(guide.rulesets_help(), ephemeral=True))
        elif name != "orders":
            await send(interaction, Reply(HELP[name]))
        else:
            await defer(interaction)
            extra = await play.orders_help(herald(interaction).services, who(interaction), campaign)
            await send(interaction, Reply(HELP[name] + extra))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play())
