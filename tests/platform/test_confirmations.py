"""Confirmations: bound to the person who asked, expiring, answered once, and still clean after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.console.runner import Console
from bot.service import cards
from bot.store import migrate
from bot.store.db import Database

SETUP = """
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
@vercingetorix /orders submit text:"hold Gergovia"
"""


@pytest.fixture
async def gaul(console: Console) -> Console:
    await console.run_script(SETUP)
    return console


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


def button(con: Console, label: str) -> tuple[dict[str, Any], str]:
    """The latest message with a button so labelled, and the button's custom_id, whoever may see it."""
    for sent in reversed(con.fake.sent):
        msg = sent.result if isinstance(sent.result, dict) else None
        if msg and "resource" in msg:
            msg = msg["resource"]["message"]
        for row in (msg or {}).get("components") or []:
            for comp in row.get("components") or []:
                if comp.get("label") == label:
                    return msg or {}, str(comp["custom_id"])
    raise AssertionError(f"no button {label}")


async def press_as(con: Console, user: str, custom_id: str, message: dict[str, Any]) -> str:
    """Press a button as `user` (who may never have seen it: a forged or borrowed custom_id)."""
    mark = len(con.fake.sent)
    uid = con.fake.user(user)
    payload = con.fake.interaction(3, {"custom_id": custom_id, "component_type": 2}, user_id=uid,
                                   channel_id=int(message.get("channel_id") or con.fake.channel("forum")),
                                   message=message)
    con._asked[payload["token"]] = uid
    con.fake.dispatch("INTERACTION_CREATE", payload)
    await con.fake.settle()
    await con.pump()
    assert con.fake.answered.get(payload["token"]), "the press was never answered"
    return "\n".join(con.show(con.fake.sent[mark:]))


