"""LotE Modern Era 6.2: inter-national banking, from the loan schedule to rebuilding a collapsed bank.

Offers:
- `BankingOptions` and `campaign_options` (choices where 6.2 is silent or contradicts itself), `Bank`, `Loan`,
  `TaxPenalty`, `DefaultOutcome` (all dump/load to JSON-compatible data).
- `has_bank` (6.2), `amount_owed`, `due_turn`, `due_loans` (6.2.1, 6.2.5), `loan_capacity`,
  `available_to_lend`, `invest` (6.2.4), `bank_status`, `open_bank`, `close_bank` (6.2.3),
  `internal_rate_minimum`, `set_rates` (6.2.5), `check_loan`, `take_loan`, `loan_profit`, `repay`
  (6.2-6.2.5, Catholic usury 6.2.2), `default_on`, `tax_rate_reduction`, `reduced_tax_rate` (6.2.6),
  `settle_due` (6.2.1 with 6.2.6), `penalty_payment` (6.2.7), `rebuild_cost`, `pay_rebuild`, `restore_if_due` (6.2.8).

Rates are fractions (0.30 = 30%). Turns are the campaign's turn numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.core.errors import RulesError
from engine.core.ruleset import Option, OptionValue
from engine.core.tables import load_data
from engine.rulesets.lote_modern.rules.actions import option_list, options_of

PACKAGE = "engine.rulesets.lote_modern"
BankStatus = Literal["Open", "Closed", "Defaulted"]


@functools.cache
def _data() -> dict[str, Any]:
    return load_data(PACKAGE, "data/s6_banking.toml")


@dataclass(frozen=True, slots=True)
class BankingOptions:
    """Campaign choices for 6.2 (each is explained in docs/rulesets/lote-modern/sections-5-7.md)."""

    profit_basis: str = "spread"                 # "spread": rate minus the lender's internal rate (6.2.5 example)
    max_external_rate_percent: int = 100         # "the highest rate the market can bear"
    catholic_internal_capacity_percent: int = 10  # "a very small amount" while usury is proscribed
    collapse_recovery: str = "rebuild"           # "rebuild" (6.2.8) or "automatic" (6.2.6, four turns)
    tax_penalty_on_any_default: bool = True      # the 6.2.6 example; off: only when the bank collapses
    penalty_on_amount_owed: bool = False         # penalty twice the principal (off) or twice what was owed
    recovered_rate_floor: bool = True            # a recovered bank's internal floor rises by the 10% boost

    @classmethod
    def from_campaign(cls, values: Mapping[str, OptionValue]) -> BankingOptions:
        return options_of(cls, "banking", values)


def campaign_options() -> tuple[Option, ...]:
    """Section 6.2's campaign options (names `banking-...`)."""
    return option_list(BankingOptions, "banking", {
        "profit_basis": "What a repaid loan adds to the bank: the rate over its internal rate (spread) or all interest",
        "max_external_rate_percent": "The highest external rate the market bears, in percent",
        "catholic_internal_capacity_percent": "Share of its capacity a Catholic bank lends while usury is proscribed",
        "collapse_recovery": "A collapsed bank is restored by paying 4 GP per GP (rebuild) or after four turns",
        "tax_penalty_on_any_default": "Every default cuts the lender's tax rate (off: only a collapse does)",
        "penalty_on_amount_owed": "Penalty payments are twice what was owed (off: twice the principal)",
        "recovered_rate_floor": "A bank recovered from a default keeps a 30% internal floor",
    }, choices={"profit_basis": ("spread", "interest"), "collapse_recovery": ("rebuild", "automatic")},
       bounds={"max_external_rate_percent": (20, 1000), "catholic_internal_capacity_percent": (0, 100)})


def has_bank(tech_level: int) -> bool:
    """LotE 6.2: nations of Tech Level 8 or better have banks."""
    return tech_level >= int(_data()["banks"]["min_tech_level"])


def amount_owed(principal: float, rate: float) -> float:
    """LotE 6.2.5: principal plus principal times the rate, never compounded."""
    return principal + principal * rate


def due_turn(turn_taken: int) -> int:
    """LotE 6.2.1: a loan falls due at the beginning of the third turn after it was taken."""
    return turn_taken + int(_data()["schedule"]["due_after_turns"])


