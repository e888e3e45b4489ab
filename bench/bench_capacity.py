"""Capacity: what a command costs through the whole stack, beside the raw database floor measured in the same run.

Every figure is CPU time of this process (`time.process_time`: the event loop, SQLite's worker threads and the
render threads), never wall time, and every ratio compares two things measured interleaved, round by round,
so a noisy shared machine moves both alike. Commands go in as real INTERACTION_CREATE payloads through the
console's FakeDiscord into the bot's real CommandTree, services and database; replies come back through
discord.py's HTTP layer into the fake.

    python -m bench bench_capacity          # ~2-3 minutes
    HERALD_BENCH_SCALE=4 python -m bench bench_capacity     # more operations per round
    HERALD_BENCH_PROFILE=1 …                 # add a cProfile of /orders submit, grouped by package
    HERALD_BENCH_POSTGRES_URL=…              # default: the test PostgreSQL on 127.0.0.1:5432/test
    HERALD_BENCH_REVISION=0002               # measure an older schema (here: without the lookup indexes)
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import gc
import os
import pstats
import secrets
import sqlite3
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discord.webhook.async_ import async_context
from sqlalchemy import event, insert, select, update

from bot.console.fake import GUILD_ID
from bot.console.runner import Console
from bot.console.script import parse
from bot.ops import heap
from bot.service import cache
from bot.store import db as db_module
from bot.store import migrate
from bot.store.db import SINGLE_READ, Database
from bot.store.models import Campaign, LogEntry, Seat

SCALE = float(os.environ.get("HERALD_BENCH_SCALE", "1"))
PG_URL = os.environ.get("HERALD_BENCH_POSTGRES_URL",
                        os.environ.get("HERALD_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"))
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ROUNDS = 5
CAMPAIGNS = int(10_000 * max(SCALE, 1))
HISTORY_TURNS = 500
IN_FLIGHT = 50
REVISION = os.environ.get("HERALD_BENCH_REVISION", "head")  # e.g. 0002: the schema before its indexes

Op = Callable[[], Awaitable[object]]


def _n(count: int) -> int:
    return max(1, round(count * SCALE))


# -- driving the bot with prepared payloads ----------------------------------------------------------------------


class Table:
    """A console (real bot, FakeDiscord, database) driven by prepared payloads, without the console's printing."""

    def __init__(self, con: Console, db: Database, schema: str | None) -> None:
        self.con, self.db, self.schema = con, db, schema
        self.last_token = ""

    @classmethod
    async def open(cls, url: str, *, schema: str | None = None) -> Table:
        db = Database(url, connect_args={"server_settings": {"search_path": schema}} if schema else None)
        await migrate.upgrade(db, REVISION)
        con = Console(db, seed="demo", echo=lambda _: None, base_dir=EXAMPLES)
        table = cls(con, db, schema)
        table.use()
        await con.start()
        return table

    def use(self) -> None:
        """Point discord.py's webhook adapter (a context variable) at this table's fake, for tasks started now."""
        async_context.set(self.con.fake.adapter)

    async def script(self, lines: list[str]) -> None:
        self.use()
        for line in lines:
            if not line.lstrip().startswith(("expect", "echo")):  # a story's checks hold only for its own seed
                await self.con.run_line(line)
        self.tidy()

    def command(self, line: str) -> Callable[[], dict[str, Any]]:
        """Fresh payloads (new interaction id and token each) for one console line, built once."""
        parsed = parse(line)
        assert parsed is not None and parsed.user
        fake = self.con.fake
        user_id = fake.user(parsed.user)
        channel_id = self.con._channel_id(parsed.channel or self.con.channel)
        data = self.con._command_data(parsed, user_id, focused=False)
        return lambda: fake.interaction(2, data, user_id=user_id, channel_id=channel_id)

    def dispatch(self, payload: dict[str, Any]) -> list[asyncio.Task[Any]]:
        """Deliver one INTERACTION_CREATE as the gateway would; the handler tasks it started (seen as they are
        made: comparing `asyncio.all_tasks()` before and after walks every task alive, the bot's own background
        ones included, twice per command, and that was counted in the command's cost)."""
        loop = asyncio.get_running_loop()
        started: list[Any] = []
        factory = loop.get_task_factory()

        def record(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
            task = factory(loop, coro, **kwargs) if factory else asyncio.Task(coro, loop=loop, **kwargs)
            started.append(task)
            return task

        loop.set_task_factory(record)
        try:
            self.con._asked[payload["token"]] = 0
            self.con.fake.dispatch("INTERACTION_CREATE", payload)
        finally:
            loop.set_task_factory(factory)
        return started

    def op(self, line: str) -> Op:
        make = self.command(line)

        async def run() -> None:
            payload = make()
            self.last_token = payload["token"]
            await asyncio.gather(*self.dispatch(payload))
            if not self.con.fake.answered.get(payload["token"]):
                raise RuntimeError(f"never answered: {line}")
        return run

    def reply(self, token: str | None = None) -> str:
        """The first line of the last answer to an interaction (to show a case measures what it claims to)."""
        fake = self.con.fake
        for sent in reversed(fake.sent):
            if sent.params.get("token") != (token or self.last_token):
                continue
            payload = sent.payload or {}
            data = payload.get("data") if sent.kind == "interaction_response" else payload
            if isinstance(data, dict) and (data.get("content") or sent.files or data.get("embeds")):
                files = f" [+{len(sent.files)} file]" if sent.files else ""
                first = data.get("content") or (data.get("embeds") or [{}])[0].get("title") or ""
                return first.split("\n")[0][:90] + files
        return "(no answer)"

    def tidy(self) -> None:
        """Forget what the fake recorded, so memory stays flat over thousands of operations."""
        fake = self.con.fake
        for store in (fake.sent, fake.messages, fake.answered, fake._interactions, fake._originals,
                      fake.attachments, fake.nonces, self.con._asked):
            store.clear()

    async def pump(self) -> None:
        self.use()
        await self.con.pump()
        self.tidy()

    async def close(self) -> None:
        await self.con.close()
        await self.db.dispose()
        if self.schema:
            await _drop_schema(self.schema)


async def _create_schema() -> str | None:
    """A PostgreSQL schema of our own, or None when no PostgreSQL answers."""
    schema = f"bench_{secrets.token_hex(4)}"
    admin = Database(PG_URL, connect_args={"timeout": 3})
    try:
        async with admin.writer.begin() as conn:
            await conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    except Exception:  # any failure to reach it means "no PostgreSQL here"
        return None
    finally:
        await admin.dispose()
    return schema


async def _drop_schema(schema: str) -> None:
    admin = Database(PG_URL)
    async with admin.writer.begin() as conn:
        await conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    await admin.dispose()


# -- measuring ----------------------------------------------------------------------------------------------------


@dataclass
class Case:
    op: Op
    count: int  # operations per round
    before: Callable[[], Awaitable[None]] | None = None  # outside the timing: switch tables, deliver posts…


async def side_by_side(cases: dict[str, Case], rounds: int = ROUNDS) -> dict[str, float]:
    """Median CPU seconds per operation of each case, the cases interleaved round by round."""
    per_op: dict[str, list[float]] = {name: [] for name in cases}
    for case in cases.values():  # warm: imports, caches, first-time compiles
        if case.before:
            await case.before()
        await case.op()
    for _ in range(rounds):
        for name, case in cases.items():
            if case.before:
                await case.before()
            gc.collect()
            start = time.process_time()
            for _ in range(case.count):
                await case.op()
            per_op[name].append((time.process_time() - start) / case.count)
    return {name: statistics.median(values) for name, values in per_op.items()}


def row(name: str, seconds: float, ratio: float | None = None, unit: str = "") -> None:
    rate = 1 / seconds if seconds else float("inf")
    tail = f"  {ratio:8.2f}× {unit}" if ratio is not None else ""
    print(f"{name:<58} {rate:10.0f} /CPU-s {seconds * 1000:9.3f} ms{tail}", flush=True)


def sqlite_floor(path: Path) -> Op:
    """The raw floor: sqlite3 stdlib, one small row inserted and committed, same file settings as Herald."""
    conn = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=15000"):
        conn.execute(f"PRAGMA {pragma}")
    conn.execute("CREATE TABLE IF NOT EXISTS floor (id INTEGER PRIMARY KEY, campaign_id INT, seat TEXT, text TEXT, "
                 "at TEXT)")

    async def run() -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO floor (campaign_id, seat, text, at) VALUES (?, ?, ?, ?)",
                     (1, "Carthage", "raise a levy in Iberia\nsend Hannibal over the Alps", "2026-01-05 12:00"))
        conn.execute("COMMIT")
    return run


