"""What may happen: the exact odds of a Terra Nova order, from what its seat may know (the public board, its own
orders), read from the tables and functions its procedure rolls on.

Settlement and towns (`land.settle_faces`, `land.town_faces`), missions (Mission Levels, then this turn's
Religious Conversion roll), native alliance (the leader's NAT row and the gifts' modifier, and the war that
hostility starts), factories (`indies.factory_succeeds`) and land battles (`battle_odds`). Another power's
tactic is its secret: the odds assume it fights without one, and say so.
"""

from __future__ import annotations

import copy
import functools
from fractions import Fraction

from engine.core.errors import OrderError
from engine.core.odds import Dist, percent, total_of
from engine.core.orders import OrderCheck
from engine.core.rng import Dice
from engine.rulesets.terra_nova import combat, land, naval
from engine.rulesets.terra_nova.battle_odds import (
    Ending,
    Fighter,
    TooLarge,
    battle_odds,
    fighter,
    sea_fighter,
    sea_odds,
)
from engine.rulesets.terra_nova.combat import NATIVES, Squadron, count_of
from engine.rulesets.terra_nova.context import Ctx
from engine.rulesets.terra_nova.geography import geography
from engine.rulesets.terra_nova.indies import factory_succeeds
from engine.rulesets.terra_nova.natives import unallied
from engine.rulesets.terra_nova.orders import (
    CARGO_ORDER,
    UNIT_NAMES,
    Ally,
    AreaOrder,
    Attack,
    Factory,
    Order,
    Sail,
    SeaAttack,
    Settle,
    tactic_word,
)
from engine.rulesets.terra_nova.reference import (
    Attrition,
    Conversion,
    alliance_table,
    attrition_columns,
    attrition_table,
    bribe_modifier,
    conversion_reroll_faces,
    conversion_table,
    house,
    mission_levels,
    number,
)
from engine.rulesets.terra_nova.state import Battle, Force, Goods, TNState, Voyage

NO_DICE = "no dice in this order"
ZERO_F = Fraction(0)
BRIEF_ROUNDS = 150   # the rounds an order check counts for a battle; `/odds` counts up to battle_odds' limit


def _die(sides: int = 6) -> Dist[int]:
    return Dist.die(sides)


def _table_faces(count: int, sides: int) -> Dist[int]:
    return total_of(_die(sides), count)


def _listing(dist: Dist[str], *, in_order: bool = False) -> str:
    """`a 50% · b 33.3%`, the likeliest first (or in the outcomes' own order)."""
    items = list(dist.items()) if in_order else sorted(dist.items(), key=lambda item: -item[1])
    return " · ".join(f"{o} {percent(p)}" for o, p in items)


# -- single rolls --------------------------------------------------------------------------------------------------


def settle_chance(order: Settle) -> Fraction:
    faces = land.settle_faces(order)
    return _die().chance(lambda f: f in faces)


def town_chance(order: AreaOrder) -> Fraction:
    faces = land.town_faces(order.area)
    return _die().chance(lambda f: f in faces)


def factory_chance(order: Factory) -> Fraction:
    return _die().chance(lambda f: factory_succeeds(f, order.bribe))


def settle(order: Settle) -> str:
    ok = settle_chance(order)
    return f"a settlement {percent(ok)}; the settlers fail to take root (and stay) {percent(1 - ok)}"


def town(order: AreaOrder) -> str:
    ok = town_chance(order)
    return f"a town {percent(ok)}; it fails (the 2 florins are spent) {percent(1 - ok)}"


def factory(order: Factory) -> str:
    ok = factory_chance(order)
    return f"a trading factory {percent(ok)}; it fails {percent(1 - ok)}"


def mission_ratings() -> Dist[int]:
    table = mission_levels()
    return _table_faces(table.count, table.sides).map(lambda f: int(table.lookup(f).data["rating"]))


