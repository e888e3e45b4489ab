"""The Terra Nova reference tables, read from data/*.toml into typed lookups and dice tables.

The data files keep each printed cell as printed; this module is where a cell is read (e.g. the
combat cell ``5/1*`` is land 5, naval 1). Where a reading is a decision, the notes file records it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.core.tables import Table, load_data, parse_range, table_from_rows

PACKAGE = "engine.rulesets.terra_nova"


def data(name: str) -> dict[str, Any]:
    """One of the ruleset's packaged data files (data/<name>.toml)."""
    return load_data(PACKAGE, f"data/{name}.toml")


def number(cell: Any) -> int | None:
    """A printed cell as a whole number: ``4``, ``"4**"``, ``"+1"``, ``"-1"``; None for ``-`` and words."""
    if isinstance(cell, int):
        return cell
    m = re.match(r"^\s*([+-]?\d+)", str(cell))
    return int(m.group(1)) if m else None


def faces(cell: str) -> frozenset[int]:
    """A printed list of die faces: ``"4,5,6"``, ``"6"`` or a range ``"2-5"``; empty for ``-``."""
    text = str(cell).strip()
    if text in ("-", ""):
        return frozenset()
    if "," in text:
        return frozenset(int(x) for x in text.split(","))
    lo, hi = parse_range(text)
    return frozenset(range(lo, hi + 1))


# -- units and ships ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitType:
    """A row of the Purchase, Maintenance, Capacity, Combat table."""

    key: str
    name: str
    cells: tuple[Any, ...]

    @property
    def cost(self) -> int | None:
        return number(self.cells[0])

    @property
    def maintenance(self) -> int:
        return number(self.cells[1]) or 0

    @property
    def cargo_halves(self) -> int:
        """Cargo in half points (gold is 1/2 a point for each 25 florins); 0 when it takes no space."""
        cell = str(self.cells[2])
        if cell == "1/2":
            return 1
        n = number(cell)
        return 2 * n if n is not None else 0

    @property
    def land(self) -> int:
        """Combat value on land (``5/1*``: 5; ``special``/``doubles``/``-``: 0)."""
        return number(self.cells[3]) or 0

    @property
    def naval(self) -> int:
        """Combat value aboard ship: footnote * gives soldiers 1; settlers and cannons none."""
        cell = str(self.cells[3])
        if "/" in cell:
            return number(cell.split("/")[1]) or 0
        return 0 if cell.endswith("*") else (number(cell) or 0)

    @property
    def movement(self) -> int | None:
        return number(self.cells[4])


@dataclass(frozen=True, slots=True)
class ShipType:
    """A row of the Ships table."""

    key: str
    name: str
    code: str
    cells: tuple[int, int, int, int]
    late: bool = False
    hemispheric_only: bool = False

    @property
    def cost(self) -> int:
        return self.cells[0]

    @property
    def maintenance(self) -> int:
        return self.cells[1]

    @property
    def capacity(self) -> int:
        return self.cells[2]

    @property
    def combat(self) -> int:
        return self.cells[3]


@functools.cache
def units() -> dict[str, UnitType]:
    return {u["key"]: UnitType(u["key"], u["name"], tuple(u["cells"])) for u in data("units")["unit"]}


@functools.cache
def ships() -> dict[str, ShipType]:
    return {s["key"]: ShipType(s["key"], s["name"], s["code"], (*s["cells"],),
                               s.get("late", False), s.get("hemispheric_only", False))
            for s in data("units")["ship"]}


# -- tables as dice tables ---------------------------------------------------------------------------------------


def _raw(name: str) -> dict[str, Any]:
    table: dict[str, Any] = data("tables")[name]
    return table


@functools.cache
def mission_levels() -> Table:
    raw = _raw("mission_levels")
    rows = [{"roll": str(r), "result": str(m), "rating": m} for r, m in zip(raw["rolls"], raw["mission"], strict=True)]
    return table_from_rows("mission-levels", raw["dice"], rows, title=raw["title"])


@functools.cache
def domestic_investment() -> Table:
    """Looked up by d6 + the Monarch Income Modifier; totals beyond 0-7 take the table's ends."""
    raw = _raw("domestic_investment")
    rows = [{"roll": str(r), "result": f"{f} florins", "florins": f}
            for r, f in zip(raw["rolls"], raw["florins"], strict=True)]
    return table_from_rows("domestic-investment", raw["dice"], rows, title=raw["title"])


