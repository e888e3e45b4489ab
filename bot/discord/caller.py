"""Who is asking, from a discord.py Interaction."""

from __future__ import annotations

import discord

from bot.service.context import Caller


def caller_of(interaction: discord.Interaction, gm_role: str) -> Caller:
    user = interaction.user
    # interaction.permissions are the caller's resolved permissions, as Discord sent them with the interaction
    is_gm = interaction.permissions.manage_guild
    if isinstance(user, discord.Member):
        is_gm = is_gm or any(r.name == gm_role for r in user.roles)
    return Caller(user_id=user.id, name=user.display_name, guild_id=interaction.guild_id or 0,
                  channel_id=interaction.channel_id or 0, is_gm_role=is_gm)