def mission_dist(state: TNState, order: AreaOrder) -> Dist[tuple[int, int, bool, bool]]:
    """(rating, natives converted, a unit lost, the mission destroyed) after the mission's first D.3."""
    natives = state.areas[order.area].natives

    def conversion(rating: int) -> Dist[tuple[int, bool, bool]]:
        """(natives converted, a unit lost, the mission destroyed)."""
        rct = conversion_table(rating)

        def after(face: int) -> Dist[tuple[int, bool, bool]]:
            cell = Conversion.read(rct.lookup(face).result)
            converted = min(cell.converted, natives)
            if not cell.reroll:
                return Dist.certain((converted, cell.lose_unit, cell.mission_lost))
            gone = conversion_reroll_faces()
            return _die().map(lambda g: (converted, cell.lose_unit, cell.mission_lost or g in gone))
        return _table_faces(rct.count, rct.sides).bind(after)

    return mission_ratings().bind(lambda r: (conversion(r) if natives > 0 else Dist.certain((0, False, False)))
                                  .map(lambda o, r=r: (r, *o)))  # type: ignore[misc]


def mission(state: TNState, order: AreaOrder) -> str:
    """Mission Levels, then the conversion roll every mission makes in the same step (D.3)."""
    shown = _listing(mission_ratings().map(str), in_order=True)
    if geography().places[order.area].kind == "indies":
        return f"rating {shown}; missions in the Indies convert no one"
    natives = state.areas[order.area].natives
    outcome = mission_dist(state, order).map(lambda o: o[1:])
    mean = outcome.mean(lambda o: o[0])
    parts = [f"rating {shown}"]
    if natives <= 0:
        parts.append("no natives left to convert")
    else:
        parts.append(f"this turn converts {_number(mean)} natives on average "
                     f"(none {percent(outcome.chance(lambda o: o[0] == 0))})")
        parts.append(f"the mission is destroyed {percent(outcome.chance(lambda o: o[2]))}")
        lost = outcome.chance(lambda o: o[1])
        if lost:
            parts.append(f"a unit or settlement lost {percent(lost)}")
    return "; ".join(parts)


def _number(x: Fraction) -> str:
    return f"{float(x):.2f}".rstrip("0").rstrip(".")


def ally(state: TNState, seat: str, order: Ally, *, brief: bool) -> str:
    """The leader's NAT row, +1 for each 2 florins of gifts; hostility starts a war the natives open."""
    dist = ally_dist(state, order)
    if dist is None:
        return NO_DICE
    text = _listing(dist)
    if dist["hostile: they make war"]:
        battle = Battle(0, order.area, NATIVES, seat)
        war = _battle_summary(state, battle, seat, {}, brief=True)
        text += f" (in that war: {war})"
    return text


def ally_dist(state: TNState, order: Ally) -> Dist[str] | None:
    leader = state.leader(order.leader)
    if leader is None:
        return None
    table = alliance_table(leader.kind)
    mod = bribe_modifier(order.bribe)
    room = unallied(state, order.area)

    def result(face: int) -> str:
        cell = table.lookup(face + mod).result
        if cell == "•":
            return "hostile: they make war"
        n = min(number(cell) or 0, room)
        return "refused" if not n else f"{count_of(n, 'natives')} allied"

    return _table_faces(table.count, table.sides).map(result)


# -- battles -------------------------------------------------------------------------------------------------------


def _tactic_choices(state: TNState, battle: Battle, seat: str, chosen: str | None) -> list[str]:
    """The tactics to count for the asking seat: its chosen one, or each it may choose (one per round, held)."""
    if chosen:
        return [chosen]
    if combat.best_rating(state, seat, battle.area) is None:
        return ["none"]
    return combat.legal_tactics(battle, seat)


def _assumption(state: TNState, battle: Battle, seat: str) -> str:
    other = battle.defender if seat == battle.attacker else battle.attacker
    if other == NATIVES:
        if combat.civilisation(state, battle):
            return "the natives' tactic each round from the Native Tactics table"
        return ""
    if combat.best_rating(state, other, battle.area) is None:
        return ""
    return f"assuming {other} chooses no tactic (its choice is its secret)"


