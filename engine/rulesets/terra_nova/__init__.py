"""Terra Nova: colonising the New World from 1496, five years a turn, with the East Indies expansion."""

from engine.rulesets.terra_nova.ruleset import TerraNova

__all__ = ["TerraNova"]
