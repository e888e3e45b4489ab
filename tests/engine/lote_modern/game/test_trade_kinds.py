"""Trade beyond the plain sea route: steam MSP and the steamships' operating range (LotE 3.2.1.2.2-3.2.1.2.3),
a House's overland (7.1.5) and aerial trade (2.8.5), and hands-off trade (2.9, optional)."""

from __future__ import annotations

import re

import pytest

from engine.core import Verdict, Viewer
from tests.engine.lote_modern.game.play import check, edit, lines, publish, resolve, rulings

A, F, R = Verdict.ACCEPTED, Verdict.FLAGGED, Verdict.REJECTED
OVERLAND = "route Spain overland open from Cadiz 5msp"


def answer_is(lm, state, seat, line, verdict, message):
    answer = check(lm, state, seat, line)
    assert answer.verdict is verdict, answer.message
    assert re.search(message, answer.message), answer.message
    if verdict is not R:
        before = line.rsplit("\n", 1)[0] + "\n" if "\n" in line else ""
        assert check(lm, state, seat, before + answer.canonical).canonical == answer.canonical
    return answer


# -- steam MSP and the operating range (3.2.1.2.2-3.2.1.2.3) ------------------------------------------------------
@pytest.mark.parametrize(("edits", "line", "verdict", "message"), [
    (["army[Channel Fleet].location =London"], 'msp 2 st from "Channel Fleet"', A,
     r"2st become 10 steam MSP .* operating range"),
    (["treasury.steam_msp =8"], "route Holland open from London to Amsterdam 4msp steam", A,
     r"1 zones, 4 steam MSP \(24 effective"),
    (["treasury.steam_msp =8"], "route Morocco open from London to Tangier 4msp steam", R,
     r"operating range of 3 AP \(Tech Level - 10\); this route's stretches are 4"),
    (["treasury.msp =36", "treasury.steam_msp =8"], "route Holland open from London to Amsterdam 4msp", R,
     r"0 MSP are free to allocate \(and 8 steam MSP: add `steam`\)"),
    (["treasury.steam_msp =8"], "route Spain msp +2 steam", A, r"\+2 steam MSP on the route with Spain"),
    (["treasury.steam_msp =8", "nation.tech_level =12"], "route Spain msp +2 steam", R,
     r"operating range of 2 AP \(Tech Level - 10\); this route's stretches are 3"),
    ([], "route Spain msp -2 steam", R, r"has 0 steam MSP"),
])
def test_steam_msp_lines(lm, state, edits, line, verdict, message):
    answer_is(lm, edit(lm, state, "England", *edits), "England", line, verdict, message)


def test_steam_msp_are_counted_apart(lm, state):
    state = edit(lm, state, "England", "army[Channel Fleet].location =London")
    state = resolve(lm, state, {"England": 'msp 2 st from "Channel Fleet"\n'
                                           "route Holland open from London to Amsterdam 4msp steam"})
    england = state.nations["England"]
    assert (england.msp, england.steam_msp, england.route("Holland").steam) == (70, 10, 4)
    assert "**Trade** 70 MSP (32 on routes, 38 free); 10 steam MSP (6 free)" in lm.view(
        state, Viewer.of_seat("England")).sheet


def test_steamships_beyond_coaling_range_go_to_the_gm_with_their_losses(lm, state):
    state = edit(lm, state, "England", "nation.tech_level =11", "army[Channel Fleet].location =Atlantic Ocean")
    state = resolve(lm, state)
    (item,) = rulings(state, "attrition")
    assert ("Channel Fleet (2st) at Atlantic Ocean is 2 AP from its nearest coaling port (Dublin), 1 beyond its "
            "operating range of 1 AP (Tech Level - 10): at 25% an AP it loses 1st") in item
    assert "`edit England army[Channel Fleet].units -1st`" in item


