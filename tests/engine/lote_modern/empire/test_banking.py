"""LotE 6.2 inter-national banking: the worked examples first, then one scenario per rule."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import banking as b
from engine.rulesets.lote_modern.rules.banking import Bank, BankingOptions, Loan


def florence():
    """The 6.2.5 example's bank: 450 GP of capacity, 25% internal and 43% external."""
    return b.set_rates(b.new_bank("Florence", 450), 0.25, 0.43)


def charles_loan(turn=10):
    return b.take_loan(florence(), "Burgundy", 200, turn=turn, outstanding=[], trading_partners={"Burgundy"})


def test_6_2_5_interest_rates_example():
    loan = charles_loan()
    assert loan.rate == 0.43
    assert loan.owed == pytest.approx(286)
    assert b.loan_profit(loan) == pytest.approx(36)
    repaid = b.repay(florence(), loan)
    assert repaid.investment == pytest.approx(3.6)
    assert b.loan_capacity(repaid, 13) == pytest.approx(453.6)


def test_6_2_6_loan_defaults_example():
    loan = charles_loan(turn=10)
    bank, outcome = b.default_on(florence(), [loan], loan.due_turn)
    assert outcome.proportion == pytest.approx(200 / 450)
    assert round(outcome.proportion * 100) == 44
    assert not outcome.collapsed
    rates = [round(b.reduced_tax_rate(1.0, b.tax_rate_reduction([outcome.tax_penalty], "Florence", t)) * 100)
             for t in range(loan.due_turn + 1, loan.due_turn + 5)]
    assert rates == [56, 78, 89, 100]
    assert b.loan_capacity(bank, loan.due_turn) == pytest.approx(250)


def test_6_2_1_loans_fall_due_at_the_beginning_of_the_third_turn():
    loan = charles_loan(turn=7)
    assert loan.due_turn == 10
    assert b.due_loans([loan], 9) == []
    assert b.due_loans([loan], 10) == [loan]


def test_6_2_5_no_compounding_100_at_30_percent_is_130():
    assert b.amount_owed(100, 0.30) == pytest.approx(130)


def test_6_2_5_usual_rates_are_30_and_40_percent():
    bank = b.new_bank("Genoa", 100)
    assert (bank.internal_rate, bank.external_rate) == (0.30, 0.40)


@pytest.mark.parametrize(("internal", "external", "message"), [
    (0.19, 0.40, "below 20%"), (0.30, 0.29, "below the internal rate"), (0.30, 1.01, "above 100%")])
def test_6_2_5_rate_limits(internal, external, message):
    with pytest.raises(RulesError, match=message):
        b.set_rates(b.new_bank("Genoa", 100), internal, external)


def test_6_2_5_the_market_ceiling_is_a_campaign_option():
    bank = b.set_rates(b.new_bank("Genoa", 100), 0.3, 1.5, BankingOptions(max_external_rate_percent=150))
    assert bank.external_rate == 1.5


def test_6_2_5_internal_loans_use_the_internal_rate():
    loan = b.take_loan(b.new_bank("Genoa", 100), "Genoa", 50, turn=1, outstanding=[])
    assert loan.rate == 0.30
    assert loan.owed == pytest.approx(65)


def test_6_2_4_every_10_gp_invested_adds_1_gp_of_capacity():
    bank = b.invest(b.new_bank("Genoa", 100), 55)
    assert b.loan_capacity(bank, 1) == pytest.approx(105.5)


def test_6_2_outstanding_loans_stay_within_capacity():
    bank = b.new_bank("Genoa", 100)
    first = b.take_loan(bank, "Genoa", 70, turn=1, outstanding=[])
    assert b.available_to_lend(bank, [first], 1) == pytest.approx(30)
    with pytest.raises(RulesError, match="only 30 GP left"):
        b.take_loan(bank, "Genoa", 31, turn=1, outstanding=[first])


def test_6_2_3_closed_banks_lend_only_to_their_own_government():
    bank = b.close_bank(b.new_bank("Genoa", 100))
    assert b.bank_status(bank) == "Closed"
    assert b.check_loan(bank, "Genoa", 10, turn=1, outstanding=[]) == []
    problems = b.check_loan(bank, "Milan", 10, turn=1, outstanding=[], trading_partners={"Milan"})
    assert any("Closed" in p for p in problems)


def test_6_2_3_open_banks_lend_only_to_trading_partners_not_barred():
    bank = b.open_bank(b.new_bank("Genoa", 100), closed_to={"Pisa"})
    assert b.check_loan(bank, "Milan", 10, turn=1, outstanding=[], trading_partners={"Milan"}) == []
    assert any("not trading" in p for p in b.check_loan(bank, "Venice", 10, turn=1, outstanding=[]))
    assert any("closed to Pisa" in p for p in b.check_loan(bank, "Pisa", 10, turn=1, outstanding=[],
                                                            trading_partners={"Pisa"}))


def test_6_2_2_usury_leaves_only_the_papacy_lending_abroad_and_catholic_banks_small():
    catholic = b.new_bank("France", 200, catholic=True)
    papacy = b.new_bank("Papacy", 200, catholic=True, papacy=True)
    protestant = b.new_bank("Sweden", 200)
    assert any("Papacy" in p for p in b.check_loan(catholic, "Spain", 5, turn=1, outstanding=[],
                                                    trading_partners={"Spain"}, usury=True))
    assert b.check_loan(papacy, "Spain", 5, turn=1, outstanding=[], trading_partners={"Spain"}, usury=True) == []
    assert b.check_loan(protestant, "France", 5, turn=1, outstanding=[], trading_partners={"France"},
                        usury=True) == []
    assert b.loan_capacity(catholic, 1, usury=True) == pytest.approx(20)
    assert b.loan_capacity(catholic, 1, usury=False) == pytest.approx(200)