async def postgres_floor(schema: str) -> tuple[Op, Callable[[], Awaitable[None]]]:
    """The same floor on PostgreSQL through asyncpg directly (client CPU only: the server is another process)."""
    import asyncpg  # type: ignore[import-untyped]

    dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")
    conn = await asyncpg.connect(dsn, server_settings={"search_path": schema})
    await conn.execute("CREATE TABLE floor (id serial PRIMARY KEY, campaign_id int, seat text, text text, at text)")

    async def run() -> None:
        async with conn.transaction():
            await conn.execute("INSERT INTO floor (campaign_id, seat, text, at) VALUES ($1, $2, $3, $4)",
                               1, "Carthage", "raise a levy in Iberia\nsend Hannibal over the Alps", "2026-01-05")
    return run, conn.close


# -- the campaigns ------------------------------------------------------------------------------------------------

FREEFORM = [
    "gm @gaius",
    '@gaius #forum /campaign create name:"Punic Wars" ruleset:freeform',
    "@gaius /gm upload kind:regions file:@freeform/regions.toml",
    "@hanno /campaign join seat:Carthage",
    "@livia /campaign join seat:Rome",
    "@ptolemy /campaign join seat:Egypt",
    "@gaius /campaign start",
]
SUBMIT = '@hanno #forum /orders submit text:"raise a levy in Iberia | send Hannibal over the Alps"'


