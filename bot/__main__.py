"""The `herald` command: run the bot (or the console), manage the database, verify exports."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import click

from bot.settings import Settings


def _refuse_newer_database(run: Callable[[], int | None]) -> int | None:
    """Run; a database from a newer Herald ends it with its one sentence and exit code 2, no traceback."""
    from bot.store.migrate import NewerDatabase

    try:
        return run()
    except NewerDatabase as exc:
        click.echo(f"✘ {exc}", err=True)
        sys.exit(2)


def _logging(settings: Settings, *, console: bool = False) -> None:
    from bot.logs import configure

    # the console prints what a person would see; a line per command is noise there unless asked for
    level = "WARNING" if console and "log_level" not in settings.model_fields_set else settings.log_level
    configure(level, token=settings.discord_token.get_secret_value() if settings.discord_token else None,
              fmt=settings.log_format)


def _refuse_shared_sqlite(run: Callable[[], int | None]) -> int | None:
    """Run; a second Herald on one SQLite file ends with its one sentence and exit code 3, no traceback."""
    from bot.ops.locks import DatabaseInUse

    try:
        return run()
    except DatabaseInUse as exc:
        click.echo(f"✘ {exc}", err=True)
        sys.exit(3)


@click.group()
def main() -> None:
    """Herald: long strategy-game campaigns inside Discord."""


@main.command()
def run() -> None:
    """Run the bot when DISCORD_TOKEN is set; otherwise open the local console."""
    settings = Settings()
    _logging(settings, console=settings.discord_token is None)
    if settings.discord_token is None:
        click.echo("DISCORD_TOKEN is not set: opening the local console on "
                   f"{settings.url} (type /help, or `quit`).")
        sys.exit(_refuse_shared_sqlite(lambda: _refuse_newer_database(
            lambda: asyncio.run(_console(settings, None, None, None, None)))))
    with contextlib.suppress(KeyboardInterrupt):
        _refuse_shared_sqlite(lambda: _refuse_newer_database(lambda: asyncio.run(_bot(settings))))


async def _bot(settings: Settings) -> None:
    import discord
    import yarl

    from bot.discord.client import ShardedHeraldBot
    from bot.logs import bind
    from bot.ops import health
    from bot.ops.locks import IdentifyGate, migrating, single_writer
    from bot.service.context import Services
    from bot.store import migrate
    from bot.store.db import Database

    if settings.discord_api_base:  # a fake Discord on 127.0.0.1, for the end-to-end test
        discord.http.Route.BASE = settings.discord_api_base
    if settings.discord_gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway)
    db = Database(settings.url)
    ops: health.OpsServer | None = None
    try:
        with single_writer(db):
            async with migrating(db):
                await migrate.upgrade(db)
            services = Services(db=db)
            token = settings.discord_token.get_secret_value() if settings.discord_token else ""
            shards = settings.shards
            bind(shards=",".join(map(str, shards)) if shards is not None else None)
            # with several processes, the one owning shard 0 registers the slash commands, once
            sync = settings.sync_commands and (shards is None or 0 in shards)
            async with ShardedHeraldBot(services, gate=IdentifyGate(db), gm_role=settings.gm_role,
                                        sync_commands=sync, poll=settings.poll, shard_ids=shards,
                                        shard_count=settings.shard_count, settle_heap=True) as bot:
                loop = asyncio.get_running_loop()
                for sig in (signal.SIGTERM, signal.SIGINT):  # docker stop, Ctrl-C: close the gateway cleanly
                    loop.add_signal_handler(sig, lambda: asyncio.create_task(bot.close()))

                def shard_state() -> health.Shards:
                    owned = list(bot.shard_ids or range(bot.shard_count or 1))
                    latency = {s: (i.latency if not i.is_closed() else None) if (i := bot.get_shard(s)) else None
                               for s in owned}
                    return health.Shards(owned, latency, bot.is_ready())

                bot.spawn(health.watch_loop(), "herald-loop-lag")
                bot.spawn(health.sample_forever(db, shard_state, services.clock.now), "herald-samplers")
                if settings.metrics_port is not None:
                    ops = health.OpsServer(health.Health(db, shard_state, services.clock.now), settings.metrics_host,
                                           settings.metrics_port)
                    await ops.start()
                await bot.start(token)
    finally:
        if ops is not None:
            await ops.stop()
        await db.dispose()


@main.command()
@click.option("--script", "script", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="run the lines of this file instead of reading them from you")
@click.option("--seed", help="derive every campaign seed and id from this, so a script replays exactly")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="save images and files here")
@click.option("--database", help="database URL (default: a fresh one for a script, the data directory's otherwise)")
def console(script: Path | None, seed: str | None, out: Path | None, database: str | None) -> None:
    """Discord without Discord: the bot's own commands, on a local stand-in."""
    settings = Settings()
    _logging(settings, console=True)
    sys.exit(_refuse_shared_sqlite(lambda: _refuse_newer_database(
        lambda: asyncio.run(_console(settings, script, seed, out, database)))))


