"""A nation's accounts, read off its sheet and the map with the rules modules' formulas.

Tax rate, income, upkeep, trade value, the Homeland Build Zone, yard capacity, merchant shipping
basing, conduit anchors and leader action points: everything the order checker, the turn and the
sheet view need, computed the same way for all three.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from engine.core.errors import RulesError
from engine.rulesets.lote_modern import campaign, statuses
from engine.rulesets.lote_modern.rules import (
    actions,
    banking,
    economy,
    industry,
    mercantile,
    merchant,
    military,
    research,
    trade,
)
from engine.rulesets.lote_modern.rules.tech import Culture, Terrain
from engine.rulesets.lote_modern.rules.tech import tax_rate as rules_tax_rate
from engine.rulesets.lote_modern.sheet import Army, CityHolding, Leader, Nation, RegionHolding, fold
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.world import CampaignMap, City

GENERIC = "generic"
PORT_TYPE_MODIFIER = 1.5      # decided from the 2.3.1 example (a port city's type modifier is 1.5)
PWB_PER_GPV = 10              # decided: 10 GP of public works yield like one GPv (see the notes)
NATION_TYPES = {"open": trade.NationType.OPEN_NATION, "merchant": trade.NationType.MERCHANT_HOUSE,
                "primacy": trade.NationType.RELIGIOUS_PRIMACY, "order": trade.NationType.RELIGIOUS_ORDER,
                "secret": trade.NationType.SECRET_EMPIRE}


def culture(n: Nation) -> Culture:
    return Culture.parse(n.culture)


def terrain(code: str) -> Terrain:
    return Terrain.parse(code)


# -- the calendar -------------------------------------------------------------------------------
def turn_length(state: GameState) -> economy.YearLength:
    """Years per turn and the Base Tax Rate at the campaign's date (LotE 2.6, Table 2-9)."""
    return economy.year_length(state.year)


def years(state: GameState) -> float:
    return float(turn_length(state).years)


def date_text(year: int, month: int) -> str:
    return f"{actions.MONTHS[month - 1]} {year}" if month != 1 else str(year)


def advance_date(state: GameState) -> None:
    """Move the date on by one turn's length."""
    months = int(turn_length(state).years * 12)
    total = state.year * 12 + (state.month - 1) + months
    state.year, state.month = divmod(total, 12)
    state.month += 1


# -- territory ------------------------------------------------------------------------------------
def held_regions(n: Nation, world: CampaignMap) -> set[str]:
    """Regions the nation controls: held regions and regions of cities it holds on the open-nation ladder
    (a Merchant House's agents and offices do not carry its Homeland Build Zone)."""
    out = {h.region for h in n.regions}
    out.update(world.cities[c.city].region for c in n.cities
               if c.city in world.cities and statuses.get(c.status).ladder == "nation")
    return out


def home_region(n: Nation, world: CampaignMap) -> str | None:
    """Where the Homeland Build Zone starts: the capital, the Home Office, else the homeland (LotE 7.2.6)."""
    office = next((c.city for c in n.cities if c.status == "ho"), None)
    for city in (n.capital, office):
        if city and city in world.cities:
            return world.cities[city].region
    return n.homeland or None


def hbz(state: GameState, n: Nation) -> set[str]:
    """Regions within the Homeland Build Zone: `hbz_range` region steps through held regions from the capital,
    a step along the nation's own railroad costing a quarter (decided; LotE 3.4.3)."""
    world = state.world
    start = home_region(n, world)
    if start is None:
        return set()
    held = held_regions(n, world)
    rails = {frozenset((s.a, s.b)) for s in n.railroads if s.levels > 0}
    best = {start: 0.0}
    frontier = [start]
    while frontier:
        frontier.sort(key=lambda r: best[r])
        here = frontier.pop(0)
        for nxt in world.regions[here].neighbours:
            if nxt not in held:
                continue
            step = 0.25 if frozenset((here, nxt)) in rails else 1.0
            cost = best[here] + step
            if cost <= n.hbz_range and cost < best.get(nxt, math.inf):
                best[nxt] = cost
                frontier.append(nxt)
    return set(best)


def city_status(n: Nation, city: str) -> str | None:
    holding = n.city(city)
    return holding.status if holding else None


def is_friendly(code: str | None) -> bool:
    return code is not None and statuses.get(code).friendly


def friendly_cities_in_hbz(state: GameState, n: Nation, zone: set[str] | None = None) -> list[CityHolding]:
    zone = hbz(state, n) if zone is None else zone
    world = state.world
    return [c for c in n.cities if is_friendly(c.status) and world.cities[c.city].region in zone]


