"""Where Terra Prime v1.5 is ambiguous: each reading we chose, and the option for groups who read it otherwise."""

from engine.rulesets.terra_prime.combat import lose
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.scoring import credit_chips, finish
from engine.rulesets.terra_prime.space import design
from tests.engine.terra_prime.helpers import new_game


def test_one_point_per_credit_by_default():
    state = new_game()
    state.ships["Ana"].credits, state.ships["Ben"].credits = 17, 10
    finish(state, [])
    assert (state.ships["Ana"].score, state.ships["Ben"].score) == (17, 10)


def test_or_one_point_per_credit_chip_the_fewest_chips_that_make_the_sum():
    assert [credit_chips(n) for n in (0, 1, 4, 5, 9, 10, 17, 23)] == [0, 1, 4, 1, 5, 1, 4, 5]
    state = new_game(credits_score="chip")
    state.ships["Ana"].credits, state.ships["Ben"].credits = 17, 10
    events: list = []
    finish(state, events)
    assert (state.ships["Ana"].score, state.ships["Ben"].score) == (4, 1)     # 10+5+1+1, and one 10
    assert any("17 credits in 4 chips" in e.text for e in events)


def test_green_tiles_carry_a_few_asteroids_unless_the_group_follows_the_components_list():
    printed = [t for t in rules().tiles.values() if t.band == "green" and not t.variant_of]
    assert sum(t.has_asteroids for t in printed) == 3          # 2 fields of 1 and a stray (the designer's notes)
    for option, expect_any in (("few", True), ("none", False)):
        state = new_game(green_asteroids=option)
        greens = [design(state, p) for p, t in enumerate(state.tiles, 1) if rules().tiles[t.design].band == "green"]
        assert len(greens) == 14
        assert any(d.has_asteroids for d in greens) is expect_any
    cleared = rules().tiles["G09-clear"]
    assert [c.kind for c in cleared.corners].count("planet") == 1 and not cleared.has_asteroids


def test_each_hit_with_no_module_costs_3_and_scores_may_go_below_zero():
    state = new_game()
    state.ship.score = 1
    lose(state, None, [])
    lose(state, None, [])
    assert state.ship.score == 1 - 3 - 3


def test_with_the_floor_option_leadership_stops_at_zero():
    state = new_game(leadership_floor=True)
    state.ship.score = 1
    events: list = []
    lose(state, None, events)
    lose(state, None, events)
    assert state.ship.score == 0
    assert [e.data["points"] for e in events if e.kind == "score"] == [-1]     # the second hit found nothing to take
