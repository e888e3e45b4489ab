"""A database upgraded by a newer Herald is refused at start with one clear sentence, before anything touches it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import migrate
from bot.store.db import Database

ROOT = Path(__file__).resolve().parents[2]


async def _from_the_future(db: Database) -> None:
    async with db.writer.begin() as conn:
        await conn.exec_driver_sql("UPDATE alembic_version SET version_num = '9999_from_the_future'")


async def test_upgrade_refuses_a_revision_it_does_not_know(fresh_db: Database) -> None:
    await _from_the_future(fresh_db)
    with pytest.raises(migrate.NewerDatabase, match=r"upgraded by a newer Herald \(schema revision "
                                                    r"9999_from_the_future\); run that version or restore a backup"):
        await migrate.upgrade(fresh_db)
    assert await migrate.current(fresh_db) == "9999_from_the_future"  # untouched


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["run"], ["db", "upgrade"], ["console", "--database", "{url}"]])
async def test_herald_exits_with_one_sentence_and_no_traceback(tmp_path: Path, argv: list[str]) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/herald.db"
    db = Database(url)
    await migrate.upgrade(db)
    await _from_the_future(db)
    await db.dispose()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HERALD_DATABASE_URL": url, "DISCORD_TOKEN": "not-a-real-token",
           "HERALD_DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}  # never reached: refused before connecting
    if argv[0] == "console":
        del env["DISCORD_TOKEN"]
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot", *(a.format(url=url) for a in argv)], env=env,
        capture_output=True, text=True, timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr + done.stdout
    lines = [line for line in done.stderr.splitlines() if "newer Herald" in line]
    assert lines == ["✘ This database was upgraded by a newer Herald (schema revision 9999_from_the_future); "
                     "run that version or restore a backup."], done.stderr
