"""The loopback fake Discord itself: it keeps what a bot posts, refuses what Discord refuses, forgets nonces
after its window, serves sharded gateway connections, and fails the way Discord's edge does, seeded."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route, handle_message_parameters

from tests.e2e.discord_server import CHANNEL_ID, GUILD_ID, FakeDiscordServer, shard_of, slash
from tests.e2e.faults import Faults


@pytest.fixture
async def http(server: FakeDiscordServer, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[discord.http.HTTPClient]:
    """discord.py's own HTTP client, pointed at the fake: its retries and errors are the real ones."""
    monkeypatch.setattr(Route, "BASE", server.base)
    client = discord.http.HTTPClient(asyncio.get_running_loop())
    await client.static_login("loopback-token")
    yield client
    await client.close()


async def send(http: discord.http.HTTPClient, content: str, *, nonce: str | None = None,
               channel: int = CHANNEL_ID) -> dict[str, Any]:
    with handle_message_parameters(content=content, nonce=nonce,
                                   allowed_mentions=discord.AllowedMentions.none()) as params:
        return await http.send_message(channel, params=params)  # type: ignore[return-value]


async def test_a_nonce_dedupes_only_within_its_window(server: FakeDiscordServer,
                                                      http: discord.http.HTTPClient) -> None:
    first = await send(http, "Turn 1 begins", nonce="h1.0")
    again = await send(http, "Turn 1 begins", nonce="h1.0")
    assert again["id"] == first["id"]
    assert server.duplicates() == []
    server.expire_nonces()
    late = await send(http, "Turn 1 begins", nonce="h1.0")
    assert late["id"] != first["id"]
    assert server.duplicates() == [(str(CHANNEL_ID), "Turn 1 begins|")]


async def test_a_zero_window_never_dedupes(http: discord.http.HTTPClient, server: FakeDiscordServer) -> None:
    server.nonce_window = 0.0
    await asyncio.sleep(0.001)
    a = await send(http, "x", nonce="n")
    await asyncio.sleep(0.01)
    b = await send(http, "x", nonce="n")
    assert a["id"] != b["id"]


async def test_recent_messages_page_newest_first(server: FakeDiscordServer, http: discord.http.HTTPClient) -> None:
    ids = [int((await send(http, f"post {i}"))["id"]) for i in range(5)]
    newest = await http.logs_from(CHANNEL_ID, 2)
    assert [m["content"] for m in newest] == ["post 4", "post 3"]
    after = await http.logs_from(CHANNEL_ID, 2, after=ids[1])
    assert [m["content"] for m in after] == ["post 3", "post 2"]
    before = await http.logs_from(CHANNEL_ID, 10, before=ids[2])
    assert [m["content"] for m in before] == ["post 1", "post 0"]


async def test_threads_are_channels_with_members_and_are_listed_active(server: FakeDiscordServer,
                                                                       http: discord.http.HTTPClient) -> None:
    data = await http.start_thread_without_message(CHANNEL_ID, name="Rome — GM", auto_archive_duration=10080,
                                                   type=12, invitable=False)
    thread = int(data["id"])
    await http.add_user_to_thread(thread, 77)
    await send(http, "private word", channel=thread)
    active = await http.get_active_threads(GUILD_ID)
    assert [t["name"] for t in active["threads"]] == ["Rome — GM"]
    assert server.channels[thread].members == {int(discord.Object(4_242_000_000_000_001).id), 77}
    await http.remove_user_from_thread(thread, 77)
    assert 77 not in server.channels[thread].members
    assert [m["content"] for m in server.channels[thread].messages] == ["private word"]
    with pytest.raises(discord.NotFound):
        await send(http, "nowhere", channel=123)


@pytest.mark.parametrize(("content", "why"), [("x" * 2001, "2000"), ("\r\n \r\n", "empty message")])
async def test_what_discord_refuses_is_refused_and_recorded(server: FakeDiscordServer,
                                                            http: discord.http.HTTPClient,
                                                            content: str, why: str) -> None:
    with pytest.raises(discord.HTTPException) as caught:
        await send(http, content)
    assert caught.value.status == 400
    assert caught.value.code == 50035
    assert why in json.dumps(server.refused)
    assert server.posts() == []


async def test_thread_names_and_archive_durations_are_checked(server: FakeDiscordServer,
                                                              http: discord.http.HTTPClient) -> None:
    with pytest.raises(discord.HTTPException):
        await http.start_thread_without_message(CHANNEL_ID, name="n" * 101, auto_archive_duration=10080,
                                                type=11)
    with pytest.raises(discord.HTTPException):
        await http.start_thread_without_message(CHANNEL_ID, name="ok", auto_archive_duration=30,  # type: ignore[arg-type]
                                                type=11)
    assert len(server.refused) == 2
    assert server.threads() == []


async def test_a_429_is_retried_by_discord_py_and_posts_once(server: FakeDiscordServer,
                                                             http: discord.http.HTTPClient) -> None:
    server.faults.script("post-message", "429", times=2)
    await send(http, "after the rate limit")
    assert [m["content"] for m in server.posts()] == ["after the rate limit"]
    assert server.faults.injected["429"] == 2


async def test_a_lost_response_was_still_performed(server: FakeDiscordServer,
                                                   http: discord.http.HTTPClient) -> None:
    server.faults.script("post-message", "lost")
    with pytest.raises(aiohttp.ClientError):
        await send(http, "did it go?")
    assert [m["content"] for m in server.posts()] == ["did it go?"]


