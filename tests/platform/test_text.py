"""Splitting long text for Discord: every chunk fits, nothing is lost, code fences stay closed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.service.text import split_message

words = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=60)


@given(st.lists(words, max_size=200), st.integers(min_value=50, max_value=2000))
def test_chunks_fit_and_keep_every_character(lines: list[str], limit: int) -> None:
    text = "\n".join(lines)
    chunks = split_message(text, limit)
    assert all(len(c) <= limit for c in chunks)
    assert "".join("".join(chunks).split()).replace("```", "") == "".join(text.split()).replace("```", "")


def test_a_code_block_split_across_messages_is_closed_and_reopened() -> None:
    text = "```\n" + "\n".join(f"line {i}" for i in range(600)) + "\n```"
    chunks = split_message(text)
    assert len(chunks) > 1
    assert all(c.count("```") % 2 == 0 for c in chunks)


def test_a_single_long_word_is_cut_not_dropped() -> None:
    chunks = split_message("x" * 4500)
    assert [len(c) for c in chunks] == [1992, 1992, 516]
