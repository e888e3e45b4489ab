"""Dump states made by the code of the day: `PYTHONPATH=. python tests/engine/saved_states/dump_states.py`.

The files here were dumped before the shared record codec: every later codec must still load them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine.core import Dice, Setup, Viewer, Window
from engine.rulesets import get
from tests.engine.terra_nova.test_whole_game import SEATS, candidates

OUT = Path(__file__).parent
EXAMPLES = OUT.parents[2] / "examples"


def save(ruleset_id: str, name: str, state: Any) -> None:
    data = get(ruleset_id).dump(state)
    (OUT / f"{ruleset_id}--{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def freeform() -> None:
    ff = get("freeform")
    regions = (EXAMPLES / "freeform" / "regions.toml").read_text()
    owners = sorted({line.split("=")[1].strip().strip('"')
                     for line in regions.splitlines() if line.startswith("owner")})
    seed = b"\x02" * 32
    state = ff.setup(Setup(tuple(owners), ff.parse_options({}), Dice(seed, "setup"), {"regions": regions}))
    state = ff.act(state, Viewer.gm(), "result all: Rome marches north.", Dice(seed, "a")).state
    state = ff.act(state, Viewer.gm(), "result egypt: Your spies report legions.", Dice(seed, "b")).state
    state = ff.resolve(state, {"Rome": ["march on Gaul"], "Egypt": ["build a fleet"]}, Dice(seed, "c")).state
    save("freeform", "turn2", state)


def terra_prime() -> None:
    tp = get("terra-prime")
    seed = b"\x03" * 32
    state = tp.setup(Setup(("Ana", "Ben", "Cy"), tp.parse_options({}), Dice(seed, "setup")))
    for n in range(400):
        phase = tp.phase(state)
        if phase.ended:
            break
        seat = sorted(phase.waiting)[0]
        dice = Dice(seed, f"s{n}")
        state = tp.act(state, Viewer.of_seat(seat), tp.autoplay(state, seat, dice) or "", dice).state
        if n in (5, 120):
            save("terra-prime", f"step{n}", state)
    save("terra-prime", "late", state)


def terra_nova() -> None:
    tn = get("terra-nova")
    rnd = random.Random(11)
    seed = bytes([11]) * 32
    options = tn.parse_options({"east_indies": "yes", "endgame_votes": "yes", "leader_assignment": "gm"})
    state = tn.setup(Setup(SEATS, options, Dice(seed, "setup")))
    for n in range(151):
        if state.ended:
            break
        phase = tn.phase(state)
        dice = Dice(seed, f"step{n}")
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
        if n in (3, 40, 150):
            save("terra-nova", f"step{n}", state)


def lote_modern() -> None:
    lm = get("lote-modern")
    ex = EXAMPLES / "lote-modern"
    seed = b"\x07" * 32
    files = {"sheets": (ex / "sheets.toml").read_text(), "map": (ex / "map.toml").read_text()}
    rule = lm.seat_rule({}, files)
    state = lm.setup(Setup(rule.names, lm.parse_options({}), Dice(seed, "setup"), files))
    save("lote-modern", "start", state)
    for turn in (1, 2):
        orders = {}
        for seat in rule.names:
            path = ex / "orders" / f"{seat.lower()}-{turn}.txt"
            if path.exists():
                orders[seat] = [c.canonical for c in lm.check(state, seat, path.read_text()) if c.accepted]
        state = lm.resolve(state, orders, Dice(seed, f"t{turn}")).state
        save("lote-modern", f"turn{turn}-resolved", state)
        for item in state.report.rulings:
            state = lm.act(state, Viewer.gm(), f"rule {item.id} Noted.", Dice(seed, "r")).state
        state = lm.act(state, Viewer.gm(), "publish", Dice(seed, "p")).state
    save("lote-modern", "turn2-published", state)


if __name__ == "__main__":
    freeform()
    terra_prime()
    terra_nova()
    lote_modern()