def cents(amount: float) -> float:
    """Money to the hundredth, halves rounded up (1.915 GP is 1.92, not the float's 1.91)."""
    return float(Decimal(repr(round(amount, 6))).quantize(Decimal("0.01"), ROUND_HALF_UP))


# -- tax rate and income --------------------------------------------------------------------------
@dataclass(slots=True)
class Ledger:
    """Lines of an account and their total."""

    lines: list[tuple[str, float]] = field(default_factory=list)

    def add(self, label: str, amount: float) -> None:
        if amount:
            self.lines.append((label, cents(amount)))

    @property
    def total(self) -> float:
        return cents(sum(a for _, a in self.lines))


def tax_rate(state: GameState, n: Nation) -> float:
    """The tax rate (LotE 2.2.1, 2.6, 3.5), cut by any bank-collapse penalty (6.2.6)."""
    length = turn_length(state)
    tech = n.tech_level if state.options.get("tech-tax-bonus") else None
    rate = rules_tax_rate(length.base_tax_rate, Fraction(str(n.tax_adjustment)), Fraction(str(n.agro_modifier)),
                          Fraction(str(n.infra_modifier)), uwm=n.has_completed("uwm"), tech_level=tech)
    reduction = banking.tax_rate_reduction(state.tax_penalties, n.name, state.turn)
    return banking.reduced_tax_rate(rate, reduction)


def status_multiple(code: str, state: GameState | None = None) -> float:
    """The share of a location's value a status collects; a House's Table 7-1 share follows the campaign."""
    if state is not None and statuses.is_merchant(code):
        return merchant.tax_share(code, campaign.merchant_options(state.options))
    return statuses.get(code).tax


def regional_income(state: GameState, n: Nation) -> Ledger:
    """Revenue before the tax rate: regions (2.3.2), cities and public works, Merchant House sites (Table 7-1),
    and trade routes as the GM assessed them."""
    world, cult = state.world, culture(n)
    ledger = Ledger()
    silk = fur = 0
    values = []
    for h in n.regions:
        region = world.regions[h.region]
        multiple = status_multiple(h.status, state)
        value = economy.regional_value(region.gpv + h.pwb / PWB_PER_GPV, status_multiple=multiple,
                                       terrain=terrain(region.terrain), culture=cult)
        values.append(value)
        if status_multiple(h.status, state) > 0:
            silk += "silk-road" in region.features
            fur += "fur-line" in region.features
    ledger.add("regions", economy.regional_income(values, silk_road_regions=silk, fur_line_regions=fur))
    kinds = {"cities": 0.0, "Cartel Cities": 0.0, "House sites": 0.0}
    for c in n.cities:
        value = (world.cities[c.city].gpv + c.pwb / PWB_PER_GPV) * status_multiple(c.status, state)
        kind = "cities" if not statuses.is_merchant(c.status) else "Cartel Cities" if c.status == "ci" else \
            "House sites"
        kinds[kind] += value
    for label, value in kinds.items():
        ledger.add(label, value)
    routes = [r for r in n.routes if r.open]
    ledger.add("trade routes", sum(r.income for r in routes))
    ledger.add("cartel trade", sum(c.income for c in state.carried_by(n.name)))
    return ledger


def nfp_income(state: GameState, n: Nation) -> int:
    """NFP raised this turn: the sheet's figure, scaled like the tax rate (decided: it comes from the basic rules)."""
    return round(n.nfp_income * float(turn_length(state).base_tax_rate) / 0.2) if n.nfp_income else 0


def income(state: GameState, n: Nation) -> tuple[Ledger, float]:
    """The revenue ledger and the GP it yields at this turn's tax rate."""
    ledger = regional_income(state, n)
    return ledger, round(ledger.total * tax_rate(state, n), 2)


def trade_value(state: GameState, n: Nation) -> float:
    """ITV: the sum of City Trade Values (LotE 2.3.1), less monopolies granted away, plus monopolies held (7.1.1)."""
    world, cult = state.world, culture(n)
    ctvs = []
    for c in n.cities:
        info = statuses.get(c.status)
        adds = merchant.adds_trade_value(c.status, campaign.merchant_options(state.options)) \
            if statuses.is_merchant(c.status) else info.trade
        if not adds:
            continue
        city = world.cities[c.city]
        ctvs.append(economy.city_trade_value(
            city.gpv, city_type_modifier=PORT_TYPE_MODIFIER if city.port else 1.0, city_status_modifier=1.0,
            terrain=terrain(world.regions[city.region].terrain), culture=cult))
    value = economy.international_trade_value(ctvs)
    value -= sum(1 for m in state.monopolies if m.nation == n.name)
    value += sum(1 for m in state.monopolies if m.house == n.name)
    return value


