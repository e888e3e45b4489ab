"""Exact odds of Terra Nova orders: against every face of the real procedure's dice, against a seeded Monte-Carlo
run of the real procedure, and blind to what the asking power may not know."""

from __future__ import annotations

import copy
import math
from fractions import Fraction

import pytest

from engine.core import Dice
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.battle_odds import Chain, Ending, battle_odds, fighter
from engine.rulesets.terra_nova.context import ORDER_RULES
from engine.rulesets.terra_nova.odds import (
    ally_dist,
    factory_chance,
    mission_dist,
    settle_chance,
    town_chance,
)
from engine.rulesets.terra_nova.orders import Ally, AreaOrder, Factory, Settle
from engine.rulesets.terra_nova.state import Battle, Leader

from .conftest import SEED, ctx_for, new_game

Z = 4.5   # standard errors a sampled frequency may stray from the exact chance


def agrees(hits: int, n: int, p: Fraction) -> bool:
    """A sampled frequency within Z standard errors of the exact chance (a chance of 0 or 1 must be met exactly)."""
    if p in (0, 1):
        return hits == n * p
    return abs(hits / n - float(p)) <= Z * math.sqrt(float(p * (1 - p)) / n)


def board(area="Cuba", soldiers=3, settlers=0, natives=3, rating=None, kind="Conquistador", **options):
    state = new_game(**options)
    state.leaders = []
    state.force(area, "Spain").add("soldier", soldiers)
    if settlers:
        state.force(area, "Spain").add("settler", settlers)
    state.areas[area].natives = natives
    if rating is not None:
        state.leaders.append(Leader("Cortés", "Spanish", kind, rating, 30, "Spain", area))
    return state


def fresh(state, area):
    """A copy of the state for one order in `area` (a whole deep copy costs ms: what the order touches is copied)."""
    trial = copy.copy(state)
    trial.forces = {k: copy.deepcopy(v) if k == area else v for k, v in state.forces.items()}
    trial.areas = {**state.areas, area: copy.deepcopy(state.areas[area])}
    trial.powers, trial.leaders, trial.battles = (copy.deepcopy(x) for x in (state.powers, state.leaders, []))
    return trial


def run(state, kind, order, faces=None, scope="x"):
    """The order carried out by its real procedure, with the faces given (else seeded dice under `scope`)."""
    trial = fresh(state, order.area)
    validate, apply = ORDER_RULES[kind]
    validate(trial, "Spain", order, "D3")
    ctx = ctx_for(trial, "D3", faces)
    if faces is None:
        ctx.dice = Dice(SEED, scope)
    apply(trial, "Spain", order, "D3", ctx)
    return trial, ctx


# -- single rolls: every face, and a sample ------------------------------------------------------------------------


@pytest.mark.parametrize(("area", "depleted"), [("Cuba", False), ("Cuba", True), ("Mid West", False)])
def test_settlement_odds_are_the_faces_of_the_settlement_roll(area, depleted):
    state = board(area=area, soldiers=0)
    state.force(area, "Spain").add("depleted" if depleted else "settler", 1)
    order = Settle("settle", area, depleted)
    founded = Fraction(0)
    for face in range(1, 7):
        after, _ = run(state, "settle", order, {"settle": [face]})
        founded += Fraction(1, 6) * after.holding(area, "Spain").settlements
    assert settle_chance(order) == founded
    n = 3000
    hits = sum(run(state, "settle", order, scope=f"mc{i}")[0].holding(area, "Spain").settlements for i in range(n))
    assert agrees(hits, n, settle_chance(order))


def test_town_and_factory_odds_are_the_faces_of_their_rolls():
    state = board(east_indies="yes")
    state.turn = 9
    state.holding("Cuba", "Spain").settlements = 1
    state.powers["Spain"].treasury = 50
    order = AreaOrder("town", "Cuba")
    towns = sum(Fraction(1, 6) * run(state, "town", order, {"town": [f]})[0].holding("Cuba", "Spain").towns
                for f in range(1, 7))
    assert town_chance(order) == towns
    state.force("Malacca", "Spain").add_ships("carrack", 1)
    state.leaders.append(Leader("Magellan", "Spanish", "Explorer", 1, 30, "Spain", "Malacca"))
    for bribe in (0, 2, 5, 9):
        order = Factory("factory", "Malacca", bribe)
        made = sum(Fraction(1, 6) * run(state, "factory", order, {"factory": [f]})[0].holding("Malacca", "Spain")
                   .factories for f in range(1, 7))
        assert factory_chance(order) == made
    n = 3000
    order = Factory("factory", "Malacca", 2)
    hits = sum(run(state, "factory", order, scope=f"mc{i}")[0].holding("Malacca", "Spain").factories
               for i in range(n))
    assert agrees(hits, n, factory_chance(order))


