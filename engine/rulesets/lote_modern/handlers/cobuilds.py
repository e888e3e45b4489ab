"""City growth: a nation adding a GPv to its own city (Basic Rulebook 5.7, Table 3-5 at TL 12+) and a co-build
by a Merchant House, Religious Primacy or Order in another's city (LotE 3.3.5), with its completion.

A city grows by at most one GPv a turn, and the owner's own growth comes first: `state.grown` lists the
cities that grew this turn; a co-build fully paid for such a city waits for the next turn.
"""

from __future__ import annotations

from engine.core.errors import RulesError
from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, campaign, oversight, reach, statuses
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, find_leader, place_named
from engine.rulesets.lote_modern.orders import CoBuild, Grow
from engine.rulesets.lote_modern.rules import cities, merchant
from engine.rulesets.lote_modern.sheet import CityHolding, Nation, Project, fold
from engine.rulesets.lote_modern.state import GameState, Ruling
from engine.rulesets.lote_modern.text import number
from engine.rulesets.lote_modern.world import City

BUILDERS = {"merchant": cities.CoBuilder.MERCHANT_HOUSE, "primacy": cities.CoBuilder.PRIMACY,
            "order": cities.CoBuilder.ORDER}
# Caveat 5 of 3.3.5: the seats a co-build is measured from (Cartel City or Home Office; Cathedral or Holy City;
# Order Estate or Order Fortress).
SEATS = {"merchant": ("ci", "ho"), "primacy": ("CA", "HC"), "order": ("OE", "OF")}
RULE = "LotE 3.3.5 City Co-Builds"


def _city(ctx: Ctx, name: str) -> City:
    return ctx.world.cities[place_named(ctx, name, ("city",))]


def owner(state: GameState, city: str) -> Nation | None:
    """The city's 'regular' owner: the nation holding it best on the open-nation ladder."""
    held = [(statuses.get(h.status).rank, m) for m in state.nations.values()
            if (h := m.city(city)) is not None and statuses.get(h.status).ladder == "nation"]
    return max(held, key=lambda pair: pair[0])[1] if held else None


def max_size(state: GameState, city: City, tech_level: int) -> int | None:
    """Table 3-5's largest GPv for the city at this Tech Level (None below TL 12: the basic rulebook's limit)."""
    return cities.max_city_size(accounts.terrain(state.world.regions[city.region].terrain), tech_level)


# -- a nation's own city ---------------------------------------------------------------------------------
def grow(ctx: Ctx, o: Grow) -> Outcome:
    n = ctx.n
    city = _city(ctx, o.city)
    holding = n.city(city.name)
    info = statuses.get(holding.status) if holding is not None else None
    if info is None or not ((info.ladder == "nation" and info.friendly) or info.code == "cl"):
        raise Refused(f"{n.name} grows only a city it holds as Friendly or better; a House builds in another's city "
                      "with `cobuild` (LotE 3.3.5)")
    if city.name in ctx.budget.grown:
        raise Refused(f"{city.name} already grows this turn: a city gains at most 1 GPv a turn (LotE 3.3.5)")
    limit = max_size(ctx.state, city, n.tech_level)
    if limit is not None and city.gpv + 1 > limit:
        raise Refused(f"{city.name} is {city.gpv} GPv, the most Table 3-5 allows there (LotE 3.3.4)")
    gp, nfp = campaign.city_gpv_cost(ctx.state.options)
    ctx.spend(gp, nfp, what=f"a GPv for {city.name}")
    ctx.budget.grown.add(city.name)
    if ctx.apply:
        city.gpv += 1
        ctx.state.grown.append(city.name)
        ctx.report(f"{city.name} grows to {city.gpv} GPv ({number(gp)} GP, {nfp} NFP).")
    cost = f"{city.name} to {city.gpv + (0 if ctx.apply else 1)} GPv: {number(gp)} GP, {nfp} NFP (Basic Rulebook 5.7)"
    if limit is None:
        if ctx.apply:
            ctx.ruling("city", f"{n.name} grew {city.name} to {city.gpv} GPv at Tech Level {n.tech_level}: below "
                               "TL 12 the basic rulebook's city limit applies; undo with "
                               f"`edit map city[{city.name}].gpv -1` if it is exceeded.", tables=["Basic Rulebook 5.7"])
        return Outcome(Verdict.FLAGGED, f"{cost}; below Tech Level 12 the GM checks the basic rulebook's limit")
    return Outcome(Verdict.ACCEPTED, f"{cost}, at most {limit} here (Table 3-5)")


