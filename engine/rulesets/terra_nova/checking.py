"""Checking a seat's order lines against the state, without changing it.

Checking runs each line on a copy of the state, in the order the lines will be carried out
(missions before settlement before movement and combat...), so that later lines see what earlier
lines spend: florins, ships, settlers, cargo space.
"""

from __future__ import annotations

import copy
from typing import Literal

from engine.core.errors import RulesError
from engine.core.orders import Line, OrderCheck, Verdict, read_form
from engine.rulesets.terra_nova.context import ORDER_RULES
from engine.rulesets.terra_nova.execution import RANK
from engine.rulesets.terra_nova.odds import order_odds
from engine.rulesets.terra_nova.orders import Order, Tactic
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


def check_lines(state: TNState, seat: str, text: str, *, odds: Literal["brief", "full"] | None = None,
                any_window: bool = False) -> list[OrderCheck]:
    """Answer line by line: accepted (canonical form), warning, flagged for the GM, or rejected.

    With `odds`, a line that rolls dice says what may happen (🎲), counted on the state the earlier lines
    leave; `any_window` takes every verb now (to ask the odds of an order for a later step)."""
    lines = read_form(text, lambda line: Order.parse(line, state, seat), max_lines=MAX_LINES, per="per window")
    verbs = window_verbs(state)
    results: dict[int, OrderCheck] = {}
    parsed: list[tuple[Line[Order], Order]] = []
    for line in lines:
        order = line.order
        if order is None:
            results[line.number] = line.refused()
        elif order.kind == "note":
            results[line.number] = line.answer(Verdict.FLAGGED, "for the GM to read and rule on")
        elif order.kind not in verbs and not any_window:
            where = where_verb_goes(order.kind)
            results[line.number] = line.refused(f"`{line.text.split()[0]}` orders are not taken now; "
                                                f"they go in {where}")
        else:
            parsed.append((line, order))
    trial = copy.deepcopy(state)
    step = current(state).name
    standing: dict[str, str] = {}    # the seat's own standing tactics, from its `tactic` lines
    for line, order in sorted(parsed, key=lambda p: RANK.get(p[1].kind, 5)):
        validate, apply = ORDER_RULES[order.kind]
        try:
            warnings = validate(trial, seat, order, step)
            counted = (order_odds(trial, seat, order, brief=odds == "brief", standing=standing, step=step)
                       if odds else None)
            apply(trial, seat, order, step, None)
        except RulesError as exc:
            results[line.number] = line.refused(str(exc))
            continue
        if isinstance(order, Tactic):
            standing[order.area] = order.tactic
        said = [*warnings, *([f"🎲 {counted}"] if counted else [])]
        results[line.number] = line.answer(Verdict.WARNING if warnings else Verdict.ACCEPTED, "; ".join(said))
    return [results[line.number] for line in lines]
