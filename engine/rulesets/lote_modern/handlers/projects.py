"""Order handlers for research and construction (LotE 3.3-3.6, 4)."""

from __future__ import annotations

import math

from engine.core.errors import RulesError
from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, campaign, statuses
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, find_army, holding_at, nation_named, place_named
from engine.rulesets.lote_modern.orders import (
    FACTORY_ORDERS,
    Assist,
    Colonize,
    Construct,
    Engineers,
    Fund,
    Improve,
    Recruit,
    Research,
)
from engine.rulesets.lote_modern.rules import (
    cities,
    construction,
    industry,
    railroads,
    research,
)
from engine.rulesets.lote_modern.rules.tech import Culture
from engine.rulesets.lote_modern.sheet import Project, fold
from engine.rulesets.lote_modern.text import number

OK = Verdict.ACCEPTED


# -- research ----------------------------------------------------------------------------------------------
def research_blockers(ctx: Ctx, key: str, o: Research, site_in_hbz: bool) -> tuple[list[str], bool]:
    """Why a nation may not start this project, and whether it is an overreach (LotE 4, 4.1, 4.2, 4.5)."""
    n = ctx.n
    overreach = research.is_overreach(key, n.tech_level)
    yards = {kind: n.factory_points(kind) for kind in ("airship", "steamship", "submarine")}
    problems = research.project_start_problems(
        key, tech_level=n.tech_level, completed=n.completed_on | {k: 0 for k in n.completed if k not in n.completed_on},
        current_turn=ctx.state.turn, yard_points=yards, gp=o.gp, nfp=o.nfp, sample_or_assistance=overreach,
        site_in_hbz=site_in_hbz)
    return problems, overreach


def start_research(ctx: Ctx, o: Research) -> Outcome:
    n = ctx.n
    key = accounts.research_key(o.project)
    if key is None:
        names = ", ".join(p.name for p in research.research_projects().values())
        raise Refused(f"`{o.project}` is not an R&D project (LotE 4.2: {names})")
    info = research.research_projects()[key]
    if n.has_completed(key):
        raise Refused(f"{info.name} is already complete")
    project = next((p for p in n.projects if p.kind == "rd" and p.name == key and not p.done), None)
    verdict, note = OK, ""
    if project is None and key not in ctx.budget.started:
        if not o.place:
            raise Refused("name the project's location: a region or city of yours in the HBZ (LotE 4)")
        place, _ = holding_at(ctx, o.place)
        problems, overreach = research_blockers(ctx, key, o, ctx.world.region_of(place).name in ctx.hbz)
        if problems:
            raise Refused("; ".join(problems) + " (LotE 4)")
        if overreach:
            verdict = Verdict.FLAGGED
            note = (f"; an overreach (Tech Level {info.tech_level}): +2 Advances, and the GM confirms you hold an "
                    "example or Technical Assistance (LotE 4.5)")
        ctx.budget.started.add(key)
        ctx.spend(o.gp, o.nfp, what="the research")
        if ctx.apply:
            project = Project(n.next_project_id(), "rd", key, place, gp=o.gp, nfp=o.nfp,
                              advances_needed=research.advances_required(
                                  key, overreach=overreach, source=campaign.advances_from(ctx.state.options)),
                              overreach=overreach)
            n.projects.append(project)
            ctx.report(f"R&D {info.name} begun at {place} as {project.id} ({number(o.gp)} GP, {o.nfp} NFP).")
            if overreach:
                ctx.ruling("research", f"{n.name} overreaches on {info.name} ({project.id}): confirm it holds an "
                                       "example of the item or Technical Assistance NFP (LotE 4.5).")
        return Outcome(verdict, f"{info.name} begun at {place}: {number(o.gp)} GP, {o.nfp} NFP{note}")
    where = project.location if project is not None else ""
    if o.place and project is not None and place_named(ctx, o.place) != where:
        raise Refused(f"{info.name} is under way at {where}; leave out the location")
    ctx.spend(o.gp, o.nfp, what="the research")
    if ctx.apply and project is not None:
        project.gp = round(project.gp + o.gp, 2)
        project.nfp += o.nfp
        ctx.report(f"R&D {info.name} ({project.id}): +{number(o.gp)} GP, +{o.nfp} NFP.")
    return Outcome(OK, f"{number(o.gp)} GP and {o.nfp} NFP into {info.name}")


