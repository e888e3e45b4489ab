"""10,000 campaigns over three `herald run` processes against one process, on one PostgreSQL: posts per second
delivered, command latency (dispatch to the answer a user sees) and deadlines fired, side by side in one run, with
where the CPU went.

Real processes, a real PostgreSQL, and the loopback fake Discord of the end-to-end tests (tests/e2e), which routes
each guild's events to the process that owns its shard. One campaign is made the way a GM makes it (a console
run: create, a player joins, start); the rest are copies of it in guilds of their own, written with Core inserts,
each with its channel and threads on the fake Discord. Two loads, one after the other:

* notes: `/gm note` typed in every campaign, at most IN_FLIGHT at once (one answer and one post each);
* deadlines: DEADLINES campaigns' deadlines fall due at the same moment (two posts each: thread and GM).

    HERALD_BENCH_CAMPAIGNS=10000  campaigns (= guilds)
    HERALD_BENCH_NOTES=           notes typed (default: one per campaign)
    HERALD_BENCH_DEADLINES=2000   deadlines falling due at once (0: none)
    HERALD_BENCH_IN_FLIGHT=32     commands typed at once
    HERALD_BENCH_POSTGRES_URL     default: the test PostgreSQL (a database of its own per configuration, dropped)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

SHARDS = 3
PG_URL = os.environ.get("HERALD_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
TEMPLATE = ("@gaius #realm /campaign create name:Realm ruleset:freeform\n"
            "@livia /campaign join seat:Rome\n"
            "@gaius /campaign start")
GUILD_BASE = 5000  # guild k's id is ((GUILD_BASE + k) << 22) + 11: shard k % 3
THREAD_BASE, GM_THREAD_BASE, SEAT_THREAD_BASE = 7_000_000_000, 8_000_000_000, 9_000_000_000


def guild_of(k: int) -> int:
    return ((GUILD_BASE + k) << 22) + 11


# -- where the CPU goes ----------------------------------------------------------------------------------------
def _proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _waited(pid: int) -> float:
    """Seconds the process's threads spent runnable but waiting for a core (Linux schedstat); 0 once gone."""
    total = 0
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def _machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, every core."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(values[:8]) - idle) / tick, sum(values[:8]) / tick


@dataclass
class Cpu:
    """CPU seconds spent during one load, by whom."""

    herald: float = 0.0
    bench: float = 0.0  # this process: the fake Discord and the client typing commands
    postgres: float = 0.0  # the backends serving this configuration's database
    machine: float = 0.0  # every process on the machine (other work included)
    capacity: float = 0.0  # wall time times cores
    load: float = 0.0  # load average (1 min) at the end
    herald_waited: float = 0.0  # seconds Herald's threads were ready to run but had no core
    bench_waited: float = 0.0
    postgres_waited: float = 0.0

    def line(self, work: int) -> str:
        per = 1000 / work if work else 0.0
        other = max(0.0, self.machine - self.herald - self.bench - self.postgres)
        return (f"CPU-s per 1000: Herald {self.herald * per:5.1f}, fake Discord + client {self.bench * per:5.1f}, "
                f"PostgreSQL {self.postgres * per:5.1f}, other work {other * per:5.1f}; machine busy "
                f"{self.machine / self.capacity:4.0%} of {os.cpu_count()} cores, load {self.load:.1f}\n"
                f"    waiting for a core, s per 1000: Herald {self.herald_waited * per:5.1f}, fake Discord + client "
                f"{self.bench_waited * per:5.1f}, PostgreSQL {self.postgres_waited * per:5.1f}")


