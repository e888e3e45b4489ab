"""Exact odds of exploring: the attack dice through the real procedure, and only the faces the seat may know."""

from __future__ import annotations

import copy
import itertools
import math
from fractions import Fraction

from engine.core import Dice
from engine.rulesets.terra_prime import combat
from engine.rulesets.terra_prime.odds import through, unseen_faces
from engine.rulesets.terra_prime.space import face_down

from .helpers import SEED, TP, LoadedDice, new_game


def _hits(state, dice) -> int:
    return len(combat.attack(state, dice, [], count=2, source="test", purpose="strays/1"))


def test_hits_through_shields_are_every_face_of_the_real_attack_and_agree_with_a_sample():
    state = new_game()
    state.ship.modules["shield"] = 1
    exact = through(state.ship, 2)
    faces: dict[int, Fraction] = {}
    for attack in itertools.product(range(1, 7), repeat=2):
        for shield in range(1, 7):
            got = _hits(copy.deepcopy(state), LoadedDice(*attack, shield))
            faces[got] = faces.get(got, Fraction(0)) + Fraction(1, 216)
    assert faces == dict(exact.items())
    n = 5000
    counts: dict[int, int] = {}
    for i in range(n):
        got = _hits(state, Dice(SEED, f"mc{i}"))
        counts[got] = counts.get(got, 0) + 1
    for k, p in exact.items():
        assert abs(counts.get(k, 0) / n - float(p)) <= 4.5 * math.sqrt(float(p * (1 - p)) / n)


def test_exploring_counts_only_the_faces_this_seat_has_not_seen():
    state = new_game()
    ana, ben = state.seats
    sector = next(n for n in range(1, 30) if face_down(state, n) and "Explore sector" in str(TP.view(state, _v(ana))))
    position = face_down(state, sector)[0]
    before = TP.odds(state, ana, f"explore {sector}")
    band = [p for p in range(1, len(state.tiles) + 1) if p != position and not state.tile(p).revealed
            and TP_band(state, p) == TP_band(state, position)]
    swapped = copy.deepcopy(state)  # two face-down tiles trade faces: nothing this seat could see changed
    a, b = position, band[0]
    swapped.tile(a).design, swapped.tile(b).design = swapped.tile(b).design, swapped.tile(a).design
    assert TP.odds(swapped, ana, f"explore {sector}") == before
    peeked = copy.deepcopy(state)  # another seat's scan tells Ana nothing
    peeked.ships[ben].peeks.append(position)
    assert TP.odds(peeked, ana, f"explore {sector}") == before
    own = copy.deepcopy(state)  # Ana's own scan of another tile of the band takes that face out of her count
    own.ships[ana].peeks.append(band[0])
    assert len(unseen_faces(own, ana, position)) == len(unseen_faces(state, ana, position)) - 1
    known = copy.deepcopy(state)  # and her scan of this very tile tells her what it is
    known.ships[ana].peeks.append(position)
    assert unseen_faces(known, ana, position) == [state.tile(position).design]
    assert "your scan showed it" in TP.odds(known, ana, f"explore {sector}")


def test_an_action_without_dice_says_so_and_an_illegal_one_gets_the_usual_refusal():
    import pytest

    from engine.core import IllegalAction

    state = new_game()
    assert "no dice in this action" in TP.odds(state, state.seat, "pass")
    with pytest.raises(IllegalAction, match="not next to your ship"):
        TP.odds(state, state.seat, "explore 7")


def TP_band(state, position):
    from engine.rulesets.terra_prime.space import board_of
    return board_of(state).band(position)


def _v(seat):
    from engine.core import Viewer
    return Viewer.of_seat(seat)
