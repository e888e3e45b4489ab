"""Every interaction gets exactly one final answer that tells the truth about what was saved, through lost
responses, connection resets and Discord's 5xx; a retried change is not applied twice; forged buttons are
answered."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy import select

from bot.console.runner import Console
from bot.discord import answers
from bot.service.receipts import command_name as receipt_name
from bot.store.models import Campaign, Receipt

SETUP = """
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
"""
# the seats left vacant, so /gm advance has nobody to wait for and asks nothing (see test_confirmations)
VACANT = """
@gaius /gm seat kick seat:Arverni
@gaius press "Remove them"
@gaius /gm seat kick seat:Eburones
@gaius press "Remove them"
"""


@pytest.fixture
async def gaul(lite: Console, monkeypatch: pytest.MonkeyPatch) -> Console:
    monkeypatch.setattr(answers, "BACKOFF", (0.0, 0.0, 0.0))
    await lite.run_script(SETUP)
    return lite


@pytest.fixture
async def vacant(gaul: Console) -> Console:
    await gaul.run_script(VACANT)
    return gaul


@pytest.fixture
async def gaul_db(console: Console, monkeypatch: pytest.MonkeyPatch) -> Console:
    """The same campaign on both backends (SQLite and PostgreSQL)."""
    monkeypatch.setattr(answers, "BACKOFF", (0.0, 0.0, 0.0))
    await console.run_script(SETUP + VACANT)
    return console


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


async def phase(con: Console) -> str:
    async with con.services.db.read() as session:
        campaign = await session.scalar(select(Campaign).where(Campaign.name == "Gaul"))
        assert campaign is not None
        return str(campaign.phase_key)


async def receipts(con: Console) -> list[Receipt]:
    async with con.services.db.read() as session:
        return list(await session.scalars(select(Receipt).order_by(Receipt.id)))


def answers_to(con: Console, mark: int) -> list[str]:
    """The answers a user sees since `mark` (replies and followups, not channel posts): an edit of the deferred
    "thinking…" message, however often repeated, is one answer."""
    out: dict[object, str] = {}
    for n, item in enumerate(con.fake.sent[mark:]):
        payload: dict[str, Any] = item.payload or {}
        if item.kind == "interaction_response" and payload.get("type") == 4:
            out[n] = str((payload.get("data") or {}).get("content"))
        elif item.kind == "followup":
            out[n] = str(payload.get("content"))
        elif item.kind == "edit_original":  # the first answer after a deferral replaces its "thinking…"
            out[item.params.get("token")] = str(payload.get("content"))
    return list(out.values())


@pytest.mark.parametrize("fault", ["500", "429", "reset", "lost"])
async def test_a_passing_failure_of_the_answer_is_retried_and_answered_once(vacant: Console, fault: str) -> None:
    gaul = vacant
    before = await phase(gaul)
    gaul.fake.fail("edit_original", fault)
    mark = len(gaul.fake.sent)
    await gaul.run_line("@gaius /gm advance")
    said_ = answers_to(gaul, mark)
    assert len(said_) == 1 and "resolved; now" in said_[0] and "went wrong" not in said_[0]
    assert await phase(gaul) != before
    assert [r.answered for r in await receipts(gaul) if r.command.startswith("gm advance#")] == [True]


async def test_a_lost_answer_to_the_deferral_is_not_a_second_acknowledgement(vacant: Console) -> None:
    gaul = vacant
    gaul.fake.fail("interaction_response", "lost")  # Discord took the "thinking…"; its answer was lost
    mark = len(gaul.fake.sent)
    await gaul.run_line("@gaius /gm advance")
    said_ = answers_to(gaul, mark)
    assert len(said_) == 1 and "resolved; now" in said_[0]
    assert len(gaul.fake.faulted) == 1 and gaul.fake.rejected == []


async def test_an_advance_whose_answer_never_arrives_is_not_done_again(gaul_db: Console) -> None:
    gaul = gaul_db
    first = await phase(gaul)
    gaul.fake.fail("edit_original", "reset", times=20)  # nothing reaches the GM: not even "Saved."
    gaul.fake.fail("followup", "reset", times=20)
    await gaul.run_line("@gaius /gm advance")
    second = await phase(gaul)
    assert second != first
    assert [r.answered for r in await receipts(gaul)][-1] is False
    gaul.fake.faults.clear()
    out = await said(gaul, "@gaius /gm advance")  # the GM retries, thinking it failed
    assert "Your earlier `/gm advance` (12:00 UTC) was saved, but its answer did not reach you" in out
    assert "resolved; now" in out and "Nothing was done again" in out
    assert await phase(gaul) == second  # not advanced twice
    assert [r.answered for r in await receipts(gaul)][-1] is True
    out = await said(gaul, "@gaius /gm advance")  # asked once more: now it is done again
    assert "Your earlier" not in out and await phase(gaul) != second


async def test_only_the_same_command_asked_alike_counts_as_a_retry(gaul: Console) -> None:
    gaul.fake.fail("edit_original", "reset", times=20)
    gaul.fake.fail("followup", "reset", times=20)
    await gaul.run_line('@gaius /gm note text:"The legions march."')
    gaul.fake.faults.clear()
    out = await said(gaul, '@gaius /gm note text:"The winter comes."')  # another note: a new decision
    assert "Your earlier" not in out
    out = await said(gaul, '@gaius /gm note text:"The legions march."')  # the lost one, asked again
    assert "Your earlier `/gm note`" in out and "Nothing was done again" in out
    notes = [m["content"] for m in gaul.fake.messages.values() if "legions march" in (m["content"] or "")]
    assert len(notes) == 1  # in the thread once


async def test_a_failed_reply_after_a_change_says_saved_not_went_wrong(vacant: Console) -> None:
    gaul = vacant
    gaul.fake.fail("edit_original", "reset", times=4)  # the full answer fails; the short one gets through
    mark = len(gaul.fake.sent)
    await gaul.run_line("@gaius /gm advance")
    said_ = answers_to(gaul, mark)
    assert len(said_) == 1 and said_[0].startswith("Saved. ") and "resolved; now" in said_[0]
    assert [r.answered for r in await receipts(gaul)][-1] is True


async def test_an_interaction_delivered_twice_is_answered_once(vacant: Console) -> None:
    gaul = vacant
    await gaul.run_line("@gaius /gm advance")
    payload = next(s for s in reversed(gaul.fake.sent) if s.kind == "interaction_response")
    token = payload.params["token"]
    before = await phase(gaul)
    replay = gaul.fake.interaction(2, {"id": "1", "name": "gm", "type": 1, "options": [
        {"name": "advance", "type": 1, "options": []}]}, user_id=gaul.fake.user("gaius"),
        channel_id=gaul.fake.channel("forum"))
    last = max(r.interaction_id for r in await receipts(gaul))
    replay["id"], replay["token"] = str(last), token  # the same interaction, as a gateway replay resends it
    mark = len(gaul.fake.sent)
    gaul.fake.dispatch("INTERACTION_CREATE", replay)
    await gaul.fake.settle()
    assert gaul.fake.sent[mark:] == [] and await phase(gaul) == before


@pytest.mark.parametrize("custom_id", ["herald:act:999999999999:deadbeef:0", "herald:act:abc:deadbeef:0",
                                       "herald:turn:" + "9" * 40, "herald:orders:-1", "nonsense", "herald:act:1:x:9",
                                       "herald:turn:99999999999"])
async def test_a_forged_or_stale_component_gets_a_clean_private_answer(gaul: Console, custom_id: str) -> None:
    shown = next(m for m in reversed(list(gaul.fake.messages.values())) if m["components"])
    button = {"type": 2, "style": 1, "label": "Take your turn", "custom_id": custom_id}
    select = {"type": 3, "custom_id": custom_id, "options": [{"label": "march", "value": "march"}]}
    for component, extra in ((button, {}), (select, {"values": ["march"]})):
        message = {**shown, "components": [{"type": 1, "components": [component]}]}  # as a stale message holds it
        payload = gaul.fake.interaction(3, {"custom_id": custom_id, "component_type": component["type"], **extra},
                                        user_id=gaul.fake.user("mallory"), channel_id=int(message["channel_id"]),
                                        message=message)
        mark = len(gaul.fake.sent)
        gaul.fake.dispatch("INTERACTION_CREATE", payload)
        await gaul.fake.settle()
        assert gaul.fake.answered[payload["token"]], f"{custom_id} left 'thinking…'"
        said_ = answers_to(gaul, mark)
        assert len(said_) == 1 and "no longer" in said_[0], said_
        assert all(s.kind != "channel_message" for s in gaul.fake.sent[mark:])


async def test_a_replay_after_a_restart_is_found_in_the_receipts(vacant: Console) -> None:
    gaul = vacant
    from bot.discord import replies

    await gaul.run_line("@gaius /gm advance")
    before = await phase(gaul)
    last = (await receipts(gaul))[-1]
    replies._seen.clear()  # a new process remembers nothing in memory
    replay = gaul.fake.interaction(2, {"id": "1", "name": "gm", "type": 1, "options": [
        {"name": "advance", "type": 1, "options": []}]}, user_id=gaul.fake.user("gaius"),
        channel_id=gaul.fake.channel("forum"))
    replay["id"] = str(last.interaction_id)
    gaul.fake.dispatch("INTERACTION_CREATE", replay)
    await gaul.fake.settle()
    assert await phase(gaul) == before and not gaul.fake.answered[replay["token"]]


async def test_receipts_older_than_a_day_are_pruned(vacant: Console) -> None:
    gaul = vacant
    await gaul.run_line("@gaius /gm advance")
    assert len(await receipts(gaul)) > 1
    await gaul.run_line("clock 2d")
    await gaul.run_line("@gaius /gm advance")
    assert [receipt_name(r.command) for r in await receipts(gaul)] == ["gm advance"]


def hostile_ids(count: int) -> list[str]:
    """Component ids as a forger would write them: Herald's shapes with wrong, huge, signed or foreign parts."""
    rng = random.Random(8)
    parts = ["herald", "act", "turn", "orders", "orders-form", "0", "-1", "1", "9" * 19, "9" * 40, "²", "٣",
             "deadbeef", "DEADBEEF", "xyz", "", " ", "\x00", "5", "4", "1e3", "0x10", "%s", "{cid}", "é" * 30]
    out = []
    for _ in range(count):
        custom_id = ":".join(rng.choice(parts) for _ in range(rng.randint(1, 6)))[:100]
        out.append(custom_id or "x")
    return out


