"""Cartel trade (LotE 7.1.3): a nation grants a Merchant House its sea trade with a target nation; the House
opens it with its own shipping, collects the gold at the end of each turn and pays the nation its share.
And a House's Cartel Cities in its income (Table 7-1)."""

from __future__ import annotations

import re

import pytest

from engine.core import Verdict, Viewer
from tests.engine.lote_modern.game.play import check, edit, lines, publish, resolve, rulings

A, R = Verdict.ACCEPTED, Verdict.REJECTED
CARRY = "cartel carry England Spain from London to Cadiz 10msp at Hamburg"


@pytest.mark.parametrize(("seat", "line", "verdict", "message"), [
    ("England", "cartel grant Hansa Spain", A, r"Hansa may carry your sea trade with Spain from next turn"),
    ("France", "cartel grant Hansa Spain", R, r"goes by land: a House does not carry land trade"),
    ("England", "cartel grant Spain France", R, r"Spain is not a Merchant House"),
    ("England", "cartel grant Hansa Hansa", R, r"cannot be carried by a second House"),
    ("Hansa", "cartel grant England Spain", R, r"a Merchant House's own trade is not cartel trade"),
    ("England", "cartel revoke Hansa Spain", R, r"Hansa holds no cartel rights"),
    ("Hansa", CARRY, R, r"England has not granted you cartel rights"),
    ("England", CARRY, R, r"only a Merchant House carries cartel trade"),
    ("England", "pay Spain 30gp", A, r"30 GP to Spain, in its treasury for next turn"),
    ("England", "pay England 30gp", R, r"not another nation"),
    ("England", "pay Spain 900gp", R, r"costs 900 GP"),
])
def test_cartel_and_payment_lines(lm, state, seat, line, verdict, message):
    answer = check(lm, state, seat, line)
    assert answer.verdict is verdict and re.search(message, answer.message), answer.message


@pytest.fixture
def granted(lm, state):
    """England granted the Hansa its Spanish trade on turn 1; the Hansa holds Branch Offices in both ports."""
    state = publish(lm, resolve(lm, state, {"England": "cartel grant Hansa Spain"}))
    return edit(lm, state, "Hansa", "city[London].status =bo", "city[Cadiz].status =bo")


def test_a_grant_reaches_the_house_and_waits_for_next_turn(lm, state):
    state = resolve(lm, state, {"England": "cartel grant Hansa Spain"})
    (deal,) = state.cartels
    assert (deal.house, deal.nation, deal.target, deal.status) == ("Hansa", "England", "Spain", "granted")
    assert "England grants you cartel rights to its sea trade with Spain" in lines(state, "Hansa")


@pytest.mark.parametrize(("edits", "line", "message"), [
    (["city[Cadiz].status =ma"], CARRY, r"Branch Office or better in both nations' base port cities"),
    ([], CARRY.replace("10msp", "40msp"), r"35 MSP are free to allocate"),
    ([], CARRY.replace("at Hamburg", "at Dover"), r"where the House may base shipping"),
    (["sea.trade_range =2"], CARRY, r"cannot trace London to Cadiz"),
    ([], CARRY.replace("Spain from", "France from"), r"has not granted you cartel rights"),
])
def test_the_house_carries_only_what_the_rules_allow(lm, granted, edits, line, message):
    state = edit(lm, granted, "Hansa", *edits)
    answer = check(lm, state, "Hansa", line)
    assert answer.verdict is R and re.search(message, answer.message), answer.message


def test_the_house_carries_the_route_and_collects_its_gold(lm, granted):
    answer = check(lm, granted, "Hansa", CARRY)
    assert answer.verdict is A and "0 conduit(s), 3 zones, 10 MSP at Hamburg (23.33 effective)" in answer.message
    state = resolve(lm, granted, {"Hansa": CARRY})
    (deal,) = state.cartels
    assert deal.status == "open" and deal.msp == 10 and deal.length == 3
    assert not state.nations["England"].route("Spain").open                 # the House carries England's side now
    assert "your own route closes and its 10 MSP return to port" in lines(state, "England")
    (ask,) = [t for t in rulings(state, "trade") if "cartel" in t]
    assert f"`edit Hansa cartel[{deal.id}].income =<GP>`" in ask
    state = publish(lm, state)
    state = edit(lm, state, "Hansa", f"cartel[{deal.id}].income =15")
    state = resolve(lm, state, {"Hansa": "pay England 6gp"})
    assert "cartel trade 15" in lines(state, "Hansa")
    assert "Hansa paid you 6 GP" in lines(state, "England")


def test_each_party_sees_the_cartel_and_the_target_does_not(lm, granted):
    state = publish(lm, resolve(lm, granted, {"Hansa": CARRY}))
    hansa = lm.view(state, Viewer.of_seat("Hansa")).sheet
    england = lm.view(state, Viewer.of_seat("England")).sheet
    spain = lm.view(state, Viewer.of_seat("Spain")).sheet
    assert "England's trade with Spain, London to Cadiz, 3 zones, 10 MSP at Hamburg" in hansa
    assert "Hansa carries your trade with Spain" in england
    assert "Cartel" not in spain


def test_revoked_rights_return_the_shipping_and_pass_on_only_next_turn(lm, granted):
    state = publish(lm, resolve(lm, granted, {"Hansa": CARRY}))
    checks = lm.check(state, "England", "cartel revoke Hansa Spain\ncartel grant Hansa Spain")
    assert [c.verdict for c in checks] == [A, R] and "from the following turn" in checks[1].message
    state = resolve(lm, state, {"England": "cartel revoke Hansa Spain"})
    assert "England revoked your cartel rights to its trade with Spain; 10 MSP return to you" in lines(state, "Hansa")
    assert state.cartels[0].status == "revoked"
    state = publish(lm, state)
    assert check(lm, state, "England", "cartel grant Hansa Spain").verdict is A


def test_a_houses_cartel_cities_and_sites_pay_their_table_7_1_shares(lm, state):
    state = resolve(lm, state)
    # Danzig 4 GPv x 0.40; Hamburg 6 x 0.50, Amsterdam 8 x 0.30, Copenhagen 5 x 0.30, Bordeaux 4 x 0.20,
    # Bergen 2 x 0.20, London 10 x 0.10, Cadiz 4 x 0.10.
    assert "Cartel Cities 1.6, House sites 9.5" in lines(state, "Hansa")


def test_one_house_carries_one_side_of_a_route_found_out_at_processing(lm, granted):
    state = publish(lm, resolve(lm, granted, {"Hansa": CARRY, "Spain": "cartel grant Hansa England"}))
    other = "cartel carry Spain England from Cadiz to London 5msp at Hamburg"
    assert check(lm, state, "Hansa", other).verdict is A            # the other side is not the House's to see
    state = resolve(lm, state, {"Hansa": other})
    assert "not carried out: a House carries only one nation's side of a route" in lines(state, "Hansa")
