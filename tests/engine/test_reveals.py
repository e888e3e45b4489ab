"""What a player may take back: an action whose events revealed nothing hidden (the engine's side of /undo)."""

from __future__ import annotations

from engine.core import Event, Visibility
from engine.rulesets import get


def test_terra_prime_tiles_turned_over_or_scanned_are_reveals() -> None:
    tp = get("terra-prime")
    assert tp.reveals([Event("**Ana** explores sector 2: green tile 1 shows a yellow planet.", kind="explore")])
    assert tp.reveals([Event("Scanner: tile 4 shows aliens.", Visibility.to("Ana"), kind="peek")])
    assert not tp.reveals([Event("**Ana** moves to sector 3.", kind="move")])
    assert not tp.reveals([])


def test_anything_told_to_some_seats_only_counts_as_a_reveal_in_every_ruleset() -> None:
    freeform = get("freeform")
    assert freeform.reveals([Event("Your druids foresee a siege.", Visibility.to("Arverni"))])
    assert not freeform.reveals([Event("The GM's own note.", Visibility.gm_only())])
    assert not freeform.reveals([Event("Everyone sees this.", Visibility.everyone())])
