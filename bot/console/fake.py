"""An in-process Discord: gateway payloads into discord.py's own parsers, REST calls captured at its two
choke points (`HTTPClient.request` and the interaction webhook adapter). discord.py internals used here
are private, so discord.py is pinned to a minor version and tests/discord/test_harness.py guards them."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

APP_ID = 4_242_000_000_000_000
GUILD_ID = 1_111_000_000_000_000
EVERYONE_PERMS = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                                     read_message_history=True, attach_files=True, use_application_commands=True,
                                     create_public_threads=True)


def stable_id(kind: str, name: str) -> int:
    """The same name always gets the same snowflake, so a saved database still matches next run."""
    digest = int.from_bytes(hashlib.sha256(f"{kind}:{name}".encode()).digest()[:6], "big")
    return 10**17 + digest


@dataclass
class _Response:
    """What discord.HTTPException reads from an aiohttp response."""

    status: int
    reason: str = ""


def http_error(status: int, body: dict[str, Any] | str) -> discord.HTTPException:
    """The exception discord.py raises when Discord answers `status` with `body`."""
    reasons = {400: "Bad Request", 429: "Too Many Requests", 500: "Internal Server Error"}
    response = _Response(status, reasons.get(status, ""))
    if status >= 500:
        return discord.DiscordServerError(response, body)  # type: ignore[arg-type,unused-ignore]
    return discord.HTTPException(response, body)  # type: ignore[arg-type,unused-ignore]


def _fault_error(how: str) -> Exception:
    """What discord.py raises for an injected fault: a reset connection, or Discord refusing with a status."""
    if how == "reset":
        return aiohttp.ClientOSError(104, "Connection reset by peer")
    status = int(how)
    body: dict[str, Any] = {"code": 0, "message": "refused by the fake"}
    if status == 429:
        body = {"code": 0, "message": "You are being rate limited.", "retry_after": 0.01}
    error = http_error(status, body)
    if status in (403, 404):
        cls = discord.Forbidden if status == 403 else discord.NotFound
        return cls(error.response, body)
    return error


def refusal(errors: list[str]) -> dict[str, Any]:
    """The JSON body Discord refuses a request with: 50006 for an empty message, else 50035 with the reasons."""
    if len(errors) == 1 and "50006" in errors[0]:
        return {"code": 50006, "message": "Cannot send an empty message"}
    return {"code": 50035, "message": "Invalid Form Body",
            "errors": {"body": {"_errors": [{"code": "INVALID", "message": e} for e in errors]}}}


INTERACTION_KINDS = ("interaction_response", "followup", "edit_original", "get_original", "delete_original",
                     "edit_followup")
FAULTS = ("lost", "reset", "500", "429")


@dataclass
class Sent:
    """One request the bot made, decoded."""

    method: str
    path: str
    params: dict[str, Any]
    payload: Any
    files: list[tuple[str, bytes]] = field(default_factory=list)
    result: Any = None
    query: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        p, m = self.path, self.method
        if p.endswith("/callback"):
            return "interaction_response"
        if p.endswith("/messages/@original"):
            return {"PATCH": "edit_original", "GET": "get_original", "DELETE": "delete_original"}[m]
        if p == "/webhooks/{webhook_id}/{webhook_token}" and m == "POST":
            return "followup"
        if p.startswith("/webhooks/") and m == "PATCH":
            return "edit_followup"
        if p == "/channels/{channel_id}/messages" and m == "POST":
            return "channel_message"
        if p == "/channels/{channel_id}/threads" and m == "POST":
            return "create_thread"
        if "thread-members" in p:
            return "thread_member_add" if m == "PUT" else "thread_member_remove"
        if p.startswith("/applications/") and m == "PUT":
            return "sync_commands"
        if p == "/channels/{channel_id}/messages" and m == "GET":
            return "channel_history"
        if p == "/guilds/{guild_id}/threads/active":
            return "active_threads"
        if p == "/users/@me/channels" and m == "POST":
            return "open_dm"
        return f"{m} {p}"


def _decode_form(form: list[dict[str, Any]] | None) -> tuple[Any, list[tuple[str, bytes]]]:
    payload, files = None, []
    for part in form or []:
        if part.get("name") == "payload_json":
            payload = json.loads(part["value"])
        elif "filename" in part:
            value = part["value"]
            data = value.read() if hasattr(value, "read") else value
            if hasattr(value, "seek"):
                value.seek(0)
            files.append((part["filename"], bytes(data)))
    return payload, files


class FakeDiscord:
    """One guild with named text channels, users, a GM role, threads, and every message the bot sends."""

    # tests install Discord's own request validation here: (method, path template, JSON body) → why refused
    validate: Any = None

    def __init__(self, client: discord.Client, *, clock: Any = None, ids_from: int = 1_400_000_000_000_000_000,
                 gm_role: str = "GM") -> None:
        self.client = client
        self.state = client._connection
        self.clock = clock
        self.sent: list[Sent] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.users: dict[int, str] = {}
        self.gm_users: set[int] = set()
        self.admins: set[int] = set()
        self.thread_members: dict[int, set[int]] = {}
        self.attachments: dict[str, bytes] = {}
        self.nonces: dict[str, tuple[datetime, dict[str, Any]]] = {}
        self.nonce_window = timedelta(minutes=5)  # Discord drops a repeated nonce only for a few minutes
        self.answered: dict[str, bool] = {}
        self._interactions: dict[str, int] = {}
        self._originals: dict[str, dict[str, Any]] = {}
        self.rejected: list[tuple[Sent, list[str]]] = []  # requests Discord would have refused
        self.faults: list[tuple[str, str]] = []  # (request kind, how) still to inject, in order: see `fail`
        self.faulted: list[tuple[Sent, str]] = []
        self.gm_role_id = stable_id("role", gm_role)
        self.gm_role = gm_role
        self._ids = itertools.count(ids_from)
        self.bot_user = {"id": str(APP_ID), "username": "Herald", "discriminator": "0", "global_name": "Herald",
                         "avatar": None, "bot": True}
        fake = self

        class Adapter(AsyncWebhookAdapter):
            async def request(self, route: Any, session: Any = None, *, payload: Any = None, multipart: Any = None,
                              files: Any = None, params: Any = None, **_: Any) -> Any:
                files_out: list[tuple[str, bytes]] = []
                if multipart:
                    payload, files_out = _decode_form(multipart)
                return fake._handle(route, payload, files_out, params)

        self.adapter = Adapter()  # type: ignore[no-untyped-call]  # discord.py leaves it untyped

    # -- boot ---------------------------------------------------------------------------------
    def snowflake(self) -> str:
        return str(next(self._ids))

    def now(self) -> str:
        now = self.clock.now() if self.clock else datetime.now(UTC)
        return str(now.isoformat())

    async def start(self, channels: tuple[str, ...] = ("table",)) -> None:
        """Boot the client as login() and connect() would, minus the network."""
        await self.client._async_setup_hook()
        self.state.application_id = APP_ID

        async def rest(route: Any, *, files: Any = None, form: Any = None, **kw: Any) -> Any:
            if form:
                payload, got = _decode_form(form)
            else:
                payload, got = kw.get("json"), []
            return self._handle(route, payload, got, kw.get("params"))

        async def cdn(url: str) -> bytes:
            return self.attachments[url]

        self.client.http.request = rest  # type: ignore[method-assign]
        self.client.http.get_from_cdn = cdn  # type: ignore[method-assign]
        self.client.http.token = "fake-token"
        async_context.set(self.adapter)
        for name in channels:
            self._add_channel(name)
        await self.client.setup_hook()
        self.dispatch("READY", {"v": 10, "user": self.bot_user, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                               "session_id": "console", "resume_gateway_url": "ws://127.0.0.1:1",
                               "application": {"id": str(APP_ID), "flags": 0}})
        self.dispatch("GUILD_CREATE", self.guild_payload())
        await self.client.wait_until_ready()

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Exactly what the gateway does with a DISPATCH."""
        self.state.parsers[event](data)

    async def settle(self, limit: float = 30.0) -> None:
        """Wait for every handler task the last events started."""
        prefixes = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-modal-dispatch",
                    "discord-ui-dynamic-item", "discord.py: ")
        loop = asyncio.get_running_loop()
        until = loop.time() + limit
        while True:
            pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()
                       and t.get_name().startswith(prefixes)]
            if not pending:
                return
            left = until - loop.time()
            if left <= 0:
                raise TimeoutError(f"handlers still running: {[t.get_name() for t in pending]}")
            await asyncio.wait(pending, timeout=left)

    # -- the world ------------------------------------------------------------------------------------
    def _channel_payload(self, cid: int, name: str, *, kind: int = 0, parent: int | None = None,
                         private: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(cid), "type": kind, "name": name, "guild_id": str(GUILD_ID), "position": 0,
            "permission_overwrites": [], "nsfw": False, "parent_id": str(parent) if parent else None,
            "last_message_id": None, "rate_limit_per_user": 0, "topic": None}
        if kind in (11, 12):
            data.update({"owner_id": str(APP_ID), "message_count": 0, "member_count": 1, "thread_metadata": {
                "archived": False, "auto_archive_duration": 10080, "archive_timestamp": self.now(),
                "locked": False, "invitable": not private}})
        return data

    def _add_channel(self, name: str) -> int:
        cid = stable_id("channel", name)
        if cid not in self.channels:
            self.channels[cid] = self._channel_payload(cid, name)
            if self.client.is_ready():
                self.dispatch("CHANNEL_CREATE", self.channels[cid])
        return cid

    def channel(self, name: str) -> int:
        for cid, data in self.channels.items():
            if data["name"] == name:
                return cid
        return self._add_channel(name)

    def channel_name(self, cid: int) -> str:
        data = self.channels.get(cid)
        return data["name"] if data else f"channel-{cid}"

    def user(self, name: str) -> int:
        uid = stable_id("user", name.lower())
        self.users.setdefault(uid, name)
        return uid

    def user_payload(self, uid: int) -> dict[str, Any]:
        name = self.users.get(uid, f"user{uid}")
        return {"id": str(uid), "username": name.lower(), "discriminator": "0", "global_name": name, "avatar": None}

    def member_payload(self, uid: int) -> dict[str, Any]:
        perms = discord.Permissions(EVERYONE_PERMS.value)
        if uid in self.admins:
            perms.manage_guild = True
        return {"user": self.user_payload(uid), "roles": [str(self.gm_role_id)] if uid in self.gm_users else [],
                "joined_at": self.now(), "deaf": False, "mute": False, "flags": 0, "nick": None,
                "permissions": str(perms.value)}

    def guild_payload(self) -> dict[str, Any]:
        g = str(GUILD_ID)
        role = {"managed": False, "mentionable": False, "flags": 0, "hoist": False, "color": 0}
        return {
            "id": g, "name": "Herald Console", "owner_id": "1", "icon": None, "splash": None,
            "discovery_splash": None, "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "features": [], "mfa_level": 0,
            "application_id": None, "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
            "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "unavailable": False, "member_count": 1, "large": False,
            "joined_at": self.now(), "emojis": [], "stickers": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "roles": [{**role, "id": g, "name": "@everyone", "position": 0, "permissions": str(EVERYONE_PERMS.value)},
                      {**role, "id": str(self.gm_role_id), "name": self.gm_role, "position": 1,
                       "permissions": str(EVERYONE_PERMS.value)}],
            "channels": [c for c in self.channels.values() if c["type"] == 0],
            "threads": [c for c in self.channels.values() if c["type"] in (11, 12)],
            "members": [{"user": self.bot_user, "roles": [], "joined_at": self.now(), "deaf": False, "mute": False,
                         "flags": 0}],
        }

    # -- what the bot sends ---------------------------------------------------------------------------
    def _message(self, channel_id: int, payload: dict[str, Any] | None, files: list[tuple[str, bytes]], *,
                 webhook: bool = False, flags: int = 0) -> dict[str, Any]:
        payload = payload or {}
        attachments = []
        for name, data in files:
            aid = self.snowflake()
            url = f"https://cdn.invalid/{aid}/{name}"
            self.attachments[url] = data
            attachments.append({"id": aid, "filename": name, "size": len(data), "url": url, "proxy_url": url})
        msg = {"id": self.snowflake(), "channel_id": str(channel_id), "guild_id": str(GUILD_ID),
               "author": self.bot_user, "content": payload.get("content") or "", "timestamp": self.now(),
               "edited_timestamp": None, "tts": False, **self._pings(payload),
               "attachments": attachments, "embeds": payload.get("embeds") or [],
               "components": payload.get("components") or [], "pinned": False, "type": 20 if webhook else 0,
               "flags": payload.get("flags", flags)}
        if webhook:
            msg["webhook_id"] = str(APP_ID)
        self.messages[int(msg["id"])] = msg
        return msg

    def _pings(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Who a message pings, by Discord's rules: mentions in the text, filtered by `allowed_mentions`
        (absent, everything in the text pings)."""
        content = payload.get("content") or ""
        allowed = payload.get("allowed_mentions")
        parse = ["users", "roles", "everyone"] if allowed is None else allowed.get("parse", [])
        listed = {int(u) for u in (allowed or {}).get("users", [])}
        users = [int(u) for u in dict.fromkeys(re.findall(r"<@!?(\d+)>", content))]
        pinged = [u for u in users if "users" in parse or u in listed]
        return {"mention_everyone": "everyone" in parse and ("@everyone" in content or "@here" in content),
                "mentions": [self.user_payload(u) for u in pinged], "mention_roles": []}

    def history(self, channel_id: int, *, after: int | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """GET /channels/{id}/messages: up to `limit` messages after `after`, newest first, as Discord lists
        them. The fake's ids do not follow its clock, so `after` is compared as a time, not as an id."""
        msgs = [m for m in self.messages.values() if int(m["channel_id"]) == channel_id]
        if after is not None:
            since = discord.utils.snowflake_time(after)
            msgs = [m for m in msgs if datetime.fromisoformat(m["timestamp"]) >= since]
            msgs = sorted(msgs, key=lambda m: int(m["id"]))[:limit]  # the oldest `limit` after the cursor
        return sorted(msgs, key=lambda m: int(m["id"]), reverse=True)[:limit]

    def _handle(self, route: Any, payload: Any, files: list[tuple[str, bytes]], query: Any) -> Any:
        params = {k: v for k, v in (("channel_id", route.channel_id), ("guild_id", route.guild_id),
                                    ("webhook_id", route.webhook_id)) if v is not None}
        if getattr(route, "webhook_token", None):
            params["token"] = route.webhook_token
        sent = Sent(route.method, route.path, params, payload, files, query=dict(query or {}))
        if self.validate is not None:
            errors = self.validate(route.method, route.path, payload)
            if errors:
                self.rejected.append((sent, errors))
                raise http_error(400, refusal(errors))
        if sent.kind == "interaction_response" and self.answered.get(route.webhook_token):
            raise http_error(400, {"code": 40060, "message": "Interaction has already been acknowledged."})
        fault = self._take_fault(sent.kind)
        if fault is not None and fault != "lost":
            self.faulted.append((sent, fault))  # refused or never arrived: not among what Discord took
            raise _fault_error(fault)
        self.sent.append(sent)
        sent.result = self._respond(sent, route)
        if fault == "lost":
            self.faulted.append((sent, fault))
            sent.query["lost"] = True
            raise aiohttp.ServerDisconnectedError()  # done on Discord's side; the answer never came back
        return sent.result

    # -- faults ---------------------------------------------------------------------------------------
    def fail(self, kind: str, how: str, times: int = 1) -> None:
        """Make the next `times` requests of `kind` (a Sent.kind: "channel_message", "create_thread",
        "interaction_response", "edit_original"…) fail: "lost" — Discord does it but the answer never comes
        back; "reset" — the connection drops before Discord sees it; a status ("429", "500", "403", "404") —
        Discord refuses it and does nothing."""
        if how not in FAULTS and not how.isdigit():
            raise ValueError(f"unknown fault {how!r}")
        self.faults.extend([(kind, how)] * times)

    def _take_fault(self, kind: str) -> str | None:
        for i, (wanted, fault) in enumerate(self.faults):
            if wanted == kind:
                del self.faults[i]
                return fault
        return None

    def _respond(self, sent: Sent, route: Any) -> Any:
        kind = sent.kind
        payload = sent.payload or {}
        if kind == "interaction_response":
            self.answered[route.webhook_token] = True
            t = payload["type"]
            data = payload.get("data") or {}
            out: dict[str, Any] = {"interaction": {"id": str(route.webhook_id), "type": 2,
                                                   "response_message_loading": t == 5,
                                                   "response_message_ephemeral": bool(data.get("flags", 0) & 64)}}
            if t in (4, 5, 7):
                channel = self._interactions.get(route.webhook_token, 0)
                msg = self._message(channel, data, sent.files, webhook=True)
                self._originals[route.webhook_token] = msg
                out["interaction"]["response_message_id"] = msg["id"]
                out["resource"] = {"type": t, "message": msg}
            return out
        if kind == "followup":
            channel = self._interactions.get(route.webhook_token, 0)
            return self._message(channel, payload, sent.files, webhook=True)
        if kind in ("edit_original", "get_original", "edit_followup"):
            msg = self._originals.get(route.webhook_token) or self._message(0, {}, [], webhook=True)
            msg.update({k: v for k, v in payload.items() if k in ("content", "embeds", "components")})
            return msg
        if kind == "delete_original":
            return None
        if kind == "channel_message":
            nonce = payload.get("nonce")
            now = datetime.fromisoformat(self.now())
            if nonce and payload.get("enforce_nonce") and nonce in self.nonces:
                at, first = self.nonces[nonce]
                if now - at < self.nonce_window:
                    sent.payload = {**payload, "deduplicated": True}
                    return first  # Discord returns the first message for a nonce repeated soon enough
            msg = self._message(int(route.channel_id), payload, sent.files)
            if nonce:
                self.nonces[nonce] = (now, msg)
            return msg
        if kind == "channel_history":
            q = sent.query
            return self.history(int(route.channel_id), after=int(q["after"]) if q.get("after") else None,
                                limit=min(int(q.get("limit", 50)), 100))
        if kind == "active_threads":
            threads = [c for c in self.channels.values() if c["type"] in (11, 12)
                       and not c["thread_metadata"]["archived"]]
            return {"threads": threads, "members": []}
        if kind == "create_thread":
            tid = int(self.snowflake())
            private = payload.get("type") == 12
            data = self._channel_payload(tid, payload["name"], kind=payload.get("type", 11),
                                         parent=int(route.channel_id), private=private)
            self.channels[tid] = data
            self.thread_members[tid] = {APP_ID}
            self.dispatch("THREAD_CREATE", {**data, "newly_created": True})
            return data
        if kind == "open_dm":  # the same DM channel for a user every time, as Discord does
            user_id = int(payload["recipient_id"])
            cid = stable_id("dm", str(user_id))
            if cid not in self.channels:
                self.channels[cid] = {"id": str(cid), "type": 1, "name": f"DM @{self.users.get(user_id, user_id)}",
                                      "last_message_id": None, "recipients": [self.user_payload(user_id)]}
            return {k: v for k, v in self.channels[cid].items() if k != "name"}
        if kind in ("thread_member_add", "thread_member_remove"):
            user_id = int(route.url.rsplit("/", 1)[1])
            sent.params["user_id"] = user_id
            members = self.thread_members.setdefault(int(route.channel_id), set())
            if kind == "thread_member_add":
                members.add(user_id)
            else:
                members.discard(user_id)
            return None
        if kind == "sync_commands":
            return [dict(c, id=self.snowflake(), application_id=str(APP_ID), version="1") for c in payload]
        raise NotImplementedError(f"the console's Discord has no {sent.method} {sent.path}")

    # -- interactions --------------------------------------------------------------------------------
    def interaction(self, itype: int, data: dict[str, Any], *, user_id: int, channel_id: int,
                    message: dict[str, Any] | None = None) -> dict[str, Any]:
        token = "tok-" + self.snowflake()
        self._interactions[token] = channel_id
        self.answered[token] = False
        chan = self.channels.get(channel_id) or self._channel_payload(channel_id, f"channel-{channel_id}")
        payload: dict[str, Any] = {
            "id": self.snowflake(), "application_id": str(APP_ID), "type": itype, "token": token, "version": 1,
            "guild_id": str(GUILD_ID), "channel_id": str(channel_id), "channel": chan,
            "member": self.member_payload(user_id), "data": data, "locale": "en-GB", "guild_locale": "en-GB",
            "app_permissions": str(discord.Permissions.all().value), "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
        return payload

    def attachment(self, filename: str, data: bytes) -> dict[str, Any]:
        aid = self.snowflake()
        url = f"https://cdn.invalid/upload/{aid}/{filename}"
        self.attachments[url] = data
        return {"id": aid, "filename": filename, "size": len(data), "url": url, "proxy_url": url,
                "content_type": "text/plain; charset=utf-8"}
