"""Hostile aliens, stray asteroids and asteroid fields (TP Hostile Aliens, TP Asteroid Fields)."""

from __future__ import annotations

from engine.core.events import Event
from engine.core.rng import Dice
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.scoring import check_markers, score
from engine.rulesets.terra_prime.space import design, fields
from engine.rulesets.terra_prime.state import Beaten, GameState, Item, Ship


def _faces(faces: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(f) for f in faces) + "]"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def hits_of(faces: tuple[int, ...]) -> int:
    """Hits in an attack roll (TP Hostile Aliens, Asteroid Fields): each die at or above the printed number."""
    return sum(1 for f in faces if f >= rules().printed.hit_on)


def cancelled_by(ship: Ship, hits: int, faces: tuple[int, ...]) -> int:
    """Hits the ship's shield dice cancel: each die at or above its cancel number, no more than there were."""
    return min(hits, sum(1 for f in faces if f >= cs.cancel_on(ship)))


def attack(state: GameState, dice: Dice, events: list[Event], *, count: int, source: str,
           purpose: str) -> list[Item]:
    """Roll an attack on the acting ship; shields cancel; returns one loss to queue per hit left."""
    ship = state.ship
    if count <= 0:
        events.append(Event(f"{source} roll no dice against **{ship.seat}**.", kind="attack"))
        return []
    roll = dice.roll(count, 6, purpose=purpose)
    hits = hits_of(roll.faces)
    text = f"{source} attack **{ship.seat}**: {_faces(roll.faces)} → {_plural(hits, 'hit')}"
    cancelled = 0
    shields = cs.shield_dice(ship)
    if hits and shields:
        block = dice.roll(shields, 6, purpose=f"{purpose}/shields")
        cancelled = cancelled_by(ship, hits, block.faces)
        text += f"; shields {_faces(block.faces)} cancel {cancelled}"
    through = hits - cancelled
    text += f" — {_plural(through, 'hit')} get through." if through else " — no damage."
    events.append(Event(text, kind="attack", data={"seat": ship.seat, "faces": list(roll.faces), "hits": hits,
                                                    "cancelled": cancelled}))
    return [{"do": "lose"} for _ in range(through)]


def lose(state: GameState, module: str | None, events: list[Event]) -> list[Item]:
    """One uncancelled hit: a module goes, or 3 leadership if none is left; may overfill the hold."""
    ship = state.ship
    if module is None:
        score(state, ship.seat, -rules().printed.no_module_penalty, "hit with no module left to lose", events)
        return []
    ship.modules[module] -= 1
    if not ship.modules[module]:
        del ship.modules[module]
    events.append(Event(f"**{ship.seat}** loses a {rules().module(module).name} module.", kind="loss",
                        data={"seat": ship.seat, "module": module}))
    if len(ship.cargo) > cs.cargo_room(ship):
        return [{"do": "overflow"}]
    return []


def stray_asteroids(state: GameState, position: int, dice: Dice, events: list[Event]) -> list[Item]:
    count = design(state, position).strays
    return attack(state, dice, events, count=count, source=f"{_plural(count, 'stray asteroid')} on tile {position}",
                  purpose=f"strays/{position}")


def asteroid_field(state: GameState, sector: int, dice: Dice, events: list[Event]) -> list[Item]:
    """Entering a sector with asteroid fields: a die per asteroid, one fewer in your own sector."""
    sizes = fields(state, sector)
    if not sizes:
        return []
    colony = state.colonies.get(str(sector))
    own = colony is not None and colony.owner == state.seat
    count = sum(sizes) - (1 if own else 0)
    source = f"The asteroid field{'s' if len(sizes) > 1 else ''} in sector {sector}"
    if own:
        source += " (one die fewer: yours)"
    return attack(state, dice, events, count=count, source=source, purpose=f"field/{sector}")


def alien_attack(state: GameState, position: int, count: int, dice: Dice, events: list[Event]) -> list[Item]:
    state.attacked.append(position)
    symbols = design(state, position).aliens
    source = f"The aliens on tile {position} ({_plural(symbols, 'symbol')})"
    return attack(state, dice, events, count=count, source=source, purpose=f"aliens/{position}")


def _defeat(state: GameState, position: int, how: str, events: list[Event]) -> None:
    ship = state.ship
    symbols = design(state, position).aliens
    marker = True
    if ship.markers_supply:
        ship.markers_supply -= 1
    elif ship.markers_ship:
        ship.markers_ship -= 1
    else:
        marker = False
    state.beaten[str(position)] = Beaten(ship.seat, marker)
    events.append(Event(f"**{ship.seat}** {how} the aliens on tile {position}!"
                        + ("" if marker else " (no colony marker left to place)"), kind="aliens-beaten",
                        data={"seat": ship.seat, "tile": position}))
    score(state, ship.seat, rules().printed.alien_points * symbols, f"aliens on tile {position}", events)
    if marker:
        check_markers(state, ship.seat, events)


def fight(state: GameState, position: int, first: bool, dice: Dice, events: list[Event]) -> list[Item]:
    """Weapons fire: enough hits beat the aliens; short of that, each hit spares a die if they have yet to attack."""
    ship = state.ship
    symbols = design(state, position).aliens
    roll = dice.roll(cs.weapon_dice(ship), 6, purpose=f"weapons/{position}")
    hits = sum(1 for f in roll.faces if f >= cs.weapon_hit_on(ship))
    events.append(Event(f"**{ship.seat}** fires on the aliens on tile {position}: {_faces(roll.faces)} → "
                        f"{_plural(hits, 'hit')} of {symbols} needed.", kind="fight",
                        data={"seat": ship.seat, "faces": list(roll.faces), "hits": hits}))
    return _outcome(state, position, hits, first, "drives off", dice, events)


def negotiate(state: GameState, position: int, first: bool, cubes: tuple[str, ...], dice: Dice,
              events: list[Event]) -> list[Item]:
    """Diplomacy: the offered cubes are spent; a die each, 4+ is a successful negotiation."""
    ship = state.ship
    symbols = design(state, position).aliens
    cs.take_cubes(ship, cubes)
    for c in cubes:
        state.supply[c] += 1
    roll = dice.roll(len(cubes), 6, purpose=f"diplomacy/{position}")
    wins = sum(1 for f in roll.faces if f >= rules().printed.negotiate_on)
    events.append(Event(f"**{ship.seat}** offers {', '.join(cubes)} to the aliens on tile {position}: "
                        f"{_faces(roll.faces)} → {_plural(wins, 'success')} of {symbols} needed.", kind="diplomacy",
                        data={"seat": ship.seat, "faces": list(roll.faces), "hits": wins}))
    return _outcome(state, position, wins, first, "befriends", dice, events)


def ignore(state: GameState, position: int, first: bool, dice: Dice, events: list[Event]) -> list[Item]:
    if not first:
        events.append(Event(f"**{state.seat}** leaves the aliens on tile {position} be.", kind="fight"))
        return []
    return alien_attack(state, position, design(state, position).aliens, dice, events)


def _outcome(state: GameState, position: int, hits: int, first: bool, how: str, dice: Dice,
             events: list[Event]) -> list[Item]:
    symbols = design(state, position).aliens
    if hits >= symbols:
        if first:
            state.attacked.append(position)
        _defeat(state, position, how, events)
        return []
    if first:
        return alien_attack(state, position, symbols - hits, dice, events)
    return []
