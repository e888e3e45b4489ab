"""Turn windows: the active seat is pinged, acts from menus, others are told to wait; automatic players and
turn timers act for a seat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import engine.rulesets as registry
from bot.console.runner import Console


@pytest.fixture(autouse=True)
def nim() -> Iterator[None]:
    registry._REGISTRY["nim"] = "tests.platform.nim:Nim"
    registry.get.cache_clear()
    yield
    del registry._REGISTRY["nim"]
    registry.get.cache_clear()


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


async def start(con: Console, stones: int = 10) -> str:
    await con.run_line(f"@ada #hall /campaign create name:Pebbles ruleset:nim options:stones={stones}")
    await con.run_line("@bea /campaign join seat:North")
    await con.run_line("@cy /campaign join seat:East")
    return await said(con, "@ada /campaign start")


async def test_the_active_seat_is_pinged_and_acts_from_menus(lite: Console) -> None:
    out = await start(lite)
    first, other = ("bea", "cy") if "@bea, it's your turn" in out else ("cy", "bea")
    assert f"@{first}, it's your turn" in out and "[button: Take your turn]" in out
    assert "not your turn" in await said(lite, f"@{other} press \"Take your turn\"")
    menu = await said(lite, f"@{first} press \"Take your turn\"")
    assert "(only they see this)" in menu and "Take 1 | Take 2 | Take 3" in menu
    after = await said(lite, f"@{first} select \"Take 2\"")
    assert "takes 2; 8 left" in after
    assert f"@{other}, it's your turn" in after
    # the old menu belongs to a phase that has passed
    assert "out of date" in await said(lite, f"@{first} select \"Take 1\"")


async def test_typed_actions_are_checked_by_the_rules(lite: Console) -> None:
    out = await start(lite)
    first = "bea" if "@bea, it's your turn" in out else "cy"
    assert "take 1, take 2 or take 3" in await said(lite, f"@{first} /act action:\"take 7\"")
    assert "takes 3" in await said(lite, f"@{first} /act action:\"take 3\"")


async def test_automatic_players_play_a_whole_game(lite: Console) -> None:
    await lite.run_line("@ada #hall /campaign create name:Bots ruleset:nim options:stones=9")
    await lite.run_line("@ada /gm seat auto seat:North")
    await lite.run_line("@ada /gm seat auto seat:South")
    out = await said(lite, "@ada /campaign start")
    assert "takes the last stone and wins" in out
    assert "has ended: the game is over" in out
    assert "The seed was" in out


async def test_a_turn_timer_plays_for_a_seat_that_runs_out_of_time(lite: Console) -> None:
    out = await start(lite, stones=5)
    first = "North" if "@bea, it's your turn (North)" in out else "East"
    await lite.run_line("@ada /gm settings key:turn_timer value:12h")
    assert "no earlier phase" in await said(lite, "@ada /gm rollback")
    assert "ran out of time" not in await said(lite, "clock +13h")  # the timer is set when a turn begins
    seat_user = "bea" if first == "North" else "cy"
    await lite.run_line(f"@{seat_user} /act action:\"take 1\"")
    out = await said(lite, "clock +13h")
    assert "ran out of time; Herald plays `take 1`" in out


async def test_an_action_text_stays_with_its_seat_and_its_events_are_public(lite: Console) -> None:
    out = await start(lite)
    first, other = ("bea", "cy") if "@bea, it's your turn" in out else ("cy", "bea")
    await lite.run_line(f"@{first} /act action:\"take 2\"")
    own = await said(lite, f"@{first} /history turn:0")
    theirs = await said(lite, f"@{other} /history turn:0")
    watcher = await said(lite, "@dee /history turn:0")
    assert "`take 2`" in own
    assert "`take 2`" not in theirs and "`take 2`" not in watcher
    assert "takes 2; 8 left" in theirs and "takes 2; 8 left" in watcher
