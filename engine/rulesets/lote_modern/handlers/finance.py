"""Order handlers for the bank and loans (LotE 6.2)."""

from __future__ import annotations

from dataclasses import replace

from engine.core.errors import RulesError
from engine.core.orders import Verdict
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, citing, nation_named
from engine.rulesets.lote_modern.orders import (
    BankOrder,
    Borrow,
    LoanOrder,
    Payment,
)
from engine.rulesets.lote_modern.rules import banking
from engine.rulesets.lote_modern.sheet import Nation
from engine.rulesets.lote_modern.text import number

OK = Verdict.ACCEPTED


def usury(ctx: Ctx) -> bool:
    return bool(ctx.state.options.get("catholic-usury", False))


# -- the bank ----------------------------------------------------------------------------------------
def _own_bank(ctx: Ctx) -> banking.Bank:
    if ctx.n.bank is None:
        raise Refused(f"{ctx.n.name} has no bank (banks come with Tech Level 8, LotE 6.2)")
    return ctx.n.bank


def bank_setting(ctx: Ctx, o: BankOrder) -> Outcome:
    n = ctx.n
    bank = _own_bank(ctx)
    if o.setting == "open":
        new, text = banking.open_bank(bank, closed_to=bank.closed_to), "open to trading partners"
    elif o.setting == "closed":
        new, text = banking.close_bank(bank), "closed: it lends only to your own government"
    elif o.setting in ("close-to", "open-to"):
        other = nation_named(ctx, o.nation, besides=n)
        closed = set(bank.closed_to) | {other.name} if o.setting == "close-to" else set(bank.closed_to) - {other.name}
        new = replace(bank, closed_to=frozenset(closed))
        text = f"{'closed' if o.setting == 'close-to' else 'open again'} to {other.name}"
    else:
        with citing("LotE 6.2.5"):
            new = banking.set_rates(bank, o.internal / 100, o.external / 100, ctx.banking)
        text = f"internal rate {o.internal}%, external {o.external}%"
    if ctx.apply:
        n.bank = new
        ctx.report(f"Bank {text}.")
    return Outcome(OK, f"the bank is {text} (LotE 6.2.3, 6.2.5)")


def trading_partners(state: object, lender: Nation) -> set[str]:
    return {r.partner for r in lender.routes if r.open}


def borrow(ctx: Ctx, o: Borrow) -> Outcome:
    n, state = ctx.n, ctx.state
    lender = nation_named(ctx, o.lender)
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


def loan_order(ctx: Ctx, o: LoanOrder) -> Outcome:
    n, state = ctx.n, ctx.state
    loan = state.loan(o.loan)
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
