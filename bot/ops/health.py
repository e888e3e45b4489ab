"""/healthz and /metrics on a local port, and the samplers behind the gauges.

/healthz answers 200 when every shard this process owns is connected and the database answers, 503 with the
reason otherwise (starting, a shard down, the database away): what a container's HEALTHCHECK or an
orchestrator's probe asks. /metrics is Prometheus's text format."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import func, select, text

from bot.ops import metrics
from bot.store.db import Database
from bot.store.models import OutboxPost, Timer
from bot.store.outbox import MAX_ATTEMPTS

log = logging.getLogger(__name__)
DATABASE_TIMEOUT = 3.0  # seconds: a health check that waits longer than this is itself unhealthy


@dataclass(frozen=True)
class Shards:
    """What the health check knows of the gateway: owned shard ids and each one's latency (None: not up)."""

    owned: list[int]
    latency: dict[int, float | None]
    ready: bool


class Health:
    def __init__(self, db: Database, shards: Callable[[], Shards],
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.db, self.shards, self.now = db, shards, now

    async def check(self) -> tuple[bool, dict[str, object]]:
        state = self.shards()
        down = [s for s in state.owned if state.latency.get(s) is None]
        report: dict[str, object] = {"shards": state.owned, "ready": state.ready, "shards_down": down}
        try:
            async with asyncio.timeout(DATABASE_TIMEOUT), self.db.read_rows() as conn:
                await conn.execute(text("SELECT 1"))
            report["database"] = "ok"
        except Exception as exc:  # any failure to answer is the database being away, as far as a probe cares
            report["database"] = f"{type(exc).__name__}: {exc}"[:200]
        ok = state.ready and not down and report["database"] == "ok"
        report["status"] = "ok" if ok else "unhealthy"
        return ok, report

    async def healthz(self, _: web.Request) -> web.Response:
        ok, report = await self.check()
        return web.Response(text=json.dumps(report), status=200 if ok else 503, content_type="application/json")

    async def metrics(self, _: web.Request) -> web.Response:
        sample_shards(self.shards())  # fresh at every scrape; the outbox and timers too, unless the database is away
        try:
            async with asyncio.timeout(DATABASE_TIMEOUT):
                await sample_backlog(self.db, self.now)
        except Exception as exc:  # the gauges keep their last sample; /healthz tells the database is away
            log.warning("sampling the outbox and timers for /metrics failed: %s", exc)
        body = generate_latest(metrics.REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


class OpsServer:
    """The aiohttp server for /healthz and /metrics (aiohttp comes with discord.py)."""

    def __init__(self, health: Health, host: str, port: int) -> None:
        self.health, self.host, self.port = health, host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self.health.healthz)
        app.router.add_get("/metrics", self.health.metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None)
        if sockets:
            self.port = sockets[0].getsockname()[1]  # port 0: the one the system chose
        log.info("health and metrics on http://%s:%s/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


_PENDING = (OutboxPost.sent_at.is_(None), OutboxPost.attempts < MAX_ATTEMPTS)
_BACKLOG = select(func.count(), func.min(OutboxPost.created_at)).where(*_PENDING)
_OVERDUE = select(func.min(Timer.due_at)).where(Timer.fired.is_(False))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite hands back naive UTC


async def sample_backlog(db: Database, now: Callable[[], datetime]) -> None:
    """Outbox backlog and oldest age, and timer lag, read from the database (shared by every process)."""
    async with db.read_rows() as conn:
        count, oldest = (await conn.execute(_BACKLOG)).one()
        due = (await conn.execute(_OVERDUE)).scalar()
    at = now()
    metrics.OUTBOX_BACKLOG.set(count or 0)
    metrics.OUTBOX_OLDEST.set(max(0.0, (at - _aware(oldest)).total_seconds()) if oldest else 0.0)
    metrics.TIMER_LAG.set(max(0.0, (at - _aware(due)).total_seconds()) if due else 0.0)


def sample_shards(state: Shards) -> None:
    metrics.SHARDS_UP.set(sum(1 for s in state.owned if state.latency.get(s) is not None))
    for shard, latency in state.latency.items():
        if latency is not None:
            metrics.SHARD_LATENCY.labels(shard=str(shard)).set(latency)


async def watch_loop(interval: float = 0.5) -> None:
    """Event-loop lag: how much later than asked a short sleep wakes (a blocking call shows up here)."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(interval)
        lag = max(0.0, time.perf_counter() - start - interval)
        metrics.LOOP_LAG.set(lag)
        metrics.LOOP_LAG_SECONDS.observe(lag)
        if lag > 1.0:
            log.warning("the event loop was blocked for %.2fs", lag)


async def sample_forever(db: Database, shards: Callable[[], Shards], now: Callable[[], datetime],
                         interval: float = 15.0) -> None:
    """Refresh the sampled gauges every `interval` seconds (a failing database is reported, not fatal)."""
    while True:
        sample_shards(shards())
        try:
            await sample_backlog(db, now)
        except Exception as exc:
            log.warning("sampling the outbox and timers failed: %s", exc)
        await asyncio.sleep(interval)