@contextlib.asynccontextmanager
async def cpu_of(herald_pids: list[int], database: str) -> AsyncIterator[Cpu]:
    """What the block cost. PostgreSQL's backends come and go (a pool's overflow connections close when given
    back): they are listed every half second and each one's CPU taken as last seen."""
    import asyncpg

    admin = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
    seen: dict[int, float] = {}
    waits: dict[int, float] = {}

    async def backends() -> None:
        for (pid,) in await admin.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", database):
            seen[pid] = _proc_cpu(pid) or seen.get(pid, 0.0)
            waits[pid] = _waited(pid) or waits.get(pid, 0.0)

    async def watch() -> None:
        while True:
            await asyncio.sleep(0.5)
            await backends()

    await backends()
    before_pg, before_waits = dict(seen), dict(waits)
    out = Cpu()
    start = ([_proc_cpu(p) for p in herald_pids], time.process_time(), _machine_busy(), time.perf_counter())
    waited = ([_waited(p) for p in herald_pids], _waited(os.getpid()))
    watcher = asyncio.create_task(watch())
    try:
        yield out
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        with contextlib.suppress(Exception):
            await backends()
        await admin.close()
    out.herald = sum(_proc_cpu(p) for p in herald_pids) - sum(start[0])
    out.bench = time.process_time() - start[1]
    out.postgres = sum(cpu - before_pg.get(pid, 0.0) for pid, cpu in seen.items())
    out.herald_waited = sum(_waited(p) for p in herald_pids) - sum(waited[0])
    out.bench_waited = _waited(os.getpid()) - waited[1]
    out.postgres_waited = sum(w - before_waits.get(pid, 0.0) for pid, w in waits.items())
    busy, _ = _machine_busy()
    out.machine = busy - start[2][0]
    out.capacity = (time.perf_counter() - start[3]) * (os.cpu_count() or 1)
    out.load = os.getloadavg()[0]


# -- the database --------------------------------------------------------------------------------------------
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


async def seed(url: str, campaigns: int, gm: int, player: int) -> None:
    """Migrate, make one campaign through the console, and copy it into `campaigns` guilds (Core inserts)."""
    from sqlalchemy import insert, select, text

    from bot.console.runner import Console
    from bot.store import migrate
    from bot.store.db import Database
    from bot.store.models import Campaign, Seat

    db = Database(url)
    try:
        await migrate.upgrade(db)
        console = Console(db, echo=lambda _: None)
        await console.start()
        try:
            await console.run_script(TEMPLATE)
        finally:
            await console.close()
        async with db.write() as session:
            model = await session.scalar(select(Campaign))
            assert model is not None
            seat = await session.scalar(select(Seat).where(Seat.campaign_id == model.id))
            assert seat is not None
            base = {c.key: getattr(model, c.key) for c in Campaign.__mapper__.column_attrs if c.key != "id"}
            seat_base = {c.key: getattr(seat, c.key) for c in Seat.__mapper__.column_attrs if c.key != "id"}
            first = model.id + 1
            for start in range(0, campaigns, 2000):
                chunk = range(start, min(campaigns, start + 2000))
                await session.execute(insert(Campaign), [
                    {**base, "id": first + k, "guild_id": guild_of(k), "channel_id": channel_of(k),
                     "thread_id": THREAD_BASE + k, "gm_thread_id": GM_THREAD_BASE + k, "name": f"Realm {k}",
                     "gm_user_id": gm} for k in chunk])
                await session.execute(insert(Seat), [
                    {**seat_base, "campaign_id": first + k, "user_id": player, "thread_id": SEAT_THREAD_BASE + k}
                    for k in chunk])
            await session.execute(text("SELECT setval(pg_get_serial_sequence('campaign', 'id'), "
                                       "(SELECT max(id) FROM campaign))"))
    finally:
        await db.dispose()


