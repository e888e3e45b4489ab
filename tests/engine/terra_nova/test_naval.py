"""C/F. Naval actions: bounds and their cost, cargo, the Guinea route, hemispheric moves, interception,
sea fights and the Naval Attrition Table."""

import pytest

from engine.core import Verdict
from engine.rulesets.terra_nova.context import PROCEDURES

from .conftest import ScriptedDice, at_step, ctx_for, new_game


def fleet_state(step="C1", **options):
    state = at_step(new_game(**options), step)
    state.forces.pop("Europe", None)
    state.leaders = []
    europe = state.force("Europe", "Spain")
    europe.ships.update({"carrack": 2, "caravel": 1, "urca": 1})
    europe.units.update({"soldier": 4, "settler": 2, "cannon": 1})
    state.powers["Spain"].treasury = 200
    return state


def sail(tn, state, line, seat="Spain", script=None):
    checks = tn.check(state, seat, line)
    assert checks[0].accepted, checks[0].message
    return tn.resolve(state, {seat: [checks[0].canonical]}, ScriptedDice(script)).state


def verdict(tn, state, line, seat="Spain"):
    c = tn.check(state, seat, line)[0]
    return c.verdict, c.message


def test_each_bound_costs_two_florins_a_voyage(tn):
    state = sail(tn, fleet_state(), "sail 2 carrack from Europe to Aracua carrying 2 soldier, 1 cannon")
    assert state.powers["Spain"].treasury == 200 - 7 * 2
    assert state.forces["Aracua"]["Spain"].units == {"soldier": 2, "cannon": 1}


def test_or_two_florins_a_bound_for_every_ship_when_chosen(tn):
    state = sail(tn, fleet_state(bounds_charge="ship"), "sail 2 carrack, 1 caravel from Europe to Cuba")
    assert state.powers["Spain"].treasury == 200 - 3 * 2 * 3


def test_the_guinea_route_costs_more_bounds_and_buys_slaves(tn):
    state = fleet_state()
    state.modifiers["slavery"] = 2
    state = sail(tn, state, "sail 2 carrack from Europe to Cuba via guinea carrying 4 slave")
    assert state.powers["Spain"].treasury == 200 - 5 * 2 - 4 * (4 + 2)
    assert state.forces["Cuba"]["Spain"].units == {"slave": 4}


def test_slaves_only_come_by_the_guinea_route_on_the_first_crossing(tn):
    assert "via Guinea in C.1" in verdict(tn, fleet_state(), "sail 2 carrack from Europe to Cuba carrying 2 slave")[1]
    late = verdict(tn, fleet_state("F1"), "sail 2 carrack from Europe to Cuba via guinea carrying 2 slave")
    assert "via Guinea in C.1" in late[1]


@pytest.mark.parametrize(("line", "message"), [
    ("sail 2 carrack from Europe to Aztec Empire", "has two coasts"),
    ("sail 2 carrack from Europe to Mid West", "lies inland"),
    ("sail 1 urca from Europe to Cuba", "only makes hemispheric moves"),
    ("sail 1 caravel from Europe to Cuba carrying 1 settler", "needs 3 cargo points; the ships carry 1"),
    ("sail 3 carrack from Europe to Cuba", "has 2 carrack free to sail"),
    ("sail 1 caravel from Europe to Cuba carrying 5 soldier", "has 4 soldier in Europe"),
    ("sail 1 caravel from Cuba to Hispaniola", "sail it in C.2 Hemispheric Movement"),
])
def test_voyages_the_rules_refuse(tn, line, message):
    v, text = verdict(tn, fleet_state(), line)
    assert v is Verdict.REJECTED and message in text


def test_cargo_points_gold_at_half_a_point_per_25_florins(tn):
    state = fleet_state()
    state.force("Europe", "Spain").gold = 100
    assert verdict(tn, state, "sail 1 caravel from Europe to Cuba carrying 50 gold")[0] is Verdict.WARNING
    assert verdict(tn, state, "sail 1 caravel from Europe to Cuba carrying 75 gold")[0] is Verdict.REJECTED


