"""Upgrade or downgrade the schema with Alembic, inside Herald's own connection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

import migrations
from bot.store.db import Database


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def _run(connection: Any, db_url: str, direction: str, revision: str) -> None:
    cfg = alembic_config(db_url)
    cfg.attributes["connection"] = connection
    getattr(command, direction)(cfg, revision)


class NewerDatabase(Exception):
    """The database carries a schema revision this build of Herald has never heard of."""


def known_revisions(db_url: str) -> set[str]:
    return {r.revision for r in ScriptDirectory.from_config(alembic_config(db_url)).walk_revisions()}


async def refuse_newer(db: Database) -> None:
    """Stop before touching a database that a newer Herald upgraded: this code would misread it."""
    revision = await current(db)
    if revision is not None and revision not in known_revisions(db.url):
        raise NewerDatabase(f"This database was upgraded by a newer Herald (schema revision {revision}); "
                            f"run that version or restore a backup.")


async def upgrade(db: Database, revision: str = "head") -> None:
    await refuse_newer(db)
    async with db.writer.connect() as conn:
        await conn.run_sync(_run, db.url, "upgrade", revision)
        await conn.commit()


async def downgrade(db: Database, revision: str) -> None:
    await refuse_newer(db)
    async with db.writer.connect() as conn:
        await conn.run_sync(_run, db.url, "downgrade", revision)
        await conn.commit()


async def current(db: Database) -> str | None:
    async with db.reader.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


def head(db_url: str) -> str | None:
    return ScriptDirectory.from_config(alembic_config(db_url)).get_current_head()