def _summary(dist: Dist[Ending], seat: str, start: Fighter) -> tuple[str, str]:
    """`win 71.2% · lose 20.3% · …`, and the seat's expected losses."""
    def mine(e: Ending) -> Fighter:
        return e.attacker if e.attacker.name == seat else e.defender

    def theirs(e: Ending) -> Fighter:
        return e.defender if e.attacker.name == seat else e.attacker

    outcomes = {
        "win": dist.chance(lambda e: _won(e, seat)),
        "lose": dist.chance(lambda e: mine(e).value <= 0 and theirs(e).value > 0),
        "both destroyed": dist.chance(lambda e: mine(e).value <= 0 and theirs(e).value <= 0),
        "withdrawal": dist.chance(lambda e: e.withdrawal),
        "no victor": dist.chance(lambda e: not e.withdrawal and mine(e).value > 0 and theirs(e).value > 0),
    }
    shown = " · ".join(f"{k} {percent(p)}" for k, p in outcomes.items() if p or k in ("win", "lose"))
    kinds = list(dict.fromkeys(k for k, _ in start.pieces))
    losses = []
    for kind in kinds:
        mean = dist.mean(lambda e, k=kind: start.count(k) - mine(e).count(k))  # type: ignore[misc]
        if mean:
            losses.append(f"{_number(mean)} of {count_of(start.count(kind), kind)}")
    return shown, (f"you lose on average {', '.join(losses)}" if losses else "")


def _battle_summary(state: TNState, battle: Battle, seat: str, tactics: dict[str, str], *, brief: bool,
                    chosen: str | None = None, advantage: str | None = None) -> str:
    choices = _tactic_choices(state, battle, seat, chosen)
    start = fighter(state, battle, seat)
    lines = []
    for tactic in choices:
        try:
            dist = battle_odds(state, battle, {**tactics, seat: tactic}, advantage,
                               budget=BRIEF_ROUNDS if brief else None)
        except TooLarge:
            return "too many ways this battle can go to count here: ask `/odds` for it"
        shown, losses = _summary(dist, seat, start)
        if brief and len(choices) > 1:
            lines.append(f"{tactic} {percent(dist.chance(lambda e: _won(e, seat)))}")
        elif brief:
            lines.append(shown)
        else:
            head = f"tactic {tactic}: " if len(choices) > 1 else ""
            lines.append(head + shown + (f"; {losses}" if losses else ""))
    if brief:
        return f"win by tactic: {' · '.join(lines)} (`/odds` for more)" if len(choices) > 1 else lines[0]
    notes = [*(["each tactic held every round"] if len(choices) > 1 else []), _assumption(state, battle, seat)]
    shown_notes = "; ".join(n for n in notes if n)
    if len(lines) == 1 and not shown_notes:
        return lines[0]
    return "\n".join(f"  {line}" for line in lines) + (f"\n  ({shown_notes})" if shown_notes else "")


def _won(e: Ending, seat: str) -> bool:
    mine, theirs = (e.attacker, e.defender) if e.attacker.name == seat else (e.defender, e.attacker)
    return mine.value > 0 and theirs.value <= 0


def attack(state: TNState, seat: str, order: Attack, *, brief: bool, standing: dict[str, str]) -> str:
    battle = Battle(0, order.area, seat, order.target, order.city)
    return _battle_summary(state, battle, seat, {}, brief=brief, chosen=order.tactic or standing.get(order.area))


