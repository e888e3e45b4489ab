"""What may happen: the exact odds of a Lords of the Earth order, for the nation giving it.

Research (LotE 4.1): the project as it will stand when the turn is processed (what it has, and what this form
invests), its chance from `research.advance_chance`, and each face of the d100 read by `research.research_gain`,
the same functions `research_turn` rolls with. Loans roll no dice: a loan from your own bank is settled at once,
one from another nation's bank is decided at processing from that bank's books, which are its secret.
"""

from __future__ import annotations

import dataclasses

from engine.core.errors import RulesError
from engine.core.odds import Dist, percent
from engine.core.orders import OrderCheck
from engine.rulesets.lote_modern import accounts, campaign
from engine.rulesets.lote_modern.context import names_of
from engine.rulesets.lote_modern.orders import Borrow, Order, Research, parse_order
from engine.rulesets.lote_modern.rules import research
from engine.rulesets.lote_modern.sheet import Nation, Project
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.turn import research_progress

NO_DICE = "no dice in this order"
D100 = Dist.die(100)


def _research(state: GameState, n: Nation, o: Research, invested: dict[str, tuple[float, int]]) -> str | None:
    key = accounts.research_key(o.project)
    if key is None:
        return None
    gp, nfp = invested.get(key, (0.0, 0))
    invested[key] = (gp + o.gp, nfp + o.nfp)
    project = next((p for p in n.projects if p.kind == "rd" and p.name == key and not p.done), None)
    if project is None:
        overreach = research.is_overreach(key, n.tech_level)
        project = Project("new", "rd", key, advances_needed=research.advances_required(
            key, overreach=overreach, source=campaign.advances_from(state.options)), overreach=overreach)
    project = dataclasses.replace(project, gp=round(project.gp + gp + o.gp, 2), nfp=project.nfp + nfp + o.nfp)
    progress = research_progress(project)
    if research.research_room(progress) <= 0:
        return (f"no roll this turn: the next Advance needs more NFP ({progress.nfp} invested for "
                f"{progress.advances} Advances)")
    chance = research.advance_chance(progress.gp, progress.nfp, progress.years, progress.advances_required)
    rules = campaign.research_rules(state.options)
    gained = D100.map(lambda roll: research.research_gain(progress, chance, roll, rules)[0])
    words = {2: "two Advances", 1: "an Advance", 0: "no progress", -1: "a setback (an Advance lost)"}
    shown = " · ".join(f"{words[g]} {percent(gained[g])}" for g in (2, 1, 0, -1) if gained[g])
    left = progress.advances_required - progress.advances
    done = gained.chance(lambda g: g >= left)
    tail = f"; completes it {percent(done)}" if done else ""
    return f"this turn's d100 against {chance}%: {shown}{tail} ({progress.advances}/{progress.advances_required})"


def _borrow(n: Nation, o: Borrow) -> str:
    if o.lender.casefold() == n.name.casefold():
        return f"{NO_DICE}: your own bank lends at once"
    return f"{NO_DICE}: {o.lender}'s bank decides when the turn is processed, from its own books (its secret)"


def with_odds(state: GameState, n: Nation, checks: list[OrderCheck]) -> list[OrderCheck]:
    """The checks with what may happen beside each accepted line that rolls dice (🎲)."""
    out = []
    invested: dict[str, tuple[float, int]] = {}
    names = names_of(n)
    for check in checks:
        said = None
        if check.accepted:
            try:
                order: Order | None = parse_order(check.canonical, names)
            except RulesError:
                order = None
            if isinstance(order, Research):
                said = _research(state, n, order, invested)
        if said:
            message = "; ".join(m for m in (check.message, f"🎲 {said}") if m)
            check = dataclasses.replace(check, message=message)
        out.append(check)
    return out


def odds_answer(state: GameState, n: Nation, checks: list[OrderCheck]) -> str:
    """`/odds`: each line as understood, then what may happen (or why it was refused, or that it rolls nothing)."""
    lines = []
    names = names_of(n)
    for check in with_odds(state, n, checks):
        if not check.accepted:
            lines.append(f"❌ `{check.text}` — {check.message}")
            continue
        said = check.message.split("🎲 ", 1)
        if len(said) > 1:
            lines.append(f"**{check.canonical}**: {said[1]}")
            continue
        try:
            order = parse_order(check.canonical, names)
        except RulesError:
            order = None
        lines.append(f"**{check.canonical}**: " + (_borrow(n, order) if isinstance(order, Borrow) else NO_DICE))
    return "\n".join(lines)
