"""Colonies, regional improvements, city growth and co-builds (LotE Modern Era 3.3).

Offers: `max_city_size` (Table 3-5), `max_public_works` (Table 3-6), `CoBuilder`, `cobuild_status_increase`
(Table 3-7), `status_level`/`status_code` (Table 3-8), `cobuild_status`, `cobuild_problems` (3.3.5),
`may_colonise_inhabited`, `colonising_needs_leader`, `Colonisation`/`colonise` (3.3.1), `Improvement`,
`improve_pre_columbian_region` (3.3.2), `improve_cultivated_region` (3.3.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.tech import Culture, Number, Terrain, chart, exact


def _urban_tech() -> int:
    return int(chart("s3_rules")["urban"]["tech"])


def max_city_size(terrain: Terrain, tech_level: int, *, oasis_as: Terrain = Terrain.DESERT) -> int | None:
    """The largest city GPv a TL 12+ nation may build up to (LotE 3.3.4, Table 3-5); None below TL 12.

    Table 3-5 has no Oasis row: an oasis reads the row of `oasis_as` (Desert unless the campaign says).
    """
    if tech_level < _urban_tech():
        return None
    code = (oasis_as if terrain is Terrain.OASIS else terrain).value
    for row in chart("s3_cities")["max_city_size"]["rows"]:
        if code in row["terrain"]:
            return int(row["max_gpv"])
    raise RulesError(f"Table 3-5 has no row for terrain `{terrain.value}`")


def max_public_works(gpv: Number, tech_level: int, *, terrain: Terrain | None = None,
                     city: bool = False) -> float | None:
    """The public works limit of a TL 12+ nation's city or region (LotE 3.3.4, Table 3-6).

    None means no change: the basic rulebook's limit still applies (other terrains, or below TL 12).
    """
    if tech_level < _urban_tech():
        return None
    table = chart("s3_cities")["max_public_works"]
    if city:
        return float(exact(gpv) * table["city"])
    if terrain is None:
        raise RulesError("a region's public works limit depends on its terrain")
    multiple = table["region"].get(terrain.value)
    return None if multiple is None else float(exact(gpv) * multiple)


class CoBuilder(StrEnum):
    """Who may co-build a city GPv, by the column codes of Table 3-8."""

    MERCHANT_HOUSE = "MH"
    PRIMACY = "PRA"
    ORDER = "RO"


def cobuild_status_increase(starting_gpv: int) -> int:
    """Status levels a co-builder gains by adding a GPv to a city of this size (LotE 3.3.5, Table 3-7)."""
    for row in chart("s3_cities")["status_increase"]["rows"]:
        low, high = row["gpv"]
        if low <= starting_gpv <= high:
            return int(row["increase"])
    raise RulesError(f"a city of {starting_gpv} GPv cannot be co-built")


def status_level(code: str | None, builder: CoBuilder) -> int:
    """The level (0-4) of a co-builder's existing status in a city (LotE 3.3.5, Table 3-8)."""
    table = chart("s3_cities")["status_levels"]
    col = table["columns"].index(builder.value)
    wanted = "None" if code is None else code.strip().upper()
    for level, row in enumerate(table["levels"]):
        if row[col].upper() == wanted.upper():
            return level
    raise RulesError(f"`{code}` is not a {builder.value} status of Table 3-8")


def status_code(level: int, builder: CoBuilder) -> str | None:
    """The status a level stands for (None at level 0) (LotE 3.3.5, Table 3-8)."""
    table = chart("s3_cities")["status_levels"]
    if not 0 <= level < len(table["levels"]):
        raise RulesError(f"Table 3-8 has no level {level}")
    code = str(table["levels"][level][table["columns"].index(builder.value)])
    return None if code == "None" else code


def cobuild_status(starting_gpv: int, builder: CoBuilder, existing: str | None = None) -> str:
    """The co-builder's status after adding a GPv: its level plus Table 3-7's increase, at most level 4 (3.3.5)."""
    top = len(chart("s3_cities")["status_levels"]["levels"]) - 1
    level = min(top, status_level(existing, builder) + cobuild_status_increase(starting_gpv))
    code = status_code(level, builder)
    assert code is not None  # the increase is at least one level
    return code


INHABITED = frozenset({Culture.PRE_COLUMBIAN, Culture.NOMADIC, Culture.BARBARIAN})


def may_colonise_inhabited(colonist: Culture, natives: Culture) -> bool:
    """Renaissance and Industrial nations settle Pre-Columbian, Nomadic and Barbarian lands (LotE 3.3.1)."""
    return colonist.modern and natives in INHABITED


