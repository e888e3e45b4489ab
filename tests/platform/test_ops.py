"""What an operator relies on: shard settings that refuse nonsense, one JSON log line per command with its ids,
latency and outcome (secrets still redacted), Prometheus metrics, /healthz telling up from down, and IDENTIFY
paced across processes sharing one PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest
from pydantic import ValidationError
from sqlalchemy import select

from bot import logs
from bot.console.runner import Console
from bot.ops import health, metrics
from bot.ops.locks import IdentifyGate
from bot.service import gm
from bot.service.context import Caller
from bot.settings import Settings
from bot.store import migrate
from bot.store.db import Database
from bot.store.models import Campaign
from tests.conftest import make_db

SEED = "ab" * 32  # a campaign seed's shape


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logs.JsonFormatter())
        self.lines: list[dict[str, object]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def json_log() -> Iterator[Lines]:
    """`herald run` with HERALD_LOG_FORMAT=json, into a capture; put back as it was afterwards."""
    root = logging.getLogger()
    names = (*logs.HERALD_LOGGERS, *logs.PAYLOAD_LOGGERS, *logs.QUIET_LOGGERS)
    saved = (list(root.handlers), root.level, logging.getLogRecordFactory(),
             {n: logging.getLogger(n).level for n in names})
    capture = Lines()
    logs.configure("INFO", token="MTIz.token-for-tests.xyz", handler=capture, fmt="json")
    try:
        yield capture
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        logging.setLogRecordFactory(saved[2])
        for name, level in saved[3].items():
            logging.getLogger(name).setLevel(level)


@pytest.mark.parametrize(("ids", "count", "shards"), [("auto", None, None), ("0,2", "3", [0, 2]),
                                                      ("4-6, 8", "10", [4, 5, 6, 8])])
def test_shard_settings(monkeypatch: pytest.MonkeyPatch, ids: str, count: str | None,
                        shards: list[int] | None) -> None:
    monkeypatch.setenv("HERALD_SHARD_IDS", ids)
    if count:
        monkeypatch.setenv("HERALD_SHARD_COUNT", count)
    assert Settings().shards == shards


@pytest.mark.parametrize(("ids", "count", "says"), [("0,1", None, "set HERALD_SHARD_COUNT too"),
                                                    ("0-3", "3", "names shard 3, but HERALD_SHARD_COUNT is 3"),
                                                    ("first", "3", "shard numbers like 0,1 or 0-3"),
                                                    ("3-1", "4", "not a shard range")])
def test_shard_settings_that_cannot_work_are_refused(monkeypatch: pytest.MonkeyPatch, ids: str, count: str | None,
                                                     says: str) -> None:
    monkeypatch.setenv("HERALD_SHARD_IDS", ids)
    if count:
        monkeypatch.setenv("HERALD_SHARD_COUNT", count)
    with pytest.raises(ValidationError, match=says):
        Settings()


def test_json_lines_carry_the_bound_ids_and_stay_redacted(json_log: Lines) -> None:
    log = logging.getLogger("bot.test")

    async def command() -> None:  # a command's task: what it binds stays in it
        logs.bind(interaction_id=7, guild_id=8)
        with logs.bound(campaign_id=9):
            log.info("seed %s and token %s", SEED, "MTIz.token-for-tests.xyz")
        try:
            raise RuntimeError(f"failed with {SEED}")
        except RuntimeError:
            log.exception("it broke")

    asyncio.run(command())
    log.info("outside")
    first, broke, outside = json_log.lines
    assert first["interaction_id"] == 7 and first["guild_id"] == 8 and first["campaign_id"] == 9
    assert first["message"] == "seed [redacted] and token [redacted]"
    assert first["level"] == "INFO" and first["logger"] == "bot.test"
    assert "campaign_id" not in broke and broke["interaction_id"] == 7
    assert SEED not in str(broke["exception"]) and "RuntimeError" in str(broke["exception"])
    assert "interaction_id" not in outside


def _count(command: str, outcome: str) -> float:
    return metrics.REGISTRY.get_sample_value("herald_commands_total", {"command": command, "outcome": outcome}) or 0.0


async def test_each_command_is_one_line_and_counted(lite: Console, json_log: Lines) -> None:
    created, refused = _count("campaign create", "ok"), _count("campaign join", "refused")
    observed = metrics.REGISTRY.get_sample_value("herald_command_seconds_count", {"command": "campaign create"}) or 0
    await lite.run_script("gm @gaius\n@gaius #forum /campaign create name:Gaul ruleset:freeform")
    await lite.run_line("@ambiorix #elsewhere /campaign join seat:Eburones")  # no campaign here: refused
    assert _count("campaign create", "ok") == created + 1
    assert _count("campaign join", "refused") == refused + 1
    assert metrics.REGISTRY.get_sample_value("herald_command_seconds_count",
                                             {"command": "campaign create"}) == observed + 1
    lines = [line for line in json_log.lines if line["logger"] == "bot.commands"]
    assert [(line["command"], line["outcome"]) for line in lines] == [("campaign create", "ok"),
                                                                       ("campaign join", "refused")]
    create = lines[0]
    assert isinstance(create["latency_ms"], float) and create["latency_ms"] >= 0
    assert {"interaction_id", "guild_id", "user_id", "campaign_id"} <= set(create)


async def test_healthz_and_metrics(sqlite_db: Database) -> None:
    state = health.Shards(owned=[0, 1], latency={0: 0.04, 1: 0.05}, ready=True)
    server = health.OpsServer(health.Health(sqlite_db, lambda: state), "127.0.0.1", 0)
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/healthz") as up:
                assert up.status == 200
                assert (await up.json())["status"] == "ok"
            state = health.Shards(owned=[0, 1], latency={0: 0.04, 1: None}, ready=True)
            async with http.get(f"{base}/healthz") as down:
                assert down.status == 503
                assert (await down.json())["shards_down"] == [1]
            await health.sample_backlog(sqlite_db, lambda: __import__("datetime").datetime.now(
                __import__("datetime").UTC))
            health.sample_shards(state)
            async with http.get(f"{base}/metrics") as scraped:
                text = await scraped.text()
    finally:
        await server.stop()
    assert scraped.status == 200
    for name in ("herald_commands_total", "herald_command_seconds_bucket", "herald_outbox_backlog 0.0",
                 "herald_outbox_oldest_seconds", "herald_timer_lag_seconds", "herald_render_seconds",
                 "herald_event_loop_lag_seconds", 'herald_shard_latency_seconds{shard="0"} 0.04',
                 "herald_shards_connected 1.0"):
        assert name in text, name


async def test_a_database_that_does_not_answer_is_unhealthy(tmp_path: object) -> None:
    gone = Database("postgresql+asyncpg://nobody@127.0.0.1:1/none")
    ok, report = await health.Health(gone, lambda: health.Shards([0], {0: 0.1}, True)).check()
    await gone.dispose()
    assert not ok and report["database"] != "ok"


@pytest.mark.postgres
async def test_identify_is_paced_across_processes(tmp_path: object) -> None:
    """Two processes (two engines) on one PostgreSQL: in one bucket the second IDENTIFY waits out the first's
    window; another bucket need not."""
    first_db, schema = await make_db("postgres", tmp_path)
    await migrate.upgrade(first_db)
    second_db = Database(first_db.url, connect_args={"server_settings": {"search_path": schema}})
    first, second = IdentifyGate(first_db, window=1.0), IdentifyGate(second_db, window=1.0)
    try:
        start = time.monotonic()
        await first.wait(0, 1)
        await second.wait(2, 1)  # bucket 0 again (2 % 1)
        assert time.monotonic() - start >= 0.95
        await second.wait(1, 2)  # bucket 1 of 2: free
    finally:
        await first.close()
        await second.close()
        await first_db.dispose()
        await second_db.dispose()
        from tests.conftest import drop_schema
        assert schema
        await drop_schema(schema)


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_process_restarted_just_after_identifying_waits_out_the_window(backend: str, tmp_path: object) -> None:
    """Stopped (its bucket given back at once) or killed (its advisory lock freed by PostgreSQL) right after an
    IDENTIFY, a process started again on the same database still waits until Discord's window has passed."""
    database, schema = await make_db(backend, tmp_path)
    try:
        await migrate.upgrade(database)
        before = IdentifyGate(database, window=1.5)
        await before.wait(0, 1)
        sent = time.monotonic()
        await before.close()                     # the process stops at once
        again = IdentifyGate(database, window=1.5)  # and starts again
        await again.wait(0, 1)
        assert time.monotonic() - sent >= 1.4
        await again.close()
    finally:
        await database.dispose()
        if schema:
            from tests.conftest import drop_schema
            await drop_schema(schema)


