"""Combat, Tactics, Native Tactics and Combat Losses: round by round, with the dice chosen."""

import pytest

from engine.core import IllegalAction, Visibility
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.combat import Piece, ratio_bonus, take_losses
from engine.rulesets.terra_nova.state import Force, Goods, Leader

from .conftest import ctx_for, new_game


def board(area="Cuba", soldiers=4, natives=None, leader=None, **options):
    state = new_game(**options)
    state.leaders = []
    state.force(area, "Spain").add("soldier", soldiers)
    if natives is not None:
        state.areas[area].natives = natives
    if leader is not None:
        state.leaders.append(Leader("Cortés", "Spanish", "Conquistador", leader, 30, "Spain", area))
    return state


def fight(state, script, area="Cuba", attacker="Spain", defender="natives", tactics=None, **kw):
    ctx = ctx_for(state, "D5", script)
    battle = combat.start(ctx, area, attacker, defender, standing=tactics or {}, **kw)
    done = combat.drive(ctx)
    return ctx, battle, done


def test_a_natural_six_counts_five_and_rolls_again():
    state = board()
    ctx = ctx_for(state, "D5", {"x": [6, 6, 2]})
    assert combat.exploding_die(ctx, ("x",), "combat x") == (12, [6, 6, 2])


@pytest.mark.parametrize(("mine", "theirs", "bonus"), [(5, 5, 0), (6, 5, 1), (10, 5, 2), (15, 5, 3), (20, 5, 4),
                                                       (29, 5, 5), (4, 5, 0), (5, 0, 1)])
def test_larger_force_and_each_ratio_step(mine, theirs, bonus):
    assert ratio_bonus(mine, theirs) == bonus


def test_losses_are_taken_with_the_least_combat_value_that_covers_them():
    pieces = [Piece("soldier", 5)] * 3 + [Piece("settler", 1)] * 2
    assert [p.kind for p in take_losses(pieces, 1)] == ["settler"]
    assert [p.kind for p in take_losses(pieces, 4)] == ["soldier"]
    assert sorted(p.kind for p in take_losses(pieces, 11)) == ["settler", "soldier", "soldier"]
    assert take_losses([Piece("cannon", 0)], 3) == []


def test_a_round_against_natives_with_the_plus_three_and_losses_rounded_up():
    # Spain 2 soldiers (10) vs 3 natives (15) in Cuba (not a civilisation): Spain +3, natives larger +1.
    # Spain 4 + 3 = 7 beats natives 2 + 1 = 3. Spain's loss die 3 - 1 (winner) = 2: 1/2 x 3 = 1.5 -> 2
    # (a soldier). Natives' loss die 2: 1/2 x 7 = 3.5 -> 4: one native (5 a native).
    state = board(soldiers=2, natives=3)
    ctx, _, _ = fight(state, {"combat/Cuba/Spain": [4], "combat/Cuba/natives": [2],
                                      "losses/Cuba/Spain": [3], "losses/Cuba/natives": [2],
                                      "combat/": [1] * 20, "losses/": [1] * 20})
    first = next(e.text for e in ctx.events if "round 1" in e.text)
    assert "Spain 7 (vs natives +3)" in first and "natives 3 (larger force +1)" in first
    assert "Spain wins the round" in first and "Spain 2 (1 soldier)" in first and "natives 4 (1 native)" in first


def test_the_winner_rolls_one_less_on_combat_losses():
    state = board(soldiers=4, natives=3)
    ctx, _, _ = fight(state, {"combat/Cuba/Spain": [5], "combat/Cuba/natives": [1], "losses/Cuba/Spain": [1],
                              "losses/Cuba/natives": [6]})
    rolls = [r for r in ctx.dice.rolls if r.name.startswith("losses Cuba round 1")]
    assert [(r.total, r.modifier, r.result) for r in rolls] == [(1, -1, "No loss"), (6, 0, "2 x  opponent’s total")]
    assert state.areas["Cuba"].natives == 0 and state.force("Cuba", "Spain").count("soldier") == 4


def test_charge_adds_two_and_half_again_to_your_losses_restraint_halves_them():
    state = board(soldiers=6, natives=4, leader=0)
    ctx, _, _ = fight(state, {"combat/Cuba/Spain": [1], "combat/Cuba/natives": [6, 1],
                              "losses/Cuba/Spain": [5], "losses/Cuba/natives": [1]}, tactics={"Spain": "charge"})
    text = next(e.text for e in ctx.events if "round 1" in e.text)
    # Spain 1 + 3 + 2 (charge) + 1 (larger 30 v 20) = 7; natives 6 -> 5 + 1 = 6. Spain wins: 5 - 1 = 4,
    # 1 x 6 = 6, and half as much again for the charge: 9.
    assert "Spain 7" in text and "charge +2" in text and "Spain 9" in text
    state = board(soldiers=6, natives=4, leader=0)
    ctx, _, _ = fight(state, {"combat/Cuba/Spain": [5], "combat/Cuba/natives": [6, 1],
                              "losses/Cuba/Spain": [5], "losses/Cuba/natives": [1]}, tactics={"Spain": "restraint"})
    text = next(e.text for e in ctx.events if "round 1" in e.text)
    # Spain 5 + 3 - 2 + 1 = 7 beats 6: winner rolls 5 - 1 = 4: 1 x 6 = 6, halved = 3.
    assert "restraint -2" in text and "Spain 3" in text