async def test_a_reset_before_the_call_performs_nothing(server: FakeDiscordServer,
                                                        http: discord.http.HTTPClient) -> None:
    server.faults.script("post-message", "reset-before")
    with pytest.raises(aiohttp.ClientError):
        await send(http, "never")
    assert server.posts() == []
    server.faults.script("post-message", "reset-after")
    with pytest.raises(aiohttp.ClientError):
        await send(http, "performed, then reset")
    assert [m["content"] for m in server.posts()] == ["performed, then reset"]


async def test_a_503_fails_the_call_without_performing_it(server: FakeDiscordServer,
                                                          http: discord.http.HTTPClient) -> None:
    server.faults.script("create-thread", "503")
    with pytest.raises(discord.DiscordServerError):
        await http.start_thread_without_message(CHANNEL_ID, name="t", auto_archive_duration=60,
                                                type=11)
    assert server.threads() == []


def test_random_faults_are_seeded_and_hit_about_the_rate() -> None:
    a, b = Faults(seed=7, rate=0.3), Faults(seed=7, rate=0.3)
    picks = [a.pick("post-message") for _ in range(2000)]
    assert picks == [b.pick("post-message") for _ in range(2000)]
    failed = sum(p is not None for p in picks)
    assert 500 < failed < 700
    assert {p for p in picks if p} == {"lost", "reset-before", "reset-after", "429", "500", "502", "503"}
    assert all(a.pick("callback") is None for _ in range(100))  # interactions are not failed at random


# -- the gateway -------------------------------------------------------------------------------------
async def _connect(session: aiohttp.ClientSession, server: FakeDiscordServer,
                   shard: list[int] | None) -> tuple[aiohttp.ClientWebSocketResponse, list[dict[str, Any]]]:
    ws = await session.ws_connect(f"ws://127.0.0.1:{server.port}/gateway")
    hello = await ws.receive_json()
    assert hello["op"] == 10
    identify: dict[str, Any] = {"token": "t", "intents": 1, "properties": {}}
    if shard is not None:
        identify["shard"] = shard
    await ws.send_json({"op": 2, "d": identify})
    frames = [await ws.receive_json()]
    while len(frames) < 1 + len(frames[0]["d"]["guilds"]):
        frames.append(await ws.receive_json())
    return ws, frames


async def test_each_shard_connection_gets_its_own_session_and_guilds() -> None:
    guilds = [g << 22 for g in (10, 11, 12)]  # shards 0, 1, 0 of 2
    assert [shard_of(g, 2) for g in guilds] == [0, 1, 0]
    server = FakeDiscordServer(guild_ids=tuple(guilds))
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            ws0, frames0 = await _connect(session, server, [0, 2])
            ws1, frames1 = await _connect(session, server, [1, 2])
            assert frames0[0]["d"]["session_id"] != frames1[0]["d"]["session_id"]
            assert [f["d"]["id"] for f in frames0[1:]] == [str(guilds[0]), str(guilds[2])]
            assert [f["d"]["id"] for f in frames1[1:]] == [str(guilds[1])]
            await server.dispatch("INTERACTION_CREATE", slash("ping", [], guild_id=guilds[1]))
            event = await ws1.receive_json()
            assert (event["t"], event["d"]["guild_id"]) == ("INTERACTION_CREATE", str(guilds[1]))
            await ws0.close()
            await ws1.close()
    finally:
        await server.stop()


async def test_resume_replays_what_was_missed_and_unknown_sessions_are_refused(server: FakeDiscordServer) -> None:
    async with aiohttp.ClientSession() as session:
        ws, frames = await _connect(session, server, None)
        sid, seq = frames[0]["d"]["session_id"], frames[-1]["s"]
        await ws.close()
        missed = slash("ping", [])
        server.sessions[sid].ws = None
        server.sessions[sid].sent.append({"op": 0, "s": seq + 1, "t": "INTERACTION_CREATE", "d": missed})
        server.sessions[sid].seq = seq + 1
        ws = await session.ws_connect(f"ws://127.0.0.1:{server.port}/gateway")
        await ws.receive_json()
        await ws.send_json({"op": 6, "d": {"token": "t", "session_id": sid, "seq": seq}})
        replayed, resumed = await ws.receive_json(), await ws.receive_json()
        assert (replayed["t"], replayed["d"]["id"], resumed["t"]) == ("INTERACTION_CREATE", missed["id"], "RESUMED")
        await ws.close()
        ws = await session.ws_connect(f"ws://127.0.0.1:{server.port}/gateway")
        await ws.receive_json()
        await ws.send_json({"op": 6, "d": {"token": "t", "session_id": "no-such-session", "seq": 1}})
        assert await ws.receive_json() == {"op": 9, "d": False}
        await ws.close()


async def test_interactions_are_acknowledged_once(server: FakeDiscordServer) -> None:
    async with aiohttp.ClientSession() as session:
        ws, _ = await _connect(session, server, None)
        event = slash("ping", [])
        await server.dispatch("INTERACTION_CREATE", event)
        url = f"{server.base}/interactions/{event['id']}/{event['token']}/callback"
        async with session.post(url, json={"type": 5}) as first:
            assert first.status == 200
        async with session.post(url, json={"type": 4, "data": {"content": "late"}}) as second:
            assert (second.status, (await second.json())["code"]) == (400, 40060)
        assert server.visible_answers(event["id"]) == 0  # deferred: "thinking…"
        async with session.patch(f"{server.base}/webhooks/1/{event['token']}/messages/@original",
                                 json={"content": "done", "allowed_mentions": {"parse": []}}) as edit:
            assert edit.status == 200
        assert server.visible_answers(event["id"]) == 1
        await ws.close()
