"""SQLite has one writer: a second real `herald run` on the same data directory is refused with a clear
message, and once the first has stopped, the file is free again."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.e2e.discord_server import FakeDiscordServer
from tests.e2e.herald_process import TOKEN, Herald

pytestmark = pytest.mark.slow


async def second_run(server: FakeDiscordServer, data_dir: Path) -> tuple[int, str]:
    env = {**os.environ, "DISCORD_TOKEN": TOKEN, "HERALD_DATA_DIR": str(data_dir),
           "HERALD_DISCORD_API_BASE": server.base, "HERALD_DISCORD_GATEWAY": f"ws://127.0.0.1:{server.port}/gateway",
           "HERALD_SYNC_COMMANDS": "false"}
    env.pop("HERALD_DATABASE_URL", None)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", env=env, cwd=data_dir,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output, _ = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, output.decode(errors="replace")


async def test_a_second_process_on_one_sqlite_file_is_refused(server: FakeDiscordServer, tmp_path: Path) -> None:
    first = Herald(server, tmp_path)
    await first.start()
    identified = len(server.sessions)
    code, output = await second_run(server, tmp_path)
    assert code == 3, output
    assert "is already in use by Herald (pid" in output
    assert "use PostgreSQL" in output
    assert "Traceback" not in output
    assert len(server.sessions) == identified  # it never reached the gateway

    assert "Created **Still mine**" in await first.run("campaign", "create", name="Still mine", ruleset="freeform")
    log = await first.stop()
    assert "Traceback" not in log, log[-3000:]

    again = Herald(server, tmp_path)  # the lock went with the process: the file is free
    await again.start()
    assert "Still mine" in await again.run("campaign", "list")
    await again.stop()
