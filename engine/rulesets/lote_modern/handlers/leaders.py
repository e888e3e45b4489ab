"""Order handlers for leaders' actions (LotE 5.2, 7.4) and notes for the GM."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, campaign, hands_off, merchant_factors, statuses
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, find_leader, nation_named, place_named, refuse_if
from engine.rulesets.lote_modern.handlers import mercenaries
from engine.rulesets.lote_modern.orders import (
    LeaderAction,
    Note,
)
from engine.rulesets.lote_modern.rules import (
    actions,
    actions_codes,
    merchant,
    merchant_actions,
    trade,
)
from engine.rulesets.lote_modern.rules.actions import NeedsRuling
from engine.rulesets.lote_modern.sheet import CULTURE_NAMES, Army, Leader, Nation, fold
from engine.rulesets.lote_modern.text import number

OK = Verdict.ACCEPTED
FEATURES = {"zone": "Sea Zone", "inter-island": "Inter-Island Arrow", "open-ocean": "Open Ocean Arrow",
            "river": "River Section"}


# -- leaders ---------------------------------------------------------------------------------------------------
def _leader(ctx: Ctx, name: str) -> Leader:
    return find_leader(ctx, name)


def _needs(ctx: Ctx, ruling: NeedsRuling, what: str, *, parties: list[str] | None = None, gm_hint: str = "") -> None:
    """Turn a rules module's ruling request into an item in the GM's window. The d100 for the GM's chance,
    the factors and any hint stay with the GM; the nation is told only what it attempted."""
    factors = "; ".join(f"{k}: {v}" for k, v in ruling.factors)
    text = f"{what}{gm_hint}. {ruling.question}" + (f" ({factors})" if factors else "")
    rolls = [f"d100 for the GM's chance: {ruling.roll.text()}"] if ruling.roll else []
    tables = [ruling.rule] + ([ruling.applies] if ruling.applies else [])
    ctx.ruling("action", text, rolls=rolls, tables=tables, parties=parties, brief=what)


def leader_action(ctx: Ctx, o: LeaderAction) -> Outcome:
    """A leader's action, by its code: the supplement's own (5.2, 7.4, 2.9) through `ACTION_CODES`; any other
    code is the Basic Rulebook's, for the GM."""
    code = o.code.upper()
    return ACTION_CODES.get(code, _basic_code)(ctx, _leader(ctx, o.leader), o)


def _basic_code(ctx: Ctx, leader: Leader, o: LeaderAction) -> Outcome:
    """A Basic Rulebook action code: the AP it takes are the player's to say; the GM rules it."""
    code = o.code.upper()
    if o.ap <= 0:
        raise Refused(f"{code} is not an action this supplement defines: say how many AP it takes, like 4ap")
    ctx.use_ap(leader.name, o.ap)
    ctx.spend(o.gp, o.nfp, what=f"{leader.name}'s {code}")
    if ctx.apply:
        ctx.report(f"{leader.name}: {code} {o.target} ({o.ap} AP) goes to the GM.")
        rolls = []
        roll = ctx.d100(f"{leader.name}/{code}")
        if roll is not None:
            rolls.append(f"d100: {roll}")
        ctx.ruling("action", f"{ctx.n.name}: {o.text()}", rolls=rolls, tables=["Basic Rulebook action codes"])
    return Outcome(Verdict.FLAGGED, f"{code} comes from the Basic Rulebook: the GM rules it ({o.ap} AP of "
                                    f"{leader.name}'s {ctx.budget.ap.get(leader.name, 0) + o.ap})")


def _intervene(ctx: Ctx, leader: Leader, o: LeaderAction) -> Outcome:
    """Intervene in Mercantile Affairs: under hands-off trade the ruler moves MSP between routes by hand (2.9)."""
    if not hands_off.applies(ctx.state, ctx.n):
        raise Refused("Intervene in Mercantile Affairs is for a nation under hands-off trade (LotE 2.9)")
    if leader.title != "king":
        raise Refused("only the King (Pope, Grand Master) intervenes in mercantile affairs (LotE 2.9)")
    ap = _ap(o, trade.intervention_ap(), False)
    ctx.use_ap(leader.name, ap)
    ctx.budget.intervened = True
    if ctx.apply:
        ctx.report(f"{leader.name} intervenes in mercantile affairs: MSP move between routes by hand this turn.")
    return Outcome(OK, f"{leader.name} spends {ap} AP: the lines below may move MSP between routes by hand, at no "
                       "cost (LotE 2.9)")


