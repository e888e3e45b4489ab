"""Terra Prime in Discord: a person and an automatic player share a game; menus come from the legal
actions; a scan stays private; four automatic players finish a whole game with every board saved."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.console.runner import Console

EXAMPLES = Path(__file__).parents[2] / "examples"


def menu_options(lines: list[str]) -> dict[str, list[str]]:
    """The menus the last reply offered: {placeholder: [labels]}."""
    out = {}
    for line in lines:
        m = re.match(r"\s*\[menu (.*?)…: (.*)\]$", line)
        if m:
            out[m[1]] = m[2].split(" | ")
    return out


async def test_a_person_plays_beside_an_automatic_player(lite: Console) -> None:
    await lite.run_script("""
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@ana /gm seat auto seat:Robo
@ana /campaign start
""")
    transcript = "\n".join(lite.transcript)  # type: ignore[attr-defined]
    assert "@ana, it's your turn (Ana) — Round 1 — Ana" in transcript  # Robo played first, by itself
    assert "you have no seat in **Duo**" in "\n".join(await lite.run_line('@zed press "Take your turn"'))
    menus = menu_options(await lite.run_line('@ana press "Take your turn"'))
    labels = [label for options in menus.values() for label in options]
    scan = next(label for label in labels if label.startswith("Scan face-down"))
    peek = "\n".join(await lite.run_line(f'@ana select "{scan}"'))
    assert "(only they see this)" in peek
    seen = re.search(r"Scanner: tile \d+ \(\w+\) shows ([^.\n]+)", peek)
    assert seen, peek
    thread = [line for line in lite.transcript if line.startswith("  #Duo:")]  # type: ignore[attr-defined]
    assert not any(seen[1] in line for line in thread)
    # a typed action is checked by the rules, and refused privately
    refused = "\n".join(await lite.run_line('@ana /act action:"explore 999"'))
    assert "(only they see this)" in refused and "explores" not in refused


@pytest.mark.slow
async def test_four_automatic_players_finish_a_game_and_every_board_is_saved(lite: Console, tmp_path: Path) -> None:
    lite.out_dir = tmp_path / "boards"
    lite.base_dir = EXAMPLES / "terra-prime"
    await lite.run_script((EXAMPLES / "terra-prime" / "autoplay.txt").read_text())
    boards = sorted((tmp_path / "boards").glob("*.png"))
    assert len(boards) > 40
    assert all(b.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for b in boards)
    assert (tmp_path / "boards").glob("*-full.json")


async def test_the_thread_gets_the_score_chart_once_a_round_not_after_every_seats_turn(lite: Console) -> None:
    await lite.run_script("""
@host #lounge /campaign create name:Pair ruleset:terra-prime options:"round_limit=3"
@host /gm seat auto seat:Red
@host /gm seat auto seat:Blue
@host /campaign start
expect "has ended"
""")
    posted = "\n".join(lite.transcript)  # type: ignore[attr-defined]
    charts = re.findall(r"file: pair-chart-turn(\d+)\.png", posted)
    boards = re.findall(r"file: pair-turn(\d+)\.png", posted)
    assert len(boards) == 7                                   # the start's board and one after each of six turns
    # rounds 2 and 3 open at turns 3 and 5 (the start player's turns), and the game's end has the last chart
    assert charts == ["3", "5", "7"], posted