def _one_turn(channel: str, name: str) -> list[str]:
    """A freeform campaign that has played one turn: orders, a public and a private result, an advance."""
    return [
        f'@gaius #{channel} /campaign create name:"{name}" ruleset:freeform',
        f"@cato{channel} /campaign join seat:Rome", f"@hamilcar{channel} /campaign join seat:Carthage",
        "@gaius /campaign start",
        f'@cato{channel} /orders submit text:"hold Sicilia | build a fleet"',
        f'@hamilcar{channel} /orders submit text:"raise a levy | sail for Sicilia"',
        '@gaius /gm act action:"result all: the fleets meet off Mylae; Rome wins."',
        '@gaius /gm act action:"result Carthage: your admiral is recalled in disgrace."',
        "@gaius /gm advance",
    ]


def _crowd(size: int) -> list[str]:
    """A freeform campaign of `size` seats, for interactions in flight at once."""
    lines = ['@gaius #crowd /campaign create name:Crowd ruleset:freeform options:"max_seats=60"']
    lines += [f"@p{i} /campaign join seat:S{i}" for i in range(size)]
    return [*lines, "@gaius /campaign start"]


def _script_until(path: Path, stop: str) -> list[str]:
    """A story's lines up to (not including) the line that starts with `stop`."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(stop):
            break
        lines.append(line.replace("file:@", f"file:@{path.parent.name}/"))
    return lines


async def _many_campaigns(table: Table, count: int) -> None:
    """`count` more campaigns (four seats each) in other channels, one in ten in this server, bulk-inserted."""
    async with table.db.write() as session:
        model = await session.scalar(select(Campaign).where(Campaign.name == "Punic Wars"))
        assert model is not None
        seats = list(await session.scalars(select(Seat).where(Seat.campaign_id == model.id)))
        base = {c.key: getattr(model, c.key) for c in Campaign.__mapper__.column_attrs if c.key != "id"}
        seat_base = {c.key: getattr(seats[0], c.key) for c in Seat.__mapper__.column_attrs if c.key != "id"}
        first = (await session.scalar(select(Campaign.id).order_by(Campaign.id.desc()).limit(1)) or 0) + 1
        for start in range(0, count, 2000):
            chunk = range(start, min(count, start + 2000))
            await session.execute(insert(Campaign), [
                {**base, "id": first + i, "guild_id": GUILD_ID if i % 10 == 0 else 5_000_000 + i % 1000,
                 "channel_id": 7_000_000 + i, "thread_id": 8_000_000 + i, "gm_thread_id": 9_000_000 + i,
                 "name": f"Campaign {i}", "gm_user_id": 3_000_000 + i % 500} for i in chunk])
            await session.execute(insert(Seat), [
                {**seat_base, "campaign_id": first + i, "name": f"Seat {k}", "position": k,
                 "user_id": 1_000_000 + (i * 4 + k) % 20_000, "thread_id": 6_000_000 + i * 4 + k}
                for i in chunk for k in range(4)])


async def _long_history(table: Table, name: str, turns: int) -> None:
    """Copy a campaign's turn-1 log entries into turns 2..`turns` (bulk Core inserts), as a long war would have."""
    async with table.db.write() as session:
        campaign = await session.scalar(select(Campaign).where(Campaign.name == name))
        assert campaign is not None
        entries = list(await session.scalars(select(LogEntry).where(LogEntry.campaign_id == campaign.id,
                                                                    LogEntry.turn == 1)))
        cols = [c.key for c in LogEntry.__mapper__.column_attrs if c.key != "id"]
        seq = campaign.log_seq
        rows = []
        for turn in range(2, turns + 1):
            for entry in entries:
                seq += 1
                rows.append({**{k: getattr(entry, k) for k in cols}, "seq": seq, "turn": turn})
        for start in range(0, len(rows), 5000):
            await session.execute(insert(LogEntry), rows[start:start + 5000])
        await session.execute(update(Campaign).where(Campaign.id == campaign.id)
                              .values(log_seq=seq, turn=turns, version_id=Campaign.version_id + 1))  # at its last turn


