"""The game state: plain dataclasses of JSON-friendly values, saved by the engine's record codec."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.records import from_data, to_data
from engine.core.ruleset import OptionValue

__all__ = ["Beaten", "Colony", "GameState", "Item", "OptionValue", "Ship", "Tile", "dump", "load"]

Item = dict[str, Any]  # one step waiting in the queue, e.g. {"do": "orient", "tile": 12}


@dataclass
class Ship:
    """One player's Command Ship board and holdings."""

    seat: str
    sector: int
    credits: int
    markers_ship: int
    markers_supply: int
    cargo: list[str] = field(default_factory=list)        # resource keys, kept in resource order
    modules: dict[str, int] = field(default_factory=dict)  # installed modules (built-ins not counted)
    tech: list[str] = field(default_factory=list)          # tech steps bought
    peeks: list[int] = field(default_factory=list)         # tile positions seen with the scanner
    visit_planets: list[str] = field(default_factory=list)  # planets used for a module this visit
    visit_tracks: list[str] = field(default_factory=list)   # tech tracks upgraded this visit
    score: int = 0
    left: int | None = None       # the sector its last action moved it out of (a move or an explore), else None

    def count(self, module: str) -> int:
        return self.modules.get(module, 0)


@dataclass
class Tile:
    """One board position. `design` is secret while the tile lies face down."""

    design: str
    revealed: bool = False
    rotation: int | None = None   # set when the explorer orients it


@dataclass
class Colony:
    """A colony marker on a sector: on a planet of colour `target`, or a mine on an asteroid field."""

    owner: str
    target: str                   # planet colour, or "field" for a mine
    cube: str | None = None
    planet: str | None = None     # the planet's key ("<tile>:<corner>"); None in states saved before it was kept

    @property
    def is_mine(self) -> bool:
        return self.target == "field"


@dataclass
class Beaten:
    """Hostile aliens driven off or befriended; `marker` is False if the victor had none left to place."""

    seat: str
    marker: bool = True


@dataclass
class GameState:
    seats: list[str]
    options: dict[str, OptionValue]
    shape: str
    outpost: str
    tiles: list[Tile]
    ships: dict[str, Ship]
    earth: dict[str, int]                                  # cubes on each Supply/Demand track
    supply: dict[str, int]                                 # the general supply of cubes
    start: int                                             # index of the start player
    current: int = 0
    round: int = 1
    turn: int = 1
    actions_left: int = 0
    explores_left: int = 0
    colonies: dict[str, Colony] = field(default_factory=dict)   # by sector number (as text)
    beaten: dict[str, Beaten] = field(default_factory=dict)     # by tile position (as text)
    cargo_ship: list[str] = field(default_factory=list)
    cargo_ship_away: bool = False
    queue: list[Item] = field(default_factory=list)
    attacked: list[int] = field(default_factory=list)       # alien tiles that attacked during this action
    final_turns: int | None = None
    trigger: str = ""
    ended: bool = False
    winners: list[str] = field(default_factory=list)

    @property
    def seat(self) -> str:
        """The seat whose turn it is."""
        return self.seats[self.current]

    @property
    def ship(self) -> Ship:
        return self.ships[self.seat]

    def tile(self, position: int) -> Tile:
        return self.tiles[position - 1]


def dump(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = to_data(state)
    return out


def load(data: dict[str, Any]) -> GameState:
    return from_data(GameState, data)
