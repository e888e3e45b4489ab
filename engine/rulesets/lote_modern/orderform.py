"""Checking and carrying out a nation's order form, one line at a time, with one code path for both.

`check_orders` answers a player line by line without changing anything; `carry_out` runs the same
handlers on the live sheet during resolution, so an order accepted at checking does at resolution
exactly what its echo said (unless the sheet changed in between, when the handler says why not).
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import Any

from engine.core.errors import OrderError, RulesError
from engine.core.orders import OrderCheck, Verdict, read_form
from engine.core.rng import Dice
from engine.rulesets.lote_modern.context import Budget, Ctx, Outcome, names_of, start_budget
from engine.rulesets.lote_modern.handlers import HANDLERS
from engine.rulesets.lote_modern.orders import Order, UnknownVerb, parse_order, verb_list
from engine.rulesets.lote_modern.sheet import Nation
from engine.rulesets.lote_modern.state import GameState, Ruling

__all__ = ["Budget", "Carried", "carry_out", "check_orders", "run", "start_budget"]

MAX_LINES = 200
MAX_LINE = 300


def check_orders(state: GameState, n: Nation, text: str) -> list[OrderCheck]:
    """Each line of an order form: accepted in canonical form, flagged for the GM, or refused with the reason."""
    names = names_of(n)
    listed = False

    def parse(line: str) -> Order:
        nonlocal listed
        try:
            return parse_order(line, names)
        except UnknownVerb as exc:  # the verbs are listed once, on the first such line
            if listed:
                raise
            listed = True
            raise OrderError(f"{exc} ({verb_list()})") from None

    lines = read_form(text, parse, max_lines=MAX_LINES, max_line=MAX_LINE,
                      empty="write one order per line (see the order form help)")
    ctx = Ctx(state, n, start_budget(state, n, [line.order for line in lines]), apply=False)
    out = []
    for line in lines:
        if line.order is None:
            out.append(line.refused())
            continue
        ctx.meant = {}
        outcome = run(ctx, line.order)
        if ctx.meant and outcome.verdict is not Verdict.REJECTED:  # echoed, and carried out, with the full names
            line = dataclasses.replace(line, order=spelled_out(line.order, ctx.meant))
        out.append(line.answer(outcome.verdict, outcome.message))
    return out


def spelled_out(order: Order, meant: dict[str, str]) -> Order:
    """The order with each name as it was read (`lond` -> `London`), so the line kept is the line meant."""
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(order):
        value = getattr(order, f.name)
        if isinstance(value, str) and value in meant:
            changes[f.name] = meant[value]
        elif isinstance(value, tuple) and any(isinstance(x, str) and x in meant for x in value):
            changes[f.name] = tuple(meant.get(x, x) if isinstance(x, str) else x for x in value)
    return dataclasses.replace(order, **changes) if changes else order


def run(ctx: Ctx, order: Order) -> Outcome:
    """One order through its handler, on a copy of the budget: kept if the line is accepted, dropped if refused,
    so a refused line leaves no trace however much of the budget it touched."""
    handler = HANDLERS[type(order)]
    before = ctx.budget
    ctx.budget = copy.deepcopy(before)
    try:
        return handler(ctx, order)
    except RulesError as exc:  # Refused, or any rules module's refusal: the one place one becomes a verdict
        ctx.budget = before
        return Outcome(Verdict.REJECTED, str(exc))


@dataclass(slots=True)
class Carried:
    """What carrying out one nation's orders produced."""

    lines: list[str]
    rulings: list[Ruling]
    rolls: list[str]
    others: dict[str, list[str]]
    bids: list[Any]


def carry_out(state: GameState, n: Nation, lines: list[str], dice: Dice, budget: Budget) -> Carried:
    """Apply a nation's accepted order lines in order, on the live sheet."""
    ctx = Ctx(state, n, budget, apply=True, dice=dice)
    names = names_of(n)
    for line in lines:
        try:
            order = parse_order(line, names)
        except OrderError as exc:
            ctx.lines.append(f"✗ `{line}`: {exc}")
            continue
        outcome = run(ctx, order)
        if outcome.verdict is Verdict.REJECTED:
            ctx.lines.append(f"✗ `{order.text()}`: not carried out: {outcome.message}")
        names = names_of(n)
    return Carried(ctx.lines, ctx.rulings, ctx.rolls, ctx.others, ctx.bids)


