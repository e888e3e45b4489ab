"""Order handlers for investments, builds and reserves (LotE 3.1-3.2, 2.4.3, 6.2.4, 7.5-7.6)."""

from __future__ import annotations

from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, statuses
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, find_army, holding_at, place_named
from engine.rulesets.lote_modern.orders import (
    INVEST_OTHER,
    Activate,
    Build,
    Invest,
    PlaceReserve,
)
from engine.rulesets.lote_modern.rules import (
    actions,
    banking,
    cities,
    construction,
    export,
    industry,
    mercantile,
    military,
)
from engine.rulesets.lote_modern.rules import reserves as reserve_rules
from engine.rulesets.lote_modern.rules.trade import SeaRating, sea_rating_maximum
from engine.rulesets.lote_modern.sheet import Army, CityHolding, Nation, fold
from engine.rulesets.lote_modern.text import number

OK = Verdict.ACCEPTED
SEA_RATINGS = {"navigation": SeaRating.NAVIGATION, "trade-range": SeaRating.TRADE_RANGE,
               "conduit-limit": SeaRating.CONDUIT_LIMIT}
SEA_FIELDS = {"navigation": "navigation", "trade-range": "trade_range", "conduit-limit": "conduit_limit"}


# -- investments ------------------------------------------------------------------------------------
def invest(ctx: Ctx, o: Invest) -> Outcome:
    n = ctx.n
    if o.target in SEA_RATINGS or o.target in ("cavalry", "infantry", "warship", "siege", "artillery",
                                                 "airship", "submarine"):
        return _invest_rating(ctx, o)
    if o.target == "bank":
        bank = n.bank
        if bank is None or not banking.has_bank(n.tech_level):
            raise Refused("banks come with Tech Level 8 (LotE 6.2); the GM opens one on your sheet")
        if bank.collapsed:
            raise Refused("a collapsed bank is rebuilt with rebuild-bank, not invested in (LotE 6.2.8)")
        ctx.spend(o.gp, what="the investment")
        if ctx.apply:
            n.bank = banking.invest(bank, o.gp)
            ctx.report(f"Bank: {number(o.gp)} GP invested, loan capacity +{number(o.gp / 10)} (LotE 6.2.4).")
        return Outcome(OK, f"+{number(o.gp / 10)} GP of loan capacity (10 GP for 1, LotE 6.2.4)")
    if o.target == "public-works":
        return _public_works(ctx, o)
    assert o.target in INVEST_OTHER
    ctx.spend(o.gp, what="the investment")
    if ctx.apply:
        key = f"{o.target}"
        n.invested[key] = round(n.invested.get(key, 0.0) + o.gp, 2)
        ctx.report(f"{number(o.gp)} GP invested in {o.target} (the GM rolls its progress).")
        ctx.ruling("investment", f"{n.name} invested {number(o.gp)} GP in {o.target} "
                                 f"({number(n.invested[key])} GP invested in all): roll per the Basic Rulebook.")
    return Outcome(Verdict.FLAGGED, f"{o.target} comes from the Basic Rulebook: the GM rolls what "
                                    f"{number(o.gp)} GP buy")