def test_hemispheric_moves_follow_the_sea_lanes(tn):
    state = fleet_state("C2")
    state.forces["Cuba"] = {"Spain": state.forces.pop("Europe")["Spain"]}
    state = sail(tn, state, "sail 1 urca from Cuba to Aztec Empire/e carrying 1 settler")
    assert state.powers["Spain"].treasury == 200 - 2 * 2              # Cuba - Yucatan - Aztec Empire (east)
    assert state.voyages[-1].bounds == 2 and not state.voyages[-1].ocean


def test_ships_that_crossed_in_c1_make_no_hemispheric_move(tn):
    state = sail(tn, fleet_state(), "sail 2 carrack from Europe to Cuba", script={"attrition": [4]})
    state = at_step(state, "C2")
    v, text = verdict(tn, state, "sail 1 carrack from Cuba to Hispaniola")
    assert v is Verdict.REJECTED and "0 carrack free to sail" in text


def voyage_to(tn, bounds_place, cargo="2 soldier, 1 settler", ships="1 caravel, 2 carrack", leaders=()):
    state = fleet_state()
    from engine.rulesets.terra_nova.state import Leader
    for name, rating in leaders:
        state.leaders.append(Leader(name, "Spanish", "Conquistador", rating, 30, "Spain", "Europe"))
    line = f"sail {ships} from Europe to {bounds_place} carrying {cargo}"
    if leaders:
        line += " leaders " + ", ".join(n for n, _ in leaders)
    return sail(tn, state, line, script={"attrition": [6]})       # no attrition yet: rolled at C.4 below


def attrition(state, faces):
    ctx = ctx_for(state, "C4", {"attrition/": faces})
    PROCEDURES["attrition"](ctx)
    assert not ctx.dice.unused()
    return ctx


def test_attrition_s_takes_a_soldier_at_3_bounds(tn):
    state = voyage_to(tn, "Cuba")
    attrition(state, [2])
    assert state.forces["Cuba"]["Spain"].units == {"soldier": 1, "settler": 1}


def test_attrition_d_star_depletes_a_settler_and_kills_the_weakest_leader(tn):
    state = voyage_to(tn, "Cuba", leaders=[("Cortés", 3), ("Coronado", 0)])
    attrition(state, [1])
    assert state.forces["Cuba"]["Spain"].units == {"soldier": 2, "depleted": 1}
    assert [ld.name for ld in state.leaders] == ["Cortés"]


def test_attrition_ship_losses_take_the_cargo_that_no_longer_fits(tn):
    state = voyage_to(tn, "Rio del Plate")                           # 5 bounds: column 5; die 6 -> N
    attrition(state, [6])
    force = state.forces["Rio del Plate"]["Spain"]
    assert force.ships == {"carrack": 2}                             # the cheapest ship, the caravel, sank
    assert force.units == {"soldier": 2}                              # and the settler (3 points) with it


def test_a_dagger_rolls_again_in_the_same_column_and_losses_add_up(tn):
    state = fleet_state()
    state.force("Europe", "Spain").ships["carrack"] = 6
    state = sail(tn, state, "sail 6 carrack from Europe to California", script={"attrition": [6]})
    attrition(state, [6, 4])                                          # 10+: 3N† then N*
    assert state.forces["California"]["Spain"].ships == {"carrack": 2}


def test_the_north_west_passage_is_sailed_on_the_e_column(tn):
    state = sail(tn, fleet_state(), "sail 2 carrack from Europe to North West Passage",
                 script={"attrition": [6]})
    assert state.voyages[-1].column == 9
    attrition(state, [2])                                             # E: SN* -> a ship
    assert state.forces["North West Passage"]["Spain"].ships == {"carrack": 1}


