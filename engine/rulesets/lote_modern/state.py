"""The campaign state: the date, every nation's sheet, the map, the loans and monopolies between
nations, and, between resolution and publication, the turn being processed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import RulesError
from engine.core.records import from_data, record_data, record_from_data, to_data
from engine.rulesets.lote_modern.rules.banking import Loan, TaxPenalty
from engine.rulesets.lote_modern.sheet import Nation, fold
from engine.rulesets.lote_modern.world import CampaignMap

STAGES = ("orders", "rulings", "ended")


@dataclass(slots=True)
class Monopoly:
    """A monopoly a Merchant House holds in a nation's economy (LotE 7.1.1)."""

    id: int
    house: str
    nation: str
    good: str = ""
    kind: str = "granted"


@dataclass(slots=True)
class Cartel:
    """Cartel trade (LotE 7.1.3): a Merchant House carries one nation's sea trade with a target nation.

    `status`: granted (the nation gave the rights, the House has not opened it), open (the House carries it:
    its MSP, ports, length and the GM-assessed income), revoked (rights withdrawn this turn)."""

    id: int
    house: str
    nation: str
    target: str
    status: str = "granted"
    turn: int = 0
    nation_port: str = ""
    target_port: str = ""
    base_port: str = ""
    msp: int = 0
    length: int = 0
    conduits: list[str] = field(default_factory=list)
    income: float = 0.0


@dataclass(slots=True)
class Ruling:
    """Something the GM must rule on after the mechanical part of a turn."""

    id: int
    nation: str
    kind: str
    text: str
    rolls: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    parties: list[str] = field(default_factory=list)
    ruling: str = ""
    public: bool = False
    ruled: bool = False
    brief: str = ""  # what the nation that caused it is told the item is (the GM's text may hold GM-only hints)


@dataclass(slots=True)
class TurnReport:
    """A processed turn waiting for the GM: what the bot did for each nation, and what needs ruling."""

    turn: int
    lines: dict[str, list[str]] = field(default_factory=dict)
    rulings: list[Ruling] = field(default_factory=list)
    news: list[str] = field(default_factory=list)
    orders: dict[str, list[str]] = field(default_factory=dict)
    rolls: dict[str, list[str]] = field(default_factory=dict)

    def ruling(self, rid: int) -> Ruling:
        for r in self.rulings:
            if r.id == rid:
                return r
        raise RulesError(f"no ruling #{rid} this turn (open: {', '.join(str(r.id) for r in self.open()) or 'none'})")

    def open(self) -> list[Ruling]:
        return [r for r in self.rulings if not r.ruled]


@dataclass(slots=True)
class AuditEntry:
    """A GM change to a sheet or the map, kept for the record."""

    turn: int
    nation: str
    text: str


@dataclass(slots=True)
class GameState:
    """The whole campaign."""

    title: str
    year: int
    month: int
    turn: int
    nations: dict[str, Nation]
    world: CampaignMap
    stage: str = "orders"
    options: dict[str, Any] = field(default_factory=dict)
    loans: list[Loan] = field(default_factory=list)
    defaults: list[Loan] = field(default_factory=list)
    tax_penalties: list[TaxPenalty] = field(default_factory=list)
    monopolies: list[Monopoly] = field(default_factory=list)
    cartels: list[Cartel] = field(default_factory=list)
    report: TurnReport | None = None
    audit: list[AuditEntry] = field(default_factory=list)
    newsletters: list[str] = field(default_factory=list)
    pending_news: list[str] = field(default_factory=list)
    next_id: int = 1
    grown: list[str] = field(default_factory=list)   # cities that gained their one GPv this turn (LotE 3.3.5)

    @property
    def seats(self) -> list[str]:
        return list(self.nations)

    def nation(self, name: str) -> Nation:
        for key, nation in self.nations.items():
            if fold(key) == fold(name):
                return nation
        raise RulesError(f"no nation `{name}` (nations: {', '.join(self.nations)})")

    def find_nation(self, name: str) -> Nation | None:
        return next((n for k, n in self.nations.items() if fold(k) == fold(name)), None)

    def take_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def loans_of(self, name: str) -> list[Loan]:
        return [x for x in self.loans if name in (x.lender, x.borrower)]

    def in_default(self, name: str) -> bool:
        """Whether a nation has defaulted and not yet made its penalty payment (LotE 6.2.6-6.2.7)."""
        return any(x.borrower == name for x in self.defaults)

    def loan(self, key: str) -> Loan:
        for x in self.loans:
            if fold(x.id) == fold(key.lstrip("#")):
                return x
        raise RulesError(f"no outstanding loan `{key}`")

    def monopolies_of(self, name: str) -> list[Monopoly]:
        return [m for m in self.monopolies if name in (m.house, m.nation)]

    def cartels_of(self, name: str) -> list[Cartel]:
        """Cartel arrangements a nation is party to, as the House or as the Cartel nation (not the target)."""
        return [c for c in self.cartels if name in (c.house, c.nation)]

    def carried_by(self, house: str) -> list[Cartel]:
        """The cartel routes a House carries now."""
        return [c for c in self.cartels if c.house == house and c.status == "open"]

    # -- persistence -----------------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        out = record_data(self)
        out["nations"] = [to_data(n) for n in self.nations.values()]   # a list, in the sheets' order
        return out

    @classmethod
    def load(cls, raw: dict[str, Any]) -> GameState:
        nations = [from_data(Nation, n) for n in raw["nations"]]
        return record_from_data(cls, raw, nations={n.name: n for n in nations}, month=raw.get("month", 1))