def _invest_rating(ctx: Ctx, o: Invest) -> Outcome:
    n = ctx.n
    cult = accounts.culture(n)
    if o.target in SEA_RATINGS:
        current = getattr(n, SEA_FIELDS[o.target])
        cap: int | None = sea_rating_maximum(SEA_RATINGS[o.target], n.tech_level)
        table, rule = "Table 2-10", "LotE 2.8"
    else:
        current = n.qr.get(o.target, 0)
        table, rule = "Table 3-1", "LotE 3.1"
        if o.target in ("airship", "submarine"):
            if o.target not in n.qr:
                raise Refused(f"{n.name} has no {o.target} QR; the GM adds one when it is time (LotE 2.5)")
            cap = None
        else:
            cap = getattr(military.max_quality_ratings(cult, n.tech_level), o.target)
            if not military.may_raise_quality_rating(cult, n.tech_level, o.target, current):
                cap = min(cap, current)
    if cap is not None and current >= cap:
        raise Refused(f"your {o.target} rating is {current}, the most {table} allows at Tech Level {n.tech_level}")
    ctx.spend(o.gp, what="the investment")
    key = o.target
    limit = f", at most {cap}" if cap is not None else ""
    if ctx.apply:
        n.invested[key] = round(n.invested.get(key, 0.0) + o.gp, 2)
        ctx.report(f"{number(o.gp)} GP invested in {o.target} (now {current}{limit}).")
        ctx.ruling("investment", f"{n.name} invested {number(o.gp)} GP in its {o.target} rating (now {current}"
                                 f"{limit}; {number(n.invested[key])} GP invested): roll its progress and "
                                 f"`edit` the rating.", tables=[f"{table} ({rule})"])
    return Outcome(OK, f"{number(o.gp)} GP into {o.target} (now {current}{limit}); the GM rolls its progress")


def _public_works(ctx: Ctx, o: Invest) -> Outcome:
    n = ctx.n
    key, holding = holding_at(ctx, o.place)
    status = statuses.get(holding.status)
    if status.tax <= 0:
        raise Refused(f"public works need a status that pays taxes; {key} is {holding.status} (LotE 2.4.3)")
    is_city = isinstance(holding, CityHolding)
    gpv = ctx.world.cities[key].gpv if is_city else ctx.world.regions[key].gpv
    terrain = accounts.terrain(ctx.world.region_of(key).terrain)
    cap = cities.max_public_works(gpv, n.tech_level, terrain=None if is_city else terrain, city=is_city)
    if cap is not None and holding.pwb + o.gp > cap + 1e-9:
        raise Refused(f"{key} holds at most {number(cap)} GP of public works at Tech Level {n.tech_level} "
                      f"(Table 3-6); it has {number(holding.pwb)}")
    ctx.spend(o.gp, what="the public works")
    if ctx.apply:
        holding.pwb = round(holding.pwb + o.gp, 2)
        ctx.report(f"Public works at {key}: +{number(o.gp)} GP (now {number(holding.pwb)}).")
    return Outcome(OK, f"{number(o.gp)} GP of public works at {key}")


# -- builds -----------------------------------------------------------------------------------------
def _chart_unit(ctx: Ctx, code: str) -> military.Unit:
    n = ctx.n
    cult = accounts.culture(n)
    unit = military.unit(code, cult)
    problems = construction.unit_build_problems(
        code, cult, tech_level=n.tech_level, completed=n.completed,
        facility_points={industry.FactoryKind(k): n.factory_points(k) for k in ("airship", "steamship",
                                                                                  "submarine")})
    if problems:
        raise Refused("; ".join(problems) + " (LotE 3.2.1, 4.2)")
    return unit