def _ap(o: LeaderAction, base: int, open_ended: bool) -> int:
    if o.ap and o.ap < base:
        raise Refused(f"{o.code} takes {base} AP")
    if o.ap > base and not open_ended:
        raise Refused(f"{o.code} takes exactly {base} AP")
    return o.ap or base


@dataclass(frozen=True, slots=True)
class Attempt:
    """A leader's attempt at one of the supplement's new action codes, with the AP it takes."""

    leader: Leader
    order: LeaderAction
    ap: int
    kind: actions.LeaderKind
    army: Army | None


def _new_code(action: Callable[[Ctx, Attempt], Outcome]) -> Callable[[Ctx, Leader, LeaderAction], Outcome]:
    """One of the supplement's new action codes (LotE 5.2): its AP from the table of codes, then the action."""
    def attempt(ctx: Ctx, leader: Leader, o: LeaderAction) -> Outcome:
        info = actions_codes.action_code(o.code)
        kind = cast(actions.LeaderKind, leader.allegiance)   # the sheet allows only national, allied, mercenary
        return action(ctx, Attempt(leader, o, _ap(o, info.bac, info.open_ended), kind,
                                   accounts.leader_army(ctx.n, leader)))
    return attempt


def _retrain(ctx: Ctx, a: Attempt) -> Outcome:
    """Retrain Units (LotE 5.2.1)."""
    n, world = ctx.n, ctx.world
    leader, o, ap, kind = a.leader, a.order, a.ap, a.kind
    key = place_named(ctx, o.target, ("city",), why="units are retrained at a controlled city (LotE 5.2.1)")
    city = n.city(key) if key and key in world.cities else None
    in_hbz = bool(key and key in world.cities and world.cities[key].region in ctx.hbz)
    refuse_if(actions_codes.check_retraining(culture=n.culture, leader=kind, code=o.unit, count=o.count,
                                       at_controlled_city=city is not None, city_besieged=False,
                                       in_homeland_build_zone=in_hbz), "LotE 5.2.1")
    here = [a for a in n.armies if key and fold(a.location) == fold(key) and a.units.get(o.unit, 0) >= o.count]
    if not here:
        raise Refused(f"no army of yours at {key} has {o.count}{o.unit}")
    outcome = actions_codes.retrain(o.unit, o.count)
    ctx.use_ap(leader.name, ap)
    if ctx.apply:
        army_here = here[0]
        army_here.units[o.unit] -= outcome.count_in
        if not army_here.units[o.unit]:
            del army_here.units[o.unit]
        army_here.units[outcome.to_code] = army_here.units.get(outcome.to_code, 0) + outcome.count_out
        ctx.report(f"{leader.name} retrained {outcome.count_in}{o.unit} into {outcome.count_out}"
                   f"{outcome.to_code} at {key}.")
        ctx.ruling("action", f"{n.name}: {leader.name} retrained {outcome.count_in}{o.unit} into "
                             f"{outcome.count_out}{outcome.to_code} at {key}; if they were attacked meanwhile "
                             f"they fight as {outcome.count_in}{o.unit} and the action is lost (LotE 5.2.1).",
                   tables=["LotE 5.2.1 Retraining Units"])
    return Outcome(OK, f"{outcome.count_in}{o.unit} become {outcome.count_out}{outcome.to_code} at {key} "
                       f"({ap} AP, LotE 5.2.1)")