async def test_hostile_component_ids_always_get_one_clean_answer(gaul: Console) -> None:
    shown = next(m for m in reversed(list(gaul.fake.messages.values())) if m["components"])
    for custom_id in hostile_ids(120):
        select = {"type": 3, "custom_id": custom_id, "options": [{"label": "march", "value": "march"}]}
        message = {**shown, "components": [{"type": 1, "components": [select]}]}
        payload = gaul.fake.interaction(3, {"custom_id": custom_id, "component_type": 3, "values": ["march"]},
                                        user_id=gaul.fake.user("mallory"), channel_id=int(message["channel_id"]),
                                        message=message)
        mark = len(gaul.fake.sent)
        gaul.fake.dispatch("INTERACTION_CREATE", payload)
        await gaul.fake.settle()
        said_ = answers_to(gaul, mark)
        assert gaul.fake.answered[payload["token"]] and len(said_) == 1, custom_id
        assert "went wrong" not in said_[0], (custom_id, said_)
    assert gaul.fake.rejected == []


async def test_two_open_order_forms_each_do_what_their_owner_opened(gaul: Console) -> None:
    await gaul.run_line("@ambiorix /orders check")  # a dry run form…
    await gaul.run_line("@vercingetorix /orders submit")  # …and, meanwhile, another player's real one
    out = await said(gaul, '@ambiorix form orders:"burn the farms"')
    assert "Dry run" in out
    assert "⏳ not yet — **Eburones**" in await said(gaul, "@gaius /campaign status")  # nothing was saved
    out = await said(gaul, '@vercingetorix form orders:"hold Gergovia"')
    assert "1 accepted" in out and "Dry run" not in out


