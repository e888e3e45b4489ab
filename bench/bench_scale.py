"""Many campaigns over three `herald run` processes against one, on one PostgreSQL: posts per second delivered
and command latency (dispatch to the answer a user sees), side by side in one run.

Real processes, a real PostgreSQL, and the loopback fake Discord of the end-to-end tests (tests/e2e), which
routes each guild's events to the process that owns its shard. Each campaign lives in its own guild; the load is
rounds of `/gm note` in every campaign (one answer and one post each), at most IN_FLIGHT commands at once.

    HERALD_BENCH_CAMPAIGNS=60     campaigns (= guilds); 10000 for the issue's size (see bench/README.md)
    HERALD_BENCH_ROUNDS=4         notes per campaign
    HERALD_BENCH_IN_FLIGHT=32     commands typed at once
    HERALD_BENCH_POSTGRES_URL     default: the test PostgreSQL (a database of its own per run, dropped)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

SHARDS = 3
PG_URL = os.environ.get("HERALD_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


@dataclass(frozen=True)
class Figures:
    label: str
    notes: int
    posts_per_second: float
    p50_ms: float
    p99_ms: float
    setup_seconds: float
    cpu_seconds: float  # of the Herald processes, during the load

    @property
    def posts_per_cpu_second(self) -> float:
        return self.notes / self.cpu_seconds if self.cpu_seconds else 0.0

    def line(self) -> str:
        return (f"{self.label:<28} {self.notes:6d} notes  {self.posts_per_second:8.1f} posts/s  "
                f"p50 {self.p50_ms:7.1f} ms  p99 {self.p99_ms:7.1f} ms  "
                f"{self.posts_per_cpu_second:6.1f} notes/CPU-s of Herald  (setup {self.setup_seconds:.0f} s)")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    import asyncpg

    name = f"herald_bench_{secrets.token_hex(4)}"
    admin_url = PG_URL.replace("postgresql+asyncpg://", "postgresql://")
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f"CREATE DATABASE {name}")
    await admin.close()
    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        admin = await asyncpg.connect(admin_url)
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        await admin.close()


async def bounded(jobs: list[Callable[[], Awaitable[float]]], in_flight: int) -> list[float]:
    gate = asyncio.Semaphore(in_flight)

    async def one(job: Callable[[], Awaitable[float]]) -> float:
        async with gate:
            return await job()

    return list(await asyncio.gather(*(one(j) for j in jobs)))


async def run(label: str, owned: list[tuple[int, ...]], campaigns: int, rounds: int, in_flight: int) -> Figures:
    from tests.e2e.discord_server import FakeDiscordServer, shard_of
    from tests.e2e.herald_process import Herald

    guilds = tuple(((5000 + k) << 22) + 11 for k in range(campaigns))
    server = FakeDiscordServer(guild_ids=guilds, shard_count=SHARDS, max_concurrency=16)
    await server.start()
    async with fresh_database() as url:
        with tempfile.TemporaryDirectory(prefix="herald-bench-scale-") as tmp:
            heralds = []
            for i, shards in enumerate(owned):
                (Path(tmp) / f"p{i}").mkdir()
                heralds.append(Herald(server, Path(tmp) / f"p{i}", database_url=url, shards=shards,
                                      HERALD_POLL="1", HERALD_LOG_LEVEL="WARNING"))
            by_shard = {s: h for h in heralds for s in (h.shards or ())}
            try:
                started = time.perf_counter()
                await asyncio.gather(*(h.start() for h in heralds))

                def create(g: int, i: int) -> Callable[[], Awaitable[float]]:
                    async def job() -> float:
                        herald = by_shard[shard_of(g, SHARDS)]
                        await herald.answer(await herald.command("campaign", "create", guild=g, name=f"Realm {i}",
                                                                 ruleset="freeform"), timeout=300)
                        return 0.0
                    return job

                await bounded([create(g, i) for i, g in enumerate(guilds)], in_flight)
                await server.wait_until(lambda: sum("a Freeform campaign run by" in m["content"]
                                                    for m in server.posts()) >= campaigns, timeout=600)
                setup = time.perf_counter() - started

                def note(g: int, r: int) -> Callable[[], Awaitable[float]]:
                    async def job() -> float:
                        herald = by_shard[shard_of(g, SHARDS)]
                        begin = time.perf_counter()
                        await herald.answer(await herald.command("gm", "note", guild=g, text=f"word {r}"),
                                            timeout=300)
                        return time.perf_counter() - begin
                    return job

                before = len(server.posts())
                total = campaigns * rounds
                pids = [h.proc.pid for h in heralds if h.proc is not None]
                cpu = sum(cpu_seconds(p) for p in pids)
                begin = time.perf_counter()
                latencies = await bounded([note(g, r) for r in range(rounds) for g in guilds], in_flight)
                await server.wait_until(lambda: len(server.posts()) - before >= total, timeout=600)
                elapsed = time.perf_counter() - begin
                cpu = sum(cpu_seconds(p) for p in pids) - cpu
            finally:
                for herald in heralds:
                    if herald.proc is not None:
                        await herald.stop()
                await server.stop()
    cuts = statistics.quantiles(latencies, n=100)
    return Figures(label, total, total / elapsed, statistics.median(latencies) * 1000, cuts[98] * 1000, setup,
                   cpu)


async def compare() -> None:
    campaigns = int(os.environ.get("HERALD_BENCH_CAMPAIGNS", "60"))
    rounds = int(os.environ.get("HERALD_BENCH_ROUNDS", "4"))
    in_flight = int(os.environ.get("HERALD_BENCH_IN_FLIGHT", "32"))
    print(f"{campaigns} campaigns in {campaigns} guilds, {SHARDS} shards, {rounds} notes each, "
          f"{in_flight} commands in flight, one PostgreSQL ({os.cpu_count()} cores here)", flush=True)
    one = await run("1 process, shards 0-2", [(0, 1, 2)], campaigns, rounds, in_flight)
    print(one.line(), flush=True)
    three = await run("3 processes, a shard each", [(0,), (1,), (2,)], campaigns, rounds, in_flight)
    print(three.line(), flush=True)
    print(f"3 processes vs 1: posts/s {three.posts_per_second / one.posts_per_second:.2f}×, "
          f"p99 latency {three.p99_ms / one.p99_ms:.2f}×, p50 latency {three.p50_ms / one.p50_ms:.2f}×, "
          f"notes per CPU-s of Herald {three.posts_per_cpu_second / one.posts_per_cpu_second:.2f}×")


def main() -> None:
    asyncio.run(compare())


if __name__ == "__main__":
    main()