def sea_attack(state: TNState, seat: str, order: SeaAttack, *, brief: bool) -> str:
    """C.2 `attack <power> at sea in <place>`: the squadrons as `naval._apply_sea_attack` forms them."""
    mine, theirs = state.peek(order.area, seat), state.peek(order.area, order.target)
    if not mine or not theirs or not theirs.ships:
        return f"{NO_DICE} while {order.target} has no ships there"
    ours = Squadron(seat, dict(mine.ships), naval.soldiers_aboard(state, order.area, seat),
                    combat.best_rating(state, seat, order.area))
    # which of their soldiers sailed in this turn is in their voyages' cargo, their secret: every soldier of theirs
    # there that their ships could carry is counted aboard (the most they can have), and the answer says so
    aboard = min(theirs.count("soldier"), naval.soldier_room(state, theirs.ships))
    them = Squadron(order.target, dict(theirs.ships), aboard, combat.best_rating(state, order.target, order.area))
    try:
        dist = sea_odds(state, order.area, ours, them, budget=BRIEF_ROUNDS if brief else None)
    except TooLarge:
        return "too many ways this fight can go to count here: ask `/odds` for it"
    shown, losses = _summary(dist, seat, sea_fighter(ours))
    rounds = int(house()["combat"]["max_naval_rounds"])
    if brief:
        return shown
    note = (f"; counting {count_of(aboard, 'soldier')} of {order.target}'s aboard, the most it can have"
            if aboard else "")
    return shown + (f"; {losses}" if losses else "") + f" (a sea fight breaks off after {rounds} rounds{note})"


Aboard = tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...], tuple[str, ...], int, int]


def _aboard(voyage: Voyage) -> Aboard:
    """What still sails: ships, cargo, leaders, gold and goods markers (a state of the attrition chain)."""
    return (tuple(sorted((k, n) for k, n in voyage.ships.items() if n)),
            tuple(sorted((k, n) for k, n in voyage.cargo.items() if n)), tuple(voyage.leaders), voyage.gold,
            voyage.goods)


def attrition_dist(state: TNState, voyage: Voyage) -> Dist[Aboard]:
    """What is left of the voyage after its Naval Attrition roll. Each result is applied by the real
    `naval.apply_attrition` (losses, then the cargo the remaining ships cannot hold), on a scratch copy of the
    place; a † result rolls again in the same column, and a † that can take nothing more only repeats (its chance
    is summed as a series)."""
    table = attrition_table(voyage.column)
    faces = _table_faces(table.count, table.sides).map(lambda f: Attrition.read(table.lookup(f).result))

    def step(now: Aboard, result: Attrition) -> Aboard:
        ships, cargo, leaders, gold, goods = now
        scratch = copy.copy(state)
        force = Force(units=dict(cargo), ships=dict(ships), gold=gold,
                      goods=[Goods("Pepper", 1)] * goods)   # markers only counted: the commodity does not matter
        scratch.forces = {**state.forces, voyage.dest: {voyage.power: force}}
        scratch.leaders = [copy.copy(ld) for ld in state.leaders if ld.name in leaders]
        for ld in scratch.leaders:
            ld.place = voyage.dest
        trial = Voyage(0, voyage.power, voyage.step, voyage.origin, voyage.dest, voyage.bounds, voyage.column,
                       dict(ships), dict(cargo), list(leaders), gold, goods)
        naval.apply_attrition(Ctx(scratch, Dice(b"odds", "odds"), []), trial, result)
        return _aboard(trial)

    @functools.cache
    def after(now: Aboard) -> Dist[Aboard]:
        stay = ZERO_F
        parts: list[tuple[Fraction, Dist[Aboard]]] = []
        for result, p in faces.items():
            nxt = step(now, result)
            if not result.reroll:
                parts.append((p, Dist.certain(nxt)))
            elif nxt == now:
                stay += p
            else:
                parts.append((p, after(nxt)))
        return Dist.mix((p / (1 - stay), d) for p, d in parts)

    return after(_aboard(voyage))


def _lost(before: Aboard, after: Aboard) -> str:
    """`1 ship sunk, 2 soldiers lost, a settler depleted`: what the voyage lost, in words."""
    said = []
    sunk = sum(n for _, n in before[0]) - sum(n for _, n in after[0])
    if sunk:
        said.append(f"{count_of(sunk, 'ship')} sunk")
    was, now = dict(before[1]), dict(after[1])
    depleted = now.get("depleted", 0) - was.get("depleted", 0)
    for unit in CARGO_ORDER:
        gone = was.get(unit, 0) - now.get(unit, 0) + (depleted if unit == "depleted" else 0)
        if unit == "settler":
            gone -= depleted
        if gone > 0:
            said.append(f"{count_of(gone, UNIT_NAMES.get(unit, unit))} lost")
    if depleted > 0:
        said.append(f"{count_of(depleted, 'settler')} depleted")
    if len(after[2]) < len(before[2]):
        said.append(f"{count_of(len(before[2]) - len(after[2]), 'leader')} lost")
    if after[3] < before[3]:
        said.append(f"{before[3] - after[3]} gold lost")
    if after[4] < before[4]:
        said.append(f"{count_of(before[4] - after[4], 'goods marker')} lost")
    return ", ".join(said) or "nothing"


