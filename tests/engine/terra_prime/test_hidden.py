"""Hidden information: face-down tiles and another seat's scanner peeks never reach the wrong viewer."""

import random

from engine.core import Dice, Setup, Viewer
from tests.engine.terra_prime.helpers import TP, act, new_game

PUBLIC_VIEWERS = (Viewer.spectator(), Viewer.of_seat("Ben"))


def _seen(state, viewer):
    view = TP.view(state, viewer)
    return (view.summary, view.sheet, tuple(view.actions), TP.render(state, viewer))


def _swap_two_face_down(state, band="yellow"):
    """The same public position with two hidden tiles exchanged under their backs."""
    copy = TP.load(TP.dump(state))
    hidden = [i for i, t in enumerate(copy.tiles) if not t.revealed and t.design.startswith(band[0].upper())]
    a, b = hidden[0], hidden[1]
    copy.tiles[a].design, copy.tiles[b].design = copy.tiles[b].design, copy.tiles[a].design
    return copy


def test_views_and_renders_do_not_depend_on_what_lies_face_down():
    state = new_game()
    swapped = _swap_two_face_down(state)
    for viewer in (*PUBLIC_VIEWERS, Viewer.of_seat("Ana")):
        assert _seen(state, viewer) == _seen(swapped, viewer)
    assert TP.view(state, Viewer.gm()).sheet != TP.view(swapped, Viewer.gm()).sheet  # the GM sees all


def test_a_scanner_peek_shows_only_in_the_peeking_seats_view_and_render():
    state, events = act(new_game(), "scan 20")
    design = state.tile(20).design
    unseen = TP.load(TP.dump(state))
    unseen.ships["Ana"].peeks = []
    for viewer in PUBLIC_VIEWERS:
        assert _seen(state, viewer) == _seen(unseen, viewer)
        assert _seen(state, viewer) == _seen(_swap_two_face_down(state), viewer)
    assert TP.render(state, Viewer.of_seat("Ana")) != TP.render(unseen, Viewer.of_seat("Ana"))
    assert "tile 20" in TP.view(state, Viewer.of_seat("Ana")).sheet
    private = [e for e in events if e.kind == "peek"]
    assert private and all(e.visibility.seats == frozenset({"Ana"}) and not e.visibility.public for e in private)
    assert all(design not in e.text and "shows" not in e.text for e in events if e.visibility.public)


def test_public_events_of_a_whole_game_never_describe_a_tile_before_it_is_explored():
    rng = random.Random(3)
    state = TP.setup(Setup(("Ana", "Ben", "Cleo"), TP.parse_options({}), Dice(b"h" * 32, "setup")))
    n = 0
    while not state.ended and n < 3000:
        hidden_before = {i + 1: t.design for i, t in enumerate(state.tiles) if not t.revealed}
        text = rng.choice(TP.view(state, Viewer.of_seat(state.seat)).actions).text
        step = TP.act(state, Viewer.of_seat(state.seat), text, Dice(b"h" * 32, f"{n}"))
        state = step.state
        still_hidden = {p: d for p, d in hidden_before.items() if not state.tile(p).revealed}
        for event in step.events:
            if event.visibility.public:
                assert event.kind != "peek"
                for position in still_hidden:
                    assert f"tile {position} shows" not in event.text and f"tile {position} (" not in event.text
            if event.data.get("design"):
                assert event.kind == "explore" or not event.visibility.public
        n += 1
    assert state.ended


def test_the_shuffled_stacks_are_secret_rolls():
    dice = Dice(b"s" * 32, "setup")
    TP.setup(Setup(("Ana", "Ben"), TP.parse_options({}), dice))
    for roll in dice.rolls:
        if roll.kind == "shuffle":
            assert not roll.visibility.public and not roll.visibility.seats


def test_other_seats_cannot_see_a_seats_sheet_or_actions():
    state = new_game()
    state.ships["Ana"].cargo = ["red"]
    state.supply["red"] -= 1
    ben = TP.view(state, Viewer.of_seat("Ben"))
    spectator = TP.view(state, Viewer.spectator())
    assert "Cargo (1/2): red" not in ben.sheet and spectator.sheet == "" and spectator.actions == ()
    assert ben.actions == () and "Cargo (1/2): red (Einsteinium)" in TP.view(state, Viewer.of_seat("Ana")).sheet