@pytest.mark.postgres
async def test_a_transaction_left_idle_by_a_vanished_process_is_ended(tmp_path: object) -> None:
    """A machine that dies mid-transaction must not hold its campaign's row locks for hours (TCP keepalive):
    PostgreSQL ends a transaction left idle for a minute."""
    database, schema = await make_db("postgres", tmp_path)
    try:
        async with database.read_rows() as conn:
            assert (await conn.exec_driver_sql("SHOW idle_in_transaction_session_timeout")).scalar() == "1min"
            assert "t_" in str((await conn.exec_driver_sql("SHOW search_path")).scalar())  # the caller's kept
    finally:
        await database.dispose()
        from tests.conftest import drop_schema
        assert schema
        await drop_schema(schema)


async def test_outbox_backlog_and_age_and_timer_lag_are_what_waits(lite: Console) -> None:
    """A post written and not yet sent, and a deadline passed and not yet fired, show in the gauges by count and
    age; once delivered and fired, they are gone from them."""
    await lite.run_script("gm @gaius\n@gaius #forum /campaign create name:Gaul ruleset:freeform\n"
                          "@livia /campaign join seat:Rome\n@gaius /campaign start")
    async with lite.services.db.read() as session:
        gaul = (await session.scalars(select(Campaign))).one()
    gaius = Caller(user_id=lite.fake.user("gaius"), name="gaius", guild_id=gaul.guild_id, channel_id=gaul.channel_id)
    await health.sample_backlog(lite.services.db, lite.clock.now)
    assert metrics.REGISTRY.get_sample_value("herald_outbox_backlog") == 0
    assert metrics.REGISTRY.get_sample_value("herald_timer_lag_seconds") == 0
    # the services, without the console's pump: what a process has written and not yet sent or fired
    await gm.deadline(lite.services, gaius, "1h", None)
    await gm.note(lite.services, gaius, "The Senate sits.", None, None)
    await gm.note(lite.services, gaius, "The Senate rises.", None, None)
    lite.clock.advance(timedelta(minutes=90))
    await health.sample_backlog(lite.services.db, lite.clock.now)
    assert metrics.REGISTRY.get_sample_value("herald_outbox_backlog") >= 2  # the notes (and the deadline's post)
    assert metrics.REGISTRY.get_sample_value("herald_outbox_oldest_seconds") == 90 * 60
    assert metrics.REGISTRY.get_sample_value("herald_timer_lag_seconds") == 30 * 60  # due 30 minutes ago
    await lite.pump()
    await health.sample_backlog(lite.services.db, lite.clock.now)
    assert metrics.REGISTRY.get_sample_value("herald_outbox_backlog") == 0
    assert metrics.REGISTRY.get_sample_value("herald_outbox_oldest_seconds") == 0
    assert metrics.REGISTRY.get_sample_value("herald_timer_lag_seconds") == 0
    assert "has passed" in "\n".join(lite.last_output + lite.show(lite.fake.sent))


