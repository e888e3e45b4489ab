"""Answering an interaction: once, through the right endpoint, retried through passing network trouble."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord

from bot.discord import outgoing
from bot.discord.outgoing import Outgoing

log = logging.getLogger(__name__)
T = TypeVar("T")

ALREADY_ACKNOWLEDGED = 40060
BACKOFF = (0.25, 1.0, 2.5)  # seconds before each retry; then give up


def transient(exc: BaseException) -> bool:
    """Worth another try: a reset or dropped connection, a timeout, Discord's 5xx, a 429 discord.py passed on."""
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, OSError | TimeoutError | aiohttp.ClientError)


async def retrying(call: Callable[[], Awaitable[T]]) -> T:
    """`call()`, again after a short pause while it fails transiently."""
    for pause in (*BACKOFF, None):
        try:
            return await call()
        except Exception as exc:
            if pause is None or not transient(exc):
                raise
            log.info("transient failure answering an interaction (%s); retrying", exc)
            await asyncio.sleep(pause)
    raise AssertionError("unreachable")


def acknowledged(interaction: discord.Interaction) -> bool:
    """Whether Discord already holds a first response (ours, even if its answer to us was lost)."""
    return interaction.response.is_done() or bool(interaction.extras.get("herald_acked"))


def _already_acknowledged(exc: Exception) -> bool:
    return isinstance(exc, discord.HTTPException) and exc.code == ALREADY_ACKNOWLEDGED


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """Answer within Discord's 3 seconds; the real reply follows."""
    if acknowledged(interaction):
        return
    interaction.extras["herald_ephemeral"] = ephemeral
    interaction.extras["herald_deferred"] = True
    try:
        await retrying(lambda: interaction.response.defer(ephemeral=ephemeral, thinking=True))
    except discord.HTTPException as exc:
        if not _already_acknowledged(exc):
            raise
    interaction.extras["herald_acked"] = True


async def post(interaction: discord.Interaction, message: Outgoing, *, ephemeral: bool) -> None:
    """One message as the interaction's first response or a followup; a lost response is not sent twice."""
    kwargs = {"ephemeral": ephemeral}
    if message.content is not None:
        kwargs["content"] = message.content  # type: ignore[assignment]

    if not acknowledged(interaction):
        failed_once = False

        async def first() -> None:
            nonlocal failed_once
            try:
                await interaction.response.send_message(**kwargs, **message.kwargs())  # type: ignore[arg-type]
            except Exception:
                failed_once = True
                raise

        try:
            await retrying(first)
            interaction.extras["herald_acked"] = True
            return
        except discord.HTTPException as exc:
            if not _already_acknowledged(exc):
                raise
            interaction.extras["herald_acked"] = True
            if failed_once:
                return  # our own earlier try reached Discord; only its answer to us was lost
    await retrying(lambda: interaction.followup.send(**kwargs, **message.kwargs()))  # type: ignore[arg-type]


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A private answer that always fits, whether or not the interaction was already answered or deferred."""
    if acknowledged(interaction) and interaction.extras.get("herald_deferred") \
            and not interaction.extras.get("herald_ephemeral", True):
        # a public "thinking…" would turn this note public: remove it and answer privately
        with contextlib.suppress(discord.HTTPException, OSError):
            await interaction.delete_original_response()
    elif interaction.response.is_done() and not interaction.extras.get("herald_deferred") and \
            interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        with contextlib.suppress(discord.HTTPException, OSError):
            await interaction.delete_original_response()
    await post(interaction, outgoing.note(text), ephemeral=True)


async def tell_quietly(interaction: discord.Interaction, text: str) -> bool:
    """`tell`, reporting instead of raising when nothing can reach the person."""
    try:
        await tell(interaction, text)
        return True
    except (TimeoutError, discord.HTTPException, OSError, aiohttp.ClientError) as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
        return False

