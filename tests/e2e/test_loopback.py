"""The real `herald run` process, unmodified, against a fake Discord on 127.0.0.1: it logs in, syncs its
commands, answers a slash command, and posts to the campaign thread through its outbox."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.e2e.discord_server import FakeDiscordServer, slash

TOKEN = "loopback-secret-token-4242"


@pytest.mark.slow
async def test_herald_run_answers_a_slash_command_over_loopback(tmp_path: Path) -> None:
    server = FakeDiscordServer()
    await server.start()
    env = {**os.environ, "DISCORD_TOKEN": TOKEN, "HERALD_DATA_DIR": str(tmp_path),
           "HERALD_DISCORD_API_BASE": f"http://127.0.0.1:{server.port}/api/v10",
           "HERALD_DISCORD_GATEWAY": f"ws://127.0.0.1:{server.port}/gateway", "HERALD_LOG_LEVEL": "DEBUG"}
    env.pop("HERALD_DATABASE_URL", None)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", env=env, cwd=tmp_path,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        identify = await server.wait_for("identify")
        assert identify["token"] == TOKEN
        synced = await server.wait_for("sync")
        assert {"campaign", "orders", "gm", "roll", "act", "map", "history", "sheet", "help"} <= set(synced)
        await server.dispatch("INTERACTION_CREATE", slash("campaign", [
            {"name": "create", "type": 1, "options": [{"name": "name", "type": 3, "value": "Loop"},
                                                       {"name": "ruleset", "type": 3, "value": "freeform"}]}]))
        deferred = await server.wait_for("callback")
        assert deferred["type"] == 5
        await server.wait_for("followup", "Created **Loop**")
        await server.wait_for("thread", "Loop")
        await server.wait_for("message", "a Freeform campaign run by")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            output, _ = await asyncio.wait_for(proc.communicate(), timeout=20)
        except TimeoutError:
            proc.kill()
            output, _ = await proc.communicate()
        await server.stop()
    log = output.decode(errors="replace")
    assert proc.returncode == 0, log
    assert "Traceback" not in log, log
    assert TOKEN not in log
    assert server.refused == []  # nothing Herald sent is what Discord would refuse
    assert (tmp_path / "herald.db").exists()
