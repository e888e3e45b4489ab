"""Sending a service Reply through an interaction: within Discord's limits, once, and truthfully about what
was saved (a receipt remembers a change whose answer did not arrive)."""

from __future__ import annotations

import hashlib
import json
import logging
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.discord import outgoing
from bot.discord.answers import answer_soon, defer, make_private, post, tell, tell_quietly
from bot.discord.caller import caller_of
from bot.discord.outgoing import Outgoing
from bot.discord.views import action_view, confirm_view
from bot.logs import bind
from bot.service import cards, receipts
from bot.service.faults import crash_point
from bot.service.replies import Reply

if TYPE_CHECKING:
    from bot.discord.client import HeraldBot

__all__ = ["answer_soon", "defer", "earlier_answer", "send", "tell"]
log = logging.getLogger(__name__)
SEEN_KEPT = 2000  # interaction ids remembered per bot, to answer a gateway replay once
_seen: weakref.WeakKeyDictionary[discord.Client, OrderedDict[int, None]] = weakref.WeakKeyDictionary()


def command_of(interaction: discord.Interaction, given: str | None = None) -> str | None:
    """The receipt key of a state-changing command — its name and a digest of what was asked, so only the same
    command with the same options counts as a retry — or None for one that changes nothing."""
    name = given or (interaction.command.qualified_name if interaction.command else None)
    if name not in receipts.CHANGING:
        return None
    if name == "gm settings" and getattr(interaction.namespace, "value", None) is None:
        return None
    return f"{name}{receipts.ASKED}{_asked(interaction)}"


def _asked(interaction: discord.Interaction) -> str:
    """A short digest of what the person asked: the options (an attachment by its name and size, since a retry
    uploads it anew), the menu values or the form's text."""
    data: dict[str, Any] = dict(interaction.data or {})
    files = (data.get("resolved") or {}).get("attachments") or {}

    def leaves(options: list[dict[str, Any]]) -> list[Any]:
        out: list[Any] = []
        for option in options:
            if "options" in option:
                out.append([option.get("name"), leaves(option["options"])])
            elif option.get("type") == discord.AppCommandOptionType.attachment.value:
                found = files.get(str(option.get("value"))) or {}
                out.append([option.get("name"), found.get("filename"), found.get("size")])
            else:
                out.append([option.get("name"), option.get("value")])
        return out

    forms = [c.get("value") for row in data.get("components") or [] for c in row.get("components") or []]
    asked = [leaves(data.get("options") or []), data.get("values") or [], forms]
    return hashlib.sha256(json.dumps(asked, sort_keys=True, default=str).encode()).hexdigest()[:12]


def messages_for(interaction: discord.Interaction, reply: Reply) -> list[Outgoing]:
    view: discord.ui.View | None = None
    notes = []
    if reply.confirm is not None:
        view = confirm_view(*reply.confirm)
    elif reply.actions and reply.campaign_id is not None:
        view, hidden = action_view(reply.campaign_id, reply.phase_key or "", reply.actions)
        if hidden:
            notes.append(f"{hidden} more action(s) than fit in menus: type them with `/act`.")
    text, embeds = cards.present(reply.card, reply.text) if reply.card else (reply.text, [])
    if reply.card == "catchup" and reply.file and embeds:  # "since you last looked" shows its map in the card
        embeds[0]["image"] = {"url": f"attachment://{reply.file[0]}"}
    parts = outgoing.MAX_CARD_PARTS if embeds else outgoing.MAX_PARTS
    return outgoing.build(text, notes=notes, files=[reply.file] if reply.file else [], view=view, embeds=embeds,
                          file_limit=interaction.filesize_limit, max_parts=parts,
                          attach_name=f"{reply.card or 'herald'}.md")


