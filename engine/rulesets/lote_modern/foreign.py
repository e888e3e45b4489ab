"""Order handlers abroad: banks and loans (LotE 6.2), trade (2.7-2.8), leader actions (5.2, 7.4), notes."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from engine.core.errors import RulesError
from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, campaign, statuses
from engine.rulesets.lote_modern.orderform import Ctx, Outcome, Refused, find_army, handles
from engine.rulesets.lote_modern.orders import (
    BankOrder,
    Borrow,
    ConduitOrder,
    LeaderAction,
    LoanOrder,
    MonopolyOrder,
    Note,
    Payment,
    RouteOrder,
    ShipsToMsp,
)
from engine.rulesets.lote_modern.rules import (
    actions,
    actions_codes,
    banking,
    merchant,
    merchant_actions,
    military,
    trade,
)
from engine.rulesets.lote_modern.rules.actions import NeedsRuling
from engine.rulesets.lote_modern.sheet import CULTURE_NAMES, Conduit, Leader, Nation, TradeRoute, fold
from engine.rulesets.lote_modern.state import Monopoly
from engine.rulesets.lote_modern.text import number

OK = Verdict.ACCEPTED
FEATURES = {"zone": "Sea Zone", "inter-island": "Inter-Island Arrow", "open-ocean": "Open Ocean Arrow",
            "river": "River Section"}
NEW_CODES = ("RU", "EX", "NM", "CIR", "DCL")


def usury(ctx: Ctx) -> bool:
    return bool(ctx.state.options.get("catholic-usury", False))


def _problems(problems: list[str], rule: str) -> None:
    if problems:
        raise Refused("; ".join(problems) + f" ({rule})")


# -- the bank ----------------------------------------------------------------------------------------
def _own_bank(ctx: Ctx) -> banking.Bank:
    if ctx.n.bank is None:
        raise Refused(f"{ctx.n.name} has no bank (banks come with Tech Level 8, LotE 6.2)")
    return ctx.n.bank


@handles(BankOrder)
def bank_setting(ctx: Ctx, o: BankOrder) -> Outcome:
    n = ctx.n
    bank = _own_bank(ctx)
    if o.setting == "open":
        new, text = banking.open_bank(bank, closed_to=bank.closed_to), "open to trading partners"
    elif o.setting == "closed":
        new, text = banking.close_bank(bank), "closed: it lends only to your own government"
    elif o.setting in ("close-to", "open-to"):
        other = ctx.state.find_nation(o.nation)
        if other is None or other is n:
            raise Refused(f"`{o.nation}` is not another nation of this campaign")
        closed = set(bank.closed_to) | {other.name} if o.setting == "close-to" else set(bank.closed_to) - {other.name}
        new = replace(bank, closed_to=frozenset(closed))
        text = f"{'closed' if o.setting == 'close-to' else 'open again'} to {other.name}"
    else:
        try:
            new = banking.set_rates(bank, o.internal / 100, o.external / 100, ctx.banking)
        except RulesError as exc:
            raise Refused(f"{exc} (LotE 6.2.5)") from None
        text = f"internal rate {o.internal}%, external {o.external}%"
    if ctx.apply:
        n.bank = new
        ctx.report(f"Bank {text}.")
    return Outcome(OK, f"the bank is {text} (LotE 6.2.3, 6.2.5)")


def trading_partners(state: object, lender: Nation) -> set[str]:
    return {r.partner for r in lender.routes if r.open}


@handles(Borrow)
def borrow(ctx: Ctx, o: Borrow) -> Outcome:
    n, state = ctx.n, ctx.state
    lender = state.find_nation(o.lender)
    if lender is None:
        raise Refused(f"`{o.lender}` is not a nation of this campaign")
    if lender.bank is None:
        raise Refused(f"{lender.name} has no bank (LotE 6.2)")
    if state.in_default(n.name):
        raise Refused("you have defaulted on a loan: make the penalty payment before borrowing (LotE 6.2.6-6.2.7)")
    internal = lender is n
    if internal or ctx.apply:
        outstanding = list(state.loans)
        try:
            loan = banking.take_loan(lender.bank, n.name, o.gp, turn=state.turn, outstanding=outstanding,
                                     trading_partners=trading_partners(state, lender),
                                     borrower_in_default=state.in_default(n.name), usury=usury(ctx),
                                     loan_id=f"L{state.next_id}", options=ctx.banking)
        except RulesError as exc:
            if internal:
                raise Refused(f"{exc} (LotE 6.2)") from None
            ctx.report(f"{lender.name}'s bank refused a loan of {number(o.gp)} GP.")
            ctx.tell(lender.name, f"Your bank refused {n.name} a loan of {number(o.gp)} GP: {exc}.")
            return Outcome(Verdict.REJECTED, f"{lender.name}'s bank refused the loan")
        ctx.gain(o.gp)
        if ctx.apply:
            state.take_id()
            state.loans.append(loan)
            ctx.report(f"Loan {loan.id}: {number(o.gp)} GP from {lender.name} at {loan.rate:.0%}; "
                       f"{number(loan.owed)} GP due at the start of turn {loan.due_turn}.")
            if not internal:
                ctx.tell(lender.name, f"Your bank lent {n.name} {number(o.gp)} GP ({loan.id}) at {loan.rate:.0%}; "
                                      f"{number(loan.owed)} GP due turn {loan.due_turn}.")
        return Outcome(OK, f"{number(o.gp)} GP at {loan.rate:.0%}: {number(loan.owed)} GP due at the start of turn "
                           f"{loan.due_turn} (LotE 6.2.1)")
    ctx.gain(o.gp)
    ctx.budget.borrowed += o.gp
    return Outcome(Verdict.WARNING, f"a request to {lender.name}'s bank for {number(o.gp)} GP, decided when the "
                                    "turn is processed; lines below that spend it fail if the bank refuses")


@handles(LoanOrder)
def loan_order(ctx: Ctx, o: LoanOrder) -> Outcome:
    n, state = ctx.n, ctx.state
    try:
        loan = state.loan(o.loan)
    except RulesError as exc:
        raise Refused(str(exc)) from None
    if loan.borrower != n.name:
        raise Refused(f"{loan.id} is owed by {loan.borrower}, not by you")
    due = loan.due_turn == state.turn
    if o.verb == "default":
        if not due:
            raise Refused(f"{loan.id} falls due on turn {loan.due_turn}; you can only refuse a payment when it is due")
        return Outcome(Verdict.WARNING, f"you refuse to pay {loan.id} ({number(loan.owed)} GP): a default closes "
                                        "every bank to you until a penalty payment of twice the loan (LotE 6.2.6)")
    if due:
        raise Refused(f"{loan.id} is due this turn and is paid at its start anyway")
    ctx.spend(loan.owed, what=f"repaying {loan.id}")
    if ctx.apply:
        _repaid(ctx, loan)
    return Outcome(OK, f"{loan.id} repaid early in full: {number(loan.owed)} GP (LotE 6.2.1)")


def _repaid(ctx: Ctx, loan: banking.Loan) -> None:
    state = ctx.state
    state.loans = [x for x in state.loans if x.id != loan.id]
    lender = state.nation(loan.lender)
    if lender.bank is not None:
        lender.bank = banking.repay(lender.bank, loan, ctx.banking)
    ctx.report(f"Repaid {loan.id} to {loan.lender}: {number(loan.owed)} GP.")


@handles(Payment)
def payment(ctx: Ctx, o: Payment) -> Outcome:
    n, state = ctx.n, ctx.state
    if o.verb == "pay-penalty":
        defaulted = [x for x in state.defaults if x.borrower == n.name]
        if not defaulted:
            raise Refused("you owe no penalty payment")
        due = banking.penalty_payment(defaulted, ctx.banking)
        if o.gp + 1e-9 < due:
            raise Refused(f"the penalty payment is {number(due)} GP, twice the defaulted loans, paid at once "
                          "(LotE 6.2.7)")
        ctx.spend(due, what="the penalty payment")
        if ctx.apply:
            state.defaults = [x for x in state.defaults if x.borrower != n.name]
            ctx.report(f"Penalty payment of {number(due)} GP made: foreign borrowing restored.")
        return Outcome(OK, f"penalty payment {number(due)} GP: borrowing rights return (LotE 6.2.7)")
    bank = _own_bank(ctx)
    if not bank.collapsed:
        raise Refused("your bank has not collapsed")
    owed = banking.rebuild_cost(bank) - bank.rebuild_paid
    gp = min(o.gp, owed)
    ctx.spend(gp, what="rebuilding the bank")
    if ctx.apply:
        n.bank = banking.pay_rebuild(bank, gp)
        ctx.report(f"Bank rebuilding: {number(gp)} GP paid, {number(owed - gp)} GP still to pay.")
    return Outcome(OK, f"{number(gp)} GP toward rebuilding the bank ({number(owed - gp)} GP left, LotE 6.2.8)")


# -- trade ----------------------------------------------------------------------------------------------
def _port(ctx: Ctx, name: str) -> str:
    key = ctx.world.canonical(name)
    if key is None or key not in ctx.world.cities or not ctx.world.cities[key].port:
        raise Refused(f"`{name}` is not a port city on the map")
    return str(key)


@handles(ConduitOrder)
def conduit(ctx: Ctx, o: ConduitOrder) -> Outcome:
    n, world = ctx.n, ctx.world
    a, b = _port(ctx, o.a), _port(ctx, o.b)
    existing = n.conduit(a, b)
    if o.drop:
        if existing is None:
            raise Refused(f"{n.name} has no conduit {a}-{b}")
        if ctx.apply:
            n.conduits.remove(existing)
            ctx.report(f"Conduit {a}-{b} given up.")
        return Outcome(OK, f"conduit {a}-{b} given up")
    if existing is not None:
        raise Refused(f"the conduit {a}-{b} is already yours")
    for city in (a, b):
        if not accounts.anchor_ok(ctx.state, n, city):
            raise Refused(f"{city} cannot anchor a conduit for you: a port city held at Tributary or better (a House: "
                          "Branch Office or better) (Table 2-12)")
    sea, access = accounts.sea_map(world), accounts.sea_access(ctx.state, n)
    if o.zones:
        zones = []
        for z in o.zones:
            key = world.canonical(z)
            if key is None or key not in world.zones:
                raise Refused(f"`{z}` is not a sea zone on the map")
            zones.append(key)
        if not set(world.cities[a].zones) & {zones[0]} or zones[-1] not in world.cities[b].zones:
            raise Refused(f"the zones must start at a zone {a} touches and end at one {b} touches")
        cost = trade.leg_cost(sea, zones, access)
        if cost is None:
            raise Refused("those zones do not join up, or cross unknown, unmapped hostile or blockaded waters "
                          "(LotE 2.8.2.1)")
        leg = trade.Leg(a, b, tuple(zones), cost)
    else:
        found = trade.trace_leg(sea, a, b, n.trade_range, access)
        if found is None:
            raise Refused(f"no known waters join {a} and {b} within your Trade Range of {n.trade_range} (LotE 2.8.3)")
        leg = found
    if leg.cost > n.trade_range:
        raise Refused(f"{a}-{b} takes {leg.cost} points of Trade Range; yours is {n.trade_range} (LotE 2.8.3)")
    if ctx.apply:
        n.conduits.append(Conduit(a, b, list(leg.zones)))
        ctx.report(f"Conduit {a}-{b} established via {'; '.join(leg.zones)} ({leg.cost}).")
    return Outcome(OK, f"conduit {a}-{b} via {'; '.join(leg.zones)}: {leg.cost} of your Trade Range {n.trade_range}")


def trace_route(ctx: Ctx, base: str, target: str) -> trade.SeaRoute | None:
    n = ctx.n
    anchors = {c for conduit in n.conduits for c in (conduit.a, conduit.b)} & accounts.anchors(ctx.state, n)
    return trade.trace_sea_route(accounts.sea_map(ctx.world), origins=[base], anchors=anchors | {base},
                                 target=target, trade_range=n.trade_range, conduit_limit=n.conduit_limit,
                                 access=accounts.sea_access(ctx.state, n))


def _basing(ctx: Ctx, port: str, extra: int, *, leaving: str = "") -> None:
    n = ctx.n
    holding = n.city(port)
    if holding is None or not statuses.get(holding.status).base:
        raise Refused(f"{port} cannot base your merchant shipping (LotE 2.7, Table 7-1)")
    limit = accounts.basing_limit(ctx.state, n, port)
    based = sum(r.msp for r in n.routes if r.open and r.base_port == port and r.partner != leaving)
    if based + extra > limit + 1e-9:
        raise Refused(f"{port} bases at most {number(limit)} of your MSP (20 x GPv x status, LotE 2.7); "
                      f"{based} are based there")


@handles(RouteOrder)
def route(ctx: Ctx, o: RouteOrder) -> Outcome:
    n = ctx.n
    existing = n.route(o.partner)
    if o.change == "open":
        if existing is not None and existing.open:
            raise Refused(f"a route with {existing.partner} is already open")
        base, target = _port(ctx, o.port), _port(ctx, o.target)
        if n.city(base) is None:
            raise Refused(f"{base} is not yours")
        if o.msp < 1:
            raise Refused("opening a route takes at least 1 MSP (LotE 2.8.3.3)")
        if o.msp > ctx.budget.msp:
            raise Refused(f"{ctx.budget.msp} MSP are free to allocate; this takes {o.msp}")
        _basing(ctx, base, o.msp)
        traced = trace_route(ctx, base, target)
        if traced is None:
            raise Refused(f"you cannot trace {base} to {target} through your own conduits (at most "
                          f"{n.conduit_limit}) and a last stretch within your Trade Range {n.trade_range} "
                          "(LotE 2.8.3.3)")
        ctx.budget.msp -= o.msp
        partner = ctx.state.find_nation(o.partner)
        name = partner.name if partner else o.partner
        length = max(1, sum(len(leg.zones) for leg in traced.legs))
        if ctx.apply:
            if existing is not None:
                n.routes.remove(existing)
            n.routes.append(TradeRoute(name, "sea", base, target, o.msp, length,
                                       [f"{a}-{b}" for a, b in zip(traced.anchors, traced.anchors[1:], strict=False)]))
            ctx.report(f"Trade route to {name} opened from {base} to {target} with {o.msp} MSP ({length} zones).")
            ctx.ruling("trade", f"{n.name} opened a sea route to {name} ({base} to {target}, {o.msp} MSP, "
                                f"{length} zones, {traced.conduits} conduits): assess its income "
                                f"(`edit {n.name} route[{name}].income =<GP>`).")
        emsp = trade.effective_msp(o.msp, n.trade_range, length)
        return Outcome(OK, f"route to {name}: {base} to {target}, {traced.conduits} conduit(s), {length} zones, "
                           f"{o.msp} MSP ({number(emsp)} effective, LotE 2.8.2.2); the GM assesses its income")
    if existing is None or not existing.open:
        raise Refused(f"{n.name} has no open trade route with `{o.partner}`")
    if o.change == "close":
        ctx.budget.msp += existing.msp
        if ctx.apply:
            existing.open = False
            ctx.report(f"Trade route with {existing.partner} closed; {existing.msp} MSP return to port.")
            existing.msp = 0
        return Outcome(OK, f"the route with {existing.partner} closes; its {existing.msp} MSP return")
    if o.change == "msp":
        if existing.kind != "sea":
            raise Refused(f"the route with {existing.partner} is {existing.kind} trade, carried without MSP")
        if existing.msp + o.msp < 1:
            raise Refused("a route keeps at least 1 MSP; close it instead")
        if o.msp > ctx.budget.msp:
            raise Refused(f"{ctx.budget.msp} MSP are free to allocate")
        if o.msp > 0:
            _basing(ctx, existing.base_port, o.msp)
        ctx.budget.msp -= o.msp
        if ctx.apply:
            existing.msp += o.msp
            ctx.report(f"Route with {existing.partner}: {o.msp:+d} MSP (now {existing.msp}).")
        return Outcome(OK, f"{o.msp:+d} MSP on the route with {existing.partner}")
    base = _port(ctx, o.port)
    if n.city(base) is None:
        raise Refused(f"{base} is not yours")
    _basing(ctx, base, existing.msp, leaving=existing.partner)
    if trace_route(ctx, base, existing.target_port or base) is None and existing.target_port:
        raise Refused(f"you cannot trace the route from {base} through your own conduits (LotE 2.8.3.3)")
    if ctx.apply:
        existing.base_port = base
        ctx.report(f"Route with {existing.partner} now based at {base}.")
    return Outcome(OK, f"the route with {existing.partner} is based at {base}")


@handles(ShipsToMsp)
def ships_to_msp(ctx: Ctx, o: ShipsToMsp) -> Outcome:
    n = ctx.n
    try:
        unit = military.unit(o.code, accounts.culture(n))
    except RulesError as exc:
        raise Refused(str(exc)) from None
    if unit.carries is None or unit.combat is None or "Transport" not in unit.name:
        raise Refused(f"{unit.name} is not a transport: only transports become merchant shipping")
    if unit.code == "ZT":
        raise Refused("transport airships become aerial MSP, which the GM keeps (LotE 2.8.5)")
    name = find_army(n, o.army)
    army = n.army(name)
    assert army is not None
    holding = n.city(army.location) if ctx.world.is_city(army.location) else None
    if holding is None or not statuses.get(holding.status).base:
        raise Refused(f"{name} must be in a port that bases your shipping to convert transports")
    ctx.take_units(name, o.code, o.count)
    msp = unit.carries * o.count
    ctx.budget.msp += msp
    if ctx.apply:
        n.msp += msp
        ctx.report(f"{o.count}{o.code} of {name} became {msp} MSP.")
    return Outcome(OK, f"{o.count}{o.code} become {msp} MSP (one per cargo point)")


# -- leaders ---------------------------------------------------------------------------------------------------
def _leader(ctx: Ctx, name: str) -> Leader:
    leader = ctx.n.leader(name)
    if leader is None:
        raise Refused(f"{ctx.n.name} has no leader `{name}` (leaders: {', '.join(x.name for x in ctx.n.leaders)})")
    return leader


def _needs(ctx: Ctx, ruling: NeedsRuling, what: str, *, parties: list[str] | None = None) -> None:
    """Turn a rules module's ruling request into an item in the GM's window."""
    factors = "; ".join(f"{k}: {v}" for k, v in ruling.factors)
    text = f"{what}. {ruling.question}" + (f" ({factors})" if factors else "")
    rolls = [f"d100 for the GM's chance: {ruling.roll.text()}"] if ruling.roll else []
    tables = [ruling.rule] + ([ruling.applies] if ruling.applies else [])
    ctx.ruling("action", text, rolls=rolls, tables=tables, parties=parties)
    if ruling.roll:
        ctx.rolls.append(f"{what}: {ruling.roll.text()}")


@handles(LeaderAction)
def leader_action(ctx: Ctx, o: LeaderAction) -> Outcome:
    leader = _leader(ctx, o.leader)
    code = o.code.upper()
    if code in NEW_CODES:
        return _new_code(ctx, leader, o, code)
    try:
        action = merchant_actions.merchant_action(code)
    except RulesError:
        action = None
    if action is not None:
        return _merchant(ctx, leader, o, action)
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


def _ap(o: LeaderAction, base: int, open_ended: bool) -> int:
    if o.ap and o.ap < base:
        raise Refused(f"{o.code} takes {base} AP")
    if o.ap > base and not open_ended:
        raise Refused(f"{o.code} takes exactly {base} AP")
    return o.ap or base


def _new_code(ctx: Ctx, leader: Leader, o: LeaderAction, code: str) -> Outcome:
    n, world, state = ctx.n, ctx.world, ctx.state
    info = actions_codes.action_code(code)
    ap = _ap(o, info.bac, info.open_ended)
    kind = cast(actions.LeaderKind, leader.allegiance)   # the sheet allows only national, allied, mercenary
    army = accounts.leader_army(n, leader)
    if code == "RU":
        key = world.canonical(o.target)
        city = n.city(key) if key and key in world.cities else None
        in_hbz = bool(key and key in world.cities and world.cities[key].region in ctx.hbz)
        _problems(actions_codes.check_retraining(culture=n.culture, leader=kind, code=o.unit, count=o.count,
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
    if code == "EX":
        key = world.canonical(o.target)
        if key is None or key not in world.zones:
            raise Refused(f"`{o.target}` is not a sea zone, arrow or river section on the map")
        zone = world.zones[key]
        if zone.mapping == 0 or key in n.charts:
            raise Refused(f"{key} is already charted for you")
        _problems(actions_codes.check_explore(culture=n.culture, kind=FEATURES[zone.kind], requirement=zone.mapping),
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
    if code == "NM":
        house = state.find_nation(o.target)
        monopolies = [m for m in state.monopolies if house is not None and m.house == house.name
                      and m.nation == n.name]
        acquired = any(m.kind == "acquired" for m in monopolies)
        if house is None or not monopolies:
            raise Refused(f"`{o.target}` holds no monopoly in {n.name}")
        _problems(actions_codes.check_nationalize(culture=n.culture, actor_is_king=leader.title == "king",
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
    if code == "CIR":
        try:
            region = world.region(o.target)
        except RulesError as exc:
            raise Refused(str(exc)) from None
        held = accounts.held_regions(n, world)
        _problems(actions_codes.check_colonize_inhabited(
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
    points = accounts.troop_points(army.units if army else {})
    _problems(actions_codes.check_destroy_combine_location(culture=n.culture, leader=kind, troop_points=points),
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


def _merchant(ctx: Ctx, leader: Leader, o: LeaderAction, action: merchant_actions.MerchantAction) -> Outcome:
    n, world, state = ctx.n, ctx.world, ctx.state
    if not n.is_house:
        raise Refused(f"{action.name} is a Merchant House action (LotE 7.4)")
    years = max(1, int(accounts.years(state))) if action.per_year else 1
    base = merchant_actions.merchant_action_cost(action.code, years=years, options=ctx.merchant)
    if o.gp and o.gp + 1e-9 < base.gp:
        raise Refused(f"{action.name} costs {number(base.gp)} GP (Table 7-2)")
    support = max(0.0, o.gp - base.gp) if o.gp else 0.0
    ap = _ap(o, base.ap, action.open_ended)
    try:
        cost = merchant_actions.merchant_action_cost(action.code, years=years, support_gold=support,
                                                     extra_ap=ap - base.ap, options=ctx.merchant)
    except RulesError as exc:
        raise Refused(str(exc)) from None
    target = o.target
    key = world.canonical(target) if target else None
    own = accounts.holding_of(n, world, key) if key else None
    own_code = own.status if own is not None and statuses.is_merchant(own.status) else None
    needs = {"emf": "ma", "obo": "mf", "fct": "bo"}
    if action.code in ("aa", "emf", "obo", "fct", "ecl", "zl", "dl"):
        if key is None or key in world.zones:
            raise Refused(f"{action.name} names a city or region on the map")
        is_city = key in world.cities
        if action.code == "aa" and own_code is not None:
            raise Refused(f"you already hold {merchant.status(own_code).name} at {key}")
        if action.code in needs and own_code != needs[action.code]:
            want = merchant.status(needs[action.code]).name
            raise Refused(f"{action.name} needs your {want} at {key} first (LotE {action.section})")
        if action.code in ("obo", "fct") and not is_city:
            raise Refused(f"a {'Branch Office' if action.code == 'obo' else 'Cartel City'} stands only in a city "
                          "(LotE 7.2)")
        if action.code == "ecl" and is_city:
            raise Refused("a mercantile colony is founded in a region (LotE 7.4.5)")
    elif action.code in ("amn", "gpt", "dcm"):
        other = state.find_nation(target)
        if other is None or other is n:
            raise Refused(f"{action.name} names the nation it is aimed at")
        if action.code == "amn":
            capital = other.capital
            mine = n.city(capital) if capital else None
            if mine is None or not merchant.at_least(mine.status if statuses.is_merchant(mine.status) else None, "bo"):
                raise Refused(f"acquiring a monopoly needs your Branch Office or better in {other.name}'s capital "
                              "(LotE 7.4.6)")
        else:
            theirs = {c.city for c in other.cities if statuses.get(c.status).ladder == "nation"}
            if not any(c.city in theirs and merchant.at_least(c.status if statuses.is_merchant(c.status) else None,
                                                              "bo") for c in n.cities):
                raise Refused(f"{action.name} needs a Branch Office or better in one of {other.name}'s cities "
                              f"(LotE {action.section})")
        key = other.name
    elif not target:
        raise Refused(f"{action.name} names its target")
    ctx.use_ap(leader.name, cost.ap)
    ctx.spend(cost.gp, what=action.name)
    if ctx.apply:
        stat = {"Diplomacy": leader.diplomacy, "Combat": leader.combat}.get(action.stat, leader.diplomacy)
        attempt = merchant_actions.Attempt(leader.name, stat, support_gold=support,
                                           in_region=bool(key and key in world.regions))
        ruling = merchant_actions.action_ruling(action.code, n.name, key or target, attempt, dice=ctx.dice)
        follow = {"aa": "ma", "emf": "mf", "obo": "bo", "fct": "ci"}.get(action.code)
        hint = f"; on success `edit {n.name} city[{key}].status ={follow}`" if follow and key in world.cities else ""
        _needs(ctx, ruling, f"{n.name}: {leader.name} attempts {action.name} ({action.code.upper()}) at {key} "
                            f"({cost.ap} AP, {number(cost.gp)} GP){hint}")
        ctx.report(f"{leader.name} attempts {action.name} at {key} ({cost.ap} AP, {number(cost.gp)} GP).")
    return Outcome(OK, f"{action.name} at {key}: {cost.ap} AP and {number(cost.gp)} GP (Table 7-2"
                       f"{f', {number(support)} GP in support' if support else ''}); the GM rules the attempt")


@handles(MonopolyOrder)
def monopoly(ctx: Ctx, o: MonopolyOrder) -> Outcome:
    n, state = ctx.n, ctx.state
    house = state.find_nation(o.house)
    if house is None or not house.is_house:
        raise Refused(f"`{o.house}` is not a Merchant House of this campaign")
    mine = [m for m in state.monopolies if m.house == house.name and m.nation == n.name]
    if o.verb == "revoke":
        match = next((m for m in mine if fold(m.good) == fold(o.good)), None)
        if match is None:
            raise Refused(f"{house.name} holds no `{o.good}` monopoly in {n.name}")
        if match.kind != "granted":
            raise Refused("an acquired monopoly is removed only by the King's Nationalize Monopoly (NM) action "
                          "(LotE 7.1.1, 5.2.3)")
        if ctx.apply:
            state.monopolies.remove(match)
            ctx.report(f"The {match.good} monopoly granted to {house.name} is revoked.")
            ctx.tell(house.name, f"{n.name} revoked your granted {match.good} monopoly (LotE 7.1.1).")
        return Outcome(OK, f"the {match.good} monopoly returns to {n.name}'s economy (LotE 7.1.1)")
    value = max(0, int(accounts.trade_value(state, n)))
    held = sum(1 for m in state.monopolies if m.nation == n.name)
    left = merchant.monopolies_available(value + held, held)
    if left <= 0:
        raise Refused(f"{n.name}'s economy holds {merchant.monopoly_limit(value + held)} monopolies at most, and "
                      f"{held} are held (square root of its Trade Value, LotE 7.1.1)")
    if any(fold(m.good) == fold(o.good) for m in mine):
        raise Refused(f"{house.name} already holds the {o.good} monopoly")
    if ctx.apply:
        state.monopolies.append(Monopoly(state.take_id(), house.name, n.name, o.good, "granted"))
        ctx.report(f"{house.name} granted the {o.good} monopoly: one Trade Value point passes to it.")
        ctx.tell(house.name, f"{n.name} granted you its {o.good} monopoly: +1 Trade Value, +0.01 NMV (LotE 7.1.1).")
    return Outcome(OK, f"{house.name} takes the {o.good} monopoly: one of {n.name}'s Trade Value points and +0.01 "
                       "to its NMV (LotE 7.1.1)")


@handles(Note)
def note(ctx: Ctx, o: Note) -> Outcome:
    if ctx.apply:
        ctx.ruling(o.kind, f"{ctx.n.name}: {o.body}")
    return Outcome(Verdict.FLAGGED, "for the GM to read and rule on")