def test_steamships_within_range_and_the_attrition_rate_option(lm, start):
    state = resolve(lm, start())
    assert rulings(state, "attrition") == []                 # the Channel Fleet coals at London
    state = start(**{"steamship-attrition-percent": "100"})
    state = edit(lm, state, "England", "nation.tech_level =11", "army[Channel Fleet].location =Atlantic Ocean")
    assert "at 100% an AP it loses 2st" in rulings(resolve(lm, state), "attrition")[0]


# -- overland trade (7.1.5) ---------------------------------------------------------------------------------------
@pytest.fixture
def offices(lm, state):
    return edit(lm, state, "Hansa", "city[Madrid].status =bo", "city[Cadiz].status =mf")


@pytest.mark.parametrize(("edits", "line", "verdict", "message"), [
    ([], OVERLAND, F, r"overland trade with Spain: Cadiz through Andalusia; Castile to Madrid, 0.5 of at most 3.5 AP "
                      r"by land and 4 sea zones to your Home Office \(length 5\), 5 MSP; every nation the road crosses "
                      r"must permit it"),
    ([], "route Spain overland open from Cadiz via Andalusia; Castile 5msp", F, r"0.5 of at most 3.5 AP"),
    (["city[Madrid].status =mf"], OVERLAND, R, r"Branch Office or better in the landlocked capital"),
    (["city[Cadiz].status =ma"], OVERLAND, R, r"Merchant Factory or better in every city along the road"),
    ([], "route France overland open from Bordeaux 5msp", R, r"contiguous Royal Road or Railroad"),
    (["sea.trade_range =0"], OVERLAND, R, r"at most 0 AP \(Trade Range / 2\)"),
    ([], "route Spain overland open from Cadiz 20msp", R, r"Cadiz bases at most 16"),
])
def test_overland_lines(lm, offices, edits, line, verdict, message):
    answer_is(lm, edit(lm, offices, "Hansa", *edits), "Hansa", line, verdict, message)


def test_overland_trade_is_a_houses(lm, state):
    answer_is(lm, state, "England", "route Spain overland open from Cadiz 5msp", R, r"a Merchant House's")


def test_an_overland_route_opens_and_asks_for_permission_and_income(lm, offices):
    state = resolve(lm, offices, {"Hansa": OVERLAND})
    route = state.nations["Hansa"].route("Spain", kind="overland")
    assert (route.base_port, route.target_port, route.msp, route.length) == ("Cadiz", "Madrid", 5, 5)
    assert state.nations["Hansa"].route("Spain").kind == "sea"                  # its sea route is untouched
    (ask,) = [t for t in rulings(state, "trade") if "overland" in t]
    assert "`edit Hansa route[Spain:overland].income =<GP>`" in ask
    assert "- Spain: overland from Cadiz through Andalusia; Castile to Madrid, 5 MSP, length 5" in \
        lm.view(state, Viewer.of_seat("Hansa")).sheet


# -- aerial trade (2.8.5) ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("edits", "line", "verdict", "message"), [
    ([], "route Spain aerial open 2msp", R, r"aerial MSP come only from Transport Airships"),
    (["treasury.aerial_msp =6"], "route Spain aerial open 2msp", A,
     r"aerial trade with Spain: Hamburg - Madrid \(range 7\), 2 aerial MSP"),
    (["treasury.aerial_msp =6"], "route Spain aerial open 8msp", R, r"6 aerial MSP are free"),
    (["treasury.aerial_msp =6", "nation.tech_level =6"], "route Spain aerial open 2msp", R,
     r"Madrid is beyond your aerial reach: hops of at most 4"),
    (["treasury.aerial_msp =6", "route[Spain:land].income =1"], "route Spain aerial open 2msp", R,
     r"you carry land trade with them"),
    (["army[Hanse Fleet].location =Hamburg", "army[Hanse Fleet].units +1zt"], 'msp 1 zt from "Hanse Fleet"', A,
     r"1zt become \d+ aerial MSP .* for aerial trade only"),
])
def test_aerial_lines(lm, state, edits, line, verdict, message):
    answer_is(lm, edit(lm, state, "Hansa", *edits), "Hansa", line, verdict, message)