# -- the report ---------------------------------------------------------------------------------------------------


async def _submit_vs_floor(label: str, table: Table, floor: Op, floor_label: str) -> None:
    submit = table.op(SUBMIT)
    got = await side_by_side({"submit": Case(submit, _n(40), before=table.pump),
                              "floor": Case(floor, _n(400))}, rounds=7)
    print(f"  reply: {table.reply()}")
    row(f"/orders submit, full stack ({label})", got["submit"], got["submit"] / got["floor"], "the floor")
    row(floor_label, got["floor"], 1.0, "")


async def _reads(table: Table, tn: Table, lote: Table) -> None:
    lines = {
        "/campaign status (freeform)": (table, "@gaius #forum /campaign status"),
        "/campaign status (Terra Nova, turn 3 of the example)": (tn, "@gm #colonies /campaign status"),
        "/campaign status (LotE, turn 2 of the example)": (lote, "@gm #courts /campaign status"),
        "/roll 2d6+1 (logged in the campaign)": (table, "@livia #forum /roll notation:2d6+1"),
        # a played turn (orders, results, an advance), not Punic Wars' turn 1, which holds every submit measured
        "/history turn:1 (freeform, a played turn)": (table, "@catowar1 #war1 /history turn:1"),
        "/map (freeform regions, second call)": (table, "@livia #forum /map"),
        "/map (Terra Nova, second call)": (tn, "@isabel #colonies /map"),
    }
    cases = {}
    for name, (t, line) in lines.items():
        # each round asks for the map once first (untimed: drawn if the data changed), so the timed calls are what
        # the label says, second calls
        before = _switch(t, warm=t.op(line)) if "/map" in name else _switch(t)
        cases[name] = Case(t.op(line), _n(25), before=before)
    got = await side_by_side(cases)
    for name, (t, line) in lines.items():
        row(name, got[name])
        t.use()
        await t.op(line)()
        print(f"  reply: {t.reply()}")


def _switch(table: Table, warm: Op | None = None) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        await table.pump()
        if warm is not None:
            await warm()
            await table.pump()
    return run


async def _growth(small: Table, big: Table) -> None:
    commands = {"/orders submit": SUBMIT, "/campaign status": "@gaius #forum /campaign status",
                "/roll (no campaign here: finds none first)": "@stranger #lobby /roll notation:d20"}
    cases = {}
    for name, line in commands.items():
        cases[f"{name} @1"] = Case(small.op(line), _n(30), before=_switch(small))
        cases[f"{name} @{CAMPAIGNS}"] = Case(big.op(line), _n(30), before=_switch(big))
    got = await side_by_side(cases, rounds=7)
    for name in commands:
        one, many = got[f"{name} @1"], got[f"{name} @{CAMPAIGNS}"]
        row(f"{name}, {CAMPAIGNS} campaigns", many, many / one, "1 campaign")


