"""Terra Prime's numbers, read from the packaged TOML files into typed values."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.tables import load_data
from engine.maps.hexgrid import Hex

PACKAGE = "engine.rulesets.terra_prime"
BANDS = ("green", "yellow", "red")


CLEAR = "-clear"   # the id suffix of a green face without its asteroids


@dataclass(frozen=True, slots=True)
class Printed:
    """The numbers the rulebook prints (rules.toml [printed])."""

    colony_markers: int
    start_credits: int
    start_markers_on_ship: int
    cubes_per_resource: int
    ship_markers: int
    cryo_markers: int
    hold_slots: int
    shuttle_slots: int
    shuttle_holds: int
    module_cap: int
    module_cap_upgraded: int
    hit_on: int
    cancel_on: int
    cancel_on_upgraded: int
    weapon_hit_on: int
    weapon_hit_on_upgraded: int
    negotiate_on: int
    no_module_penalty: int
    alien_points: int
    planet_points: int
    sector_points: int
    collect_points: int
    install_points: int
    credit_points: int
    credit_chips: tuple[int, ...]
    end_markers_left: int
    explores_per_turn: int


@dataclass(frozen=True, slots=True)
class Resource:
    key: str
    name: str
    price: tuple[int, ...]
    start: int

    @property
    def track_size(self) -> int:
        return len(self.price) - 1

    def price_at(self, cubes_on_track: int) -> int:
        return self.price[min(cubes_on_track, len(self.price) - 1)]


@dataclass(frozen=True, slots=True)
class ModuleSpec:
    key: str
    name: str
    planets: tuple[str, ...]
    built_in: int
    track: str
    supply: int           # tiles in the box (TP Components)

    @property
    def at_outpost(self) -> bool:
        return "outpost" in self.planets


@dataclass(frozen=True, slots=True)
class TechStep:
    track: str
    step: str
    name: str
    cost: tuple[str, ...]
    branch: bool = False
    cheap: tuple[str, ...] = ()    # the cost under the campaign option tech_costs=cheap

    def price(self, options: Mapping[str, object]) -> tuple[str, ...]:
        """The cubes this step costs in a campaign with these options."""
        return self.cheap if options.get("tech_costs", "board") == "cheap" else self.cost


@dataclass(frozen=True, slots=True)
class Corner:
    """What one vertex of a space tile shows."""

    kind: str          # "space", "planet" or "field"
    colour: str = ""   # planets
    size: int = 0      # asteroid fields

    @classmethod
    def parse(cls, text: str) -> Corner:
        if text == ".":
            return cls("space")
        if text.startswith("field:"):
            return cls("field", size=int(text.split(":", 1)[1]))
        return cls("planet", colour=text)

    def describe(self) -> str:
        if self.kind == "planet":
            return f"{self.colour} planet"
        if self.kind == "field":
            return f"asteroid field ({self.size})"
        return "deep space"


@dataclass(frozen=True, slots=True)
class TileDesign:
    id: str
    band: str
    corners: tuple[Corner, ...]
    aliens: int = 0
    strays: int = 0
    variant_of: str = ""   # a face of ours derived from a printed one (not dealt into a stack itself)

    def clear(self) -> TileDesign:
        """This face with its asteroid fields and stray asteroids turned to deep space."""
        corners = tuple(Corner("space") if c.kind == "field" else c for c in self.corners)
        return TileDesign(f"{self.id}{CLEAR}", self.band, corners, self.aliens, 0, self.id)

    @property
    def has_asteroids(self) -> bool:
        return self.strays > 0 or any(c.kind == "field" for c in self.corners)

    def describe(self) -> str:
        """A short public description of the face, e.g. ``green planet, asteroid field (2); 1 alien``."""
        parts = [c.describe() for c in self.corners if c.kind != "space"]
        text = ", ".join(parts) if parts else "deep space"
        if self.aliens:
            text += f"; {self.aliens} alien{'s' if self.aliens > 1 else ''}"
        if self.strays:
            text += f"; {self.strays} stray asteroid{'s' if self.strays > 1 else ''}"
        return text


@dataclass(frozen=True, slots=True)
class Layout:
    shape: str
    outpost: str
    outpost_hexes: tuple[Hex, ...]
    positions: tuple[Hex, ...]   # tile position n is positions[n - 1]
    bands: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Rules:
    printed: Printed
    resources: tuple[Resource, ...]
    modules: tuple[ModuleSpec, ...]
    tech: tuple[TechStep, ...]
    cargo_ship: dict[int, int]
    mine_produces: str
    tiles: dict[str, TileDesign]
    shapes: dict[str, str]

    @property
    def resource_keys(self) -> tuple[str, ...]:
        return tuple(r.key for r in self.resources)

    @property
    def printed_chips(self) -> tuple[int, ...]:
        return self.printed.credit_chips

    def resource(self, key: str) -> Resource:
        return next(r for r in self.resources if r.key == key)

    def module(self, key: str) -> ModuleSpec:
        return next(m for m in self.modules if m.key == key)

    def step(self, key: str) -> TechStep:
        return next(t for t in self.tech if t.step == key)

    def colour_module(self, colour: str) -> ModuleSpec | None:
        return next((m for m in self.modules if colour in m.planets), None)


def _hexes(raw: list[Any]) -> tuple[Hex, ...]:
    return tuple((int(q), int(r)) for q, r in raw)


@functools.cache
def rules() -> Rules:
    """The ruleset's data (read once)."""
    raw = load_data(PACKAGE, "data/rules.toml")
    tiles_raw = load_data(PACKAGE, "data/tiles.toml")
    boards = load_data(PACKAGE, "data/boards.toml")
    tiles = {}
    for band in BANDS:
        for t in tiles_raw[band]:
            aliens = strays = 0
            centre = t.get("centre", "")
            if centre.startswith("aliens:"):
                aliens = int(centre.split(":")[1])
            elif centre.startswith("strays:"):
                strays = int(centre.split(":")[1])
            face = TileDesign(t["id"], band, tuple(Corner.parse(c) for c in t["corners"]), aliens, strays)
            tiles[face.id] = face
            if band == "green" and face.has_asteroids:   # for option green_asteroids=none
                tiles[face.id + CLEAR] = face.clear()
    return Rules(
        printed=Printed(**{**raw["printed"], "credit_chips": tuple(raw["printed"]["credit_chips"])}),
        resources=tuple(Resource(r["key"], r["name"], tuple(r["price"]), r["start"]) for r in raw["resource"]),
        modules=tuple(ModuleSpec(k, m["name"], tuple(m["planets"]), m["built_in"], m["track"],
                                 m["supply"])
                      for k, m in raw["modules"].items()),
        tech=tuple(TechStep(t["track"], t["step"], t["name"], tuple(t["cost"]), t.get("branch", False),
                            tuple(t["cheap"]))
                   for t in raw["tech"]),
        cargo_ship={int(k): v for k, v in raw["cargo_ship"].items()},
        mine_produces=raw["mine"]["produces"],
        tiles=tiles,
        shapes=dict(boards["titles"]),
    )


@functools.cache
def layout(shape: str, outpost: str) -> Layout:
    """One board: the outpost's hexes and the 42 tile positions with their colour bands."""
    boards = load_data(PACKAGE, "data/boards.toml")
    body = boards["boards"][shape][outpost]
    positions: list[Hex] = []
    bands: list[str] = []
    for band in BANDS:
        for h in _hexes(body[band]):
            positions.append(h)
            bands.append(band)
    return Layout(shape, outpost, _hexes(boards["outposts"][outpost]["hexes"]), tuple(positions), tuple(bands))


def outpost_for(players: int) -> str:
    """The outpost tile for this many players (TP Setup)."""
    boards = load_data(PACKAGE, "data/boards.toml")
    for name, body in boards["outposts"].items():
        if players in body["players"]:
            return str(name)
    raise ValueError(f"no outpost for {players} players")