def _build_place(ctx: Ctx, unit: military.Unit, place: str, *, reserve: bool, export_unit: bool) -> str:
    """Where the unit may be built (chart 8.6 Build At, LotE 3.6, 7.6); returns the canonical place."""
    n, world = ctx.n, ctx.world
    key = place_named(ctx, place)
    region = world.region_of(key)
    is_city = key in world.cities
    holding = accounts.holding_of(n, world, key)
    status = holding.status if holding else None
    in_hbz = region.name in ctx.hbz
    friendly_city = is_city and accounts.is_friendly(status) and in_hbz
    if reserve:
        if not friendly_city:
            raise Refused("reserves are built at a Friendly city within the Homeland Build Zone (LotE 3.2.2.1)")
        return key
    codes = [c.lower() for c in unit.build_at]
    yard_kind = accounts.yard_kind(unit.code, accounts.culture(n))
    if n.is_house:
        kind: mercantile.BuildKind = "export" if export_unit else ("yard-unit" if yard_kind != accounts.GENERIC
                                                                    else "unit")
        office = status == "ho"
        cartel = status is not None and statuses.is_merchant(status) and statuses.get(status).rank >= 4
        factories = holding.factories if holding else {}
        problems = mercantile.check_house_build(
            kind, at_home_office=office, friendly_city_in_hbz=friendly_city, cartel_city=cartel,
            industry_site=bool(factories), yard_builds_this=factories.get(yard_kind, 0) > 0)
        if problems:
            raise Refused(problems[0] + " (LotE 7.6)")
        if office or cartel:
            return key
    ok = False
    for code in codes:
        if code == "hm":
            ok |= region.name == n.homeland
        elif code == "fc":
            ok |= friendly_city
        elif code == "csr":
            ok |= region.terrain == "s" and n.region(region.name) is not None
        elif code in ("crh", "fr"):
            ok |= n.region(region.name) is not None and in_hbz
        elif code in ("pc", "shipyard"):
            ok |= friendly_city and world.cities[key].port
        elif code == "pa":
            port = (is_city and world.cities[key].port) or any(c.port for c in world.cities_in(region.name))
            ok |= port and in_hbz and holding is not None
        elif code == "cr":
            ok |= n.region(region.name) is not None
        elif code == "cc":
            ok |= is_city and holding is not None
        elif code.endswith("yard"):
            ok |= in_hbz and holding is not None and (holding.factories.get(yard_kind, 0)
                                                      + holding.hidden.get(yard_kind, 0)) > 0
    if not ok:
        raise Refused(f"{unit.name} is built at {', '.join(unit.build_at)} (chart 8.6); {key} is not such a place"
                      f"{'' if in_hbz else ' (it is outside your Homeland Build Zone)'}")
    return key


def _yard_place(ctx: Ctx, key: str, kind: str) -> str:
    """Generic capacity is a city's; a yard's capacity is where the yard stands."""
    if kind == accounts.GENERIC and key not in ctx.world.cities:
        cities_here = [c.name for c in ctx.world.cities_in(ctx.world.region_of(key).name)]
        return cities_here[0] if cities_here else key
    return key


def build(ctx: Ctx, o: Build) -> Outcome:
    n = ctx.n
    cult = accounts.culture(n)
    unit = _chart_unit(ctx, o.code)
    if unit.artillery and not military.can_build_artillery(cult, n.tech_level):
        raise Refused("artillery needs a Renaissance or Industrial culture (LotE 3.1)")
    gp, nfp = (unit.gp or 0.0), (unit.nfp or 0)
    if o.reserve:
        if not ctx.state.options.get("reserves", True):
            raise Refused("this campaign does not use reserves (LotE 3.2.2 is optional)")
        if actions.unit_profile(o.code).training == "elite":
            raise Refused("only Regular and Inexperienced units are built as reserves (LotE 3.2.2.1)")
        cost = reserve_rules.reserve_build_cost(o.code, cult)
        gp, nfp = cost.gp, cost.nfp
    if o.export:
        if not export.exportable(o.code):
            raise Refused(f"({o.code}) is not an export unit (Table 7-3)")
        gp, nfp = export.export_build_cost(gp).gp, 0
    key = _build_place(ctx, unit, o.place, reserve=o.reserve, export_unit=o.export)
    kind = accounts.yard_kind(o.code, cult)
    points = accounts.yard_cost(o.code, cult, ctx.state) * o.count
    label = f"{o.count}{'(' + o.code + ')' if o.export else o.code}"
    ctx.use_yard(_yard_place(ctx, key, kind), kind, points, label)
    ctx.spend(gp * o.count, nfp * o.count, what=label)
    if ctx.apply:
        if o.reserve:
            n.reserves[o.code] = n.reserves.get(o.code, 0) + o.count
            ctx.report(f"Built {label} as reserves at {key} ({number(gp * o.count)} GP, {nfp * o.count} NFP).")
        else:
            code = f"({o.code})" if o.export else o.code
            _garrison(n, key).units[code] = _garrison(n, key).units.get(code, 0) + o.count
            ctx.report(f"Built {label} at {key} ({number(gp * o.count)} GP, {nfp * o.count} NFP"
                       f"{f', {points} yard points' if points else ''}).")
    extra = f", {points} {kind} yard points" if points else ""
    return Outcome(OK, f"{label} at {key}: {number(gp * o.count)} GP, {nfp * o.count} NFP{extra}")


