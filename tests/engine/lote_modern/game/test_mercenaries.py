"""Mercenary brokerage (LotE 7.1.4, 7.4.11): winning a pool, its upkeep, reshaping it, and hiring from it."""

from __future__ import annotations

import re

import pytest

from engine.core import Verdict, Viewer
from tests.engine.lote_modern.game.conftest import FixedDice
from tests.engine.lote_modern.game.play import GM, check, edit, lines, resolve, rulings

A, F, R = Verdict.ACCEPTED, Verdict.FLAGGED, Verdict.REJECTED
POOL = '"Low Countries"'
BROKER = "brokerages +Low Countries"


@pytest.mark.parametrize(("seat", "edits", "line", "verdict", "message"), [
    # establishing a brokerage (7.4.11)
    ("Hansa", ["leader[Hanssen].ap =20"], f"action Hanssen EMB {POOL}", A, r"12 AP and 25 GP"),
    ("Hansa", ["leader[Hanssen].ap =20"], "action Hanssen EMB Swiss", R, r"there is no mercenary pool in Swiss"),
    ("Hansa", ["leader[Hanssen].ap =20", BROKER], f"action Hanssen EMB {POOL}", R, r"already brokers"),
    # the broker's pool (7.1.4.1)
    ("Hansa", [], f"pool {POOL} price 3gp", R, r"you are not the broker"),
    ("Hansa", [BROKER], f"pool {POOL} price 3gp", A, r"hires at 3 GP, paid to you"),
    ("Hansa", [BROKER], f"pool {POOL} convert 4i to 4c", A,
     r"4i of the Low Countries pool become 4c: 32 GP, the build cost of the units added"),
    ("Hansa", [BROKER], f"pool {POOL} convert 4i to 2c", R, r"unit for unit"),
    ("Hansa", [BROKER], f"pool {POOL} convert 20i to 20c", R, r"8i short"),
    ("Hansa", [BROKER], f"pool {POOL} convert 2i to 2ca", R, r"Steam Cruiser"),
    # hiring (7.1.4.2)
    ("England", [], f"hire 4i from {POOL} at Antwerp 20gp", F, r"a bid of 20 GP for 4i at Antwerp"),
    ("England", [], f"hire 4i from {POOL} at London 20gp", R, r"hired at a city in their pool's zone"),
    ("England", [], f"hire 4i from {POOL} at Antwerp", R, r"bid gold for unbrokered mercenaries"),
    ("England", [], f"hire 20i from {POOL} at Antwerp 40gp", R, r"has 12i 4c: 8i short"),
    ("Hansa", [BROKER], f"hire 4i from {POOL} at Amsterdam", A, r"your own Low Countries mercenaries"),
])
def test_mercenary_lines(lm, state, seat, edits, line, verdict, message):
    state = edit(lm, state, "Hansa", *edits) if edits else state
    answer = check(lm, state, seat, line)
    assert answer.verdict is verdict, answer.message
    assert re.search(message, answer.message), answer.message
    if verdict is not R:
        assert check(lm, state, seat, answer.canonical).canonical == answer.canonical


def test_a_brokered_pool_hires_at_the_brokers_price(lm, state):
    state = edit(lm, state, "Hansa", BROKER)
    assert "has set no terms: negotiate with the House" in check(lm, state, "England",
                                                                   f"hire 4i from {POOL} at Antwerp 20gp").message
    state = edit(lm, state, "map", "pool[Low Countries].price =3")
    assert "3 GP a unit: 12 GP for 4" in check(lm, state, "England", f"hire 4i from {POOL} at Antwerp 10gp").message
    assert check(lm, state, "England", f"hire 4i from {POOL} at Antwerp 12gp").verdict is A
    state = resolve(lm, state, {"England": f"hire 4i from {POOL} at Antwerp 12gp", "Hansa": "note trading"})
    assert state.nations["England"].army("Low Countries Mercenaries").units == {"i": 4}
    assert state.world.pools["Low Countries"].units == {"i": 8, "c": 4}
    assert "England hired 4i of your Low Countries pool for 12 GP." in lines(state, "Hansa")
    assert "Hired 4i of the Low Countries pool at Antwerp (12 GP to Hansa)" in lines(state, "England")
    assert any("name their mercenary leader" in t for t in rulings(state, "mercenaries"))


def test_the_best_offer_a_unit_is_served_first_and_the_other_refunded(lm, state):
    state = resolve(lm, state, {"France": f"hire 10i from {POOL} at Antwerp 30gp",
                                "England": f"hire 4i from {POOL} at Antwerp 20gp"})
    assert state.nations["England"].army("Low Countries Mercenaries").units == {"i": 4}     # 5 GP a unit
    assert state.nations["France"].army("Low Countries Mercenaries") is None                # 3 GP a unit
    assert "was outbid: 30 GP return" in lines(state, "France")


def test_the_broker_pays_half_a_gp_a_unit_scaled_to_the_turn(lm, state):
    state = resolve(lm, edit(lm, state, "Hansa", BROKER), {"Hansa": f"pool {POOL} price 3gp"})
    assert "Upkeep: brokerage Low Countries (16 units) 1.6 GP." in lines(state, "Hansa")   # 16 x 0.5 x 20%
    assert state.nations["Hansa"].brokerages == ["Low Countries"]
    assert state.world.pools["Low Countries"].price == 3


def test_a_broker_sending_no_orders_loses_the_pool(lm, state):
    state = resolve(lm, edit(lm, state, "Hansa", BROKER))
    assert "You lost the Low Countries brokerage: you sent no orders" in lines(state, "Hansa")
    assert state.nations["Hansa"].brokerages == []
    assert any("16 units are angry" in t for t in rulings(state, "mercenaries"))


def test_a_broker_that_cannot_pay_loses_the_pool(lm, state):
    state = edit(lm, state, "Hansa", BROKER, "treasury.gp =2")
    state = resolve(lm, state, {"Hansa": "note holding on"})
    assert "You lost the Low Countries brokerage: you paid" in lines(state, "Hansa")


def test_reshaping_the_pool_changes_it_at_processing(lm, state):
    state = resolve(lm, edit(lm, state, "Hansa", BROKER), {"Hansa": f"pool {POOL} convert 4i to 4c"})
    assert state.world.pools["Low Countries"].units == {"i": 8, "c": 8}


def test_emb_asks_the_gm_with_the_edit_to_make(lm, state):
    state = edit(lm, state, "Hansa", "leader[Hanssen].ap =20")
    state = resolve(lm, state, {"Hansa": f"action Hanssen EMB {POOL}"})
    (item,) = [t for t in rulings(state, "action") if "Establish Mercenary Brokerage" in t]
    assert "`edit Hansa brokerages +Low Countries`" in item


def test_pools_are_on_every_sheet_and_the_gm_edits_them(lm, state):
    sheet = lm.view(state, Viewer.of_seat("Spain")).sheet
    assert "**Mercenary pools** Low Countries (Flanders; Holland): 12i 4c, open to bids" in sheet
    state = lm.act(state, GM, 'edit map pool[Swiss].units =10i "the cantons send men"', FixedDice()).state
    state = lm.act(state, GM, 'edit map pool[Swiss].regions =Burgundy "their valleys"', FixedDice()).state
    assert state.world.pools["Swiss"].units == {"i": 10} and state.world.pools["Swiss"].regions == ("Burgundy",)
    assert check(lm, state, "France", "hire 5i from Swiss at Lyon 10gp").verdict is F