def colonising_needs_leader(*, adjacent_to_controlled_land: bool) -> bool:
    """Settlers' GP and NFP reach a region not beside controlled land only with a Leader (3.3.1, action 5.2.4)."""
    return not adjacent_to_controlled_land


@dataclass(frozen=True, slots=True)
class Colonisation:
    """GPv converted to the settlers' culture, and the GP and NFP left towards the next one."""

    converted: int
    gp_left: float
    nfp_left: int


def colonise(gp: Number, nfp: int, *, original_gpv: int, converted_already: int = 0) -> Colonisation:
    """Settle an inhabited region: each 15 GP and 15 NFP converts one GPv, up to its original value (3.3.1).

    GP and NFP may be spent over several turns; what is short of the next GPv carries over.
    """
    rules = chart("s3_rules")["colonising"]
    room = max(0, original_gpv - converted_already)
    converted = min(room, int(exact(gp) // rules["gp"]), nfp // int(rules["nfp"]))
    return Colonisation(converted, float(exact(gp) - converted * rules["gp"]), nfp - converted * int(rules["nfp"]))


@dataclass(frozen=True, slots=True)
class Improvement:
    """A region's GPv improvement: its price and the GPv it reaches."""

    gp: int
    nfp: int
    new_gpv: int


def improve_pre_columbian_region(*, improver: Culture, gpv: int, original_gpv: int, cultivated: bool,
                                 formerly_jungle: bool = False, once: bool = True) -> Improvement:
    """+1 GPv to a former Pre-Columbian cultivated region of 1 or 2 GPv for 15 GP / 15 NFP (LotE 3.3.2).

    With `once` (the default reading of "to 2 and 3, respectively") a region improves one step only.
    """
    rules = chart("s3_rules")["improving_pre_columbian"]
    if not improver.modern:
        raise RulesError("only Renaissance and Industrial nations improve Pre-Columbian farming")
    if not cultivated or formerly_jungle:
        raise RulesError("only cultivated regions (not cleared jungle) can be improved")
    if gpv not in rules["gpv"]:
        raise RulesError(f"a region of {gpv} GPv cannot be improved (only 1 or 2)")
    if once and gpv != original_gpv:
        raise RulesError("this region has already been improved")
    return Improvement(int(rules["gp"]), int(rules["nfp"]), gpv + 1)


def improve_cultivated_region(*, improver: Culture, tech_level: int, terrain: Terrain, base_map_gpv: int,
                              gpv: int, once: bool = True) -> Improvement:
    """Improve a Cultivated (C) region: base-map 1 GP to 2 for 15/15, 2 to 3 for 20/20 (LotE 3.3.3).

    Industrial nations of TL 12+ only; 3 and 4 GP regions and other terrains never. With `once` a region
    improves one step from its base-map value; without, it may climb from 1 to 3 step by step.
    """
    rules = chart("s3_rules")["improving_cultivated"]
    if not improver.industrial or tech_level < int(rules["tech"]):
        raise RulesError("only Industrial nations of Tech Level 12 or more improve cultivated regions")
    if terrain is not Terrain.CULTIVATED:
        raise RulesError("only Cultivated (C) regions can be improved this way")
    step = base_map_gpv if once else gpv
    if once and gpv != base_map_gpv:
        raise RulesError("this region has already been improved")
    price = rules.get(str(step))
    if price is None:
        raise RulesError(f"a {step} GP region cannot be improved (only 1 or 2 GP on the base map)")
    return Improvement(int(price["gp"]), int(price["nfp"]), gpv + 1)


def cobuild_problems(*, permission: bool, same_religion: bool, funds_delivered: bool, status_in_control_web: bool,
                     host_building_this_turn: bool, within_action_range: bool, new_gpv: int,
                     max_gpv: int | None) -> list[str]:
    """Why a co-build of a city GPv cannot go ahead; empty when it can (LotE 3.3.5 caveats 1-6).

    The GP and NFP must be delivered unless the co-builder already has a status in the city within its
    Control Web; the host's own city growth that turn takes priority; the city's maximum size holds.
    """
    problems = []
    if not permission:
        problems.append("the city's owner must give permission")
    if not same_religion:
        problems.append("the city must be of the co-builder's religion")
    if not (funds_delivered or status_in_control_web):
        problems.append("a Leader must bring the GP and NFP to the city (no status there within the Control Web)")
    if host_building_this_turn:
        problems.append("the owner adds a GPv to this city this turn, and a city grows by at most 1 GPv a turn")
    if not within_action_range:
        problems.append("the city is beyond the Action Range of the co-builder's seats")
    if max_gpv is not None and new_gpv > max_gpv:
        problems.append(f"the city may not grow beyond {max_gpv} GPv")
    return problems
