"""Hidden information: treasuries, pools in Europe, gold and goods, private rolls and events, GM-only rulings."""

from engine.core import Viewer
from engine.rulesets.terra_nova.state import Goods

from .conftest import ScriptedDice, at_step, new_game

SPAIN, ENGLAND, SPECTATOR, GM = Viewer.of_seat("Spain"), Viewer.of_seat("England"), Viewer.spectator(), Viewer.gm()


def secret_board():
    state = at_step(new_game(east_indies=True), "B5")
    state.powers["Spain"].treasury = 4321
    europe = state.force("Europe", "Spain")
    europe.units["cannon"] = 7
    cuba = state.force("Cuba", "Spain")
    cuba.add("soldier", 2)
    cuba.gold = 975
    state.force("Malacca", "Spain").goods = [Goods("Silk", 3)]
    state.holding("Cuba", "Spain").settlements = 1
    return state


def test_a_seat_sees_its_own_treasury_pool_and_gold_and_no_one_elses(tn):
    state = secret_board()
    own = tn.view(state, SPAIN).sheet
    assert "4321" in own and "7 cannon" in own and "975 gold" in own and "silk/3" in own
    for viewer in (ENGLAND, SPECTATOR):
        seen = tn.view(state, viewer).sheet + tn.view(state, viewer).summary
        assert "4321" not in seen and "7 cannon" not in seen and "975" not in seen and "silk/3" not in seen
    assert "4321" in tn.view(state, GM).sheet


def test_the_map_part_of_every_view_is_public(tn):
    state = secret_board()
    for viewer in (SPAIN, ENGLAND, SPECTATOR):
        sheet = tn.view(state, viewer).sheet
        assert "**Cuba** (natives 3): Spain: 1 settlement; Spain forces: 2 soldier" in sheet


def test_private_rolls_and_events_stay_with_their_seat(tn):
    state = new_game(random_events="ask")
    step = tn.act(state, GM, f"rule {state.questions[0].id} none", ScriptedDice())
    investment = [e for e in step.events if "Domestic investment" in e.text]
    assert {tuple(sorted(e.visibility.seats)) for e in investment} == {("Spain",), ("Portugal",), ("England",)}
    assert not any(e.visibility.public for e in investment)


def test_order_echoes_purchases_and_bribes_are_private(tn):
    state = secret_board()
    step = tn.resolve(state, {"Spain": ["buy 2 soldier"], "England": ["pay 5 to Portugal"]}, ScriptedDice())
    private = [e for e in step.events if e.kind in ("orders", "purchase", "diplomacy")]
    assert len(private) == 4                                   # two echoes, a purchase, a payment
    for event in private:
        assert not event.visibility.allows(SPECTATOR)
        assert event.visibility.allows(ENGLAND) == ("England" in event.text)


def test_gm_rulings_are_asked_of_the_gm_alone(tn):
    state = new_game(random_events="ask")
    assert [a.group for a in tn.view(state, GM).actions] == ["rule", "rule"]
    assert tn.view(state, SPAIN).actions == () and tn.view(state, SPECTATOR).actions == ()
    assert "Draw the random event" not in tn.view(state, SPAIN).summary
    asked = [e for e in state.pending_events if "GM ruling needed" in e["text"]]
    assert asked and all(not e["visibility"]["public"] and not e["visibility"]["seats"] for e in asked)


def test_the_map_shows_nothing_private(tn):
    state = secret_board()
    picture = tn.render(state, SPECTATOR)
    assert picture == tn.render(state, SPAIN) == tn.render(state, GM)
    state.force("Cuba", "Spain").gold = 5
    state.powers["Spain"].treasury = 1
    state.force("Europe", "Spain").units["cannon"] = 1
    assert tn.render(state, SPECTATOR) == picture


def test_the_leader_deck_is_seen_by_the_gm_only(tn):
    state = new_game()
    upcoming = state.deck[0]
    assert upcoming in tn.view(state, GM).sheet
    assert upcoming not in tn.view(state, SPAIN).sheet and upcoming not in tn.view(state, SPECTATOR).sheet
