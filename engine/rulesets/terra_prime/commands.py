"""Canonical text forms of every Terra Prime action: parse and format back to the same text.

    move 12        explore 14      orient 3        collect         colonize green | colonize field
    deliver green green red        shuttle red     install shield  upgrade cryo    refill
    scan 17        pass            discard blue    fight           negotiate green blue
    ignore         lose weapon     produce yellow
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import IllegalAction
from engine.core.numbers import is_count
from engine.rulesets.terra_prime.data import rules

NUMBERED = ("move", "explore", "orient", "scan")
BARE = ("collect", "refill", "pass", "fight", "ignore")
CUBES = ("deliver", "shuttle", "negotiate")
COLOURED = ("discard", "produce")
NAMED = ("colonize", "install", "upgrade", "lose")
VERBS = NUMBERED + BARE + CUBES + COLOURED + NAMED
_COUNT = re.compile(r"^([0-9]{1,9})x?$")


@dataclass(frozen=True, slots=True)
class Command:
    verb: str
    number: int = 0
    name: str = ""
    cubes: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Command:
        """The action a text names, in any spacing or case; IllegalAction names the forms it knows. `text()` gives
        it back in canonical form."""
        words = text.lower().replace(",", " ").split()
        if not words:
            raise IllegalAction("no action given")
        verb, rest = words[0], words[1:]
        if verb == "colonise":
            verb = "colonize"
        if verb not in VERBS:
            raise IllegalAction(f"`{words[0]}` is not a Terra Prime action (actions: {', '.join(VERBS)})")
        if verb in BARE:
            if rest:
                raise IllegalAction(f"`{verb}` takes nothing after it")
            return cls(verb)
        if verb in NUMBERED:
            if len(rest) != 1 or not is_count(rest[0]):
                raise IllegalAction(f"`{verb}` takes one number, e.g. `{verb} 4`")
            return cls(verb, number=int(rest[0]))
        if verb in CUBES:
            cubes = _cubes(rest)
            if not cubes:
                raise IllegalAction(f"`{verb}` needs the cubes, e.g. `{verb} green red`")
            return cls(verb, cubes=cubes)
        name = "-".join(rest)
        allowed = _names()[verb]
        if name not in allowed:
            raise IllegalAction(f"`{verb}` takes one of: {', '.join(sorted(allowed))}")
        return cls(verb, name=name)

    def text(self) -> str:
        if self.verb in NUMBERED:
            return f"{self.verb} {self.number}"
        if self.verb in CUBES:
            return " ".join((self.verb, *self.cubes))
        if self.verb in COLOURED or self.verb in NAMED:
            return f"{self.verb} {self.name}"
        return self.verb


def sort_cubes(cubes: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    order = rules().resource_keys
    return tuple(sorted(cubes, key=order.index))


def _names() -> dict[str, set[str]]:
    data = rules()
    colours = set(data.resource_keys)
    return {
        "colonize": colours | {"field"},
        "install": {m.key for m in data.modules},
        "upgrade": {t.step for t in data.tech},
        "lose": {m.key for m in data.modules},
        "discard": colours,
        "produce": colours,
    }


def _cubes(words: list[str]) -> tuple[str, ...]:
    """``green green red`` or ``2 green, red`` -> sorted resource keys."""
    colours = set(rules().resource_keys)
    out: list[str] = []
    repeat = 1
    for word in words:
        if m := _COUNT.match(word):
            repeat = int(m.group(1))
            if not 1 <= repeat <= 20:
                raise IllegalAction(f"`{word}` is not a sensible number of cubes")
            continue
        if word not in colours:
            raise IllegalAction(f"`{word}` is not a resource colour ({', '.join(rules().resource_keys)})")
        out.extend([word] * repeat)
        repeat = 1
    return sort_cubes(out)


def parse(text: str) -> Command:
    """Read an action (`Command.parse`)."""
    return Command.parse(text)
