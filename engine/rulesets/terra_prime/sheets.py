"""The text a viewer reads: the public summary and a seat's Command Ship sheet."""

from __future__ import annotations

from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.legality import describe, pending
from engine.rulesets.terra_prime.space import board_of, describe_sector, design
from engine.rulesets.terra_prime.state import GameState


def summary(state: GameState) -> str:
    """What everyone may know: turn, scores, Earth's prices, the Cargo Ship."""
    lines = []
    if state.ended:
        lines.append(f"**Game over** — winner{'s' if len(state.winners) > 1 else ''}: {', '.join(state.winners)}.")
    else:
        item = pending(state)
        doing = f" — must {describe(state, item)}" if item else f" — {state.actions_left} action(s) left"
        lines.append(f"**Round {state.round}**, **{state.seat}**'s turn{doing}.")
        if state.final_turns is not None:
            lines.append(f"Final round ({state.trigger}): {state.final_turns + 1} turn(s) left, ending with "
                         f"{state.seats[(state.current + state.final_turns) % len(state.seats)]}.")
    for seat in state.seats:
        ship = state.ships[seat]
        where = "Terra Prime" if ship.sector == 0 else f"sector {ship.sector}"
        lines.append(f"- **{seat}**: {ship.score} leadership, {ship.credits} credits, at {where}, "
                     f"{cs.markers_left(ship)} markers left")
    prices = ", ".join(f"{r.key} {earth.price(state, r.key)} ({state.earth[r.key]} on track)"
                       for r in rules().resources)
    lines.append(f"Earth pays: {prices}.")
    away = " (away to Earth until next turn)" if state.cargo_ship_away else ""
    load = ", ".join(state.cargo_ship) or "empty"
    lines.append(f"Cargo Ship: {len(state.cargo_ship)}/{earth.ship_size(state)} — {load}{away}.")
    b = board_of(state)
    hidden = {band: sum(1 for i, t in enumerate(state.tiles) if not t.revealed and b.layout.bands[i] == band)
              for band in ("green", "yellow", "red")}
    lines.append("Face-down tiles: " + ", ".join(f"{n} {band}" for band, n in hidden.items()) + ".")
    return "\n".join(lines)


def sheet(state: GameState, seat: str) -> str:
    """A seat's own Command Ship board, including what its scanner saw."""
    ship = state.ships[seat]
    names = {r.key: r.name for r in rules().resources}
    mods = []
    for m in rules().modules:
        have = cs.total(ship, m.key)
        if have or m.key != "shuttle":
            built = " (1 built in)" if m.built_in else ""
            mods.append(f"{m.name} {have}/{cs.capacity(ship, m.key)}{built}")
    cargo = ", ".join(f"{c} ({names[c]})" for c in ship.cargo) or "empty"
    tracks = []
    for track in ("holds", "fuel", "weapons", "shields"):
        owned = [t.name for t in rules().tech if t.track == track and t.step in ship.tech]
        tracks.append(f"{track}: {', '.join(owned) or '—'}")
    lines = [
        f"**{seat}** — {ship.score} leadership, {ship.credits} credits",
        f"Modules: {'; '.join(mods)}",
        f"Cargo ({len(ship.cargo)}/{cs.cargo_room(ship)}): {cargo}",
        f"Colony markers: {ship.markers_ship}/{cs.marker_room(ship)} aboard, {ship.markers_supply} in supply",
        f"Dice: {cs.weapon_dice(ship)} weapon (hit {cs.weapon_hit_on(ship)}+), "
        f"{cs.shield_dice(ship)} shield (cancel {cs.cancel_on(ship)}+); {cs.actions_per_turn(ship)} actions, "
        f"{cs.explores_per_turn(ship)} explore(s) a turn",
        "Tech: " + "; ".join(tracks),
        "Next tech (paid in cubes at Terra Prime): " + ("; ".join(
            f"{step.name} ({', '.join(step.price(state.options))})" for step in cs.next_steps(ship)) or "none"),
        f"Position: {describe_sector(state, ship.sector)}"
        + ("" if ship.sector == 0 else f" (sector {ship.sector})"),
    ]
    seen = [p for p in ship.peeks if not state.tile(p).revealed]
    if seen:
        b = board_of(state)
        lines.append("Scanned (only you know): " + "; ".join(
            f"tile {p} ({b.band(p)}): {design(state, p).describe()}" for p in seen))
    return "\n".join(lines)
