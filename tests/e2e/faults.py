"""Failures the loopback Discord injects, chosen by a seeded random.Random (never the global one) or scripted.

Kinds, as a bot sees them from real Discord:
- `lost`: the call is performed, then the connection closes with no answer (a lost response);
- `reset-before` / `reset-after`: the connection is reset (RST) before / after the call is performed;
- `429`: rate limited, with Retry-After, X-RateLimit-* and the `Via` header discord.py needs to retry;
- `500`, `502`, `503`: Discord's edge failing; nothing is performed."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

KINDS = ("lost", "reset-before", "reset-after", "429", "500", "502", "503")
# the routes a bot's posts go through; login, command sync and the gateway are never failed at random
POST_ROUTES = frozenset({"post-message", "create-thread", "thread-member", "get-messages", "active-threads"})
ANSWER_ROUTES = frozenset({"callback", "followup", "edit-original"})


@dataclass
class Faults:
    """Which call fails and how: scripted faults first, then `rate` of the calls on `routes` at random."""

    seed: int = 0
    rate: float = 0.0
    kinds: tuple[str, ...] = KINDS
    routes: frozenset[str] = POST_ROUTES
    injected: Counter[str] = field(default_factory=Counter)
    _script: list[tuple[frozenset[str], str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def script(self, routes: str | set[str] | frozenset[str], kind: str, times: int = 1) -> None:
        """Fail the next `times` calls on these routes with `kind`."""
        assert kind in KINDS, kind
        wanted = frozenset({routes} if isinstance(routes, str) else routes)
        self._script.extend([(wanted, kind)] * times)

    def flaky(self, rate: float, *, seed: int | None = None, kinds: tuple[str, ...] | None = None,
              routes: frozenset[str] | None = None) -> None:
        """Fail about `rate` of the calls from now on (0 turns random failures off)."""
        self.rate = rate
        if seed is not None:
            self.seed, self.rng = seed, random.Random(seed)
        if kinds is not None:
            self.kinds = kinds
        if routes is not None:
            self.routes = routes

    def pick(self, route: str) -> str | None:
        """The failure for this call, if any."""
        for i, (routes, kind) in enumerate(self._script):
            if route in routes:
                del self._script[i]
                self.injected[kind] += 1
                return kind
        if self.rate and route in self.routes and self.rng.random() < self.rate:
            kind = self.rng.choice(self.kinds)
            self.injected[kind] += 1
            return kind
        return None