async def test_an_orders_form_sent_after_a_restart_is_still_answered(gaul: Console) -> None:
    await gaul.run_line("@ambiorix /orders submit")
    gaul.bot._connection._view_store._modals.clear()  # what a restart leaves of the open form: nothing
    out = await said(gaul, '@ambiorix form orders:"march"')
    assert "1 accepted" in out and "never answered" not in out


@pytest.mark.parametrize("custom_id", ["herald:orders-form:1", "herald:orders-form:" + "9" * 20 + ":submit",
                                       "herald:orders-form:1:submit:x", "herald:orders-form:999999:check"])
async def test_a_forged_or_old_orders_form_gets_one_clean_answer(gaul: Console, custom_id: str) -> None:
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": "orders", "value": "march"}]}]
    payload = gaul.fake.interaction(5, {"custom_id": custom_id, "components": rows},
                                    user_id=gaul.fake.user("ambiorix"), channel_id=gaul.fake.channel("forum"))
    mark = len(gaul.fake.sent)
    gaul.fake.dispatch("INTERACTION_CREATE", payload)
    await gaul.fake.settle()
    said_ = answers_to(gaul, mark)
    assert gaul.fake.answered[payload["token"]] and len(said_) == 1
    assert "went wrong" not in said_[0] and "accepted" not in said_[0]