async def _history_growth(table: Table) -> None:
    short, long = "@catowar1 #war1 /history turn:1", f"@catowar{HISTORY_TURNS} #war{HISTORY_TURNS} /history turn:1"
    got = await side_by_side({"1": Case(table.op(short), _n(20), before=_switch(table)),
                              "n": Case(table.op(long), _n(20), before=_switch(table))})
    table.use()
    await table.op(long)()
    print(f"  reply: {table.reply()}")
    row("/history turn:1, 1 turn on record", got["1"])
    row(f"/history turn:1, {HISTORY_TURNS} turns on record", got["n"], got["n"] / got["1"], "1 turn")


async def _in_flight(label: str, table: Table, rounds: int = 4) -> None:
    """IN_FLIGHT seats of one campaign submit at once: each one's latency from dispatch to its last reply. A first
    burst, not counted, opens the connections the pool keeps (PostgreSQL: one per submit waiting for the
    campaign's lock, up to the pool's size); its slowest is printed on its own line."""
    makers = [table.command(f'@p{i} #crowd /orders submit text:"hold | advance on the capital"')
              for i in range(IN_FLIGHT)]
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    cpu = 0.0
    first_burst = 0.0
    for round_ in range(rounds + 1):
        await table.pump()
        table.use()
        gc.collect()
        start_cpu = time.process_time()
        done: list[Awaitable[Any]] = []
        burst: list[float] = []
        for make in makers:
            sent_at = loop.time()
            tasks = table.dispatch(make())

            async def finish(tasks: list[asyncio.Task[Any]] = tasks, sent_at: float = sent_at,
                             burst: list[float] = burst) -> None:
                await asyncio.gather(*tasks)
                burst.append(loop.time() - sent_at)
            done.append(finish())
        await asyncio.gather(*done)
        if not all(table.con.fake.answered.values()):
            raise RuntimeError("an interaction in flight was never answered")
        if round_ == 0:
            first_burst = max(burst)
            continue
        cpu += time.process_time() - start_cpu
        latencies += burst
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{f'{IN_FLIGHT} /orders submit in flight ({label})':<58} p50 {statistics.median(latencies) * 1000:8.0f} ms"
          f"   p99 {p99 * 1000:8.0f} ms   max {latencies[-1] * 1000:8.0f} ms   "
          f"{len(latencies) / cpu:6.0f} /CPU-s", flush=True)
    print(f"  (the first burst, not counted above, opened the pool's connections: slowest {first_burst * 1000:.0f} ms)")


async def _lag(label: str, start: Callable[[], Awaitable[list[asyncio.Task[Any]]]]) -> None:
    """The longest a 1 ms ticker on the event loop was held while the work `start` dispatches runs."""
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    stop = False

    async def ticker() -> None:
        while not stop:
            before = loop.time()
            await asyncio.sleep(0.001)
            lags.append(loop.time() - before - 0.001)

    # what our code itself holds the loop for: the CPU time of the event loop's thread in one callback (the
    # ticker's wall-clock lag adds the GIL held by render threads and, on a shared machine, the OS's scheduling)
    holds: list[float] = []
    run_handle = asyncio.events.Handle._run

    def timed(handle: asyncio.events.Handle) -> None:
        begin = time.thread_time()
        try:
            run_handle(handle)
        finally:
            holds.append(time.thread_time() - begin)

    gc.collect()
    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    start_cpu = time.process_time()
    asyncio.events.Handle._run = timed  # type: ignore[method-assign]
    try:
        await asyncio.gather(*await start())
    finally:
        asyncio.events.Handle._run = run_handle  # type: ignore[method-assign]
    cpu = time.process_time() - start_cpu
    stop = True
    await tick
    lags.sort()
    p99 = lags[int(len(lags) * 0.99)]
    print(f"{'event-loop lag: ' + label:<58} max {lags[-1] * 1000:8.1f} ms   p99 {p99 * 1000:6.1f} ms   "
          f"held by one callback: max {max(holds) * 1000:5.1f} ms CPU   ({len(lags)} ticks, {cpu:.2f} CPU-s of work)",
          flush=True)


