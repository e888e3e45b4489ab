"""The order table: every kind of LotE order has exactly one handler, named in one place."""

from __future__ import annotations

from engine.rulesets.lote_modern.handlers import HANDLERS, ORDER_KINDS


def test_every_order_kind_has_a_handler_and_nothing_else_does() -> None:
    assert set(HANDLERS) == set(ORDER_KINDS)
    assert len(ORDER_KINDS) == 32


def test_a_rules_module_refusal_is_a_refusal_with_its_reason(lm, state):
    """The order loop is the one place a rules module's `RulesError` becomes a refused line."""
    (check,) = lm.check(state, "England", "build 1 zz at London")
    assert check.verdict == "rejected" and "zz" in check.message.lower()