@dataclass(frozen=True, slots=True)
class Loan:
    """One loan, with the rates fixed when it was taken."""

    lender: str
    borrower: str
    principal: float
    rate: float
    lender_internal_rate: float
    turn: int
    id: str = ""

    @property
    def owed(self) -> float:
        return amount_owed(self.principal, self.rate)

    @property
    def due_turn(self) -> int:
        return due_turn(self.turn)

    @property
    def external(self) -> bool:
        return self.lender != self.borrower

    def dump(self) -> dict[str, Any]:
        return {"lender": self.lender, "borrower": self.borrower, "principal": self.principal, "rate": self.rate,
                "lender_internal_rate": self.lender_internal_rate, "turn": self.turn, "id": self.id}

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> Loan:
        return cls(raw["lender"], raw["borrower"], float(raw["principal"]), float(raw["rate"]),
                   float(raw["lender_internal_rate"]), int(raw["turn"]), raw.get("id", ""))


def due_loans(loans: Iterable[Loan], turn: int) -> list[Loan]:
    """LotE 6.2.1: the loans whose principal and interest fall due at the beginning of `turn`."""
    return [loan for loan in loans if loan.due_turn == turn]


@dataclass(frozen=True, slots=True)
class Shortfall:
    """Base capacity lost to a default on `turn`; it recovers over the turns the tax rate is reduced."""

    amount: float
    turn: int

    def at(self, turn: int) -> float:
        factors = _data()["default"]["tax_penalty_factors"]
        since = turn - self.turn
        if since <= 0:
            return self.amount
        return self.amount * float(factors[since - 1]) if since <= len(factors) else 0.0


@dataclass(frozen=True, slots=True)
class Bank:
    """A national banking system (6.2); `investment` is capacity bought at 10 GP for 1 (6.2.4)."""

    nation: str
    base_capacity: float
    investment: float = 0.0
    internal_rate: float = 0.30
    external_rate: float = 0.40
    open: bool = True
    closed_to: frozenset[str] = frozenset()
    catholic: bool = False
    papacy: bool = False
    shortfalls: tuple[Shortfall, ...] = ()
    collapsed_turn: int | None = None
    pre_collapse_capacity: float = 0.0
    rebuild_paid: float = 0.0
    recovered_from_default: bool = False

    @property
    def collapsed(self) -> bool:
        return self.collapsed_turn is not None

    def dump(self) -> dict[str, Any]:
        return {
            "nation": self.nation, "base_capacity": self.base_capacity, "investment": self.investment,
            "internal_rate": self.internal_rate, "external_rate": self.external_rate, "open": self.open,
            "closed_to": sorted(self.closed_to), "catholic": self.catholic, "papacy": self.papacy,
            "shortfalls": [[s.amount, s.turn] for s in self.shortfalls], "collapsed_turn": self.collapsed_turn,
            "pre_collapse_capacity": self.pre_collapse_capacity, "rebuild_paid": self.rebuild_paid,
            "recovered_from_default": self.recovered_from_default,
        }

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> Bank:
        return cls(
            raw["nation"], float(raw["base_capacity"]), float(raw["investment"]), float(raw["internal_rate"]),
            float(raw["external_rate"]), bool(raw["open"]), frozenset(raw["closed_to"]), bool(raw["catholic"]),
            bool(raw["papacy"]), tuple(Shortfall(float(a), int(t)) for a, t in raw["shortfalls"]),
            raw["collapsed_turn"], float(raw["pre_collapse_capacity"]), float(raw["rebuild_paid"]),
            bool(raw["recovered_from_default"]),
        )


def new_bank(nation: str, base_capacity: float, *, catholic: bool = False, papacy: bool = False) -> Bank:
    """A bank at the usual rates (6.2.5), its base capacity roughly the nation's Base Revenue (6.2.4)."""
    rates = _data()["rates"]
    return Bank(nation, base_capacity, internal_rate=float(rates["internal"]),
                external_rate=float(rates["external"]), catholic=catholic, papacy=papacy)


# --- capacity and status ---------------------------------------------------------------------------------


