"""What each viewer sees: the public board, a seat's private sheet, the GM's everything, and legal actions.

Public: the map (holdings, forces and fleets outside Europe, native levels, blight, mines, occupied
cities), monarchs, leaders, prices, discovery claims and the victory point standings. Private to
a seat: its treasury, its pool in Europe (bought but not yet sailed), gold and goods anywhere, its
settlers available and its monarch's income modifier. The GM sees everything.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.phases import Phase, Window
from engine.core.ruleset import View
from engine.core.visibility import Viewer
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.end_of_turn import controller, upkeep
from engine.rulesets.terra_nova.geography import EUROPE, geography
from engine.rulesets.terra_nova.gm import GM_HELP
from engine.rulesets.terra_nova.indies import goods_value
from engine.rulesets.terra_nova.orders import CARGO_ORDER, UNIT_NAMES
from engine.rulesets.terra_nova.sequence import current, phase_of
from engine.rulesets.terra_nova.state import Force, Holding, TNState


def view(state: TNState, viewer: Viewer) -> View:
    phase = phase_of(state)
    summary = summary_text(state, viewer, phase)
    public = public_sheet(state)
    if viewer.is_gm:
        sheet = "\n\n".join([*(private_sheet(state, s) for s in state.seats), public, gm_sheet(state)])
    elif viewer.kind == "seat" and viewer.seat in state.seats:
        sheet = private_sheet(state, viewer.seat) + "\n\n" + public
    else:
        sheet = public
    return View(phase, summary, sheet, tuple(actions(state, viewer)))


def summary_text(state: TNState, viewer: Viewer, phase: Phase) -> str:
    head = f"**Terra Nova** — {state.turn_label()} · {phase.label}"
    if phase.window is Window.ENDED:
        return f"{head}\n{state.result}"
    if phase.window is Window.ORDERS:
        text = f"{head}\nOrders are open for {', '.join(state.seats)}; the GM closes the window."
        verbs = ", ".join(current(state).verbs)
        return f"{text}\nThis window takes: {verbs} (and `note`)."
    if phase.window is Window.TURN:
        battle = state.battles[0]
        who = ", ".join(sorted(phase.waiting))
        return (f"{head}\n{battle.attacker} against {battle.defender}"
                f"{' at ' + battle.city if battle.city else ''}: waiting for {who} to choose a tactic.")
    pending = len(state.questions)
    if viewer.is_gm:
        lines = [f"{head}", f"{pending} ruling(s) needed:"]
        lines += [f"- `{q.id}`: {q.text} (answers: {', '.join(q.answers)})" for q in state.questions]
        return "\n".join(lines)
    return f"{head}\nWaiting for the GM's ruling."


def _units(force: Force, *, public: bool) -> str:
    parts = [f"{force.units[u]} {UNIT_NAMES.get(u, u)}" for u in CARGO_ORDER if force.units.get(u)]
    parts += [f"{n} {k}" for k, n in force.ships.items()]
    if not public:
        if force.gold:
            parts.append(f"{force.gold} gold")
        if force.goods:
            parts.append(", ".join(g.code for g in force.goods) + " goods")
    return ", ".join(parts)


def _holding(h: Holding) -> str:
    parts = []
    for attr, word in (("settlements", "settlement"), ("towns", "town"), ("plantations", "plantation"),
                       ("forts", "fort"), ("factories", "factory")):
        n = getattr(h, attr)
        if n:
            parts.append(f"{n} {word}")
    if h.missions:
        parts.append(f"missions {'/'.join(str(r) for r in h.missions)}")
    return ", ".join(parts)


def public_sheet(state: TNState) -> str:
    geo = geography()
    lines = ["**The powers**"]
    for seat in state.seats:
        p = state.powers[seat]
        leaders = ", ".join(f"{ld.name} ({ld.kind} {ld.rating:+d}, {ld.place})" for ld in state.leaders_of(seat))
        lines.append(f"- **{seat}**: {p.monarch.name}, aged {p.monarch.age} · {p.vp} VP · leaders: {leaders or 'none'}")
    if state.options.get("east_indies"):
        lines.append("**Commodity prices**: " + ", ".join(f"{c} {v}" for c, v in state.prices.items()))
    mods = {k: v for k, v in state.modifiers.items() if v}
    if mods:
        lines.append("**Modifiers**: " + ", ".join(f"{k} {v:+d}" for k, v in mods.items()))
    lines.append("**The map**")
    for name, area in state.areas.items():
        place = geo.places[name]
        bits = []
        for seat, h in area.holdings.items():
            if not h.empty:
                bits.append(f"{seat}: {_holding(h)}")
        for seat, force in state.forces.get(name, {}).items():
            text = _units(force, public=True)
            if text:
                bits.append(f"{seat} forces: {text}")
        mines = [f"{m.kind} ({'worked out' if m.worked_out else m.holder})" for m in state.mines if m.area == name]
        cities = [f"{c.name} {c.level}" + (f" held by {c.holder}" if c.holder else "") + (" (stripped)" if c.looted
                  else "") for c in state.cities.values() if c.area == name]
        if not bits and not mines and not area.blight and not area.allies and not cities and not area.claimed:
            continue
        head = f"- **{name}**"
        if place.is_land:
            head += f" (natives {area.natives}"
            if area.allies:
                head += ", allied " + ", ".join(f"{p} {n}" for p, n in area.allies.items())
            head += ")"
        if area.commodity:
            head += f" [{area.commodity}]"
        extra = []
        if area.blight:
            extra.append(f"blight {area.blight}")
        if area.claimed:
            extra.append(f"discovered by {area.claimed}")
        if (ctrl := controller(state, name)) is not None:
            extra.append(f"controlled by {ctrl}")
        if mines:
            extra.append("mines: " + ", ".join(mines))
        if cities:
            extra.append("cities: " + ", ".join(cities))
        lines.append(head + ": " + "; ".join(bits + extra))
    for name in (n for n in state.forces if n not in state.areas and n != EUROPE):
        for seat, force in state.forces[name].items():
            text = _units(force, public=True)
            if text:
                lines.append(f"- **{name}**: {seat} {text}")
    return "\n".join(lines)


def private_sheet(state: TNState, seat: str) -> str:
    p = state.powers[seat]
    lines = [f"**{seat}** — treasury **{p.treasury}** florins · maintenance due {upkeep(state, seat)} · "
             f"{p.monarch.name} (income modifier {p.monarch.income:+d})"]
    # Settlers are counted from those still in Europe: they sail, or lapse at G.4 (never a stale B.2 number).
    europe = state.peek(EUROPE, seat) or Force()
    settlers = europe.count("settler")
    others = Force({u: n for u, n in europe.units.items() if u != "settler"}, europe.ships, europe.gold, europe.goods)
    held = [text] if (text := _units(others, public=False)) else []
    if settlers:
        held.append(f"{settlers} settler(s) available this turn (they lapse at G.4 unless they sail)")
    lines.append(f"In Europe: {' · '.join(held) or 'nothing'}")
    for name, forces in state.forces.items():
        force = forces.get(seat)
        if name == EUROPE or not force or not (force.gold or force.goods):
            continue
        shipment = [f"{force.gold} gold"] if force.gold else []
        if force.goods:
            value = sum(goods_value(state, g) for g in force.goods)
            shipment.append(f"goods {', '.join(g.code for g in force.goods)} (worth {value} now)")
        lines.append(f"Awaiting shipment in {name}: {', '.join(shipment)}")
    if p.converted:
        lines.append(f"Natives converted by {seat}'s missions: {p.converted}")
    return "\n".join(lines)


def gm_sheet(state: TNState) -> str:
    lines = ["**GM**"]
    if state.deck:
        lines.append(f"Leader deck: {len(state.deck)} cards left; next: {state.deck[0]}")
    if state.battles:
        b = state.battles[0]
        natives = combat.native_count(state, b) if combat.NATIVES in (b.attacker, b.defender) else "-"
        lines.append(f"Battle in {b.area}: {b.attacker} vs {b.defender}, round {b.round}; natives left {natives}")
    lines.append(GM_HELP.strip())
    return "\n".join(lines)


def actions(state: TNState, viewer: Viewer) -> list[Action]:
    out: list[Action] = []
    if state.ended:
        return out
    if viewer.is_gm:
        for q in state.questions:
            for a in q.answers:
                out.append(Action(f"rule {q.id} {a}", f"{q.kind.capitalize()} ({q.id}): {a}"[:80], "rule"))
        if state.battles:
            out.append(Action("end battle", f"End the battle in {state.battles[0].area}"[:80], "battle"))
    elif viewer.kind == "seat" and viewer.seat and state.battles and not state.questions:
        battle = state.battles[0]
        if viewer.seat in combat.waiting(state, battle):
            for t in combat.legal_tactics(battle, viewer.seat):
                out.append(Action(f"tactic {t}", f"Round {battle.round} in {battle.area}: {t}"[:80], "tactic"))
    return out
