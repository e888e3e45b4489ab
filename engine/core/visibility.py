"""Who may see what: viewers (a seat, the GM, a spectator) and per-event visibility."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

ViewerKind = Literal["seat", "gm", "spectator"]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Someone looking at a campaign."""

    kind: ViewerKind
    seat: str | None = None

    @classmethod
    def of_seat(cls, seat: str) -> Viewer:
        return cls("seat", seat)

    @classmethod
    def gm(cls) -> Viewer:
        return cls("gm")

    @classmethod
    def spectator(cls) -> Viewer:
        return cls("spectator")

    @property
    def is_gm(self) -> bool:
        return self.kind == "gm"

    def __str__(self) -> str:
        return self.seat if self.kind == "seat" and self.seat else self.kind.upper()


@dataclass(frozen=True, slots=True)
class Visibility:
    """Who an event, roll or post is for. The GM always sees everything."""

    public: bool = False
    seats: frozenset[str] = frozenset()

    @classmethod
    def everyone(cls) -> Visibility:
        return cls(public=True)

    @classmethod
    def gm_only(cls) -> Visibility:
        return cls()

    @classmethod
    def to(cls, *seats: str) -> Visibility:
        return cls(seats=frozenset(seats))

    def allows(self, viewer: Viewer) -> bool:
        if self.public or viewer.is_gm:
            return True
        return viewer.kind == "seat" and viewer.seat in self.seats

    def label(self) -> str:
        if self.public:
            return "public"
        if not self.seats:
            return "gm"
        return "seats:" + ",".join(sorted(self.seats))

    def dump(self) -> dict[str, Any]:
        return {"public": self.public, "seats": sorted(self.seats)}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Visibility:
        return cls(public=bool(data.get("public")), seats=frozenset(data.get("seats", ())))


PUBLIC = Visibility.everyone()
GM_ONLY = Visibility.gm_only()