def test_massacre_doubles_both_sides_losses():
    state = board(soldiers=6, natives=4, leader=0)
    ctx, _, _ = fight(state, {"combat/Cuba/Spain": [4], "combat/Cuba/natives": [2],
                              "losses/Cuba/Spain": [3], "losses/Cuba/natives": [2]}, tactics={"Spain": "massacre"})
    text = next(e.text for e in ctx.events if "round 1" in e.text)
    # Spain 4 + 3 + 1 = 8; natives 2. Spain: (3-1) 1/2 x 2 = 1 -> 2. Natives: 1/2 x 8 = 4 -> 8.
    assert "Spain 2 (" in text and "natives 8 (2 natives)" in text


def test_withdrawal_cannot_win_and_ends_the_battle_after_the_round():
    state = board(soldiers=2, natives=4, leader=1)
    ctx, _, done = fight(state, {"combat/Cuba/Spain": [5], "combat/Cuba/natives": [1],
                                 "losses/": [1, 1]}, tactics={"Spain": "withdrawal"})
    text = next(e.text for e in ctx.events if "round 1" in e.text)
    assert done and "no one wins the round" in text and not state.battles
    assert any("ends without a victor" in e.text for e in ctx.events)
    assert "nowhere to go from Cuba" in ctx.events[-1].text      # an island, and no ships to sail home on


def _withdraw(state, area):
    ctx = ctx_for(state, "D5", {"combat/": [3, 3], "losses/": [1, 1]})
    combat.start(ctx, area, "Spain", "natives", standing={"Spain": "withdrawal"})
    assert combat.drive(ctx) and not state.battles
    return ctx


def test_after_a_withdrawal_the_side_falls_back_to_its_neighbouring_settlement():
    state = board(area="Mississippi", soldiers=3, natives=6, leader=1)
    state.holding("Deep South", "Spain").settlements = 1
    ctx = _withdraw(state, "Mississippi")
    assert state.forces["Deep South"]["Spain"].units == {"soldier": 2}   # 3, less one lost in the round
    assert not (state.peek("Mississippi", "Spain") or Force()).units
    assert state.leader("Cortés").place == "Deep South"
    assert "withdraws from Mississippi and falls back to Deep South" in ctx.events[-1].text


def test_a_withdrawing_side_with_ships_and_no_friendly_neighbour_sails_home():
    state = board(area="Cuba", soldiers=3, natives=6, leader=1)
    state.force("Cuba", "Spain").ships["carrack"] = 2
    ctx = _withdraw(state, "Cuba")
    assert state.forces["Europe"]["Spain"].units.get("soldier") == 2
    assert state.forces["Europe"]["Spain"].ships.get("carrack") == 2
    assert "Spain" not in state.forces.get("Cuba", {}) or state.forces["Cuba"]["Spain"].empty
    assert "sails home to Europe" in ctx.events[-1].text


def test_the_europe_option_sails_home_even_with_a_settlement_next_door():
    state = board(area="Mississippi", soldiers=3, natives=6, leader=1, withdrawal_to="europe")
    state.holding("Deep South", "Spain").settlements = 1
    state.force("Mississippi", "Spain").ships["caravel"] = 1
    _withdraw(state, "Mississippi")
    assert state.forces["Europe"]["Spain"].units.get("soldier") == 2
    assert "Spain" not in state.forces.get("Deep South", {})


def test_a_side_with_a_leader_is_asked_for_its_tactic_each_round():
    state = board(soldiers=4, natives=3, leader=1)
    ctx = ctx_for(state, "D5", {"combat/": [3] * 10, "losses/": [1] * 10})
    battle = combat.start(ctx, "Cuba", "Spain", "natives")
    assert combat.drive(ctx) is False and combat.waiting(state, battle) == {"Spain"}
    assert combat.legal_tactics(battle, "Spain") == ["none", "charge", "restraint", "massacre", "withdrawal"]
    with pytest.raises(IllegalAction, match="tactics here"):
        combat.choose(state, "Spain", "defend")
    combat.choose(state, "Spain", "none")
    assert combat.drive(ctx) is False and battle.round == 2          # round 1 fought; asked again


def test_native_civilisations_roll_their_tactics():
    state = board(area="Aztec Empire", soldiers=8, natives=7)
    ctx, _, _ = fight(state, {"tactics/Aztec Empire/natives": [6], "combat/": [3, 3], "losses/": [1, 1]},
                      area="Aztec Empire")
    text = next(e.text for e in ctx.events if "round 1" in e.text)
    assert "Spain 6 (vs natives +2, larger force +1)" in text and "natives 5 (charge +2)" in text


