"""The one record codec: state dataclasses to JSON-safe data and back."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.core.records import from_data, record_data, record_from_data, to_data


class Side(StrEnum):
    LIGHT = "light"
    DARK = "dark"


@dataclass
class Point:
    x: int
    y: int


@dataclass
class Stamp:
    """A value with its own codec: the record codec uses it as it is."""

    text: str

    def dump(self) -> str:
        return f"<{self.text}>"

    @classmethod
    def load(cls, raw: str) -> Stamp:
        return cls(raw.strip("<>"))


@dataclass
class Piece:
    name: str
    side: Side
    at: Point | None = None
    path: tuple[Point, ...] = ()
    tags: set[str] = field(default_factory=set)
    weight: float = 0.0
    by_turn: dict[int, list[Point]] = field(default_factory=dict)
    stamp: Stamp | None = None
    children: list[Piece] = field(default_factory=list)
    _seen: dict[str, Any] = field(default_factory=dict)   # a private cache: never saved


def round_trip(value: Any) -> Any:
    return json.loads(json.dumps(to_data(value)))


def test_a_record_tree_round_trips_through_json() -> None:
    piece = Piece("king", Side.DARK, Point(1, 2), (Point(0, 0), Point(0, 1)), {"b", "a"}, 2.5, {},
                  Stamp("x"), [Piece("pawn", Side.LIGHT)])
    data = round_trip(piece)
    assert data["side"] == "dark" and data["tags"] == ["a", "b"] and data["stamp"] == "<x>"
    again = from_data(Piece, data)
    assert again == piece
    assert isinstance(again.side, Side) and isinstance(again.path, tuple) and isinstance(again.children[0], Piece)


def test_private_fields_are_neither_saved_nor_loaded() -> None:
    piece = Piece("king", Side.DARK, _seen={"secret": 1})
    data = to_data(piece)
    assert "_seen" not in data
    assert from_data(Piece, {**data, "_seen": {"x": 1}})._seen == {}


def test_fields_added_since_a_save_take_their_defaults() -> None:
    assert from_data(Piece, {"name": "rook", "side": "light"}) == Piece("rook", Side.LIGHT)


def test_a_whole_number_saved_for_a_float_loads_as_a_float() -> None:
    weight = from_data(Piece, {"name": "rook", "side": "light", "weight": 3}).weight
    assert weight == 3.0 and isinstance(weight, float)


def test_dict_keys_are_saved_as_text_and_loaded_as_saved() -> None:
    data = round_trip(Piece("rook", Side.LIGHT, by_turn={3: [Point(1, 1)]}))
    assert data["by_turn"] == {"3": [{"x": 1, "y": 1}]}
    assert from_data(Piece, data).by_turn == {"3": [Point(1, 1)]}


def test_a_loaded_record_shares_no_container_with_its_data() -> None:
    data = to_data(Piece("rook", Side.LIGHT, tags={"a"}))
    data["path"] = []
    loaded = from_data(Piece, data)
    data["path"].append({"x": 9, "y": 9})
    assert loaded.path == ()


@dataclass
class Roster:
    """A record that writes one field its own way (a list of names for a dict) and lets the codec do the rest."""

    title: str
    people: dict[str, Point]
    side: Side = Side.LIGHT
    stamps: list[Stamp] = field(default_factory=list)

    def dump(self) -> dict[str, Any]:
        out = record_data(self)
        out["people"] = [[name, to_data(p)] for name, p in self.people.items()]
        return out

    @classmethod
    def load(cls, raw: dict[str, Any]) -> Roster:
        return record_from_data(cls, raw, people={name: from_data(Point, p) for name, p in raw["people"]})


def test_a_record_with_its_own_dump_uses_the_codec_for_the_rest() -> None:
    roster = Roster("crew", {"b": Point(1, 2), "a": Point(3, 4)}, Side.DARK, [Stamp("x")])
    saved = json.loads(json.dumps(to_data(roster)))
    assert saved == {"title": "crew", "people": [["b", {"x": 1, "y": 2}], ["a", {"x": 3, "y": 4}]], "side": "dark",
                     "stamps": [Stamp("x").dump()]}
    again = from_data(Roster, saved)
    assert again == roster and list(again.people) == ["b", "a"] and again.side is Side.DARK
    assert from_data(Roster, {"title": "t", "people": []}) == Roster("t", {})
