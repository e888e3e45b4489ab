"""Order checking: each submitted line is accepted, rejected, warned about or flagged for the GM."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


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