# -- a co-build in another's city --------------------------------------------------------------------------
def seats(n: Nation) -> list[str]:
    return [h.city for h in n.cities if h.status in SEATS.get(n.type, ())]


def existing_status(n: Nation, city: str) -> str | None:
    """The co-builder's own status in the city on its ladder (Table 3-8), if any."""
    holding = n.city(city)
    if holding is None or statuses.get(holding.status).ladder != statuses.LADDER_OF_TYPE.get(n.type):
        return None
    return holding.status


def new_status(n: Nation, gpv: int, existing: str | None) -> str:
    """The co-builder's status once the GPv is added to a city of `gpv` (Tables 3-7, 3-8); a status beyond
    Table 3-8 (a Home Office, Holy City, Order Fortress or Colony) is kept (decided)."""
    try:
        code = cities.cobuild_status(gpv, BUILDERS[n.type], existing)
    except RulesError:  # a status Table 3-8 does not list: keep it
        return existing or ""
    return statuses.parse(code) or code


def _in_web(ctx: Ctx, city: str, existing: str | None) -> bool:
    """Caveat 3: a status in the city within the co-builder's Control Web (a House's 7.3.7 web; for a Primacy
    or Order, decided: within the Action Range of a seat, the same test as caveat 5)."""
    if existing is None:
        return False
    if ctx.n.is_house:
        return city not in {s.location for s in oversight.isolated(ctx.state, ctx.n)}
    return True


def cobuild(ctx: Ctx, o: CoBuild) -> Outcome:
    n, state = ctx.n, ctx.state
    if n.type not in BUILDERS:
        raise Refused("co-builds are for a Merchant House, Religious Primacy or Religious Order; a nation grows its "
                      "own cities with `grow` (LotE 3.3.5)")
    city = _city(ctx, o.city)
    region = ctx.world.regions[city.region]
    if fold(region.religion) != fold(n.religion):
        raise Refused(f"{city.name} is {region.religion or 'of no religion'}, not {n.religion or 'of yours'}: a "
                      "co-build needs a city of your religion (LotE 3.3.5)")
    action_range = merchant.action_range(n.tech_level, ctx.merchant)
    seat = reach.nearest(state, n, seats(n), city.name, limit=action_range)
    if seat is None:
        raise Refused(f"{city.name} is beyond your Action Range of {action_range} AP from a "
                      f"{'Cartel City or the Home Office' if n.is_house else 'seat of your faith'} (LotE 3.3.5)")
    existing = existing_status(n, city.name)
    gp_cost, nfp_cost = campaign.city_gpv_cost(state.options)
    project = next((p for p in n.projects if p.kind == "cobuild" and p.location == city.name and not p.done), None)
    paid_gp, paid_nfp = (project.gp, project.nfp) if project else (0.0, 0)
    if not ctx.apply:  # earlier lines of this form paid in too (carried out, they are on the project already)
        earlier = ctx.budget.cobuilt.get(city.name, (0.0, 0))
        paid_gp, paid_nfp = paid_gp + earlier[0], paid_nfp + earlier[1]
    left_gp, left_nfp = max(0.0, gp_cost - paid_gp), max(0, nfp_cost - paid_nfp)
    gp, nfp = (o.gp, o.nfp) if (o.gp or o.nfp) else (left_gp, left_nfp)
    if left_gp <= 0 and left_nfp <= 0:
        raise Refused(f"the GPv for {city.name} is paid for: it is added at the end of a turn")
    if gp > left_gp + 1e-9 or nfp > left_nfp:
        raise Refused(f"the GPv for {city.name} costs {number(gp_cost)} GP and {nfp_cost} NFP; {number(left_gp)} GP "
                      f"and {left_nfp} NFP are still to pay")
    limit = max_size(state, city, n.tech_level)
    if limit is not None and city.gpv + 1 > limit:
        raise Refused(f"{city.name} is {city.gpv} GPv, the most Table 3-5 allows there (LotE 3.3.4-3.3.5)")
    carrier = ""
    if not _in_web(ctx, city.name, existing):
        if not o.leader:
            raise Refused(f"a leader must bring the GP and NFP to {city.name} (`by <leader>`): you hold no status "
                          "there within your control web (LotE 3.3.5)")
        leader = find_leader(ctx, o.leader)
        carrier = leader.name
        if not leader.location or reach.node(ctx.world, leader.location) != city.region:
            carrier += f", who must reach {city.name} with it (the GM confirms)"
    ctx.spend(gp, nfp, what=f"the co-build at {city.name}")
    status_after = new_status(n, city.gpv, existing)
    done = gp + 1e-9 >= left_gp and nfp >= left_nfp
    if ctx.apply:
        if project is None:
            project = Project(n.next_project_id(), "cobuild", city.name, city.name, gp_cost=float(gp_cost),
                              nfp_cost=nfp_cost)
            n.projects.append(project)
        project.gp, project.nfp = round(project.gp + gp, 2), project.nfp + nfp
        host = owner(state, city.name)
        host_name = host.name if host else "its native rulers"
        undo = (f"; it is paid for and the GPv is added at the end of this turn: if permission was refused, also "
                f"`edit map city[{city.name}].gpv -1` and reset {n.name}'s status there" if done else "")
        ctx.ruling("co-build", f"{n.name} co-builds a GPv at {city.name} ({city.gpv} GPv, owned by {host_name}), "
                               f"paying {number(gp)} GP and {nfp} NFP ({number(project.gp)}/{number(gp_cost)} GP, "
                               f"{project.nfp}/{nfp_cost} NFP){' carried by ' + carrier if carrier else ''}. Did "
                               f"{host_name} give permission? If not, refund with `edit {n.name} treasury.gp +"
                               f"{number(gp)}` and `edit {n.name} treasury.nfp +{nfp}` and drop "
                               f"`project[{project.id}]`{undo}.", tables=[RULE, "Table 3-7", "Table 3-8"],
                   parties=[n.name] + ([host.name] if host else []), brief=f"{n.name}: co-build at {city.name}")
        ctx.report(f"Co-build at {city.name} ({project.id}): +{number(gp)} GP, +{nfp} NFP.")
    else:
        before = ctx.budget.cobuilt.get(city.name, (0.0, 0))
        ctx.budget.cobuilt[city.name] = (before[0] + gp, before[1] + nfp)
    shown = statuses.get(status_after).name if status_after in statuses.all_statuses() else status_after
    when = "the GPv is added at the end of the turn" if done else \
        f"{number(left_gp - gp)} GP and {left_nfp - nfp} NFP still to pay"
    via = f"; carried by {carrier}" if carrier else ""
    return Outcome(Verdict.FLAGGED, f"a GPv for {city.name} ({city.gpv} to {city.gpv + 1}): {number(gp)} GP and "
                                    f"{nfp} NFP of {number(gp_cost)} GP and {nfp_cost} NFP, {when}; your status there "
                                    f"becomes {shown} (Tables 3-7, 3-8){via}. The city's owner must permit it: the GM "
                                    "confirms; if the owner grows the city this turn, the GPv waits (LotE 3.3.5)")


