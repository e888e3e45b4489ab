"""Dice like Avrae: keep/drop highest/lowest, advantage, a label, dropped dice struck through, all from the seed."""

from __future__ import annotations

import re

import pytest

from engine.core import Dice, Roll, rederive
from engine.core.dice_notation import split_label, to_library

SEED = bytes(range(32))


def roll(text: str) -> Roll:
    return Dice(SEED, "t").notation(text, purpose="p")


@pytest.mark.parametrize(("ours", "library"), [
    ("4d6kh3", "4d6h3"), ("4d6k3", "4d6h3"), ("4d6kl1", "4d6l1"), ("4d6dl1", "4d6h3"), ("4d6dh1", "4d6l3"),
    ("2d20kh", "2d20h1"), ("1d20+5 adv", "2d20h1+5"), ("d20-1 dis", "2d20l1-1"), ("3d6x6", "3d6x6"),
])
def test_our_words_are_rewritten_onto_the_librarys(ours, library):
    assert to_library(ours).replace(" ", "") == library


@pytest.mark.parametrize(("text", "notation", "label"), [
    ("1d20+5 to hit", "1d20+5", "to hit"), ("2d6 fire damage", "2d6", "fire damage"),
    ("1d20 + 5 adv Perception", "1d20 + 5 adv", "Perception"), ("4d6kh3", "4d6kh3", ""),
    ("1d20 for <@123> **now** `x` __y__ ~~z~~", "1d20", "for 123 now x y z"),
])
def test_words_after_the_dice_are_a_label(text, notation, label):
    assert split_label(text) == (notation, label)


def test_keeping_the_highest_strikes_the_others_and_totals_the_kept():
    r = roll("4d6kh3")
    assert len(r.faces) == 4
    assert r.total == sum(sorted(r.faces)[1:])
    struck = re.findall(r"~~(\d+)~~", r.text())
    assert len(struck) == 1 and int(struck[0]) == min(r.faces)


def test_advantage_rolls_two_d20_and_keeps_the_better_with_the_label_shown():
    r = roll("1d20+5 adv to hit")
    assert len(r.faces) == 2 and r.total == max(r.faces) + 5 and r.note == "to hit"
    assert r.text().startswith("1d20+5 adv (to hit): (") and r.text().endswith(f"= **{r.total}**")
    assert r.text().count("~~") == 2


def test_disadvantage_keeps_the_worse():
    r = roll("d20 dis")
    assert r.total == min(r.faces)


def test_dropping_the_lowest_is_keeping_the_rest():
    r = roll("4d6dl1")
    assert r.total == sum(r.faces) - min(r.faces)


def test_every_roll_in_our_words_rederives_from_the_seed_and_survives_the_log():
    for text in ["4d6kh3", "2d20dl1+3", "1d20+5 adv to hit", "d20 dis", "4d6h3 + 2d8kl1 fire"]:
        r = roll(text)
        again = Roll.load(r.dump())
        assert again == r and rederive(SEED, again).total == r.total


def test_a_roll_the_library_reads_alone_is_shown_as_its_draws():
    assert roll("3d6x6").text().startswith("3d6x6: [")
