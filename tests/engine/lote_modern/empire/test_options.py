"""The campaign options sections 5-7 expose, and the outcomes lote-game applies after a ruling."""

import pytest

from engine.rulesets.lote_modern.rules import actions, actions_codes, banking, command, merchant
from engine.rulesets.lote_modern.rules import merchant_actions as ma
from engine.rulesets.lote_modern.rules.merchant import Holding, Monopoly

from .fixed_dice import FixedDice

MODULES = [(actions, actions.ActionOptions), (banking, banking.BankingOptions), (merchant, merchant.MerchantOptions),
           (command, command.CommandOptions)]


@pytest.mark.parametrize(("module", "kind"), MODULES)
def test_every_option_defaults_to_the_rules_reading_and_reads_back(module, kind):
    options = module.campaign_options()
    assert kind.from_campaign({o.name: o.default for o in options}) == kind()
    assert all(o.help and len(o.help) <= 100 for o in options)
    assert len({o.name for o in options}) == len(options)


def test_a_campaign_value_reaches_the_rule():
    values = {o.name: o.parse(raw) for o in banking.campaign_options()
              for name, raw in [("banking-profit-basis", "interest")] if o.name == name}
    options = banking.BankingOptions.from_campaign(values)
    loan = banking.Loan("Florence", "Burgundy", 200, 0.43, 0.25, 1)
    assert banking.loan_profit(loan, options) == pytest.approx(86)


def test_option_names_do_not_collide_across_sections():
    names = [o.name for module, _ in MODULES for o in module.campaign_options()]
    assert len(names) == len(set(names))


def test_7_4_6_acquiring_a_granted_monopoly_secures_it_from_revocation():
    granted = Monopoly("KEAC", "Judah")
    assert merchant.may_revoke(granted)
    secured = merchant.secure_monopoly(granted)
    assert not merchant.may_revoke(secured)
    assert Monopoly.load(secured.dump()) == secured


def test_7_4_5_a_successful_colony_action_plants_a_colony():
    place = ma.Place("Transkei", False)
    assert ma.apply_status_action("ecl", "KEAC", place).holdings == (Holding("KEAC", "cl"),)


def test_2_8_1_renaissance_navigators_get_no_help_in_the_straits_of_magellan():
    strait = actions_codes.MappingProgress("Straits of Magellan", "Sea Zone", 12)
    renaissance = actions_codes.explore_ruling(strait, leader="Drake", charisma=8, navigation=3, hostile=True, ships=5,
                                         culture="R", straits_of_magellan=True, dice=FixedDice(10))
    industrial = actions_codes.explore_ruling(strait, leader="Drake", charisma=8, navigation=3, hostile=True, ships=5,
                                        culture="I1", straits_of_magellan=True)
    assert dict(renaissance.factors)["Navigation Rating"] == "0"
    assert dict(industrial.factors)["Navigation Rating"] == "3"
