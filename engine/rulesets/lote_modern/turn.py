"""The mechanical part of a turn, for every nation, as a pure function of (state, orders, dice).

Order of play (docs/rulesets/lote-modern.md, "Turn processing"):
1. loans falling due are paid, or defaulted on (LotE 6.2.1, 6.2.6); collapsed banks that qualify reopen (6.2.8);
2. upkeep: troop support and a House's shipping support, scaled to the turn's length (2.3.3, 2.6, 7.3.6);
3. each nation's accepted order lines, in the order written (investments, builds, R&D, projects, bank,
   loans, trade, leader actions), nations in seat order;
4. R&D rolls for every project under way (4.1); construction and colonies advance (3.3-3.6);
5. income at this turn's tax rate, and NFP (2.2.1, 2.3.2, 6.2.6);
6. what needs the GM: actions, flagged lines, shortfalls, and oversight.py's end-of-turn checks (forces
   that meet, regions beyond the Command Control Radius, a House's cut-off sites).
The results wait in `state.report` for the GM's rulings; `gm.publish` sends them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.events import Event
from engine.core.rng import Dice
from engine.core.visibility import GM_ONLY, Visibility
from engine.rulesets.lote_modern import accounts, campaign, hands_off, orderform, oversight
from engine.rulesets.lote_modern.handlers import cobuilds, mercenaries
from engine.rulesets.lote_modern.orders import LoanOrder, parse_order
from engine.rulesets.lote_modern.rules import banking, cities, research
from engine.rulesets.lote_modern.sheet import Army, Nation, Project, RailSegment, RegionHolding
from engine.rulesets.lote_modern.state import GameState, Ruling, TurnReport
from engine.rulesets.lote_modern.text import number


def process(state: GameState, orders: Mapping[str, Sequence[str]], dice: Dice) -> list[Event]:
    """Run the mechanical part of the turn and open the GM's window."""
    report = TurnReport(turn=state.turn, orders={n: list(orders.get(n, ())) for n in state.nations})
    lines: dict[str, list[str]] = {n: [] for n in state.nations}
    rulings: list[Ruling] = []
    rolls: dict[str, list[str]] = {n: [] for n in state.nations}
    state.grown = []
    state.cartels = [c for c in state.cartels if not (c.status == "revoked" and c.turn < state.turn)]

    _loans_due(state, orders, lines)
    _restore_banks(state, lines)
    budgets = {}
    for n in state.nations.values():
        budgets[n.name] = _upkeep(state, n, lines[n.name], rulings, orders_sent=bool(orders.get(n.name)))
    bids = []
    for n in state.nations.values():
        carried = orderform.carry_out(state, n, list(orders.get(n.name, ())), dice, budgets[n.name])
        lines[n.name] += carried.lines
        for other, told in carried.others.items():
            lines.setdefault(other, []).extend(told)
        rulings += carried.rulings
        rolls[n.name] += carried.rolls
        bids += carried.bids
    mercenaries.serve(state, bids, lines, rulings)
    hands_off.turn(state, lines)
    for n in state.nations.values():
        _research(state, n, dice, lines[n.name], rolls[n.name])
        _construction(state, n, lines, rulings)
        _income(state, n, lines[n.name])
    rulings += oversight.review(state, orders)
    for i, ruling in enumerate(rulings, start=1):
        ruling.id = i
    report.lines, report.rulings, report.rolls = lines, rulings, rolls
    state.report = report
    state.stage = "rulings"
    waiting = len(rulings)
    return [Event(f"Turn {state.turn} processed: {waiting} item{'s' if waiting != 1 else ''} wait for the GM's "
                  "rulings.", GM_ONLY, "turn", {"turn": state.turn, "rulings": waiting})]


# -- 1. loans ------------------------------------------------------------------------------------------
def _refusals(orders: Mapping[str, Sequence[str]]) -> set[str]:
    out = set()
    for lines in orders.values():
        for line in lines:
            if line.lower().startswith("default "):
                order = parse_order(line)
                if isinstance(order, LoanOrder):
                    out.add(order.loan)
    return out