def _explore(ctx: Ctx, a: Attempt) -> Outcome:
    """Explore (LotE 5.2.2)."""
    n, world = ctx.n, ctx.world
    leader, o, ap, army = a.leader, a.order, a.ap, a.army
    key = place_named(ctx, o.target, ("zone",), why="mapping is of a sea zone, arrow or river section")
    zone = world.zones[key]
    if zone.mapping == 0 or key in n.charts:
        raise Refused(f"{key} is already charted for you")
    refuse_if(actions_codes.check_explore(culture=n.culture, kind=FEATURES[zone.kind], requirement=zone.mapping),
              "LotE 5.2.2")
    ctx.use_ap(leader.name, ap)
    if ctx.apply:
        ships = sum(c for code_, c in (army.units.items() if army else ()) if actions.unit_profile(
            code_.strip("()")).kind == "ship")
        progress = actions_codes.MappingProgress(key, FEATURES[zone.kind], zone.mapping, n.mapping.get(key, 0))
        _needs(ctx, actions_codes.explore_ruling(progress, leader=leader.name, charisma=leader.charisma,
                                           navigation=n.navigation, hostile=zone.hostile, ships=ships,
                                           dice=ctx.dice),
               f"{n.name}: {leader.name} explores {key} ({ap} AP); on success `edit {n.name} mapping[{key}] +1`")
        ctx.report(f"{leader.name} sets out to explore {key}.")
    return Outcome(OK, f"{leader.name} explores {key} ({ap} AP; mapping {n.mapping.get(key, 0)}/{zone.mapping}); "
                       "the GM rules the attempt and any losses (LotE 5.2.2)")


def _nationalize(ctx: Ctx, a: Attempt) -> Outcome:
    """Nationalize a Monopoly (LotE 5.2.3)."""
    n, state = ctx.n, ctx.state
    leader, o, ap = a.leader, a.order, a.ap
    house = state.find_nation(o.target)
    monopolies = [m for m in state.monopolies if house is not None and m.house == house.name
                  and m.nation == n.name]
    acquired = any(m.kind == "acquired" for m in monopolies)
    if house is None or not monopolies:
        raise Refused(f"`{o.target}` holds no monopoly in {n.name}")
    refuse_if(actions_codes.check_nationalize(culture=n.culture, actor_is_king=leader.title == "king",
                                        monopoly_acquired=acquired), "LotE 5.2.3")
    ctx.use_ap(leader.name, ap)
    if ctx.apply:
        _needs(ctx, actions_codes.nationalize_ruling(nation=n.name, house=house.name, diplomacy=leader.diplomacy,
                                                     options=campaign.action_options(state.options),
                                                     dice=ctx.dice),
               f"{n.name}: {leader.name} nationalizes {house.name}'s monopoly; on success remove it "
               f"(`edit {n.name} monopoly[<id>] =none`)", parties=[n.name, house.name])
        ctx.report(f"{leader.name} moves to nationalize {house.name}'s monopoly.")
    return Outcome(OK, f"the King spends {ap} AP to nationalize {house.name}'s monopoly; the GM rules (LotE 5.2.3)")


def _colonize_inhabited(ctx: Ctx, a: Attempt) -> Outcome:
    """Colonize an Inhabited Region (LotE 5.2.4)."""
    n, world = ctx.n, ctx.world
    leader, o, ap, kind, army = a.leader, a.order, a.ap, a.kind, a.army
    region = world.region(o.target)
    held = accounts.held_regions(n, world)
    refuse_if(actions_codes.check_colonize_inhabited(
        culture=n.culture, leader_title=leader.title.title() if kind == "national" else "Mercenary",
        region_culture=CULTURE_NAMES.get(region.people, "settled"),
        adjacent_to_controlled_land=any(nb in held for nb in region.neighbours),
        gp_carried=o.gp, nfp_carried=o.nfp), "LotE 5.2.4")
    ctx.use_ap(leader.name, ap)
    ctx.spend(o.gp, o.nfp, what="the colonists")
    if ctx.apply:
        _needs(ctx, actions_codes.colonize_inhabited_ruling(leader=leader.name, region=region.name,
                                                      charisma=leader.charisma, natives_friendly=False,
                                                      escort_points=accounts.troop_points(
                                                          army.units if army else {}), dice=ctx.dice),
               f"{n.name}: {leader.name} emplaces a colony in {region.name} with {number(o.gp)} GP and "
               f"{o.nfp} NFP (15 GP and 15 NFP settle a GPv, LotE 3.3.1)")
        ctx.report(f"{leader.name} carries {number(o.gp)} GP and {o.nfp} NFP of colonists to {region.name}.")
    return Outcome(OK, f"{leader.name} emplaces a colony in {region.name} ({ap} AP, {number(o.gp)} GP, "
                       f"{o.nfp} NFP); the GM rules it (LotE 5.2.4)")


