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


class _Pair:
    """Two independent totals of one exploding die, X and Y, and the prefix sums that make
    P(X in I, Y in J, X - Y > c) and P(X in I, Y in J, X - Y = c) a few arithmetic steps for intervals I, J."""

    def __init__(self, die: ExplodingDie, c: int) -> None:
        self.die, self.c = die, c
        self._above = [ZERO]   # _above[t] = sum_{y=1..t} p(y) * P(X <= y + c)
        self._equal = [ZERO]   # _equal[t] = sum_{y=1..t} p(y) * p(y + c)

    def _extend(self, t: int) -> None:
        die, c = self.die, self.c
        while len(self._above) <= t:
            y = len(self._above)
            self._above.append(self._above[-1] + die.p(y) * die.at_most(y + c))
            self._equal.append(self._equal[-1] + die.p(y) * die.p(y + c))

    def above_prefix(self, t: int) -> Fraction:
        if t <= 0:
            return ZERO
        self._extend(t)
        return self._above[t]

    def equal_prefix(self, t: int) -> Fraction:
        if t <= 0:
            return ZERO
        self._extend(t)
        return self._equal[t]

    def greater(self, x: int, y: int) -> Fraction:
        """P(X <= x, Y <= y, X - Y > c); either bound may be INFINITY."""
        die, c = self.die, self.c
        if x <= 0 or y <= 0:
            return ZERO
        if x >= INFINITY and y >= INFINITY:
            return beats(die, c)
        if x >= INFINITY:
            return die.at_most(y) - self.above_prefix(y)
        t = min(y, x - c - 1)
        if t <= 0:
            return ZERO
        return die.at_most(x) * die.at_most(t) - self.above_prefix(t)

    def equal(self, x: int, y: int) -> Fraction:
        """P(X <= x, Y <= y, X - Y = c)."""
        if x <= 0 or y <= 0:
            return ZERO
        if x >= INFINITY and y >= INFINITY:
            return beats(self.die, self.c - 1) - beats(self.die, self.c)
        return self.equal_prefix(min(y, x - self.c))


@functools.cache
def _pair(die: ExplodingDie, c: int) -> _Pair:
    return _Pair(die, c)


@functools.cache
def beats(die: ExplodingDie, c: int) -> Fraction:
    """P(X - Y > c) for two independent totals: whenever both first dice explode, what remains is the same
    contest afresh, so W = (the part where they do not) / (1 - q^2)."""
    if c < -1:
        return ONE - beats(die, -c - 1)
    pair = _pair(die, c)
    return (die.at_most(die.add) - pair.above_prefix(die.add)) / (1 - die.q**2)


def _rect(f: Callable[[int, int], Fraction], x: tuple[int, int], y: tuple[int, int]) -> Fraction:
    (x0, x1), (y0, y1) = x, y
    return f(x1, y1) - f(x0 - 1, y1) - f(x1, y0 - 1) + f(x0 - 1, y0 - 1)


def contest(die: ExplodingDie, x: tuple[int, int], y: tuple[int, int], c: int) -> tuple[Fraction, Fraction, Fraction]:
    """For independent totals X in [x0, x1] and Y in [y0, y1] (tops may be INFINITY), the chances that
    X - Y > c, = c and < c, each jointly with X and Y in their intervals."""
    both = die.between(*x) * die.between(*y)
    if not both:
        return ZERO, ZERO, ZERO
    if x[0] - (y[1] if y[1] < INFINITY else INFINITY) > c:      # every X beats every Y
        return both, ZERO, ZERO
    if x[1] < INFINITY and x[1] - y[0] < c:
        return ZERO, ZERO, both
    pair = _pair(die, c)
    greater = _rect(pair.greater, x, y)
    equal = _rect(pair.equal, x, y)
    return greater, equal, both - greater - equal
