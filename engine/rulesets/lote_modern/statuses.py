"""Control statuses: the open-nation ladder, Merchant House sites (Table 7-1) and religious sites."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from engine.core.tables import load_data

PACKAGE = "engine.rulesets.lote_modern"
LADDER_OF_TYPE = {"merchant": "merchant", "primacy": "primacy", "order": "order"}
CITY_ONLY = frozenset({"bo", "ci", "ho"})


@dataclass(frozen=True, slots=True)
class Status:
    code: str
    name: str
    ladder: str
    rank: int
    tax: float
    nfp: bool
    trade: bool
    anchor: bool
    base: bool
    friendly: bool


@functools.cache
def all_statuses() -> dict[str, Status]:
    raw = load_data(PACKAGE, "data/statuses.toml")["status"]
    return {s["code"]: Status(s["code"], s["name"], s["ladder"], s["rank"], float(s["tax"]), s["nfp"], s["trade"],
                              s["anchor"], s["base"], s["friendly"]) for s in raw}


def get(code: str) -> Status:
    return all_statuses()[code]


def parse(text: str) -> str | None:
    """The canonical code for a status written in any case, or its full name."""
    t = text.strip()
    for code, status in all_statuses().items():
        if t == code or t.casefold() == code.casefold() or t.casefold() == status.name.casefold():
            return code
    return None


def is_merchant(code: str) -> bool:
    return get(code).ladder == "merchant"


def allowed_for(code: str, nation_type: str) -> bool:
    """Whether a nation of this type may hold this status (its own ladder, or the open-nation one)."""
    ladder = get(code).ladder
    return ladder == "nation" or LADDER_OF_TYPE.get(nation_type) == ladder


def at_least(code: str, minimum: str) -> bool:
    """`code` is `minimum` or stronger on the same ladder."""
    a, b = get(code), get(minimum)
    return a.ladder == b.ladder and a.rank >= b.rank


def help_text() -> str:
    return ", ".join(all_statuses())