def carrying(message: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The message as if its button carried another custom_id (Discord sends only ids a message carries)."""
    rows = [{**row, "components": [{**c, "custom_id": new} if c.get("custom_id") == old else c
                                   for c in row["components"]]} for row in message["components"]]
    return {**message, "components": rows}


def thread_posts(con: Console, text: str) -> int:
    """How many channel messages read `text`, in their words or their cards."""
    return sum(1 for s in con.fake.sent if s.kind == "channel_message"
               and text in (s.payload.get("content") or "") + "\n" + cards.as_text(s.payload.get("embeds") or []))


async def test_ending_asks_first_and_only_the_press_ends_it(gaul: Console) -> None:
    out = await said(gaul, "@gaius /campaign end")
    assert "End **Gaul** for good?" in out and "dice seed is revealed" in out
    assert thread_posts(gaul, "has ended") == 0
    assert "Turn 1" in await said(gaul, "@gaius /campaign status")
    out = await said(gaul, '@gaius press "End the campaign"')
    assert "has ended" in out
    assert thread_posts(gaul, "The seed was") == 1


async def test_another_user_pressing_is_told_it_is_not_theirs_and_nothing_happens(gaul: Console) -> None:
    await gaul.run_line("@gaius /gm seat kick seat:Arverni")
    message, custom_id = button(gaul, "Remove them")
    out = await press_as(gaul, "ambiorix", custom_id, message)
    assert "This is not your confirmation" in out
    assert "(only they see this)" in out  # answered privately
    assert "vacated" not in out and thread_posts(gaul, "vacated the seat") == 0
    # the asker still can
    assert "vacated the seat **Arverni**" in await said(gaul, '@gaius press "Remove them"')


async def test_a_gm_role_holder_cannot_answer_the_campaign_gms_question(gaul: Console) -> None:
    await gaul.run_line("gm @labienus")  # may run any campaign, but did not ask this
    await gaul.run_line("@gaius /campaign end")
    message, custom_id = button(gaul, "End the campaign")
    assert "This is not your confirmation" in await press_as(gaul, "labienus", custom_id, message)
    assert thread_posts(gaul, "has ended") == 0


async def test_an_expired_confirmation_says_so_and_does_nothing(gaul: Console) -> None:
    await gaul.run_line("@gaius /gm advance")
    assert "1 of 2 in" in "\n".join(gaul.last_output)
    await gaul.run_line("clock +6m")
    out = await said(gaul, '@gaius press "Advance anyway"')
    assert "expired" in out and "nothing was done" in out and "/gm advance" in out
    assert "Turn 1" in await said(gaul, "@gaius /campaign status")


async def test_pressing_twice_does_it_once(gaul: Console) -> None:
    await gaul.run_line("@gaius /gm advance")
    first = await said(gaul, '@gaius press "Advance anyway"')
    assert "resolved" in first
    again = await said(gaul, '@gaius press "Advance anyway"')
    assert "already answered" in again and "Nothing was done again" in again
    assert thread_posts(gaul, "## Turn 1 — orders\n") == 1
    assert "Turn 2" in await said(gaul, "@gaius /campaign status")


async def test_cancel_does_nothing_and_closes_the_question(gaul: Console) -> None:
    await gaul.run_line("@gaius /gm seat replace seat:Arverni user:@critognatus")
    assert "Hand **Arverni** from @vercingetorix to @critognatus?" in "\n".join(gaul.last_output)
    assert "Cancelled" in await said(gaul, '@gaius press "Cancel"')
    assert "already answered: cancelled" in await said(gaul, '@gaius press "Replace them"')
    assert "Arverni" in await said(gaul, "@vercingetorix /sheet")


async def test_a_forged_or_mangled_token_is_refused(gaul: Console) -> None:
    await gaul.run_line("@gaius /campaign end")
    message, custom_id = button(gaul, "End the campaign")
    token = custom_id.split(":")[2]
    forged = f"herald:confirm:{token[:-1]}{'0' if token[-1] != '0' else '1'}:yes"  # a guess one digit off
    assert "no longer valid" in await press_as(gaul, "gaius", forged, carrying(message, custom_id, forged))
    mangled = "herald:confirm:zz:yes"
    assert "no longer valid" in await press_as(gaul, "gaius", mangled, carrying(message, custom_id, mangled))
    assert thread_posts(gaul, "has ended") == 0


async def test_the_question_is_not_asked_when_nobody_is_hurt(gaul: Console) -> None:
    await gaul.run_line("@ambiorix /orders submit text:\"raid\"")
    assert "resolved" in await said(gaul, "@gaius /gm advance")  # everyone is in: no question
    await gaul.run_line("@gaius /gm seat kick seat:Arverni")
    await gaul.run_line('@gaius press "Remove them"')
    assert "takes the seat" in await said(gaul, "@gaius /gm seat assign seat:Arverni user:@critognatus")
    assert "Remove" not in await said(gaul, "@gaius /gm seat kick seat:Nobody")


async def test_moved_on_since_asking_does_nothing(gaul: Console) -> None:
    await gaul.run_line("@gaius /gm advance")
    message, custom_id = button(gaul, "Advance anyway")
    await gaul.run_line("@ambiorix /orders submit text:\"raid\"")
    assert "resolved" in await said(gaul, "@gaius /gm advance")
    out = await press_as(gaul, "gaius", custom_id, message)
    assert "moved on since you asked" in out
    assert "Turn 2" in await said(gaul, "@gaius /campaign status")


async def test_a_restart_between_asking_and_pressing_answers_cleanly(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/herald.db"

    async def boot() -> Console:
        db = Database(url)
        await migrate.upgrade(db)
        con = Console(db, seed="restart", echo=lambda _: None, base_dir=tmp_path)
        await con.start()
        return con

    first = await boot()
    await first.run_script(SETUP)
    await first.run_line("@gaius /campaign end")
    await first.run_line("@gaius /gm seat kick seat:Arverni")
    end_msg, end_id = button(first, "End the campaign")
    kick_msg, kick_id = button(first, "Remove them")
    await first.close()
    await first.services.db.dispose()

    second = await boot()  # a new process: no view objects in memory, only the database
    try:
        out = await press_as(second, "gaius", kick_id, kick_msg)
        assert "vacated the seat **Arverni**" in out
        assert "already answered" in await press_as(second, "gaius", kick_id, kick_msg)
        assert "not your confirmation" in await press_as(second, "ambiorix", end_id, end_msg)
        await second.run_line("clock +10m")
        assert "expired" in await press_as(second, "gaius", end_id, end_msg)
    finally:
        await second.close()
        await second.services.db.dispose()