async def _console(settings: Settings, script: Path | None, seed: str | None, out: Path | None,
                   database: str | None) -> int:
    from bot.console.runner import Console, ScriptFailed
    from bot.console.script import ScriptError
    from bot.ops import heap
    from bot.ops.locks import single_writer
    from bot.store import migrate
    from bot.store.db import Database

    with tempfile.TemporaryDirectory(prefix="herald-console-") as tmp:
        url = database or (f"sqlite+aiosqlite:///{tmp}/console.db" if script else settings.url)
        db = Database(url)
        try:
            with single_writer(db):  # the data directory's SQLite file: not while a bot runs on it
                await migrate.upgrade(db)
                # typed at a prompt, images and exports land in ./out (a script saves them only when asked)
                con = Console(db, seed=seed, out_dir=out or (None if script else Path("out")), gm_role=settings.gm_role,
                              base_dir=script.parent if script else Path.cwd())
                await con.start()
                if script is None:  # a session at the prompt lives long: see bot.ops.heap
                    heap.settle()
                try:
                    if script is not None:
                        text = await asyncio.to_thread(script.read_text, encoding="utf-8")
                        try:
                            await con.run_script(text)
                        except (ScriptError, ScriptFailed) as exc:
                            click.echo(f"✘ {exc}", err=True)
                            return 1
                        return 0
                    return await _repl(con)
                finally:
                    await con.close()
        finally:
            await db.dispose()


async def _repl(con: object) -> int:
    from bot.console.runner import Console, ScriptFailed
    from bot.console.script import ScriptError

    assert isinstance(con, Console)
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 - line editing and history for input()
    click.echo("Herald console. Lines look like:  @alice #table /campaign create name:Rome ruleset:freeform")
    click.echo("Or just type a command (/help, /roll 1d20+5 adv); images and exports are saved under "
               f"{con.out_dir or 'nowhere'} and their paths printed.")
    click.echo("Also: press \"label\", select \"option\", form field:\"value\", gm @name, clock +1d, quit.")
    con.repeat_lines = not sys.stdin.isatty()  # at a terminal the typed line is already on the screen
    while True:
        try:
            raw = await asyncio.to_thread(input, f"{'@' + con.user if con.user else ''} #{con.channel}> ")
        except EOFError:
            return 0
        if raw.strip() in ("quit", "exit"):
            return 0
        try:
            await con.run_line(raw)
        except (ScriptError, ScriptFailed) as exc:
            click.echo(f"✘ {exc}")


@main.group()
def db() -> None:
    """The database schema (Alembic)."""


@db.command()
@click.argument("revision", default="head")
def upgrade(revision: str) -> None:
    """Upgrade the schema (the bot also does this when it starts)."""
    _refuse_newer_database(lambda: asyncio.run(_migrate("upgrade", revision)))


@db.command()
@click.argument("revision")
def downgrade(revision: str) -> None:
    """Downgrade the schema to REVISION (`base` for an empty database)."""
    _refuse_newer_database(lambda: asyncio.run(_migrate("downgrade", revision)))


async def _migrate(direction: str, revision: str) -> None:
    from bot.ops.locks import migrating
    from bot.store import migrate
    from bot.store.db import Database

    settings = Settings()
    database = Database(settings.url)
    try:
        async with migrating(database):
            await getattr(migrate, direction)(database, revision)
        click.echo(f"schema now at {await migrate.current(database)}")
    finally:
        await database.dispose()


@main.command()
@click.argument("export_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def verify(export_file: Path) -> None:
    """Re-derive every roll of an ended campaign's export from its revealed seed."""
    from bot.service.export import verify as check

    try:
        data = json.loads(export_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"cannot read {export_file}: {exc}") from None
    ok, lines = check(data)
    for line in lines:
        click.echo(line)
    sys.exit(0 if ok else 1)


@main.command()
@click.argument("names", nargs=-1)
def bench(names: tuple[str, ...]) -> None:
    """Run the benchmarks under bench/ (all, or the named bench_* modules)."""
    from bench.__main__ import main as run_bench

    sys.exit(run_bench(["bench", *names]))


if __name__ == "__main__":
    main()