@pytest.mark.parametrize(("kind", "bribe"), [("Conquistador", 0), ("Conquistador", 4), ("Coureur des Bois", 2),
                                             ("Paulista", 0), ("Pioneer", 6)])
def test_native_alliance_odds_are_the_faces_of_the_alliance_roll(kind, bribe):
    state = board(soldiers=1, natives=3, rating=1, kind=kind)
    state.powers["Spain"].treasury = 20
    order = Ally("ally", "Cuba", "Cortés", bribe)

    def outcome(trial) -> str:
        if trial.battles:
            return "hostile: they make war"
        n = trial.areas["Cuba"].allies.get("Spain", 0)
        return "refused" if not n else combat.count_of(n, "natives") + " allied"

    dist = ally_dist(state, order)
    assert dist is not None
    for result, p in dist.items():
        assert p == sum(Fraction(1, 6) for f in range(1, 7)
                        if outcome(run(state, "ally", order, {"alliance": [f]})[0]) == result)
    n = 2000
    counts: dict[str, int] = {}
    for i in range(n):
        got = outcome(run(state, "ally", order, scope=f"mc{i}")[0])
        counts[got] = counts.get(got, 0) + 1
    assert set(counts) <= set(dist)
    assert all(agrees(counts.get(r, 0), n, p) for r, p in dist.items())


def test_mission_odds_are_the_faces_of_the_mission_and_conversion_rolls():
    """Mission Levels, then the D.3 conversion (with its re-roll), through the real `missions` procedure."""
    from engine.rulesets.terra_nova.land import missions

    state = board(soldiers=1, natives=3)
    state.force("Cuba", "Spain").add("mission", 1)
    order = AreaOrder("mission", "Cuba")
    dist = mission_dist(state, order)

    def outcome(faces, scope="x"):
        trial = fresh(state, "Cuba")
        ctx = ctx_for(trial, "D3", faces, orders={"Spain": ["mission Cuba"]})
        if faces is None:
            ctx.dice = Dice(SEED, scope)
        missions(ctx)
        holding = trial.holding("Cuba", "Spain")
        rating = next(int(e.text.split("rating ")[1][0]) for e in ctx.events if "(rating" in e.text)
        converted = 3 - trial.areas["Cuba"].natives
        lost = trial.force("Cuba", "Spain").count("soldier") == 0
        return rating, converted, lost, not holding.missions

    exact: dict[tuple, Fraction] = {}
    for level in range(1, 7):
        for rct in range(1, 7):
            for again in range(1, 7):
                got = outcome({"mission": [level], "conversion/": [rct], "conversion-again": [again]})
                exact[got] = exact.get(got, Fraction(0)) + Fraction(1, 216)
    assert {k: v for k, v in exact.items() if v} == dict(dist.items())
    n = 2000
    counts: dict[tuple, int] = {}
    for i in range(n):
        got = outcome(None, f"mc{i}")
        counts[got] = counts.get(got, 0) + 1
    assert all(agrees(counts.get(k, 0), n, p) for k, p in dist.items())


# -- battles -------------------------------------------------------------------------------------------------------


def summary(ending: Ending) -> str:
    a, d = ending.attacker.value > 0, ending.defender.value > 0
    return "withdrawal" if ending.withdrawal else {(True, False): "won", (False, True): "lost"}.get((a, d), "both")


def real_battle(state, area, attacker, defender, tactics, scope, city=None):
    """The battle fought by the real procedure (combat.drive), with seeded dice: how it ended."""
    trial = copy.deepcopy(state)
    ctx = ctx_for(trial, "D5")
    ctx.dice = Dice(SEED, scope)
    combat.start(ctx, area, attacker, defender, city=city, standing=dict(tactics))
    assert combat.drive(ctx)
    battle = Battle(0, area, attacker, defender, city)
    alive_a = combat.strength(trial, battle, attacker) > 0
    alive_d = combat.strength(trial, battle, defender) > 0
    withdrew = any("withdraws" in e.text for e in ctx.events) or ("withdrawal" in tactics.values()
                                                                   and alive_a and alive_d)
    if withdrew and alive_a and alive_d:
        return "withdrawal"
    return {(True, False): "won", (False, True): "lost"}.get((alive_a, alive_d), "both")


BATTLES = [
    # (label, area, soldiers, settlers, natives, leader rating, Spain's tactic)
    ("a small raid", "Cuba", 2, 0, 3, None, None),
    ("settlers in the line, a charge", "Cuba", 3, 2, 3, 1, "charge"),
    ("against a civilisation's tactics", "Aztec Empire", 4, 0, 4, 3, "restraint"),
]


