"""Every post appears exactly once, without trusting Discord's nonce window: claimed with a lease, sent in
recorded parts, reconciled against the channel when a send's outcome is unknown; threads are recorded as they
open and adopted after a lost response; only the users Herald means to ping are pinged."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

import engine.rulesets as registry
from bot.console.runner import Console
from bot.service import outbox, record
from bot.store.models import Campaign, OutboxPost


def messages_with(con: Console, text: str) -> list[dict[str, Any]]:
    """What Discord now shows in its channels (not the requests made): each message containing `text`."""
    return [m for m in con.fake.messages.values() if text in m["content"]]


def posts_of(con: Console, text: str) -> list[Any]:
    return [s for s in con.fake.sent
            if s.kind == "channel_message" and text in ((s.payload or {}).get("content") or "")]


async def outbox_row(con: Console, text: str) -> OutboxPost:
    async with con.services.db.read() as session:
        row = await session.scalar(select(OutboxPost).where(OutboxPost.content.contains(text)))
    assert row is not None
    return row


async def campaign_named(con: Console, name: str) -> Campaign:
    async with con.services.db.read() as session:
        row = await session.scalar(select(Campaign).where(Campaign.name == name))
    assert row is not None
    return row


async def retry(con: Console, times: int = 1) -> None:
    """Let a failed post's retry delay pass, and deliver."""
    for _ in range(times):
        con.clock.advance(outbox.RETRY_MOST)
        await con.pump()


@pytest.fixture
async def skies(console: Console) -> Console:
    """A freeform campaign whose threads are open, on a Discord that forgets nonces at once."""
    await console.run_line("@gm #t /campaign create name:Skies ruleset:freeform")
    console.fake.nonce_window = timedelta(0)
    return console


async def test_a_lost_response_is_reconciled_and_the_post_appears_once(skies: Console) -> None:
    skies.fake.fail("channel_message", "lost")
    await skies.run_line("@gm /gm note text:\"The comet returns.\"")
    assert len(messages_with(skies, "comet")) == 1  # Discord has it; Herald never heard back
    assert (await outbox_row(skies, "comet")).sent_at is None
    skies.clock.advance(timedelta(hours=2))  # a long outage: any nonce check is long over
    await skies.pump()
    shown = messages_with(skies, "comet")
    assert len(shown) == 1 and len(posts_of(skies, "comet")) == 1  # adopted, not sent again
    row = await outbox_row(skies, "comet")
    assert row.sent_at is not None and row.sent_parts == [int(shown[0]["id"])] and row.sending_since is None


async def test_a_refused_send_is_looked_for_then_sent(skies: Console) -> None:
    skies.fake.fail("channel_message", "500")
    await skies.run_line("@gm /gm note text:\"The comet returns.\"")
    assert messages_with(skies, "comet") == [] and (await outbox_row(skies, "comet")).sending_since is not None
    mark = len(skies.fake.sent)
    await retry(skies)
    kinds = [s.kind for s in skies.fake.sent[mark:]]
    assert kinds.index("channel_history") < kinds.index("channel_message")  # looked first, found nothing
    assert len(messages_with(skies, "comet")) == 1


async def test_a_rate_limited_send_is_retried_not_given_up(skies: Console) -> None:
    skies.fake.fail("channel_message", "429")
    await skies.run_line("@gm /gm note text:\"The comet returns.\"")
    assert messages_with(skies, "comet") == []
    await retry(skies)
    assert len(messages_with(skies, "comet")) == 1
    assert (await outbox_row(skies, "comet")).error is not None  # the refusal is kept, not hidden


async def test_a_long_post_lost_midway_sends_each_part_once(skies: Console) -> None:
    text = " ".join(f"comet{i:04d}" for i in range(600))  # ~5,400 characters: three messages
    skies.fake.fail("channel_message", "lost")  # the first part reaches Discord, its answer does not
    await skies.run_line(f"@gm /gm note text:\"{text}\"")
    await retry(skies)
    shown = sorted(messages_with(skies, "comet"), key=lambda m: int(m["id"]))
    assert len(shown) == len((await outbox_row(skies, "comet0000")).sent_parts) >= 3
    assert "".join(m["content"] for m in shown).count("comet0599") == 1
    assert sum("comet0000" in m["content"] for m in shown) == 1


