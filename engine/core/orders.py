"""Order forms: each submitted line is read into an order, then accepted, rejected, warned about or flagged.

An order is a value with a canonical text form, read back by its own class's `parse` to an equal value (as
python-chess's `Move.uci()` and `Move.from_uci()`). `read_form` is the one loop that splits a form into
numbered lines, applies the limits and reads each line; a ruleset then judges the orders it read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from engine.core.errors import OrderError, RulesError


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    WARNING = "warning"      # accepted, with something the player should know
    FLAGGED = "flagged"      # accepted, and the GM must rule on it
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class OrderCheck:
    """What the rules made of one order line. `canonical` is the line as understood."""

    line: int
    text: str
    verdict: Verdict
    canonical: str = ""
    message: str = ""

    @property
    def accepted(self) -> bool:
        return self.verdict is not Verdict.REJECTED

    def dump(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "verdict": self.verdict.value,
                "canonical": self.canonical, "message": self.message}

    @classmethod
    def load(cls, raw: dict[str, Any]) -> OrderCheck:
        return cls(raw["line"], raw["text"], Verdict(raw["verdict"]), raw.get("canonical", ""),
                   raw.get("message", ""))


def order_lines(text: str) -> list[tuple[int, str]]:
    """Numbered non-blank lines of an order text; ``#`` starts a comment."""
    out = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((n, line))
    return out


@runtime_checkable
class Order(Protocol):
    """What every ruleset's orders (and Terra Prime's actions) are: `text()` is the canonical line, which the kind's
    own `parse` reads back to an equal order (its signature is the ruleset's: Terra Nova's reads against the state)."""

    def text(self) -> str: ...


OrderT = TypeVar("OrderT", bound=Order)


@dataclass(frozen=True, slots=True)
class Line(Generic[OrderT]):
    """One numbered line of an order form, read: its order, or why it could not be read."""

    number: int
    text: str
    order: OrderT | None = None
    error: str = ""

    def answer(self, verdict: Verdict, message: str = "") -> OrderCheck:
        """The check of this line: an accepted line echoes its order's canonical text."""
        canonical = self.order.text() if self.order is not None and verdict is not Verdict.REJECTED else ""
        return OrderCheck(self.number, self.text, verdict, canonical, message)

    def refused(self, message: str = "") -> OrderCheck:
        return OrderCheck(self.number, self.text, Verdict.REJECTED, "", message or self.error)


def read_form(text: str, parse: Callable[[str], OrderT], *, max_lines: int, max_line: int | None = None,
              per: str = "a turn", empty: str = "write at least one line") -> list[Line[OrderT]]:
    """The form's numbered lines, each read by `parse`; a line that cannot be read keeps the reason.

    A form with no lines, or more than `max_lines`, is refused whole (OrderError)."""
    lines = order_lines(text)
    if not lines:
        raise OrderError(f"no orders found: {empty}")
    if len(lines) > max_lines:
        raise OrderError(f"at most {max_lines} order lines {per}")
    out: list[Line[OrderT]] = []
    for number, line in lines:
        if max_line is not None and len(line) > max_line:
            out.append(Line(number, line, error=f"a line is at most {max_line} characters; split it"))
            continue
        try:
            out.append(Line(number, line, parse(line)))
        except RulesError as exc:
            out.append(Line(number, line, error=str(exc)))
    return out