def assist(ctx: Ctx, o: Assist) -> Outcome:
    n = ctx.n
    key = accounts.research_key(o.project)
    if key is None:
        raise Refused(f"`{o.project}` is not an R&D project (LotE 4.2)")
    info = research.research_projects()[key]
    if not n.has_completed(key):
        raise Refused(f"only a nation that has completed {info.name} can give technical assistance (LotE 4.4)")
    recipient = nation_named(ctx, o.nation, besides=n)
    ctx.spend(0, o.nfp, what="the technicians")
    if ctx.apply:
        ctx.report(f"{o.nfp} NFP of technicians sent toward {recipient.name}'s {info.name} project.")
        ctx.ruling("research", f"{n.name} sends {o.nfp} NFP of technical assistance to {recipient.name} for "
                               f"{info.name}: once they reach the project site, add the NFP and cut one Advance "
                               f"(`edit {recipient.name} project[<id>].assisted =1`) (LotE 4.4).",
                   parties=[n.name, recipient.name])
    return Outcome(Verdict.FLAGGED, f"{o.nfp} NFP of technicians for {recipient.name}'s {info.name}; "
                                    "they must travel to the project site, so the GM confirms delivery (LotE 4.4)")


# -- construction ----------------------------------------------------------------------------------------
def construct(ctx: Ctx, o: Construct) -> Outcome:
    if o.kind == "uwm":
        return _uwm(ctx)
    if o.kind == "railroad":
        return _railroad(ctx, o)
    return _factory(ctx, o)


def _new_project(ctx: Ctx, project: Project, pay_gp: float, pay_nfp: int) -> Project:
    if ctx.apply:
        project.id = ctx.n.next_project_id()
        project.gp, project.nfp = pay_gp, pay_nfp
        ctx.n.projects.append(project)
    return project


def _uwm(ctx: Ctx) -> Outcome:
    n = ctx.n
    if not n.industrial:
        raise Refused("Universal Weights and Measures is for Industrial nations (LotE 3.5)")
    if n.has_completed("uwm") or any(p.kind == "uwm" and not p.done for p in n.projects):
        raise Refused("UW&M is already built or under way")
    cost = construction.uwm_cost(n.imperial_size, culture=accounts.culture(n))
    pay_gp, pay_nfp = min(cost.gp, max(ctx.budget.gp, 0.0)), min(cost.nfp, ctx.budget.nfp)
    ctx.spend(pay_gp, pay_nfp, what="UW&M")
    project = _new_project(ctx, Project("", "uwm", "Universal Weights and Measures", n.capital or n.homeland,
                                        gp_cost=float(cost.gp), nfp_cost=cost.nfp, years_cost=float(cost.years)),
                           pay_gp, pay_nfp)
    ctx.report(f"UW&M begun as {project.id}: {number(pay_gp)}/{number(cost.gp)} GP, {pay_nfp}/{cost.nfp} NFP, "
               f"{number(cost.years)} years.")
    return Outcome(OK, f"UW&M costs {number(cost.gp)} GP, {cost.nfp} NFP and {number(cost.years)} years "
                       f"(Imperial Size {n.imperial_size}); {number(pay_gp)} GP and {pay_nfp} NFP paid now, "
                       "the rest with `fund`")