@functools.cache
def settlers_available() -> Table:
    raw = _raw("settlers_available")
    rows = [{"roll": str(r), "result": s, "settlers": number(s), "reroll": s.endswith("*")}
            for r, s in zip(raw["rolls"], raw["settlers"], strict=True)]
    return table_from_rows("settlers-available", raw["dice"], rows, title=raw["title"])


def settlers_reroll() -> tuple[frozenset[int], int]:
    raw = _raw("settlers_available")
    return frozenset(raw["reroll_on"]), int(raw["reroll_bonus"])


def settlement_faces(row: str, coastal: bool) -> frozenset[int]:
    """Faces that succeed on the Settlement Table: row settler / depleted_settler / advance_to_town."""
    return faces(_raw("settlement")[row][1 if coastal else 0])


def resources(kind: str, blighted: bool) -> int:
    """Florins a holding yields on the Resources table (mine, plantation, settler, settlement, town)."""
    return int(_raw("resources")[kind][1 if blighted else 0])


# -- naval attrition -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attrition:
    """One Naval Attrition result, read from its printed cell (e.g. ``3N†``)."""

    cell: str
    depleted: int = 0
    soldiers: int = 0
    ships: int = 0
    leader: bool = False
    reroll: bool = False

    @classmethod
    def read(cls, cell: str) -> Attrition:
        if cell == "•":
            return cls(cell)
        counts = {"D": 0, "S": 0, "N": 0}
        for n, letter in re.findall(r"(\d?)([DSN])", cell):
            counts[letter] += int(n or 1)
        return cls(cell, counts["D"], counts["S"], counts["N"], "*" in cell, "†" in cell)

    @property
    def nothing(self) -> bool:
        return not (self.depleted or self.soldiers or self.ships or self.leader)


def attrition_column(bounds: int, extreme: bool = False) -> int:
    """The column index for bounds travelled: 1,2 / 3 ... 9 / 10+ / E."""
    columns: list[str] = _raw("naval_attrition")["columns"]
    if extreme:
        return columns.index("E")
    if bounds <= 2:
        return 0
    return min(bounds - 2, columns.index("10+"))


def attrition_columns() -> list[str]:
    return list(_raw("naval_attrition")["columns"])


@functools.cache
def attrition_table(column: int) -> Table:
    raw = _raw("naval_attrition")
    label = raw["columns"][column]
    rows = [{"roll": str(i + 1), "result": row[column]} for i, row in enumerate(raw["rows"])]
    return table_from_rows(f"attrition-{label}", raw["dice"], rows, title=f"{raw['title']} ({label})")


# -- combat --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tactic:
    key: str
    name: str
    note: str
    modifier: int


@functools.cache
def combat_modifiers() -> dict[str, int | str]:
    """The Combat modifiers by printed name; numbers where printed as numbers."""
    out: dict[str, int | str] = {}
    for name, value in _raw("combat")["modifiers"]:
        n = number(value)
        out[name] = n if n is not None and value.startswith(("+", "-")) else value
    return out


def modifier(name_start: str) -> int:
    """The printed value of the combat modifier whose name starts with `name_start`."""
    for name, value in combat_modifiers().items():
        if name.startswith(name_start) and isinstance(value, int):
            return value
    raise KeyError(name_start)


def explosion() -> tuple[int, int]:
    raw = _raw("combat")
    return int(raw["explode_on"]), int(raw["explode_add"])


@functools.cache
def tactics() -> dict[str, Tactic]:
    out = {}
    for name, note, value in _raw("tactics")["rows"]:
        key = name.lower()
        out[key] = Tactic(key, name, note, number(value) or 0)
    return out


@functools.cache
def native_tactics() -> Table:
    raw = _raw("native_tactics")
    rows = []
    for cell, result in raw["rows"]:
        got = sorted(faces(cell))
        rows.append({"roll": f"{got[0]}-{got[-1]}", "result": result})
    return table_from_rows("native-tactics", raw["dice"], rows, title=raw["title"])


@functools.cache
def combat_losses() -> Table:
    raw = _raw("combat_losses")
    rows = [{"roll": str(r), "result": text, "fraction": frac}
            for r, text, frac in zip(raw["rolls"], raw["units_lost"], raw["fraction"], strict=True)]
    return table_from_rows("combat-losses", raw["dice"], rows, title=raw["title"])


def loss_fraction(total: int) -> Fraction:
    return Fraction(str(combat_losses().lookup(total).data["fraction"]))