# -- upkeep --------------------------------------------------------------------------------------------
def army_terrain(world: CampaignMap, army: Army) -> Terrain | None:
    """The terrain an army stands in; None at sea."""
    key = world.canonical(army.location)
    if key is None or key in world.zones:
        return None
    return terrain(world.region_of(key).terrain)


def unit_support(n: Nation, world: CampaignMap, army: Army, code: str, count: int, scale: Fraction) -> float:
    """Troop support for some units of an army (LotE 2.3.3); export units are cargo and pay none (decided)."""
    if code.startswith("("):
        return 0.0
    place = army_terrain(world, army) or Terrain.CULTIVATED
    return count * _support_each(code, n.culture, place, army.status, scale)


@functools.lru_cache(maxsize=4096)
def _support_each(code: str, culture_code: str, place: Terrain, status: str, scale: Fraction) -> float:
    try:
        return economy.unit_troop_support(code, 1, culture=Culture.parse(culture_code), terrain=place,
                                          army_status=status, year_scale=scale)
    except RulesError:
        return 0.0


def upkeep(state: GameState, n: Nation) -> Ledger:
    """Support owed at the start of the turn: troops (2.3.3, scaled 2.6) and a House's shipping (7.3.6)."""
    scale = economy.support_scale(state.year)
    ledger = Ledger()
    troops = sum(unit_support(n, state.world, army, code, count, scale)
                 for army in n.armies for code, count in army.units.items())
    ledger.add("troop support", troops)
    if n.is_house:
        ledger.add("merchant shipping support", merchant.msp_support(n.msp, turn_factor=float(scale)))
    for label, amount in brokerage_upkeep(state, n):
        ledger.add(label, amount)
    return ledger


def brokerage_upkeep(state: GameState, n: Nation) -> list[tuple[str, float]]:
    """What a broker owes its mercenary pools this turn: 0.5 GP a unit, scaled like all support (LotE 7.1.4)."""
    if not n.is_house:
        return []
    scale = float(economy.support_scale(state.year))
    options = campaign.merchant_options(state.options)
    out = []
    for name in n.brokerages:
        pool = state.world.pool(name)
        if pool is not None:
            units = sum(pool.units.values())
            out.append((f"brokerage {pool.name} ({units} units)",
                        mercantile.brokerage_upkeep(units, turn_factor=scale, options=options)))
    return out


def unsupported_codes(n: Nation) -> list[str]:
    """Unit codes on the sheet that the nation's build chart does not know (they pay no support)."""
    try:
        chart = military.build_chart(culture(n))
    except RulesError:
        return []
    return sorted({c for a in n.armies for c in a.units if not c.startswith("(") and c.upper() not in chart})


def loans_due(state: GameState, n: Nation) -> list[banking.Loan]:
    return [x for x in banking.due_loans(state.loans, state.turn) if x.borrower == n.name]


# -- yards --------------------------------------------------------------------------------------------------
def yard_capacity(state: GameState, n: Nation) -> dict[tuple[str, str], int]:
    """Capacity by (place, kind): each Friendly city of the HBZ has GPv x 5 generic (Table 3-9), and factory and
    yard points give their own kind where they stand (3.6); a House's Cartel Cities count outside the HBZ (7.6)."""
    zone = hbz(state, n)
    world = state.world
    out: dict[tuple[str, str], int] = {}
    for c in n.cities:
        city = world.cities[c.city]
        in_zone = city.region in zone and is_friendly(c.status)
        house_site = n.is_house and merchant.at_least(c.status if statuses.is_merchant(c.status) else None, "ci")
        if not (in_zone or house_site):
            # A slave economy works captured factories and yards in its HBZ, Friendly or not (LotE 3.6.5).
            if n.economy == "slave" and city.region in zone:
                for kind, points in list(c.factories.items()) + list(c.hidden.items()):
                    key = (c.city, GENERIC if kind == "industry" else kind)
                    out[key] = out.get(key, 0) + points
            continue
        out[(c.city, GENERIC)] = industry.intrinsic_yard_capacity(industry.YardSource.CITY, gpv=city.gpv)
        for kind, points in list(c.factories.items()) + list(c.hidden.items()):
            key = (c.city, GENERIC if kind == "industry" else kind)
            out[key] = out.get(key, 0) + points
    for h in n.regions:
        if h.region not in zone:
            continue
        for kind, points in list(h.factories.items()) + list(h.hidden.items()):
            out[(h.region, kind)] = out.get((h.region, kind), 0) + points
    return out


