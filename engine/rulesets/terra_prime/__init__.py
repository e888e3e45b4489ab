"""Terra Prime v1.5: hex-tile exploration and colonisation for 2-5 players, run entirely by the engine."""

from engine.rulesets.terra_prime.ruleset import TerraPrime

__all__ = ["TerraPrime"]
