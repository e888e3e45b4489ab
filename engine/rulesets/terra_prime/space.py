"""What is where: sector contents from the tiles turned face up, mapping, and tile orientation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from engine.rulesets.terra_prime.board import TERRA_PRIME, Board, board
from engine.rulesets.terra_prime.data import Corner, TileDesign, rules
from engine.rulesets.terra_prime.state import GameState


@dataclass(frozen=True, slots=True)
class Planet:
    key: str        # "<tile>:<printed corner>", stable whatever the rotation
    colour: str


def board_of(state: GameState) -> Board:
    return board(state.shape, state.outpost)


def design(state: GameState, position: int) -> TileDesign:
    return rules().tiles[state.tile(position).design]


def corner_at(state: GameState, position: int, board_corner: int) -> tuple[int, Corner] | None:
    """The printed corner showing at a board corner of a placed tile (None while face down)."""
    tile = state.tile(position)
    if not tile.revealed or tile.rotation is None:
        return None
    printed = (board_corner - tile.rotation) % 6
    return printed, rules().tiles[tile.design].corners[printed]


def planets(state: GameState, sector: int) -> list[Planet]:
    out = []
    for pos, c in board_of(state).spots[sector]:
        found = corner_at(state, pos, c)
        if found and found[1].kind == "planet":
            out.append(Planet(f"{pos}:{found[0]}", found[1].colour))
    return out


def colony_planet(state: GameState, sector: int) -> str | None:
    """The key of the planet the sector's colony stands on (None for a mine or no colony).

    Games saved before colonies kept their planet name only a colour: the first planet of that colour stands in.
    """
    colony = state.colonies.get(str(sector))
    if colony is None or colony.is_mine:
        return None
    if colony.planet is not None:
        return colony.planet
    return next((p.key for p in planets(state, sector) if p.colour == colony.target), None)


def fields(state: GameState, sector: int) -> list[int]:
    """Sizes of the asteroid fields in a sector."""
    out = []
    for pos, c in board_of(state).spots[sector]:
        found = corner_at(state, pos, c)
        if found and found[1].kind == "field":
            out.append(found[1].size)
    return out


def face_down(state: GameState, sector: int) -> list[int]:
    return [p for p in board_of(state).tiles_at[sector] if not state.tile(p).revealed]


def mapped(state: GameState, sector: int) -> bool:
    return not face_down(state, sector)


def live_aliens(state: GameState, position: int) -> int:
    """Alien symbols still hostile on a placed tile."""
    tile = state.tile(position)
    if not tile.revealed or tile.rotation is None or str(position) in state.beaten:
        return 0
    return rules().tiles[tile.design].aliens


def hostile_tiles_around(state: GameState, sector: int) -> list[int]:
    """Placed tiles with hostile aliens that have this sector as a vertex."""
    return [p for p in board_of(state).tiles_at[sector] if live_aliens(state, p)]


def colony_value(state: GameState, sector: int) -> int:
    """Leadership for a colony here (TP Scoring): path to Terra Prime plus 2 per planet; 0 without planets."""
    printed = rules().printed
    count = len(planets(state, sector))
    if not count:
        return 0
    return printed.sector_points * board_of(state).distance[sector] + printed.planet_points * count


def _has_planet(state: GameState, sector: int, extra: dict[int, bool]) -> bool:
    if sector == TERRA_PRIME:  # Terra Prime's sectors count as planets for placing tiles (TP Explore)
        return True
    return extra.get(sector, False) or bool(planets(state, sector))


def breaches(state: GameState, position: int, rotation: int) -> int:
    """How many planets of this tile, turned this way, would sit next to another planet (TP Explore)."""
    b = board_of(state)
    tile_design = design(state, position)
    placed: dict[int, bool] = {}
    for printed, corner in enumerate(tile_design.corners):
        if corner.kind == "planet":
            placed[b.spot_sector[(position, (printed + rotation) % 6)]] = True
    count = 0
    for sector in placed:
        if sector == TERRA_PRIME or any(_has_planet(state, n, placed) for n in b.neighbours[sector]):
            count += 1
    return count


def orientations(state: GameState, position: int) -> list[int]:
    """The rotations the explorer may choose: those keeping planets apart, or, if none does, the least bad.

    Rotations that put the same things in the same sectors are offered once (the lowest number). Kept with the
    sky (what is face up around it decides them, and the tile's own face).
    """
    key = ("orient", position, state.tile(position).design)
    memo = sky(state).memo
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(_orientations(state, position))
    return list(cast("tuple[int, ...]", found))


def _orientations(state: GameState, position: int) -> list[int]:
    b = board_of(state)
    tile_design = design(state, position)
    seen: set[tuple[tuple[int, str], ...]] = set()
    scored: list[tuple[int, int]] = []
    for rotation in range(6):
        layout = tuple(sorted((b.spot_sector[(position, (i + rotation) % 6)], c.kind + c.colour + str(c.size))
                              for i, c in enumerate(tile_design.corners)))
        if layout in seen:
            continue
        seen.add(layout)
        scored.append((breaches(state, position, rotation), rotation))
    best = min(s for s, _ in scored)
    return [r for s, r in scored if s == best]


def placement(state: GameState, position: int, rotation: int) -> list[tuple[int, Corner]]:
    """Where each non-empty printed corner lands, as (sector, corner), for labels and events."""
    b = board_of(state)
    out = []
    for printed, corner in enumerate(design(state, position).corners):
        if corner.kind != "space":
            out.append((b.spot_sector[(position, (printed + rotation) % 6)], corner))
    return sorted(out, key=lambda sc: sc[0])


def describe_sector(state: GameState, sector: int) -> str:
    """Public contents of a mapped sector, e.g. ``2 planets (green, blue), field 2``."""
    if sector == TERRA_PRIME:
        return "Terra Prime"
    parts = []
    found = planets(state, sector)
    if found:
        parts.append(" & ".join(p.colour for p in found) + (" planets" if len(found) > 1 else " planet"))
    for size in fields(state, sector):
        parts.append(f"field {size}")
    colony = state.colonies.get(str(sector))
    if colony:
        parts.append(f"{colony.owner}'s {'mine' if colony.is_mine else 'colony'}")
    return ", ".join(parts) if parts else "deep space"


@dataclass(frozen=True, slots=True)
class Sky:
    """What the face-up tiles show, sector by sector, computed once per arrangement of face-up tiles and
    beaten aliens (the automatic players ask it thousands of times a decision). Face-down tiles count only as
    face down: their faces are no part of the key, so nothing hidden leaks through it."""

    face_down: tuple[tuple[int, ...], ...]      # face-down tile positions touching each sector
    fields: tuple[int, ...]                      # asteroids in each sector's fields, summed
    hostile: tuple[tuple[tuple[int, int], ...], ...]   # (tile, live alien symbols) around each sector
    colony_value: tuple[int, ...]                # `colony_value` of each sector
    colours: tuple[tuple[str, ...], ...]         # planet colours in each sector
    memo: dict[object, object] = field(default_factory=dict, compare=False)   # the automatic player's paths


_SKIES: dict[tuple[object, ...], Sky] = {}


def sky(state: GameState) -> Sky:
    key = (state.shape, state.outpost,
           tuple((t.design, t.rotation) if t.revealed else None for t in state.tiles), tuple(sorted(state.beaten)))
    found = _SKIES.get(key)
    if found is None:
        if len(_SKIES) > 4096:
            _SKIES.clear()
        found = _SKIES[key] = _build_sky(state)
    return found


def _build_sky(state: GameState) -> Sky:
    """One pass over the face-up tiles (the same answers as `face_down`, `fields`, `hostile_tiles_around` and
    `colony_value` sector by sector)."""
    b = board_of(state)
    printed = rules().printed
    count = b.sector_count
    field_sizes = [0] * count
    planet_count = [0] * count
    colours: list[list[str]] = [[] for _ in range(count)]
    hostile: list[list[tuple[int, int]]] = [[] for _ in range(count)]
    for position, tile in enumerate(state.tiles, 1):
        if not tile.revealed or tile.rotation is None:
            continue
        face = rules().tiles[tile.design]
        for board_corner in range(6):
            corner = face.corners[(board_corner - tile.rotation) % 6]
            if corner.kind == "field":
                field_sizes[b.spot_sector[(position, board_corner)]] += corner.size
            elif corner.kind == "planet":
                planet_count[b.spot_sector[(position, board_corner)]] += 1
                colours[b.spot_sector[(position, board_corner)]].append(corner.colour)
        aliens = live_aliens(state, position)
        if aliens:
            for sector in sorted(set(b.tile_sectors(position))):
                hostile[sector].append((position, aliens))
    return Sky(face_down=tuple(tuple(p for p in b.tiles_at[s] if not state.tile(p).revealed) for s in range(count)),
               fields=tuple(field_sizes),
               hostile=tuple(tuple(h) for h in hostile),
               colony_value=tuple(printed.sector_points * b.distance[s] + printed.planet_points * n if n else 0
                                  for s, n in enumerate(planet_count)),
               colours=tuple(tuple(c) for c in colours))
