"""Sending a service Reply through an interaction, within Discord's limits."""

from __future__ import annotations

import io

import discord

from bot.discord.views import action_view
from bot.service.replies import Reply
from bot.service.text import split_message

MAX_FOLLOWUPS = 4  # past this, the whole text goes as a file


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """Answer within Discord's 3 seconds; the real reply follows."""
    if not interaction.response.is_done():
        interaction.extras["herald_ephemeral"] = ephemeral
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def send(interaction: discord.Interaction, reply: Reply) -> None:
    chunks = split_message(reply.text) or ["Done."]
    files: list[discord.File] = []
    if len(chunks) > MAX_FOLLOWUPS:
        files.append(discord.File(io.BytesIO(reply.text.encode()), "herald.md"))
        chunks = [chunks[0] + f"\n… the whole text ({len(reply.text)} characters) is attached."]
    if reply.file:
        limit = interaction.filesize_limit
        name, data = reply.file
        if len(data) > limit:
            chunks[-1] += f"\n(`{name}` is {len(data) // 1024} KiB, over this server's {limit // 1024} KiB limit.)"
        else:
            files.append(discord.File(io.BytesIO(data), name))
    view: discord.ui.View | None = None
    if reply.actions and reply.campaign_id is not None:
        view, hidden = action_view(reply.campaign_id, reply.phase_key or "", reply.actions)
        if hidden:
            chunks[-1] += f"\n{hidden} more action(s) than fit in menus: type them with `/act`."
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        kwargs: dict[str, object] = {"ephemeral": reply.ephemeral}
        if last and files:
            kwargs["files"] = files
        if last and view is not None:
            kwargs["view"] = view
        if not interaction.response.is_done():
            await interaction.response.send_message(chunk, **kwargs)  # type: ignore[arg-type]
        else:
            await interaction.followup.send(chunk, **kwargs)  # type: ignore[arg-type]
