"""The outbox: a post committed before a crash is delivered once after restart, and a post sent but not yet
marked sent when the process died is not posted twice (found in the channel, even after the nonce window)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.console.fake import GUILD_ID
from bot.console.runner import Console
from bot.service import gm, outbox
from bot.service.context import Caller
from bot.store import migrate
from bot.store.db import Database


class ProcessDied(BaseException):
    """Stands for the process being killed (not an error the code could handle)."""


async def boot(url: str, seed: str) -> Console:
    db = Database(url)
    await migrate.upgrade(db)
    con = Console(db, seed=seed, echo=lambda _: None)
    await con.start()
    return con


async def stop(con: Console) -> None:
    await con.close()
    await con.services.db.dispose()


def comet_posts(con: Console) -> list[object]:
    return [s for s in con.fake.sent if s.kind == "channel_message" and "comet" in (s.payload.get("content") or "")
            and not s.payload.get("deduplicated")]


async def note_without_delivery(con: Console) -> None:
    """The GM's note is committed, and the process dies before the delivery task runs."""
    caller = Caller(user_id=con.fake.user("gm"), name="gm", guild_id=GUILD_ID, channel_id=con.fake.channel("t"))
    await gm.note(con.services, caller, "The comet returns.", None, None)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/herald.db"


async def test_killed_between_commit_and_post_delivers_once_after_restart(url: str) -> None:
    first = await boot(url, "one")
    await first.run_line("@gm #t /campaign create name:Skies ruleset:freeform")
    await note_without_delivery(first)
    assert comet_posts(first) == []
    await stop(first)

    second = await boot(url, "two")
    await second.pump()
    await second.pump()
    assert len(comet_posts(second)) == 1
    await stop(second)


async def test_killed_between_post_and_marking_sent_does_not_post_twice(url: str) -> None:
    first = await boot(url, "one")
    await first.run_line("@gm #t /campaign create name:Skies ruleset:freeform")
    await note_without_delivery(first)
    real = first.bot.delivery

    class DiesAfterSending:
        async def send(self, *args: object, **kwargs: object) -> int:
            await real.send(*args, **kwargs)  # type: ignore[arg-type]
            raise ProcessDied

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

    with pytest.raises(ProcessDied):
        await outbox.deliver_pending(first.services, DiesAfterSending())  # type: ignore[arg-type]
    assert len(comet_posts(first)) == 1
    discord_keeps = first.fake.messages
    await stop(first)

    second = await boot(url, "two")
    second.fake.messages.update(discord_keeps)  # the same Discord: it keeps the message, not the nonce
    await second.pump()
    assert comet_posts(second) == []  # the dead process's claim holds until its lease lapses
    second.clock.advance(timedelta(hours=1))  # a long outage: lease and Discord's nonce window are long gone
    await second.pump()
    assert comet_posts(second) == []  # found in the channel and adopted, not posted again
    assert any(s.kind == "channel_history" for s in second.fake.sent)
    assert not any(s.payload and s.payload.get("deduplicated") for s in second.fake.sent)
    await stop(second)


async def test_the_console_names_the_threads_of_a_saved_database(url: str) -> None:
    first = await boot(url, "one")
    await first.run_line("@gm #t /campaign create name:Skies ruleset:freeform")
    await stop(first)
    second = await boot(url, "two")
    out = await second.run_line("@gm #t /gm note text:hello")
    assert "  #Skies: 📜 **The GM:** hello" in out
    await stop(second)
