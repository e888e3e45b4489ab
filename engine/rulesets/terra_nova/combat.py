"""Combat (TN Combat, Tactics, Native Tactics, Combat Losses): round by round, on land and at sea.

A round: each side rolls 1d6 that explodes on a natural 6 (counts 5 and rolls again), adds its
modifiers, and the higher total wins the round. Each side then rolls on Combat Losses (the winner
at -1) and loses combat value equal to that fraction of the opponent's total, rounded up.
Land battles wait for tactics from sides with a leader; sea fights have no tactics and run at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core.errors import IllegalAction
from engine.rulesets.terra_nova.context import Ctx
from engine.rulesets.terra_nova.geography import EUROPE, geography
from engine.rulesets.terra_nova.indies import change_up
from engine.rulesets.terra_nova.reference import (
    combat_losses,
    explosion,
    house,
    modifier,
    native_tactics,
    ships,
    tactics,
    units,
    winner_loss_modifier,
)
from engine.rulesets.terra_nova.state import Battle, Force, TNState

NATIVES = "natives"
HOLDING_VALUES = (("settlements", "settlement"), ("towns", "town"), ("factories", "factory"))
# Loss and capture reports name pieces (soldier, ally...), natives and holdings (settlements...).
SINGULAR = {"depleted": "depleted settler", "ally": "allied native", "natives": "native",
            "unallied natives": "unallied native",
            "settlements": "settlement", "towns": "town", "factories": "factory"}
PLURAL = {"depleted": "depleted settlers", "ally": "allied natives", "factory": "factories"}


def count_of(n: int, noun: str) -> str:
    """The number and the noun in agreement: "1 soldier", "2 soldiers", "1 native", "2 factories"."""
    if n == 1:
        return f"1 {SINGULAR.get(noun, noun)}"
    return f"{n} {PLURAL.get(noun, noun if noun.endswith('s') else noun + 's')}"


def side_does(name: str, verb: str, *, start: bool = False, bold: bool = False) -> str:
    """A side and its verb in agreement: "Spain wins", "the natives win" ("The natives win" to start)."""
    who = name if name != NATIVES else f"{'The' if start else 'the'} natives"
    return f"{f'**{who}**' if bold else who} {verb if name != NATIVES else verb.removesuffix('s')}"


def native_strength(state: TNState) -> int:
    return int(state.options.get("native_strength", house()["natives"]["strength"]))


def best_rating(state: TNState, power: str, place: str) -> int | None:
    ratings = [ld.rating for ld in state.leaders_of(power, place)]
    return max(ratings) if ratings else None


def has_governor(state: TNState, power: str, place: str) -> bool:
    return any(ld.kind == "Governor" for ld in state.leaders_of(power, place))


def exploding_die(ctx: Ctx, key: tuple[object, ...], label: str) -> tuple[int, list[int]]:
    """TN Combat: a natural 6 counts 5 and is rolled again, cumulatively."""
    on, add = explosion()
    total = 0
    faces: list[int] = []
    while True:
        face = ctx.roll(1, 6, *key, label=label if not faces else f"{label} again").total
        faces.append(face)
        if face != on:
            return total + face, faces
        total += add


def ratio_bonus(mine: int, theirs: int) -> int:
    """Larger force +1, and +1 more at 2:1, 3:1, 4:1 and each further ratio step."""
    if mine <= theirs:
        return 0
    bonus = modifier("Larger force")
    if theirs > 0:
        bonus += max(0, mine // theirs - 1) * modifier("Larger force outnumbers smaller force by 2:1")
    return bonus


@dataclass
class Piece:
    kind: str
    value: int


def take_losses(pieces: list[Piece], loss: int) -> list[Piece]:
    """Which pieces a side loses: as little combat value as covers the loss (the player's best choice)."""
    lost: list[Piece] = []
    pool = [p for p in pieces if p.value > 0]
    remaining = loss
    while remaining > 0 and pool:
        covering = [p for p in pool if p.value >= remaining]
        pick = min(covering, key=lambda p: p.value) if covering else max(pool, key=lambda p: p.value)
        pool.remove(pick)
        lost.append(pick)
        remaining -= pick.value
    return lost


# -- land sides ------------------------------------------------------------------------------------------------


@dataclass
class Side:
    name: str
    value: int
    rating: int | None
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    tactic: str | None = None

    @property
    def bonus(self) -> int:
        return sum(v for _, v in self.modifiers)


def native_count(state: TNState, battle: Battle) -> int:
    if battle.city:
        return state.cities[battle.city].level
    area = state.areas[battle.area]
    return max(0, area.natives - sum(area.allies.values()))


def native_weight(state: TNState, battle: Battle) -> int:
    double = battle.uprising and state.areas[battle.area].double
    return native_strength(state) * (2 if double else 1)


def land_pieces(state: TNState, power: str, area: str, defending: bool, *, holdings: bool = True) -> list[Piece]:
    force = state.peek(area, power) or Force()
    holding = state.areas[area].holdings.get(power)
    factor = 2 if defending and holding and holding.forts else 1      # a fort doubles its defenders
    table = units()
    pieces = [Piece(u, table["settler" if u == "depleted" else u].land * factor)
              for u in ("soldier", "settler", "depleted") for _ in range(force.count(u))]
    pieces += [Piece("ally", native_strength(state) * factor)] * state.areas[area].allies.get(power, 0)
    if defending and holding and holdings:
        for attr, key in HOLDING_VALUES:
            pieces += [Piece(key, table[key].land * factor)] * getattr(holding, attr)
    return pieces


def _side(state: TNState, battle: Battle, name: str) -> Side:
    defending = name == battle.defender
    if name == NATIVES:
        return Side(name, native_count(state, battle) * native_weight(state, battle), None)
    value = sum(p.value for p in land_pieces(state, name, battle.area, defending))
    return Side(name, value, best_rating(state, name, battle.area))


def strength(state: TNState, battle: Battle, name: str) -> int:
    """A side's combat value in a battle now."""
    return _side(state, battle, name).value


def civilisation(state: TNState, battle: Battle) -> bool:
    return battle.city is not None or geography().places[battle.area].civilisation


def needs_choice(state: TNState, battle: Battle, name: str) -> bool:
    return (name != NATIVES and best_rating(state, name, battle.area) is not None
            and name not in battle.tactics and name not in battle.standing)


def waiting(state: TNState, battle: Battle) -> frozenset[str]:
    return frozenset(n for n in (battle.attacker, battle.defender) if needs_choice(state, battle, n))


def legal_tactics(battle: Battle, name: str) -> list[str]:
    return ["none", *(k for k in tactics() if k != "defend" or name == battle.defender)]


def choose(state: TNState, seat: str, tactic: str) -> None:
    """A seat picks its tactic for the current round of the current battle."""
    if not state.battles:
        raise IllegalAction("there is no battle waiting for tactics")
    battle = state.battles[0]
    if seat not in (battle.attacker, battle.defender):
        raise IllegalAction(f"{seat} is not fighting in {battle.area}")
    if not needs_choice(state, battle, seat):
        raise IllegalAction(f"{seat} has no tactic to choose now (a tactic needs a leader present)")
    if tactic not in legal_tactics(battle, seat):
        raise IllegalAction(f"tactics here: {', '.join(legal_tactics(battle, seat))}")
    battle.tactics[seat] = tactic


def drive(ctx: Ctx) -> bool:
    """Fight the first battle as far as it can go; False while it waits for a seat's tactic."""
    state = ctx.state
    battle = state.battles[0]
    while True:
        if not _can_fight(state, battle):
            _finish(ctx, battle)
            return True
        if waiting(state, battle):
            return False
        if _round(ctx, battle):
            _finish(ctx, battle)
            return True


def _can_fight(state: TNState, battle: Battle) -> bool:
    return all(_side(state, battle, n).value > 0 for n in (battle.attacker, battle.defender))


def _tactic_for(ctx: Ctx, battle: Battle, name: str) -> str | None:
    if name == NATIVES:
        if not civilisation(ctx.state, battle):
            return None
        result = ctx.lookup(native_tactics(), "tactics", battle.area, "natives",
                            label=f"native tactics {battle.area} round {battle.round}").result
        return native_tactic(battle, result)
    return tactic_in_play(ctx.state, battle, name, battle.tactics.get(name) or battle.standing.get(name))


def native_tactic(battle: Battle, result: str) -> str | None:
    """The tactic a Native Tactics result means for the natives in this battle (Defend only when defending)."""
    choice = {"Defend": "defend", "Charge": "charge"}.get(result)
    return None if choice == "defend" and battle.defender != NATIVES else choice


def tactic_in_play(state: TNState, battle: Battle, name: str, choice: str | None) -> str | None:
    """What a power's chosen tactic does: nothing without a leader, and defend only for the defender."""
    if best_rating(state, name, battle.area) is None:
        return None
    if choice == "defend" and name != battle.defender:
        return None
    return None if choice in (None, "none") else choice


def side_modifiers(state: TNState, battle: Battle, side: Side, theirs: int, *,
                   advantage: bool) -> list[tuple[str, int]]:
    """A side's modifiers for one round (TN Combat, Tactics): the rolls and the odds both read them here."""
    n = side.name
    mods: list[tuple[str, int]] = []
    if NATIVES in (battle.attacker, battle.defender) and n != NATIVES:
        civ = civilisation(state, battle)
        mods.append(("vs natives", modifier("Europeans fighting Native Civilisation" if civ
                                            else "Europeans fighting other Natives")))
    if side.rating:
        mods.append(("leader", side.rating))
    if n != NATIVES and has_governor(state, n, battle.area):
        mods.append(("governor", modifier("Govenor")))
    if n != NATIVES and (state.peek(battle.area, n) or Force()).count("cannon"):
        mods.append(("cannon", modifier("Cannon")))
    if advantage:
        mods.append(("advantage", modifier("Advantage")))
    if bonus := ratio_bonus(side.value, theirs):
        mods.append(("larger force", bonus))
    if side.tactic:
        mods.append((side.tactic, tactics()[side.tactic].modifier))
    return mods


def round_loss(fraction: Fraction, their_total: int, tactic: str | None, massacre: bool) -> int:
    """Combat Losses: the fraction of the opponent's total, rounded up, then the side's tactic (Tactics)."""
    loss = math.ceil(fraction * max(0, their_total))
    if tactic == "charge":
        loss = math.ceil(Fraction(3, 2) * loss)
    if tactic == "restraint":
        loss = math.ceil(Fraction(loss, 2))
    if massacre:
        loss *= 2
    return loss


def _round(ctx: Ctx, battle: Battle) -> bool:
    """One round; True when the battle is over."""
    state = ctx.state
    names = (battle.attacker, battle.defender)
    sides = {n: _side(state, battle, n) for n in names}
    for n in names:
        them = sides[names[1] if n == names[0] else names[0]]
        side = sides[n]
        side.tactic = _tactic_for(ctx, battle, n)
        side.modifiers = side_modifiers(state, battle, side, them.value, advantage=battle.advantage == n)
    totals: dict[str, int] = {}
    for n in names:
        die, _ = exploding_die(ctx, ("combat", battle.area, n), f"combat {battle.area} round {battle.round} {n}")
        totals[n] = die + sides[n].bonus
    winner = _winner(names, totals, sides)
    losses: dict[str, int] = {}
    for n in names:
        other = names[1] if n == names[0] else names[0]
        mod = winner_loss_modifier() if n == winner else 0
        row = ctx.lookup(combat_losses(), "losses", battle.area, n,
                         label=f"losses {battle.area} round {battle.round} {n}",
                         whose=f"for {'the natives' if n == NATIVES else n}", modifier=mod)
        massacre = "massacre" in (sides[names[0]].tactic, sides[names[1]].tactic)
        losses[n] = round_loss(Fraction(str(row.row.data["fraction"])), totals[other], sides[n].tactic, massacre)
    lost_text = {n: _apply_losses(ctx, battle, n, losses[n]) for n in names}
    parts = []
    for n in names:
        mods = ", ".join(f"{k} {v:+d}" for k, v in sides[n].modifiers)
        parts.append(f"{n} {totals[n]}" + (f" ({mods})" if mods else ""))
    outcome = f"{side_does(winner, 'wins')} the round" if winner else "no one wins the round"
    ctx.say(f"Battle in {battle.area}{' at ' + battle.city if battle.city else ''}, round {battle.round}: "
            f"{' vs '.join(parts)}; {outcome}. Losses: "
            + "; ".join(f"{n} {losses[n]} ({lost_text[n] or 'nothing'})" for n in names) + ".", kind="combat")
    battle.advantage = winner
    battle.tactics = {}
    battle.round += 1
    battle.withdrew = [n for n in names if sides[n].tactic == "withdrawal"]
    return bool(battle.withdrew)


def _winner(names: tuple[str, str], totals: dict[str, int], sides: dict[str, Side]) -> str | None:
    a, b = names
    if totals[a] == totals[b]:
        return None
    high = a if totals[a] > totals[b] else b
    return None if sides[high].tactic == "withdrawal" else high


def natives_dead(loss: int, weight: int, count: int) -> int:
    """Natives lost: one for each `weight` of loss, rounded up, no more than there are."""
    return min(count, math.ceil(Fraction(loss, weight)))


def pieces_lost(pieces: list[Piece], loss: int, defending: bool) -> list[Piece]:
    """A European side's losses: units first; a defender's holdings only for what units could not cover."""
    units_first = [p for p in pieces if p.kind not in ("settlement", "town", "factory")]
    lost = take_losses(units_first, loss)
    covered = sum(p.value for p in lost)
    if covered < loss and defending:
        lost += take_losses([p for p in pieces if p.kind in ("settlement", "town", "factory")], loss - covered)
    return lost


def _apply_losses(ctx: Ctx, battle: Battle, name: str, loss: int) -> str:
    state = ctx.state
    if loss <= 0:
        return ""
    if name == NATIVES:
        dead = natives_dead(loss, native_weight(state, battle), native_count(state, battle))
        if battle.city:
            state.cities[battle.city].level -= dead
        else:
            state.areas[battle.area].natives -= dead
        return count_of(dead, "natives")
    defending = name == battle.defender
    lost = pieces_lost(land_pieces(state, name, battle.area, defending), loss, defending)
    force = state.force(battle.area, name)
    area = state.areas[battle.area]
    counts: dict[str, int] = {}
    for piece in lost:
        counts[piece.kind] = counts.get(piece.kind, 0) + 1
        if piece.kind == "ally":
            area.allies[name] -= 1
            area.natives = max(0, area.natives - 1)
            if not area.allies[name]:
                del area.allies[name]
        elif piece.kind in ("settlement", "town", "factory"):
            holding = state.holding(battle.area, name)
            attr = piece.kind + "s" if piece.kind != "factory" else "factories"
            setattr(holding, attr, getattr(holding, attr) - 1)
            battle.taken[attr] = battle.taken.get(attr, 0) + 1
        else:
            force.add(piece.kind, -1)
    return ", ".join(count_of(n, k) for k, n in counts.items())


def _finish(ctx: Ctx, battle: Battle) -> None:
    state = ctx.state
    state.battles.pop(0)
    alive = {n: _side(state, battle, n).value > 0 for n in (battle.attacker, battle.defender)}
    where = battle.area + (f" ({battle.city})" if battle.city else "")
    if alive[battle.attacker] and not alive[battle.defender]:
        ctx.say(f"{side_does(battle.attacker, 'wins', start=True, bold=True)} the battle in {where}.", kind="combat")
        if battle.city and battle.attacker != NATIVES:
            state.cities[battle.city].holder = battle.attacker
            ctx.say(f"{battle.attacker} occupies the treasure city of {battle.city}.", kind="combat")
    elif alive[battle.defender] and not alive[battle.attacker]:
        ctx.say(f"{side_does(battle.defender, 'holds', start=True, bold=True)} {where}.", kind="combat")
    else:
        ctx.say(f"The battle in {where} ends without a victor.", kind="combat")
    for name, ok in alive.items():
        if name != NATIVES and not ok:
            other = battle.defender if name == battle.attacker else battle.attacker
            _rout(ctx, battle, name, other if alive[other] and other != NATIVES else None)
    for name in battle.withdrew:
        if name != NATIVES and alive[name]:
            retreat(ctx, battle.area, name)
    if battle.taken:
        taker = battle.attacker if battle.attacker != NATIVES and alive[battle.attacker] else None
        for attr, n in battle.taken.items():
            if taker:
                holding = state.holding(battle.area, taker)
                setattr(holding, attr, getattr(holding, attr) + n)
        what = ", ".join(count_of(n, attr) for attr, n in battle.taken.items())
        verb = "is" if sum(battle.taken.values()) == 1 else "are"
        ctx.say(f"{what} in {battle.area} {verb} " + (f"captured by {taker}." if taker else "destroyed."),
                kind="combat")


def retreat_to(state: TNState, area: str, power: str) -> str | None:
    """Where a withdrawing side goes (TN Tactics: withdrawal must retreat; our choice of where, see the notes).

    `nearest`: a neighbouring area with the power's settlement, town or factory (the most colonies first),
    else one where it has units, else home to Europe on its ships in the area, else any neighbouring land
    area. `europe`: home on its ships first. None: nowhere to go (an island without ships).
    """
    geo = geography()
    neighbours = sorted(n for n in geo.neighbours(area) if n in state.areas)
    ships_here = bool((state.peek(area, power) or Force()).ships)
    if state.options.get("withdrawal_to", "nearest") == "europe" and ships_here:
        return EUROPE
    held = [n for n in neighbours if (h := state.areas[n].holdings.get(power)) and (h.colonies or h.factories)]
    if held:
        return max(held, key=lambda n: (state.areas[n].holdings[power].colonies, -neighbours.index(n)))
    present = [n for n in neighbours if (f := state.peek(n, power)) and f.landed]
    if present:
        return present[0]
    if ships_here:
        return EUROPE
    return neighbours[0] if neighbours else None


def retreat(ctx: Ctx, area: str, power: str) -> None:
    """The withdrawing side's land units, leaders, gold and goods leave the area (ships too, if sailing home)."""
    state = ctx.state
    force = state.peek(area, power)
    leaders = state.leaders_of(power, area)
    if force is None or not (force.units or force.gold or force.goods or leaders):
        return
    dest = retreat_to(state, area, power)
    if dest is None:
        ctx.say(f"{power} withdraws but has nowhere to go from {area}: its force stays.", kind="combat")
        return
    there = state.force(dest, power)
    moved = [count_of(n, u) for u, n in force.units.items()]
    for unit, n in list(force.units.items()):
        there.add(unit, n)
    force.units.clear()
    there.gold += force.gold
    there.goods = change_up([*there.goods, *force.goods])
    force.gold, force.goods = 0, []
    if dest == EUROPE:
        for ship, n in list(force.ships.items()):
            there.add_ships(ship, n)
        force.ships.clear()
        moved += ["its ships"]
    for leader in leaders:
        leader.place = dest
        moved.append(leader.name)
    how = "sails home to Europe" if dest == EUROPE else f"falls back to {dest}"
    ctx.say(f"{power} withdraws from {area} and {how} ({', '.join(moved) or 'nothing left to move'}).",
            kind="combat")


def _rout(ctx: Ctx, battle: Battle, name: str, victor: str | None) -> None:
    """A side with no combat value left loses what cannot fight (cannon, slaves, mission units)
    and the leaders with it; its gold and goods go to the victor (option `spoils`) or are lost."""
    state = ctx.state
    force = state.peek(battle.area, name)
    if force:
        for unit in ("cannon", "slave", "mission"):
            force.units.pop(unit, None)
        _spoils(ctx, battle.area, name, force, victor)
    dead = state.leaders_of(name, battle.area)
    for leader in dead:
        state.leaders.remove(leader)
    if dead:
        ctx.say(f"{', '.join(ld.name for ld in dead)} fell with {name}'s force in {battle.area}.", kind="combat")


def _spoils(ctx: Ctx, area: str, loser: str, force: Force, victor: str | None) -> None:
    """Gold and goods awaiting shipment stay ashore with the beaten side: the victor's, or lost."""
    if not (force.gold or force.goods):
        return
    parts = ([f"{force.gold} gold"] if force.gold else []) + [g.code for g in force.goods]
    what = ", ".join(parts)
    if victor and ctx.state.options.get("spoils", "victor") == "victor":
        spoils = ctx.state.force(area, victor)
        spoils.gold += force.gold
        spoils.goods = change_up([*spoils.goods, *force.goods])
        ctx.say(f"{victor} seizes {loser}'s {what} awaiting shipment in {area}.", to=(loser, victor), kind="gold")
    else:
        ctx.say(f"{loser}'s {what} awaiting shipment in {area} {'is' if len(parts) == 1 else 'are'} lost.",
                to=loser, kind="gold")
    force.gold, force.goods = 0, []


def start(ctx: Ctx, area: str, attacker: str, defender: str, *, city: str | None = None,
          standing: dict[str, str] | None = None, uprising: bool = False) -> Battle:
    battle = Battle(ctx.state.new_id(), area, attacker, defender, city, standing=dict(standing or {}),
                    uprising=uprising)
    ctx.state.battles.append(battle)
    return battle


# -- at sea --------------------------------------------------------------------------------------------------------


@dataclass
class Squadron:
    """One side of a sea fight: ships (and soldiers aboard, each worth 1 at sea), changed in place."""

    power: str
    ships: dict[str, int]
    soldiers: int = 0
    rating: int | None = None

    def pieces(self) -> list[Piece]:
        table = ships()
        out = [Piece(k, table[k].combat) for k, n in self.ships.items() for _ in range(n)]
        if not out:
            return []       # soldiers fight from ships: with the last ship sunk, they are lost with it
        return out + [Piece("soldier", units()["soldier"].naval)] * self.soldiers

    @property
    def value(self) -> int:
        return sum(p.value for p in self.pieces())

    def lose(self, pieces: list[Piece]) -> None:
        for p in pieces:
            if p.kind == "soldier":
                self.soldiers -= 1
            else:
                self.ships[p.kind] -= 1
                if not self.ships[p.kind]:
                    del self.ships[p.kind]


def squadron_modifiers(me: Squadron, theirs: int, *, advantage: bool) -> list[int]:
    """A squadron's modifiers for one round at sea: leader, galleons, advantage and the larger force."""
    mods = []
    if me.rating:
        mods.append(me.rating)
    if any(k in me.ships for k in ("galleon", "galleass")):
        mods.append(modifier("Galleon"))
    if advantage:
        mods.append(modifier("Advantage"))
    mods.append(ratio_bonus(me.value, theirs))
    return mods


def sea_fight(ctx: Ctx, place: str, a: Squadron, b: Squadron) -> str | None:
    """Fight at sea until one side has no combat value (or the fight breaks off); the winner or None."""
    rounds = int(house()["combat"]["max_naval_rounds"])
    advantage: str | None = None
    for n in range(1, rounds + 1):
        if not (a.value > 0 and b.value > 0):
            break
        totals: dict[str, int] = {}
        notes: dict[str, str] = {}
        for me, them in ((a, b), (b, a)):
            mods = squadron_modifiers(me, them.value, advantage=advantage == me.power)
            die, _ = exploding_die(ctx, ("sea-combat", place, me.power), f"sea fight {place} round {n} {me.power}")
            totals[me.power] = die + sum(mods)
        winner = None if totals[a.power] == totals[b.power] else max(totals, key=lambda k: totals[k])
        for me, them in ((a, b), (b, a)):
            mod = winner_loss_modifier() if me.power == winner else 0
            row = ctx.lookup(combat_losses(), "sea-losses", place, me.power, label=f"sea losses {place} round {n} "
                             f"{me.power}", whose=f"for {me.power}", modifier=mod)
            loss = round_loss(Fraction(str(row.row.data["fraction"])), totals[them.power], None, False)
            lost = take_losses(me.pieces(), loss)
            kinds = [p.kind for p in lost]
            notes[me.power] = ", ".join(count_of(kinds.count(k), k) for k in dict.fromkeys(kinds)) or "nothing"
            me.lose(lost)
        advantage = winner
        ctx.say(f"Sea fight at {place}, round {n}: {a.power} {totals[a.power]} vs {b.power} {totals[b.power]}; "
                f"losses — {a.power}: {notes[a.power]}; {b.power}: {notes[b.power]}.", kind="combat")
    for side in (a, b):
        if side.value <= 0 and side.ships:
            side.ships.clear()      # ships without fighting value are taken or sunk with the rest
    if a.value > 0 and b.value <= 0:
        return a.power
    if b.value > 0 and a.value <= 0:
        return b.power
    return None
