"""What a procedure works with: the state, the dice, the events it reports, and the step's orders.

Procedures and GM-answer handlers register here by the names the sequence data uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.events import Event
from engine.core.rng import Dice, Roll
from engine.core.tables import Table, TableResult
from engine.core.visibility import PUBLIC, Visibility
from engine.rulesets.terra_nova.state import Question, TNState


@dataclass
class Ctx:
    state: TNState
    dice: Dice
    events: list[Event]
    step: str = ""
    orders: Mapping[str, Sequence[str]] = field(default_factory=dict)
    scratch: dict[str, Any] = field(default_factory=dict)      # within one step: e.g. who intercepts whom

    def say(self, text: str, *, to: str | Iterable[str] | None = None, gm: bool = False, kind: str = "info",
            **data: Any) -> None:
        """Report an event: public, to some seats (and the GM), or to the GM only."""
        if gm:
            visibility = Visibility.gm_only()
        elif to is None:
            visibility = PUBLIC
        elif isinstance(to, str):
            visibility = Visibility.to(to)
        else:
            visibility = Visibility.to(*to)
        self.events.append(Event(text, visibility, kind, dict(data)))

    def purpose(self, *parts: object) -> str:
        """A roll's stream key: the step, then what and whose (e.g. ``C4/attrition/Spain/v3``)."""
        return "/".join([self.step or "setup", *(str(p) for p in parts)])

    # A roll's dice come from the stream its purpose names, so rewording a purpose would change every
    # campaign's dice (and a GM rollback would re-roll differently). The rolls below keep the stream
    # key and carry a readable label as the logged purpose, which is what the turn summaries show.

    def roll(self, count: int, sides: int, *key: object, label: str, visibility: Visibility = PUBLIC,
             modifier: int = 0) -> Roll:
        """Roll dice on the stream `key` names, logged as `label` (e.g. "initiative Spain")."""
        roll = self.dice.roll(count, sides, purpose=self.purpose(*key), visibility=visibility, modifier=modifier)
        return self.relabel(roll, label)

    def lookup(self, table: Table, *key: object, label: str, whose: str = "", modifier: int = 0,
               visibility: Visibility = PUBLIC) -> TableResult:
        """Roll on a table; `whose` completes the table's name where the roll is shown ("for Spain")."""
        result = table.roll(self.dice, purpose=self.purpose(*key), modifier=modifier, visibility=visibility)
        roll = result.roll
        if whose:
            roll = self.dice.annotate(roll, table=f"{roll.table} {whose}")
        return TableResult(self.relabel(roll, label), result.row)

    def annotate(self, roll: Roll, *, table: str, result: str) -> Roll:
        """Name the table a roll was read on and what it gave."""
        return self.dice.annotate(roll, table=table, result=result)

    def relabel(self, roll: Roll, label: str) -> Roll:
        """Name a roll readably; its purpose and stream key (what re-derives it) stay as they were."""
        return self.dice.annotate(roll, label=label)

    def ask(self, kind: str, text: str, answers: Sequence[str], **data: Any) -> Question:
        """Put a question to the GM; play waits in a GM window until it is answered."""
        question = Question(f"q{self.state.new_id()}", kind, text, list(answers), dict(data))
        self.state.questions.append(question)
        self.say(f"GM ruling needed: {text}", gm=True, kind="ruling")
        return question

    @property
    def seats_in_order(self) -> list[str]:
        """Seats in initiative order (seat order until initiative is first rolled)."""
        order = [s for s in self.state.initiative if s in self.state.seats]
        return order + [s for s in self.state.seats if s not in order]


Procedure = Callable[[Ctx], None]
Answer = Callable[[Ctx, Question, str], None]
Condition = Callable[[TNState], bool]
Validate = Callable[[TNState, str, Any, str], list[str]]       # state, seat, order, step -> warnings
Apply = Callable[[TNState, str, Any, str, "Ctx | None"], None]  # no Ctx: a dry run while checking orders

PROCEDURES: dict[str, Procedure] = {}
ANSWERS: dict[str, Answer] = {}
CONDITIONS: dict[str, Condition] = {}
ORDER_RULES: dict[str, tuple[Validate, Apply]] = {}


def procedure(name: str) -> Callable[[Procedure], Procedure]:
    def register(fn: Procedure) -> Procedure:
        PROCEDURES[name] = fn
        return fn
    return register


def answer(kind: str) -> Callable[[Answer], Answer]:
    def register(fn: Answer) -> Answer:
        ANSWERS[kind] = fn
        return fn
    return register


def condition(name: str) -> Callable[[Condition], Condition]:
    def register(fn: Condition) -> Condition:
        CONDITIONS[name] = fn
        return fn
    return register


def order_rule(kind: str, validate: Validate) -> Callable[[Apply], Apply]:
    """Register how an order kind is checked (`validate`) and carried out (the decorated function)."""
    def register(fn: Apply) -> Apply:
        ORDER_RULES[kind] = (validate, fn)
        return fn
    return register
