"""Data-driven dice tables: a roll (plus modifiers) looked up in ranges of results.

Rulesets keep their tables in TOML data files beside their code; campaigns may upload
their own tables in the small format documented in the README (`parse_tables`).
"""

from __future__ import annotations

import functools
import itertools
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from engine.core.errors import UploadError
from engine.core.rng import Dice, Roll
from engine.core.upload import load_toml
from engine.core.visibility import PUBLIC, Visibility

# ASCII digits only, and few of them: int() would take "٣" or 5,000 digits
_DICE = re.compile(r"^\s*([0-9]{0,4})\s*d\s*([0-9]{1,5})\s*$", re.IGNORECASE)
_RANGE = re.compile(r"^\s*(-?[0-9]{1,7})\s*(?:(\+)|-\s*(-?[0-9]{1,7})|(-))?\s*$")
LOW, HIGH = -(10**6), 10**6


def parse_dice(text: str) -> tuple[int, int]:
    """``2d6`` → (2, 6); ``d20`` → (1, 20)."""
    m = _DICE.match(text)
    if not m:
        raise UploadError(f"`{text[:40]}` is not a simple dice count like 1d6 or 2d6")
    count, sides = int(m.group(1) or 1), int(m.group(2))
    if not (1 <= count <= 20 and 2 <= sides <= 1000):
        raise UploadError(f"`{text}`: tables roll 1-20 dice of 2-1000 sides")
    return count, sides


def parse_range(text: str) -> tuple[int, int]:
    """``4`` → (4, 4); ``2-5`` → (2, 5); ``12+`` → (12, ∞); ``0-`` → (-∞, 0)."""
    m = _RANGE.match(str(text))
    if not m:
        raise UploadError(f"`{str(text)[:40]}` is not a roll or range like 4, 2-5, 12+ or 0-")
    lo = int(m.group(1))
    if m.group(2):
        return lo, HIGH
    if m.group(4):
        return LOW, lo
    hi = int(m.group(3)) if m.group(3) is not None else lo
    if hi < lo:
        raise UploadError(f"`{text}`: the range runs backwards")
    return lo, hi


@dataclass(frozen=True, slots=True)
class Row:
    low: int
    high: int
    result: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def covers(self, n: int) -> bool:
        return self.low <= n <= self.high


@dataclass(frozen=True, slots=True)
class TableResult:
    roll: Roll
    row: Row

    @property
    def result(self) -> str:
        return self.row.result


@dataclass(frozen=True, slots=True)
class Table:
    """A table looked up by the modified total of a roll."""

    name: str
    count: int
    sides: int
    rows: tuple[Row, ...]
    title: str = ""
    clamp: bool = True

    @property
    def notation(self) -> str:
        return f"{self.count}d{self.sides}"

    def lookup(self, total: int) -> Row:
        """The row for a (modified) total; out-of-range totals take the nearest end when clamped."""
        for row in self.rows:
            if row.covers(total):
                return row
        if self.clamp and self.rows:
            lowest = min(self.rows, key=lambda r: r.low)
            highest = max(self.rows, key=lambda r: r.high)
            return lowest if total < lowest.low else highest
        raise KeyError(f"{self.name}: no row for {total}")

    def roll(self, dice: Dice, *, purpose: str | None = None, modifier: int = 0,
             visibility: Visibility = PUBLIC) -> TableResult:
        roll = dice.roll(self.count, self.sides, purpose=purpose or f"table/{self.name}",
                         visibility=visibility)
        row = self.lookup(roll.total + modifier)
        noted = dice.annotate(roll, table=self.title or self.name, result=row.result, modifier=modifier)
        return TableResult(noted, row)

    def outcomes(self) -> set[int]:
        """Every total the dice can produce, unmodified."""
        return set(range(self.count, self.count * self.sides + 1))

    def dump(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "dice": self.notation, "clamp": self.clamp,
                "rows": [{"low": r.low, "high": r.high, "result": r.result} for r in self.rows]}

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> Table:
        count, sides = parse_dice(raw["dice"])
        rows = tuple(Row(r["low"], r["high"], r["result"]) for r in raw["rows"])
        return cls(raw["name"], count, sides, rows, raw.get("title", ""), raw.get("clamp", True))


def table_from_rows(name: str, dice: str, rows: Sequence[Mapping[str, Any]], *, title: str = "",
                    clamp: bool = True) -> Table:
    """Build a table from data rows ``{roll = "2-5", result = "...", ...}``; extra keys become row data."""
    count, sides = parse_dice(dice)
    built = []
    for raw in rows:
        lo, hi = parse_range(str(raw["roll"]))
        extra = {k: v for k, v in raw.items() if k not in ("roll", "result")}
        built.append(Row(lo, hi, str(raw["result"]), extra))
    _check_overlap(name, built)
    return Table(name, count, sides, tuple(built), title or name, clamp)


def _check_overlap(name: str, rows: Sequence[Row]) -> None:
    ordered = sorted(rows, key=lambda r: r.low)
    for a, b in itertools.pairwise(ordered):
        if b.low <= a.high:
            raise UploadError(f"table `{name}`: rows {a.low}-{a.high} and {b.low}-{b.high} overlap")


MAX_TABLES = 100
MAX_ROWS = 100
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def parse_tables(text: str) -> dict[str, Table]:
    """Read a campaign's own tables (README, "Custom dice tables")::

        [weather]
        dice = "2d6"
        title = "Weather at sea"      # optional
        "2-4" = "Storm"
        "5-9" = "Clear"
        "10+" = "Fog"
    """
    raw = load_toml("tables", text)
    if not raw:
        raise UploadError("no tables found: each table is a [name] section with a `dice` key")
    if len(raw) > MAX_TABLES:
        raise UploadError(f"at most {MAX_TABLES} tables per campaign")
    tables: dict[str, Table] = {}
    for name, body in raw.items():
        if not isinstance(body, dict):
            raise UploadError(f"`{name[:40]}` must be a [section] with a `dice` key and result rows")
        if not _NAME.match(name):
            raise UploadError(f"table name `{name[:40]}`: use lower-case letters, digits, - and _ (max 40)")
        if "dice" not in body:
            raise UploadError(f"table `{name}` has no `dice` key (e.g. dice = \"2d6\")")
        title = str(body.get("title", name))
        if not isinstance(body["dice"], str) or not all(isinstance(v, str | int | float) for v in body.values()):
            raise UploadError(f"table `{name}`: `dice`, `title` and every result are text in quotes")
        rows = [{"roll": k, "result": str(v)} for k, v in body.items() if k not in ("dice", "title")]
        if not rows:
            raise UploadError(f"table `{name}` has no result rows")
        if len(rows) > MAX_ROWS:
            raise UploadError(f"table `{name}`: at most {MAX_ROWS} rows")
        table = table_from_rows(name, str(body["dice"]), rows, title=title)
        missing = sorted(n for n in table.outcomes() if not any(r.covers(n) for r in table.rows))
        if missing:
            raise UploadError(f"table `{name}`: no result for {', '.join(map(str, missing[:10]))}")
        tables[name] = table
    return tables


@functools.cache
def load_data(package: str, name: str) -> dict[str, Any]:
    """A ruleset's packaged TOML data file (read once; rules data is part of the code)."""
    with resources.files(package).joinpath(name).open("rb") as fh:
        return tomllib.load(fh)
