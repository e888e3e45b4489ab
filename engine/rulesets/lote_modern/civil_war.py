"""Dividing a nation's reserves when it breaks apart in civil war or dynastic failure (LotE 3.2.2.4): a GM action.

    divide-reserves England among England (London, Dover, Portsmouth); Jacobites (Birmingham, Edinburgh)

Each side is named with the originally Friendly cities of the old nation it now holds; the reserves are shared
by those counts (`rules/reserves.divide_reserves`, whole-percent shares unless the campaign says otherwise) and
rounded down. A side that is a nation of the campaign has its share put on its sheet (the old nation keeps
only its own share); any other side's share is reported to the GM, who founds the new state.
"""

from __future__ import annotations

import re

from engine.core.errors import IllegalAction, RulesError
from engine.core.events import Event
from engine.core.visibility import GM_ONLY, Visibility
from engine.rulesets.lote_modern import accounts
from engine.rulesets.lote_modern.rules import reserves
from engine.rulesets.lote_modern.sheet import fold, format_units
from engine.rulesets.lote_modern.state import AuditEntry, GameState

HELP = "divide-reserves <nation> among <side> (<city>, <city>); <side> (<city>, ...)"
_ACTION = re.compile(r"^divide-reserves\s+(?P<nation>.+?)\s+among\s+(?P<sides>.+)$", re.IGNORECASE)
_SIDE = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<cities>[^()]*)\)$")


def parse(state: GameState, text: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """The old nation and each side with its cities, in the map's spelling; IllegalAction says what is wrong."""
    m = _ACTION.match(" ".join(text.split()))
    if not m:
        raise IllegalAction(f"write `{HELP}`")
    nation = state.nation(m["nation"].strip('"'))
    friendly = {c.city for c in nation.cities if accounts.is_friendly(c.status)}
    sides: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for part in m["sides"].split(";"):
        side = _SIDE.match(part.strip())
        if not side:
            raise IllegalAction(f"`{part.strip()}`: write each side as `<name> (<city>, <city>)` ({HELP})")
        cities = []
        for name in (c.strip() for c in side["cities"].split(",") if c.strip()):
            key = state.world.canonical(name)
            if key is None or key not in friendly:
                raise IllegalAction(f"`{name}` is not one of {nation.name}'s Friendly cities "
                                    f"({', '.join(sorted(friendly)) or 'none'})")
            if key in seen:
                raise IllegalAction(f"{key} is named for two sides")
            seen.add(key)
            cities.append(key)
        found = state.find_nation(side["name"])
        sides.append((found.name if found is not None else side["name"].strip(), cities))
    if len(sides) < 2:
        raise IllegalAction("a civil war has at least two sides")
    if len({fold(name) for name, _ in sides}) != len(sides):
        raise IllegalAction("each side is named once")
    return nation.name, sides


def canonical(nation: str, sides: list[tuple[str, list[str]]]) -> str:
    return f"divide-reserves {nation} among " + "; ".join(f"{name} ({', '.join(cities)})" for name, cities in sides)


def divide(state: GameState, text: str) -> list[Event]:
    """Apply the division: each side's share of the reserves, the seats' shares onto their sheets (3.2.2.4)."""
    name, sides = parse(state, text)
    old = state.nation(name)
    if not old.reserves:
        raise IllegalAction(f"{old.name} has no reserves to divide")
    counts = {side: len(cities) for side, cities in sides}
    try:
        shares = reserves.divide_reserves(old.reserves, counts,
                                          whole_percent=bool(state.options.get("reserves-whole-percent", True)))
    except RulesError as exc:
        raise IllegalAction(str(exc)) from None
    total = sum(counts.values())
    before = dict(old.reserves)
    old.reserves = {}
    seats, others = [], []
    for side, _ in sides:
        got = {code: n for code, n in shares[side].items() if n}
        nation = state.find_nation(side)
        if nation is not None:
            for code, n in got.items():
                nation.reserves[code] = nation.reserves.get(code, 0) + n
            seats.append(nation.name)
        else:
            others.append(side)
    lost = {code: n - sum(shares[s].get(code, 0) for s in counts) for code, n in before.items()}
    lines = [f"{side}: {counts[side]}/{total} cities, {format_units({c: n for c, n in shares[side].items() if n})}"
             for side, _ in sides]
    summary = (f"{old.name}'s reserves ({format_units(before)}) divided in civil war (LotE 3.2.2.4): "
               + "; ".join(lines) + (f"; lost to rounding: {format_units({c: n for c, n in lost.items() if n})}"
                                     if any(lost.values()) else "") + ".")
    state.audit.append(AuditEntry(state.turn, old.name, f"{canonical(name, sides)} [{'; '.join(lines)}]"))
    gm_note = f" Sides not in the campaign ({', '.join(others)}): their reserves are yours to place." if others else ""
    events = [Event(summary + gm_note, GM_ONLY, "edit", {"nation": old.name})]
    for seat in sorted({old.name, *seats}):
        events.append(Event(summary, Visibility.to(seat), "edit", {"nation": seat}))
    return events
