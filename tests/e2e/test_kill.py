"""kill -9 the real `herald run` at each crash point, restart it after Discord's nonce window has passed, and
check what a Discord server would show: every post exactly once, one thread per campaign and seat, and a
command's change applied once (a retried command is told it was already saved). Plus a run against a Discord
that fails about 30% of the calls a post makes, where every post still appears exactly once."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.service.faults import POINTS
from tests.e2e.discord_server import FakeDiscordServer, shown_text
from tests.e2e.herald_process import HANNO, LIVIA, Herald

pytestmark = pytest.mark.slow
LEASE = "2"  # seconds: a killed process's claims on posts lapse this soon (the default is minutes)


def texts(server: FakeDiscordServer, needle: str) -> list[tuple[str, str]]:
    """(thread name, content) of every post containing `needle`."""
    names = {str(c.id): c.name for c in server.channels.values()}
    return [(names[m["channel_id"]], shown_text(m)) for m in server.posts() if needle in shown_text(m)]


async def posted(server: FakeDiscordServer, needle: str, timeout: float = 90) -> None:  # noqa: ASYNC109
    """Wait for a post containing `needle`; if it never comes, fail showing what Discord does hold."""
    try:
        await server.wait_until(lambda: bool(texts(server, needle)), timeout=timeout)
    except TimeoutError:
        shown = "\n".join(f"{name}: {text[:80]!r}" for name, text in texts(server, ""))
        raise AssertionError(f"never posted: {needle!r}; duplicates {server.duplicates()}; posts:\n{shown}") from None


def undelivered(data_dir: Path) -> list[tuple[int, str, str | None]]:
    with sqlite3.connect(data_dir / "herald.db") as db:
        return list(db.execute("SELECT id, target, error FROM outbox WHERE sent_at IS NULL"))


async def drained(data_dir: Path, timeout: float = 60) -> None:  # noqa: ASYNC109
    """Wait until the outbox has marked every post sent (what was seen on Discord may be a step ahead)."""
    async with asyncio.timeout(timeout):
        while undelivered(data_dir):  # noqa: ASYNC110 - another process's database: nothing to wait on but time
            await asyncio.sleep(0.1)


def assert_exactly_once(server: FakeDiscordServer) -> None:
    """What a user scrolling the server would notice: no post twice, no thread twice, nothing refused."""
    assert server.duplicates() == [], server.duplicates()
    threads = Counter((t.parent_id, t.name) for t in server.threads())
    assert all(n == 1 for n in threads.values()), threads
    assert server.refused == [], server.refused


async def campaign_under_way(herald: Herald) -> None:
    """A freeform campaign with two seats, started, both seats' orders in: its thread holds the opening posts."""
    await herald.run("campaign", "create", name="Kill", ruleset="freeform")
    await herald.run("campaign", "join", user=LIVIA, seat="Rome")
    await herald.run("campaign", "join", user=HANNO, seat="Carthage")
    assert "has started" in await herald.run("campaign", "start")
    await posted(herald.server, "Turn 1 — orders**: orders are open")
    # every seat in, so /gm advance resolves at once (with a seat missing it would ask the GM to confirm first)
    assert "saved" in await herald.run("orders", "submit", user=LIVIA, text="hold Sicily")
    assert "saved" in await herald.run("orders", "submit", user=HANNO, text="cross the Alps")
    await posted(herald.server, "Every seat has sent orders")


# what each crash point is reached by: a turn advance posts twice to the campaign thread; a private note to a
# seat that has never had one opens the seat's thread first
CRASHING_COMMAND: dict[str, tuple[str, str, dict[str, Any]]] = {
    "after-commit": ("gm", "advance", {}),
    "before-send": ("gm", "advance", {}),
    "after-send": ("gm", "advance", {}),
    "thread-opening": ("gm", "note", {"seat": "Rome", "text": "Rome alone reads this"}),
    "thread-opened": ("gm", "note", {"seat": "Rome", "text": "Rome alone reads this"}),
}


@pytest.mark.parametrize("point", POINTS)
async def test_killed_at_a_crash_point_every_post_appears_once(point: str, server: FakeDiscordServer,
                                                               tmp_path: Path) -> None:
    herald = Herald(server, tmp_path, HERALD_OUTBOX_LEASE=LEASE)
    await herald.start()
    await campaign_under_way(herald)
    await herald.stop()

    await herald.start(crash_at=point)
    group, sub, options = CRASHING_COMMAND[point]
    crashed = await herald.command(group, sub, **options)
    await herald.killed()

    server.expire_nonces()  # the restart comes after Discord's nonce window: only Herald can prevent a repeat
    await herald.start()
    if point == "after-commit":
        assert server.visible_answers(crashed) == 0  # the change was saved, the answer never left
        retry = await herald.run(group, sub, **options)
        assert "saved" in retry
        assert "Nothing was done again" in retry
    await herald.run("gm", "note", text="after the restart")
    await posted(server, "after the restart")
    if sub == "advance":
        await posted(server, "Turn 2 — orders**: orders are open")
        assert len(texts(server, "Turn 2 — orders**: orders are open")) == 1
        assert texts(server, "Turn 3") == []  # advanced once, not twice
    else:
        await posted(server, "Rome alone reads this")
        assert texts(server, "Rome alone reads this") == [("Kill — Rome", "📜 **The GM:** Rome alone reads this")]
        rome = next(t for t in server.threads() if t.name == "Kill — Rome")
        assert LIVIA in rome.members
        assert HANNO not in rome.members
    await drained(tmp_path)
    log = await herald.stop()
    assert_exactly_once(server)
    assert "Traceback" not in log, log[-3000:]


async def test_against_a_discord_failing_a_third_of_calls_every_post_appears_once(server: FakeDiscordServer,
                                                                                  tmp_path: Path) -> None:
    server.nonce_window = 0.0  # Discord's nonce check never helps: exactly once is Herald's own doing
    herald = Herald(server, tmp_path)
    await herald.start()
    server.faults.flaky(0.3, seed=8)
    await campaign_under_way(herald)
    notes = []
    for i in range(3):
        notes.append(f"public word {i}")
        assert "Note posted" in await herald.run("gm", "note", text=notes[-1])
        notes.append(f"private word {i}")
        assert "Note posted" in await herald.run("gm", "note", text=notes[-1], seat="Rome" if i % 2 else "Carthage")
    assert "resolved" in await herald.run("gm", "advance")
    assert "Note posted" in await herald.run("gm", "note", text="the last word")
    for needle in [*notes, "Turn 2 — orders**: orders are open", "the last word"]:
        await posted(server, needle, timeout=240)
        assert len(texts(server, needle)) == 1, texts(server, needle)
    await drained(tmp_path)
    log = await herald.stop()
    assert_exactly_once(server)
    assert sorted(t.name for t in server.threads()) == ["Kill", "Kill — Carthage", "Kill — GM", "Kill — Rome"]
    assert sum(server.faults.injected.values()) >= 6, server.faults.injected
    assert "Traceback" not in log, log[-3000:]
    print(f"\n30% failing Discord: {len(server.posts())} posts, each once, through "
          f"{sum(server.faults.injected.values())} injected faults {dict(server.faults.injected)}")