def _loans_due(state: GameState, orders: Mapping[str, Sequence[str]], lines: dict[str, list[str]]) -> None:
    """Borrowers pay what falls due, unless they refuse or cannot; each bank then settles its loans
    (`rules/banking.settle_due`: repaid profits go into the bank, the rest default, LotE 6.2.1, 6.2.6)."""
    refused = _refusals(orders)
    options = campaign.banking_options(state.options)
    due = banking.due_loans(state.loans, state.turn)
    paid: set[str] = set()
    for loan in due:
        borrower = state.nation(loan.borrower)
        if loan.id not in refused and borrower.gp + 1e-9 >= loan.owed:
            borrower.gp = round(borrower.gp - loan.owed, 2)
            paid.add(loan.id)
            lines[borrower.name].append(f"Loan {loan.id} repaid to {loan.lender}: {number(loan.owed)} GP.")
            if loan.lender != borrower.name:
                lines[loan.lender].append(f"{borrower.name} repaid loan {loan.id} ({number(loan.owed)} GP); "
                                          "the profit goes into your bank.")
        else:
            why = "refused" if loan.id in refused else "could not pay"
            lines[borrower.name].append(f"Loan {loan.id} from {loan.lender} ({number(loan.owed)} GP) defaulted: "
                                        f"you {why}. Every bank is closed to you until a penalty payment of "
                                        f"{number(banking.penalty_payment([loan], options))} GP (LotE 6.2.6-6.2.7).")
    for lender_name in sorted({loan.lender for loan in due}):
        lender = state.nation(lender_name)
        if lender.bank is None:
            state.defaults.extend(x for x in due if x.lender == lender_name and x.id not in paid)
            continue
        settled = banking.settle_due(lender.bank, state.loans, state.turn, paid=paid, options=options)
        lender.bank = settled.bank
        state.defaults.extend(settled.defaulted)
        outcome = settled.outcome
        if outcome is None:
            continue
        if outcome.tax_penalty is not None:
            state.tax_penalties.append(outcome.tax_penalty)
        who = ", ".join(sorted({x.borrower for x in settled.defaulted}))
        text = (f"{who} defaulted on {number(outcome.lost)} GP owed to your bank: it loses that much capacity "
                f"({outcome.proportion:.0%} of it)")
        if outcome.tax_penalty is not None:
            text += f"; your tax rate falls by {outcome.proportion:.0%} next turn, then half and a quarter of that"
        if outcome.collapsed:
            text += "; the bank has COLLAPSED (LotE 6.2.6, 6.2.8)"
        lines[lender_name].append(text + ".")
    due_ids = {loan.id for loan in due}
    state.loans = [x for x in state.loans if x.id not in due_ids]


def _restore_banks(state: GameState, lines: dict[str, list[str]]) -> None:
    for n in state.nations.values():
        if n.bank is not None and n.bank.collapsed:
            restored = banking.restore_if_due(n.bank, state.turn, options=campaign.banking_options(state.options))
            if not restored.collapsed:
                n.bank = restored
                lines[n.name].append("Your bank has been rebuilt and lends again, at 40% and 50% (LotE 6.2.8).")


