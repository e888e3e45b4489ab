"""Actions taken with `act`: GM rulings and edits, and the tactics a seat picks in a battle round.

    rule <question> <answer>           answer a pending GM question (the view lists each one)
    end battle                          the GM stops the battle being fought
    grant <power> <±florins>            adjust a treasury (events, disputes)
    add <power> <n> <unit or ship> at <place> · remove <power> <n> <unit or ship> at <place>
    set native <area> <n> · set blight <area> <n> · set modifier <slavery|fisheries> <n>
    kill <leader> · announce <text>
    tactic <tactic>                     (a seat, in a battle round: defend, charge, restraint, massacre,
                                         withdrawal or none)
"""

from __future__ import annotations

import re

from engine.core.errors import IllegalAction, NotYourTurn, RulesError
from engine.core.numbers import is_count
from engine.core.visibility import Viewer
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.context import ANSWERS, Ctx
from engine.rulesets.terra_nova.geography import geography, normal
from engine.rulesets.terra_nova.orders import place, power, tactic_word, unit_word
from engine.rulesets.terra_nova.reference import ships
from engine.rulesets.terra_nova.sequence import advance

GM_HELP = __doc__ or ""


def act(ctx: Ctx, actor: Viewer, text: str) -> None:
    """Apply one action, then let play run on to the next window."""
    state = ctx.state
    words = text.split()
    if not words:
        raise IllegalAction("empty action")
    verb = words[0].lower()
    if verb == "tactic":
        if actor.kind != "seat" or not actor.seat:
            raise IllegalAction("tactics are chosen by the seats fighting")
        if not state.battles:
            raise IllegalAction("no battle is waiting for tactics")
        battle = state.battles[0]
        if actor.seat not in combat.waiting(state, battle):
            raise NotYourTurn(f"{actor.seat} has no tactic to choose in the battle in {battle.area} now")
        combat.choose(state, actor.seat, tactic_word(" ".join(words[1:])))
        ctx.say(f"{actor.seat} has chosen a tactic for round {battle.round}.", kind="combat")
        advance(ctx)
        return
    if not actor.is_gm:
        raise IllegalAction("only the GM rules and edits; players write orders or choose tactics")
    if verb == "rule":
        _rule(ctx, words[1:])
    elif verb == "end" and words[1:] == ["battle"]:
        if not state.battles:
            raise IllegalAction("no battle is being fought")
        battle = state.battles.pop(0)
        ctx.say(f"The GM ends the battle in {battle.area}.", kind="combat")
    else:
        _edit(ctx, text)
        return
    advance(ctx)


def _rule(ctx: Ctx, args: list[str]) -> None:
    state = ctx.state
    if len(args) < 2:
        raise IllegalAction("write `rule <question> <answer>`")
    qid, choice = args[0], " ".join(args[1:])
    question = next((q for q in state.questions if q.id == qid), None)
    if question is None:
        raise IllegalAction(f"no open question `{qid}` (open: {', '.join(q.id for q in state.questions) or 'none'})")
    match = next((a for a in question.answers if normal(a) == normal(choice)), None)
    if match is None:
        raise IllegalAction(f"answers to {qid}: {', '.join(question.answers)}")
    state.questions.remove(question)
    ctx.say(f"GM ruling on {qid}: {match}.", gm=True, kind="ruling")
    ANSWERS[question.kind](ctx, question, match)


_ADD = re.compile(r"^(add|remove)\s+(?P<power>\S+)\s+(?P<n>[0-9]{1,9})\s+(?P<what>.+?)\s+at\s+(?P<place>.+)$", re.I)


def _whole(text: str) -> int:
    """A GM's number: ASCII digits, a sign allowed, at most 9 digits (else ValueError, told as such)."""
    if not is_count(text.lstrip("+-")) or len(text) - len(text.lstrip("+-")) > 1:
        raise ValueError(text)
    return int(text)


def _edit(ctx: Ctx, text: str) -> None:
    state = ctx.state
    words = text.split()
    verb = words[0].lower()
    try:
        if verb == "grant" and len(words) == 3:
            who, amount = power(state, words[1]), _whole(words[2])
            state.powers[who].treasury = max(0, state.powers[who].treasury + amount)
            ctx.say(f"The GM adjusts {who}'s treasury by {amount:+d} (now {state.powers[who].treasury}).", to=who,
                    kind="gm")
        elif m := _ADD.match(text):
            _add(ctx, m.group(1).lower(), power(state, m.group("power")), _whole(m.group("n")), m.group("what"),
                 place(state, m.group("place")))
        elif verb == "set" and len(words) >= 4:
            _set(ctx, words[1].lower(), " ".join(words[2:-1]), _whole(words[-1]))
        elif verb == "kill":
            name = " ".join(words[1:])
            leader = next((ld for ld in state.leaders if normal(ld.name) == normal(name)), None)
            if leader is None:
                raise IllegalAction(f"no leader `{name}` in play")
            state.leaders.remove(leader)
            ctx.say(f"{leader.name} ({leader.power}) is removed from play by the GM.", kind="gm")
        elif verb == "announce" and len(words) > 1:
            ctx.say(text.split(" ", 1)[1], kind="announcement")
        else:
            raise IllegalAction("GM actions: rule, end battle, grant, add, remove, set native|blight|modifier, "
                                "kill, announce (see the GM sheet)")
    except ValueError:
        raise IllegalAction("numbers must be whole numbers") from None
    except RulesError as exc:
        raise IllegalAction(str(exc)) from exc


def _add(ctx: Ctx, verb: str, who: str, n: int, what: str, where: str) -> None:
    state = ctx.state
    sign = 1 if verb == "add" else -1
    force = state.force(where, who)
    if normal(what) == "gold":
        force.gold = max(0, force.gold + sign * n)
    else:
        key = unit_word(what)
        if key in ships():
            force.add_ships(key, sign * min(n, force.ships.get(key, 0)) if sign < 0 else n)
        elif key in ("settlement", "town", "plantation", "fort", "factory"):
            if where not in state.areas:
                raise IllegalAction(f"{where} holds no {key}s")
            holding = state.holding(where, who)
            attr = {"factory": "factories"}.get(key, key + "s")
            setattr(holding, attr, max(0, getattr(holding, attr) + sign * n))
        else:
            force.add(key, sign * min(n, force.count(key)) if sign < 0 else n)
    state.tidy()
    ctx.say(f"The GM {'adds' if sign > 0 else 'removes'} {n} {what} {'to' if sign > 0 else 'from'} {who} at {where}.",
            to=who, kind="gm")


def _set(ctx: Ctx, what: str, target: str, value: int) -> None:
    state = ctx.state
    if what == "modifier":
        if target not in ("slavery", "fisheries"):
            raise IllegalAction("modifiers: slavery, fisheries")
        state.modifiers[target] = value
        ctx.say(f"The {target} modifier is now {value:+d}.", kind="gm")
        return
    name = geography().find(target)
    if name is None or name not in state.areas:
        raise IllegalAction(f"`{target}` is not an area")
    if what == "native":
        state.areas[name].natives = max(0, value)
        ctx.say(f"The GM sets the natives of {name} to {max(0, value)}.", kind="gm")
    elif what == "blight":
        state.areas[name].blight = max(0, value)
        ctx.say(f"The GM sets blight in {name} to {max(0, value)}.", kind="gm")
    else:
        raise IllegalAction("set native <area> <n>, set blight <area> <n>, set modifier <name> <n>")
