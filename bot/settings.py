"""Settings from the environment or a `.env` file. The token is a secret and never logged."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
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

    @property
    def url(self) -> str:
        """The database URL: HERALD_DATABASE_URL, or SQLite in the data directory."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'herald.db').resolve()}"
