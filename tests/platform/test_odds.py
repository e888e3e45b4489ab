"""/odds as a player meets it (examples/terra-nova/odds.txt): exact numbers, privately, within Discord's limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.runner import Console, seeded_secrets

EXAMPLE = Path(__file__).parents[2] / "examples" / "terra-nova"


@pytest.mark.slow
async def test_the_odds_example_runs_and_every_answer_is_private(lite: Console) -> None:
    lite.services.secret = seeded_secrets("demo")
    lite.base_dir = EXAMPLE
    await lite.run_script((EXAMPLE / "odds.txt").read_text(encoding="utf-8"))  # every `expect` held
    # ten lines at once: the answer is split within Discord's limits (the fake Discord refuses any message over
    # them), and goes to the asker alone, never to the campaign thread
    ask = " | ".join(["attack natives in Cuba"] * 3 + ["buy 1 soldier"] * 7)
    out = await lite.run_line(f'@isabel /odds order:"{ask}"')
    posts = [line for line in out if line.startswith("  ") and not line.startswith("      ")]
    assert posts and all(line.startswith("  to @isabel (only they see this):") for line in posts)
    assert sum("tactic none: win" in line for line in out) == 3
    assert sum("**buy 1 soldier**: no dice" in line for line in out) == 7


@pytest.mark.parametrize("ruleset", ["lote-modern", "terra-prime"])
async def test_the_other_rulesets_odds_examples_run(lite: Console, ruleset: str) -> None:
    """examples/lote-modern/odds.txt (research, loans) and examples/terra-prime/odds.txt (exploring)."""
    folder = Path(__file__).parents[2] / "examples" / ruleset
    lite.services.secret = seeded_secrets("demo")
    lite.base_dir = folder
    await lite.run_script((folder / "odds.txt").read_text(encoding="utf-8"))  # every `expect` held