def yard_kind(code: str, cult: Culture) -> str:
    """Which capacity a unit's yard cost draws on (chart 8.6): its factory or yard, else a city's generic yard
    (a port city's generic capacity serves ships and land units alike, Table 3-9)."""
    pool = industry.yard_pool(code, cult)
    return GENERIC if pool in (industry.YardPool.PORT, industry.YardPool.CITY) else pool.value


def yard_cost(code: str, cult: Culture, state: GameState) -> int:
    """Yard points one unit takes (LotE 3.6); Renaissance units follow the campaign's `renaissance_yards`."""
    reading = industry.RenaissanceYards(state.options.get("renaissance-yards", "heavy-and-artillery"))
    return industry.unit_yard_cost(code, cult, renaissance=reading)


# -- shipping and conduits -----------------------------------------------------------------------------------
def sea_map(world: CampaignMap) -> trade.SeaMap:
    links = [(k.a, k.b) for k in world.links]
    arrows = [(k.a, k.b) for k in world.links if k.b_to_a > k.a_to_b] + \
             [(k.b, k.a) for k in world.links if k.a_to_b > k.b_to_a]
    ports = {c.name: c.zones for c in world.cities.values() if c.port and c.zones}
    hostile = [z.name for z in world.zones.values() if z.hostile]
    return trade.SeaMap.build(links, ports, arrows=arrows, hostile=hostile)


def sea_access(state: GameState, n: Nation) -> trade.SeaAccess:
    """Zones a nation may trace through: charted ones and those it has mapped (LotE 2.8.2.1, 5.2.2)."""
    zones = state.world.zones.values()
    charted = {z.name for z in zones if z.mapping == 0} | set(n.charts)
    unknown = {z.name for z in zones if z.mapping > 0 and z.name not in n.charts}
    return trade.SeaAccess(mapped=frozenset(charted), unknown=frozenset(unknown),
                           arrows_both_ways=bool(state.options.get("arrows-both-ways", False)))


def anchor_ok(state: GameState, n: Nation, city_name: str) -> bool:
    """A port city of this nation that can anchor a conduit (Table 2-12)."""
    holding = n.city(city_name)
    city = state.world.cities.get(city_name)
    if holding is None or city is None or not city.port:
        return False
    kind = trade.PortKind.PORT_CITY if city.kind == "city" else trade.PortKind.PORT_FORTRESS
    info = statuses.get(holding.status)
    if info.ladder == "nation":
        return trade.anchor_qualifies(NATION_TYPES[n.type], national_status=holding.status, kind=kind)
    return kind is trade.PortKind.PORT_CITY and info.anchor


def anchors(state: GameState, n: Nation) -> set[str]:
    return {c.city for c in n.cities if anchor_ok(state, n, c.city)}


def origins(state: GameState, n: Nation) -> set[str]:
    """Origination ports: anchors joined to the capital or homeland by held land (2.8.3.1); a House's Home
    Office and Branch Offices or better (7.2)."""
    world = state.world
    start = home_region(n, world)
    held = held_regions(n, world)
    linked: set[str] = set()
    if start is not None:
        linked, frontier = {start}, [start]
        while frontier:
            here = frontier.pop()
            for nxt in world.regions[here].neighbours:
                if nxt in held and nxt not in linked:
                    linked.add(nxt)
                    frontier.append(nxt)
    out = set()
    for city in anchors(state, n):
        status = statuses.get(n.city(city).status)  # type: ignore[union-attr]
        if status.ladder == "merchant" or world.cities[city].region in linked:
            out.add(city)
    return out


def basing_share(state: GameState, n: Nation, city: str) -> float:
    """A nation's share of a port's basing: halved when the city is Tributary to two nations (2.8.3.2)."""
    holders = [m for m in state.nations.values() if (h := m.city(city)) is not None and h.status == "T"]
    return 1 / len(holders) if len(holders) > 1 and n in holders else 1.0


