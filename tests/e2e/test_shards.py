"""Three real `herald run` processes on one PostgreSQL, each owning one of three shards of a fake Discord that
routes each guild's events to the connection of its shard ((guild_id >> 22) % 3).

What an operator and the players would notice: every command is answered, by the process that owns the
guild's shard; shards identify at Discord's pace across processes; one process registers the commands; a
process killed with kill -9 in the middle of sending a post leaves nothing lost and nothing twice (the others
finish its post and fire its timers); restarted, it serves its shard again."""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import PG_URL
from tests.e2e.discord_server import FakeDiscordServer, shard_of, shown_text
from tests.e2e.herald_process import LIVIA, Herald, pg_fetch

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
SHARDS = 3
GUILDS = tuple(((900 + k) << 22) + 7 for k in range(6))  # two guilds on each shard


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A database of its own (the processes migrate it themselves, together), dropped afterwards."""
    import asyncpg

    name = f"herald_e2e_{secrets.token_hex(4)}"
    admin_url = PG_URL.replace("postgresql+asyncpg://", "postgresql://")
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f"CREATE DATABASE {name}")
    await admin.close()
    yield PG_URL.rsplit("/", 1)[0] + "/" + name
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    await admin.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def in_guild(server: FakeDiscordServer, guild: int, needle: str) -> list[str]:
    """The text of every post in the guild's channels and threads containing `needle`."""
    return [text for c in server.channels.values() if c.guild_id == guild
            for m in c.messages if needle in (text := shown_text(m))]


async def posted(server: FakeDiscordServer, guild: int, needle: str, timeout: float = 60) -> None:  # noqa: ASYNC109
    try:
        await server.wait_until(lambda: bool(in_guild(server, guild, needle)), timeout=timeout)
    except TimeoutError:
        raise AssertionError(f"never posted in {guild}: {needle!r}; it has {in_guild(server, guild, '')}") from None


async def drained(url: str, timeout: float = 60) -> None:  # noqa: ASYNC109
    """Wait until every post is recorded as sent."""
    async with asyncio.timeout(timeout):
        while (await pg_fetch(url, "SELECT count(*) FROM outbox WHERE sent_at IS NULL"))[0][0]:  # noqa: ASYNC110
            # another process's database: nothing to wait on but time
            await asyncio.sleep(0.2)