def test_factory_owners_roll_half_the_bounds_between_the_indies_and_europe(tn):
    state = fleet_state(east_indies=True)
    state.forces["Malacca"] = {"Spain": state.forces.pop("Europe")["Spain"]}
    state.holding("Malacca", "Spain").factories = 1
    state = sail(tn, state, "sail 2 carrack from Malacca to Europe")
    assert (state.voyages[-1].bounds, state.voyages[-1].column) == (14, 5)   # rolled as 7 bounds
    assert state.powers["Spain"].treasury == 200 - 28                       # but paid in full
    state = at_step(state, "C1")
    state.force("Java", "Spain").ships["carrack"] = 1
    state = sail(tn, state, "sail 1 carrack from Java to Cuba")
    assert state.voyages[-1].column == 8                                    # Indies - New World: not halved


def test_interception_from_the_command_of_the_seas(tn):
    state = fleet_state()
    state.force("Command of the Seas", "England").ships["war-carrack"] = 3
    checks = tn.check(state, "England", "intercept Spain")
    assert checks[0].verdict is Verdict.ACCEPTED
    line = tn.check(state, "Spain", "sail 2 carrack from Europe to Cuba carrying 2 soldier")[0].canonical
    step = tn.resolve(state, {"Spain": [line], "England": ["intercept Spain"]}, ScriptedDice(
        {"sea-combat/Command of the Seas/England": [5] * 10, "sea-combat/Command of the Seas/Spain": [1] * 10,
         "sea-losses/Command of the Seas/Spain": [6] * 10, "sea-losses/Command of the Seas/England": [1] * 10}))
    state = step.state
    assert "Spain" not in state.forces.get("Cuba", {})                     # sunk on the way out
    assert state.forces["Command of the Seas"]["England"].ships == {"war-carrack": 3}
    assert any("intercepts Spain's voyage" in e.text for e in step.events)


def test_an_attack_at_sea_fights_the_ships_in_that_area(tn):
    state = at_step(new_game(), "C2")
    state.force("Cuba", "Spain").ships["war-carrack"] = 2
    state.force("Cuba", "England").ships["caravel"] = 1
    step = tn.resolve(state, {"Spain": ["attack England at sea in Cuba"]}, ScriptedDice(
        {"sea-combat/Cuba/Spain": [4], "sea-combat/Cuba/England": [2], "sea-losses/Cuba/England": [5],
         "sea-losses/Cuba/Spain": [1]}))
    assert "England" not in step.state.forces.get("Cuba", {})
    assert step.state.forces["Cuba"]["Spain"].ships == {"war-carrack": 2}


def _sea_round(tn, state, script, lines=("attack England at sea in Cuba",)):
    step = tn.resolve(state, {"Spain": list(lines)}, ScriptedDice(script))
    return step, next(e.text for e in step.events if "Sea fight at Cuba, round 1" in e.text)


def _even_dice():
    return {"sea-combat/Cuba/Spain": [3], "sea-combat/Cuba/England": [3], "sea-losses/Cuba/": [1, 1]}


def test_soldiers_who_sail_in_fight_at_sea_one_each_up_to_what_the_ships_carry(tn):
    state = at_step(new_game(), "C2")
    state.force("Atlantic Coast", "Spain").ships["carrack"] = 1     # combat 3, carries 2 soldiers
    state.force("Atlantic Coast", "Spain").add("soldier", 4)
    state.force("Cuba", "Spain").add("soldier", 3)                 # ashore already: they stay ashore
    state.force("Cuba", "England").ships["caravel"] = 4            # combat 4
    sail = "sail 1 carrack from Atlantic Coast to Cuba carrying 2 soldier"
    # Spain 3 + 2 soldiers = 5 against 4: larger force +1 shows the soldiers aboard counted, and only them.
    _, text = _sea_round(tn, state, _even_dice(), (sail, "attack England at sea in Cuba"))
    assert "Spain 4 vs England 3" in text


def test_soldiers_ashore_do_not_fight_at_sea_unless_the_group_counts_them_all(tn):
    for option, expect in (("aboard", "Spain 3 vs England 6"), ("all", "Spain 4 vs England 3")):
        state = at_step(new_game(sea_soldiers=option), "C2")
        state.force("Cuba", "Spain").ships["caravel"] = 1
        state.force("Cuba", "Spain").add("soldier", 4)            # a caravel with 4 soldiers: 1 or 5
        state.force("Cuba", "England").ships["carrack"] = 1       # combat 3
        _, text = _sea_round(tn, state, _even_dice())
        assert expect in text, option