def _garrison(n: Nation, place: str) -> Army:
    """The army new units join at a place: one already there, else a new garrison."""
    here = [a for a in n.armies if fold(a.location) == fold(place)]
    if here:
        return here[0]
    army = Army(f"{place} Garrison", place, "G")
    n.armies.append(army)
    return army


# -- reserves -----------------------------------------------------------------------------------------
def _reserves_on(ctx: Ctx) -> None:
    if not ctx.state.options.get("reserves", True):
        raise Refused("this campaign does not use reserves (LotE 3.2.2 is optional)")
    if ctx.n.culture not in ("R", "I1", "I2", "I3"):
        raise Refused("reserves are for Renaissance and Industrial nations (LotE 3.2.2)")


def place_reserve(ctx: Ctx, o: PlaceReserve) -> Outcome:
    _reserves_on(ctx)
    n = ctx.n
    name = find_army(ctx, o.army)
    army = n.army(name)
    assert army is not None
    holding = n.city(army.location) if ctx.world.is_city(army.location) else None
    if holding is None:
        raise Refused(f"{name} is at {army.location}: units go into reserve from a controlled city (LotE 3.2.2.2)")
    if actions.unit_profile(o.code).training == "elite":
        raise Refused("only Regular and Inexperienced units go into reserve (LotE 3.2.2.2)")
    if o.code in ctx.budget.activated:
        raise Refused(f"{o.code} units were called up this turn; none may also go into reserve (LotE 3.2.2.2)")
    ctx.take_units(name, o.code, o.count)
    ctx.budget.placed.add(o.code)
    ctx.budget.reserves[o.code] = ctx.budget.reserves.get(o.code, 0) + o.count
    if ctx.apply:
        n.reserves[o.code] = n.reserves.get(o.code, 0) + o.count
        ctx.report(f"{o.count}{o.code} of {name} placed in reserve.")
    return Outcome(OK, f"{o.count}{o.code} from {name} into reserve (no support while there)")


def activate(ctx: Ctx, o: Activate) -> Outcome:
    _reserves_on(ctx)
    n = ctx.n
    have = ctx.budget.reserves.get(o.code, 0)
    if o.count > have:
        raise Refused(f"{n.name} has {have}{o.code} in reserve")
    if o.code in ctx.budget.placed:
        raise Refused(f"{o.code} units went into reserve this turn; none may also be called up (LotE 3.2.2.2)")
    key = place_named(ctx, o.place, ("city",), why="reserves are called up in a Friendly city (LotE 3.2.2.3)")
    holding = n.city(key)
    if holding is None or not accounts.is_friendly(holding.status) or ctx.world.cities[key].region not in ctx.hbz:
        raise Refused(f"reserves are called up in a Friendly city within the Homeland Build Zone; {key} is not one")
    cost = reserve_rules.reserve_activation_cost(o.code, accounts.culture(n))
    ctx.spend(cost.gp * o.count, cost.nfp * o.count, what=f"calling up {o.count}{o.code}")
    ctx.budget.reserves[o.code] = have - o.count
    ctx.budget.activated.add(o.code)
    if ctx.apply:
        n.reserves[o.code] = n.reserves.get(o.code, 0) - o.count
        if not n.reserves[o.code]:
            del n.reserves[o.code]
        army = _garrison(n, key)
        army.units[o.code] = army.units.get(o.code, 0) + o.count
        ctx.report(f"Called up {o.count}{o.code} at {key} ({number(cost.gp * o.count)} GP).")
    return Outcome(OK, f"{o.count}{o.code} called up at {key}: {number(cost.gp * o.count)} GP (Table 3-3)")
