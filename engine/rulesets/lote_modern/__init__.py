"""Lords of the Earth: The Modern Era: stat sheets, the order form, turn processing, GM rulings, newsletters.

The supplement's tables and formulas are in `rules/` (pure functions over plain values); this package
is the ruleset that uses them. Notes and decisions: docs/rulesets/lote-modern.md.
"""

from engine.rulesets.lote_modern.ruleset import LotEModern

__all__ = ["LotEModern"]
