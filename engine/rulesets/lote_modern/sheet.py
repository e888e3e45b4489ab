"""A nation's stat sheet (LotE 2, 8.1): typed records, with look-ups by name that ignore case.

A sheet is private to its nation. Loans and monopolies join two nations, so they are kept once
on the game state (see `state.py`) and shown on both parties' sheets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.banking import Bank

NATION_TYPES = ("open", "merchant", "primacy", "order", "secret")
NATION_TYPE_NAMES = {"open": "Open Nation", "merchant": "Merchant House", "primacy": "Religious Primacy",
                     "order": "Religious Order", "secret": "Secret Empire"}
CULTURES = ("P", "N", "B", "C", "S", "R", "I1", "I2", "I3")
CULTURE_NAMES = {"P": "Pre-Columbian", "N": "Nomadic", "B": "Barbarian", "C": "Civilized", "S": "Seafaring",
                 "R": "Renaissance", "I1": "Industrial One", "I2": "Industrial Two", "I3": "Industrial Three"}
INDUSTRIAL = ("I1", "I2", "I3")
QR_KINDS = ("cavalry", "infantry", "warship", "siege", "artillery", "airship", "submarine")
ARMY_STATUSES = ("A", "B", "C", "E", "G", "M", "N", "P", "R", "S")
LEADER_TITLES = ("king", "heir", "prince", "lieutenant", "leader")
ALLEGIANCES = ("national", "allied", "mercenary")
FACTORY_KINDS = ("airship", "steamship", "submarine", "industry")
PROJECT_KINDS = ("rd", "factory", "railroad", "uwm", "colony", "improve", "cobuild", "other")
ROUTE_KINDS = ("sea", "land", "rail", "aerial", "overland")
GOVERNMENTS_FOR_HOUSES = ("oligarchy", "dictatorship")          # LotE 7.3.3
SOCIETIES_FOR_HOUSES = ("clan", "caste", "open")                 # LotE 7.3.1
ECONOMIES_FOR_HOUSES = ("guild", "free")                         # LotE 7.3.2

_UNITS = re.compile(r"^([0-9]{1,9})\s*(\(?[a-z]+\)?)$")


def parse_units(text: str) -> dict[str, int]:
    """``10i 5c 2(ha)`` → {"i": 10, "c": 5, "(ha)": 2}; codes are build-chart codes in lower case."""
    out: dict[str, int] = {}
    for token in text.replace(",", " ").split():
        m = _UNITS.match(token.strip().lower())
        if not m:
            raise RulesError(f"`{token}` is not a count and a unit code, like 10i or 2(ha)")
        code = m[2]
        if code.startswith("(") != code.endswith(")"):
            raise RulesError(f"`{token}`: an export unit is written in parentheses, like 2(ha)")
        out[code] = out.get(code, 0) + int(m[1])
    return {c: n for c, n in out.items() if n}


def format_units(units: dict[str, int]) -> str:
    """The canonical text of a set of units, in the order they were listed."""
    return " ".join(f"{n}{code}" for code, n in units.items() if n) or "none"


def fold(name: str) -> str:
    return name.strip().casefold()


@dataclass(slots=True)
class RegionHolding:
    """A region on the sheet: its control status and what the nation built there."""

    region: str
    status: str
    pwb: float = 0.0
    factories: dict[str, int] = field(default_factory=dict)
    hidden: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class CityHolding:
    """A city on the sheet: its control status, public works and factories or yards."""

    city: str
    status: str
    pwb: float = 0.0
    factories: dict[str, int] = field(default_factory=dict)
    hidden: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Army:
    """An army or garrison: where it is, its status (Table 2-4) and its units by build-chart code."""

    name: str
    location: str
    status: str = "N"
    units: dict[str, int] = field(default_factory=dict)
    leader: str = ""


@dataclass(slots=True)
class Leader:
    """A leader and his ratings. `ap` overrides the action points the chart would give."""

    name: str
    title: str = "leader"
    allegiance: str = "national"
    combat: int = 5
    admin: int = 5
    charisma: int = 5
    diplomacy: int = 5
    age: int = 30
    location: str = ""
    ap: int | None = None


@dataclass(slots=True)
class Project:
    """A project: R&D (advances) or construction (GP, NFP and years until done) (LotE 3, 4)."""

    id: str
    kind: str
    name: str
    location: str = ""
    gp: float = 0.0
    nfp: int = 0
    years: float = 0.0
    gp_cost: float = 0.0
    nfp_cost: int = 0
    years_cost: float = 0.0
    advances: int = 0
    advances_needed: int = 0
    level: int = 1
    done: bool = False
    host: str = ""
    overreach: bool = False
    assisted: int = 0
    hidden: bool = False


@dataclass(slots=True)
class Conduit:
    """A trade conduit between two anchor port cities through known sea zones (LotE 2.8.3)."""

    a: str
    b: str
    zones: list[str] = field(default_factory=list)
    kind: str = "sea"

    @property
    def key(self) -> str:
        return f"{self.a}-{self.b}"


@dataclass(slots=True)
class TradeRoute:
    """A trade route to a partner. `income` is the GM's assessment per turn (Basic Rulebook trade)."""

    partner: str
    kind: str = "sea"
    base_port: str = ""
    target_port: str = ""
    msp: int = 0
    length: int = 0
    conduits: list[str] = field(default_factory=list)
    income: float = 0.0
    cartel_for: str = ""
    open: bool = True
    steam: int = 0          # of `msp`, those converted from Steam Transports (LotE 3.2.1.2.3)

    @property
    def label(self) -> str:
        """The partner, with the kind when it is not sea trade (a House may add aerial to sea trade, 2.8.5)."""
        return self.partner if self.kind == "sea" else f"{self.partner} ({self.kind})"


