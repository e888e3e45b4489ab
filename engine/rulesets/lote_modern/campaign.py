"""Campaign options: this ruleset's own, and the readings the rules modules leave to each campaign.

The rules modules for sections 5-7 list theirs (`actions-…`, `command-…`, `banking-…`, `merchant-…`);
sections 2-4 take their choices as arguments, surfaced here. Decisions: docs/rulesets/lote-modern.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.ruleset import Option, OptionValue
from engine.rulesets.lote_modern.rules import actions, banking, command, industry, merchant, research

OWN = (
    Option("tech-tax-bonus", False, "LotE 2.2.1 (optional): the tax rate is multiplied by 1 + Tech Level/100"),
    Option("reserves", True, "LotE 3.2.2 (optional): Renaissance and Industrial nations build and hold reserves"),
    Option("catholic-usury", False, "LotE 6.2.2: the ban on usury stands: only the Papacy lends abroad, and "
                                    "Catholic banks lend little at home"),
    Option("renaissance-yards", industry.RenaissanceYards.HEAVY_AND_ARTILLERY.value,
           "Which Renaissance units pay yard capacity (their chart has none): heavy and artillery (LotE 3.6), "
           "every unit at the Industrial chart's cost, or none",
           choices=tuple(r.value for r in industry.RenaissanceYards)),
    Option("arrows-both-ways", False, "Sea-zone border arrows cost 2 Trade Range in both directions, not only "
                                      "against the arrow (LotE 2.8.2.1)"),
    Option("research-setback-from", 100, "A failed research roll this high or higher costs an Advance (LotE 4.1)",
           minimum=2, maximum=101),
    Option("research-advances-from", research.AdvancesFrom.SECTION.value,
           "Read each project's Advances from section 4.2 or from Table 8-1 where they differ (the Submarine)",
           choices=tuple(a.value for a in research.AdvancesFrom)),
    Option("city-gpv-gp", 20, "GP to add a GPv to a city (Basic Rulebook 5.7), for a nation's own growth and a "
                              "co-build (LotE 3.3.5)", minimum=0, maximum=1000),
    Option("city-gpv-nfp", 10, "NFP to add a GPv to a city (Basic Rulebook 5.7), for a nation's own growth and a "
                               "co-build (LotE 3.3.5)", minimum=0, maximum=1000),
    Option("hands-off-trade", False, "LotE 2.9 (optional): open nations' merchant shipping follows demand each turn; "
                                     "Merchant Houses keep the standard system"),
    Option("reserves-whole-percent", True, "Divide reserves on a civil war by shares rounded to a whole percent, as "
                                           "the Maori example does (LotE 3.2.2.4)"),
    Option("steamship-attrition-percent", 25, "Steamships lost each AP beyond coaling range, in percent of those "
                                              "left, rounded up (LotE 3.2.1.2.2: \"on the order of 25%\")",
           minimum=0, maximum=100),
)


def options() -> tuple[Option, ...]:
    return (*OWN, *actions.campaign_options(), *command.campaign_options(), *banking.campaign_options(),
            *merchant.campaign_options())


def _values(state_options: Mapping[str, Any]) -> Mapping[str, OptionValue]:
    return {k: v for k, v in state_options.items() if isinstance(v, bool | int | str)}


def banking_options(state_options: Mapping[str, Any]) -> banking.BankingOptions:
    return banking.BankingOptions.from_campaign(_values(state_options))


def merchant_options(state_options: Mapping[str, Any]) -> merchant.MerchantOptions:
    return merchant.MerchantOptions.from_campaign(_values(state_options))


def action_options(state_options: Mapping[str, Any]) -> actions.ActionOptions:
    return actions.ActionOptions.from_campaign(_values(state_options))


def command_options(state_options: Mapping[str, Any]) -> command.CommandOptions:
    return command.CommandOptions.from_campaign(_values(state_options))


def research_rules(state_options: Mapping[str, Any]) -> research.ResearchRules:
    return research.ResearchRules(setback_from=int(state_options.get("research-setback-from", 100)))


def city_gpv_cost(state_options: Mapping[str, Any]) -> tuple[int, int]:
    """GP and NFP of one city GPv (Basic Rulebook 5.7; a campaign option)."""
    return int(state_options.get("city-gpv-gp", 20)), int(state_options.get("city-gpv-nfp", 10))


def advances_from(state_options: Mapping[str, Any]) -> research.AdvancesFrom:
    return research.AdvancesFrom(str(state_options.get("research-advances-from", research.AdvancesFrom.SECTION)))
