"""Exact odds of a land battle (TN Combat, Tactics, Native Tactics, Combat Losses), as a Markov chain.

A state of the chain is both sides' pieces and who holds the advantage. One round: each side's exploding die
plus the modifiers `combat.side_modifiers` gives it, the winner, a Combat Losses row each (`combat.round_loss`)
and the pieces that loss takes (`combat.pieces_lost`, `combat.natives_dead`): the same functions the battle
itself runs. A side's total matters only through the interval it falls in (every total of one interval takes
the same pieces from the other side) and through which total is higher, so a round is a sum over pairs of
intervals (`engine.core.odds.contest`), exact to the last fraction. Losses only ever shrink a side, so the
chain is solved from the smallest states up; a round in which no one loses anything (only the advantage moves)
is a small linear system.
"""

from __future__ import annotations

import functools
import heapq
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.core.odds import INFINITY, ONE, ZERO, Dist, ExplodingDie, contest, level, pair
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.combat import NATIVES, Piece, Side, Squadron
from engine.rulesets.terra_nova.reference import (
    explosion,
    house,
    loss_fraction,
    native_tactics,
    winner_loss_modifier,
)
from engine.rulesets.terra_nova.state import Battle, TNState

FACES = range(1, 7)  # the Combat Losses die
MAX_ROUNDS = 2000    # rounds (a state and its advantage) one answer may count: a larger battle is refused, not guessed


class TooLarge(Exception):
    """The battle has more states than one answer counts."""


@dataclass(frozen=True, slots=True)
class Fighter:
    """One side as the chain carries it: a power's pieces (in `land_pieces` order) or the natives' count."""

    name: str
    pieces: tuple[tuple[str, int], ...] = ()
    natives: int = 0
    weight: int = 0
    defending: bool = False
    rating: int | None = None   # at sea: the squadron's leader
    sea: bool = False

    @property
    def value(self) -> int:
        if self.name == NATIVES:
            return self.natives * self.weight
        return sum(v for _, v in self.pieces)   # a squadron's pieces are only there while it has ships

    def squadron(self) -> Squadron:
        ships: dict[str, int] = {}
        for kind, _ in self.pieces:
            if kind != "soldier":
                ships[kind] = ships.get(kind, 0) + 1
        return Squadron(self.name, ships, self.count("soldier"), self.rating)

    def after(self, loss: int) -> Fighter:
        """This side once it has taken `loss`."""
        if loss <= 0:
            return self
        if self.sea:
            squadron = self.squadron()
            squadron.lose(combat.take_losses(squadron.pieces(), loss))
            return replace(self, pieces=tuple((p.kind, p.value) for p in squadron.pieces()))
        if self.name == NATIVES:
            return replace(self, natives=self.natives - combat.natives_dead(loss, self.weight, self.natives))
        pieces = [Piece(k, v) for k, v in self.pieces]
        lost = combat.pieces_lost(pieces, loss, self.defending)
        kept = [p for p in pieces if not any(p is q for q in lost)]
        return replace(self, pieces=tuple((p.kind, p.value) for p in kept))

    def count(self, kind: str) -> int:
        return sum(1 for k, _ in self.pieces if k == kind)


@dataclass(frozen=True, slots=True)
class Ending:
    """How a battle ended: both sides as they were left, and whether a withdrawal ended it."""

    attacker: Fighter
    defender: Fighter
    withdrawal: bool = False


def fighter(state: TNState, battle: Battle, name: str) -> Fighter:
    """A side at the start of the battle, from the public board."""
    defending = name == battle.defender
    if name == NATIVES:
        return Fighter(name, natives=combat.native_count(state, battle),
                       weight=combat.native_weight(state, battle), defending=defending)
    pieces = combat.land_pieces(state, name, battle.area, defending)
    return Fighter(name, tuple((p.kind, p.value) for p in pieces), defending=defending)


@functools.cache
def _die() -> ExplodingDie:
    on, add = explosion()
    return ExplodingDie(6, on, add)