def _railroad(ctx: Ctx, o: Construct) -> Outcome:
    n, world = ctx.n, ctx.world
    a, b = world.region(o.place).name, world.region(o.to).name
    if not world.adjacent(a, b):
        raise Refused(f"{a} and {b} do not border each other (LotE 3.4.1)")
    held = accounts.held_regions(n, world)
    if a not in held or b not in held:
        raise Refused(f"both {a} and {b} must be yours; a railroad for a host nation is arranged with the GM "
                      "(LotE 3.4.4)")
    friendly = {world.cities[c.city].region for c in accounts.friendly_cities_in_hbz(ctx.state, n, ctx.hbz)}
    railed = {r for s in n.railroads for r in (s.a, s.b)} | {r for p in n.projects if p.kind == "railroad"
                                                               for r in p.name.split("-")}
    problems = railroads.railroad_site_problems(culture=accounts.culture(n), tech_level=n.tech_level,
                                                friendly_city_in_hbz=a in friendly,
                                                joined_to_rail_from_such_city=a in railed)
    if problems:
        raise Refused("; ".join(problems) + " (LotE 3.4.1)")
    terrains = [accounts.terrain(world.regions[r].terrain) for r in (a, b)]
    dear = next((t for t in terrains if t.value in ("d", "s")), None)
    cost = railroads.railroad_segment_cost(o.points, terrain=dear)
    nfp = math.ceil(cost.nfp)
    yard_city = next((c.city for c in accounts.friendly_cities_in_hbz(ctx.state, n, ctx.hbz)
                      if world.cities[c.city].region == a), None)
    if yard_city is None:
        best = sorted(((v, k[0]) for k, v in ctx.budget.yard.items() if k[1] == accounts.GENERIC), reverse=True)
        yard_city = best[0][1] if best else a
    ctx.use_yard(yard_city, accounts.GENERIC, cost.yard, f"railroad {a}-{b}")
    ctx.spend(cost.gp, nfp, what=f"railroad {a}-{b}")
    project = _new_project(ctx, Project("", "railroad", f"{a}-{b}", a, gp_cost=cost.gp, nfp_cost=nfp,
                                        level=o.points), cost.gp, nfp)
    ctx.report(f"Railroad {a}-{b} ({o.points} level{'s' if o.points > 1 else ''}) paid in full as {project.id}.")
    surcharge = " (+50% in desert or steppe)" if dear else ""
    return Outcome(OK, f"railroad {a}-{b}, {o.points} level{'s' if o.points > 1 else ''}: {number(cost.gp)} GP, "
                       f"{nfp} NFP{surcharge}, {cost.yard} generic yard points at {yard_city}; "
                       "a river crossing needs a bridge (the GM says)")


def _factory(ctx: Ctx, o: Construct) -> Outcome:
    n, world = ctx.n, ctx.world
    kind = FACTORY_ORDERS[o.kind]
    if n.tech_level < research.factory_tech_level():
        raise Refused(f"factories and yards come at Tech Level {research.factory_tech_level()} (LotE 4.2.1)")
    if kind == "industry":
        if not n.is_house:
            raise Refused("Mercantile Industry sites are for Merchant Houses (LotE 3.6.3)")
    else:
        needed = [key for key, p in research.research_projects().items() if kind in p.facilities]
        if needed and not any(n.has_completed(k) for k in needed):
            name = research.research_projects()[needed[0]].name
            raise Refused(f"{kind} yards need the R&D project {name} completed (LotE 3.6.3)")
    key, holding = holding_at(ctx, o.place)
    is_city = key in world.cities
    region = world.region_of(key)
    if kind == "industry" and not (is_city and statuses.is_merchant(holding.status)
                                   and statuses.get(holding.status).rank >= 4):
        raise Refused("a Mercantile Industry site stands in a city you hold as Cartel City or better (LotE 3.6.3)")
    if kind != "industry" and region.name not in ctx.hbz:
        raise Refused(f"{key} is outside your Homeland Build Zone (LotE 3.6)")
    if kind in ("steamship", "submarine") and not (world.cities[key].port if is_city else region.coastal):
        raise Refused(f"{kind} yards are built at a port city or in a coastal region (LotE 3.6.3)")
    if o.hidden and is_city:
        raise Refused("hidden and underground facilities are built in a region (LotE 3.6.7)")
    gpv = world.cities[key].gpv if is_city else region.gpv
    cap = industry.max_factory_points(gpv, city=is_city, terrain=None if is_city else accounts.terrain(region.terrain))
    built = sum(holding.factories.values()) + sum(holding.hidden.values())
    building = sum(p.level for p in n.projects if p.kind == "factory" and not p.done and p.location == key)
    if built + building + o.points > cap:
        raise Refused(f"{key} holds at most {cap} factory and yard points (Table 3-10); it has {built} built and "
                      f"{building} under way")
    per = industry.factory_cost(industry.FactoryKind("mercantile" if kind == "industry" else kind),
                                city=is_city, hidden=o.hidden)
    gp, nfp = per.gp * o.points, per.nfp * o.points
    ctx.spend(gp, nfp, what=f"the {o.kind}")
    project = _new_project(ctx, Project("", "factory", kind, key, gp_cost=gp, nfp_cost=nfp,
                                        years_cost=float(per.time), level=o.points, hidden=o.hidden), gp, nfp)
    ctx.report(f"{o.kind.replace('-', ' ').title()} ({o.points} points) begun at {key} as {project.id}: "
               f"ready in {number(per.time)} years.")
    return Outcome(OK, f"{o.points} {o.kind} points at {key}: {number(gp)} GP, {nfp} NFP, {number(per.time)} years "
                       "(Table 3-4)")


