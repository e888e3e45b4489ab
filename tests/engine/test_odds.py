"""The exact-odds core: finite distributions, and the exploding die summed exactly over intervals."""

from fractions import Fraction

import pytest

from engine.core.odds import INFINITY, Dist, ExplodingDie, beats, contest, level, pair, percent

DIE = ExplodingDie(6, 6, 5)
DEEP = 25  # explosions enumerated by brute force: what is left beyond is under 6^-25


def brute(x: tuple[int, int], y: tuple[int, int], c: int) -> tuple[Fraction, Fraction, Fraction]:
    """The same three chances by adding up every pair of totals up to DEEP explosions (a tail under 1e-30)."""
    top = 5 * DEEP
    g = e = lt = Fraction(0)
    for a in range(x[0], min(x[1], top) + 1):
        pa = DIE.p(a)
        for b in range(y[0], min(y[1], top) + 1):
            p = pa * DIE.p(b)
            if a - b > c:
                g += p
            elif a - b == c:
                e += p
            else:
                lt += p
    return g, e, lt


def test_the_exploding_die_counts_five_and_rolls_again():
    assert [DIE.p(v) for v in (1, 5, 6, 10, 11)] == [Fraction(1, 6)] * 2 + [Fraction(1, 36)] * 2 + [Fraction(1, 216)]
    assert DIE.p(6) == Fraction(1, 36)        # a 6 then a 1
    assert DIE.at_least(6) == Fraction(1, 6)  # a first 6
    assert DIE.at_least(11) == Fraction(1, 36)
    assert sum(DIE.p(v) for v in range(1, 5 * DEEP + 1)) + DIE.at_least(5 * DEEP + 1) == 1


@pytest.mark.parametrize("c", [-7, -2, -1, 0, 1, 3, 8])
def test_one_total_beats_another_exactly(c):
    """P(X - Y > c) from the both-explode recursion equals the brute sum within its (tiny) tail."""
    g, _, _ = brute((1, INFINITY), (1, INFINITY), c)
    tail = 2 * DIE.at_least(5 * DEEP + 1)
    assert g <= beats(DIE, c) <= g + tail
    assert beats(DIE, c) + beats(DIE, -c - 1) == 1  # the same contest seen from the other side


@pytest.mark.parametrize(("x", "y", "c"), [((1, 3), (1, 3), 0), ((4, 12), (2, 9), -2), ((7, INFINITY), (1, 6), 1),
                                           ((1, 9), (5, INFINITY), 0), ((13, INFINITY), (11, INFINITY), 2),
                                           ((1, INFINITY), (1, INFINITY), -3), ((20, 40), (1, 2), 5)])
def test_intervals_of_totals_against_each_other_match_brute_force(x, y, c):
    pr = pair(DIE, c, level(60, 5))
    got = [Fraction(n, pr.scale) for n in contest(pr, x, y)]
    want = brute(x, y, c)
    tail = 2 * DIE.at_least(5 * DEEP + 1)
    for g, w in zip(got, want, strict=True):
        assert w <= g <= w + tail
    assert sum(got) == DIE.between(*x) * DIE.between(*y)


def test_distributions_are_exact_and_percentages_read_as_players_expect():
    two = Dist.die(6).bind(lambda a: Dist.die(6).map(lambda b: a + b))
    assert two[7] == Fraction(1, 6) and two.total() == 1
    assert two.chance(lambda t: t >= 10) == Fraction(1, 6)
    assert [percent(Fraction(5, 8)), percent(Fraction(1, 6)), percent(Fraction(1, 3000)), percent(Fraction(1)),
            percent(Fraction(2999, 3000))] == ["62.5%", "16.7%", "<0.1%", "100%", ">99.9%"]