async def test_three_processes_share_the_shards_and_finish_a_killed_ones_work(pg_url: str, tmp_path: Path) -> None:
    # heartbeats every second (Discord: ~41 s), so each shard has a measured latency by the time it is scraped
    server = FakeDiscordServer(guild_ids=GUILDS, shard_count=SHARDS, max_concurrency=1, identify_window=5.0,
                               heartbeat_ms=1000)
    await server.start()
    heralds = []
    port = free_port()
    for shard in range(SHARDS):
        (tmp_path / f"p{shard}").mkdir()
        ops = {"HERALD_METRICS_PORT": str(port)} if shard == 0 else {}
        heralds.append(Herald(server, tmp_path / f"p{shard}", database_url=pg_url, shards=(shard,),
                              HERALD_OUTBOX_LEASE="2", HERALD_POLL="1", HERALD_LOG_FORMAT="json",
                              HERALD_SYNC_COMMANDS="true", **ops))
    owner = {g: heralds[shard_of(g, SHARDS)] for g in GUILDS}
    asked: dict[str, int] = {}  # interaction id -> guild
    try:
        await asyncio.gather(*(h.start() for h in heralds))  # one migrates, the others wait for it
        for i, g in enumerate(GUILDS):
            for group, sub, user, options in (("campaign", "create", None, {"name": f"Realm {i}",
                                                                            "ruleset": "freeform"}),
                                              ("campaign", "join", LIVIA, {"seat": "Rome"}),
                                              ("campaign", "start", None, {})):
                iid = await owner[g].command(group, sub, guild=g, **({"user": user} if user else {}), **options)
                asked[iid] = g
                assert (await owner[g].answer(iid)).strip()
                await owner[g].settled(iid)
            await posted(server, g, "Turn 1 — orders**: orders are open")

        # the operator's view of process 0: healthy, serving shard 0, its commands counted
        async with aiohttp.ClientSession() as http:
            for _ in range(60):  # as a HEALTHCHECK does: ready once the shard's guilds have all arrived
                async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                    health = (response.status, await response.text())
                if health[0] == 200:
                    break
                await asyncio.sleep(0.5)
            assert health[0] == 200, health[1]
            assert json.loads(health[1])["shards"] == [0]
            async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
                scraped = await response.text()
        samples = {f"{s.name}{sorted(s.labels.items())}": s.value for family in text_string_to_metric_families(scraped)
                   for s in family.samples}
        assert samples["herald_commands_total[('command', 'campaign create'), ('outcome', 'ok')]"] == 2
        assert samples["herald_command_seconds_count[('command', 'campaign start')]"] == 2
        assert 0 <= samples["herald_shard_latency_seconds[('shard', '0')]"] < 5  # a heartbeat's round trip
        assert "herald_shard_latency_seconds[('shard', '1')]" not in samples  # another process's shard
        assert samples["herald_shards_connected[]"] == 1
        assert samples["herald_posts_sent_total[]"] > 0  # most of its guilds' posts (another process may take some)
        assert samples["herald_event_loop_lag_count[]"] > 0

        victim = heralds[1]
        doomed, timed = [g for g in GUILDS if owner[g] is victim]
        due = (datetime.now(UTC) + timedelta(seconds=65)).strftime("%Y-%m-%d %H:%M:%S")  # a deadline is 1m+ away
        assert "Deadline" in await victim.run("gm", "deadline set", guild=timed, when=due)
        await drained(pg_url)  # every post so far delivered: the next post the victim sends is the note below
        await victim.stop()
        await victim.start(crash_at="after-send")  # dies right after Discord took its next post
        asked[await victim.command("gm", "note", guild=doomed, text="a word while dying")] = doomed
        await victim.killed()
        # the others see the dead claim, find the post already in the channel, and record it: shown once
        await posted(server, doomed, "a word while dying")
        await drained(pg_url)  # by the survivors: the victim is still dead
        await posted(server, timed, "has passed", timeout=150)  # its timer, fired by another process

        await victim.start()  # its shard is served again
        iid = await victim.command("gm", "note", guild=timed, text="back again")
        asked[iid] = timed
        assert "Note posted" in await victim.answer(iid)
        await posted(server, timed, "back again")
        for g in GUILDS:  # every guild still answered after the restart
            iid = await owner[g].command("campaign", "list", guild=g)
            asked[iid] = g
            assert "Realm" in await owner[g].answer(iid)

        await drained(pg_url)
    finally:
        logs = [await h.stop() if h.proc else "" for h in heralds]
        await server.stop()

    for log in logs:
        assert "Traceback" not in log, log[-3000:]
    assert server.duplicates() == [], server.duplicates()
    assert all(n == 1 for n in Counter((t.parent_id, t.name) for t in server.threads()).values())
    assert server.refused == [], server.refused  # including IDENTIFY faster than Discord allows
    assert [k for k, _ in server.log].count("sync") == 1  # only shard 0's process registered the commands
    assert {tuple(s.shard) for s in server.sessions.values()} == {(0, 3), (1, 3), (2, 3)}
    for g in GUILDS:
        assert len(in_guild(server, g, "Turn 1 — orders**: orders are open")) == 1
    assert len(in_guild(server, timed, "has passed; the GM will advance")) == 1  # fired once

    # the right process answered each command: its JSON log line names the command, guild, shard and latency
    answered: dict[str, int] = {}
    for shard, herald in enumerate(heralds):
        for line in herald.json_lines():
            if line.get("logger") == "bot.commands":
                assert shard_of(int(line["guild_id"]), SHARDS) == shard == line["shard_id"], line
                assert line["outcome"] in ("ok", "refused") and line["latency_ms"] >= 0, line
                answered[str(line["interaction_id"])] = int(line["guild_id"])
    assert {i: g for i, g in asked.items() if i in answered} == {i: answered[i] for i in asked if i in answered}
    assert set(asked) - set(answered) <= {iid for iid, g in asked.items() if g == doomed}  # the killed one's
    survivors = [line["message"] for h in (heralds[0], heralds[2]) for line in h.json_lines()]
    assert any("was already in the channel: adopted" in m for m in survivors)  # the killed one's post, not resent
    notes = [line for h in heralds for line in h.json_lines() if line.get("command") == "gm note"]
    assert notes and all("campaign_id" in line for line in notes), notes
