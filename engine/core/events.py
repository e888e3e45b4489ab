"""What happened, for whom: events and the step a rule produces."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine.core.visibility import PUBLIC, Visibility

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. `text` is a short markdown sentence for the turn summary."""

    text: str
    visibility: Visibility = PUBLIC
    kind: str = "info"
    data: dict[str, Any] = field(default_factory=dict)

    def dump(self) -> dict[str, Any]:
        return {"text": self.text, "visibility": self.visibility.dump(), "kind": self.kind, "data": self.data}

    @classmethod
    def load(cls, raw: dict[str, Any]) -> Event:
        return cls(raw["text"], Visibility.load(raw["visibility"]), raw.get("kind", "info"), raw.get("data", {}))


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """The result of acting or resolving: the new state and what happened."""

    state: S
    events: Sequence[Event] = ()
