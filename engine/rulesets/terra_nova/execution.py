"""Carrying a seat's accepted order lines out in their step, in the order `RANK` gives each kind."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.errors import RulesError
from engine.rulesets.terra_nova.context import ORDER_RULES, Ctx
from engine.rulesets.terra_nova.orders import Order

# Within one order window, lines are carried out in this order (by kind).
RANK = {"note": 0, "pay": 1, "buy": 2, "intercept": 1, "sail": 2, "attack-at-sea": 3, "factory": 4,
        "mission": 1, "settle": 2, "town": 2, "plantation": 2, "move": 3, "tactic": 4, "attack": 4,
        "ally": 1, "vote": 1}


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
        return Order.parse(line, ctx.state, seat)
    except RulesError as exc:
        ctx.say(f"{seat}: `{line}` could not be read — {exc}", to=seat, kind="order")
        return None


def report_notes(ctx: Ctx, orders: dict[str, list[str]]) -> None:
    for seat, lines in orders.items():
        for line in lines:
            if line.lower().startswith("note "):
                ctx.say(f"Note from {seat}: {line[5:]}", gm=True, kind="note")
