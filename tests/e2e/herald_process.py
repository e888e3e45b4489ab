"""The real `herald run` process against the loopback Discord: start it (optionally set to kill itself at a
crash point), drive slash commands through the gateway, and stop it."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

from tests.e2e.discord_server import FakeDiscordServer, slash

TOKEN = "loopback-secret-token-4242"
GM, LIVIA, HANNO = 77, 78, 79
NAMES = {GM: "gaius", LIVIA: "livia", HANNO: "hanno"}


class Herald:
    """One data directory, run as many times as a test likes (each run a fresh `python -m bot run`)."""

    def __init__(self, server: FakeDiscordServer, data_dir: Path, **env: str) -> None:
        self.server, self.data_dir, self.env = server, data_dir, env
        self.proc: asyncio.subprocess.Process | None = None
        self.logs: list[str] = []

    async def start(self, crash_at: str | None = None) -> None:
        env = {**os.environ, "DISCORD_TOKEN": TOKEN, "HERALD_DATA_DIR": str(self.data_dir),
               "HERALD_DISCORD_API_BASE": self.server.base,
               "HERALD_DISCORD_GATEWAY": f"ws://127.0.0.1:{self.server.port}/gateway",
               "HERALD_SYNC_COMMANDS": "false", **self.env}
        env.pop("HERALD_DATABASE_URL", None)
        env.pop("HERALD_CRASH_AT", None)
        if crash_at:
            env["HERALD_CRASH_AT"] = crash_at
        sessions = len(self.server.sessions)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", env=env, cwd=self.data_dir,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        await self.server.wait_until(lambda: len(self.server.sessions) > sessions or self._dead(), timeout=60)
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

    async def command(self, group: str, sub: str | None = None, *, user: int = GM, **options: Any) -> str:
        """Dispatch `/group sub option:value…` from `user`; the interaction id."""
        opts = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]
        if sub is not None:
            opts = [{"name": sub, "type": 1, "options": opts}]
        event = slash(group, opts, user_id=user, username=NAMES.get(user, "player"))
        await self.server.dispatch("INTERACTION_CREATE", event)
        return str(event["id"])

    async def answer(self, interaction_id: str, timeout: float = 60) -> str:  # noqa: ASYNC109
        """Wait for the interaction's visible answer; its text."""
        await self.server.wait_until(lambda: self.server.visible_answers(interaction_id) >= 1, timeout=timeout)
        return "\n".join(t for t in self.server.answer_texts(interaction_id) if t)

    async def run(self, group: str, sub: str | None = None, *, user: int = GM, **options: Any) -> str:
        """A command and its answer, as a person would see it before typing the next one."""
        interaction_id = await self.command(group, sub, user=user, **options)
        text = await self.answer(interaction_id)
        await self.settled(interaction_id)
        return text

    async def settled(self, interaction_id: str, timeout: float = 30) -> None:  # noqa: ASYNC109
        """Wait until Herald has recorded that its answer arrived (its receipt, for a command that changes
        something): a person is never quick enough to type the next command in between."""
        query = "SELECT count(*) FROM receipt WHERE interaction_id = ? AND NOT answered"
        async with asyncio.timeout(timeout):
            while True:
                with sqlite3.connect(self.data_dir / "herald.db") as db:
                    if not db.execute(query, (int(interaction_id),)).fetchone()[0]:
                        return
                await asyncio.sleep(0.05)
