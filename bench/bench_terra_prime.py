"""Terra Prime: a whole 4-player game of automatic players, and one board render."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Dice, Setup, Viewer
from engine.rulesets import get

SEED = bytes(range(32))
SEATS = ("Ana", "Ben", "Cleo", "Dev")


def _game() -> Any:
    tp = get("terra-prime")
    state = tp.setup(Setup(SEATS, tp.parse_options({}), Dice(SEED, "setup")))
    n = 0
    while not state.ended:
        seat = state.seat
        text = tp.autoplay(state, seat, Dice(SEED, f"auto/{n}"))
        state = tp.act(state, Viewer.of_seat(seat), text, Dice(SEED, f"act/{n}")).state
        n += 1
    return state


_MIDGAME: list[Any] = []


def _render() -> None:
    tp = get("terra-prime")
    if not _MIDGAME:
        state = tp.setup(Setup(SEATS, tp.parse_options({}), Dice(SEED, "setup")))
        for n in range(300):
            text = tp.autoplay(state, state.seat, Dice(SEED, f"auto/{n}"))
            state = tp.act(state, Viewer.of_seat(state.seat), text, Dice(SEED, f"act/{n}")).state
        _MIDGAME.append(tp.dump(state))
    tp.render(tp.load(_MIDGAME[0]), Viewer.spectator())


def cases() -> dict[str, Callable[[], object]]:
    return {"terra prime: 4 automatic players, whole game": _game, "terra prime: board render": _render}
