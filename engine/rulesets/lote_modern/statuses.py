"""Control statuses: the open-nation ladder, Merchant House sites (Table 7-1) and religious sites."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from engine.core.tables import load_data
from engine.rulesets.lote_modern.rules import merchant

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
    out: dict[str, Status] = {}
    for s in load_data(PACKAGE, "data/statuses.toml")["status"]:
        if s["ladder"] == "merchant":
            # Table 7-1 belongs to section 7: taxes, NFP, trade and basing come from rules/merchant.py.
            code = s["code"]
            out[code] = Status(code, s["name"], "merchant", s["rank"], merchant.tax_share(code),
                               merchant.nfp_share(code) > 0, merchant.adds_trade_value(code),
                               merchant.can_anchor_conduit(code), merchant.can_base_msp(code), s["friendly"])
        else:
            out[s["code"]] = Status(s["code"], s["name"], s["ladder"], s["rank"], float(s["tax"]), s["nfp"],
                                    s["trade"], s["anchor"], s["base"], s["friendly"])
    return out


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
