"""Shared fixtures: the example campaign files, a started campaign, and dice with chosen faces."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.core import Dice, Roll, Setup, Verdict, Visibility
from engine.core.rng import PUBLIC
from engine.rulesets import get
from engine.rulesets.lote_modern import LotEModern
from engine.rulesets.lote_modern.state import GameState

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "lote-modern"
SEED = b"\x07" * 32


class FixedDice(Dice):
    """Dice whose faces are chosen by the test: the next face queued for the first matching purpose prefix,
    else a fair roll from the seed. Every roll is still logged like a real one."""

    def __init__(self, faces: dict[str, list[int]] | None = None) -> None:
        super().__init__(SEED, "test")
        self.faces = {k: list(v) for k, v in (faces or {}).items()}

    def roll(self, count: int, sides: int, *, purpose: str, visibility: Visibility = PUBLIC, modifier: int = 0,
             table: str | None = None, result: str | None = None) -> Roll:
        for prefix, queue in self.faces.items():
            if purpose.startswith(prefix) and queue:
                faces = tuple(queue.pop(0) for _ in range(count))
                roll = Roll(f"test/{purpose}", purpose, "dice", f"{count}d{sides}", faces, sum(faces), visibility,
                            modifier, table, result)
                self.rolls.append(roll)
                return roll
        return super().roll(count, sides, purpose=purpose, visibility=visibility, modifier=modifier, table=table,
                            result=result)


@pytest.fixture(scope="session")
def map_text() -> str:
    return (EXAMPLES / "map.toml").read_text()


@pytest.fixture(scope="session")
def sheets_text() -> str:
    return (EXAMPLES / "sheets.toml").read_text()


@pytest.fixture(scope="session")
def lm() -> LotEModern:
    ruleset = get("lote-modern")
    assert isinstance(ruleset, LotEModern)
    return ruleset


@pytest.fixture
def start(lm: LotEModern, map_text: str, sheets_text: str) -> Callable[..., GameState]:
    """A new campaign from the example files; keyword options are campaign options."""
    def make(sheets: str | None = None, **options: str) -> GameState:
        files = {"sheets": sheets or sheets_text, "map": map_text}
        rule = lm.seat_rule({}, files)
        return lm.setup(Setup(rule.names, lm.parse_options(options), Dice(SEED, "setup"), files))
    return make


@pytest.fixture
def state(start: Callable[..., GameState]) -> GameState:
    return start()


def accepted(lm: LotEModern, state: GameState, seat: str, text: str) -> list[str]:
    """The canonical lines a player's order text would submit (everything not refused)."""
    return [c.canonical for c in lm.check(state, seat, text) if c.verdict is not Verdict.REJECTED]


def verdicts(lm: LotEModern, state: GameState, seat: str, text: str) -> list[tuple[Verdict, str]]:
    return [(c.verdict, c.message) for c in lm.check(state, seat, text)]
