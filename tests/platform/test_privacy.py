"""Privacy: a seat's old holder is out of its private thread before the next word to it; no secret in any log."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import select

from bot.console.fake import Sent
from bot.console.runner import Console
from bot.store.models import Campaign
from tests.platform.conftest import Capture

SETUP = """
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
@gaius /gm note seat:Arverni text:"before: the druids trust you"
"""


def seat_thread(con: Console, seat: str) -> int:
    return next(cid for cid, data in con.fake.channels.items() if data["name"] == f"Gaul — {seat}")


def members(con: Console, thread: int) -> set[str]:
    return {con.fake.users[uid] for uid in con.fake.thread_members[thread] if uid in con.fake.users}


def index_of(sent: list[Sent], kind: str, thread: int, *, user: str = "", text: str = "",
             con: Console | None = None) -> int:
    for i, s in enumerate(sent):
        if s.kind != kind or int(s.params.get("channel_id", 0)) != thread:
            continue
        if user and con is not None and s.params.get("user_id") != con.fake.user(user):
            continue
        if text and text not in ((s.payload or {}).get("content") or ""):
            continue
        return i
    raise AssertionError(f"no {kind} in thread {thread} ({user or text})")


@pytest.mark.parametrize(("line", "successor"), [
    ("@vercingetorix #forum /campaign leave", None),
    ("@gaius #forum /gm seat kick seat:Arverni", None),
    ("@gaius #forum /gm seat replace seat:Arverni user:@vercassivellaunus", "vercassivellaunus"),
])
async def test_the_old_holder_is_out_of_the_seat_thread_before_the_gm_writes_to_it_again(
        console: Console, line: str, successor: str | None) -> None:
    await console.run_script(SETUP)
    thread = seat_thread(console, "Arverni")
    assert "vercingetorix" in members(console, thread)
    await console.run_line(line)
    if "/gm seat" in line:  # taking a seat from a person is confirmed first
        await console.run_line('@gaius press "' + ("Remove them" if "kick" in line else "Replace them") + '"')
    await console.run_line('@gaius #forum /gm note seat:Arverni text:"after: the siege plans"')
    sent = console.fake.sent
    removed = index_of(sent, "thread_member_remove", thread, user="vercingetorix", con=console)
    note = index_of(sent, "channel_message", thread, text="after: the siege plans")
    assert removed < note, "the old holder must leave the thread before the next private word reaches it"
    assert "vercingetorix" not in members(console, thread)
    assert members(console, thread) & {"vercingetorix", "ambiorix"} == set()
    if successor:
        assert successor in members(console, thread)
        assert index_of(sent, "thread_member_add", thread, user=successor, con=console) < note
    # the old holder sees nothing of it anywhere else either
    for s in sent[note:]:
        assert "siege plans" not in str(s.payload) or int(s.params.get("channel_id", 0)) == thread
    assert "you have no seat" in "\n".join(await console.run_line("@vercingetorix #forum /orders list"))


async def test_leaving_in_the_lobby_opens_no_thread(lite: Console) -> None:
    await lite.run_script("""
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@vercingetorix /campaign leave
""")
    assert not any(data["name"].startswith("Gaul — ") for data in lite.fake.channels.values())


async def test_at_debug_the_log_holds_no_seed_no_private_orders_and_no_private_note(
        console: Console, debug_log: Capture) -> None:
    await console.run_script(SETUP.replace('"before: the druids trust you"', '"the druids trust Ambiorix"') + """
@vercingetorix #forum /orders submit text:"march secretly on Gergovia"
@gaius #forum /gm act action:"result Arverni: the Aedui will betray Rome"
@gaius #forum /gm advance
@gaius press "Advance anyway"
""")
    async with console.services.db.read() as session:
        seed = await session.scalar(select(Campaign.seed).where(Campaign.name == "Gaul"))
    assert seed and len(seed) == 64
    log = debug_log.text
    for secret in (seed, "trust Ambiorix", "secretly on Gergovia", "will betray Rome", "token-for-tests"):
        assert secret not in log, secret


def test_the_redactor_hides_seeds_tokens_and_tracebacks_whoever_logs_them(debug_log: Capture) -> None:
    seed = "ab" * 32
    try:
        raise ValueError(f"bad seed {seed}")
    except ValueError:
        logging.getLogger("somelibrary").exception("failed with %s and MTIz.token-for-tests.xyz", seed)
    assert seed not in debug_log.text and "token-for-tests" not in debug_log.text
    assert "failed with [redacted] and [redacted]" in debug_log.text and "ValueError: bad seed [redacted]" in (
        debug_log.text)