async def send(interaction: discord.Interaction, reply: Reply, *, command: str | None = None) -> None:
    """Answer with a Reply; after a committed change, never claim it failed."""
    bot: HeraldBot = interaction.client  # type: ignore[assignment]
    bind(campaign_id=reply.campaign_id)  # the command's log line names its campaign (a new one too)
    # a question changed nothing yet: no receipt, so asking again asks again (its answer is its own record)
    name = None if reply.confirm is not None else command_of(interaction, command)
    receipt = None
    if name is not None:
        asked = receipts.asked_for(interaction.id)
        if asked is not None and asked.receipt_id is not None:
            receipt = asked.receipt_id  # written with the change, in its transaction
        else:
            try:
                receipt = await receipts.record(bot.services, interaction_id=interaction.id,
                                                user_id=interaction.user.id, campaign_id=reply.campaign_id,
                                                command=name, outcome=reply.text)
            except Exception:  # the change is saved: a missing receipt must not turn its answer into an error
                log.exception("could not write the receipt of interaction %s", interaction.id)
        crash_point("after-commit")
    try:
        messages = messages_for(interaction, reply)
    except Exception:  # the extras (menus, file) could not be built: the text alone still tells the truth
        log.exception("could not build the answer to interaction %s", interaction.id)
        messages = outgoing.build(reply.text)
    if reply.ephemeral:
        await make_private(interaction)
    delivered = 0
    for message in messages:
        try:
            await post(interaction, message, ephemeral=reply.ephemeral)
        except (discord.HTTPException, OSError, TimeoutError, aiohttp.ClientError) as exc:
            log.warning("answer to interaction %s failed after %d part(s): %s", interaction.id, delivered, exc)
            break
        delivered += 1
    if delivered < len(messages):
        first = messages[0].content or ""
        rest = "the rest of this answer could not be sent" if delivered else first
        text = f"Saved. {rest}" if name is not None else rest
        if not await tell_quietly(interaction, text) and delivered == 0:
            await _settle(bot, receipt, answered=False, outcome=reply.text)  # kept for their retry to find
            return
    await _settle(bot, receipt, answered=True, outcome=reply.text)


async def _settle(bot: HeraldBot, receipt: int | None, *, answered: bool, outcome: str) -> None:
    if receipt is None:
        return
    try:
        await receipts.settle(bot.services, receipt, answered=answered, outcome=outcome)
    except Exception:
        log.exception("could not settle receipt %s", receipt)


async def earlier_answer(interaction: discord.Interaction, command: str | None = None) -> bool:
    """Before a state-changing command runs: answer a replay, or a retry whose first try was saved but never
    answered, without doing it again. True when answered here (the command must not run)."""
    bot: HeraldBot = interaction.client  # type: ignore[assignment]
    seen = _seen.setdefault(bot, OrderedDict())
    if interaction.id in seen:
        log.info("interaction %s delivered again: ignored", interaction.id)
        return True
    seen[interaction.id] = None
    while len(seen) > SEEN_KEPT:
        seen.popitem(last=False)
    name = command_of(interaction, command)
    if name is None:
        return False
    caller = caller_of(interaction, bot.gm_role)
    campaign = getattr(interaction.namespace, "campaign", None)
    earlier = await receipts.earlier(bot.services, caller, interaction.id, name,
                                     campaign if isinstance(campaign, str) else None)
    if earlier is True:  # this very interaction, delivered again after a restart
        return True
    if earlier is None or earlier is False:
        receipts.expect(interaction.id, interaction.user.id, name)  # its unit of work writes the receipt
        return False
    what = f": {outgoing.quote(earlier.outcome, 1200)}" if earlier.outcome else "."  # none kept: Herald stopped
    text = (f"Your earlier `/{receipts.command_name(earlier.command)}` ({earlier.at:%H:%M} UTC) was saved, but its "
            f"answer did not reach you{what}\nNothing was done again; run the command once more to do it again.")
    if await tell_quietly(interaction, text):
        await receipts.mark_answered(bot.services, earlier.id)
    return True
