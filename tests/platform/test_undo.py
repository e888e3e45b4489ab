"""Player undo: your own last action, taken back until new information appears; orders put back until the
window resolves; refused, with the reason, after a roll, a reveal, another seat, or the window closing."""

from __future__ import annotations

import pytest

from bot.console.runner import Console
from bot.service import cards

DUO = """
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@bo /campaign join seat:Bo
@ana /campaign start
"""  # with the console's seed, Bo plays first: sector 3 is open space, sectors 1 and 2 face-down tiles


@pytest.fixture
async def duo(console: Console) -> Console:
    await console.run_script(DUO)
    assert "Round 1 — Bo" in await said(console, "@bo /campaign status")
    return console


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


async def test_a_move_is_taken_back_and_the_turn_goes_on(duo: Console) -> None:
    before = await said(duo, "@bo /campaign status")
    assert "moves to sector 3" in await said(duo, '@bo /act action:"move 3"')
    assert "1 action(s) left" in await said(duo, "@bo /campaign status")
    out = await said(duo, "@bo /undo")
    assert "took back `move 3`" in out and "(only they see this)" in out
    assert "[menu" in out  # the turn's menus again
    assert "#Duo — GM: ↩️ **Bo** took back `move 3`." in out
    assert await said(duo, "@bo /campaign status") == before.replace("> @bo", "> @bo")
    # the log shows it: the action struck through, and the undo
    history = await said(duo, "@bo /history")
    assert "~~`#" in history and "(taken back with /undo)" in history and "undo — Bo: `move 3`" in history
    assert "move 3" not in await said(duo, "@zed /history")  # a spectator reads nothing of it
    # the same move again is simply a move; the phase summary tells it once
    assert "moves to sector 3" in await said(duo, '@bo /act action:"move 3"')
    out = await said(duo, '@bo /act action:"pass"')
    posts = [(s.payload.get("content") or "") + "\n" + cards.as_text(s.payload.get("embeds") or [])
             for s in duo.fake.sent if s.kind == "channel_message"]
    assert sum(p.count("**Bo** moves to sector 3.") for p in posts) == 1


async def test_one_step_back_only(duo: Console) -> None:
    await duo.run_line('@bo /act action:"move 3"')
    await duo.run_line("@bo /undo")
    assert "already took back your last action" in await said(duo, "@bo /undo")


async def test_refused_after_a_roll(duo: Console) -> None:
    await duo.run_line('@bo /act action:"move 3"')
    await duo.run_line("@ana /roll notation:1d6")  # anyone's roll in the campaign is new information
    out = await said(duo, "@bo /undo")
    assert "a roll came after your last action (`move 3`)" in out and "/gm rollback" in out
    assert "at sector 3" in await said(duo, "@bo /campaign status")


async def test_refused_after_a_reveal(duo: Console) -> None:
    out = await said(duo, '@bo /act action:"explore 2"')
    assert "explores sector 2" in out
    out = await said(duo, "@bo /undo")
    assert "revealed something hidden, so it cannot be taken back" in out


async def test_another_seat_cannot_take_it_back(duo: Console) -> None:
    await duo.run_line('@bo /act action:"move 3"')
    assert "you have no action of yours to take back" in await said(duo, "@ana /undo")
    assert "you have no seat" in await said(duo, "@zed /undo")
    assert "at sector 3" in await said(duo, "@bo /campaign status")
    assert "took back `move 3`" in await said(duo, "@bo /undo")  # still Bo's to take back


async def test_refused_once_the_window_closed(duo: Console) -> None:
    await duo.run_line('@bo /act action:"move 3"')
    await duo.run_line('@bo /act action:"pass"')  # the last of Bo's two actions: the turn passes to Ana
    out = await said(duo, "@bo /undo")
    assert "has closed (the game moved on to **Round 1 — Ana**)" in out
    await duo.run_line('@ana /act action:"move 3"')
    assert "has closed" in await said(duo, "@bo /undo")


GAUL = """
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
"""


async def test_orders_go_back_to_the_earlier_submission_until_the_window_resolves(console: Console) -> None:
    await console.run_script(GAUL)
    assert "sent no orders" in await said(console, "@vercingetorix /undo")
    await console.run_line('@vercingetorix /orders submit text:"hold Gergovia"')
    await console.run_line('@vercingetorix /orders submit text:"march on Avaricum"')
    out = await said(console, "@vercingetorix /undo")
    assert "Took back your last submission" in out and "hold Gergovia" in out
    listed = await said(console, "@vercingetorix /orders list")
    assert "hold Gergovia" in listed and "Avaricum" not in listed
    assert "no orders in now" in await said(console, "@vercingetorix /undo")
    assert "⏳ not yet — **Arverni**" in await said(console, "@gaius /campaign status")
    await console.run_line('@vercingetorix /orders submit text:"burn the farms"')
    await console.run_line("@vercingetorix /orders withdraw")
    assert "burn the farms" in await said(console, "@vercingetorix /undo")  # the withdrawal taken back
    assert "✅ submitted — **Arverni**" in await said(console, "@gaius /campaign status")
    await console.run_line("@gaius /gm advance")
    await console.run_line('@gaius press "Advance anyway"')
    assert "burn the farms" in await said(console, "@ambiorix /history turn:1")  # resolved as they stood
    out = await said(console, "@vercingetorix /undo")
    assert "sent no orders for **Turn 2 — orders** to take back" in out


async def test_the_safety_example_script_runs(lite: Console) -> None:
    """examples/terra-prime/undo-and-safety.txt, as a newcomer runs it with `--seed demo`: every `expect` holds."""
    from pathlib import Path

    from bot.console.runner import seeded_secrets

    folder = Path(__file__).parents[2] / "examples" / "terra-prime"
    lite.services.secret = seeded_secrets("demo")
    lite.base_dir = folder
    await lite.run_script((folder / "undo-and-safety.txt").read_text(encoding="utf-8"))


async def test_an_undo_whose_answer_was_lost_is_not_done_twice(console: Console,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.discord import answers

    monkeypatch.setattr(answers, "BACKOFF", (0.0, 0.0, 0.0))
    await console.run_script(GAUL)
    for text in ("hold Gergovia", "march on Avaricum", "burn the farms"):
        await console.run_line(f'@vercingetorix /orders submit text:"{text}"')
    console.fake.fail("edit_original", "reset", times=20)  # nothing of the answer reaches the player
    console.fake.fail("followup", "reset", times=20)
    await console.run_line("@vercingetorix /undo")
    console.fake.faults.clear()
    out = await said(console, "@vercingetorix /undo")  # the player retries, thinking it failed
    assert "Your earlier `/undo`" in out and "Nothing was done again" in out
    listed = await said(console, "@vercingetorix /orders list")
    assert "march on Avaricum" in listed and "hold Gergovia" not in listed  # one step back, not two