def test_aerial_trade_adds_to_sea_trade_with_its_own_msp(lm, state):
    state = edit(lm, state, "Hansa", "treasury.aerial_msp =6")
    state = publish(lm, resolve(lm, state, {"Hansa": "route Spain aerial open 2msp"}))
    state = resolve(lm, state, {"Hansa": "route Spain aerial msp +3"})
    hansa = state.nations["Hansa"]
    assert hansa.route("Spain:aerial").msp == 5 and hansa.route("Spain").msp == 15
    assert "- Spain: aerial, Hamburg - Madrid, 5 aerial MSP" in lm.view(state, Viewer.of_seat("Hansa")).sheet


def test_only_a_house_flies_transport_airships_into_msp(lm, state):
    state = edit(lm, state, "England", "army[Home Army].location =London", "army[Home Army].units +1zt")
    answer_is(lm, state, "England", 'msp 1 zt from "Home Army"', R, r"only a Merchant House")


# -- hands-off trade (2.9) ------------------------------------------------------------------------------------------
@pytest.fixture
def hot(start):
    return start(**{"hands-off-trade": "yes"})


@pytest.mark.parametrize(("seat", "line", "verdict", "message"), [
    ("England", "route Holland open from London to Amsterdam", A, r"MSP by hands-off trade \(LotE 2.9\)"),
    ("England", "route Holland open from London to Amsterdam 5msp", R, r"leave them out"),
    ("Hansa", "route Holland open from Hamburg to Amsterdam", R, r"at least 1 MSP"),
    ("England", "route Spain msp +2", R, r"Intervenes in Mercantile Affairs"),
    ("England", "action Victoria IMA\nroute Spain msp +2", A, r"\+2 MSP on the route with Spain"),
    ("England", "action Wellington IMA", R, r"only the King"),
    ("England", "route Spain msp -4", A, r"1 Heavy Transport at the base port for 4 GP"),
    ("England", "route Spain msp -3", R, r"blocks of 4"),
])
def test_hands_off_lines(lm, hot, seat, line, verdict, message):
    answer_is(lm, hot, seat, line, verdict, message)


def test_intervention_needs_the_option(lm, state):
    answer_is(lm, state, "England", "action Victoria IMA", R, r"for a nation under hands-off trade")


def test_routes_fill_to_their_trade_value_nation_by_nation(lm, hot):
    # England (seat order first): Spain's route holds 27 (TV 19 + 8) less 10 and 8 MSP: +9; France's 47 less 8 and 6:
    # +33; the Hansa's 38 less 10 and 20: +8. Spain and France then find their routes full.
    state = resolve(lm, hot)
    assert "Hands-off trade: the route with Spain +9 MSP (demand: capacity 27, FreeCap 9" in lines(state, "England")
    england = state.nations["England"]
    assert [r.msp for r in england.routes] == [19, 41, 18] and england.msp == 110
    assert "Hands-off trade" not in lines(state, "Spain")
    assert "Hands-off trade" not in lines(state, "Hansa")            # a House keeps the standard system


def test_a_new_hands_off_route_starts_at_nmv_times_its_trade_value(lm, hot):
    state = resolve(lm, hot, {"England": "route Holland open from London to Amsterdam"})
    assert "Trade route to Holland opened from London to Amsterdam with 19 MSP" in lines(state, "England")


def test_removing_hands_off_msp_makes_heavy_transports(lm, hot):
    state = resolve(lm, hot, {"England": "route Spain msp -4"})
    assert state.nations["England"].army("Home Army").units.get("ht") is None
    assert state.nations["England"].army("London Garrison").units["ht"] == 1


def test_hands_off_shipping_comes_from_the_market_not_the_nations_free_msp(lm, hot):
    state = edit(lm, hot, "England", "treasury.msp =28")                 # every MSP already on a route
    assert check(lm, state, "England", "route Holland open from London to Amsterdam").verdict is A
    state = resolve(lm, state, {"England": "route Holland open from London to Amsterdam"})
    assert "Trade route to Holland opened from London to Amsterdam with 19 MSP" in lines(state, "England")
