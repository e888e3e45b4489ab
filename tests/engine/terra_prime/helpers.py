"""Scenario building for Terra Prime tests: a fresh game, hand-placed tiles, loaded dice."""

from __future__ import annotations

from typing import Any

from engine.core import Dice, Event, Roll, Setup, Viewer
from engine.core.visibility import PUBLIC, Visibility
from engine.rulesets import get
from engine.rulesets.terra_prime.board import Board, board
from engine.rulesets.terra_prime.state import GameState

TP: Any = get("terra-prime")
SEED = b"\x07" * 32


class LoadedDice(Dice):
    """Dice that show the faces a scenario needs, in order; running out is a test failure."""

    def __init__(self, *faces: int) -> None:
        super().__init__(SEED, "loaded")
        self.faces = list(faces)

    def roll(self, count: int, sides: int, *, purpose: str, visibility: Visibility = PUBLIC, modifier: int = 0,
             table: str | None = None, result: str | None = None) -> Roll:
        assert len(self.faces) >= count, f"the scenario's dice ran out at {purpose}"
        taken = tuple(self.faces[:count])
        del self.faces[:count]
        roll = Roll(f"loaded/{purpose}", purpose, "dice", f"{count}d{sides}", taken, sum(taken), visibility)
        self.rolls.append(roll)
        return roll


def new_game(seats: tuple[str, ...] = ("Ana", "Ben"), **options: Any) -> GameState:
    """A fresh game with Ana to play her first turn (2 actions, 1 explore) and nothing queued."""
    parsed = TP.parse_options({k: str(v) for k, v in options.items()})
    state: GameState = TP.setup(Setup(seats, parsed, Dice(SEED, "setup")))
    state.start = state.current = 0
    state.actions_left, state.explores_left, state.queue = 2, 1, []
    return state


def geometry(state: GameState) -> Board:
    return board(state.shape, state.outpost)


def place(state: GameState, position: int, design: str, rotation: int = 0) -> None:
    """Turn a tile face up with the given face and rotation (as if explored earlier)."""
    tile = state.tile(position)
    tile.design, tile.revealed, tile.rotation = design, True, rotation


def give(state: GameState, seat: str, *cubes: str) -> None:
    """Put cubes from the general supply into a seat's hold (keeping every cube accounted for)."""
    for cube in cubes:
        state.supply[cube] -= 1
        state.ships[seat].cargo.append(cube)


def act(state: GameState, text: str, dice: Dice | None = None,
        seat: str | None = None) -> tuple[GameState, list[Event]]:
    step = TP.act(state, Viewer.of_seat(seat or state.seat), text, dice or LoadedDice())
    return step.state, list(step.events)


def texts(state: GameState, seat: str | None = None) -> list[str]:
    return [a.text for a in TP.view(state, Viewer.of_seat(seat or state.seat)).actions]