def sail(state: TNState, seat: str, order: Sail, step: str) -> str:
    bounds = naval.voyage_bounds(state, seat, order, step)
    if not bounds:
        return NO_DICE
    column = naval.voyage_column(state, seat, order, bounds)
    voyage = Voyage(0, seat, step, order.origin, order.dest, bounds, column, dict(order.ships),
                    dict(order.cargo.units), list(order.leaders), order.cargo.gold,
                    sum(order.cargo.goods.values()))
    start = _aboard(voyage)
    dist = attrition_dist(state, voyage).map(lambda left: _lost(start, left))
    label = attrition_columns()[column]
    return f"attrition ({label} bounds column): {_listing(dist)} (if no one intercepts it)"


# -- the dispatch --------------------------------------------------------------------------------------------------

def order_odds(state: TNState, seat: str, order: Order, *, brief: bool,
               standing: dict[str, str] | None = None, step: str = "") -> str | None:
    """The odds of one order on this (trial) state, or None when the order rolls no dice."""
    if isinstance(order, Sail):
        return sail(state, seat, order, step)
    if isinstance(order, Settle):
        return settle(order)
    if isinstance(order, Attack):
        return attack(state, seat, order, brief=brief, standing=standing or {})
    if isinstance(order, SeaAttack):
        return sea_attack(state, seat, order, brief=brief)
    if isinstance(order, Ally):
        return ally(state, seat, order, brief=brief)
    if isinstance(order, Factory):
        return factory(order)
    if isinstance(order, AreaOrder) and order.kind == "town":
        return town(order)
    if isinstance(order, AreaOrder) and order.kind == "mission":
        return mission(state, order)
    return None


def odds_answer(checks: list[OrderCheck]) -> str:
    """`/odds`: each line as understood, then what may happen (or why it was refused, or that it rolls nothing)."""
    out = []
    for check in checks:
        if not check.accepted:
            out.append(f"❌ `{check.text}` — {check.message}")
            continue
        said = check.message.split("🎲 ", 1)
        warning = said[0].rstrip("; ")
        head = f"**{check.canonical}**" + (f" (⚠️ {warning})" if warning else "")
        out.append(f"{head}:\n{said[1]}" if len(said) > 1 and "\n" in said[1] else
                   f"{head}: {said[1] if len(said) > 1 else NO_DICE}")
    return "\n".join(out)


def battle_now(state: TNState, seat: str, text: str) -> str | None:
    """`/odds tactic charge` (or `/odds battle`) while a battle of the seat's waits for tactics: the rest of that
    battle from where it stands, by the tactic the seat holds from this round on."""
    words = text.split()
    if not state.battles or not words or words[0] not in ("tactic", "battle") or len(words) > 2:
        return None
    battle = state.battles[0]
    if seat not in (battle.attacker, battle.defender):
        return None
    if words[0] == "battle" and len(words) > 1:
        return None
    chosen = tactic_word(words[1]) if len(words) == 2 else None
    if chosen and chosen not in combat.legal_tactics(battle, seat):
        raise OrderError(f"tactics here: {', '.join(combat.legal_tactics(battle, seat))}")
    where = battle.area + (f" at {battle.city}" if battle.city else "")
    said = _battle_summary(state, battle, seat, {}, brief=False, chosen=chosen, advantage=battle.advantage)
    head = f"**the battle in {where}, from round {battle.round}**"
    return f"{head}:\n{said}" if "\n" in said else f"{head}: {said}"
