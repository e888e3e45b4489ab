"""What the Docker image and compose.yaml run, checked without Docker (this machine has no daemon): the image's
HEALTHCHECK command against a real health server, compose's processes against the real settings and CLI, and the
wheel the image installs against the files Herald reads at run time."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from bot.__main__ import main
from bot.ops import health
from bot.settings import Settings
from bot.store.db import Database

ROOT = Path(__file__).parents[2]


def healthcheck_command() -> list[str]:
    """The exec form of the Dockerfile's HEALTHCHECK CMD (its continuation lines joined)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    found = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])\s*$", text, re.MULTILINE)
    assert found, "the Dockerfile has a HEALTHCHECK with an exec-form CMD"
    return list(json.loads(found[1]))


async def exit_code(command: list[str], port: int) -> int:
    env = {**os.environ, "HERALD_METRICS_PORT": str(port)}
    if command[0] == "python":
        command = [sys.executable, *command[1:]]
    proc = await asyncio.create_subprocess_exec(*command, env=env, stdout=asyncio.subprocess.DEVNULL,
                                                stderr=asyncio.subprocess.DEVNULL)
    return await proc.wait()


async def test_the_images_healthcheck_passes_only_while_herald_is_healthy(sqlite_db: Database) -> None:
    state = health.Shards(owned=[0], latency={0: 0.05}, ready=True)
    server = health.OpsServer(health.Health(sqlite_db, lambda: state), "127.0.0.1", 0)
    await server.start()
    try:
        command = healthcheck_command()
        assert await exit_code(command, server.port) == 0
        state = health.Shards(owned=[0], latency={0: None}, ready=True)  # its shard lost the gateway
        assert await exit_code(command, server.port) != 0
    finally:
        await server.stop()
    assert await exit_code(command, server.port) != 0  # nothing listening: unhealthy too


def test_compose_gives_every_shard_to_one_process_with_settings_herald_reads() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    shards = [s for name, s in services.items() if name.startswith("herald-")]
    assert len(shards) >= 2
    known = {f"HERALD_{field.upper()}" for field in Settings.model_fields} | {"DISCORD_TOKEN"}
    owned: list[int] = []
    for service in shards:
        env = service["environment"]
        assert set(env) <= known, set(env) - known  # a misspelt setting would be silently ignored
        settings = Settings.model_validate({k.removeprefix("HERALD_").lower(): v for k, v in env.items()
                                            if k != "DISCORD_TOKEN"})
        assert settings.shard_count == int(env["HERALD_SHARD_COUNT"])
        owned += [int(i) for i in str(env["HERALD_SHARD_IDS"]).split(",")]
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert sorted(owned) == list(range(int(shards[0]["environment"]["HERALD_SHARD_COUNT"])))  # each shard once
    # the one-shot migration runs a real command of the CLI the image installs
    command = services["migrate"]["command"]
    assert command[0] == "herald"
    result = CliRunner().invoke(main, [*command[1:], "--help"])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_the_wheel_the_image_installs_carries_every_file_herald_reads(tmp_path: Path) -> None:
    """The Dockerfile installs a wheel of the tree: the fonts, rulebook tables, migrations and specs go with it."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    wheel = next(tmp_path.glob("herald-*.whl"))
    shipped = set(zipfile.ZipFile(wheel).namelist())
    wanted = {str(p.relative_to(ROOT)) for top in ("bot", "engine", "migrations") for p in (ROOT / top).rglob("*")
              if p.is_file() and p.suffix in (".py", ".toml", ".csv", ".json", ".ttf", ".txt", ".mako")
              and "__pycache__" not in p.parts}
    assert wanted - shipped == set()
