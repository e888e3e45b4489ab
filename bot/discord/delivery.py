"""The outbox's way to Discord: plain discord.py calls, errors sorted into retry or give up."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiohttp
import discord

from bot.discord import outgoing
from bot.discord.views import buttons_view
from bot.ops import metrics
from bot.service import cards
from bot.service.outbox import DeliveryError, OpenThread, Posted
from bot.service.text import MESSAGE_LIMIT

WEEK = 10080  # minutes: the longest thread auto-archive Discord allows
PAGE = 100  # the most messages Discord returns per request
PAGES = 5  # how far reconciling looks: an uncertain part is searched among the next 500 messages


class DiscordDelivery:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def _call(self, coro: Any) -> Any:
        try:
            return await coro
        except (discord.Forbidden, discord.NotFound) as exc:
            raise DeliveryError(f"{exc.status} {exc.text}", permanent=True) from exc
        except discord.HTTPException as exc:
            # 429 (rate limited past discord.py's own retries) and 408 are worth retrying; other 4xx are not
            permanent = 400 <= exc.status < 500 and exc.status not in (408, 429)
            raise DeliveryError(f"{exc.status} {exc.text}", permanent=permanent) from exc
        except (TimeoutError, OSError, aiohttp.ClientError) as exc:
            # the request may or may not have reached Discord: the outbox reconciles before sending again
            raise DeliveryError(f"{type(exc).__name__}: {exc}", permanent=False) from exc

    async def send(self, channel_id: int, content: str, *, files: Sequence[tuple[str, bytes]] = (),
                   embeds: Sequence[dict[str, Any]] = (), buttons: list[dict[str, str]], nonce: str,
                   mentions: Sequence[int] = ()) -> int:
        """One outbox part as one message: fitted by outgoing (the outbox splits long posts and keeps a post's
        cards to one message), pinging only `mentions`."""
        channel = self.client.get_partial_messageable(channel_id)
        built = outgoing.build(content, files=files, embeds=embeds, mentions=mentions, max_parts=1,
                               view=buttons_view(buttons) if buttons else None)
        message = built[0] if len(built) == 1 else outgoing.Outgoing(
            content=outgoing.clip(built[0].content or "", MESSAGE_LIMIT),
            embeds=next((m.embeds for m in built if m.embeds), []),
            files=[f for m in built for f in m.files], view=built[-1].view, mentions=tuple(mentions))
        kwargs = message.kwargs()
        kwargs["nonce"] = nonce
        message_out = await self._call(channel.send(message.content, **kwargs))
        metrics.POSTS_SENT.inc()
        return int(message_out.id)

    async def recent(self, channel_id: int, after: datetime) -> list[Posted]:
        """The bot's own messages in the channel after `after`, oldest first (up to PAGES pages)."""
        me = self.client.user.id if self.client.user else None
        cursor = discord.utils.time_snowflake(after)
        out: list[Posted] = []
        for _ in range(PAGES):
            page = await self._call(self.client.http.logs_from(channel_id, PAGE, after=cursor))
            page = sorted(page or [], key=lambda m: int(m["id"]))  # Discord lists newest first
            for data in page:
                # only what the bot posted itself, not its replies to interactions (webhook messages)
                if (me is None or int(data["author"]["id"]) == me) and not data.get("webhook_id"):
                    out.append(_posted(data))
            if len(page) < PAGE:
                break
            cursor = int(page[-1]["id"])
        return out

    async def create_thread(self, channel_id: int, name: str, *, private: bool) -> int:
        kind = discord.ChannelType.private_thread if private else discord.ChannelType.public_thread
        data = await self._call(self.client.http.start_thread_without_message(
            channel_id, name=name, auto_archive_duration=WEEK, type=kind.value,  # type: ignore[arg-type]
            invitable=not private))
        return int(data["id"])

    async def active_threads(self, guild_id: int) -> list[OpenThread]:
        me = self.client.user.id if self.client.user else None
        data = await self._call(self.client.http.get_active_threads(guild_id))
        return [OpenThread(int(t["id"]), int(t["parent_id"]), t["name"]) for t in data.get("threads", [])
                if t.get("parent_id") and (me is None or int(t.get("owner_id") or 0) == me)]

    async def open_dm(self, user_id: int) -> int:
        """The bot's direct-message channel with a user (Discord returns the same one each time)."""
        data = await self._call(self.client.http.start_private_message(user_id))
        return int(data["id"])

    async def add_member(self, thread_id: int, user_id: int) -> None:
        await self._call(self.client.http.add_user_to_thread(thread_id, user_id))

    async def remove_member(self, thread_id: int, user_id: int) -> None:
        await self._call(self.client.http.remove_user_from_thread(thread_id, user_id))


def _posted(data: dict[str, Any]) -> Posted:
    custom_ids = tuple(str(c.get("custom_id")) for row in data.get("components") or []
                       for c in row.get("components") or [] if c.get("custom_id"))
    return Posted(int(data["id"]), data.get("content") or "",
                  tuple(a.get("filename", "") for a in data.get("attachments") or []), custom_ids,
                  cards.signature(data.get("embeds") or []))