class Chain:
    """The battle's chain: `tactics` names each power's tactic, held every round ("none" for none)."""

    def __init__(self, state: TNState, battle: Battle, tactics: dict[str, str], budget: int = MAX_ROUNDS) -> None:
        self.state, self.battle, self.tactics, self.budget = state, battle, tactics, budget
        self._rounds = 0
        self._ids: dict[Fighter, int] = {}
        self._fighters: list[Fighter] = []
        self._compiled: dict[tuple[Fighter, str | None, bool, int], Compiled] = {}
        self._rating = {n: (None if n == NATIVES else combat.best_rating(state, n, battle.area))
                        for n in (battle.attacker, battle.defender)}

    # -- one round ----------------------------------------------------------------------------------------------
    def _tactic(self, name: str) -> Dist[str | None]:
        if name == NATIVES:
            if not combat.civilisation(self.state, self.battle):
                return Dist.certain(None)
            table = native_tactics()
            faces = range(table.count, table.count * table.sides + 1)
            return Dist.uniform(combat.native_tactic(self.battle, table.lookup(f).result) for f in faces)
        return Dist.certain(combat.tactic_in_play(self.state, self.battle, name, self.tactics.get(name)))

    def round(self, a: Fighter, b: Fighter, advantage: str | None) -> Dist[tuple[Fighter, Fighter, str | None, bool]]:
        """One round from here: the sides after it, who won it, and whether a withdrawal ends the battle."""
        self._rounds += 1
        if self._rounds > self.budget:
            raise TooLarge
        combos = [(ta, tb, pa * pb) for ta, pa in self._tactic(a.name).items()
                  for tb, pb in self._tactic(b.name).items()]
        if len(combos) == 1:
            counts, whole = self._round_with(a, b, advantage, combos[0][0], combos[0][1])
            return Dist((key, Fraction(n, whole)) for key, n in counts)
        out: dict[tuple[Fighter, Fighter, str | None, bool], Fraction] = {}
        for ta, tb, p in combos:
            counts, whole = self._round_with(a, b, advantage, ta, tb)
            for key, n in counts:
                out[key] = out.get(key, ZERO) + p * Fraction(n, whole)
        return Dist(out)

    def _round_with(self, a: Fighter, b: Fighter, advantage: str | None, ta: str | None,
                    tb: str | None) -> tuple[list[tuple[Outcome, int]], int]:
        """One round with these tactics: each outcome with its chance as a whole number over the second value."""
        bonus_a, bonus_b = self._bonuses(a, b, advantage, ta, tb)
        massacre = "massacre" in (ta, tb)
        # intervals of A's die over which B's fate (for every Combat Losses row) stays the same, and the reverse
        hits_b = self._classes(b, tb, massacre, bonus_a)
        hits_a = self._classes(a, ta, massacre, bonus_b)
        ended = "withdrawal" in (ta, tb)
        win_a = None if ta == "withdrawal" else a.name
        win_b = None if tb == "withdrawal" else b.name
        c = bonus_b - bonus_a
        spans = [span for span, _, _ in hits_a + hits_b]
        top = max([1, *(low for low, _ in spans), *(high for _, high in spans if high < INFINITY)])
        pr = pair(_die(), c, level(top + 2 * abs(c) + 4, _die().add))
        acc: dict[tuple[int, int, str | None], int] = {}
        for span_a, fb_won, fb_lost in hits_b:
            sums: dict[str | None, dict[int, int]] = {}
            for span_b, fa_won, fa_lost in hits_a:
                greater, equal, less = contest(pr, span_a, span_b)
                for winner, p in ((win_a, greater), (None, equal), (win_b, less)):
                    if p:
                        into = sums.setdefault(winner, {})
                        for na, k in (fa_won if winner == a.name else fa_lost):
                            into[na] = into.get(na, 0) + p * k
            for winner, into in sums.items():
                for nb, k in (fb_won if winner == b.name else fb_lost):
                    for na, n in into.items():
                        key = (na, nb, winner)
                        acc[key] = acc.get(key, 0) + n * k
        fighters = self._fighters
        return [((fighters[na], fighters[nb], w, ended), n) for (na, nb, w), n in acc.items()], pr.scale * 36

    def _bonuses(self, a: Fighter, b: Fighter, advantage: str | None, ta: str | None,
                 tb: str | None) -> tuple[int, int]:
        side_a = Side(a.name, a.value, self._rating[a.name], tactic=ta)
        side_b = Side(b.name, b.value, self._rating[b.name], tactic=tb)
        return (sum(v for _, v in combat.side_modifiers(self.state, self.battle, side_a, b.value,
                                                        advantage=advantage == a.name)),
                sum(v for _, v in combat.side_modifiers(self.state, self.battle, side_b, a.value,
                                                        advantage=advantage == b.name)))

    def _classes(self, target: Fighter, tactic: str | None, massacre: bool, bonus: int) -> Compiled:
        """`_classes` with each fate as a number, over the six loss faces as a winner and not (counts of faces)."""
        key = (target, tactic, massacre, bonus)
        got = self._compiled.get(key)
        if got is None:
            wm = winner_loss_modifier()
            got = [(span, self._fates(fate, wm), self._fates(fate, 0))
                   for span, fate in _classes(target, tactic, massacre, bonus)]
            self._compiled[key] = got
        return got

    def _fates(self, fate: dict[Fraction, Fighter], modifier: int) -> list[tuple[int, int]]:
        """The side after its Combat Losses roll (at `modifier`): each fate's number, and how many faces give it."""
        seen: dict[int, int] = {}
        for face in FACES:
            after = fate[_loss_fraction(face + modifier)]
            number = self._ids.get(after)
            if number is None:
                number = self._ids[after] = len(self._fighters)
                self._fighters.append(after)
            seen[number] = seen.get(number, 0) + 1
        return list(seen.items())

    # -- the chain ----------------------------------------------------------------------------------------------
    def solve(self, a: Fighter, b: Fighter, advantage: str | None = None) -> Dist[Ending]:
        """How the battle ends from here: the chance of being in each state is carried forward, the states with
        the most combat value left first (a round only ever takes value away, so nothing flows back to them)."""
        endings: dict[Ending, Fraction] = {}
        waiting: dict[tuple[Fighter, Fighter], dict[str | None, Fraction]] = {(a, b): {advantage: ONE}}
        order = [(-(a.value + b.value), 0, (a, b))]
        counter = 1
        while order:
            _, _, here = heapq.heappop(order)
            mass = waiting.pop(here)
            na, nb = here
            if na.value <= 0 or nb.value <= 0:
                ending = Ending(na, nb)
                endings[ending] = endings.get(ending, ZERO) + sum(mass.values(), ZERO)
                continue
            for (xa, xb, w, ended), p in self._leave(na, nb, mass).items():
                if ended:
                    ending = Ending(xa, xb, xa.value > 0 and xb.value > 0)
                    endings[ending] = endings.get(ending, ZERO) + p
                    continue
                there = waiting.get((xa, xb))
                if there is None:
                    there = waiting[(xa, xb)] = {}
                    heapq.heappush(order, (-(xa.value + xb.value), counter, (xa, xb)))
                    counter += 1
                there[w] = there.get(w, ZERO) + p
        return Dist(endings)

    def _leave(self, a: Fighter, b: Fighter, entering: dict[str | None, Fraction]
               ) -> dict[tuple[Fighter, Fighter, str | None, bool], Fraction]:
        """Where the chance of being at these pieces (by advantage) goes once it leaves them: rounds that take
        nothing only move the advantage, which is a small linear system."""
        rounds: dict[str | None, Dist[tuple[Fighter, Fighter, str | None, bool]]] = {}
        todo = list(entering)
        while todo:
            adv = todo.pop()
            if adv in rounds:
                continue
            rounds[adv] = self.round(a, b, adv)
            todo += [w for (na, nb, w, ended) in rounds[adv] if (na, nb) == (a, b) and not ended]
        advs = list(rounds)
        stay = [[ZERO] * len(advs) for _ in advs]
        for i, adv in enumerate(advs):
            for (na, nb, w, ended), p in rounds[adv].items():
                if (na, nb) == (a, b) and not ended:
                    stay[i][advs.index(w)] += p
        # visits to each advantage state: entering · (I - stay)^-1
        inverse = _inverse([[(ONE if i == j else ZERO) - stay[i][j] for j in range(len(advs))]
                            for i in range(len(advs))])
        visits = [sum((entering.get(advs[i], ZERO) * inverse[i][j] for i in range(len(advs))), ZERO)
                  for j in range(len(advs))]
        out: dict[tuple[Fighter, Fighter, str | None, bool], Fraction] = {}
        for j, adv in enumerate(advs):
            if not visits[j]:
                continue
            for key, p in rounds[adv].items():
                na, nb, _, ended = key
                if (na, nb) == (a, b) and not ended:
                    continue
                out[key] = out.get(key, ZERO) + visits[j] * p
        return out


