"""Settings from the environment or a `.env` file. The token is a secret and never logged."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HERALD_", env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore")

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    data_dir: Path = Path("data")
    database_url: str | None = None
    log_level: str = "INFO"
    gm_role: str = "GM"
    sync_commands: bool = True
    # Running at scale: several processes on one PostgreSQL, each owning some of Discord's shards.
    shard_count: int | None = Field(default=None, ge=1)  # None: one process, Discord's recommended count
    shard_ids: str = "auto"  # "auto" (every shard) or a list like "0,1" or "0-3"
    log_format: Literal["text", "json"] = "text"
    metrics_port: int | None = Field(default=None, ge=0, le=65535)  # /healthz and /metrics; None: off
    metrics_host: str = "127.0.0.1"  # 0.0.0.0 inside a container, so its health check and Prometheus reach it
    poll: float = Field(default=30.0, gt=0)  # seconds: how often to look for posts and timers other processes left
    # A fake Discord for tests and local runs; never set these against the real one.
    discord_api_base: str | None = None
    discord_gateway: str | None = None

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        value = value.upper()
        if value not in ("DEBUG", "INFO", "WARNING", "ERROR"):
            raise ValueError("log level is DEBUG, INFO, WARNING or ERROR")
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids_shape(cls, value: str) -> str:
        value = value.strip().lower()
        if value != "auto":
            _parse_ids(value)
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        ids = self.shards
        if ids is not None and self.shard_count is None:
            raise ValueError("HERALD_SHARD_IDS lists shards: set HERALD_SHARD_COUNT too")
        if ids is not None and self.shard_count is not None and max(ids) >= self.shard_count:
            raise ValueError(f"HERALD_SHARD_IDS names shard {max(ids)}, but HERALD_SHARD_COUNT is "
                             f"{self.shard_count} (shards are numbered from 0)")
        return self

    @property
    def shards(self) -> list[int] | None:
        """The shards this process owns, or None for every one (`auto`)."""
        return None if self.shard_ids == "auto" else _parse_ids(self.shard_ids)

    @property
    def url(self) -> str:
        """The database URL: HERALD_DATABASE_URL, or SQLite in the data directory."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'herald.db').resolve()}"


def _parse_ids(text: str) -> list[int]:
    """ "0,1,4-6" -> [0, 1, 4, 5, 6]; a clear error for anything else."""
    ids: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        first, dash, last = part.partition("-")
        try:
            low, high = int(first), int(last if dash else first)
        except ValueError:
            raise ValueError(f"HERALD_SHARD_IDS is `auto` or shard numbers like 0,1 or 0-3, not {text!r}") from None
        if low < 0 or high < low:
            raise ValueError(f"HERALD_SHARD_IDS: {part!r} is not a shard range")
        ids.update(range(low, high + 1))
    return sorted(ids)
