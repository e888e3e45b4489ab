"""The one order-form loop every ruleset uses: numbered lines, limits, each line read or refused with a reason."""

from __future__ import annotations

import pytest

from engine.core import Dice, OrderError, Setup, Verdict
from engine.core.orders import read_form
from engine.rulesets import get
from engine.rulesets.freeform.ruleset import FreeOrder
from engine.rulesets.terra_prime.commands import Command


def test_lines_are_numbered_as_written_and_comments_dropped() -> None:
    lines = read_form("march  north\n\n# plan\nbuild   a fleet # now", FreeOrder.parse, max_lines=5)
    assert [(line.number, line.order) for line in lines] == [(1, FreeOrder("march north")),
                                                             (4, FreeOrder("build a fleet"))]
    assert lines[1].answer(Verdict.ACCEPTED).canonical == "build a fleet"


def test_an_unreadable_line_keeps_its_reason_and_the_others_are_read() -> None:
    lines = read_form("move 3\nfly away\npass", Command.parse, max_lines=5)
    assert [line.order.text() if line.order else None for line in lines] == ["move 3", None, "pass"]
    refused = lines[1].refused()
    assert refused.verdict is Verdict.REJECTED and "`fly` is not a Terra Prime action" in refused.message


def test_a_long_line_is_refused_alone_and_too_many_lines_refuse_the_form() -> None:
    (line,) = read_form("x" * 11, FreeOrder.parse, max_lines=5, max_line=10)
    assert line.order is None and "at most 10 characters" in line.error
    with pytest.raises(OrderError, match="at most 2 order lines a turn"):
        read_form("a\nb\nc", FreeOrder.parse, max_lines=2)
    with pytest.raises(OrderError, match="no orders found"):
        read_form("# only a comment", FreeOrder.parse, max_lines=2)


@pytest.mark.parametrize("text", ["move 12", "deliver green green red", "install shield", "pass"])
def test_a_terra_prime_action_parses_from_its_own_text(text: str) -> None:
    assert Command.parse(text).text() == text
    assert Command.parse(text.upper().replace(" ", "   ")) == Command.parse(text)


def test_freeform_answers_through_the_loop() -> None:
    ff = get("freeform")
    state = ff.setup(Setup(("Rome",), ff.parse_options({}), Dice(b"\x01" * 32, "setup")))
    checks = ff.check(state, "Rome", "  march   on Gaul \n" + "y" * 501)
    assert [(c.canonical, c.verdict) for c in checks] == [("march on Gaul", Verdict.ACCEPTED), ("", Verdict.REJECTED)]