Outcome = tuple[Fighter, Fighter, str | None, bool]   # both sides after a round, its winner, a withdrawal
Classes = list[tuple[tuple[int, int], dict[Fraction, Fighter]]]
Compiled = list[tuple[tuple[int, int], list[tuple[int, int]], list[tuple[int, int]]]]


@functools.cache
def _row_fractions() -> list[Fraction]:
    wm = winner_loss_modifier()
    return sorted({_loss_fraction(f + m) for f in FACES for m in (0, wm)})


def _classes(target: Fighter, tactic: str | None, massacre: bool, bonus: int) -> Classes:
    """Intervals of the opposing die (raw, before its `bonus`) over which `target`'s fate stays the same for
    every Combat Losses row; the last interval is open (every larger total takes as much)."""
    fractions = _row_fractions()
    value = target.value
    fates: dict[int, Fighter] = {}

    def fate(loss: int) -> Fighter:
        if loss not in fates:
            fates[loss] = target.after(loss)
        return fates[loss]

    rows = range(len(fractions))

    def losses(raw: int) -> tuple[int, ...]:  # all of a side is all of it: a loss is counted up to its value
        return tuple(min(value, _loss(i, raw + bonus, tactic, massacre)) for i in rows)

    spans: list[tuple[int, int, tuple[int, ...]]] = []
    raw, start, current = 1, 1, losses(1)
    while not all(n >= value for n, f in zip(current, fractions, strict=True) if f > 0):
        nxt = losses(raw + 1)
        if nxt != current:
            spans.append((start, raw, current))
            start, current = raw + 1, nxt
        raw += 1
    spans.append((start, INFINITY, current))
    out: Classes = []
    for low, high, lost in spans:  # losses that differ may still take the same pieces
        fated = {f: fate(n) for f, n in zip(fractions, lost, strict=True)}
        if out and out[-1][1] == fated:
            out[-1] = ((out[-1][0][0], high), fated)
        else:
            out.append(((low, high), fated))
    return out


