"""Checking a seat's order lines against the state, and carrying accepted lines out in their step.

Checking runs each line on a copy of the state, in the order the lines will be carried out
(missions before settlement before movement and combat...), so that later lines see what earlier
lines spend: florins, ships, settlers, cargo space.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from engine.core.errors import OrderError, RulesError
from engine.core.orders import OrderCheck, Verdict, order_lines
from engine.rulesets.terra_nova.context import ORDER_RULES, Ctx
from engine.rulesets.terra_nova.orders import Order, parse
from engine.rulesets.terra_nova.sequence import current, steps
from engine.rulesets.terra_nova.state import TNState

# Within one order window, lines are carried out in this order (by kind).
RANK = {"note": 0, "pay": 1, "buy": 2, "intercept": 1, "sail": 2, "attack-at-sea": 3, "factory": 4,
        "mission": 1, "settle": 2, "town": 2, "plantation": 2, "move": 3, "tactic": 4, "attack": 4,
        "ally": 1, "vote": 1}
MAX_LINES = 60


def window_verbs(state: TNState) -> tuple[str, ...]:
    return current(state).verbs


def where_verb_goes(verb: str) -> str:
    for spec in steps():
        if verb in spec.verbs:
            return spec.label
    return "no order window"


def check_lines(state: TNState, seat: str, text: str) -> list[OrderCheck]:
    """Answer line by line: accepted (canonical form), warning, flagged for the GM, or rejected."""
    lines = order_lines(text)
    if not lines:
        raise OrderError("no orders found: write at least one line")
    if len(lines) > MAX_LINES:
        raise OrderError(f"at most {MAX_LINES} order lines per window")
    verbs = window_verbs(state)
    results: dict[int, OrderCheck] = {}
    parsed: list[tuple[int, str, Order]] = []
    for n, line in lines:
        try:
            order = parse(state, seat, line)
        except RulesError as exc:
            results[n] = OrderCheck(n, line, Verdict.REJECTED, "", str(exc))
            continue
        if order.kind == "note":
            results[n] = OrderCheck(n, line, Verdict.FLAGGED, order.text(), "for the GM to read and rule on")
        elif order.kind not in verbs:
            where = where_verb_goes(order.kind)
            results[n] = OrderCheck(n, line, Verdict.REJECTED, "", f"`{line.split()[0]}` orders are not taken now; "
                                    f"they go in {where}")
        else:
            parsed.append((n, line, order))
    trial = copy.deepcopy(state)
    step = current(state).name
    for n, line, order in sorted(parsed, key=lambda p: RANK.get(p[2].kind, 5)):
        validate, apply = ORDER_RULES[order.kind]
        try:
            warnings = validate(trial, seat, order, step)
            apply(trial, seat, order, step, None)
        except RulesError as exc:
            results[n] = OrderCheck(n, line, Verdict.REJECTED, "", str(exc))
            continue
        verdict = Verdict.WARNING if warnings else Verdict.ACCEPTED
        results[n] = OrderCheck(n, line, verdict, order.text(), "; ".join(warnings))
    return [results[n] for n, _ in lines]


def carry_out(ctx: Ctx, kinds: Iterable[str]) -> None:
    """Carry out every seat's lines of these kinds, seat by seat in initiative order."""
    wanted = set(kinds)
    state = ctx.state
    for seat in ctx.seats_in_order:
        lines = [(line, _parse(ctx, seat, line)) for line in ctx.orders.get(seat, ())]
        todo = [(line, o) for line, o in lines if o is not None and o.kind in wanted]
        for line, order in sorted(todo, key=lambda p: RANK.get(p[1].kind, 5)):
            validate, apply = ORDER_RULES[order.kind]
            try:
                validate(state, seat, order, ctx.step)
                apply(state, seat, order, ctx.step, ctx)
            except RulesError as exc:
                ctx.say(f"{seat}: `{line}` was not carried out — {exc}", to=seat, kind="order")


def _parse(ctx: Ctx, seat: str, line: str) -> Order | None:
    try:
        return parse(ctx.state, seat, line)
    except RulesError as exc:
        ctx.say(f"{seat}: `{line}` could not be read — {exc}", to=seat, kind="order")
        return None


def report_notes(ctx: Ctx, orders: dict[str, list[str]]) -> None:
    for seat, lines in orders.items():
        for line in lines:
            if line.lower().startswith("note "):
                ctx.say(f"Note from {seat}: {line[5:]}", gm=True, kind="note")
