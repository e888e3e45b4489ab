"""Over loopback, the real `herald run`: an interaction whose acknowledgement or answer reached Discord but
whose response to Herald was lost is still answered, and answered once (no "thinking…" forever, no twin)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.discord_server import FakeDiscordServer
from tests.e2e.herald_process import Herald

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("lost", "kind"), [
    ("callback", "lost"),  # the "thinking…" defer reached Discord; its answer to Herald did not
    # the answer itself reached the user; Discord's reply to Herald did not
    ({"followup", "edit-original"}, "lost"),
    ({"followup", "edit-original"}, "reset-after"),
])
async def test_an_answer_whose_response_is_lost_is_given_once(lost: str | set[str], kind: str,
                                                              server: FakeDiscordServer, tmp_path: Path) -> None:
    herald = Herald(server, tmp_path)
    await herald.start()
    server.faults.script(lost, kind)
    created = await herald.command("campaign", "create", name="Lost", ruleset="freeform")
    text = await herald.answer(created)
    assert "Created **Lost**" in text
    assert server.faults.injected[kind] == 1
    # a later command's round trip, and the longest pause Herald waits before retrying an answer, pass:
    # a second answer to the first interaction would have arrived by now
    assert "Lost" in await herald.run("campaign", "status")
    await asyncio.sleep(3)
    log = await herald.stop()
    answers = server.interactions[created].answers
    assert server.visible_answers(created) == 1, [(k, str(b)[:60]) for k, b in answers]
    assert [t.name for t in server.threads()] == ["Lost"]  # the campaign was created once
    assert server.refused == [] or all("already acknowledged" in str(r) for r in server.refused), server.refused
    assert "Traceback" not in log, log[-3000:]


@pytest.mark.parametrize("kind", ["lost", "reset-after"])
async def test_a_quick_answer_whose_response_is_lost_is_given_once(kind: str, server: FakeDiscordServer,
                                                                   tmp_path: Path) -> None:
    """A quick command answers in the interaction's callback itself (no "thinking…"): the answer reached the
    user, Discord's reply to Herald did not; Herald's retry is refused as already acknowledged, and it stops."""
    herald = Herald(server, tmp_path)
    await herald.start()
    assert "Created **Quick**" in await herald.run("campaign", "create", name="Quick", ruleset="freeform")
    server.faults.script("callback", kind)
    asked = await herald.command("campaign", "status")
    assert "Quick" in await herald.answer(asked)
    assert server.faults.injected[kind] == 1
    assert "2d6" in await herald.run("roll", notation="2d6")  # a later command's round trip passes
    await asyncio.sleep(3)  # the longest pause before a retry: a second answer would have arrived by now
    log = await herald.stop()
    answers = server.interactions[asked].answers
    assert [k for k, _ in answers] == ["callback"] and answers[0][1]["type"] == 4, answers  # one, no deferral
    assert server.visible_answers(asked) == 1
    assert server.refused == [] or all("already acknowledged" in str(r) for r in server.refused), server.refused
    assert "Traceback" not in log, log[-3000:]