def winner_loss_modifier() -> int:
    return int(_raw("combat_losses")["winner_modifier"])


# -- religion and natives ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Conversion:
    """One Religious Conversion Table result, read from its printed cell (e.g. ``X/M``, ``0†``)."""

    cell: str
    converted: int
    lose_unit: bool
    mission_lost: bool
    reroll: bool
    double: bool

    @classmethod
    def read(cls, cell: str) -> Conversion:
        n = number(cell)
        return cls(cell, n or 0, cell.startswith("X"), cell.endswith("/M"), "†" in cell, "*" in cell)


def conversion_cell(roll: int, rating: int) -> Conversion:
    raw = _raw("religious_conversion")
    return Conversion.read(raw["rows"][roll - 1][raw["columns"].index(rating)])


@functools.cache
def conversion_table(rating: int) -> Table:
    raw = _raw("religious_conversion")
    col = raw["columns"].index(rating)
    rows = [{"roll": str(i + 1), "result": row[col]} for i, row in enumerate(raw["rows"])]
    return table_from_rows(f"conversion-{rating}", raw["dice"], rows, title=f"{raw['title']} (mission {rating})")


def conversion_reroll_faces() -> frozenset[int]:
    return frozenset(_raw("religious_conversion")["reroll_eliminates"])


ALLIANCE_ROWS = {"Coureur des Bois": "Coureur d.B.", "Conquistador": "Conquistador", "Paulista": "Paulista",
                 "Pioneer": "Pioneer"}


@functools.cache
def alliance_table(leader_type: str) -> Table:
    """The NAT row for a leader type; results are the printed cells (a number, or • for hostility)."""
    raw = _raw("native_alliance")
    printed = ALLIANCE_ROWS[leader_type]
    row = next(r for r in raw["rows"] if r[0] == printed)
    rows = [{"roll": str(i + 1), "result": cell} for i, cell in enumerate(row[1:])]
    return table_from_rows(f"alliance-{leader_type.lower().replace(' ', '-')}", raw["dice"], rows,
                           title=f"{raw['title']} ({printed})")


def bribe_modifier(florins: int) -> int:
    raw = _raw("native_alliance")
    return florins // int(raw["bribe_florins"]) * int(raw["bribe_modifier"])


@functools.cache
def land_results() -> Table:
    raw = _raw("land_results")
    rows = [{"roll": r, "result": code, "name": name} for r, code, name in raw["rows"]]
    return table_from_rows("land-results", raw["dice"], rows, title=raw["title"])