async def test_autocompletes_outside_a_campaign_answer_with_no_suggestions(lite: Console) -> None:
    lines = ['@nobody #nowhere complete /gm rollback to:1', '@nobody #nowhere complete /gm table roll name:""',
             '@nobody #nowhere complete /gm act action:""', '@nobody #nowhere complete /act action:""',
             '@nobody #nowhere complete /orders list campaign:""',
             '@nobody #nowhere complete /gm rollback to:1 campaign:"' + "x" * 300 + '"']
    for line in lines:
        mark = len(lite.fake.sent)
        await lite.run_line(line)
        callbacks = [s for s in lite.fake.sent[mark:] if s.kind == "interaction_response"]
        assert len(callbacks) == 1 and callbacks[0].payload["type"] == 8, line
    assert lite.fake.rejected == []


def first_responses(con: Console, mark: int) -> list[tuple[int, bool]]:
    """The interaction responses since `mark`: their type (4 an answer, 5 a "thinking…") and whether private."""
    return [(s.payload["type"], bool(((s.payload.get("data") or {}).get("flags") or 0) & 64))
            for s in con.fake.sent[mark:] if s.kind == "interaction_response"]


@pytest.mark.parametrize(("line", "private"), [("@gaius /campaign status", True), ("@ambiorix /orders list", True),
                                               ("@gaius /roll notation:2d6", False),
                                               ("@gaius /roll notation:2d6 private:true", True),
                                               ('@ambiorix /orders submit text:"burn the farms"', True)])
async def test_a_quick_command_answers_in_its_first_response(gaul: Console, line: str, private: bool) -> None:
    mark = len(gaul.fake.sent)
    await gaul.run_line(line)
    assert first_responses(gaul, mark) == [(4, private)]  # no "thinking…" and edit: one request to Discord
    assert [s.kind for s in gaul.fake.sent[mark:] if s.kind in ("edit_original", "followup")] == []
    assert len(answers_to(gaul, mark)) == 1


@pytest.mark.parametrize("fault", ["500", "429", "reset", "lost"])
@pytest.mark.parametrize("line", ["@gaius /campaign status", '@ambiorix /orders submit text:"burn the farms"'])
async def test_a_quick_answer_that_fails_in_passing_is_retried_and_given_once(gaul: Console, fault: str,
                                                                              line: str) -> None:
    gaul.fake.fail("interaction_response", fault)  # "lost": Discord showed the answer; its reply to us was lost
    mark = len(gaul.fake.sent)
    out = await said(gaul, line)
    assert len(answers_to(gaul, mark)) == 1 and ("Turn 1" in out or "1 accepted" in out), out
    assert len(gaul.fake.faulted) == 1 and gaul.fake.rejected == []
    if "submit" in line:  # the change was saved once and its receipt knows it was answered
        assert [r.answered for r in await receipts(gaul) if r.command.startswith("orders submit#")] == [True]
        assert "✅ submitted — **Eburones**" in await said(gaul, "@gaius /campaign status")


@pytest.mark.parametrize("fault", [None, "lost"])
async def test_a_quick_command_that_takes_long_defers_then_answers_once(gaul: Console, fault: str | None,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.service import campaigns

    slow_status = campaigns.status

    async def status(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.2)  # a slow database, a lock waited for
        return await slow_status(*args, **kwargs)

    monkeypatch.setattr(answers, "QUICK_WITHIN", 0.05)
    monkeypatch.setattr(campaigns, "status", status)
    if fault:
        gaul.fake.fail("interaction_response", fault)  # the late "thinking…" reached Discord, its reply did not
    mark = len(gaul.fake.sent)
    out = await said(gaul, "@gaius /campaign status")
    assert first_responses(gaul, mark)[0] == (5, True)  # deferred (privately) within Discord's 3 seconds
    assert len(answers_to(gaul, mark)) == 1 and "Turn 1" in out, out
    assert [s.kind for s in gaul.fake.sent[mark:] if s.kind in ("edit_original", "followup")] == ["edit_original"]
    assert gaul.fake.rejected == []