def test_soldiers_on_a_sunk_ship_are_lost_with_it(tn):
    state = at_step(new_game(), "C2")
    state.force("Atlantic Coast", "Spain").ships["carrack"] = 1
    state.force("Atlantic Coast", "Spain").add("soldier", 2)
    state.force("Cuba", "Spain").add("soldier", 3)                 # ashore
    state.force("Cuba", "England").ships["war-carrack"] = 3
    step, _ = _sea_round(tn, state, {"sea-combat/Cuba/Spain": [1] * 10, "sea-combat/Cuba/England": [5] * 10,
                                     "sea-losses/Cuba/Spain": [6] * 10, "sea-losses/Cuba/England": [1] * 10},
                         ("sail 1 carrack from Atlantic Coast to Cuba carrying 2 soldier",
                          "attack England at sea in Cuba"))
    spain = step.state.forces["Cuba"]["Spain"]
    assert not spain.ships and spain.units == {"soldier": 3}


def test_an_interceptors_soldiers_fight_too(tn):
    state = fleet_state()
    box = state.force("Command of the Seas", "England")
    box.ships["caravel"] = 2
    box.add("soldier", 2)
    line = tn.check(state, "Spain", "sail 1 caravel from Europe to Cuba")[0].canonical
    step = tn.resolve(state, {"Spain": [line], "England": ["intercept Spain"]}, ScriptedDice(
        {"sea-combat/Command of the Seas/": [3] * 20, "sea-losses/Command of the Seas/": [1] * 40}))
    text = next(e.text for e in step.events if "Sea fight at Command of the Seas, round 1" in e.text)
    # 2 caravels + 2 soldiers = 4 against 1: larger force +1 and +3 for 4:1, so 3 + 4 (without soldiers, 3 + 2)
    assert "England 7 vs Spain 3" in text


def test_soldiers_still_aboard_when_their_ship_sinks_go_down_with_it(tn):
    state = at_step(new_game(), "C2")
    state.force("Atlantic Coast", "Spain").ships["carrack"] = 1     # combat 3, 2 soldiers aboard: value 5
    state.force("Atlantic Coast", "Spain").add("soldier", 2)
    state.force("Cuba", "Spain").add("soldier", 3)                 # ashore
    state.force("Cuba", "England").ships["war-carrack"] = 1
    # England 6 and Spain's losses at half of it: 3, exactly the carrack, so the soldiers outlive their ship
    step, text = _sea_round(tn, state, {"sea-combat/Cuba/Spain": [1], "sea-combat/Cuba/England": [5],
                                        "sea-losses/Cuba/Spain": [2], "sea-losses/Cuba/England": [1]},
                            ("sail 1 carrack from Atlantic Coast to Cuba carrying 2 soldier",
                             "attack England at sea in Cuba"))
    assert "losses — Spain: 1 carrack; England: nothing" in text
    assert any("2 soldiers of Spain went down with the ships at Cuba" in e.text for e in step.events)
    assert step.state.forces["Cuba"]["Spain"].units == {"soldier": 3}


def test_the_attacked_sides_soldiers_aboard_fight_too(tn):
    state = at_step(new_game(), "C2")
    state.force("Cuba", "Spain").ships["caravel"] = 4               # combat 4
    state.force("Atlantic Coast", "England").ships["carrack"] = 1   # combat 3, and 2 soldiers aboard: 5
    state.force("Atlantic Coast", "England").add("soldier", 2)
    step = tn.resolve(state, {"England": ["sail 1 carrack from Atlantic Coast to Cuba carrying 2 soldier"],
                              "Spain": ["attack England at sea in Cuba"]}, ScriptedDice(_even_dice()))
    text = next(e.text for e in step.events if "Sea fight at Cuba, round 1" in e.text)
    assert "Spain 3 vs England 4" in text          # without its soldiers England would be the smaller force