# -- 2. upkeep ------------------------------------------------------------------------------------------
def _upkeep(state: GameState, n: Nation, lines: list[str], rulings: list[Ruling], *,
            orders_sent: bool) -> orderform.Budget:
    due = accounts.upkeep(state, n)
    brokerage = sum(amount for _, amount in accounts.brokerage_upkeep(state, n))
    paid = min(due.total, max(n.gp, 0.0))
    if n.brokerages:
        mercenaries.lose_brokerages(state, n, paid, due.total - brokerage, orders_sent=orders_sent, lines=lines,
                                    rulings=rulings)
    n.gp = round(n.gp - paid, 2)
    for label, amount in due.lines:
        lines.append(f"Upkeep: {label} {number(amount)} GP.")
    if paid + 1e-9 < due.total:
        short = due.total - paid
        lines.append(f"Upkeep short by {number(short)} GP: unsupported units disband (LotE 2.3.3).")
        rulings.append(Ruling(0, n.name, "upkeep", f"{n.name} is {number(short)} GP short of its upkeep "
                                                   f"({number(due.total)} GP): choose the units that disband and "
                                                   "`edit` the sheet (LotE 2.3.3, 7.3.6).",
                              tables=["LotE 2.3.3 Monetary Troop Support"]))
    unknown = accounts.unsupported_codes(n)
    if unknown:
        rulings.append(Ruling(0, n.name, "upkeep", f"{n.name} has units the build chart does not know "
                                                   f"({', '.join(unknown)}): they paid no support."))
    budget = orderform.start_budget(state, n, [])
    budget.gp = n.gp
    return budget


# -- 4. research and construction ------------------------------------------------------------------------
def _research(state: GameState, n: Nation, dice: Dice, lines: list[str], rolls: list[str]) -> None:
    """Every project under way rolls for its Advances (LotE 4.1, rules/research.py `research_turn`)."""
    years = turn_length_years(state)
    for p in n.projects:
        if p.kind != "rd" or p.done:
            continue
        info = research.research_projects().get(p.name)
        name = info.name if info else p.name
        progress = research_progress(p)
        result = research.research_turn(progress, dice, purpose=f"{n.name}/research/{p.id}", turn_years=years,
                                        rules=campaign.research_rules(state.options), visibility=Visibility.to(n.name))
        after = result.progress
        p.advances, p.gp, p.nfp, p.years = after.advances, after.gp, after.nfp, after.years
        p.advances_needed = after.advances_required
        if result.roll is None:
            result_text = f"no roll: the next Advance needs more NFP ({p.nfp} invested for {p.advances})"
        else:
            rolls.append(f"R&D {name}: d100 {result.roll} against {result.chance}%")
            if result.gained > 0:
                result_text = f"{result.gained} Advance{'s' if result.gained > 1 else ''}"
            elif result.gained < 0:
                result_text = "a setback of one Advance"
            else:
                result_text = "no progress"
            if result.blocked_by_nfp:
                result_text += f"; held back by the NFP invested ({p.nfp})"
            result_text = f"d100 {result.roll} against {result.chance}%: {result_text}"
        lines.append(f"R&D {name} ({p.id}): {result_text}; {p.advances}/{p.advances_needed}.")
        if result.completed:
            _complete_research(state, n, p, name, info, lines)


def research_progress(p: Project) -> research.ResearchProgress:
    """A research project on the sheet as the research rules read it (LotE 4.1, 4.4)."""
    info = research.research_projects().get(p.name)
    progress = research.ResearchProgress(p.name, p.advances_needed or (info.advances if info else 1),
                                         p.advances, p.gp, p.nfp, p.years, bool(p.assisted))
    if p.assisted and not progress.assisted:
        progress = research.ResearchProgress(p.name, max(1, progress.advances_required - 1), p.advances, p.gp,
                                             p.nfp, p.years, True)
    return progress


def turn_length_years(state: GameState) -> float:
    return accounts.years(state)


def _complete_research(state: GameState, n: Nation, p: Project, name: str, info: research.ResearchProject | None,
                       lines: list[str]) -> None:
    p.done = True
    p.nfp = 0
    if p.name not in n.completed:
        n.completed.append(p.name)
    n.completed_on[p.name] = state.turn
    prototype = info.prototype.lower() if info and info.prototype else None
    if prototype:
        army = _garrison_at(n, p.location)
        army.units[prototype] = army.units.get(prototype, 0) + 1
    lines.append(f"R&D {name} COMPLETE" + (f": a prototype {prototype.upper()} stands at {p.location}" if prototype
                                          else "") + " (LotE 4.2).")


def _garrison_at(n: Nation, place: str) -> Army:
    here = [a for a in n.armies if a.location == place]
    if here:
        return here[0]
    army = Army(f"{place} Garrison", place, "G")
    n.armies.append(army)
    return army