async def _loop_lag(tn: Table, lote: Table) -> None:
    """Loop lag with 10 status, with 10 maps, then with both and a LotE resolution at once (which part holds it)."""
    await tn.pump()
    await lote.pump()

    async def statuses() -> list[asyncio.Task[Any]]:
        work = []
        for i in range(10):
            table, line = (tn, "@gm #colonies /campaign status") if i % 2 else (lote, "@gm #courts /campaign status")
            table.use()
            work += table.dispatch(table.command(line)())
            await asyncio.sleep(0)  # one gateway event per loop turn, as they arrive from the socket
        return work

    # ten different maps (five viewers, two turns), none of them drawn before: every one is a real render
    map_lines = [f"@{who} #colonies /map turn:{turn}" for who in ("gm", "isabel", "manuel", "henry", "onlooker")
                 for turn in (1, 2)]

    async def maps() -> list[asyncio.Task[Any]]:
        cache.MAPS.clear()
        work = []
        for line in map_lines:
            tn.use()
            payload = tn.command(line)()
            tn.last_token = payload["token"]
            work += tn.dispatch(payload)
            await asyncio.sleep(0)
        return work

    advance = lote.command("@gm #courts /gm advance")()

    async def everything() -> list[asyncio.Task[Any]]:
        lote.use()
        work = lote.dispatch(advance)
        await asyncio.sleep(0)
        return work + await statuses() + await maps()

    tn.use()
    await tn.op("@gm #colonies /map turn:1")()  # warm: the first query of a snapshot compiles its statement
    await _lag("10 /campaign status (Terra Nova, LotE)", statuses)
    await _lag("10 /map (Terra Nova), none drawn before", maps)
    await _lag("10 status + 10 maps + a LotE resolution", everything)
    print(f"  reply to the advance: {lote.reply(advance['token'])}")
    print(f"  reply to a map: {tn.reply()}")


async def _count_round_trips(table: Table, op: Op, count: int) -> tuple[float, float]:
    """SQL statements and trips to a worker thread (a statement that had to wait, a checkpoint) per operation."""
    from bot.store import inline_sqlite

    statements = 0

    def on_statement(*_: Any) -> None:
        nonlocal statements
        statements += 1

    def on_begin(conn: Any) -> None:  # Herald runs SQLite's BEGIN on the driver's connection, not through SQLAlchemy
        if conn.dialect.name == "sqlite" and not conn.get_execution_options().get(SINGLE_READ):
            on_statement()

    engines = {table.db.writer.sync_engine, table.db.reader.sync_engine}
    for engine in engines:
        event.listen(engine, "before_cursor_execute", on_statement)
        event.listen(engine, "begin", on_begin)
    trips, direct = inline_sqlite.trips, db_module.direct
    try:
        for _ in range(count):
            await op()
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", on_statement)
            event.remove(engine, "begin", on_begin)
    statements += db_module.direct - direct  # those straight on the driver's connection
    return statements / count, (inline_sqlite.trips - trips) / count


def _profile_submit(table: Table) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        submit = table.op(SUBMIT)
        await table.pump()
        statements, hops = await _count_round_trips(table, submit, 20)
        print(f"# /orders submit runs {statements:.0f} SQL statements (BEGIN included) and {hops:.2f} trips to a "
              f"worker thread")
        profiler = cProfile.Profile(time.thread_time)  # CPU of the event loop's thread, not waits
        count = _n(200)
        start = time.process_time()
        profiler.enable()
        for _ in range(count):
            await submit()
        profiler.disable()
        total = time.process_time() - start
        groups: dict[str, float] = {}
        stats = pstats.Stats(profiler)
        for (path, _line, _fn), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
            groups[_package(path)] = groups.get(_package(path), 0.0) + tottime
        seen = sum(groups.values())
        print(f"# profile of {count} /orders submit: {total / count * 1000:.2f} ms CPU each; the event loop's thread "
              f"({seen / total:.0%} of it; the rest is worker threads and the profiler) goes to:")
        for name, spent in sorted(groups.items(), key=lambda kv: -kv[1])[:14]:
            print(f"  {name:<28} {spent / count * 1000:7.3f} ms  {spent / seen:5.1%}")
        print("  top functions by own time (a coroutine's calls count each resumption):")
        stats.sort_stats("tottime")
        for func in stats.fcn_list[:15]:  # type: ignore[attr-defined]
            _cc, nc, tottime, _ct, _ = stats.stats[func]  # type: ignore[attr-defined]
            print(f"    {tottime / count * 1000:7.3f} ms  {nc / count:6.1f} calls  {_package(func[0])}:{func[2]}")
    return run


