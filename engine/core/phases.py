"""Where a campaign is in its sequence of play, and whom it waits for."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Window(StrEnum):
    """What the campaign is waiting for."""

    ORDERS = "orders"    # every seat in `waiting` may submit orders; the GM advances
    TURN = "turn"        # the seat(s) in `waiting` act one action at a time
    GM = "gm"            # the GM must rule or act before play goes on
    ENDED = "ended"      # the game is over


@dataclass(frozen=True, slots=True)
class Phase:
    """A point in the sequence of play. Its key changes exactly at phase boundaries."""

    turn: int
    name: str
    label: str
    window: Window
    waiting: frozenset[str] = frozenset()
    round_opens: bool = True  # a new round of play opens here (a game of seats' turns opens one a round)

    @property
    def key(self) -> str:
        return f"{self.turn}:{self.name}"

    @property
    def ended(self) -> bool:
        return self.window is Window.ENDED
