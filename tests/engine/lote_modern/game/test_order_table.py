"""The order table: every kind of LotE order has exactly one handler, named in one place."""

from __future__ import annotations

from engine.rulesets.lote_modern.handlers import HANDLERS, ORDER_KINDS, leaders
from engine.rulesets.lote_modern.rules import actions_codes, merchant_actions


def test_every_order_kind_has_a_handler_and_nothing_else_does() -> None:
    assert set(HANDLERS) == set(ORDER_KINDS)
    assert len(ORDER_KINDS) == 32


def test_a_rules_module_refusal_is_a_refusal_with_its_reason(lm, state):
    """The order loop is the one place a rules module's `RulesError` becomes a refused line."""
    (check,) = lm.check(state, "England", "build 1 zz at London")
    assert check.verdict == "rejected" and "zz" in check.message.lower()


def test_every_action_code_of_the_supplement_has_its_handler_in_the_code_table() -> None:
    new_codes = {c.code.upper() for c in actions_codes.action_codes()}
    house_codes = {a.code.upper() for a in merchant_actions.merchant_actions()}
    assert set(leaders.ACTION_CODES) == new_codes | house_codes | {"IMA"}
    assert set(leaders.MERCHANT_TARGETS) <= {c.lower() for c in house_codes}


def test_a_code_outside_the_table_goes_to_the_gm_with_the_ap_the_player_gives(lm, state):
    king = state.nation("England").leaders[0].name
    refused, flagged = lm.check(state, "England", f"action {king} DIP Spain\naction {king} DIP Spain 2ap")
    assert refused.verdict == "rejected" and "say how many AP it takes" in refused.message
    assert flagged.verdict == "flagged" and "Basic Rulebook" in flagged.message