def test_a_fort_doubles_its_defenders_and_lost_holdings_go_to_the_victor():
    state = board(soldiers=6)
    state.force("Cuba", "England").add("soldier", 1)
    holding = state.holding("Cuba", "England")
    holding.settlements, holding.forts = 1, 1
    assert sum(p.value for p in combat.land_pieces(state, "England", "Cuba", True)) == (5 + 2) * 2
    ctx, _, done = fight(state, {"combat/Cuba/Spain": [5], "combat/Cuba/England": [1], "losses/Cuba/Spain": [1],
                                 "losses/Cuba/England": [6]}, defender="England")
    assert done and state.areas["Cuba"].holdings["Spain"].settlements == 1
    assert "England" not in state.areas["Cuba"].holdings or not state.areas["Cuba"].holdings["England"].settlements
    assert any("captured by Spain" in e.text for e in ctx.events)


def test_taking_a_treasure_city_occupies_it():
    state = board(area="Aztec Empire", soldiers=6)
    _, _, done = fight(state, {"tactics/": [1], "combat/Aztec Empire/Spain": [5],
                               "combat/Aztec Empire/natives": [1], "losses/Aztec Empire/Spain": [1],
                               "losses/Aztec Empire/natives": [6]}, area="Aztec Empire", city="Tenochtitlan")
    city = state.cities["Tenochtitlan"]
    assert done and city.level == 0 and city.holder == "Spain"
    assert state.areas["Aztec Empire"].natives == 7                  # the city's own natives fell, not the area's


def test_a_force_wiped_out_loses_its_cannon_and_leaders():
    state = board(soldiers=1, natives=5, leader=0)
    state.force("Cuba", "Spain").add("cannon", 1)
    fight(state, {"combat/Cuba/Spain": [1, 1], "combat/Cuba/natives": [5, 5], "losses/Cuba/Spain": [6, 6],
                  "losses/Cuba/natives": [1, 1]}, tactics={"Spain": "none"})
    assert "Spain" not in state.forces.get("Cuba", {}) or not state.forces["Cuba"]["Spain"].units
    assert not state.leaders


# -- a side wiped out: its gold and goods (option `spoils`), and how the battle reads --------------------------


def spanish_treasure(**options):
    """Spain's lone soldier guards 20 gold and a spices/1 marker in Cuba; England lands 4 soldiers."""
    state = board(soldiers=1, **options)
    force = state.force("Cuba", "Spain")
    force.gold, force.goods = 20, [Goods("Spices", 1)]
    state.force("Cuba", "England").add("soldier", 4)
    return state


ENGLAND_WINS = {"combat/Cuba/England": [5], "combat/Cuba/Spain": [1], "losses/Cuba/England": [1],
                "losses/Cuba/Spain": [6]}


def test_the_victor_seizes_the_gold_and_goods_of_a_side_wiped_out():
    state = spanish_treasure()
    ctx, _, done = fight(state, ENGLAND_WINS, attacker="England", defender="Spain")
    assert done and state.force("Cuba", "England").gold == 20
    assert [g.code for g in state.force("Cuba", "England").goods] == ["spices/1"]
    assert not state.force("Cuba", "Spain").gold and not state.force("Cuba", "Spain").goods
    seized = next(e for e in ctx.events if "seizes" in e.text)
    assert seized.text == "England seizes Spain's 20 gold, spices/1 awaiting shipment in Cuba."
    assert seized.visibility == Visibility.to("Spain", "England")     # gold anywhere is the seats' secret


def test_with_spoils_lost_the_gold_of_a_side_wiped_out_is_lost():
    state = spanish_treasure(spoils="lost")
    ctx, _, _ = fight(state, ENGLAND_WINS, attacker="England", defender="Spain")
    assert not state.force("Cuba", "England").gold and not state.force("Cuba", "Spain").gold
    assert "Spain's 20 gold, spices/1 awaiting shipment in Cuba are lost." in [e.text for e in ctx.events]


def test_gold_left_by_a_side_the_natives_wipe_out_is_lost_and_the_natives_win_in_the_plural():
    state = board(soldiers=1, natives=3)
    state.force("Cuba", "Spain").gold = 20
    ctx, _, done = fight(state, {"combat/Cuba/Spain": [1], "combat/Cuba/natives": [5], "losses/Cuba/Spain": [6],
                                 "losses/Cuba/natives": [1]})
    assert done and not state.force("Cuba", "Spain").gold
    said = [e.text for e in ctx.events]
    assert "the natives win the round" in said[0] and "**The natives** hold Cuba." in said
    assert "Spain's 20 gold awaiting shipment in Cuba is lost." in said


def test_a_single_holding_captured_reads_in_the_singular():
    state = spanish_treasure()
    state.holding("Cuba", "Spain").settlements = 1
    ctx, _, _ = fight(state, ENGLAND_WINS, attacker="England", defender="Spain")
    assert "1 settlement in Cuba is captured by England." in [e.text for e in ctx.events]
