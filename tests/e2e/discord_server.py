"""A small fake Discord on 127.0.0.1 that behaves, and fails, like the real one for what Herald does.

It keeps channels, threads and their messages; honours a message nonce only for a short window (real Discord:
a few minutes) so a late re-send is visibly a duplicate; serves several gateway connections (each IDENTIFY its
own session, `shard` honoured, RESUME replayed or refused); validates every request body and refuses what
Discord refuses (recorded in `refused`, so a test can fail on it); and injects seeded faults (see faults.py).

Traps it has to get right for stock discord.py (see shared/reference/NOTES.md): JSON bodies with a
Content-Type of exactly application/json, text (not binary) gateway frames, an InteractionCallbackResponse
body for callbacks, and a `Via` header on 429s."""

from __future__ import annotations

import asyncio
import importlib
import itertools
import json
import socket
import struct
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import web
from aiohttp.web_request import FileField

from bot.console.fake import stable_id
from tests.e2e import spec_basics
from tests.e2e.faults import Faults

try:  # helper A's validation against Discord's OpenAPI spec, when it is on the tree
    validate_request: Callable[[str, str, Any], Any] = importlib.import_module("tests.discord_spec").validate_request
except ImportError:  # until then, the limits checked by hand
    validate_request = spec_basics.validate_request

APP_ID = 4_242_000_000_000_001
GUILD_ID = 1_111_000_000_000_001
CHANNEL_ID = stable_id("channel", "loopback")
BOT_USER = {"id": str(APP_ID), "username": "Herald", "discriminator": "0", "global_name": "Herald",
            "avatar": None, "bot": True}
NOW = "2026-01-05T12:00:00+00:00"
DISCORD_EPOCH_MS = 1_420_070_400_000  # 2015-01-01, where Discord's snowflake clock starts
Handler = Callable[[web.Request], Awaitable[web.Response]]