def loan_capacity(bank: Bank, turn: int, *, usury: bool = False, options: BankingOptions = BankingOptions()) -> float:
    """LotE 6.2.4/6.2.6: base capacity less what defaults took (recovering), plus investment."""
    if bank.collapsed:
        return 0.0
    base = max(0.0, bank.base_capacity - sum(s.at(turn) for s in bank.shortfalls))
    capacity = base + bank.investment
    if usury and bank.catholic and not bank.papacy:
        capacity *= options.catholic_internal_capacity_percent / 100
    return capacity


def available_to_lend(bank: Bank, outstanding: Iterable[Loan], turn: int, *, usury: bool = False,
                      options: BankingOptions = BankingOptions()) -> float:
    """LotE 6.2: capacity not already out on loan (all outstanding loans together stay within it)."""
    lent = sum(loan.principal for loan in outstanding if loan.lender == bank.nation)
    return loan_capacity(bank, turn, usury=usury, options=options) - lent


def invest(bank: Bank, gp: float) -> Bank:
    """LotE 6.2.4: every 10 GP invested adds 1 GP of loan capacity, permanently."""
    if gp < 0:
        raise RulesError("an investment in the bank cannot be negative")
    return replace(bank, investment=bank.investment + gp / float(_data()["capacity"]["gp_invested_per_capacity"]))


def bank_status(bank: Bank) -> BankStatus:
    """LotE 6.2.3: Open, Closed, or Defaulted (a collapsed bank, until it is restored)."""
    if bank.collapsed:
        return "Defaulted"
    return "Open" if bank.open else "Closed"


def open_bank(bank: Bank, *, closed_to: Iterable[str] = ()) -> Bank:
    """LotE 6.2.3: open the bank to trading partners, except the nations named."""
    return replace(bank, open=True, closed_to=frozenset(closed_to))


def close_bank(bank: Bank) -> Bank:
    """LotE 6.2.3: lend only to the bank's own government."""
    return replace(bank, open=False)


# --- rates -------------------------------------------------------------------------------------------------


def internal_rate_minimum(bank: Bank, options: BankingOptions = BankingOptions()) -> float:
    """LotE 6.2.5: 20%, raised by the recovery boost for a bank that recovered from a default (option)."""
    rates = _data()["rates"]
    floor = float(rates["internal_minimum"])
    if bank.recovered_from_default and options.recovered_rate_floor:
        floor += float(rates["recovery_boost"])
    return round(floor, 4)


def set_rates(bank: Bank, internal: float, external: float, options: BankingOptions = BankingOptions()) -> Bank:
    """LotE 6.2.5: internal at least its floor; external from the internal rate to the market's maximum."""
    floor = internal_rate_minimum(bank, options)
    ceiling = options.max_external_rate_percent / 100
    if internal < floor:
        raise RulesError(f"the internal rate cannot go below {floor:.0%}")
    if external < internal:
        raise RulesError(f"the external rate cannot go below the internal rate ({internal:.0%})")
    if external > ceiling:
        raise RulesError(f"the market will not bear an external rate above {ceiling:.0%}")
    return replace(bank, internal_rate=internal, external_rate=external)


# --- loans -------------------------------------------------------------------------------------------------


def check_loan(bank: Bank, borrower: str, principal: float, *, turn: int, outstanding: Iterable[Loan],
               trading_partners: Iterable[str] = (), borrower_in_default: bool = False, usury: bool = False,
               options: BankingOptions = BankingOptions()) -> list[str]:
    """LotE 6.2-6.2.6: why this bank may not lend this sum to this borrower now (empty when it may)."""
    problems: list[str] = []
    external = borrower != bank.nation
    if principal <= 0:
        problems.append("a loan must be for more than 0 GP")
    if bank.collapsed:
        problems.append(f"the {bank.nation} bank has collapsed and lends nothing until it is restored")
    if borrower_in_default:
        problems.append(f"{borrower} has defaulted and may not borrow until its penalty payment is made")
    if external:
        if not bank.open:
            problems.append(f"the {bank.nation} bank is Closed: it lends only to its own government")
        elif borrower in bank.closed_to:
            problems.append(f"the {bank.nation} bank is closed to {borrower}")
        if borrower not in set(trading_partners):
            problems.append(f"{borrower} was not trading with {bank.nation} at the beginning of the turn")
        if usury and bank.catholic and not bank.papacy:
            problems.append("while usury is proscribed, only the Papacy makes loans to other nations")
    available = available_to_lend(bank, outstanding, turn, usury=usury, options=options)
    if principal > available + 1e-9:
        problems.append(f"the {bank.nation} bank has only {max(available, 0.0):g} GP left to lend")
    return problems


