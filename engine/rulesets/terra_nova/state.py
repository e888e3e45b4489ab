"""The campaign state: powers, leaders, forces at each place, holdings, natives, and the machine's cursor.

Everything is plain dataclasses of JSON-compatible values, saved by the engine's record codec
(`engine.core.records`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rulesets.terra_nova.reference import house

LAND_UNITS = ("soldier", "settler", "depleted", "cannon", "slave", "mission")


@dataclass
class Monarch:
    name: str
    age: int
    income: int = 0          # the Monarch Income Modifier (added to the Domestic Investment roll)
    reign: int = 0           # index into the power's list of monarch names
    dead: bool = False


@dataclass
class Leader:
    name: str
    nation: str
    kind: str                # Explorer, Conquistador, Coureur des Bois, Paulista, Pioneer, Governor, Captain
    rating: int
    age: int
    power: str
    place: str


@dataclass
class Goods:
    """A commodity marker: 1/share of one area's output of a commodity (expansion 5.1.2)."""

    commodity: str
    share: int

    @property
    def code(self) -> str:
        return f"{self.commodity.lower()}/{self.share}"


@dataclass
class Force:
    """One power's units, ships, gold and goods at one place."""

    units: dict[str, int] = field(default_factory=dict)
    ships: dict[str, int] = field(default_factory=dict)
    gold: int = 0
    goods: list[Goods] = field(default_factory=list)

    def count(self, unit: str) -> int:
        return self.units.get(unit, 0)

    def add(self, unit: str, n: int) -> None:
        self.units[unit] = self.units.get(unit, 0) + n
        if self.units[unit] <= 0:
            del self.units[unit]

    def add_ships(self, ship: str, n: int) -> None:
        self.ships[ship] = self.ships.get(ship, 0) + n
        if self.ships[ship] <= 0:
            del self.ships[ship]

    @property
    def empty(self) -> bool:
        return not (self.units or self.ships or self.gold or self.goods)

    @property
    def landed(self) -> bool:
        """Land units present (soldiers, settlers, cannon, slaves)."""
        return any(self.units.get(u, 0) for u in ("soldier", "settler", "depleted", "cannon", "slave"))


@dataclass
class Holding:
    """One power's holdings in one area."""

    settlements: int = 0
    towns: int = 0
    plantations: int = 0
    forts: int = 0
    factories: int = 0
    missions: list[int] = field(default_factory=list)   # each established mission's rating

    @property
    def empty(self) -> bool:
        return not (self.settlements or self.towns or self.plantations or self.forts or self.factories
                    or self.missions)

    @property
    def colonies(self) -> int:
        return self.settlements + self.towns


@dataclass
class AreaState:
    natives: int = 0
    blight: int = 0
    hostile: list[str] = field(default_factory=list)     # powers the natives here are at war with
    double: bool = False                                 # conversion * this turn: count double for uprisings
    allies: dict[str, int] = field(default_factory=dict)
    commodity: str | None = None                         # East Indies: drawn on first visit
    holdings: dict[str, Holding] = field(default_factory=dict)
    claimed: str | None = None                           # discovery claim


@dataclass
class Mine:
    kind: str
    area: str
    holder: str
    worked_out: bool = False     # depleted: it stays on the map and its site is never found again


@dataclass
class City:
    name: str
    area: str
    level: int
    holder: str | None = None
    looted: bool = False


@dataclass
class Power:
    name: str
    treasury: int
    monarch: Monarch
    captains: int = 0                 # captains hired so far (for their names)
    converted: int = 0                # natives converted by this power's missions
    vp: int = 0
    vote_end: bool = False


@dataclass
class Voyage:
    """A sailing made this turn, waiting for its Naval Attrition roll."""

    id: int
    power: str
    step: str
    origin: str
    dest: str
    bounds: int
    column: int
    ships: dict[str, int]
    cargo: dict[str, int]
    leaders: list[str]
    gold: int = 0
    goods: int = 0
    ocean: bool = True
    rolled: bool = False


@dataclass
class Question:
    """A ruling the bot asks of the GM, with the answers it accepts."""

    id: str
    kind: str
    text: str
    answers: list[str]
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Battle:
    """A land battle in progress. Sides are a power's name or "natives"."""

    id: int
    area: str
    attacker: str
    defender: str
    city: str | None = None
    round: int = 1
    advantage: str | None = None
    tactics: dict[str, str] = field(default_factory=dict)      # chosen for this round
    standing: dict[str, str] = field(default_factory=dict)     # from orders, used every round
    uprising: bool = False
    taken: dict[str, int] = field(default_factory=dict)        # defender's holdings lost, to capture
    withdrew: list[str] = field(default_factory=list)          # sides that chose withdrawal in the last round


@dataclass
class TNState:
    seats: list[str]
    options: dict[str, bool | int | str]
    powers: dict[str, Power]
    turn: int = 1
    step: int = 0
    stage: str = "enter"                     # enter, window, done
    r_level: int = 1
    leaders: list[Leader] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)          # leader cards still to draw, by name
    forces: dict[str, dict[str, Force]] = field(default_factory=dict)
    areas: dict[str, AreaState] = field(default_factory=dict)
    mines: list[Mine] = field(default_factory=list)
    cities: dict[str, City] = field(default_factory=dict)
    prices: dict[str, int] = field(default_factory=dict)
    modifiers: dict[str, int] = field(default_factory=dict)
    initiative: list[str] = field(default_factory=list)
    orders: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    voyages: list[Voyage] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    next_id: int = 1
    pending_events: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False
    result: str = ""

    # -- helpers ----------------------------------------------------------------------------------------------
    @property
    def year(self) -> int:
        calendar = house()["calendar"]
        return int(calendar["first_year"]) + int(calendar["years_per_turn"]) * (self.turn - 1)

    def turn_label(self) -> str:
        return f"turn {self.turn}, {self.year}"

    def force(self, place: str, power: str) -> Force:
        """The power's force at a place (created empty when asked for)."""
        return self.forces.setdefault(place, {}).setdefault(power, Force())

    def peek(self, place: str, power: str) -> Force | None:
        return self.forces.get(place, {}).get(power)

    def holding(self, area: str, power: str) -> Holding:
        return self.areas[area].holdings.setdefault(power, Holding())

    def leaders_of(self, power: str, place: str | None = None) -> list[Leader]:
        return [ld for ld in self.leaders if ld.power == power and (place is None or ld.place == place)]

    def leader(self, name: str) -> Leader | None:
        return next((ld for ld in self.leaders if ld.name == name), None)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def option(self, name: str) -> Any:
        return self.options[name]

    def tidy(self) -> None:
        """Drop empty forces and holdings so the state stays small and comparable."""
        for place in list(self.forces):
            for power in list(self.forces[place]):
                if self.forces[place][power].empty:
                    del self.forces[place][power]
            if not self.forces[place]:
                del self.forces[place]
        for area in self.areas.values():
            for power in list(area.holdings):
                if area.holdings[power].empty:
                    del area.holdings[power]