@dataclass(slots=True)
class RailSegment:
    """A railroad between two adjacent regions, with its capacity levels (LotE 3.4)."""

    a: str
    b: str
    levels: int = 1


@dataclass(slots=True)
class Nation:
    """One nation's stat sheet."""

    name: str
    type: str = "open"
    culture: str = "R"
    tech_level: int = 8
    religion: str = ""
    religious_strength: int = 1
    society: str = ""
    economy: str = ""
    government: str = ""
    capital: str = ""
    homeland: str = ""
    bureaucratic_level: int = 1
    imperial_size: int = 1
    hbz_range: int = 4
    nmv: float = 0.0
    qr: dict[str, int] = field(default_factory=dict)
    navigation: int = 0
    trade_range: int = 0
    conduit_limit: int = 0
    gp: float = 0.0
    nfp: int = 0
    nfp_income: int = 0
    tax_adjustment: float = 1.0
    agro_modifier: float = 1.0
    infra_modifier: float = 1.0
    regions: list[RegionHolding] = field(default_factory=list)
    cities: list[CityHolding] = field(default_factory=list)
    armies: list[Army] = field(default_factory=list)
    reserves: dict[str, int] = field(default_factory=dict)
    leaders: list[Leader] = field(default_factory=list)
    projects: list[Project] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)
    completed_on: dict[str, int] = field(default_factory=dict)
    invested: dict[str, float] = field(default_factory=dict)
    bank: Bank | None = None
    routes: list[TradeRoute] = field(default_factory=list)
    conduits: list[Conduit] = field(default_factory=list)
    msp: int = 0
    steam_msp: int = 0      # of `msp`, those converted from Steam Transports (LotE 3.2.1.2.3)
    aerial_msp: int = 0     # aMSP from Transport Airships, for aerial trade only (LotE 2.8.5)
    railroads: list[RailSegment] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)
    mapping: dict[str, int] = field(default_factory=dict)
    brokerages: list[str] = field(default_factory=list)
    notes: str = ""

    # -- look-ups -----------------------------------------------------------------------
    @property
    def is_house(self) -> bool:
        return self.type == "merchant"

    @property
    def industrial(self) -> bool:
        return self.culture in INDUSTRIAL

    def region(self, name: str) -> RegionHolding | None:
        return next((r for r in self.regions if fold(r.region) == fold(name)), None)

    def city(self, name: str) -> CityHolding | None:
        return next((c for c in self.cities if fold(c.city) == fold(name)), None)

    def army(self, name: str) -> Army | None:
        return next((a for a in self.armies if fold(a.name) == fold(name)), None)

    def leader(self, name: str) -> Leader | None:
        return next((x for x in self.leaders if fold(x.name) == fold(name)), None)

    def king(self) -> Leader | None:
        return next((x for x in self.leaders if x.title == "king"), None)

    def project(self, key: str) -> Project | None:
        """A project by id, or an unfinished one by name."""
        by_id = next((p for p in self.projects if fold(p.id) == fold(key)), None)
        return by_id or next((p for p in self.projects if fold(p.name) == fold(key) and not p.done), None)

    def route(self, partner: str, kind: str | None = None) -> TradeRoute | None:
        """A route by partner (`Spain`), or by partner and kind (`Spain:aerial`, or `kind=`); sea routes first."""
        if kind is None and ":" in partner:
            partner, _, kind = partner.partition(":")
        found = [r for r in self.routes if fold(r.partner) == fold(partner) and (kind is None or r.kind == fold(kind))]
        return next((r for r in found if r.kind == "sea"), found[0] if found else None)

    def conduit(self, a: str, b: str) -> Conduit | None:
        pair = {fold(a), fold(b)}
        return next((c for c in self.conduits if {fold(c.a), fold(c.b)} == pair), None)

    def has_completed(self, project: str) -> bool:
        return fold(project) in {fold(p) for p in self.completed}

    def next_project_id(self) -> str:
        used = {p.id for p in self.projects}
        n = len(self.projects) + 1
        while f"P{n:03d}" in used:
            n += 1
        return f"P{n:03d}"

    def factory_points(self, kind: str) -> int:
        """Finished factory or yard points of one kind, anywhere."""
        return sum(h.factories.get(kind, 0) + h.hidden.get(kind, 0) for h in self.holdings())

    def holdings(self) -> Iterable[RegionHolding | CityHolding]:
        yield from self.regions
        yield from self.cities

    def units_at(self, place: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for army in self.armies:
            if fold(army.location) == fold(place):
                for code, n in army.units.items():
                    out[code] = out.get(code, 0) + n
        return out