def _destroy_combine_location(ctx: Ctx, a: Attempt) -> Outcome:
    """Destroy a Combine Location (LotE 5.2.5)."""
    n = ctx.n
    leader, o, ap, kind, army = a.leader, a.order, a.ap, a.kind, a.army
    points = accounts.troop_points(army.units if army else {})
    refuse_if(actions_codes.check_destroy_combine_location(culture=n.culture, leader=kind, troop_points=points),
              "LotE 5.2.5")
    ctx.use_ap(leader.name, ap)
    if ctx.apply:
        rolls = []
        roll = ctx.d100(f"{leader.name}/DCL")
        if roll is not None:
            rolls.append(f"d100: {roll}")
        ctx.ruling("action", f"{n.name}: {leader.name} destroys the Combine location at {o.target} with "
                             f"{number(points)} troop points: it falls if undefended; else a fight (LotE 5.2.5).",
                   rolls=rolls, tables=["LotE 5.2.5 Destroy Combine Location"])
        ctx.report(f"{leader.name} moves against the Combine location at {o.target}.")
    return Outcome(OK, f"{leader.name} destroys the Combine location at {o.target} ({ap} AP); the GM rules "
                       "(LotE 5.2.5)")


def _merchant(ctx: Ctx, leader: Leader, o: LeaderAction) -> Outcome:
    """A Merchant House action (LotE 7.4, Table 7-2)."""
    n, world, state = ctx.n, ctx.world, ctx.state
    action = merchant_actions.merchant_action(o.code)
    if not n.is_house:
        raise Refused(f"{action.name} is a Merchant House action (LotE 7.4)")
    years = max(1, int(accounts.years(state))) if action.per_year else 1
    base = merchant_actions.merchant_action_cost(action.code, years=years, options=ctx.merchant)
    if o.gp and o.gp + 1e-9 < base.gp:
        raise Refused(f"{action.name} costs {number(base.gp)} GP (Table 7-2)")
    support = max(0.0, o.gp - base.gp) if o.gp else 0.0
    ap = _ap(o, base.ap, action.open_ended)
    cost = merchant_actions.merchant_action_cost(action.code, years=years, support_gold=support,
                                                 extra_ap=ap - base.ap, options=ctx.merchant)
    target = o.target
    key = MERCHANT_TARGETS.get(action.code, _named)(ctx, action, target)
    ctx.use_ap(leader.name, cost.ap)
    ctx.spend(cost.gp, what=action.name)
    if ctx.apply:
        stat = {"Diplomacy": leader.diplomacy, "Combat": leader.combat}.get(action.stat, leader.diplomacy)
        attempt, shown = merchant_factors.attempt(state, n, leader, action.code, key or target, stat=stat,
                                                  support_gold=support, in_region=bool(key and key in world.regions))
        ruling = merchant_actions.action_ruling(action.code, n.name, key or target, attempt, dice=ctx.dice,
                                                extra=shown)
        follow = {"aa": "ma", "emf": "mf", "obo": "bo", "fct": "ci"}.get(action.code)
        hint = f"; on success `edit {n.name} city[{key}].status ={follow}`" if follow and key in world.cities else ""
        if action.code == "emb" and key:
            current = mercenaries.broker(state, key)
            hint = f"; on success `edit {n.name} brokerages +{key}`" + (
                f" and `edit {current.name} brokerages -{key}`" if current else "")
        _needs(ctx, ruling, f"{n.name}: {leader.name} attempts {action.name} ({action.code.upper()}) at {key} "
                            f"({cost.ap} AP, {number(cost.gp)} GP)", gm_hint=hint)
        ctx.report(f"{leader.name} attempts {action.name} at {key} ({cost.ap} AP, {number(cost.gp)} GP).")
    return Outcome(OK, f"{action.name} at {key}: {cost.ap} AP and {number(cost.gp)} GP (Table 7-2"
                       f"{f', {number(support)} GP in support' if support else ''}); the GM rules the attempt")