@pytest.mark.parametrize(("label", "area", "soldiers", "settlers", "natives", "rating", "tactic"), BATTLES,
                         ids=[b[0] for b in BATTLES])
def test_battle_odds_agree_with_the_battle_fought_many_times(label, area, soldiers, settlers, natives, rating,
                                                             tactic):
    state = board(area=area, soldiers=soldiers, settlers=settlers, natives=natives, rating=rating)
    battle = Battle(0, area, "Spain", "natives")
    tactics = {"Spain": tactic} if tactic else {}
    dist = battle_odds(state, battle, tactics)
    assert dist.total() == 1
    exact: dict[str, Fraction] = {}
    for ending, p in dist.items():
        exact[summary(ending)] = exact.get(summary(ending), Fraction(0)) + p
    n = 1200
    counts: dict[str, int] = {}
    for i in range(n):
        got = real_battle(state, area, "Spain", "natives", tactics, f"mc{label}{i}")
        counts[got] = counts.get(got, 0) + 1
    assert set(counts) <= set(exact), (counts, exact)
    assert all(agrees(counts.get(k, 0), n, p) for k, p in exact.items()), (counts, exact)


def test_one_round_of_the_chain_is_the_real_round_over_every_face():
    """Every face of both combat dice (up to one explosion each) and both loss dice, through the real round:
    the chain's chance of each outcome lies between the enumerated sum and that sum plus what was not enumerated."""
    state = board(soldiers=2, settlers=1, natives=2)
    battle = Battle(0, "Cuba", "Spain", "natives")
    chain = Chain(state, battle, {})
    a, b = fighter(state, battle, "Spain"), fighter(state, battle, "natives")
    exact = {(na.pieces, nb.natives, w): p for (na, nb, w, _), p in chain.round(a, b, None).items()}
    sequences = [([f], Fraction(1, 6)) for f in range(1, 6)] + [([6, f], Fraction(1, 36)) for f in range(1, 6)]
    seen: dict[tuple, Fraction] = {}
    for sa, pa in sequences:
        for sb, pb in sequences:
            for la in range(1, 7):
                for lb in range(1, 7):
                    trial = fresh(state, "Cuba")
                    ctx = ctx_for(trial, "D5", {"combat/Cuba/Spain": sa, "combat/Cuba/natives": sb,
                                                "losses/Cuba/Spain": [la], "losses/Cuba/natives": [lb]})
                    fight = combat.start(ctx, "Cuba", "Spain", "natives")
                    combat._round(ctx, fight)
                    after = (fighter(trial, battle, "Spain").pieces, fighter(trial, battle, "natives").natives,
                             fight.advantage)
                    seen[after] = seen.get(after, Fraction(0)) + pa * pb / 36
    missing = 1 - sum(seen.values())
    assert 0 < missing < Fraction(1, 17)
    for key, p in seen.items():
        assert p <= exact.get(key, Fraction(0)) <= p + missing, key
    assert set(exact) >= set(seen)


# -- what the asking power may know --------------------------------------------------------------------------------


def test_odds_never_read_another_powers_secrets(tn):
    """Portugal's treasury, standing tactic and orders, and its pool in Europe, change nothing in Spain's odds."""
    state = board(soldiers=3, settlers=1, natives=2, rating=1)
    state.force("Cuba", "Portugal").add("soldier", 2)
    state.leaders.append(Leader("Cabral", "Portuguese", "Conquistador", 1, 30, "Portugal", "Cuba"))
    from .conftest import at_step
    at_step(state, "D5")
    ask = "attack Portugal in Cuba\nsettle Cuba\nally Cuba leader Cortés"
    before = tn.odds(state, "Spain", ask)
    assert "assuming Portugal chooses no tactic" in before
    secret = copy.deepcopy(state)
    secret.powers["Portugal"].treasury = 999
    secret.force("Europe", "Portugal").add("soldier", 9)
    secret.force("Cuba", "Portugal").gold = 300
    battle = combat.start(ctx_for(secret, "D5"), "Cuba", "Spain", "Portugal", standing={"Portugal": "massacre"})
    battle.tactics["Portugal"] = "charge"
    assert tn.odds(secret, "Spain", ask) == before
    public = copy.deepcopy(state)
    public.force("Cuba", "Portugal").add("soldier", 1)   # what everyone sees on the map does count
    assert tn.odds(public, "Spain", ask) != before


