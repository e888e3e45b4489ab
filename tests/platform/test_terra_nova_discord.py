"""Terra Nova in Discord: a GM and three powers play three full turns with the East Indies through the slash
commands (examples/terra-nova/three-turns.txt); each power's money and private dice stay in its own thread."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.console.runner import Console, seeded_secrets
from bot.store.models import Campaign

EXAMPLE = Path(__file__).parents[2] / "examples" / "terra-nova"
CAMPAIGN = "Tordesillas"
PLAYERS = {"Spain": "isabel", "Portugal": "manuel", "England": "henry"}

# What only a power (and the GM) may read: any sum of money (treasury, purchases, bounds, bribes, income,
# upkeep, gold and goods banked), and the rolls that would give those sums away.
PRIVATE = [
    re.compile(r"\btreasury\b[ *]*\d"),
    re.compile(r"\b\d+ florins\b"),
    re.compile(r"🎲 (Domestic Investment|Settlers Available|Monarch Income Modifier|Factory attempt|Native Alliance)"),
    re.compile(r"gold, to be shipped home|spices/\d"),
]
MESSAGE = re.compile(r"^  (#[^:]+|to @\S+(?: \(only they see this\))?): ?(.*)$")


def messages(transcript: list[str]) -> list[tuple[str, str]]:
    """Every message the console printed, as (where it went, its whole text)."""
    out: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in transcript:
        if line.startswith("      ") and current is not None:
            current.append(line.strip())
        elif m := MESSAGE.match(line):
            current = [m[2]]
            out.append((m[1], current))
        else:
            current = None
    return [(where, "\n".join(body)) for where, body in out]


def where_said(msgs: list[tuple[str, str]], where: str) -> str:
    return "\n".join(text for w, text in msgs if w == where)


@pytest.mark.slow
async def test_three_turns_of_terra_nova_with_the_east_indies(lite: Console, tmp_path: Path) -> None:
    lite.services.secret = seeded_secrets("demo")  # the dice of `--seed demo`, which the script's expectations follow
    lite.out_dir = tmp_path / "maps"
    lite.base_dir = EXAMPLE
    await lite.run_script((EXAMPLE / "three-turns.txt").read_text(encoding="utf-8"))  # every `expect` held

    async with lite.services.db.read() as session:
        campaign = await session.scalar(select(Campaign).where(Campaign.name == CAMPAIGN))
    assert campaign is not None and campaign.turn == 4
    assert campaign.phase_label == "A.2 Check for Deflation — GM ruling"

    maps = sorted((tmp_path / "maps").glob("*.png"))
    assert all(m.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for m in maps)
    assert {f"{CAMPAIGN.lower()}-turn{n}.png" for n in (1, 2, 3, 4)} <= {m.name.split("-", 1)[1] for m in maps}

    msgs = messages(lite.transcript)  # type: ignore[attr-defined]
    thread = where_said(msgs, f"#{CAMPAIGN}")
    # the campaign thread told the story in the order of play...
    turns = [thread.index(f"**Turn {n}, {1496 + 5 * (n - 1)}** begins") for n in (1, 2, 3, 4)]
    assert turns == sorted(turns)
    for news in ("Portugal establishes a trading factory in Malacca.", "England founds a settlement in Atlantic Coast.",
                 "East Indies commodity prices: Pepper 36→24, Silk 36, Spices 36→48, Tea 36.",
                 "The sea fight in Cuba ends: England wins.", "**England** wins the battle in Cuba."):
        assert news in thread
    # ...without a single sum of money or private roll in it, though the seats' own threads are full of them
    secrets = "\n".join(where_said(msgs, f"#{CAMPAIGN} — {seat}") for seat in PLAYERS)
    for pattern in PRIVATE:
        assert pattern.search(secrets), pattern
        assert not pattern.search(thread), pattern.search(thread)

    for seat, player in PLAYERS.items():
        own = where_said(msgs, f"#{CAMPAIGN} — {seat}")
        replies = where_said(msgs, f"to @{player} (only they see this)")
        assert re.search(rf"Domestic investment: {seat} receives \d+ florins \(treasury \d+\)", own)
        assert re.search(rf"{seat} pays \d+ florins maintenance \(treasury \d+\)", own)
        assert "🎲 Domestic Investment" in own and "🎲 Settlers Available" in own
        assert re.search(rf"\*\*{seat}\*\* — treasury \*\*\d+\*\* florins", replies)  # their /sheet
        for other in PLAYERS.keys() - {seat}:
            assert f"Domestic investment: {other}" not in own + replies
            assert f"**{other}** — treasury" not in replies
    assert "🎲 Factory attempt (6+): 1d6 [5] +4 = 9 → established" in where_said(msgs, f"#{CAMPAIGN} — Portugal")
    assert "Native Alliance Table (NAT) (Pioneer)" in where_said(msgs, f"#{CAMPAIGN} — England")
    assert "The GM adjusts England's treasury by +30" in where_said(msgs, f"#{CAMPAIGN} — England")
