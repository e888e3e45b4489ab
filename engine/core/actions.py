"""Legal actions: what a viewer may do now, in canonical text form."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Action:
    """One legal action. `text` parses back to the same action; `label` is for buttons."""

    text: str
    label: str = ""
    group: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.text)
        if not self.group:
            object.__setattr__(self, "group", self.text.split(" ", 1)[0])