def _json(obj: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(body=json.dumps(obj).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def _error(status: int, code: int, message: str, errors: Any = None) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return _json(body, status)


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: which shard a guild's events go to."""
    return (guild_id >> 22) % shard_count


@dataclass
class Channel:
    id: int
    guild_id: int
    name: str
    type: int = 0  # 0 text, 11 public thread, 12 private thread
    parent_id: int | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    members: set[int] = field(default_factory=set)

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": str(self.id), "guild_id": str(self.guild_id), "name": self.name,
                               "type": self.type, "parent_id": str(self.parent_id) if self.parent_id else None,
                               "position": 0, "permission_overwrites": [], "nsfw": False}
        if self.type in (11, 12):
            out.update(owner_id=str(APP_ID), last_message_id=None, rate_limit_per_user=0,
                       message_count=len(self.messages), member_count=len(self.members),
                       thread_metadata={"archived": False, "auto_archive_duration": 10080,
                                        "archive_timestamp": NOW, "locked": False,
                                        "invitable": self.type == 11})
        return out


@dataclass
class Session:
    id: str
    shard: tuple[int, int]
    ws: web.WebSocketResponse | None
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Interaction:
    id: str
    token: str
    acked: bool = False
    deferred: bool = False
    answers: list[tuple[str, Any]] = field(default_factory=list)  # ("callback"|"followup"|"edit", body)
    shown: asyncio.Event = field(default_factory=asyncio.Event)  # set at the first answer the user can read

    def answer(self, kind: str, body: Any) -> None:
        self.answers.append((kind, body))
        if kind != "callback" or body.get("type") == 4:  # a bare "thinking…" defer shows nothing yet
            self.shown.set()


class FakeDiscordServer:
    def __init__(self, *, guild_ids: tuple[int, ...] = (GUILD_ID,), nonce_window: float = 300.0,
                 seed: int = 0, shard_count: int = 1, max_concurrency: int = 1,
                 identify_window: float | None = None, heartbeat_ms: int = 41250) -> None:
        self.app = web.Application(client_max_size=30 * 1024 * 1024)
        self.faults = Faults(seed=seed)
        self.nonce_window = nonce_window
        # what GET /gateway/bot recommends, and Discord's identify limit: per 5 s at most one IDENTIFY in each
        # bucket `shard_id % max_concurrency` (checked only when `identify_window` is set: a test about pacing)
        self.shard_count, self.max_concurrency, self.identify_window = shard_count, max_concurrency, identify_window
        self.identify_times: dict[int, list[float]] = {}
        self.heartbeat_ms = heartbeat_ms  # HELLO's heartbeat_interval (Discord's is about 41 s)
        r = self.app.router
        r.add_get("/api/v10/users/@me", self.me)
        r.add_get("/api/v10/oauth2/applications/@me", self.application)
        r.add_get("/api/v10/gateway/bot", self.gateway_bot)
        r.add_put("/api/v10/applications/{app}/commands", self.sync)
        r.add_put("/api/v10/applications/{app}/guilds/{gid}/commands", self.sync)
        self._route(r.add_post, "/interactions/{iid}/{token}/callback", "callback", self.callback)
        self._route(r.add_post, "/webhooks/{app}/{token}", "followup", self.followup)
        self._route(r.add_patch, "/webhooks/{app}/{token}/messages/@original", "edit-original", self.edit_original)
        r.add_get("/api/v10/webhooks/{app}/{token}/messages/@original", self.get_original)
        r.add_delete("/api/v10/webhooks/{app}/{token}/messages/@original", self.delete_original)
        self._route(r.add_post, "/channels/{cid}/messages", "post-message", self.message)
        self._route(r.add_get, "/channels/{cid}/messages", "get-messages", self.messages)
        self._route(r.add_post, "/channels/{cid}/threads", "create-thread", self.thread)
        self._route(r.add_put, "/channels/{cid}/thread-members/{uid}", "thread-member", self.add_member)
        self._route(r.add_delete, "/channels/{cid}/thread-members/{uid}", "thread-member", self.remove_member)
        self._route(r.add_get, "/guilds/{gid}/threads/active", "active-threads", self.active_threads)
        r.add_get("/gateway", self.gateway)
        self.log: list[tuple[str, Any]] = []
        self.refused: list[tuple[str, str, Any, list[str]]] = []  # what Discord would have answered 400 to
        self.changed = asyncio.Condition()
        self.guild_ids = guild_ids
        self.channels: dict[int, Channel] = {}
        self.text_channels: dict[int, Channel] = {}  # each guild's one text channel, where commands are typed
        for gid in guild_ids:
            cid = CHANNEL_ID if gid == GUILD_ID else stable_id("channel", str(gid))
            self.channels[cid] = self.text_channels[gid] = Channel(cid, gid, "loopback")
        self.sessions: dict[str, Session] = {}
        self.interactions: dict[str, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.message_count = 0  # messages posted to channels and threads (not answers to interactions)
        self._nonces: dict[str, tuple[float, dict[str, Any]]] = {}
        self._last_ms = 0
        self.identified = asyncio.Event()
        self.runner: web.AppRunner | None = None
        self.port = 0

    def _route(self, add: Any, path: str, name: str, handler: Handler) -> None:
        async def serve(request: web.Request) -> web.Response:
            return await self._faulty(request, name, handler)
        add(f"/api/v10{path}", serve)

    async def start(self) -> None:
        self.runner = web.AppRunner(self.app, handler_cancellation=True)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                await session.ws.close()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    def next_id(self) -> int:
        """A snowflake made from the wall clock, as Discord's are (a bot may page by `time_snowflake`),
        strictly increasing so ids sort in creation order."""
        self._last_ms = max(self._last_ms + 1, int(time.time() * 1000) - DISCORD_EPOCH_MS)
        return self._last_ms << 22

    def expire_nonces(self) -> None:
        """As if the nonce window had passed: a re-sent message is posted again."""
        self._nonces.clear()

    async def _record(self, kind: str, body: Any) -> None:
        async with self.changed:
            self.log.append((kind, body))
            self.changed.notify_all()

    async def wait_for(self, kind: str, text: str = "", timeout: float = 30.0) -> Any:  # noqa: ASYNC109
        """The first logged `kind` whose JSON contains `text`, waiting for it to arrive."""
        def found() -> Any:
            for k, body in self.log:
                if k == kind and text in json.dumps(body, ensure_ascii=False):
                    return body
            return None

        async with asyncio.timeout(timeout), self.changed:
            await self.changed.wait_for(lambda: found() is not None)
        return found()

    async def wait_until(self, check: Callable[[], bool], timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Wait until `check()` holds, re-checked whenever the server records something."""
        async with asyncio.timeout(timeout), self.changed:
            await self.changed.wait_for(check)

    # -- what a test asserts on -----------------------------------------------------------------
    def channel_of(self, guild_id: int) -> int:
        """The guild's text channel, where its slash commands are typed."""
        return self.text_channels[guild_id].id

    def posts(self) -> list[dict[str, Any]]:
        """Every message in every channel and thread, oldest first."""
        return sorted((m for c in self.channels.values() for m in c.messages), key=lambda m: int(m["id"]))

    def duplicates(self) -> list[tuple[str, str]]:
        """(channel, text) posted more than once in the same channel."""
        seen = Counter((m["channel_id"], shown_text(m) + "|" + ",".join(a["filename"] for a in m["attachments"]))
                       for m in self.posts())
        return [key for key, n in seen.items() if n > 1]

    def threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.type in (11, 12)]

    def answer_texts(self, interaction_id: str) -> list[str]:
        """The text of every answer to this interaction, in order ("" for a bare defer)."""
        return [shown_text(b.get("data") or {}) if k == "callback" else shown_text(b)
                for k, b in self.interactions[interaction_id].answers]

    def visible_answers(self, interaction_id: str) -> int:
        """How many messages the user sees answering this interaction ("thinking…" alone counts 0)."""
        state = self.interactions[interaction_id]
        kinds = [k for k, _ in state.answers]
        original = kinds.count("edit") > 0 or any(k == "callback" and b.get("type") == 4 for k, b in state.answers)
        return int(original) + kinds.count("followup")

    async def shown(self, interaction_id: str, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        """Wait for the interaction's first answer a user can read (one waiter woken, not every one at every
        request as `wait_until` does: a load of thousands waits this way)."""
        async with asyncio.timeout(timeout):
            await self.interactions[interaction_id].shown.wait()

    # -- faults and validation --------------------------------------------------------------------
    async def _faulty(self, request: web.Request, route: str, handler: Handler) -> web.Response:
        fault = self.faults.pick(route)
        if fault == "429":
            return _json({"message": "You are being rate limited.", "retry_after": 0.05, "global": False}, 429,
                         {"Retry-After": "1", "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                          "X-RateLimit-Reset": f"{time.time() + 0.05:.3f}", "X-RateLimit-Reset-After": "0.05",
                          "X-RateLimit-Bucket": f"loop-{route}", "X-RateLimit-Scope": "user", "Via": "1.1 google"})
        if fault in ("500", "502", "503"):
            return _error(int(fault), 0, f"{fault}: Discord is having trouble")
        if fault == "reset-before":
            await request.read()
            self._hang_up(request, reset=True)
        response = await handler(request)
        if fault in ("lost", "reset-after"):
            await self._record("fault", {"route": route, "kind": fault})
            self._hang_up(request, reset=fault == "reset-after")
        return response

    def _hang_up(self, request: web.Request, *, reset: bool) -> None:
        """Close the connection without an answer; with `reset`, as a TCP reset (RST), not a clean close."""
        transport = request.transport
        if transport is not None:
            sock = transport.get_extra_info("socket")
            if reset and sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            transport.abort()
        raise asyncio.CancelledError  # aiohttp drops a cancelled handler quietly; the client sees no answer

    async def _body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        """The JSON body, also from a multipart request (payload_json plus files[n])."""
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body = json.loads(str(form.get("payload_json") or "{}"))
            files = [{"filename": part.filename, "size": len(part.file.read())}
                     for name, part in form.items() if name.startswith("files[") and isinstance(part, FileField)]
            return body, files
        if not await request.read():
            return None, []
        return await request.json(), []

    async def _refuse(self, method: str, path: str, body: Any) -> web.Response | None:
        """Discord's 400 for a body it would refuse, recorded; None when it would accept it."""
        try:
            errors = list(validate_request(method, path, body) or [])
        except Exception as exc:  # a validator that raises instead of returning its reasons
            errors = [str(exc)]
        if not errors:
            return None
        self.refused.append((method, path, body, errors))
        await self._record("refused", {"path": path, "errors": errors})
        return _error(400, 50035, "Invalid Form Body", {"_errors": [{"code": "BASE_TYPE", "message": e}
                                                                    for e in errors]})

    # -- REST: login and commands -----------------------------------------------------------------
    async def me(self, _: web.Request) -> web.Response:
        return _json(BOT_USER)

    async def application(self, _: web.Request) -> web.Response:
        return _json({"id": str(APP_ID), "name": "Herald", "icon": None, "description": "", "bot_public": True,
                      "bot_require_code_grant": False, "owner": BOT_USER, "verify_key": "x", "flags": 0})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return _json({"url": f"ws://{request.host}/gateway", "shards": self.shard_count,
                      "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                              "max_concurrency": self.max_concurrency}})

    async def sync(self, request: web.Request) -> web.Response:
        commands = await request.json()
        await self._record("sync", [c["name"] for c in commands])
        return _json([dict(c, id=str(self.next_id()), application_id=str(APP_ID), version="1")
                      for c in commands])

    # -- REST: interactions -------------------------------------------------------------------------
    def _message(self, channel_id: int, body: dict[str, Any], files: list[dict[str, Any]]) -> dict[str, Any]:
        mid = self.next_id()
        attachments = [{"id": str(mid + i + 1), "filename": f["filename"], "size": f["size"],
                        "url": f"https://cdn.invalid/{mid}/{f['filename']}",
                        "proxy_url": f"https://cdn.invalid/{mid}/{f['filename']}"} for i, f in enumerate(files)]
        return {"id": str(mid), "channel_id": str(channel_id), "author": BOT_USER,
                "content": body.get("content") or "", "timestamp": NOW, "edited_timestamp": None, "tts": False,
                "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": attachments,
                "embeds": body.get("embeds") or [], "components": body.get("components") or [], "pinned": False,
                "type": 0, "flags": body.get("flags", 0) or 0, "nonce": body.get("nonce"),
                "allowed_mentions": body.get("allowed_mentions")}

    def _interaction(self, request: web.Request) -> Interaction | None:
        return self._by_token.get(request.match_info["token"])

    async def callback(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        state = self.interactions.get(request.match_info["iid"])
        if state is None or state.token != request.match_info["token"]:
            return _error(404, 10062, "Unknown interaction")
        if state.acked:
            await self._record("refused", {"path": "callback", "errors": ["already acknowledged"]})
            return _error(400, 40060, "Interaction has already been acknowledged.")
        refusal = await self._refuse("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                                     body)
        if refusal:
            return refusal
        state.acked, state.deferred = True, body["type"] in (5, 6)
        state.answer("callback", body)
        await self._record("callback", body)
        data = body.get("data") or {}
        out: dict[str, Any] = {"interaction": {"id": state.id, "type": 2,
                                               "response_message_loading": body["type"] == 5,
                                               "response_message_ephemeral": bool((data.get("flags") or 0) & 64)}}
        if body["type"] in (4, 5):
            message = self._message(CHANNEL_ID, data, files)
            out["interaction"]["response_message_id"] = message["id"]
            out["resource"] = {"type": body["type"], "message": message}
        return _json(out)

    async def followup(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        state = self._interaction(request)
        if state is None or not state.acked:
            return _error(404, 10015, "Unknown Webhook")
        refusal = await self._refuse("POST", "/webhooks/{webhook_id}/{webhook_token}", body)
        if refusal:
            return refusal
        state.answer("followup", body)
        await self._record("followup", body)
        return _json(self._message(CHANNEL_ID, body, files))

    async def edit_original(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        state = self._interaction(request)
        if state is None or not state.acked:
            return _error(404, 10015, "Unknown Webhook")
        refusal = await self._refuse("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                                     body)
        if refusal:
            return refusal
        state.answer("edit", body)
        await self._record("followup", body)  # what the user sees, as the old server logged it
        return _json(self._message(CHANNEL_ID, body, files))

    async def get_original(self, request: web.Request) -> web.Response:
        state = self._interaction(request)
        if state is None or not state.acked:
            return _error(404, 10008, "Unknown Message")
        edits = [b for k, b in state.answers if k in ("edit", "callback")]
        return _json(self._message(CHANNEL_ID, (edits[-1].get("data") or edits[-1]) if edits else {}, []))

    async def delete_original(self, _: web.Request) -> web.Response:
        return web.Response(status=204)

    # -- REST: channels, threads, messages --------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel | None:
        try:
            return self.channels.get(int(request.match_info["cid"]))
        except ValueError:
            return None

    async def message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        body, files = await self._body(request)
        refusal = await self._refuse("POST", "/channels/{channel_id}/messages", body)
        if refusal:
            return refusal
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            known = self._nonces.get(str(nonce))
            if known is not None and time.monotonic() - known[0] <= self.nonce_window:
                await self._record("nonce-hit", {"channel": str(channel.id), "nonce": nonce})
                return _json(known[1])
        message = self._message(channel.id, body, files)
        if nonce is not None:
            self._nonces[str(nonce)] = (time.monotonic(), message)
        channel.messages.append(message)
        self.message_count += 1
        await self._record("message", {"channel": str(channel.id), **body})
        return _json(message)

    async def messages(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages: newest first, `before`/`after` a message id, `limit` 1-100."""
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        q = request.query
        try:
            limit = int(q.get("limit", "50"))
            before, after = int(q.get("before", "0")) or None, int(q.get("after", "0")) or None
        except ValueError:
            return _error(400, 50035, "Invalid Form Body")
        if not 1 <= limit <= 100:
            return _error(400, 50035, "Invalid Form Body", {"limit": "must be 1-100"})
        found = [m for m in channel.messages if (before is None or int(m["id"]) < before)
                 and (after is None or int(m["id"]) > after)]
        found.sort(key=lambda m: int(m["id"]))
        # with `after`, Discord returns the messages just after it; otherwise the newest ones
        found = found[:limit] if after is not None and before is None else found[-limit:]
        return _json(list(reversed(found)))

    async def thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent is None or parent.type != 0:
            return _error(404, 10003, "Unknown Channel")
        body, _ = await self._body(request)
        refusal = await self._refuse("POST", "/channels/{channel_id}/threads", body)
        if refusal:
            return refusal
        thread = Channel(self.next_id(), parent.guild_id, body["name"], int(body.get("type", 11)), parent.id,
                         members={APP_ID})
        self.channels[thread.id] = thread
        await self._record("thread", body)
        return _json(thread.payload())

    async def add_member(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        if thread is None or thread.type not in (11, 12):
            return _error(404, 10003, "Unknown Channel")
        thread.members.add(int(request.match_info["uid"]))
        await self._record("member-added", {"thread": str(thread.id), "user": request.match_info["uid"]})
        return web.Response(status=204)

    async def remove_member(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        if thread is None or thread.type not in (11, 12):
            return _error(404, 10003, "Unknown Channel")
        thread.members.discard(int(request.match_info["uid"]))
        await self._record("member-removed", {"thread": str(thread.id), "user": request.match_info["uid"]})
        return web.Response(status=204)

    async def active_threads(self, request: web.Request) -> web.Response:
        gid = int(request.match_info["gid"])
        threads = [c for c in self.threads() if c.guild_id == gid]
        return _json({"threads": [t.payload() for t in threads],
                      "members": [{"id": str(t.id), "user_id": str(APP_ID), "join_timestamp": NOW, "flags": 0}
                                  for t in threads]})

    # -- gateway --------------------------------------------------------------------------------
    def _session_for(self, guild_id: int | None) -> Session:
        """The newest live connection that owns this guild's shard (DMs go to shard 0)."""
        for session in reversed(list(self.sessions.values())):
            if session.ws is None or session.ws.closed:
                continue
            shard_id, count = session.shard
            if (shard_of(guild_id, count) if guild_id else 0) == shard_id:
                return session
        raise AssertionError(f"no gateway connection serves guild {guild_id}")

    async def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": 0, "s": session.seq, "t": event, "d": data}
        session.sent.append(frame)
        assert session.ws is not None
        await session.ws.send_str(json.dumps(frame))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Push an event to the connection that serves its guild; interactions become answerable."""
        if event == "INTERACTION_CREATE":
            self.interactions[data["id"]] = self._by_token[data["token"]] = Interaction(data["id"], data["token"])
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        await self._send(self._session_for(guild_id), event, data)

    async def drop_gateway(self) -> None:
        """Close every gateway connection as a network failure would (code 1006-like): the bot resumes."""
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                await session.ws.close(code=4000, message=b"loopback: connection dropped")

    def forget_sessions(self) -> None:
        """From now on every RESUME is refused: the bot must IDENTIFY again."""
        self.sessions = {k: s for k, s in self.sessions.items() if s.ws is not None and not s.ws.closed}
        for session in self.sessions.values():
            session.id = f"forgotten-{session.id}"

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}}))
        async for msg in ws:
            packet = json.loads(msg.data)
            if packet["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif packet["op"] == 2:
                await self._identify(request, ws, packet["d"])
            elif packet["op"] == 6:
                await self._resume(ws, packet["d"])
        return ws

    async def _identify(self, request: web.Request, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        shard = tuple(d.get("shard") or (0, 1))
        bucket, now = int(shard[0]) % self.max_concurrency, time.monotonic()
        earlier = self.identify_times.setdefault(bucket, [])
        if self.identify_window is not None and earlier and now - earlier[-1] < self.identify_window:
            # real Discord closes the connection (4xxx) and, past the daily limit, resets the token
            self.refused.append(("IDENTIFY", "/gateway", list(shard), [
                f"bucket {bucket} identified again after {now - earlier[-1]:.2f}s (< {self.identify_window}s)"]))
        earlier.append(now)
        session = Session(f"loop-{len(self.sessions) + 1}", (int(shard[0]), int(shard[1])), ws)
        self.sessions[session.id] = session
        await self._record("identify", {"token": d["token"], "intents": d["intents"], "shard": list(shard),
                                        "session": session.id})
        mine = [g for g in self.guild_ids if shard_of(g, session.shard[1]) == session.shard[0]]
        await self._send(session, "READY", {
            "v": 10, "user": BOT_USER, "session_id": session.id, "shard": list(session.shard),
            "resume_gateway_url": f"ws://{request.host}/gateway",
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "application": {"id": str(APP_ID), "flags": 0}})
        for g in mine:
            await self._send(session, "GUILD_CREATE", guild(g, [self.text_channels[g]]))
        self.identified.set()

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        session = self.sessions.get(d.get("session_id", ""))
        await self._record("resume", {"session": d.get("session_id"), "known": session is not None})
        if session is None:
            await ws.send_str(json.dumps({"op": 9, "d": False}))  # invalid session: identify again
            return
        session.ws = ws
        for frame in [f for f in session.sent if f["s"] > int(d.get("seq") or 0)]:
            await ws.send_str(json.dumps(frame))
        await self._send(session, "RESUMED", {})


def guild(guild_id: int = GUILD_ID, channels: list[Channel] | None = None) -> dict[str, Any]:
    perms = str(discord.Permissions.all().value)
    if channels is None:
        channels = [Channel(CHANNEL_ID, GUILD_ID, "loopback")]
    return {"id": str(guild_id), "name": "Loopback", "owner_id": "1", "icon": None, "splash": None,
            "discovery_splash": None, "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "features": [], "mfa_level": 0,
            "application_id": None, "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
            "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "unavailable": False, "member_count": 1, "large": False,
            "joined_at": NOW, "emojis": [], "stickers": [], "voice_states": [], "presences": [], "threads": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "members": [{"user": BOT_USER, "roles": [], "joined_at": NOW, "deaf": False, "mute": False, "flags": 0}],
            "roles": [{"id": str(guild_id), "name": "@everyone", "color": 0, "hoist": False, "position": 0,
                       "permissions": perms, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [c.payload() for c in channels]}


_interaction_ids = itertools.count(7001)


def slash(name: str, options: list[dict[str, Any]], user_id: int = 77, token: str | None = None,
          guild_id: int = GUILD_ID, channel_id: int = CHANNEL_ID, username: str = "gm") -> dict[str, Any]:
    """An INTERACTION_CREATE payload for a slash command, each with a fresh interaction id and token."""
    iid = next(_interaction_ids)
    user = {"id": str(user_id), "username": username, "discriminator": "0", "global_name": username.title(),
            "avatar": None}
    return {"id": str(iid), "application_id": str(APP_ID), "type": 2, "token": token or f"itok-{iid}",
            "version": 1, "guild_id": str(guild_id), "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": "loopback",
                        "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None},
            "member": {"user": user, "roles": [], "joined_at": NOW, "deaf": False, "mute": False, "flags": 0,
                       "permissions": str(discord.Permissions.all().value)},
            "data": {"id": "9001", "name": name, "type": 1, "options": options, "guild_id": str(guild_id)},
            "locale": "en-US", "guild_locale": "en-US", "app_permissions": str(discord.Permissions.all().value),
            "entitlements": [], "authorizing_integration_owners": {"0": str(guild_id)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024}


def shown_text(message: dict[str, Any]) -> str:
    """What a person reads in a message: its text and its embeds' titles, descriptions, fields and footers."""
    parts = [message.get("content") or ""]
    for e in message.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
        parts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
    return "\n".join(p for p in parts if p)
