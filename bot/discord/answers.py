"""Answering an interaction: once, through the right endpoint, retried through passing network trouble."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from bot.discord import outgoing
from bot.discord.outgoing import Outgoing

log = logging.getLogger(__name__)
T = TypeVar("T")

ALREADY_ACKNOWLEDGED = 40060
BACKOFF = (0.25, 1.0, 2.5)  # seconds before each retry; then give up
QUICK_WITHIN = 1.5  # seconds a quick command may take before it defers after all (Discord waits 3 s for one)


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


def fresh_files(message: Outgoing) -> dict[str, Any]:
    """The files again for each try: discord.py closes a File once it has sent it."""
    return {"files": message.kwargs()["files"]} if message.files else {}


def acknowledged(interaction: discord.Interaction) -> bool:
    """Whether Discord already holds a first response (ours, even if its answer to us was lost)."""
    return interaction.response.is_done() or bool(interaction.extras.get("herald_acked"))


def _already_acknowledged(exc: Exception) -> bool:
    return isinstance(exc, discord.HTTPException) and exc.code == ALREADY_ACKNOWLEDGED


def answer_soon(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """For a command that usually has its answer at once: no deferral now, so the answer is the interaction's
    first response (one request to Discord instead of a "thinking…" and an edit). Private as a deferral here
    would have made it; if the answer is not ready within QUICK_WITHIN seconds, it defers after all."""
    if acknowledged(interaction) or "herald_quick" in interaction.extras:
        return
    interaction.extras["herald_ephemeral"] = ephemeral

    def late() -> None:
        interaction.extras["herald_late_defer"] = asyncio.ensure_future(_defer(interaction, ephemeral=ephemeral))

    interaction.extras["herald_quick"] = asyncio.get_running_loop().call_later(QUICK_WITHIN, late)


async def _quick_settled(interaction: discord.Interaction) -> bool:
    """Before answering: stop a quick command's late deferral, or wait for it if it is under way. Whether the
    first response is still a quick command's (to be sent private if its deferral would have been)."""
    timer: asyncio.TimerHandle | None = interaction.extras.get("herald_quick")
    if timer is None:
        return False
    timer.cancel()
    late: asyncio.Future[None] | None = interaction.extras.pop("herald_late_defer", None)
    if late is not None:
        with contextlib.suppress(Exception):  # it failed: the answer tries the first response itself
            await late
    return not acknowledged(interaction)


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """Answer within Discord's 3 seconds; the real reply follows."""
    await _quick_settled(interaction)
    await _defer(interaction, ephemeral=ephemeral)


async def _defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
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
    if await _quick_settled(interaction):  # the quick answer is private where its deferral would have been
        ephemeral = ephemeral or bool(interaction.extras.get("herald_ephemeral", True))
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, **message.kwargs()}
    kwargs.pop("files", None)  # made again for each try, below
    if message.content is not None:
        kwargs["content"] = message.content

    if not acknowledged(interaction):
        failed_once = False

        async def first() -> None:
            nonlocal failed_once
            try:
                await interaction.response.send_message(**kwargs, **fresh_files(message))
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
    if interaction.extras.get("herald_deferred") and not interaction.extras.get("herald_thinking_removed") \
            and not interaction.extras.get("herald_original_used"):
        # the first answer after a deferral replaces its "thinking…" (as Discord does with a first followup),
        # and an edit is safe to retry when Discord's answer to it is lost: it cannot post twice
        edit: dict[str, Any] = {"content": message.content, "allowed_mentions": kwargs["allowed_mentions"]}
        if "view" in kwargs:
            edit["view"] = kwargs["view"]
        if message.embeds:
            edit["embeds"] = message.embeds
        try:
            await retrying(lambda: interaction.edit_original_response(**edit, **_attachments(message)))
            return
        except discord.NotFound:
            pass  # the "thinking…" message is gone: answer with a followup instead
        finally:
            interaction.extras["herald_original_used"] = True
    await retrying(lambda: interaction.followup.send(**kwargs, **fresh_files(message)))


def _attachments(message: Outgoing) -> dict[str, Any]:
    return {"attachments": message.kwargs()["files"]} if message.files else {}


async def make_private(interaction: discord.Interaction) -> None:
    """Before a private answer: remove a public "thinking…", which would otherwise carry the answer publicly."""
    await _quick_settled(interaction)
    deferred_publicly = interaction.extras.get("herald_deferred") and not interaction.extras.get(
        "herald_ephemeral", True)
    if not deferred_publicly and interaction.response.is_done() and not interaction.extras.get("herald_deferred"):
        deferred_publicly = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
    if deferred_publicly and acknowledged(interaction) and not interaction.extras.get("herald_thinking_removed"):
        with contextlib.suppress(discord.HTTPException, OSError, aiohttp.ClientError):
            await interaction.delete_original_response()
        interaction.extras["herald_thinking_removed"] = True


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A private answer that always fits, whether or not the interaction was already answered or deferred."""
    await make_private(interaction)
    await post(interaction, outgoing.note(text), ephemeral=True)


async def tell_quietly(interaction: discord.Interaction, text: str) -> bool:
    """`tell`, reporting instead of raising when nothing can reach the person."""
    try:
        await tell(interaction, text)
        return True
    except (TimeoutError, discord.HTTPException, OSError, aiohttp.ClientError) as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
        return False