async def test_a_lapsed_lease_of_a_dead_process_is_taken_over(skies: Console) -> None:
    async with skies.services.db.write() as session:
        campaign = await session.scalar(select(Campaign).where(Campaign.name == "Skies"))
        assert campaign is not None
        record.post(session, campaign, skies.services, "thread", "The comet returns.")
    assert [i for i, _ in await outbox.claim(skies.services, "dead-process")]  # it claimed, then died
    await skies.pump()
    assert messages_with(skies, "comet") == []  # the claim still holds
    skies.clock.advance(outbox.lease() + timedelta(seconds=1))
    await skies.pump()
    assert len(messages_with(skies, "comet")) == 1


async def test_a_later_post_of_a_campaign_waits_for_an_earlier_unsent_one(skies: Console) -> None:
    skies.fake.fail("channel_message", "500")
    await skies.run_line("@gm /gm note text:\"first comet\"")
    await skies.run_line("@gm /gm note text:\"second comet\"")  # the first waits to be retried
    assert messages_with(skies, "comet") == []  # the second did not overtake the first
    await retry(skies)
    shown = sorted(messages_with(skies, "comet"), key=lambda m: int(m["id"]))
    assert ["first" in m["content"] for m in shown] == [True, False]


async def test_two_deliverers_on_one_database_deliver_each_post_once(skies: Console) -> None:
    names = ["Moons", "Tides", "Stars"]
    for name in names:
        await skies.run_line(f"@gm #t{name.lower()} /campaign create name:{name} ruleset:freeform")
    async with skies.services.db.write() as session:
        for name in names:
            campaign = await session.scalar(select(Campaign).where(Campaign.name == name))
            assert campaign is not None
            for n in range(8):
                record.post(session, campaign, skies.services, "thread", f"{name} comet {n}")
    real = skies.bot.delivery

    class OverTheNetwork:
        """Discord takes a moment to answer, so the two deliverers really interleave."""

        async def send(self, *args: Any, **kwargs: Any) -> int:
            await asyncio.sleep(0.002)
            return await real.send(*args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    for _ in range(20):
        await asyncio.gather(*(outbox.deliver_pending(skies.services, OverTheNetwork(), owner=who)  # type: ignore[arg-type]
                               for who in ("left", "right")))
        if not await outbox.pending_count(skies.services):
            break
    for name in names:
        shown = sorted(messages_with(skies, f"{name} comet"), key=lambda m: int(m["id"]))
        assert [m["content"] for m in shown] == [f"{name} comet {n}" for n in range(8)]  # once each, in order


async def test_a_thread_whose_creation_response_is_lost_is_adopted_not_opened_twice(console: Console) -> None:
    console.fake.fail("create_thread", "lost")
    await console.run_line("@gm #t /campaign create name:Skies ruleset:freeform")
    await retry(console)
    threads = [c for c in console.fake.channels.values() if c["name"] == "Skies"]
    assert len(threads) == 1
    campaign = await campaign_named(console, "Skies")
    assert campaign.thread_id == int(threads[0]["id"]) and campaign.thread_opening_at is not None
    assert any(s.kind == "active_threads" for s in console.fake.sent)


async def test_private_threads_whose_creation_is_lost_are_adopted_with_their_members(console: Console) -> None:
    registry._REGISTRY["secretive"] = "tests.platform.secretive:Secretive"
    registry.get.cache_clear()
    try:
        await console.run_line("@gm #t /campaign create name:Whispers ruleset:secretive")
        await console.run_line("@pat /campaign join seat:Pat")
        await console.run_line("@gm /campaign start")
        console.fake.fail("create_thread", "lost")  # the seat's thread
        await console.run_line("@gm /gm note text:\"psst\" seat:Pat")
        assert messages_with(console, "psst") == []
        await retry(console)
        console.fake.fail("create_thread", "lost")  # the GM's thread
        await console.run_line("@gm /gm deadline set when:1h")
        await console.run_line("clock +2h")
        await retry(console)
    finally:
        del registry._REGISTRY["secretive"]
        registry.get.cache_clear()
    assert console.fake.faults == []
    for name, holder in (("Whispers — Pat", "pat"), ("Whispers — GM", "gm")):
        found = [cid for cid, c in console.fake.channels.items() if c["name"] == name]
        assert len(found) == 1, name
        assert console.fake.user(holder) in console.fake.thread_members[found[0]]
    pat = next(cid for cid, c in console.fake.channels.items() if c["name"] == "Whispers — Pat")
    assert [m["channel_id"] for m in messages_with(console, "psst")] == [str(pat)]
    assert len(messages_with(console, "deadline for **Turn 1** has passed: `/gm advance`")) == 1


@pytest.fixture
def nim() -> Iterator[None]:
    registry._REGISTRY["nim"] = "tests.platform.nim:Nim"
    registry.get.cache_clear()
    yield
    del registry._REGISTRY["nim"]
    registry.get.cache_clear()


async def test_only_the_seat_whose_turn_it_is_is_pinged(lite: Console, nim: None) -> None:
    await lite.run_line("@ada #hall /campaign create name:Pebbles ruleset:nim")
    await lite.run_line("@bea /campaign join seat:North")
    await lite.run_line("@cy /campaign join seat:East")
    await lite.run_line("@ada /campaign start")
    turn = messages_with(lite, "it's your turn")[0]
    holder = lite.fake.user("bea") if f"<@{lite.fake.user('bea')}>" in turn["content"] else lite.fake.user("cy")
    assert [int(u["id"]) for u in turn["mentions"]] == [holder]
    joined = messages_with(lite, "joins as")[0]  # names a user, means no ping
    assert joined["mentions"] == [] and not joined["mention_everyone"]
    bea = lite.fake.user("bea")
    await lite.run_line(f"@ada /gm note text:\"@everyone @here <@{bea}> <@&1> look\"")
    note = messages_with(lite, "look")[0]
    assert note["mentions"] == [] and not note["mention_everyone"]


async def test_a_reminder_pings_the_late_seat_and_no_one_else(lite: Console) -> None:
    registry._REGISTRY["secretive"] = "tests.platform.secretive:Secretive"
    registry.get.cache_clear()
    try:
        await lite.run_script("""
@gm #t /campaign create name:Whispers ruleset:secretive
@pat /campaign join seat:Pat
@ann /campaign join seat:Ann
@gm /campaign start
@ann /orders submit text:"hold"
@gm /gm deadline set when:2d
clock +25h
""")
    finally:
        del registry._REGISTRY["secretive"]
        registry.get.cache_clear()
    reminder = messages_with(lite, "are due")
    assert len(reminder) == 1
    assert [int(u["id"]) for u in reminder[0]["mentions"]] == [lite.fake.user("pat")]
    assert not reminder[0]["mention_everyone"]


async def test_a_claim_of_a_killed_process_of_this_machine_is_taken_over_at_once(skies: Console) -> None:
    async with skies.services.db.write() as session:
        campaign = await session.scalar(select(Campaign).where(Campaign.name == "Skies"))
        assert campaign is not None
        record.post(session, campaign, skies.services, "thread", "The comet returns.")
    gone = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await gone.wait()
    host, ns, _pid, _tag = outbox.PROCESS.split("|")
    assert await outbox.claim(skies.services, f"{host}|{ns}|{gone.pid}|dead")
    assert outbox.claimant_is_dead(f"{host}|{ns}|{gone.pid}|dead")
    assert not outbox.claimant_is_dead(outbox.PROCESS)  # this process runs
    assert not outbox.claimant_is_dead(f"elsewhere|{ns}|{gone.pid}|dead")  # another machine: cannot tell
    await skies.pump()  # no waiting for the lease
    assert len(messages_with(skies, "comet")) == 1


async def test_an_unreadable_channel_does_not_lose_an_uncertain_post(skies: Console) -> None:
    skies.fake.fail("channel_message", "500")
    await skies.run_line("@gm /gm note text:\"The comet returns.\"")
    skies.fake.fail("channel_history", "403")  # Herald may post but not read the channel's history
    await retry(skies)
    assert len(messages_with(skies, "comet")) == 1
