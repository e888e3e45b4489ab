"""Freeform: any GM-run campaign. Free-text orders, GM-written results, the campaign's own map."""

from engine.rulesets.freeform.ruleset import Freeform

__all__ = ["Freeform"]
