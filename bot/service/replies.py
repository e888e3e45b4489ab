"""What a use case answers: text for the caller, maybe a file, maybe actions to offer."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import Action


@dataclass
class Reply:
    text: str
    ephemeral: bool = True
    file: tuple[str, bytes] | None = None
    actions: tuple[Action, ...] = ()
    campaign_id: int | None = None
    phase_key: str | None = None
    thread_id: int | None = None
    follow_ups: list[str] = field(default_factory=list)
    card: str | None = None  # shown as an embed: "sheet", "status", "roll", "news" or "catchup" (cards.present)
    confirm: tuple[str, str] | None = None  # a question's token and its confirm button's label