def take_loan(bank: Bank, borrower: str, principal: float, *, turn: int, outstanding: Iterable[Loan],
              trading_partners: Iterable[str] = (), borrower_in_default: bool = False, usury: bool = False,
              loan_id: str = "", options: BankingOptions = BankingOptions()) -> Loan:
    """LotE 6.2.5: a loan at the bank's internal or external rate, or RulesError with every reason not."""
    outstanding = list(outstanding)
    problems = check_loan(bank, borrower, principal, turn=turn, outstanding=outstanding,
                          trading_partners=trading_partners, borrower_in_default=borrower_in_default, usury=usury,
                          options=options)
    if problems:
        raise RulesError("; ".join(problems))
    rate = bank.external_rate if borrower != bank.nation else bank.internal_rate
    return Loan(bank.nation, borrower, principal, rate, bank.internal_rate, turn, loan_id)


def loan_profit(loan: Loan, options: BankingOptions = BankingOptions()) -> float:
    """LotE 6.2.5: the cash the bank keeps from a repaid loan (by default the rate over its internal rate)."""
    if options.profit_basis == "interest":
        return loan.principal * loan.rate
    return loan.principal * max(0.0, loan.rate - loan.lender_internal_rate)


def repay(bank: Bank, loan: Loan, options: BankingOptions = BankingOptions()) -> Bank:
    """LotE 6.2/6.2.5: the profit of a repaid loan is invested in the bank (10 GP for 1 GP of capacity)."""
    if loan.lender != bank.nation:
        raise RulesError(f"that loan is owed to {loan.lender}, not {bank.nation}")
    return invest(bank, loan_profit(loan, options))


# --- defaults ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TaxPenalty:
    """LotE 6.2.6: a tax rate cut by `proportion` on the turn after `turn`, then by half and a quarter."""

    nation: str
    proportion: float
    turn: int

    def reduction(self, turn: int) -> float:
        factors = _data()["default"]["tax_penalty_factors"]
        since = turn - self.turn
        if 1 <= since <= len(factors):
            return self.proportion * float(factors[since - 1])
        return 0.0

    def dump(self) -> dict[str, Any]:
        return {"nation": self.nation, "proportion": self.proportion, "turn": self.turn}

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> TaxPenalty:
        return cls(raw["nation"], float(raw["proportion"]), int(raw["turn"]))


@dataclass(frozen=True, slots=True)
class DefaultOutcome:
    """What defaults cost a bank: capacity lost (investment first), the share of capacity, collapse."""

    lost: float
    proportion: float
    investment_lost: float
    base_lost: float
    collapsed: bool
    tax_penalty: TaxPenalty | None


def default_on(bank: Bank, loans: Sequence[Loan], turn: int, *,
               options: BankingOptions = BankingOptions()) -> tuple[Bank, DefaultOutcome]:
    """LotE 6.2.6: loans unpaid when due cost the bank their principal; at zero capacity it collapses."""
    if any(loan.lender != bank.nation for loan in loans):
        raise RulesError(f"only loans owed to {bank.nation} can default against its bank")
    lost = sum(loan.principal for loan in loans)
    before = loan_capacity(bank, turn, options=options)
    proportion = min(1.0, lost / before) if before > 0 else 1.0
    investment_lost = min(bank.investment, lost)
    base_lost = lost - investment_lost
    collapsed = before - lost <= 0
    if collapsed:
        new = replace(bank, investment=0.0, collapsed_turn=turn, pre_collapse_capacity=before, rebuild_paid=0.0)
    else:
        shortfalls = bank.shortfalls + ((Shortfall(base_lost, turn),) if base_lost > 0 else ())
        new = replace(bank, investment=bank.investment - investment_lost, shortfalls=shortfalls)
    penalise = options.tax_penalty_on_any_default or collapsed
    penalty = TaxPenalty(bank.nation, proportion, turn) if penalise and lost > 0 else None
    return new, DefaultOutcome(lost, proportion, investment_lost, base_lost, collapsed, penalty)