@functools.cache
def _loss(row: int, total: int, tactic: str | None, massacre: bool) -> int:
    return combat.round_loss(_row_fractions()[row], total, tactic, massacre)


@functools.cache
def _loss_fraction(total: int) -> Fraction:
    return loss_fraction(total)


def _inverse(m: list[list[Fraction]]) -> list[list[Fraction]]:
    """The inverse of a small square matrix of fractions (Gauss-Jordan)."""
    n = len(m)
    rows = [row[:] + [ONE if i == j else ZERO for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]


def battle_odds(state: TNState, battle: Battle, tactics: dict[str, str], advantage: str | None = None, *,
                budget: int | None = None) -> Dist[Ending]:
    """How `battle` ends, each power holding the tactic `tactics` names for it every round (none if unnamed);
    TooLarge past `budget` rounds counted."""
    chain = Chain(state, battle, tactics, budget or MAX_ROUNDS)
    return chain.solve(fighter(state, battle, battle.attacker), fighter(state, battle, battle.defender), advantage)


class SeaChain(Chain):
    """A sea fight (TN Combat at sea): no tactics, `squadron_modifiers`, and it breaks off after the house's
    number of rounds (`combat.sea_fight`)."""

    def _tactic(self, name: str) -> Dist[str | None]:
        return Dist.certain(None)

    def _bonuses(self, a: Fighter, b: Fighter, advantage: str | None, ta: str | None,
                 tb: str | None) -> tuple[int, int]:
        return (sum(combat.squadron_modifiers(a.squadron(), b.value, advantage=advantage == a.name)),
                sum(combat.squadron_modifiers(b.squadron(), a.value, advantage=advantage == b.name)))

    def solve(self, a: Fighter, b: Fighter, advantage: str | None = None) -> Dist[Ending]:
        rounds = int(house()["combat"]["max_naval_rounds"])
        now: dict[tuple[Fighter, Fighter, str | None], Fraction] = {(a, b, advantage): ONE}
        endings: dict[Ending, Fraction] = {}
        seen: dict[tuple[Fighter, Fighter, str | None], Dist[Outcome]] = {}   # a state's round, at any round
        for _ in range(rounds):
            after: dict[tuple[Fighter, Fighter, str | None], Fraction] = {}
            for (xa, xb, adv), p in now.items():
                if xa.value <= 0 or xb.value <= 0:
                    endings[Ending(xa, xb)] = endings.get(Ending(xa, xb), ZERO) + p
                    continue
                key = (xa, xb, adv)
                if key not in seen:
                    seen[key] = self.round(xa, xb, adv)
                for (na, nb, w, _), q in seen[key].items():
                    after[(na, nb, w)] = after.get((na, nb, w), ZERO) + p * q
            now = after
        for (xa, xb, _), p in now.items():
            endings[Ending(xa, xb)] = endings.get(Ending(xa, xb), ZERO) + p
        return Dist(endings)


def sea_fighter(squadron: Squadron) -> Fighter:
    return Fighter(squadron.power, tuple((p.kind, p.value) for p in squadron.pieces()), rating=squadron.rating,
                   sea=True)


def sea_odds(state: TNState, place: str, a: Squadron, b: Squadron, *, budget: int | None = None) -> Dist[Ending]:
    """How a sea fight between these squadrons ends (`a` attacks)."""
    battle = Battle(0, place, a.power, b.power)
    return SeaChain(state, battle, {}, budget or MAX_ROUNDS).solve(sea_fighter(a), sea_fighter(b))
