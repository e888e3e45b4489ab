"""Action menus fit Discord's five rows of 25 options, packing small kinds together before dropping any."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.discord.views import MAX_OPTIONS, MAX_ROWS, plan_menus
from engine.core import Action


def acts(group: str, n: int) -> list[Action]:
    return [Action(f"{group} {i}", f"{group.title()} {i}", group) for i in range(n)]


def test_small_kinds_are_packed_so_a_big_one_does_not_push_them_out() -> None:
    actions = acts("move", 2) + acts("explore", 1) + acts("install", 1) + acts("scan", 41) + acts("pass", 1)
    menus, hidden = plan_menus(actions)
    assert hidden == 0
    texts = {a.text for _, items in menus for a in items}
    assert "pass 0" in texts and "move 1" in texts and len(menus) <= MAX_ROWS


@given(st.lists(st.tuples(st.sampled_from("abcdefghij"), st.integers(1, 60)), max_size=10))
def test_menus_always_fit_and_count_what_is_left_out(spec: list[tuple[str, int]]) -> None:
    actions = [a for g, n in dict(spec).items() for a in acts(g, n)]
    menus, hidden = plan_menus(actions)
    assert len(menus) <= MAX_ROWS
    assert all(1 <= len(items) <= MAX_OPTIONS for _, items in menus)
    shown = [a.text for _, items in menus for a in items]
    assert len(shown) == len(set(shown)) and len(shown) + hidden == len(actions)
    if len(actions) <= MAX_ROWS * MAX_OPTIONS:
        assert hidden == 0
