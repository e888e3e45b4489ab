"""A small fake Discord on 127.0.0.1: the REST routes Herald uses and a gateway that pushes interactions.

Traps it has to get right for stock discord.py (see shared/reference/NOTES.md): JSON bodies with a
Content-Type of exactly application/json, text (not binary) gateway frames, an InteractionCallbackResponse
body for callbacks, and a `Via` header on 429s."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import discord
from aiohttp import web

from bot.console.fake import stable_id

APP_ID = 4_242_000_000_000_001
GUILD_ID = 1_111_000_000_000_001
CHANNEL_ID = stable_id("channel", "loopback")
BOT_USER = {"id": str(APP_ID), "username": "Herald", "discriminator": "0", "global_name": "Herald",
            "avatar": None, "bot": True}
NOW = "2026-01-05T12:00:00+00:00"


def _json(obj: Any, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(obj).encode(), status=status, headers={"Content-Type": "application/json"})


class FakeDiscordServer:
    def __init__(self) -> None:
        self.app = web.Application()
        r = self.app.router
        r.add_get("/api/v10/users/@me", self.me)
        r.add_get("/api/v10/oauth2/applications/@me", self.application)
        r.add_put("/api/v10/applications/{app}/commands", self.sync)
        r.add_post("/api/v10/interactions/{iid}/{token}/callback", self.callback)
        r.add_post("/api/v10/webhooks/{app}/{token}", self.followup)
        r.add_patch("/api/v10/webhooks/{app}/{token}/messages/@original", self.followup)
        r.add_post("/api/v10/channels/{cid}/messages", self.message)
        r.add_post("/api/v10/channels/{cid}/threads", self.thread)
        r.add_put("/api/v10/channels/{cid}/thread-members/{uid}", self.member)
        r.add_get("/gateway", self.gateway)
        self.log: list[tuple[str, Any]] = []
        self.changed = asyncio.Condition()
        self.ws: web.WebSocketResponse | None = None
        self.identified = asyncio.Event()
        self.ids = itertools.count(1_500_000_000_000_000_000)
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.seq = 0

    async def start(self) -> None:
        self.runner = web.AppRunner(self.app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.runner is not None:
            await self.runner.cleanup()

    async def _record(self, kind: str, body: Any) -> None:
        async with self.changed:
            self.log.append((kind, body))
            self.changed.notify_all()

    async def wait_for(self, kind: str, text: str = "", timeout: float = 30.0) -> Any:  # noqa: ASYNC109
        def found() -> Any:
            for k, body in self.log:
                if k == kind and text in json.dumps(body, ensure_ascii=False):
                    return body
            return None

        async with asyncio.timeout(timeout), self.changed:
            await self.changed.wait_for(lambda: found() is not None)
        return found()

    # -- REST -----------------------------------------------------------------------------------
    async def me(self, _: web.Request) -> web.Response:
        return _json(BOT_USER)

    async def member(self, _: web.Request) -> web.Response:
        return web.Response(status=204)

    async def application(self, _: web.Request) -> web.Response:
        return _json({"id": str(APP_ID), "name": "Herald", "icon": None, "description": "", "bot_public": True,
                      "bot_require_code_grant": False, "owner": BOT_USER, "verify_key": "x", "flags": 0})

    async def sync(self, request: web.Request) -> web.Response:
        commands = await request.json()
        await self._record("sync", [c["name"] for c in commands])
        return _json([dict(c, id=str(next(self.ids)), application_id=str(APP_ID), version="1") for c in commands])

    def _message(self, channel_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"id": str(next(self.ids)), "channel_id": channel_id, "author": BOT_USER,
                "content": body.get("content") or "", "timestamp": NOW, "edited_timestamp": None, "tts": False,
                "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
                "embeds": body.get("embeds") or [], "components": body.get("components") or [], "pinned": False,
                "type": 0, "flags": body.get("flags", 0)}

    async def callback(self, request: web.Request) -> web.Response:
        body = await request.json()
        await self._record("callback", body)
        out: dict[str, Any] = {"interaction": {"id": request.match_info["iid"], "type": 2,
                                               "response_message_loading": body["type"] == 5,
                                               "response_message_ephemeral": bool(
                                                   (body.get("data") or {}).get("flags", 0) & 64)}}
        if body["type"] in (4, 5):
            message = self._message(str(CHANNEL_ID), body.get("data") or {})
            out["interaction"]["response_message_id"] = message["id"]
            out["resource"] = {"type": body["type"], "message": message}
        return _json(out)

    async def followup(self, request: web.Request) -> web.Response:
        body = await request.json()
        await self._record("followup", body)
        return _json(self._message(str(CHANNEL_ID), body))

    async def message(self, request: web.Request) -> web.Response:
        body = await request.json()
        await self._record("message", {"channel": request.match_info["cid"], **body})
        return _json(self._message(request.match_info["cid"], body))

    async def thread(self, request: web.Request) -> web.Response:
        body = await request.json()
        await self._record("thread", body)
        tid = str(next(self.ids))
        return _json({"id": tid, "guild_id": str(GUILD_ID), "parent_id": request.match_info["cid"],
                      "owner_id": str(APP_ID), "name": body["name"], "type": body.get("type", 11),
                      "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0, "member_count": 1,
                      "thread_metadata": {"archived": False, "auto_archive_duration": 10080,
                                          "archive_timestamp": NOW, "locked": False}})

    # -- gateway --------------------------------------------------------------------------------
    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self.ws is not None
        self.seq += 1
        await self.ws.send_str(json.dumps({"op": 0, "s": self.seq, "t": event, "d": data}))

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.ws = ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            packet = json.loads(msg.data)
            if packet["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif packet["op"] == 2:
                await self._record("identify", {"token": packet["d"]["token"], "intents": packet["d"]["intents"]})
                await self.dispatch("READY", {"v": 10, "user": BOT_USER, "session_id": "loop",
                                              "resume_gateway_url": f"ws://{request.host}/gateway",
                                              "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                                              "application": {"id": str(APP_ID), "flags": 0}})
                await self.dispatch("GUILD_CREATE", guild())
                self.identified.set()
        return ws


def guild() -> dict[str, Any]:
    perms = str(discord.Permissions.all().value)
    return {"id": str(GUILD_ID), "name": "Loopback", "owner_id": "1", "icon": None, "splash": None,
            "discovery_splash": None, "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "features": [], "mfa_level": 0,
            "application_id": None, "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
            "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "unavailable": False, "member_count": 1, "large": False,
            "joined_at": NOW, "emojis": [], "stickers": [], "voice_states": [], "presences": [], "threads": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "members": [{"user": BOT_USER, "roles": [], "joined_at": NOW, "deaf": False, "mute": False, "flags": 0}],
            "roles": [{"id": str(GUILD_ID), "name": "@everyone", "color": 0, "hoist": False, "position": 0,
                       "permissions": perms, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [{"id": str(CHANNEL_ID), "type": 0, "name": "loopback", "position": 0,
                          "permission_overwrites": [], "nsfw": False, "parent_id": None}]}


def slash(name: str, options: list[dict[str, Any]], user_id: int = 77, token: str = "itok-1") -> dict[str, Any]:
    user = {"id": str(user_id), "username": "gm", "discriminator": "0", "global_name": "GM", "avatar": None}
    return {"id": "7001", "application_id": str(APP_ID), "type": 2, "token": token, "version": 1,
            "guild_id": str(GUILD_ID), "channel_id": str(CHANNEL_ID),
            "channel": {"id": str(CHANNEL_ID), "type": 0, "guild_id": str(GUILD_ID), "name": "loopback",
                        "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None},
            "member": {"user": user, "roles": [], "joined_at": NOW, "deaf": False, "mute": False, "flags": 0,
                       "permissions": str(discord.Permissions.all().value)},
            "data": {"id": "9001", "name": name, "type": 1, "options": options, "guild_id": str(GUILD_ID)},
            "locale": "en-US", "guild_locale": "en-US", "app_permissions": str(discord.Permissions.all().value),
            "entitlements": [], "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024}