async def deadlines_due(url: str, campaigns: int, count: int) -> datetime:
    """Give `count` campaigns (spread over the guilds) a deadline now, as the GMs would have set it; when."""
    from sqlalchemy import insert, select, update

    from bot.store.db import Database
    from bot.store.models import Campaign, Timer

    db = Database(url)
    now = datetime.now(UTC)
    try:
        async with db.write() as session:
            rows = (await session.execute(select(Campaign.id, Campaign.phase_key).where(
                Campaign.guild_id.in_([guild_of(k) for k in range(0, campaigns, max(1, campaigns // count))][
                    :count])))).all()
            await session.execute(insert(Timer), [
                {"campaign_id": cid, "kind": "deadline", "phase_key": key or "", "due_at": now, "fired": False,
                 "payload": {}} for cid, key in rows])
            await session.execute(update(Campaign).where(Campaign.id.in_([cid for cid, _ in rows])).values(
                deadline=now))
    finally:
        await db.dispose()
    return now


def channel_of(k: int) -> int:
    from bot.console.fake import stable_id

    return stable_id("channel", str(guild_of(k)))


# -- one configuration ---------------------------------------------------------------------------------------
@dataclass
class Figures:
    label: str
    notes: int = 0
    posts_per_second: float = 0.0
    commands_per_second: float = 0.0  # to the last answer (its post may come later)
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    notes_cpu: Cpu = field(default_factory=Cpu)
    deadlines: int = 0
    deadlines_seconds: float = 0.0  # from due to the last of their posts delivered
    deadline_posts_per_second: float = 0.0
    deadlines_cpu: Cpu = field(default_factory=Cpu)
    setup_seconds: float = 0.0

    def lines(self) -> Iterator[str]:
        yield (f"{self.label}: {self.notes} notes, {self.commands_per_second:.1f} answered/s, "
               f"{self.posts_per_second:.1f} posts/s, command p50 "
               f"{self.p50_ms:.0f} ms, p99 {self.p99_ms:.0f} ms (setup {self.setup_seconds:.0f} s)")
        yield "    " + self.notes_cpu.line(self.notes)
        if self.deadlines:
            yield (f"    {self.deadlines} deadlines due at once: all fired and posted in {self.deadlines_seconds:.1f} s"
                   f" ({self.deadlines / self.deadlines_seconds:.1f} deadlines/s, "
                   f"{self.deadline_posts_per_second:.1f} posts/s)")
            yield "    " + self.deadlines_cpu.line(self.deadlines)


async def run(label: str, owned: list[tuple[int, ...]], campaigns: int, notes: int, deadlines: int,
              in_flight: int) -> Figures:
    from tests.e2e.discord_server import Channel, FakeDiscordServer, shard_of
    from tests.e2e.herald_process import GM, LIVIA, Herald

    figures = Figures(label)
    guilds = tuple(guild_of(k) for k in range(campaigns))
    server = FakeDiscordServer(guild_ids=guilds, shard_count=SHARDS, max_concurrency=16)
    for k, g in enumerate(guilds):  # each campaign's thread, GM thread and seat thread
        for base, name, kind in ((THREAD_BASE, "Realm", 11), (GM_THREAD_BASE, "Realm — GM", 12),
                                 (SEAT_THREAD_BASE, "Realm — Rome", 12)):
            server.channels[base + k] = Channel(base + k, g, f"{name} {k}", kind, channel_of(k))
    await server.start()
    started = time.perf_counter()
    async with fresh_database() as url:
        await seed(url, campaigns, GM, LIVIA)
        with tempfile.TemporaryDirectory(prefix="herald-bench-scale-") as tmp:
            heralds, ports = [], [free_port() for _ in owned]
            for i, shards in enumerate(owned):
                (Path(tmp) / f"p{i}").mkdir()
                heralds.append(Herald(server, Path(tmp) / f"p{i}", database_url=url, shards=shards,
                                      HERALD_POLL="1", HERALD_LOG_LEVEL="WARNING",
                                      HERALD_METRICS_PORT=str(ports[i])))
            by_shard = {s: h for h in heralds for s in (h.shards or ())}
            try:
                await asyncio.gather(*(h.start(timeout=600) for h in heralds))
                await asyncio.gather(*(healthy(port) for port in ports))
                figures.setup_seconds = time.perf_counter() - started
                pids = [h.proc.pid for h in heralds if h.proc is not None]
                database = url.rsplit("/", 1)[1]

                gate = asyncio.Semaphore(in_flight)

                async def note(k: int, r: int) -> float:
                    g = guilds[k % campaigns]
                    herald = by_shard[shard_of(g, SHARDS)]
                    async with gate:
                        begin = time.perf_counter()
                        iid = await herald.command("gm", "note", guild=g, text=f"word {r}")
                        await server.shown(iid, timeout=300)
                        return time.perf_counter() - begin

                before = server.message_count
                async with cpu_of(pids, database) as figures.notes_cpu:
                    begin = time.perf_counter()
                    latencies = await asyncio.gather(*(note(k, k // campaigns) for k in range(notes)))
                    figures.commands_per_second = notes / (time.perf_counter() - begin)
                    await server.wait_until(lambda: server.message_count - before >= notes, timeout=900)
                    elapsed = time.perf_counter() - begin
                figures.notes, figures.posts_per_second = notes, notes / elapsed
                figures.p50_ms = statistics.median(latencies) * 1000
                figures.p99_ms = statistics.quantiles(latencies, n=100)[98] * 1000

                if deadlines:
                    before = server.message_count
                    async with cpu_of(pids, database) as figures.deadlines_cpu:
                        begin = time.perf_counter()
                        await deadlines_due(url, campaigns, deadlines)
                        await server.wait_until(lambda: server.message_count - before >= 2 * deadlines,
                                                timeout=1800)
                        elapsed = time.perf_counter() - begin
                    figures.deadlines, figures.deadlines_seconds = deadlines, elapsed
                    figures.deadline_posts_per_second = 2 * deadlines / elapsed
            finally:
                logs = [await h.stop() if h.proc is not None else "" for h in heralds]
                await server.stop()
    for log in logs:
        if "Traceback" in log:
            print(log[-3000:])
    return figures


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def healthy(port: int, timeout: float = 600) -> None:  # noqa: ASYNC109
    """Wait for the process's /healthz to say ok, as an orchestrator does before sending it work: every shard
    connected and every guild of them arrived."""
    import aiohttp

    async with asyncio.timeout(timeout), aiohttp.ClientSession() as http:
        while True:
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.5)


async def compare() -> None:
    campaigns = int(os.environ.get("HERALD_BENCH_CAMPAIGNS", "10000"))
    notes = int(os.environ.get("HERALD_BENCH_NOTES") or campaigns)
    deadlines = min(campaigns, int(os.environ.get("HERALD_BENCH_DEADLINES", "2000")))
    in_flight = int(os.environ.get("HERALD_BENCH_IN_FLIGHT", "32"))
    print(f"{campaigns} campaigns in {campaigns} guilds, {SHARDS} shards, {notes} notes with {in_flight} in flight, "
          f"{deadlines} deadlines at once; one PostgreSQL; {os.cpu_count()} cores here, load "
          f"{os.getloadavg()[0]:.1f} at the start", flush=True)
    one = await run("1 process, shards 0-2", [(0, 1, 2)], campaigns, notes, deadlines, in_flight)
    print("\n".join(one.lines()), flush=True)
    three = await run("3 processes, a shard each", [(0,), (1,), (2,)], campaigns, notes, deadlines, in_flight)
    print("\n".join(three.lines()), flush=True)
    line = (f"3 processes vs 1: posts/s {three.posts_per_second / one.posts_per_second:.2f}×, "
            f"p99 latency {three.p99_ms / one.p99_ms:.2f}×, p50 latency {three.p50_ms / one.p50_ms:.2f}×, "
            f"Herald CPU per note {three.notes_cpu.herald / one.notes_cpu.herald:.2f}×")
    if deadlines:
        line += f", deadlines/s {one.deadlines_seconds / three.deadlines_seconds:.2f}×"
    print(line, flush=True)


def main() -> None:
    asyncio.run(compare())


if __name__ == "__main__":
    main()
