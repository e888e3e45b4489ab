"""One CommandTree owns how errors look: domain errors as short private notes, the rest with an id."""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.discord.answers import tell, tell_quietly
from bot.discord.outgoing import quote
from bot.ops.commands import finished, started
from bot.service import news
from bot.service.errors import ServiceError
from engine.core import RulesError

__all__ = ["HeraldTree", "tell"]
log = logging.getLogger(__name__)


MAX_CHOICES = 25


def safe_autocomplete(callback: Any) -> Any:
    """An autocomplete that never fails: on an error, no suggestions (Discord would show "loading failed"),
    and never more or longer choices than Discord takes."""
    if getattr(callback, "herald_safe", False):
        return callback

    async def wrapped(*args: Any) -> list[app_commands.Choice[Any]]:
        try:
            choices = list(await callback(*args))
        except Exception as exc:
            level = logging.INFO if isinstance(exc, ServiceError | RulesError) else logging.WARNING
            log.log(level, "autocomplete %s found nothing: %s", getattr(callback, "__name__", "?"), exc)
            return []
        return [c for c in choices if 0 < len(c.name) <= 100 and len(str(c.value)) <= 100][:MAX_CHOICES]

    wrapped.pass_command_binding = getattr(callback, "pass_command_binding", False)  # type: ignore[attr-defined]
    checks = getattr(callback, "__discord_app_commands_checks__", None)
    if checks is not None:
        wrapped.__discord_app_commands_checks__ = checks  # type: ignore[attr-defined]
    wrapped.herald_safe = True  # type: ignore[attr-defined]
    wrapped.__name__ = getattr(callback, "__name__", "autocomplete")
    return wrapped


def _guard_autocompletes(command: Any) -> None:
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            _guard_autocompletes(child)
    elif isinstance(command, app_commands.Command):
        for param in command._params.values():
            if param.autocomplete is not None:
                param.autocomplete = safe_autocomplete(param.autocomplete)


class HeraldTree(app_commands.CommandTree):
    def add_command(self, command: Any, /, **kwargs: Any) -> None:
        """Every command's autocompletes are guarded as it is added."""
        _guard_autocompletes(command)
        super().add_command(command, **kwargs)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """A replayed interaction, or a retry of a change already saved, is answered without running again."""
        if interaction.type is not discord.InteractionType.application_command:
            return True
        started(interaction)
        news.begin()  # the campaigns this command finds news in, for "since you last looked" after its answer
        from bot.discord.replies import earlier_answer

        try:
            repeat = await earlier_answer(interaction)
        except Exception:
            log.exception("checking receipts for interaction %s failed; running the command", interaction.id)
            return True
        if repeat:
            finished(interaction, "repeat")
        return not repeat

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        refused = isinstance(cause, ServiceError | RulesError | app_commands.TransformerError |
                             app_commands.CheckFailure)
        finished(interaction, "refused" if refused else "error")
        if isinstance(cause, ServiceError | RulesError):
            await tell_quietly(interaction, str(cause))
            return
        if isinstance(cause, app_commands.TransformerError):
            await tell_quietly(interaction, f"`{quote(cause.value)}` is not a valid {cause.type.name.lower()} here.")
            return
        if isinstance(cause, app_commands.CheckFailure):
            await tell_quietly(interaction, str(cause) or "you cannot use this command here")
            return
        error_id = secrets.token_hex(4)
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("error %s in /%s", error_id, command, exc_info=cause)
        await tell_quietly(interaction, f"Something went wrong on Herald's side (error `{error_id}`); "
                                        f"quote that id to whoever runs Herald.")
