"""The `sheets` upload: the campaign date and every nation's stat sheet, in TOML with CSV blocks.

The format is documented with a complete example in docs/rulesets/lote-modern.md ("The sheets file").
Each `[[nation]]` is one seat. `check_sheets` validates a file on its own; `validate_against_map`
checks every name a sheet uses against the campaign map once both are known.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.errors import RulesError, UploadError
from engine.rulesets.lote_modern import statuses
from engine.rulesets.lote_modern.accounts import research_key
from engine.rulesets.lote_modern.files import Fields, Source, Where, load_toml, rows, suggest
from engine.rulesets.lote_modern.rules.banking import Bank, Loan
from engine.rulesets.lote_modern.rules.research import research_projects
from engine.rulesets.lote_modern.sheet import (
    ALLEGIANCES,
    ARMY_STATUSES,
    CULTURES,
    ECONOMIES_FOR_HOUSES,
    FACTORY_KINDS,
    GOVERNMENTS_FOR_HOUSES,
    LEADER_TITLES,
    NATION_TYPES,
    PROJECT_KINDS,
    QR_KINDS,
    ROUTE_KINDS,
    SOCIETIES_FOR_HOUSES,
    Army,
    CityHolding,
    Conduit,
    Leader,
    Nation,
    Project,
    RailSegment,
    RegionHolding,
    TradeRoute,
    fold,
    parse_units,
)
from engine.rulesets.lote_modern.state import Cartel, Monopoly
from engine.rulesets.lote_modern.world import CampaignMap

MAX_NATIONS = 60
NATION_KEYS = (
    "name", "type", "culture", "tech_level", "religion", "religious_strength", "society", "economy",
    "government", "capital", "homeland", "bureaucratic_level", "imperial_size", "hbz_range", "nmv",
    "navigation", "trade_range", "conduit_limit", "gp", "nfp", "nfp_income", "tax_adjustment", "agro_modifier",
    "infra_modifier", "msp", "steam_msp", "aerial_msp", "charts", "completed", "notes", "brokerages",
    "qr", "reserves", "invested", "bank", "mapping",
    "regions", "cities", "armies", "leaders", "projects", "routes", "conduits", "railroads", "loans", "monopolies",
    "cartels",
)
HOLDING_COLUMNS = ("status", "pwb", *FACTORY_KINDS, *(f"hidden_{k}" for k in FACTORY_KINDS))
ARMY_COLUMNS = ("name", "location", "status", "leader", "units")
LEADER_COLUMNS = ("name", "title", "allegiance", "combat", "admin", "charisma", "diplomacy", "age", "location", "ap")
PROJECT_COLUMNS = ("id", "kind", "name", "location", "gp", "nfp", "years", "gp_cost", "nfp_cost", "years_cost",
                   "advances", "advances_needed", "level", "done", "host", "overreach", "assisted", "hidden")
ROUTE_COLUMNS = ("partner", "kind", "base_port", "target_port", "msp", "length", "conduits", "income",
                 "cartel_for", "open", "steam")
CONDUIT_COLUMNS = ("a", "b", "zones", "kind")
RAIL_COLUMNS = ("a", "b", "levels")
LOAN_COLUMNS = ("id", "lender", "principal", "rate", "turn", "status")
MONOPOLY_COLUMNS = ("nation", "good", "kind")
CARTEL_COLUMNS = ("nation", "target", "nation_port", "target_port", "base_port", "msp", "length", "income", "status")


@dataclass(slots=True)
class SheetsFile:
    """What a sheets file holds."""

    title: str
    year: int
    month: int
    turn: int
    nations: dict[str, Nation]
    loans: list[Loan] = field(default_factory=list)
    defaults: list[Loan] = field(default_factory=list)
    monopolies: list[Monopoly] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    cartels: list[Cartel] = field(default_factory=list)


def parse_sheets(text: str, name: str = "sheets") -> SheetsFile:
    """Read and validate a sheets file on its own (names of places are checked later, against the map)."""
    raw = load_toml(name, text)
    source = Source(name, text)
    top = Fields(raw, Where(name, None, "top level"))
    campaign = Fields(top.table("campaign"), Where(name, source.table("campaign"), "[campaign]"))
    title = campaign.text("title", "Lords of the Earth: The Modern Era", limit=100)
    year = campaign.integer("year", 1500, minimum=1000, maximum=2100)
    month = campaign.integer("month", 1, minimum=1, maximum=12)
    turn = campaign.integer("turn", 1, minimum=1, maximum=10_000)
    campaign.done()
    entries = top.tables("nation")
    top.done()
    if not entries:
        raise UploadError(f"{name}: no nations: write one [[nation]] table per nation")
    if len(entries) > MAX_NATIONS:
        raise UploadError(f"{name}: at most {MAX_NATIONS} nations")
    starts = source.headers("nation")
    nations: dict[str, Nation] = {}
    lines: dict[str, int] = {}
    loans: list[Loan] = []
    defaults: list[Loan] = []
    monopolies: list[Monopoly] = []
    cartels: list[Cartel] = []
    for i, entry in enumerate(entries):
        start = starts[i] if i < len(starts) else 1
        end = starts[i + 1] - 1 if i + 1 < len(starts) else None
        label = str(entry.get("name", f"#{i + 1}"))
        reader = _NationReader(source, entry, start, end, label)
        nation = reader.nation()
        if fold(nation.name) in {fold(n) for n in nations}:
            raise reader.f.error("name", f"nation `{nation.name}` is listed twice")
        nations[nation.name] = nation
        lines[nation.name] = start
        loans.extend(reader.loans)
        defaults.extend(reader.defaults)
        monopolies.extend(reader.monopolies)
        cartels.extend(reader.cartels)
    out = SheetsFile(title, year, month, turn, nations, loans, defaults, monopolies, lines, cartels)
    _cross_check(out, name)
    return out


class _NationReader:
    def __init__(self, source: Source, raw: dict[str, Any], start: int, end: int | None, label: str) -> None:
        self.source = source
        self.raw = raw
        self.start, self.end = start, end
        self.where = Where(source.name, start, f"[[nation]] \"{label}\"")
        self.f = Fields(raw, self.where)
        self.loans: list[Loan] = []
        self.defaults: list[Loan] = []
        self.monopolies: list[Monopoly] = []
        self.cartels: list[Cartel] = []

    def sub(self, key: str) -> Fields:
        line = self.source.table(f"nation.{key}") or self.source.key(key, self.start, self.end)
        return Fields(self.f.table(key), Where(self.source.name, line, f"{self.where.what} {key}"))

    def rows(self, key: str, columns: tuple[str, ...]) -> list[Fields]:
        self.f.read.add(key)
        return rows(self.source, self.raw, key, what=self.where.what, start=self.start, end=self.end,
                    columns=columns)

    def nation(self) -> Nation:
        f = self.f
        n = Nation(name=f.name("name"))
        n.type = f.choice("type", NATION_TYPES, "open")
        n.culture = f.choice("culture", CULTURES, fold=True)
        n.tech_level = f.integer("tech_level", minimum=1, maximum=25)
        n.religion = f.text("religion", "")
        n.religious_strength = f.integer("religious_strength", 1, minimum=0, maximum=10)
        n.society = f.text("society", "").lower()
        n.economy = f.text("economy", "").lower()
        n.government = f.text("government", "").lower()
        if n.is_house:
            for key, value, allowed, rule in (("society", n.society, SOCIETIES_FOR_HOUSES, "7.3.1"),
                                              ("economy", n.economy, ECONOMIES_FOR_HOUSES, "7.3.2"),
                                              ("government", n.government, GOVERNMENTS_FOR_HOUSES, "7.3.3")):
                if value and value not in allowed:
                    raise f.error(key, f"a Merchant House's {key} is {' or '.join(allowed)} (LotE {rule})")
        n.capital = f.text("capital", "")
        n.homeland = f.text("homeland", "")
        n.bureaucratic_level = f.integer("bureaucratic_level", 1, minimum=0, maximum=20)
        n.imperial_size = f.integer("imperial_size", 1, minimum=0, maximum=100)
        n.hbz_range = f.integer("hbz_range", 4, minimum=0, maximum=50)
        n.nmv = f.number("nmv", 0.0, minimum=0, maximum=10)
        n.navigation = f.integer("navigation", 0, minimum=0, maximum=20)
        n.trade_range = f.integer("trade_range", 0, minimum=0, maximum=30)
        n.conduit_limit = f.integer("conduit_limit", 0, minimum=0, maximum=20)
        n.gp = f.number("gp", 0.0, minimum=-1_000_000, maximum=1_000_000)
        n.nfp = f.integer("nfp", 0, minimum=0, maximum=100_000)
        n.nfp_income = f.integer("nfp_income", 0, minimum=0, maximum=10_000)
        n.tax_adjustment = f.number("tax_adjustment", 1.0, minimum=0, maximum=5)
        n.agro_modifier = f.number("agro_modifier", 1.0, minimum=0, maximum=5)
        n.infra_modifier = f.number("infra_modifier", 1.0, minimum=0, maximum=5)
        n.msp = f.integer("msp", 0, minimum=0, maximum=100_000)
        n.steam_msp = f.integer("steam_msp", 0, minimum=0, maximum=n.msp)
        n.aerial_msp = f.integer("aerial_msp", 0, minimum=0, maximum=100_000)
        n.charts = f.names("charts")
        n.completed = self.completed(f.names("completed"))
        n.brokerages = f.names("brokerages")
        n.notes = f.text("notes", "", limit=2000)
        n.qr = self.qr()
        n.reserves = self.counts("reserves")
        n.invested = self.floats("invested")
        n.mapping = {k: int(v) for k, v in self.floats("mapping").items()}
        n.bank = self.bank(n)
        n.regions = [RegionHolding(r.name("region"), self.status(r, is_city=False), *self.works(r))
                     for r in self.rows("regions", ("region", *HOLDING_COLUMNS))]
        n.cities = [CityHolding(c.name("city"), self.status(c, is_city=True), *self.works(c))
                    for c in self.rows("cities", ("city", *HOLDING_COLUMNS))]
        n.armies = [self.army(r) for r in self.rows("armies", ARMY_COLUMNS)]
        n.leaders = [self.leader(r) for r in self.rows("leaders", LEADER_COLUMNS)]
        n.projects = [self.project(n, r) for r in self.rows("projects", PROJECT_COLUMNS)]
        n.routes = [self.route(r) for r in self.rows("routes", ROUTE_COLUMNS)]
        n.conduits = [self.conduit(r) for r in self.rows("conduits", CONDUIT_COLUMNS)]
        n.railroads = [RailSegment(r.name("a"), r.name("b"), r.integer("levels", 1, minimum=1, maximum=20))
                       for r in self.rows("railroads", RAIL_COLUMNS)]
        for r in self.rows("loans", LOAN_COLUMNS):
            loan, defaulted = self.loan(n.name, r)
            (self.defaults if defaulted else self.loans).append(loan)
        for r in self.rows("monopolies", MONOPOLY_COLUMNS):
            if not n.is_house:
                raise r.error("nation", "only a Merchant House holds monopolies (LotE 7.1.1)")
            self.monopolies.append(Monopoly(0, n.name, r.name("nation"), r.text("good", ""),
                                            r.choice("kind", ("granted", "acquired"), "granted")))
            r.done()
        for r in self.rows("cartels", CARTEL_COLUMNS):
            if not n.is_house:
                raise r.error("nation", "cartel trade is carried by a Merchant House (LotE 7.1.3)")
            self.cartels.append(Cartel(
                0, n.name, r.name("nation"), r.name("target"), r.choice("status", ("open", "granted"), "open"), 0,
                r.text("nation_port", ""), r.text("target_port", ""), r.text("base_port", ""),
                r.integer("msp", 0, minimum=0), r.integer("length", 0, minimum=0, maximum=200), [],
                r.number("income", 0.0, minimum=0)))
            r.done()
        f.done()
        self.check_names(n)
        return n

    def completed(self, names: list[str]) -> list[str]:
        """Completed R&D projects by key (LotE 4.2), and `uwm` for Universal Weights and Measures (3.5)."""
        out = []
        for name in names:
            key = "uwm" if fold(name) in ("uwm", "uw&m") else research_key(name)
            if key is None:
                raise self.f.error("completed", f"`{name}` is not an R&D project ({', '.join(research_projects())}) "
                                                "or uwm")
            out.append(key)
        return out

    def qr(self) -> dict[str, int]:
        sub = self.sub("qr")
        out = {}
        for key in sub.raw:
            if key not in QR_KINDS:
                hint = " (keys written after a [nation.qr] header belong to it: move them above)" \
                    if key in NATION_KEYS else suggest(key, QR_KINDS)
                raise sub.error(key, f"not a quality rating ({', '.join(QR_KINDS)}){hint}")
            out[key] = sub.integer(key, minimum=0, maximum=60)
        return out

    def counts(self, key: str) -> dict[str, int]:
        sub = self.sub(key)
        out = {}
        for code in sub.raw:
            try:
                parsed = parse_units(f"1{code}")
            except RulesError as exc:
                raise sub.error(code, str(exc)) from None
            out[next(iter(parsed))] = sub.integer(code, minimum=0, maximum=100_000)
        return out

    def floats(self, key: str) -> dict[str, float]:
        sub = self.sub(key)
        return {k: sub.number(k, minimum=0) for k in sub.raw}

    def bank(self, n: Nation) -> Bank | None:
        """The national bank (LotE 6.2); rates are written in percent."""
        if "bank" not in self.raw:
            return None
        sub = self.sub("bank")
        catholic = "catholic" in n.religion.casefold()
        collapsed = sub.integer("collapsed_turn", 0, minimum=0) if sub.has("collapsed_turn") else None
        bank = Bank(n.name, sub.number("base_capacity", 0.0, minimum=0),
                    investment=sub.number("investment", 0.0, minimum=0),
                    internal_rate=sub.integer("internal_rate", 30, minimum=0, maximum=200) / 100,
                    external_rate=sub.integer("external_rate", 40, minimum=0, maximum=200) / 100,
                    open=sub.choice("status", ("open", "closed"), "open") == "open",
                    closed_to=frozenset(sub.names("closed_to")), catholic=catholic,
                    papacy=catholic and n.type == "primacy", collapsed_turn=collapsed,
                    pre_collapse_capacity=sub.number("pre_collapse_capacity", 0.0, minimum=0),
                    rebuild_paid=sub.number("rebuild_paid", 0.0, minimum=0),
                    recovered_from_default=sub.flag("recovered_from_default"))
        sub.done()
        return bank

    def status(self, r: Fields, *, is_city: bool) -> str:
        text = r.text("status", required=True)
        code = statuses.parse(text)
        if code is None:
            raise r.error("status", f"`{text}` is not a control status ({statuses.help_text()})")
        kind = str(self.raw.get("type", "open")).lower()
        if not statuses.allowed_for(code, kind):
            ladder = statuses.get(code).ladder
            raise r.error("status", f"`{code}` is a {ladder} status; a nation of type `{kind}` cannot hold it")
        if not is_city and code in statuses.CITY_ONLY:
            raise r.error("status", f"`{code}` exists only in a city (LotE 7.2)")
        return code

    @staticmethod
    def works(r: Fields) -> tuple[float, dict[str, int], dict[str, int]]:
        factories = {k: r.integer(k, 0, minimum=0, maximum=1000) for k in FACTORY_KINDS}
        hidden = {k: r.integer(f"hidden_{k}", 0, minimum=0, maximum=1000) for k in FACTORY_KINDS}
        pwb = r.number("pwb", 0.0, minimum=0)
        r.done()
        return pwb, {k: v for k, v in factories.items() if v}, {k: v for k, v in hidden.items() if v}

    @staticmethod
    def army(r: Fields) -> Army:
        try:
            units = parse_units(r.text("units", "", limit=500))
        except RulesError as exc:
            raise r.error("units", str(exc)) from None
        army = Army(r.name("name"), r.text("location", required=True), r.choice("status", ARMY_STATUSES, "N"),
                    units, r.text("leader", ""))
        r.done()
        return army

    @staticmethod
    def leader(r: Fields) -> Leader:
        ap = r.integer("ap", 0, minimum=0, maximum=200) if r.has("ap") else None
        leader = Leader(r.name("name"), r.choice("title", LEADER_TITLES, "leader"),
                        r.choice("allegiance", ALLEGIANCES, "national"), r.integer("combat", 5, minimum=0, maximum=11),
                        r.integer("admin", 5, minimum=0, maximum=11), r.integer("charisma", 5, minimum=0, maximum=11),
                        r.integer("diplomacy", 5, minimum=0, maximum=11), r.integer("age", 30, minimum=0, maximum=120),
                        r.text("location", ""), ap)
        r.done()
        return leader

    @staticmethod
    def project(n: Nation, r: Fields) -> Project:
        p = Project(id=r.text("id", "") or n.next_project_id(), kind=r.choice("kind", PROJECT_KINDS),
                    name=r.text("name", required=True), location=r.text("location", ""),
                    gp=r.number("gp", 0.0, minimum=0), nfp=r.integer("nfp", 0, minimum=0),
                    years=r.number("years", 0.0, minimum=0), gp_cost=r.number("gp_cost", 0.0, minimum=0),
                    nfp_cost=r.integer("nfp_cost", 0, minimum=0), years_cost=r.number("years_cost", 0.0, minimum=0),
                    advances=r.integer("advances", 0, minimum=-10, maximum=50),
                    advances_needed=r.integer("advances_needed", 0, minimum=0, maximum=50),
                    level=r.integer("level", 1, minimum=0, maximum=1000), done=r.flag("done"),
                    host=r.text("host", ""), overreach=r.flag("overreach"),
                    assisted=r.integer("assisted", 0, minimum=0, maximum=10), hidden=r.flag("hidden"))
        if p.id in {q.id for q in n.projects}:
            raise r.error("id", f"project id `{p.id}` is used twice")
        if p.kind == "rd":
            key = research_key(p.name)
            if key is None:
                raise r.error("name", f"`{p.name}` is not an R&D project ({', '.join(research_projects())})")
            p.name = key
            if not p.advances_needed:
                p.advances_needed = research_projects()[key].advances
        r.done()
        return p

    @staticmethod
    def route(r: Fields) -> TradeRoute:
        route = TradeRoute(r.name("partner"), r.choice("kind", ROUTE_KINDS, "sea"), r.text("base_port", ""),
                           r.text("target_port", ""), r.integer("msp", 0, minimum=0),
                           r.integer("length", 0, minimum=0, maximum=200), r.names("conduits"),
                           r.number("income", 0.0, minimum=0), r.text("cartel_for", ""), r.flag("open", True),
                           r.integer("steam", 0, minimum=0))
        r.done()
        return route

    @staticmethod
    def conduit(r: Fields) -> Conduit:
        conduit = Conduit(r.name("a"), r.name("b"), r.names("zones"), r.choice("kind", ("sea", "aerial"), "sea"))
        r.done()
        return conduit

    @staticmethod
    def loan(borrower: str, r: Fields) -> tuple[Loan, bool]:
        """A loan this nation owes; True when it is one already defaulted on (LotE 6.2.6)."""
        turn = r.integer("turn", 1, minimum=-100, maximum=10_000)
        loan = Loan(r.name("lender"), borrower, r.number("principal", minimum=0.01),
                    r.integer("rate", 40, minimum=0, maximum=200) / 100, -1.0, turn, r.text("id", ""))
        defaulted = r.choice("status", ("open", "defaulted"), "open") == "defaulted"
        r.done()
        return loan, defaulted

    def check_names(self, n: Nation) -> None:
        """Names that must agree within the sheet itself."""
        f = self.f
        leaders = {fold(x.name) for x in n.leaders}
        if len(leaders) != len(n.leaders):
            raise f.error("leaders", "two leaders share a name")
        if len({fold(a.name) for a in n.armies}) != len(n.armies):
            raise f.error("armies", "two armies share a name")
        for army in n.armies:
            if army.leader and fold(army.leader) not in leaders:
                raise f.error("armies", f"army `{army.name}` is led by `{army.leader}`, who is not in `leaders`")
        if sum(1 for x in n.leaders if x.title == "king") > 1:
            raise f.error("leaders", "a nation has one king")
        if n.capital and n.city(n.capital) is None:
            raise f.error("capital", f"the capital `{n.capital}` is not one of the nation's cities")
        if n.homeland and n.region(n.homeland) is None:
            raise f.error("homeland", f"the homeland `{n.homeland}` is not one of the nation's regions")
        if n.is_house:
            offices = [c.city for c in n.cities if c.status == "ho"]
            if len(offices) != 1:
                raise f.error("cities", f"a Merchant House has exactly one Home Office (ho); found {len(offices)} "
                                        "(LotE 7.2.6)")
        routes = {(fold(r.partner), r.kind) for r in n.routes}
        if len(routes) != len(n.routes):
            raise f.error("routes", "one trade route of each kind per partner")


def _cross_check(sheets: SheetsFile, name: str) -> None:
    names = {fold(n): n for n in sheets.nations}
    given = [x.id for group in (sheets.loans, sheets.defaults) for x in group if x.id]
    if len(given) != len(set(given)):
        raise UploadError(f"{name}: two loans share an id")
    used, counter = set(given), 1
    for group in (sheets.loans, sheets.defaults):
        for i, loan in enumerate(group):
            lender = names.get(fold(loan.lender))
            if lender is None:
                raise UploadError(f"{name}: {loan.borrower}'s loan from `{loan.lender}`: no such nation in this file")
            bank = sheets.nations[lender].bank
            if bank is None:
                raise UploadError(f"{name}: {loan.borrower}'s loan from {lender}: {lender} has no [nation.bank]")
            loan_id = loan.id
            if not loan_id:
                while f"L{counter}" in used:
                    counter += 1
                loan_id = f"L{counter}"
                used.add(loan_id)
            group[i] = replace(loan, lender=lender, id=loan_id, lender_internal_rate=bank.internal_rate)
    for i, deal in enumerate(sheets.cartels, start=len(sheets.monopolies) + 1):
        for attr in ("nation", "target"):
            other = names.get(fold(getattr(deal, attr)))
            if other is None or other == deal.house:
                raise UploadError(f"{name}: {deal.house}'s cartel `{deal.nation}`-`{deal.target}`: "
                                  f"`{getattr(deal, attr)}` is not another nation in this file")
            setattr(deal, attr, other)
        deal.id = i
    for i, mono in enumerate(sheets.monopolies, start=1):
        nation = names.get(fold(mono.nation))
        if nation is None:
            raise UploadError(f"{name}: {mono.house}'s monopoly in `{mono.nation}`: no such nation in this file")
        mono.nation = nation
        mono.id = i


def validate_against_map(nations: Mapping[str, Nation], world: CampaignMap, name: str = "sheets",
                         lines: Mapping[str, int] | None = None) -> None:
    """Every region, city, sea zone and place a sheet names must be on the map; spellings are normalised."""
    for nation in nations.values():
        where = Where(name, (lines or {}).get(nation.name), f"[[nation]] \"{nation.name}\"")
        try:
            _normalise(nation, world)
        except RulesError as exc:
            raise where.error(str(exc)) from None


def validate_cartels(cartels: list[Cartel], world: CampaignMap, name: str = "sheets") -> None:
    """The ports a cartel route names must be port cities of the map; spellings are normalised."""
    for deal in cartels:
        for attr in ("nation_port", "target_port", "base_port"):
            value = getattr(deal, attr)
            if not value:
                continue
            what = f"{name}: {deal.house}'s cartel {deal.nation}-{deal.target}, `{attr}`"
            try:
                city = world.city(value)
            except RulesError as exc:
                raise UploadError(f"{what}: {exc}") from None
            if not city.port:
                raise UploadError(f"{what}: {city.name} is not a port")
            setattr(deal, attr, city.name)


def _normalise(n: Nation, world: CampaignMap) -> None:
    for holding in n.regions:
        holding.region = world.region(holding.region).name
    for c in n.cities:
        c.city = world.city(c.city).name
    seen: set[str] = set()
    for key in [h.region for h in n.regions] + [c.city for c in n.cities]:
        if key in seen:
            raise RulesError(f"`{key}` is listed twice")
        seen.add(key)
    if n.capital:
        n.capital = world.city(n.capital).name
    if n.homeland:
        n.homeland = world.region(n.homeland).name
    for army in n.armies:
        army.location = _place(world, army.location, f"army `{army.name}`")
    for leader in n.leaders:
        if leader.location:
            leader.location = _place(world, leader.location, f"leader `{leader.name}`")
    for factory_holder in n.regions:
        region = world.regions[factory_holder.region]
        for kind in ("steamship", "submarine"):
            if factory_holder.factories.get(kind) and not region.coastal:
                raise RulesError(f"{region.name} has a {kind} yard but no coast (LotE 3.6.3)")
    for conduit in n.conduits:
        conduit.a, conduit.b = world.city(conduit.a).name, world.city(conduit.b).name
        conduit.zones = [world.zone(z).name for z in conduit.zones]
    for route in n.routes:
        if route.base_port:
            route.base_port = world.city(route.base_port).name
        if route.target_port:
            route.target_port = world.city(route.target_port).name
    n.charts = [world.zone(z).name for z in n.charts]
    n.mapping = {world.zone(z).name: v for z, v in n.mapping.items()}
    for seg in n.railroads:
        seg.a, seg.b = world.region(seg.a).name, world.region(seg.b).name
        if not world.adjacent(seg.a, seg.b):
            raise RulesError(f"railroad {seg.a}-{seg.b}: the regions do not border each other (LotE 3.4.1)")


def _place(world: CampaignMap, text: str, what: str) -> str:
    key = world.canonical(text)
    if key is None:
        raise RulesError(f"{what} is at `{text}`, which is not a region, city or sea zone on the map")
    return key
