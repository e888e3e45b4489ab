"""Two full turns of the example campaign (four nations, the Hansa a Merchant House), through the public
contract only: seats from the sheets, order checks, resolution, the GM's rulings and edits, publication."""

from __future__ import annotations

import json

import pytest

from engine.core import IllegalAction, OrderError, Verdict, Viewer, Window
from tests.engine.lote_modern.game.conftest import FixedDice, accepted

GM = Viewer.gm()

TURN_1 = {
    "England": """
        build 4 i at London
        build 2 ha at London              # heavy artillery: generic yard capacity
        research steam_cruiser 20gp 1nfp  # P001 is under way
        conduit Portsmouth to Gibraltar
        route Holland open from London to Amsterdam 5msp
        action Franklin EX "Atlantic Ocean" 4ap
        bank rates 30% 45%
        note We court the Dutch.""",
    "France": """
        research airships 60gp 2nfp at Paris
        fund P002 30gp 15nfp
        build 6 i at Paris
        borrow 100gp from England""",
    "Spain": """
        build 5 i at Madrid
        build 2 ha at Madrid""",
    "Hansa": """
        action Hanssen AA Antwerp 3gp
        construct mercantile-industry 1 at Danzig
        build 2 (ha) at Danzig
        route Spain msp +5""",
}


def rule_all(lm, state, *, public=()):
    for item in list(state.report.rulings):
        prefix = "public " if item.id in public else ""
        state = lm.act(state, GM, f"rule {item.id} {prefix}Ruling on #{item.id}.", FixedDice()).state
    return state


def roundtrip(lm, state):
    data = lm.dump(state)
    json.dumps(data)
    again = lm.load(data)
    assert lm.dump(again) == data
    return again


def test_two_turns_of_the_example_campaign(lm, sheets_text, map_text, state):
    # Set-up: the seats are the nations of the sheets file.
    assert lm.seat_rule({}, {"sheets": sheets_text, "map": map_text}).names == ("England", "France", "Spain", "Hansa")
    phase = lm.phase(state)
    assert phase.window is Window.ORDERS and phase.waiting == {"England", "France", "Spain", "Hansa"}
    assert phase.key == "1:orders"

    # Turn 1: every line of the order forms is understood.
    orders = {seat: accepted(lm, state, seat, text) for seat, text in TURN_1.items()}
    assert [len(v) for v in orders.values()] == [8, 4, 2, 4]
    assert orders["England"][2] == "research steam_cruiser 20gp 1nfp"
    dice = FixedDice({"England/research/P001": [1], "France/research/P001": [99]})
    step = lm.resolve(roundtrip(lm, state), orders, dice)
    state = step.state
    assert lm.phase(state).window is Window.GM and lm.phase(state).key == "1:rulings"
    assert [e.visibility.label() for e in step.events] == ["gm"]
    kinds = [r.kind for r in state.report.rulings]
    assert kinds.count("action") == 2 and "note" in kinds and "trade" in kinds

    # The mechanical part was done for everyone.
    england, hansa = state.nations["England"], state.nations["Hansa"]
    assert england.has_completed("steam_cruiser")
    assert england.units_at("London")["ca"] == 1                     # the prototype (LotE 4.2.3)
    assert any(loan.borrower == "France" and loan.principal == 100 for loan in state.loans)
    assert hansa.units_at("Danzig")["(ha)"] == 2                     # export units, written in parentheses
    assert england.conduit("Portsmouth", "Gibraltar") is not None

    # Publication waits for every ruling.
    with pytest.raises(IllegalAction, match="still need a ruling"):
        lm.act(state, GM, "publish", FixedDice())
    with pytest.raises(OrderError, match="orders are closed"):
        lm.check(state, "England", "build 1 i at London")
    hansa_aa = next(r.id for r in state.report.rulings if "Acquire Agent" in r.text)
    state = rule_all(lm, state, public={hansa_aa})
    state = lm.act(state, GM, 'edit Hansa city[Antwerp].status =ma "the agent is installed"', FixedDice()).state
    state = lm.act(state, GM, "news The Great Exhibition opens in London.", FixedDice()).state
    step = lm.act(roundtrip(lm, state), GM, "publish", FixedDice())
    state = step.state

    results = [e for e in step.events if e.kind == "result"]
    assert sorted(next(iter(e.visibility.seats)) for e in results) == ["England", "France", "Hansa", "Spain"]
    assert all(not e.visibility.public and len(e.visibility.seats) == 1 for e in results)
    letter = next(e for e in step.events if e.kind == "newsletter")
    assert letter.visibility.public
    assert "The Great Exhibition opens in London." in letter.text and f"Ruling on #{hansa_aa}." in letter.text
    england_result = next(e.text for e in results if "England" in e.visibility.seats)
    assert "Steam Cruiser COMPLETE" in england_result and "## England" in england_result
    assert state.turn == 2 and state.year == 1846 and lm.phase(state).key == "2:orders"
    assert state.nations["Hansa"].city("Antwerp").status == "ma"

    # Turn 2: Spain's loan from England falls due and is paid first (LotE 6.2.1).
    spain_gp = state.nations["Spain"].gp
    checks = lm.check(state, "Spain", f"build {int(spain_gp // 3)} i at Madrid")
    assert checks[0].verdict is Verdict.REJECTED and "loans due" in checks[0].message
    turn_2 = {
        "England": "build 1 ca at London\ninvest bank 50gp",
        "France": "research airships 20gp",
        "Spain": "build 2 i at Madrid",
        "Hansa": "action Hanssen EMF Antwerp",
    }
    orders = {seat: accepted(lm, state, seat, text) for seat, text in turn_2.items()}
    assert all(orders.values())
    capacity = state.nations["England"].bank.investment
    state = lm.resolve(state, orders, FixedDice()).state
    spain = state.nations["Spain"]
    assert not [x for x in state.loans if x.borrower == "Spain"]
    assert any("Loan L1 repaid to England: 140 GP." in line for line in state.report.lines["Spain"])
    # The profit (45% - 30% internal on 100 GP... here 40% - 30% = 10 GP) and 50 GP invested: +1 and +5 capacity.
    assert state.nations["England"].bank.investment == pytest.approx(capacity + 1 + 5)
    assert spain.units_at("Madrid")["i"] == 7
    state = rule_all(lm, state)
    state = lm.act(state, GM, "publish", FixedDice()).state
    assert state.turn == 3 and state.year == 1847 and state.stage == "orders"
    assert len(state.newsletters) == 2
    roundtrip(lm, state)