def basing_limit(state: GameState, n: Nation, city: str) -> float:
    """MSP this nation may base at a port (LotE 2.7): 20 x GPv x the status's tax share."""
    holding = n.city(city)
    info = state.world.cities.get(city)
    if holding is None or info is None or not info.port or not statuses.get(holding.status).base:
        return 0.0
    multiple = status_multiple(holding.status)
    if holding.status == "T":
        return trade.msp_basing_limit(info.gpv, share=basing_share(state, n, city))
    return trade.msp_basing_limit(info.gpv, status_multiple=multiple)


def msp_based(state: GameState, n: Nation, port: str, *, leaving: str = "") -> int:
    """MSP this nation bases at a port: its open routes' and the cartel routes it carries (LotE 2.7, 7.1.3)."""
    routes = sum(r.msp for r in n.routes if r.open and fold(r.base_port) == fold(port) and r.partner != leaving)
    return routes + sum(c.msp for c in state.carried_by(n.name) if fold(c.base_port) == fold(port))


def msp_free(state: GameState, n: Nation) -> int:
    """Merchant shipping not allocated to a route (nor, for a House, to the cartel routes it carries); aerial MSP
    are apart (LotE 2.8.5)."""
    on_routes = sum(r.msp for r in n.routes if r.open and r.kind != "aerial")
    return n.msp - on_routes - sum(c.msp for c in state.carried_by(n.name))


def steam_free(n: Nation) -> int:
    """Steam Transport MSP not allocated to a route (LotE 3.2.1.2.3)."""
    return max(0, n.steam_msp - sum(r.steam for r in n.routes if r.open and r.kind != "aerial"))


def aerial_free(n: Nation) -> int:
    """Aerial MSP not allocated to an aerial route (LotE 2.8.5)."""
    return max(0, n.aerial_msp - sum(r.msp for r in n.routes if r.open and r.kind == "aerial"))


# -- leaders ----------------------------------------------------------------------------------------------
def leader_ap(state: GameState, n: Nation, leader: Leader) -> int:
    """AP a leader has this turn: his actions a year (LotE 5.1) times the years in the turn, at least one
    (decided); the sheet's `ap` overrides."""
    if leader.ap is not None:
        return leader.ap
    return max(1, int(leader_actions_a_year(state, n, leader) * years(state)))


def leader_actions_a_year(state: GameState, n: Nation, leader: Leader) -> int:
    """LotE 5.1: a leader alone acts at his own capacity; commanding an army he acts in tandem with it, at the
    pace of its slowest unit (each moved by his Combat rating) when that is faster than his own."""
    options = campaign.action_options(state.options)
    own = actions.leader_action_capacity(n.culture, options)
    army = leader_army(n, leader)
    force = [capacity for code, count in (army.units.items() if army else ()) if count > 0
             if (capacity := _unit_capacity(n, code, leader.combat, options)) is not None]
    return actions.leader_in_tandem(own, actions.force_action_capacity(force)) if force else own


def _unit_capacity(n: Nation, code: str, combat: int, options: actions.ActionOptions) -> int | None:
    """A unit's actions a year under this commander, or None for what 5.1 does not pace (forts, airships...)."""
    try:
        profile = actions.unit_profile(code.strip("()"))
        return actions.unit_action_capacity(n.culture, profile, navigation=n.navigation, leader_combat=combat,
                                            options=options)
    except RulesError:
        return None


def leader_army(n: Nation, leader: Leader) -> Army | None:
    return next((a for a in n.armies if fold(a.leader) == fold(leader.name)), None)


def troop_points(units: dict[str, int]) -> float:
    """Infantry and cavalry points in a set of units (for DCL, LotE 5.2.5)."""
    total = 0.0
    for code, count in units.items():
        profile = actions.unit_profile(code.strip("()"))
        if profile.kind in ("infantry", "cavalry") and not code.startswith("("):
            total += count
    return total


def places_named(world: CampaignMap, names: Iterable[str]) -> list[City]:
    return [world.cities[x] for x in names if x in world.cities]


def holding_of(n: Nation, world: CampaignMap, place: str) -> RegionHolding | CityHolding | None:
    key = world.canonical(place)
    if key is None:
        return None
    return n.city(key) if key in world.cities else n.region(key)


def research_key(name: str) -> str | None:
    """An R&D project's key (LotE 4.2) from its key or name, ignoring case, spaces and the bracketed unit."""
    wanted = fold(name).replace(" ", "_").replace("-", "_")
    if wanted == "uwm":
        return None
    for key, project in research.research_projects().items():
        names = {key, fold(project.name).replace(" ", "_"), fold(project.name.split(" (")[0]).replace(" ", "_")}
        if wanted in names:
            return key
    return None
