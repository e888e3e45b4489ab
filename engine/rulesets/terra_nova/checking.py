"""Checking a seat's order lines against the state, without changing it.

Checking runs each line on a copy of the state, in the order the lines will be carried out
(missions before settlement before movement and combat...), so that later lines see what earlier
lines spend: florins, ships, settlers, cargo space.
"""

from __future__ import annotations

import copy

from engine.core.errors import OrderError, RulesError
from engine.core.orders import OrderCheck, Verdict, order_lines
from engine.rulesets.terra_nova.context import ORDER_RULES
from engine.rulesets.terra_nova.execution import RANK
from engine.rulesets.terra_nova.orders import Order, parse
from engine.rulesets.terra_nova.sequence import current, steps
from engine.rulesets.terra_nova.state import TNState

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
