"""The sequence of play as a phase machine declared in data/sequence.toml.

The cursor is (turn, step index, stage). `advance` runs automated steps until play needs someone:
an order window (ORDERS), a GM question (GM), a battle waiting for tactics (TURN) or the end.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from engine.core.errors import IllegalAction
from engine.core.phases import Phase, Window
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.context import CONDITIONS, PROCEDURES, Ctx, condition
from engine.rulesets.terra_nova.reference import data
from engine.rulesets.terra_nova.state import TNState

KINDS = ("auto", "orders", "gm")


@dataclass(frozen=True, slots=True)
class StepSpec:
    """One step of the sequence of play."""

    name: str
    label: str
    kind: str
    run: str
    verbs: tuple[str, ...] = ()
    uses: str | None = None
    when: str | None = None
    opens: str | None = None


@functools.cache
def steps() -> tuple[StepSpec, ...]:
    out = []
    for raw in data("sequence")["step"]:
        if raw["kind"] not in KINDS:
            raise ValueError(f"step {raw['name']}: unknown kind {raw['kind']}")
        out.append(StepSpec(raw["name"], raw["label"], raw["kind"], raw["run"], tuple(raw.get("verbs", ())),
                            raw.get("uses"), raw.get("when"), raw.get("opens")))
    return tuple(out)


def step_named(name: str) -> StepSpec:
    return next(s for s in steps() if s.name == name)


def current(state: TNState) -> StepSpec:
    return steps()[state.step]


@condition("east_indies")
def _east_indies(state: TNState) -> bool:
    return bool(state.options.get("east_indies"))


@condition("votes_due")
def _votes_due(state: TNState) -> bool:
    from engine.rulesets.terra_nova.reference import development
    return bool(state.options.get("endgame_votes")) and development(state.turn).endgame_votes


def _new_turn(state: TNState) -> None:
    state.turn += 1
    state.step = 0
    state.orders = {}
    state.voyages = []
    for area in state.areas.values():
        area.double = False
    for power in state.powers.values():
        power.vote_end = False


def advance(ctx: Ctx) -> None:
    """Run automated steps until play rests at a window."""
    state = ctx.state
    while not state.ended:
        spec = current(state)
        ctx.step = spec.name
        if state.questions:
            return
        if state.battles:
            if not combat.drive(ctx):
                return
            continue
        if state.stage == "window":
            return
        if state.stage == "done":
            state.tidy()
            if state.step + 1 >= len(steps()):
                _new_turn(state)
            else:
                state.step += 1
            state.stage = "enter"
            continue
        # stage "enter"
        if spec.when and not CONDITIONS[spec.when](state):
            state.stage = "done"
            continue
        if spec.kind == "orders" and (spec.opens is None or CONDITIONS[spec.opens](state)):
            state.stage = "window"
            ctx.say(f"**{spec.label}** — orders are open ({state.turn_label()}).", kind="window")
            return
        ctx.orders = state.orders.get(spec.uses, {}) if spec.uses else {}
        PROCEDURES[spec.run](ctx)
        state.stage = "done"


def close_window(ctx: Ctx, orders: dict[str, list[str]]) -> None:
    """The GM closed the order window: the step's procedure runs with every seat's accepted lines."""
    state = ctx.state
    spec = current(state)
    if state.stage != "window" or state.questions or state.battles:
        raise IllegalAction("no order window is open now")
    state.orders[spec.name] = orders
    ctx.step = spec.name
    ctx.orders = orders
    state.stage = "done"
    PROCEDURES[spec.run](ctx)
    advance(ctx)


def phase_of(state: TNState) -> Phase:
    """Where play rests. Sub-windows inside a step get their own names so each is its own phase."""
    spec = current(state)
    if state.ended:
        return Phase(state.turn, "end", "The game is over", Window.ENDED)
    if state.questions:
        name = spec.name if spec.kind == "gm" else f"{spec.name}-gm"
        return Phase(state.turn, name, f"{spec.label} — GM ruling", Window.GM)
    if state.battles:
        battle = state.battles[0]
        waiting = combat.waiting(state, battle)
        label = f"{spec.label} — battle in {battle.area}, round {battle.round}"
        return Phase(state.turn, f"{spec.name}-b{battle.id}r{battle.round}", label, Window.TURN, waiting)
    return Phase(state.turn, spec.name, spec.label, Window.ORDERS, frozenset(state.seats))