def complete(state: GameState, n: Nation, p: Project, lines: dict[str, list[str]], rulings: list[Ruling]) -> None:
    """A fully paid co-build adds its GPv at the end of the turn, unless the city grew already (LotE 3.3.5)."""
    city = state.world.cities.get(p.location)
    if city is None:
        return
    mine = lines.setdefault(n.name, [])
    if p.gp + 1e-9 < p.gp_cost or p.nfp < p.nfp_cost:
        mine.append(f"{p.id} co-build at {city.name}: {number(p.gp)}/{number(p.gp_cost)} GP, "
                    f"{p.nfp}/{p.nfp_cost} NFP.")
        return
    if city.name in state.grown:
        mine.append(f"{p.id} co-build at {city.name} waits: the city already gained its GPv this turn (LotE 3.3.5).")
        return
    host = owner(state, city.name)
    limit = max_size(state, city, host.tech_level if host else n.tech_level)
    if limit is not None and city.gpv + 1 > limit:
        mine.append(f"{p.id} co-build at {city.name} waits: the city is at its largest ({limit} GPv, Table 3-5).")
        rulings.append(Ruling(0, n.name, "co-build", f"{n.name}'s co-build at {city.name} is paid for but the city "
                                                     f"is at Table 3-5's {limit} GPv: refund or hold it (LotE 3.3.5).",
                              tables=[RULE]))
        return
    existing = existing_status(n, city.name)
    status = new_status(n, city.gpv, existing)
    city.gpv += 1
    state.grown.append(city.name)
    p.done = True
    holding = n.city(city.name)
    if holding is None:
        n.cities.append(CityHolding(city.name, status))
    elif status:
        holding.status = status
    shown = statuses.get(status).name if status in statuses.all_statuses() else status
    mine.append(f"{p.id}: your co-build adds a GPv to {city.name} (now {city.gpv}); your status there is {shown} "
                "(LotE 3.3.5).")
    if host is not None:
        lines.setdefault(host.name, []).append(f"{n.name}'s co-build adds a GPv to {city.name} (now {city.gpv}); the "
                                               "city stays yours as it was (LotE 3.3.5).")
