"""The one place every outgoing message is built: text fitted to Discord's limits, and mentions that ping no one
Herald does not mean to ping."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.service import cards, quoting
from bot.service.quoting import QUOTE_LIMIT
from bot.service.text import MESSAGE_LIMIT, split_message

MAX_PARTS = 4  # past this many messages, the whole text goes as a file instead
MAX_CARD_PARTS = 2  # past this many messages of embeds, the whole of them goes as a file too
MAX_FILES = 10
BLANK = "(nothing to show)"  # what a text of blank lines becomes: Discord refuses an empty message


def normalise(text: str | None) -> str:
    """One kind of line break, no trailing blanks; a text of only whitespace becomes empty."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    return text.rstrip() if text.strip() else ""


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, marked with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A user's value inside an answer: clipped, one line, so an answer quoting it still fits."""
    return quoting.clip(value, limit)


def mentions_of(users: Iterable[int] = ()) -> discord.AllowedMentions:
    """Nobody, or exactly the users Herald means to ping; never @everyone, @here or a role."""
    ids = [discord.Object(id=int(u)) for u in dict.fromkeys(users)]
    if not ids:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(everyone=False, roles=False, users=ids, replied_user=False)


@dataclass
class Outgoing:
    """One message as Discord will receive it; files stay bytes so a retry can send them again."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    mentions: tuple[int, ...] = ()

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for send/followup.send: fresh File objects each time (discord.py closes them)."""
        out: dict[str, Any] = {"allowed_mentions": mentions_of(self.mentions)}
        if self.embeds:
            out["embeds"] = self.embeds
        if self.view is not None:
            out["view"] = self.view
        if self.files:
            out["files"] = [discord.File(io.BytesIO(data), name) for name, data in self.files[:MAX_FILES]]
        return out


def fit_text(text: str | None, notes: Sequence[str] = (), *, has_extras: bool = False, attached: bool = True,
             limit: int = MESSAGE_LIMIT, max_parts: int = MAX_PARTS) -> tuple[list[str], bool]:
    """The text as message contents within `limit`, the notes budgeted into the last one. Returns the parts and
    whether the text was too long for `max_parts` messages: then only its start is shown, and the note says
    the whole is attached (the caller attaches it) or, when `attached` is False, that it was too long."""
    body = normalise(text)
    tail = clip("\n".join(normalise(n) for n in notes if normalise(n)), limit // 2)
    parts = [p for p in (split_message(body, limit) if body else []) if p.strip()]
    too_long = len(parts) > max_parts
    if too_long:
        said = (f"… the whole text ({len(body)} characters) is attached." if attached
                else f"… the rest of this text ({len(body)} characters in all) is too long to send here.")
        tail = f"{said}\n{tail}" if tail else said
        parts = split_message(body, limit - len(tail) - 1)[:1]
    if tail:
        if parts and len(parts[-1]) + 1 + len(tail) <= limit:
            parts[-1] = f"{parts[-1]}\n{tail}"
        else:
            parts.append(tail)
    if not parts and not has_extras:
        parts = [BLANK]
    return parts, too_long


def build(text: str | None, *, notes: Sequence[str] = (), files: Sequence[tuple[str, bytes]] = (),
          view: discord.ui.View | None = None, embeds: Sequence[discord.Embed | dict[str, Any]] = (),
          mentions: Sequence[int] = (), file_limit: int | None = None,
          attach_name: str = "herald.md", max_parts: int = MAX_PARTS) -> list[Outgoing]:
    """Messages for a text with its embeds and extras, each within Discord's limits. The text comes first;
    the embeds follow, split over as few messages as their limits allow (at most `max_parts`: past that the
    whole of them is attached as text); files ride with the embed that shows one (the map), else on the last
    message, and the buttons on the last."""
    notes = list(notes)
    kept: list[tuple[str, bytes]] = []
    for name, data in files:
        if file_limit is not None and len(data) > file_limit:
            notes.append(f"(`{quote(name, 80)}` is {len(data) // 1024} KiB, over this server's "
                         f"{file_limit // 1024} KiB limit.)")
        elif len(kept) >= MAX_FILES:
            notes.append(f"(`{quote(name, 80)}` is one file too many to attach.)")
        else:
            kept.append((name, data))
    dicts: list[dict[str, Any]] = [dict(e.to_dict()) if isinstance(e, discord.Embed) else dict(e) for e in embeds]
    groups = cards.fit(dicts)
    if len(groups) > max_parts:
        whole_cards = cards.as_text(dicts).encode()
        if len(kept) < MAX_FILES and (file_limit is None or len(whole_cards) <= file_limit):
            kept.append((attach_name.replace(".md", "-full.md"), whole_cards))
            notes.append(f"… the whole of it ({len(whole_cards)} characters) is attached.")
        else:
            notes.append(f"… the rest ({len(whole_cards)} characters in all) is too long to send here.")
        groups = groups[:max_parts]
    whole = normalise(text).encode()
    attachable = len(kept) < MAX_FILES and (file_limit is None or len(whole) <= file_limit)
    extras = bool(kept or view is not None or groups)
    parts, too_long = fit_text(text, notes, has_extras=extras, attached=attachable)
    if too_long and attachable:
        kept.insert(0, (attach_name, whole))
    messages = [Outgoing(content=p) for p in parts]
    for i, group in enumerate(groups):
        embedded = [discord.Embed.from_dict(e) for e in group]
        if i == 0 and messages and not messages[-1].embeds:
            messages[-1].embeds = embedded
        else:
            messages.append(Outgoing(embeds=embedded))
    if not messages:
        messages = [Outgoing()]
    _place_files(messages, kept)
    messages[-1].view = view
    for message in messages:
        message.mentions = tuple(mentions)
    return messages


def _place_files(messages: list[Outgoing], files: list[tuple[str, bytes]]) -> None:
    """Each file on the first message whose card shows it (the map beside its card); a card further on showing
    a file already sent with another message shows none (Discord would show it broken); the other files on the
    first message showing any, else the last."""
    names = {name for name, _ in files}
    placed: dict[str, Outgoing] = {}
    for message in messages:
        for embed in message.embeds:
            shown = (embed.image.url or "").removeprefix("attachment://")
            if not shown:
                continue
            if shown in names and placed.setdefault(shown, message) is message:
                continue
            embed.set_image(url=None)  # its file is in another message, or not attached at all
    holder = next(iter(placed.values()), messages[-1])
    for name, data in files:
        (placed.get(name) or holder).files.append((name, data))


LONG_RUN = re.compile(r"\S{121,}")


def note(text: str) -> Outgoing:
    """A short answer (an error, a refusal): always one message. Too long means it quotes something huge a
    user typed: long unbroken runs are shortened first, so the sentence around them survives."""
    body = normalise(text) or BLANK
    if len(body) > MESSAGE_LIMIT:
        body = LONG_RUN.sub(lambda m: m[0][:100] + "…", body)
    return Outgoing(content=clip(body, MESSAGE_LIMIT))