@dataclass(frozen=True, slots=True)
class Settlement:
    """The loans of one bank due this turn, settled: the bank after it, what was repaid, what defaulted."""

    bank: Bank
    repaid: tuple[Loan, ...]
    defaulted: tuple[Loan, ...]
    outcome: DefaultOutcome | None


def settle_due(bank: Bank, loans: Iterable[Loan], turn: int, *, paid: Iterable[str],
               options: BankingOptions = BankingOptions()) -> Settlement:
    """LotE 6.2.1/6.2.6: at the start of `turn`, due loans (by id) in `paid` are repaid; the rest default."""
    paid_ids = set(paid)
    due = [loan for loan in due_loans(loans, turn) if loan.lender == bank.nation]
    repaid = tuple(loan for loan in due if loan.id in paid_ids)
    defaulted = tuple(loan for loan in due if loan.id not in paid_ids)
    for loan in repaid:
        bank = repay(bank, loan, options)
    outcome = None
    if defaulted:
        bank, outcome = default_on(bank, defaulted, turn, options=options)
    return Settlement(bank, repaid, defaulted, outcome)


def tax_rate_reduction(penalties: Iterable[TaxPenalty], nation: str, turn: int) -> float:
    """LotE 6.2.6: the share cut from a nation's tax rate this turn (penalties add, at most all of it)."""
    return min(1.0, sum(p.reduction(turn) for p in penalties if p.nation == nation))


def reduced_tax_rate(tax_rate: float, reduction: float) -> float:
    """LotE 6.2.6: the tax rate cut by the same proportion of itself (100% cut by 44% is 56%)."""
    return tax_rate * (1.0 - reduction)


def penalty_payment(defaulted: Iterable[Loan], options: BankingOptions = BankingOptions()) -> float:
    """LotE 6.2.7: twice the defaulted loans, paid before the defaulter may borrow again."""
    loans = list(defaulted)
    amount = sum(loan.owed if options.penalty_on_amount_owed else loan.principal for loan in loans)
    return float(_data()["penalty"]["multiple"]) * amount


# --- collapse and rebuilding --------------------------------------------------------------------------------


def rebuild_cost(bank: Bank) -> float:
    """LotE 6.2.8: 4 GP for each GP of capacity the bank had before it collapsed."""
    if not bank.collapsed:
        return 0.0
    return float(_data()["rebuild"]["gp_per_capacity"]) * bank.pre_collapse_capacity


def pay_rebuild(bank: Bank, gp: float) -> Bank:
    """LotE 6.2.8: a payment toward rebuilding a collapsed bank (payments may span several turns)."""
    if not bank.collapsed:
        raise RulesError(f"the {bank.nation} bank has not collapsed")
    if gp <= 0:
        raise RulesError("a rebuilding payment must be more than 0 GP")
    return replace(bank, rebuild_paid=bank.rebuild_paid + gp)


def restore_if_due(bank: Bank, turn: int, *, base_capacity: float | None = None,
                   options: BankingOptions = BankingOptions()) -> Bank:
    """LotE 6.2.6/6.2.8: a collapsed bank reopens at its base economy and boosted rates once it qualifies."""
    if bank.collapsed_turn is None:
        return bank
    if turn < bank.collapsed_turn + int(_data()["default"]["collapse_turns"]):
        return bank
    if options.collapse_recovery == "rebuild" and bank.rebuild_paid + 1e-9 < rebuild_cost(bank):
        return bank
    rates = _data()["rates"]
    return replace(bank, base_capacity=bank.base_capacity if base_capacity is None else base_capacity,
                   investment=0.0, shortfalls=(), collapsed_turn=None, pre_collapse_capacity=0.0, rebuild_paid=0.0,
                   internal_rate=float(rates["internal_after_default"]),
                   external_rate=float(rates["external_after_default"]), recovered_from_default=True)
