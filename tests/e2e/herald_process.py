"""The real `herald run` process against the loopback Discord: start it (optionally set to kill itself at a
crash point), drive slash commands through the gateway, and stop it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

from tests.e2e.discord_server import GUILD_ID, FakeDiscordServer, slash

TOKEN = "loopback-secret-token-4242"
GM, LIVIA, HANNO = 77, 78, 79
NAMES = {GM: "gaius", LIVIA: "livia", HANNO: "hanno"}


class Herald:
    """One data directory, run as many times as a test likes (each run a fresh `python -m bot run`)."""

    def __init__(self, server: FakeDiscordServer, data_dir: Path, *, database_url: str | None = None,
                 shards: tuple[int, ...] | None = None, **env: str) -> None:
        """`database_url`: PostgreSQL shared with other processes (default: SQLite in `data_dir`); `shards`: the
        shards this process owns (HERALD_SHARD_IDS; HERALD_SHARD_COUNT is the server's count)."""
        self.server, self.data_dir, self.env = server, data_dir, env
        self.database_url, self.shards = database_url, shards
        self.proc: asyncio.subprocess.Process | None = None
        self.logs: list[str] = []

    async def start(self, crash_at: str | None = None, timeout: float = 120) -> None:  # noqa: ASYNC109
        env = {**os.environ, "DISCORD_TOKEN": TOKEN, "HERALD_DATA_DIR": str(self.data_dir),
               "HERALD_DISCORD_API_BASE": self.server.base,
               "HERALD_DISCORD_GATEWAY": f"ws://127.0.0.1:{self.server.port}/gateway",
               "HERALD_SYNC_COMMANDS": "false", **self.env}
        env.pop("HERALD_DATABASE_URL", None)
        env.pop("HERALD_CRASH_AT", None)
        if self.database_url:
            env["HERALD_DATABASE_URL"] = self.database_url
        if self.shards is not None:
            env["HERALD_SHARD_COUNT"] = str(self.server.shard_count)
            env["HERALD_SHARD_IDS"] = ",".join(map(str, self.shards))
        if crash_at:
            env["HERALD_CRASH_AT"] = crash_at
        before = set(self.server.sessions)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", env=env, cwd=self.data_dir,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)

        def connected() -> bool:
            new = [s for k, s in self.server.sessions.items() if k not in before]
            if self.shards is None:
                return bool(new)
            return {s.shard[0] for s in new} >= set(self.shards)

        # shards identify 5 s apart per bucket, across processes: a few shards take a while
        await self.server.wait_until(lambda: connected() or self._dead(), timeout=timeout)
        assert not self._dead(), "herald exited before connecting"

    def _dead(self) -> bool:
        return self.proc is not None and self.proc.returncode is not None

    async def killed(self, timeout: float = 60) -> str:  # noqa: ASYNC109
        """Wait for the process to die by its own SIGKILL (a crash point); its output."""
        assert self.proc is not None
        output, _ = await asyncio.wait_for(self.proc.communicate(), timeout)
        self.logs.append(output.decode(errors="replace"))
        assert self.proc.returncode == -signal.SIGKILL, self.logs[-1][-3000:]
        return self.logs[-1]

    async def stop(self) -> str:
        """Stop it as `docker stop` would; its output."""
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            output, _ = await asyncio.wait_for(self.proc.communicate(), timeout=30)
        except TimeoutError:
            self.proc.kill()
            output, _ = await self.proc.communicate()
        self.logs.append(output.decode(errors="replace"))
        return self.logs[-1]

    async def command(self, group: str, sub: str | None = None, *, user: int = GM, guild: int = GUILD_ID,
                      **options: Any) -> str:
        """Dispatch `/group sub option:value…` (`sub` may be "subgroup sub") from `user` in `guild`'s channel;
        the interaction id."""
        opts = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]
        if sub is not None:  # "deadline set": a subcommand of a subcommand group
            *group_name, leaf = sub.split()
            opts = [{"name": leaf, "type": 1, "options": opts}]
            if group_name:
                opts = [{"name": group_name[0], "type": 2, "options": opts}]
        event = slash(group, opts, user_id=user, username=NAMES.get(user, "player"), guild_id=guild,
                      channel_id=self.server.channel_of(guild))
        await self.server.dispatch("INTERACTION_CREATE", event)
        return str(event["id"])

    async def answer(self, interaction_id: str, timeout: float = 60) -> str:  # noqa: ASYNC109
        """Wait for the interaction's visible answer; its text."""
        await self.server.wait_until(lambda: self.server.visible_answers(interaction_id) >= 1, timeout=timeout)
        return "\n".join(t for t in self.server.answer_texts(interaction_id) if t)

    async def run(self, group: str, sub: str | None = None, *, user: int = GM, guild: int = GUILD_ID,
                  **options: Any) -> str:
        """A command and its answer, as a person would see it before typing the next one."""
        interaction_id = await self.command(group, sub, user=user, guild=guild, **options)
        text = await self.answer(interaction_id)
        await self.settled(interaction_id)
        return text

    async def settled(self, interaction_id: str, timeout: float = 30) -> None:  # noqa: ASYNC109
        """Wait until Herald has recorded that its answer arrived (its receipt, for a command that changes
        something): a person is never quick enough to type the next command in between."""
        query = "SELECT count(*) FROM receipt WHERE interaction_id = ? AND NOT answered"
        async with asyncio.timeout(timeout):
            while True:
                if self.database_url:
                    rows = await pg_fetch(self.database_url, query.replace("?", "$1"), int(interaction_id))
                    if not rows[0][0]:
                        return
                else:
                    with sqlite3.connect(self.data_dir / "herald.db") as db:
                        if not db.execute(query, (int(interaction_id),)).fetchone()[0]:
                            return
                await asyncio.sleep(0.05)

    def json_lines(self) -> list[dict[str, Any]]:
        """Every JSON log line of every run so far (HERALD_LOG_FORMAT=json)."""
        out = []
        for text in self.logs:
            for line in text.splitlines():
                if line.startswith("{"):
                    with contextlib.suppress(ValueError):
                        out.append(json.loads(line))
        return out


async def pg_fetch(url: str, query: str, *args: Any) -> list[Any]:
    """One query on PostgreSQL, outside Herald (asyncpg's own URL form)."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        return list(await conn.fetch(query, *args))
    finally:
        await conn.close()