def _package(path: str) -> str:
    if "site-packages/" in path:
        return path.split("site-packages/")[1].split("/")[0]
    for mark in ("/bot/", "/engine/", "/bench/"):
        if mark in path:
            rest = path.split(mark, 1)[1].split("/")
            return mark.strip("/") + "." + (rest[0].removesuffix(".py"))
    if path.startswith("<") or path == "~":
        return "builtins (C)"
    return "stdlib:" + Path(path).stem


@contextlib.asynccontextmanager
async def _tables(tmp: Path) -> AsyncIterator[dict[str, Table]]:
    tables: dict[str, Table] = {}
    try:
        for name in ("small", "big", "tn", "lote"):
            tables[name] = await Table.open(f"sqlite+aiosqlite:///{tmp}/{name}.db")
        yield tables
    finally:
        for table in tables.values():
            await table.close()


async def run() -> None:
    print(f"# capacity (CPU time per operation; ratios measured interleaved in this run; scale {SCALE:g}, "
          f"schema {REVISION})")
    with tempfile.TemporaryDirectory(prefix="herald-bench-") as tmp_name:
        tmp = Path(tmp_name)
        async with _tables(tmp) as t:
            setup = time.process_time()
            for name in ("small", "big"):
                await t[name].script(FREEFORM)
            await t["small"].script(_one_turn("war1", "One Turn"))
            await t["small"].script(_one_turn(f"war{HISTORY_TURNS}", "Long War"))
            await t["small"].script(_crowd(IN_FLIGHT))
            await _long_history(t["small"], "Long War", HISTORY_TURNS)
            await _many_campaigns(t["big"], CAMPAIGNS)
            await t["tn"].script(_script_until(EXAMPLES / "terra-nova" / "three-turns.txt", "echo -- Turn 3"))
            await t["lote"].script(_script_until(EXAMPLES / "lote-modern" / "two-turns.txt",
                                                 "echo == Turn 2: processing"))
            print(f"(setup: {time.process_time() - setup:.1f} CPU-s)")
            heap.settle()  # as `herald run` does once started (bot.ops.heap)

            print("## full-stack /orders submit beside the raw insert+commit floor")
            await _submit_vs_floor("SQLite", t["small"], sqlite_floor(tmp / "floor.db"),
                                   "sqlite3 insert+commit floor (WAL, synchronous=NORMAL)")
            schema = await _create_schema()
            pg: Table | None = None
            if schema is None:
                print("(PostgreSQL not reachable: skipped)")
            else:
                pg = await Table.open(PG_URL, schema=schema)
                await pg.script(FREEFORM)
                await pg.script(_crowd(IN_FLIGHT))
                floor, close = await postgres_floor(schema)
                await _submit_vs_floor("PostgreSQL", pg, floor, "asyncpg insert+commit floor (client CPU)")
                await close()
            print("## reads and small writes")
            await _reads(t["small"], t["tn"], t["lote"])
            print("## growth")
            await _growth(t["small"], t["big"])
            await _history_growth(t["small"])
            print("## interactions in flight (one event loop)")
            await _in_flight("SQLite", t["small"])
            if pg is not None:
                await _in_flight("PostgreSQL", pg)
                await pg.close()
            print("## event-loop lag")
            await _loop_lag(t["tn"], t["lote"])
            if os.environ.get("HERALD_BENCH_PROFILE"):
                await _profile_submit(t["small"])()


def main() -> None:
    """Print the capacity report (the harness's `cases()` shape does not fit figures measured side by side)."""
    asyncio.run(run())


def cases() -> dict[str, Callable[[], object]]:
    return {}


if __name__ == "__main__":
    main()
