"""A whole five-power campaign with the East Indies, to its end, with random orders and rulings: every
line is either accepted and carried out or refused with a reason, and the bookkeeping never breaks."""

import json
import random

import pytest

from engine.core import Dice, Setup, Viewer, Window
from engine.rulesets.terra_nova.geography import EUROPE, geography

SEATS = ("Spain", "Portugal", "England", "France", "Holland")


def _coast(name: str, rnd: random.Random) -> str:
    coasts = geography().places[name].coasts
    return name + (f"/{rnd.choice(coasts)}" if coasts != ("",) else "")


def candidates(state, seat, window, rnd):
    geo = geography()
    coastal = [p.name for p in geo.places.values() if p.kind == "land" and p.bounds]
    out = []
    if window == "B5":
        out = ["buy 2 soldier", "buy 1 carrack", "buy 1 caravel", "buy 1 mission", "buy 1 cannon", "buy 1 galleon",
               "buy 1 captain", f"buy 1 fort at {rnd.choice(coastal)}", f"pay 5 to {rnd.choice(SEATS)}"]
    for place, forces in state.forces.items():
        force = forces.get(seat)
        if not force:
            continue
        if window in ("C1", "F1") and force.ships:
            ship = next(iter(force.ships))
            leaders = [ld.name for ld in state.leaders_of(seat, place)]
            dest = EUROPE if place != EUROPE else rnd.choice([*coastal, *geo.indies_areas[:4]])
            cargo = "1 soldier" if force.count("soldier") else (f"{min(force.gold, 25)} gold" if force.gold else "")
            out.append(f"sail 1 {ship} from {place} to {_coast(dest, rnd) if dest != EUROPE else dest}"
                       + (f" carrying {cargo}" if cargo else "") + (f" leaders {leaders[0]}" if leaders else ""))
            out.append(f"sail 1 carrack from Europe to {_coast(rnd.choice(coastal), rnd)} via guinea carrying 1 slave")
            out.append(f"intercept {rnd.choice(SEATS)}")
        if window == "C2" and force.ships and place in geo.lanes:
            lane = rnd.choice(list(geo.lanes[place]))
            out.append(f"sail 1 {next(iter(force.ships))} from {place} to {lane}")
            out.append(f"factory {place} bribe 3")
            out.append(f"attack {rnd.choice(SEATS)} at sea in {place}")
        if window == "D3" and place in state.areas:
            out += [f"settle {place}", f"mission {place}", f"attack natives in {place} tactic charge",
                    f"town {place}", f"plantation {place}", f"attack {rnd.choice(SEATS)} in {place}"]
            out += [f"move 1 soldier from {place} to {nb}" for nb in sorted(geo.neighbours(place))[:2]]
            out += [f"attack natives in {place} city {c}" for c, a in geo.city_areas.items() if a == place]
    if window == "E1":
        out += [f"ally {ld.place} leader {ld.name} bribe 2" for ld in state.leaders_of(seat) if ld.place in state.areas]
    if window == "G7":
        out = ["vote continue"]
    rnd.shuffle(out)
    return out[:5]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12])
def test_a_whole_campaign_runs_to_its_end(tn, seed):
    rnd = random.Random(seed)
    options = tn.parse_options({"east_indies": "yes", "endgame_votes": "yes", "leader_assignment": "gm"})
    state = tn.setup(Setup(SEATS, options, Dice(bytes([seed]) * 32, "setup")))
    labels: set[str] = set()
    for n in range(4000):
        if state.ended:
            break
        phase = tn.phase(state)
        dice = Dice(bytes([seed]) * 32, f"step{n}")
        if phase.window is Window.GM:
            choice = rnd.choice([a.text for a in tn.view(state, Viewer.gm()).actions if a.group == "rule"])
            state = tn.act(state, Viewer.gm(), choice, dice).state
        elif phase.window is Window.TURN:
            seat = sorted(phase.waiting)[0]
            state = tn.act(state, Viewer.of_seat(seat), tn.timeout_action(state, seat) or "", dice).state
        else:
            orders = {}
            for seat in SEATS:
                lines = candidates(state, seat, phase.name, rnd) or ["note nothing to do"]
                orders[seat] = [c.canonical for c in tn.check(state, seat, "\n".join(lines)) if c.accepted]
            state = tn.resolve(state, orders, dice).state
            state = tn.load(json.loads(json.dumps(tn.dump(state))))
        labels |= {r.name for r in dice.rolls}
        assert all(p.treasury >= 0 for p in state.powers.values())
        assert all(a.natives >= 0 and sum(a.allies.values()) <= a.natives for a in state.areas.values())
    assert state.ended and state.turn >= 21 and tn.phase(state).window is Window.ENDED
    assert "victory points" in state.result
    assert not [label for label in labels if "/" in label]      # every roll reads as a label, not a path