def fund(ctx: Ctx, o: Fund) -> Outcome:
    n = ctx.n
    project = next((p for p in n.projects if fold(p.id) == fold(o.project)), None)
    if project is None or project.done:
        raise Refused(f"{n.name} has no project {o.project} under way")
    if project.kind == "rd":
        raise Refused(f"{project.id} is R&D: invest with `research {project.name} ...`")
    ctx.spend(o.gp, o.nfp, what=f"{project.id}")
    if ctx.apply:
        project.gp = round(project.gp + o.gp, 2)
        project.nfp += o.nfp
        ctx.report(f"{project.id} {project.name}: +{number(o.gp)} GP, +{o.nfp} NFP.")
    left = max(0.0, project.gp_cost - project.gp - o.gp * (not ctx.apply))
    return Outcome(OK, f"{number(o.gp)} GP and {o.nfp} NFP into {project.id} {project.name} "
                       f"({number(left)} GP still to pay)")


def recruit(ctx: Ctx, o: Recruit) -> Outcome:
    n = ctx.n
    project = next((p for p in n.projects if fold(p.id) == fold(o.project) and not p.done), None)
    if project is None:
        raise Refused(f"{n.name} has no project {o.project} under way")
    if not research.recruited_nfp_allowed(project.kind, merchant_house=n.is_house):
        raise Refused(f"recruited NFP do not serve a {project.kind} project (LotE 4.3)")
    gp = float(o.blocks * 25)
    ctx.spend(gp, what="the recruitment")
    if ctx.apply and ctx.dice is not None:
        got = research.recruit_project_nfp(gp, ctx.dice, purpose=f"{n.name}/recruit/{project.id}",
                                           visibility=ctx.private)
        project.nfp += got
        ctx.rolls.append(f"recruitment {project.id}: {ctx.dice.rolls[-1].text()}")
        ctx.report(f"Recruited {got} NFP for {project.id} with {number(gp)} GP ({ctx.dice.rolls[-1].text()}).")
    return Outcome(OK, f"{o.blocks} block{'s' if o.blocks > 1 else ''} of 25 GP for {project.id}: 1d6-1 NFP each "
                       "(LotE 4.3)")