def test_sea_fight_odds_agree_with_the_fight_fought_many_times():
    """`attack <power> at sea`: the real `combat.sea_fight`, seeded, against the exact chain (10 rounds at most)."""
    from engine.rulesets.terra_nova.battle_odds import sea_odds
    from engine.rulesets.terra_nova.combat import Squadron

    state = board(soldiers=0, natives=0)

    def squadrons():
        return (Squadron("Spain", {"carrack": 2, "galleon": 1}, 1, 1), Squadron("England", {"war-carrack": 2}, 0))

    def outcome(a_alive: bool, b_alive: bool) -> str:
        return {(True, False): "won", (False, True): "lost", (True, True): "no victor"}.get((a_alive, b_alive), "both")

    exact: dict[str, Fraction] = {}
    for ending, p in sea_odds(state, "Cuba", *squadrons()).items():
        key = outcome(ending.attacker.value > 0, ending.defender.value > 0)
        exact[key] = exact.get(key, Fraction(0)) + p
    assert sum(exact.values()) == 1
    n = 3000
    counts: dict[str, int] = {}
    for i in range(n):
        a, b = squadrons()
        ctx = ctx_for(state, "C2")
        ctx.dice = Dice(SEED, f"sea{i}")
        combat.sea_fight(ctx, "Cuba", a, b)
        key = outcome(a.value > 0, b.value > 0)
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) <= set(exact), (counts, exact)
    assert all(agrees(counts.get(k, 0), n, p) for k, p in exact.items()), (counts, exact)


def test_attrition_odds_are_the_real_attrition_roll_over_every_face_and_agree_with_a_sample():
    """The 10+ column, whose † results roll again: every face sequence up to four rolls through the real
    `roll_attrition`, and a seeded sample of it."""
    from engine.rulesets.terra_nova.naval import roll_attrition
    from engine.rulesets.terra_nova.odds import _aboard, attrition_dist
    from engine.rulesets.terra_nova.reference import attrition_column
    from engine.rulesets.terra_nova.state import Voyage

    column = attrition_column(12)
    state = board(soldiers=4, settlers=2, natives=0, rating=1)
    state.force("Cuba", "Spain").add_ships("carrack", 4)

    def voyage():
        return Voyage(1, "Spain", "C1", "Europe", "Cuba", 12, column, {"carrack": 4}, {"soldier": 4, "settler": 2},
                      ["Cortés"])

    exact = attrition_dist(state, voyage())

    def outcome(faces, scope="x"):
        trial = fresh(state, "Cuba")
        sailing = voyage()
        ctx = ctx_for(trial, "C4", {"attrition/": list(faces)} if faces is not None else None)
        if faces is None:
            ctx.dice = Dice(SEED, scope)
        roll_attrition(ctx, sailing)
        return _aboard(sailing)

    seen: dict[tuple, Fraction] = {}
    rolls = {f: attrition_read(column, f) for f in range(1, 7)}
    stack = [((), Fraction(1))]
    while stack:
        faces, p = stack.pop()
        if faces and not rolls[faces[-1]].reroll:
            got = outcome(faces)
            seen[got] = seen.get(got, Fraction(0)) + p
        elif len(faces) < 4:
            stack += [((*faces, f), p / 6) for f in range(1, 7)]
    missing = 1 - sum(seen.values())
    assert 0 < missing < Fraction(1, 100)
    for key, p in seen.items():
        assert p <= exact[key] <= p + missing, key
    n = 3000
    counts: dict[tuple, int] = {}
    for i in range(n):
        got = outcome(None, f"mc{i}")
        counts[got] = counts.get(got, 0) + 1
    assert set(counts) <= set(exact), (counts, dict(exact.items()))
    assert all(agrees(counts.get(k, 0), n, p) for k, p in exact.items())


def attrition_read(column, face):
    from engine.rulesets.terra_nova.reference import Attrition, attrition_table
    return Attrition.read(attrition_table(column).lookup(face).result)


def test_sea_odds_never_read_the_other_powers_cargo(tn):
    """Which of England's soldiers sailed in this turn (its voyages' cargo) is England's secret."""
    from engine.rulesets.terra_nova.state import Voyage

    from .conftest import at_step

    state = board(soldiers=0, natives=0)
    at_step(state, "C2")
    state.force("Cuba", "Spain").add_ships("carrack", 3)
    state.force("Cuba", "England").add_ships("carrack", 2)
    state.force("Cuba", "England").add("soldier", 2)
    before = tn.odds(state, "Spain", "attack England at sea in Cuba")
    assert "counting 2 soldiers of England's aboard" in before
    sailed = copy.deepcopy(state)
    sailed.voyages.append(Voyage(9, "England", "C1", "Europe", "Cuba", 3, 1, {"carrack": 2}, {"soldier": 2}, []))
    assert tn.odds(sailed, "Spain", "attack England at sea in Cuba") == before