# -- gold, treasure and commodities ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MineKind:
    name: str
    discover: frozenset[int]
    deplete: frozenset[int]
    production: tuple[int, int, int]   # R1, R3, R5

    def output(self, r_level: int) -> int:
        """Production at the current R level: R1-R2 use the R1 column, R3-R4 R3, R5 R5."""
        return self.production[min(2, (r_level - 1) // 2)]


@functools.cache
def mine_kinds() -> dict[str, MineKind]:
    return {name: MineKind(name, faces(disc), faces(dep), (r1, r3, r5))
            for name, disc, dep, r1, r3, r5 in _raw("mines_and_pearls")["rows"]}


@dataclass(frozen=True, slots=True)
class CityKind:
    name: str
    level: int
    deplete: frozenset[int]
    production: int


@functools.cache
def city_kinds() -> dict[str, CityKind]:
    return {name: CityKind(name, level, faces(dep), prod) for name, level, dep, prod in _raw("treasure_cities")["rows"]}


def commodities() -> list[str]:
    return list(_raw("commodity_prices")["columns"])


def price_change(commodity: str, roll: int) -> int:
    raw = _raw("commodity_prices")
    return number(raw["rows"][roll - 1][raw["columns"].index(commodity)]) or 0


@functools.cache
def price_table(commodity: str) -> Table:
    raw = _raw("commodity_prices")
    col = raw["columns"].index(commodity)
    rows = [{"roll": str(i + 1), "result": row[col]} for i, row in enumerate(raw["rows"])]
    return table_from_rows(f"price-{commodity.lower()}", raw["dice"], rows, title=f"{raw['title']} ({commodity})")


def price_ranks() -> list[int]:
    return list(_raw("commodity_prices")["ranks"])


def starting_price() -> int:
    return int(_raw("commodity_prices")["start"])


# -- monarchs and the game's development ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AgeBand:
    printed: str
    low: int
    high: int
    mortality: int
    ascendancy: int | None

    @property
    def new_age(self) -> int:
        """The age a monarch ascends at when the roll names this band: its middle ("10 or less": 7)."""
        return 7 if self.low == 0 else (self.low + self.high) // 2


@functools.cache
def age_bands() -> tuple[AgeBand, ...]:
    out = []
    for printed, mortality, ascendancy in _raw("monarch_age")["rows"]:
        text = printed.replace("–", "-")
        if "+" in text:
            low, high = int(text.split("+")[0]), 200
        elif "or less" in text:
            low, high = 0, int(text.split()[0]) - 1      # "10 or less" read as under 10: 10 is in 10-14
        else:
            low, high = (int(x) for x in text.split("-"))
        out.append(AgeBand(printed, low, high, mortality, number(ascendancy)))
    return tuple(out)


def age_band(age: int) -> AgeBand:
    return next(b for b in age_bands() if b.low <= age <= b.high)


def ascendancy_band(roll: int) -> AgeBand:
    """The band whose Ascendancy number is `roll` (clamped to the printed 1-12)."""
    bands = [b for b in age_bands() if b.ascendancy is not None]
    roll = max(min(b.ascendancy or 0 for b in bands), min(roll, max(b.ascendancy or 0 for b in bands)))
    return next(b for b in bands if b.ascendancy == roll)


@dataclass(frozen=True, slots=True)
class Development:
    """What the Game Development table says holds on a turn (rows carry forward until replaced)."""

    turn: int
    date: int
    lines: tuple[str, ...]
    r_level: int
    leaders_per_player: int
    leaders_fixed: int
    leaders_dice: int
    footnote_applies: bool
    no_italians: bool
    towns: bool
    plantations: bool
    new_world_ships: bool
    captains: bool
    endgame_votes: bool
    end_roll: bool
    exchequer: int


def development_rows() -> list[dict[str, Any]]:
    return list(_raw("game_development")["row"])


def development(turn: int) -> Development:
    """The table's rows up to this turn, each carrying its changes forward."""
    merged: dict[str, Any] = {}
    lines: tuple[str, ...] = ()
    rows = development_rows()
    for row in rows:
        start = number(row["turn"]) or 0
        if start > turn:
            break
        merged.update({k: v for k, v in row.items() if k not in ("turn", "date", "development")})
        lines = tuple(row["development"]) if start == turn else ()
    calendar = house()["calendar"]
    flags = ("no_italians", "towns", "plantations", "new_world_ships", "captains", "endgame_votes", "end_roll")
    return Development(
        turn=turn, date=int(calendar["first_year"]) + int(calendar["years_per_turn"]) * (turn - 1), lines=lines,
        r_level=int(merged["r_level"]), leaders_per_player=int(merged["leaders_per_player"]),
        leaders_fixed=int(merged["leaders_fixed"]), leaders_dice=int(merged["leaders_dice"]),
        footnote_applies=bool(merged["footnote_applies"]), exchequer=int(rows[0]["exchequer"]),
        **{f: bool(merged.get(f, False)) for f in flags},
    )


def leader_footnote() -> tuple[int, int, int, int]:
    """(few, extra when few, many, draw when many) from the Game Development footnote."""
    raw = _raw("game_development")
    return (int(raw["few_leaders"]), int(raw["few_leaders_extra"]), int(raw["many_leaders"]),
            int(raw["many_leaders_draw"]))


# -- house data --------------------------------------------------------------------------------------------------


def house() -> dict[str, Any]:
    return data("house")


@functools.cache
def income_table() -> Table:
    rows = [{"roll": r, "result": f"{m:+d}", "modifier": m} for r, m in house()["monarchs"]["income_roll"]]
    return table_from_rows("monarch-income", "1d6", rows, title="Monarch Income Modifier (house)")


def all_tables() -> Mapping[str, Table]:
    """Every dice table, for the GM's table roller."""
    out: dict[str, Table] = {}
    for t in (mission_levels(), domestic_investment(), settlers_available(), native_tactics(), combat_losses(),
              land_results(), income_table()):
        out[t.name] = t
    for i in range(len(attrition_columns())):
        t = attrition_table(i)
        out[t.name] = t
    for rating in _raw("religious_conversion")["columns"]:
        t = conversion_table(rating)
        out[t.name] = t
    for leader_type in ALLIANCE_ROWS:
        t = alliance_table(leader_type)
        out[t.name] = t
    for commodity in commodities():
        t = price_table(commodity)
        out[t.name] = t
    return out