def _construction(state: GameState, n: Nation, told: dict[str, list[str]], rulings: list[Ruling]) -> None:
    years = accounts.years(state)
    lines = told[n.name]
    for p in n.projects:
        if p.done or p.kind in ("rd", "other"):
            continue
        if p.kind == "cobuild":
            cobuilds.complete(state, n, p, told, rulings)
            continue
        if p.kind == "colony":
            _colony(state, n, p, lines, rulings)
            continue
        p.years = round(p.years + years, 2)
        if p.gp + 1e-9 < p.gp_cost or p.nfp < p.nfp_cost or p.years + 1e-9 < p.years_cost:
            lines.append(f"{p.id} {p.name}: {number(p.gp)}/{number(p.gp_cost)} GP, {p.nfp}/{p.nfp_cost} NFP, "
                         f"{number(p.years)}/{number(p.years_cost)} years.")
            continue
        p.done = True
        if p.kind == "factory":
            holding = accounts.holding_of(n, state.world, p.location)
            if holding is not None:
                table = holding.hidden if p.hidden else holding.factories
                table[p.name] = table.get(p.name, 0) + p.level
            lines.append(f"{p.id}: {p.level} {p.name} points ready at {p.location} (LotE 3.6).")
        elif p.kind == "railroad":
            a, _, b = p.name.partition("-")
            seg = next((s for s in n.railroads if {s.a, s.b} == {a, b}), None)
            if seg is None:
                n.railroads.append(RailSegment(a, b, p.level))
            else:
                seg.levels += p.level
            lines.append(f"{p.id}: railroad {a}-{b} open (LotE 3.4).")
        elif p.kind == "uwm":
            n.completed.append("uwm")
            lines.append(f"{p.id}: Universal Weights and Measures adopted: +10% tax rate (LotE 3.5).")
        else:
            lines.append(f"{p.id} {p.name} complete.")


def _colony(state: GameState, n: Nation, p: Project, lines: list[str], rulings: list[Ruling]) -> None:
    """Each 15 GP and 15 NFP settle one GPv, up to the region's value (LotE 3.3.1, 7.1.2)."""
    region = state.world.regions.get(p.name)
    if region is None:
        return
    done = cities.colonise(p.gp, p.nfp, original_gpv=p.level, converted_already=p.advances)
    settled = done.converted
    p.gp, p.nfp, p.advances = round(done.gp_left, 2), done.nfp_left, p.advances + settled
    if not settled:
        lines.append(f"{p.id} colony in {p.name}: {number(p.gp)} GP and {p.nfp} NFP toward the next GPv.")
        return
    holding = n.region(region.name)
    if holding is None:
        n.regions.append(RegionHolding(region.name, "cl" if n.is_house else "F"))
    lines.append(f"{p.id}: {settled} GPv of {region.name} settled ({p.advances}/{p.level}).")
    rulings.append(Ruling(0, n.name, "colony", f"{n.name} settled {settled} GPv of {region.name}: each settlement "
                                                "may rise against the settlers unless friendly armies hold it "
                                                "(LotE 3.3.1).", tables=["LotE 3.3.1 Colonizing Inhabited Regions"]))
    if p.advances >= p.level:
        p.done = True
        region.people = ""
        lines.append(f"{region.name} is fully settled.")


# -- 5. income ----------------------------------------------------------------------------------------------
def _income(state: GameState, n: Nation, lines: list[str]) -> None:
    ledger, gp = accounts.income(state, n)
    rate = accounts.tax_rate(state, n)
    parts = ", ".join(f"{label} {number(amount)}" for label, amount in ledger.lines)
    nfp = accounts.nfp_income(state, n)
    n.gp = round(n.gp + gp, 2)
    n.nfp += nfp
    lines.append(f"Income: ({parts}) = {number(ledger.total)} x tax rate {rate:.1%} = {number(gp)} GP; "
                 f"+{nfp} NFP. Treasury now {number(n.gp)} GP, {n.nfp} NFP.")
