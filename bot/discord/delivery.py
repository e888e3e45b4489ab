"""The outbox's way to Discord: plain discord.py calls, errors sorted into retry or give up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.discord import outgoing
from bot.discord.views import buttons_view
from bot.service.outbox import DeliveryError
from bot.service.text import MESSAGE_LIMIT

WEEK = 10080  # minutes: the longest thread auto-archive Discord allows


class DiscordDelivery:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def _call(self, coro: Any) -> Any:
        try:
            return await coro
        except (discord.Forbidden, discord.NotFound) as exc:
            raise DeliveryError(f"{exc.status} {exc.text}", permanent=True) from exc
        except discord.HTTPException as exc:
            raise DeliveryError(f"{exc.status} {exc.text}", permanent=400 <= exc.status < 500) from exc
        except OSError as exc:
            raise DeliveryError(str(exc), permanent=False) from exc

    async def send(self, channel_id: int, content: str, *, file: tuple[str, bytes] | None,
                   buttons: list[dict[str, str]], nonce: str, mentions: Sequence[int] = ()) -> int:
        """One outbox part as one message: fitted by outgoing (the outbox splits long posts), pinging only
        `mentions`."""
        channel = self.client.get_partial_messageable(channel_id)
        built = outgoing.build(content, files=[file] if file else [], view=buttons_view(buttons) if buttons else None,
                               mentions=mentions)
        message = built[0] if len(built) == 1 else outgoing.Outgoing(
            content=outgoing.clip(built[0].content or "", MESSAGE_LIMIT), files=built[-1].files,
            view=built[-1].view, mentions=tuple(mentions))
        kwargs = message.kwargs()
        kwargs["nonce"] = nonce
        message_out = await self._call(channel.send(message.content, **kwargs))
        return int(message_out.id)

    async def create_thread(self, channel_id: int, name: str, *, private: bool) -> int:
        kind = discord.ChannelType.private_thread if private else discord.ChannelType.public_thread
        data = await self._call(self.client.http.start_thread_without_message(
            channel_id, name=name, auto_archive_duration=WEEK, type=kind.value,  # type: ignore[arg-type]
            invitable=not private))
        return int(data["id"])

    async def add_member(self, thread_id: int, user_id: int) -> None:
        await self._call(self.client.http.add_user_to_thread(thread_id, user_id))

    async def remove_member(self, thread_id: int, user_id: int) -> None:
        await self._call(self.client.http.remove_user_from_thread(thread_id, user_id))
