"""Terra Nova orders take places, powers and leaders as people type them: any case, no accents, a unique prefix."""

import pytest

from engine.core import OrderError
from engine.rulesets.terra_nova.orders import Order

from .conftest import new_game


@pytest.fixture
def state():
    s = new_game(east_indies=True)
    s.leaders[0].power = "Spain"
    return s


@pytest.mark.parametrize(("written", "canonical"), [
    ("sail 1 urca from cub to hisp", "sail 1 urca from Cuba to Hispaniola"),
    ("sail 1 urca from EUR to cuba", "sail 1 urca from Europe to Cuba"),
    ("pay 20 to portu", "pay 20 to Portugal"),
])
def test_unique_prefixes_are_read_as_the_full_name(state, written, canonical):
    assert Order.parse(written, state, "Spain").text() == canonical


def test_a_misspelt_place_suggests_the_closest():
    state = new_game()
    with pytest.raises(OrderError, match=r"`Hispanola` is not a place on the map — did you mean \*\*Hispaniola\*\*"):
        Order.parse("sail 1 urca from Cuba to Hispanola", state, "Spain")


def test_an_ambiguous_prefix_names_the_candidates(state):
    with pytest.raises(OrderError, match=r"`north w` could be \*\*North West\*\* or \*\*North West Passage\*\*"):
        Order.parse("settle north w", state, "Spain")


def test_a_leaders_name_may_be_shortened(state):
    leader = state.leaders[0].name
    line = f"move 2 soldier leaders {leader[:-1].lower()} from Aztec Empire to Yucatan"
    assert Order.parse(line, state, "Spain").text() == f"move 2 soldier leaders {leader} from Aztec Empire to Yucatan"