def test_6_2_6_defaults_take_the_investment_first_then_the_base_which_recovers():
    bank = b.invest(b.new_bank("Genoa", 100), 200)      # 20 GP of investment
    loan = b.take_loan(bank, "Genoa", 50, turn=1, outstanding=[])
    after, outcome = b.default_on(bank, [loan], 4)
    assert (outcome.investment_lost, outcome.base_lost) == (20, 30)
    assert after.investment == 0
    assert [b.loan_capacity(after, t) for t in (4, 5, 6, 7, 8)] == pytest.approx([70, 70, 85, 92.5, 100])


def test_6_2_6_a_bank_reduced_to_nothing_collapses_and_lends_nothing():
    bank = b.new_bank("Genoa", 100)
    loan = b.take_loan(bank, "Genoa", 100, turn=1, outstanding=[])
    after, outcome = b.default_on(bank, [loan], 4)
    assert outcome.collapsed
    assert b.bank_status(after) == "Defaulted"
    assert b.loan_capacity(after, 5) == 0
    assert any("collapsed" in p for p in b.check_loan(after, "Genoa", 1, turn=5, outstanding=[]))


def test_6_2_6_the_defaulter_may_not_borrow_anywhere_even_at_home():
    bank = b.new_bank("Burgundy", 100)
    problems = b.check_loan(bank, "Burgundy", 10, turn=1, outstanding=[], borrower_in_default=True)
    assert any("penalty payment" in p for p in problems)


def test_6_2_6_tax_penalty_only_on_collapse_is_a_campaign_option():
    options = BankingOptions(tax_penalty_on_any_default=False)
    _, outcome = b.default_on(florence(), [charles_loan()], 13, options=options)
    assert outcome.tax_penalty is None


def test_6_2_6_tax_penalties_from_two_defaults_add_up():
    p1, p2 = b.TaxPenalty("Florence", 0.4, 5), b.TaxPenalty("Florence", 0.2, 6)
    assert b.tax_rate_reduction([p1, p2], "Florence", 7) == pytest.approx(0.2 + 0.2)
    assert b.tax_rate_reduction([p1, p2], "Milan", 7) == 0


def test_6_2_7_penalty_payment_is_twice_the_defaulted_loans():
    loan = charles_loan()
    assert b.penalty_payment([loan]) == pytest.approx(400)
    assert b.penalty_payment([loan], BankingOptions(penalty_on_amount_owed=True)) == pytest.approx(572)


def test_6_2_8_rebuilding_costs_4_gp_per_gp_and_restores_at_the_base_economy_with_boosted_rates():
    bank = b.new_bank("Genoa", 100)
    loan = b.take_loan(bank, "Genoa", 100, turn=1, outstanding=[])
    collapsed, _ = b.default_on(bank, [loan], 4)
    assert b.rebuild_cost(collapsed) == pytest.approx(400)
    part = b.pay_rebuild(collapsed, 250)
    assert b.restore_if_due(part, 9).collapsed
    paid = b.pay_rebuild(part, 150)
    assert b.restore_if_due(paid, 7).collapsed            # not before four turns have passed
    restored = b.restore_if_due(paid, 8, base_capacity=120)
    assert not restored.collapsed
    assert b.loan_capacity(restored, 8) == pytest.approx(120)
    assert (restored.internal_rate, restored.external_rate) == (0.40, 0.50)
    with pytest.raises(RulesError, match="below 30%"):
        b.set_rates(restored, 0.25, 0.5)


def test_6_2_6_automatic_recovery_after_four_turns_is_a_campaign_option():
    bank = b.new_bank("Genoa", 100)
    loan = b.take_loan(bank, "Genoa", 100, turn=1, outstanding=[])
    collapsed, _ = b.default_on(bank, [loan], 4)
    options = BankingOptions(collapse_recovery="automatic")
    assert b.restore_if_due(collapsed, 7, options=options).collapsed
    assert not b.restore_if_due(collapsed, 8, options=options).collapsed


def test_6_2_banks_need_tech_level_8():
    assert not b.has_bank(7)
    assert b.has_bank(8)


def test_bank_and_loan_round_trip_through_json_data():
    import json

    bank = b.default_on(b.invest(florence(), 30), [charles_loan()], 13)[0]
    assert Bank.load(json.loads(json.dumps(bank.dump()))) == bank
    loan = charles_loan()
    assert Loan.load(json.loads(json.dumps(loan.dump()))) == loan
    penalty = b.TaxPenalty("Florence", 0.44, 13)
    assert b.TaxPenalty.load(json.loads(json.dumps(penalty.dump()))) == penalty


def test_6_2_1_settling_a_turn_repays_what_was_paid_and_defaults_the_rest():
    bank = b.new_bank("Genoa", 300)
    paid = b.take_loan(bank, "Genoa", 100, turn=1, outstanding=[], loan_id="L1")
    unpaid = b.take_loan(bank, "Genoa", 60, turn=1, outstanding=[paid], loan_id="L2")
    later = b.take_loan(bank, "Genoa", 10, turn=2, outstanding=[paid, unpaid], loan_id="L3")
    settled = b.settle_due(bank, [paid, unpaid, later], 4, paid={"L1"})
    assert settled.repaid == (paid,) and settled.defaulted == (unpaid,)
    assert settled.outcome.lost == 60
    assert settled.outcome.proportion == pytest.approx(0.2)
    assert b.loan_capacity(settled.bank, 4) == pytest.approx(240)
