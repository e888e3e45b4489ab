"""Exact odds: finite distributions of exact fractions, and the exploding die (TN Combat) with its infinite tail.

Everything is a `fractions.Fraction` until it is shown (`percent`). A dice library such as icepool truncates an
exploding die at a depth; the exploding die here keeps its whole tail exactly, by its memorylessness: after k
explosions what is left to roll is a fresh die.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)
ZERO = Fraction(0)
ONE = Fraction(1)
INFINITY = 10**18  # the open top end of an interval of totals


class Dist(Generic[T]):
    """A finite probability distribution over outcomes, with exact probabilities summing to 1."""

    __slots__ = ("_p",)

    def __init__(self, weights: Mapping[T, Fraction] | Iterable[tuple[T, Fraction]]) -> None:
        p: dict[T, Fraction] = {}
        for outcome, weight in (weights.items() if isinstance(weights, Mapping) else weights):
            if weight:
                p[outcome] = p.get(outcome, ZERO) + weight
        self._p = p

    @classmethod
    def certain(cls, outcome: T) -> Dist[T]:
        return cls({outcome: ONE})

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Dist[T]:
        listed = list(outcomes)
        return cls((o, Fraction(1, len(listed))) for o in listed)

    @classmethod
    def die(cls, sides: int) -> Dist[int]:
        return Dist.uniform(range(1, sides + 1))

    @classmethod
    def mix(cls, parts: Iterable[tuple[Fraction, Dist[T]]]) -> Dist[T]:
        """Dist `d` with probability `w`, for each (w, d)."""
        return cls((o, w * p) for w, d in parts for o, p in d.items())

    def items(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self._p.items())

    def __iter__(self) -> Iterator[T]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __getitem__(self, outcome: T) -> Fraction:
        return self._p.get(outcome, ZERO)

    def total(self) -> Fraction:
        return sum(self._p.values(), ZERO)

    def map(self, fn: Callable[[T], U]) -> Dist[U]:
        return Dist((fn(o), p) for o, p in self._p.items())

    def bind(self, fn: Callable[[T], Dist[U]]) -> Dist[U]:
        """The distribution of what follows each outcome."""
        return Dist((o2, p * p2) for o, p in self._p.items() for o2, p2 in fn(o).items())

    def chance(self, test: Callable[[T], bool]) -> Fraction:
        return sum((p for o, p in self._p.items() if test(o)), ZERO)

    def mean(self, value: Callable[[T], Fraction | int]) -> Fraction:
        return sum((p * value(o) for o, p in self._p.items()), ZERO)

    def __repr__(self) -> str:
        return f"Dist({dict(self._p)!r})"


def total_of(dist: Dist[int], times: int) -> Dist[int]:
    """The sum of `times` independent draws of `dist` (`total_of(Dist.die(6), 2)` is 2d6)."""
    out: Dist[int] = Dist.certain(0)
    for _ in range(times):
        out = Dist((a + b, p * q) for a, p in out.items() for b, q in dist.items())
    return out


def percent(p: Fraction) -> str:
    """A probability as players read it: `62.5%`, `16.7%`, `100%`, `<0.1%` (never 0% for what may happen)."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    tenths = round(p * 1000)
    if tenths == 0:
        return "<0.1%"
    if tenths == 1000:
        return ">99.9%"
    whole, frac = divmod(tenths, 10)
    return f"{whole}%" if frac == 0 else f"{whole}.{frac}%"


# -- the exploding die -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExplodingDie:
    """A die of `sides` faces that, on `on`, counts `add` and is rolled again, cumulatively (TN Combat: d6, a 6
    counts 5 and rolls again). Its totals are every whole number from 1 up: `add`·k + u, u in 1..add, when the
    faces that do not explode are exactly 1..add, which is what this class accepts."""

    sides: int
    on: int
    add: int

    def __post_init__(self) -> None:
        if self.on != self.sides or self.add != self.sides - 1:
            raise ValueError("only a die exploding on its top face, counting one less, is supported")

    @property
    def q(self) -> Fraction:
        """The chance of one explosion."""
        return Fraction(1, self.sides)

    def p(self, v: int) -> Fraction:
        """P(total = v)."""
        if v < 1:
            return ZERO
        k = (v - 1) // self.add
        return self.q ** (k + 1)

    def at_least(self, v: int) -> Fraction:
        """P(total >= v)."""
        if v <= 1:
            return ONE
        k, u = divmod(v - 1, self.add)
        return self.q**k * Fraction(self.sides - u, self.sides)

    def at_most(self, v: int) -> Fraction:
        return ONE - self.at_least(v + 1)

    def between(self, low: int, high: int) -> Fraction:
        """P(low <= total <= high); `high` may be INFINITY."""
        if high < low:
            return ZERO
        return self.at_least(low) - (ZERO if high >= INFINITY else self.at_least(high + 1))


