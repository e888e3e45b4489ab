"""Every roll reads as a label in the turn summaries ("initiative Spain", "combat Cuba round 2 England"), while
its dice still come from the stream its step, kind and owner name, so a rewording never changes a campaign's dice."""

from engine.core.rng import rederive
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.context import PROCEDURES

from .conftest import SEED, ScriptedDice, at_step, ctx_for, new_game


def test_initiative_rolls_are_labelled_by_power():
    state = new_game()
    ctx = ctx_for(state, "B3", {"initiative/Spain": [6], "initiative/Portugal": [4], "initiative/England": [2]})
    PROCEDURES["initiative"](ctx)
    assert [r.name for r in ctx.dice.rolls] == ["initiative Spain", "initiative Portugal", "initiative England"]


def test_tied_initiative_rolls_say_they_are_re_rolls():
    state = new_game()
    ctx = ctx_for(state, "B3", {"initiative/Spain": [4, 2], "initiative/Portugal": [4, 5], "initiative/England": [6]})
    PROCEDURES["initiative"](ctx)
    assert "initiative Portugal re-roll 1" in [r.name for r in ctx.dice.rolls]


def test_battle_rolls_name_the_area_the_round_and_the_side():
    state = new_game()
    state.leaders = []
    state.force("Cuba", "Spain").add("soldier", 4)
    state.force("Cuba", "England").add("soldier", 4)
    ctx = ctx_for(state, "D5", {"combat/": [3] * 4, "losses/": [1] * 4})      # two drawn rounds, a soldier each
    combat.start(ctx, "Cuba", "England", "Spain")
    combat.drive(ctx)
    purposes = [r.name for r in ctx.dice.rolls]
    assert purposes[:8] == ["combat Cuba round 1 England", "combat Cuba round 1 Spain",
                            "losses Cuba round 1 England", "losses Cuba round 1 Spain",
                            "combat Cuba round 2 England", "combat Cuba round 2 Spain",
                            "losses Cuba round 2 England", "losses Cuba round 2 Spain"]
    assert ctx.dice.rolls[2].table == "Combat Losses for England"


def test_an_exploding_combat_die_labels_its_extra_rolls():
    state = new_game()
    ctx = ctx_for(state, "D5", {"combat/": [6, 2]})
    combat.exploding_die(ctx, ("combat", "Cuba", "Spain"), "combat Cuba round 1 Spain")
    assert [r.name for r in ctx.dice.rolls] == ["combat Cuba round 1 Spain", "combat Cuba round 1 Spain again"]


def test_attrition_rolls_name_the_power_and_the_voyage(tn):
    state = at_step(new_game(), "C1")
    state.forces.pop("Europe", None)
    state.leaders = []
    state.force("Europe", "Spain").add_ships("carrack", 2)
    state.powers["Spain"].treasury = 100
    ctx = ctx_for(state, "C4", {"attrition/": [4]})
    state = tn.resolve(state, {"Spain": ["sail 2 carrack from Europe to Cuba"]}, ctx.dice).state
    tn.resolve(state, {}, ctx.dice)                                           # C.2, then C.4 attrition
    [roll] = [r for r in ctx.dice.rolls if r.name.startswith("attrition")]
    assert roll.name == "attrition Spain voyage from Europe to Cuba"
    assert roll.table == "Naval Attrition Table (3) for Spain's voyage from Europe to Cuba"


def test_a_label_keeps_the_stream_its_roll_came_from():
    state = new_game()
    ctx = ctx_for(state, "B3")
    PROCEDURES["initiative"](ctx)
    roll = ctx.dice.rolls[0]
    assert roll.name == "initiative Spain" and roll.key == "B3/B3/initiative/Spain#0"
    again = rederive(SEED, roll)
    assert again.faces == roll.faces and again.total == roll.total      # anyone with the seed can check it


def test_no_roll_of_a_played_turn_is_labelled_with_a_path(tn):
    state = new_game(east_indies=True)
    labels: set[str] = set()
    for n in range(12):
        dice = ScriptedDice(scope=f"step{n}")
        state = tn.resolve(state, {}, dice).state
        labels |= {r.name for r in dice.rolls}
    assert labels and not [label for label in labels if "/" in label]