def _site(ctx: Ctx, action: merchant_actions.MerchantAction, target: str) -> str | None:
    """A city or region where the House raises, founds, seizes or destroys a location (LotE 7.4.1-7.4.5, 7.4.10)."""
    n, world = ctx.n, ctx.world
    key = place_named(ctx, target) if target else None
    if key is None or key in world.zones:
        raise Refused(f"{action.name} names a city or region on the map")
    own = accounts.holding_of(n, world, key)
    own_code = own.status if own is not None and statuses.is_merchant(own.status) else None
    is_city = key in world.cities
    if action.code == "aa" and own_code is not None:
        raise Refused(f"you already hold {merchant.status(own_code).name} at {key}")
    needs = {"emf": "ma", "obo": "mf", "fct": "bo"}
    if action.code in needs and own_code != needs[action.code]:
        want = merchant.status(needs[action.code]).name
        raise Refused(f"{action.name} needs your {want} at {key} first (LotE {action.section})")
    if action.code in ("obo", "fct") and not is_city:
        raise Refused(f"a {'Branch Office' if action.code == 'obo' else 'Cartel City'} stands only in a city "
                      "(LotE 7.2)")
    if action.code == "ecl" and is_city:
        raise Refused("a mercantile colony is founded in a region (LotE 7.4.5)")
    return key


def _nation_aimed_at(ctx: Ctx, action: merchant_actions.MerchantAction, target: str) -> Nation:
    if not target:
        raise Refused(f"{action.name} names the nation it is aimed at")
    return nation_named(ctx, target, besides=ctx.n)


def _monopoly_in(ctx: Ctx, action: merchant_actions.MerchantAction, target: str) -> str:
    """Acquire a Monopoly (LotE 7.4.6): from a Branch Office or better in the nation's capital."""
    other = _nation_aimed_at(ctx, action, target)
    capital = other.capital
    mine = ctx.n.city(capital) if capital else None
    if mine is None or not merchant.at_least(mine.status if statuses.is_merchant(mine.status) else None, "bo"):
        raise Refused(f"acquiring a monopoly needs your Branch Office or better in {other.name}'s capital "
                      "(LotE 7.4.6)")
    return other.name


def _treatment_by(ctx: Ctx, action: merchant_actions.MerchantAction, target: str) -> str:
    """Gain Preferential Treatment or Discredit a Competitor: from a Branch Office or better in one of the nation's
    cities (LotE 7.4.7, 7.4.8)."""
    other = _nation_aimed_at(ctx, action, target)
    theirs = {c.city for c in other.cities if statuses.get(c.status).ladder == "nation"}
    if not any(c.city in theirs and merchant.at_least(c.status if statuses.is_merchant(c.status) else None, "bo")
               for c in ctx.n.cities):
        raise Refused(f"{action.name} needs a Branch Office or better in one of {other.name}'s cities "
                      f"(LotE {action.section})")
    return other.name


def _brokerage(ctx: Ctx, action: merchant_actions.MerchantAction, target: str) -> str:
    """Establish a Brokerage (LotE 7.4.11): a mercenary pool with no broker, or another House's."""
    pool = ctx.world.pool(target) if target else None
    current = mercenaries.broker(ctx.state, pool.name) if pool else None
    refuse_if(merchant_actions.check_establish_brokerage(
        ctx.n.name, pool=target or "(no pool named)", pool_exists=pool is not None,
        current_broker=current.name if current else None), "LotE 7.4.11")
    assert pool is not None
    return pool.name


def _named(ctx: Ctx, action: merchant_actions.MerchantAction, target: str) -> str | None:
    if not target:
        raise Refused(f"{action.name} names its target")
    return ctx.world.canonical(target)


# What each Merchant House action is aimed at, read and checked before its cost is taken.
MERCHANT_TARGETS: dict[str, Callable[[Ctx, merchant_actions.MerchantAction, str], str | None]] = {
    **dict.fromkeys(("aa", "emf", "obo", "fct", "ecl", "zl", "dl"), _site),
    "amn": _monopoly_in, "gpt": _treatment_by, "dcm": _treatment_by, "emb": _brokerage,
}

ACTION_CODES: dict[str, Callable[[Ctx, Leader, LeaderAction], Outcome]] = {
    "RU": _new_code(_retrain), "EX": _new_code(_explore), "NM": _new_code(_nationalize),
    "CIR": _new_code(_colonize_inhabited), "DCL": _new_code(_destroy_combine_location),
    "IMA": _intervene,
    **{action.code.upper(): _merchant for action in merchant_actions.merchant_actions()},
}


def note(ctx: Ctx, o: Note) -> Outcome:
    if ctx.apply:
        ctx.ruling(o.kind, f"{ctx.n.name}: {o.body}")
    return Outcome(Verdict.FLAGGED, "for the GM to read and rule on")