async def test_drawing_a_map_and_sending_a_post_are_measured(lite: Console) -> None:
    lite.base_dir = Path(__file__).parents[2] / "examples" / "freeform"
    renders = metrics.REGISTRY.get_sample_value("herald_render_seconds_count") or 0
    drawn = metrics.REGISTRY.get_sample_value("herald_render_seconds_sum") or 0
    sent = metrics.REGISTRY.get_sample_value("herald_posts_sent_total") or 0
    await lite.run_script("gm @gaius\n@gaius #forum /campaign create name:Gaul ruleset:freeform\n"
                          "@gaius /gm upload kind:regions file:@regions.toml\n@hanno /campaign join seat:Carthage\n"
                          "@livia /campaign join seat:Rome\n@ptolemy /campaign join seat:Egypt\n"
                          "@gaius /campaign start\nexpect \"Dice commitment\"\n@livia #forum /map")
    assert ".png" in "\n".join(lite.last_output)
    assert (metrics.REGISTRY.get_sample_value("herald_render_seconds_count") or 0) > renders
    assert (metrics.REGISTRY.get_sample_value("herald_render_seconds_sum") or 0) > drawn  # a drawing takes time
    assert (metrics.REGISTRY.get_sample_value("herald_posts_sent_total") or 0) >= sent + 3  # thread, joins, start


async def test_a_blocked_event_loop_shows_as_lag() -> None:
    """A callback that holds the loop (here 300 ms of blocking sleep) makes the next wake-up that late."""
    before = metrics.REGISTRY.get_sample_value("herald_event_loop_lag_count") or 0
    watcher = asyncio.create_task(health.watch_loop(interval=0.02))
    try:
        await asyncio.sleep(0.1)
        time.sleep(0.3)  # noqa: ASYNC251 - the point: a blocking call on the loop
        await asyncio.sleep(0.1)
        assert (metrics.REGISTRY.get_sample_value("herald_event_loop_lag_count") or 0) > before
        blocked = metrics.REGISTRY.get_sample_value("herald_event_loop_lag_bucket", {"le": "0.25"})
        assert (metrics.REGISTRY.get_sample_value("herald_event_loop_lag_count") or 0) > (blocked or 0)  # one > 0.25s
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


async def test_a_long_lived_bot_puts_what_start_up_made_out_of_the_collectors_way(sqlite_db: Database) -> None:
    """`herald run` freezes what start-up left alive (bot.ops.heap): the oldest generation's collections, which
    paused every command in flight for ~90 ms on the bench, then walk only what commands made since."""
    import gc

    from bot.discord.client import HeraldBot
    from bot.service.context import Services

    bot = HeraldBot(Services(db=sqlite_db), background=False, settle_heap=True)
    before = gc.get_freeze_count()
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        assert gc.get_freeze_count() > before + 100_000  # the modules, discord.py's tree, SQLAlchemy's mappers…
    finally:
        gc.unfreeze()
        await bot.close()