def engineers(ctx: Ctx, o: Engineers) -> Outcome:
    n = ctx.n
    project = next((p for p in n.projects if fold(p.id) == fold(o.project) and not p.done), None)
    if project is None:
        raise Refused(f"{n.name} has no project {o.project} under way")
    problems = research.engineer_problems(culture=accounts.culture(n), tech_level=n.tech_level, whole_turn=True,
                                          research=project.kind == "rd")
    if problems:
        raise Refused("; ".join(problems) + " (LotE 4.6)")
    name = find_army(ctx, o.army)
    army = n.army(name)
    assert army is not None
    if ctx.world.region_of(army.location).name != ctx.world.region_of(project.location).name:
        raise Refused(f"{name} is at {army.location}, not at {project.location} where {project.id} is built")
    ctx.take_units(name, "s", o.count)
    if ctx.apply and ctx.dice is not None:
        start = len(ctx.dice.rolls)
        got = research.engineer_yield(o.count, n.qr.get("siege", 0), ctx.dice,
                                      purpose=f"{n.name}/engineers/{project.id}", visibility=ctx.private)
        shown = [r.text() for r in ctx.dice.rolls[start:]]
        project.nfp += got.nfp
        project.gp = round(project.gp + got.gp, 2)
        live = n.army(name)
        if live is not None:
            live.units["s"] = live.units.get("s", 0) + o.count
        ctx.rolls.extend(f"engineers {project.id}: {s}" for s in shown)
        ctx.report(f"{o.count} engineers on {project.id}: +{got.nfp} NFP, +{got.gp} GP (Siege QR "
                   f"{n.qr.get('siege', 0)}).")
        ctx.ruling("engineers", f"{n.name}'s {o.count} engineers worked {project.id} all turn: they must not have "
                                "moved, fought or besieged anything, or the GM takes the yield back (LotE 4.6).")
    return Outcome(OK, f"{o.count} engineers from {name} on {project.id} all turn: 1-10 GP and 0-2 NFP each, "
                       "the Siege QR adding (LotE 4.6)")


# -- colonies and improvements -----------------------------------------------------------------------------
def colonize(ctx: Ctx, o: Colonize) -> Outcome:
    n, world = ctx.n, ctx.world
    region = world.region(o.region)
    if not region.people or not cities.may_colonise_inhabited(accounts.culture(n), Culture.parse(region.people)):
        raise Refused(f"a Renaissance or Industrial nation colonises regions of Pre-Columbian, Nomadic or Barbarian "
                      f"people; {region.name} is not one, or you are not such a nation (LotE 3.3.1)")
    held = accounts.held_regions(n, world)
    if cities.colonising_needs_leader(adjacent_to_controlled_land=any(nb in held for nb in region.neighbours)):
        raise Refused(f"{region.name} does not border a region you control: a leader carries the colonists there "
                      f"with a CIR action (LotE 3.3.1, 5.2.4)")
    project = next((p for p in n.projects if p.kind == "colony" and p.name == region.name and not p.done), None)
    ctx.spend(o.gp, o.nfp, what="the colonists")
    if ctx.apply:
        if project is None:
            project = Project(n.next_project_id(), "colony", region.name, region.name, level=region.base_gpv)
            n.projects.append(project)
        project.gp = round(project.gp + o.gp, 2)
        project.nfp += o.nfp
        ctx.report(f"Colonists for {region.name} ({project.id}): +{number(o.gp)} GP, +{o.nfp} NFP.")
    return Outcome(OK, f"{number(o.gp)} GP and {o.nfp} NFP toward {region.name}: each 15 GP and 15 NFP settles a "
                       "GPv (LotE 3.3.1)")


def improve(ctx: Ctx, o: Improve) -> Outcome:
    n, world = ctx.n, ctx.world
    region = world.region(o.region)
    holding = n.region(region.name)
    if holding is None or statuses.get(holding.status).tax <= 0:
        raise Refused(f"{n.name} does not control {region.name}")
    try:
        if region.pre_columbian:
            cost = cities.improve_pre_columbian_region(improver=accounts.culture(n), gpv=region.gpv,
                                                      original_gpv=region.base_gpv,
                                                      cultivated=region.terrain in ("c", "c2"))
        else:
            cost = cities.improve_cultivated_region(improver=accounts.culture(n), tech_level=n.tech_level,
                                                    terrain=accounts.terrain(region.terrain),
                                                    base_map_gpv=region.base_gpv, gpv=region.gpv)
    except RulesError as exc:
        raise Refused(f"{region.name} cannot be improved: {exc} (LotE 3.3.2-3.3.3)") from None
    ctx.spend(cost.gp, cost.nfp, what="the improvement")
    if ctx.apply:
        region.gpv = cost.new_gpv
        ctx.report(f"{region.name} improved to {region.gpv} GPv ({number(cost.gp)} GP, {cost.nfp} NFP).")
    return Outcome(OK, f"{region.name} to {cost.new_gpv} GPv: {number(cost.gp)} GP, {cost.nfp} NFP")