def level(high: int, add: int) -> int:
    """How many powers of the die's sides scale every probability of totals up to `high` to a whole number
    (rounded up to a multiple of 16, so that rounds of similar size share their prefix sums)."""
    needed = max(1, high) // add + 3
    return -(-needed // 16) * 16


class _Pair:
    """Two independent totals of one exploding die, X and Y, and the prefix sums that make
    P(X in I, Y in J, X - Y > c) and P(X in I, Y in J, X - Y = c) a few steps of arithmetic for intervals I, J.

    Every probability here is a whole number over `scale` = (sides^2 - 1) · sides^(2·level): exact, and much
    quicker to add and multiply than fractions (the factor sides^2 - 1 makes the both-explode tail whole)."""

    def __init__(self, die: ExplodingDie, c: int, lvl: int) -> None:
        self.die, self.c, self.lvl = die, c, lvl
        self.one: int = int(die.sides**lvl)
        self.scale: int = int((die.sides**2 - 1) * die.sides ** (2 * lvl))
        self.unit: int = int(die.sides**2 - 1)  # what a product of two single-die numbers is multiplied by
        self._above = [0]   # _above[t] = sum_{y=1..t} p(y) * P(X <= y + c), at scale
        self._equal = [0]   # _equal[t] = sum_{y=1..t} p(y) * p(y + c), at scale
        self._limit = die.add * (lvl - 2)
        self._between: dict[tuple[int, int], int] = {}

    def _power(self, k: int) -> int:
        if k + 1 > self.lvl:
            raise ValueError("a total beyond this pair's level")
        return int(self.die.sides ** (self.lvl - k - 1))

    def p(self, v: int) -> int:
        if v < 1:
            return 0
        return self._power((v - 1) // self.die.add)

    def at_least(self, v: int) -> int:
        if v <= 1:
            return self.one
        k, u = divmod(v - 1, self.die.add)
        return self._power(k) * (self.die.sides - u)

    def at_most(self, v: int) -> int:
        return self.one - self.at_least(v + 1)

    def _extend(self, t: int) -> None:
        if t + abs(self.c) + 1 > self._limit:
            raise ValueError("a total beyond this pair's level")
        c, unit = self.c, self.unit
        while len(self._above) <= t:
            y = len(self._above)
            self._above.append(self._above[-1] + unit * self.p(y) * self.at_most(y + c))
            self._equal.append(self._equal[-1] + unit * self.p(y) * self.p(y + c))

    def above_prefix(self, t: int) -> int:
        if t <= 0:
            return 0
        self._extend(t)
        return self._above[t]

    def equal_prefix(self, t: int) -> int:
        if t <= 0:
            return 0
        self._extend(t)
        return self._equal[t]

    def _whole(self, p: Fraction) -> int:
        n = p * self.scale
        if n.denominator != 1:
            raise ValueError("a probability that is not whole at this level")
        return n.numerator

    def greater(self, x: int, y: int) -> int:
        """P(X <= x, Y <= y, X - Y > c), at scale; either bound may be INFINITY."""
        c, unit = self.c, self.unit
        if x <= 0 or y <= 0:
            return 0
        if x >= INFINITY and y >= INFINITY:
            return self._whole(beats(self.die, c))
        if x >= INFINITY:
            return unit * self.at_most(y) * self.one - self.above_prefix(y)
        t = min(y, x - c - 1)
        if t <= 0:
            return 0
        return unit * self.at_most(x) * self.at_most(t) - self.above_prefix(t)

    def equal(self, x: int, y: int) -> int:
        """P(X <= x, Y <= y, X - Y = c), at scale."""
        if x <= 0 or y <= 0:
            return 0
        if x >= INFINITY and y >= INFINITY:
            return self._whole(beats(self.die, self.c - 1) - beats(self.die, self.c))
        return self.equal_prefix(min(y, x - self.c))

    def between(self, low: int, high: int) -> int:
        key = (low, high)
        got = self._between.get(key)
        if got is None:
            got = 0 if high < low else self.at_least(low) - (0 if high >= INFINITY else self.at_least(high + 1))
            self._between[key] = got
        return got


@functools.cache
def pair(die: ExplodingDie, c: int, lvl: int) -> _Pair:
    return _Pair(die, c, lvl)


@functools.cache
def beats(die: ExplodingDie, c: int) -> Fraction:
    """P(X - Y > c) for two independent totals: whenever both first dice explode, what remains is the same
    contest afresh, so W = (the part where they do not) / (1 - q^2)."""
    if c < -1:
        return ONE - beats(die, -c - 1)
    below = sum((die.p(y) * die.at_most(y + c) for y in range(1, die.add + 1)), ZERO)
    return (die.at_most(die.add) - below) / (1 - die.q**2)


def _rect(f: Callable[[int, int], int], x: tuple[int, int], y: tuple[int, int]) -> int:
    (x0, x1), (y0, y1) = x, y
    return f(x1, y1) - f(x0 - 1, y1) - f(x1, y0 - 1) + f(x0 - 1, y0 - 1)


def contest(pr: _Pair, x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int, int]:
    """For independent totals X in [x0, x1] and Y in [y0, y1] (tops may be INFINITY), the chances that
    X - Y > c, = c and < c, each jointly with X and Y in their intervals, as whole numbers over `pr.scale`."""
    both = pr.unit * pr.between(*x) * pr.between(*y)
    if not both:
        return 0, 0, 0
    c = pr.c
    if y[1] < INFINITY and x[0] - y[1] > c:      # every X beats every Y
        return both, 0, 0
    if x[1] < INFINITY and x[1] - y[0] < c:
        return 0, 0, both
    greater = _rect(pr.greater, x, y)
    equal = _rect(pr.equal, x, y)
    return greater, equal, both - greater - equal
