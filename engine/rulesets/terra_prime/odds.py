"""What may happen: the exact odds of a Terra Prime action, from what its seat may know.

Exploring turns over a face-down tile: to the seat it is any face of that band it has not seen, equally likely
(the stacks were shuffled): every face is counted but the ones turned face up, which everyone saw, and the ones
the seat's own scanner showed it; another seat's scans tell it nothing. A tile the seat scanned itself is known.
The face's stray asteroids and then its aliens attack at once (`combat.hits_of`, shields `combat.cancelled_by`).
Moving into a sector with asteroid fields rolls its dice the same way.
"""

from __future__ import annotations

from fractions import Fraction

from engine.core.errors import IllegalAction
from engine.core.odds import Dist, percent, total_of
from engine.rulesets.terra_prime import combat
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime.commands import Command, parse
from engine.rulesets.terra_prime.data import CLEAR, TileDesign, rules
from engine.rulesets.terra_prime.legality import check
from engine.rulesets.terra_prime.space import board_of, face_down, fields
from engine.rulesets.terra_prime.state import GameState, Ship

NO_DICE = "no dice in this action"


def through(ship: Ship, count: int) -> Dist[int]:
    """Hits that get through an attack of `count` dice on this ship, after its shields."""
    if count <= 0:
        return Dist.certain(0)
    hits = total_of(Dist.die(6).map(lambda f: combat.hits_of((f,))), count)
    shields = total_of(Dist.die(6).map(lambda f: combat.cancelled_by(ship, 1, (f,))), cs.shield_dice(ship))
    return hits.bind(lambda h: shields.map(lambda s, h=h: h - min(h, s)))  # type: ignore[misc]


def unseen_faces(state: GameState, seat: str, position: int) -> list[str]:
    """The faces the tile at `position` may show, as far as `seat` knows."""
    ship = state.ships[seat]
    if position in ship.peeks:
        return [state.tile(position).design]
    band = board_of(state).band(position)
    clear = state.options.get("green_asteroids", "few") == "none"
    faces = rules().tiles
    pool = [t.id + CLEAR if clear and t.id + CLEAR in faces else t.id
            for t in faces.values() if t.band == band and not t.variant_of]
    seen = [t.design for t in state.tiles if t.revealed] + [state.tile(p).design for p in ship.peeks]
    for design in seen:
        if design in pool:
            pool.remove(design)
    return pool


def _damage(dist: Dist[int]) -> str:
    parts = []
    for n in sorted(dist):
        parts.append(f"{'no hit' if n == 0 else f'{n} hit' + ('s' if n > 1 else '')} {percent(dist[n])}")
    return " · ".join(parts)


def explore(state: GameState, seat: str, sector: int) -> str:
    hidden = face_down(state, sector)
    if not hidden:
        raise IllegalAction(f"sector {sector} is mapped: there is nothing to explore")
    position = hidden[0]
    ship = state.ships[seat]
    pool = unseen_faces(state, seat, position)
    faces = Dist.uniform(pool)
    band = board_of(state).band(position)

    def design(face: str) -> TileDesign:
        return rules().tiles[face]

    known = "your scan showed it" if position in ship.peeks else f"{len(pool)} {band} faces you have not seen"
    hits = faces.bind(lambda f: _sum_two(through(ship, design(f).strays), through(ship, design(f).aliens)))
    parts = [f"tile {position} ({known})"]
    aliens = faces.chance(lambda f: design(f).aliens > 0)
    strays = faces.chance(lambda f: design(f).strays > 0)
    parts.append(f"aliens {percent(aliens)}" + (" (they strike first)" if aliens else ""))
    parts.append(f"stray asteroids {percent(strays)}")
    colours = sorted({c.colour for f in pool for c in design(f).corners if c.kind == "planet"})
    planets = [f"{colour} {percent(_chance_of(faces, colour))}" for colour in colours]
    if planets:
        parts.append("a planet: " + " · ".join(planets))
    parts.append(f"damage at once: {_damage(hits)}")
    if faces.chance(lambda f: any(c.kind == "field" for c in design(f).corners)):
        parts.append("asteroid fields roll too, as you orient the tile")
    return "; ".join(parts)


def _chance_of(faces: Dist[str], colour: str) -> Fraction:
    """The chance the face shows a planet of this colour."""
    return faces.chance(lambda f: any(c.kind == "planet" and c.colour == colour for c in rules().tiles[f].corners))


def _sum_two(a: Dist[int], b: Dist[int]) -> Dist[int]:
    return a.bind(lambda x: b.map(lambda y, x=x: x + y))  # type: ignore[misc]


def move(state: GameState, seat: str, sector: int) -> str:
    sizes = fields(state, sector)
    if not sizes:
        return NO_DICE
    colony = state.colonies.get(str(sector))
    count = sum(sizes) - (1 if colony is not None and colony.owner == seat else 0)
    return f"asteroid fields ({count} dice): {_damage(through(state.ships[seat], count))}"


def odds(state: GameState, seat: str, text: str) -> str:
    """`/odds` for an action: what exploring or entering a sector may do to the seat's Command Ship."""
    if seat not in state.ships:
        raise IllegalAction(f"{seat} is not a player in this game")
    cmd: Command = parse(text.strip())
    if state.seat == seat and not state.ended:
        check(state, cmd)   # on your turn the action must be legal now: the same refusal `/act` gives
    if cmd.verb == "explore":
        said = explore(state, seat, cmd.number)
    elif cmd.verb == "move":
        said = move(state, seat, cmd.number)
    else:
        said = NO_DICE
    return f"**{cmd.text()}**: {said}"

