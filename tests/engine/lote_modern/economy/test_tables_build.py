# ruff: noqa: E501  (the printed tables keep one row per line, exactly as the document prints them)
"""Chart 8.6 (Tables 8-1 to 8-3, the build-at notes and yard cost types) and section 4.2's project boxes.

The expected values are the document's own table text, parsed here.
"""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import military, research
from engine.rulesets.lote_modern.rules.tech import Culture, chart
from tests.engine.lote_modern.economy.printed import number, rows

TABLE_8_1 = r"""
| Name | TL | Pre-requisites | Advances | Results |
|---|---|--|---|---|
| Steamships (Steam Transports) | 12 | None | 5 | One steam transport (ST) unit.<br>Can build Steamship Yards |
| Steam Cruiser | 12 | R&D: Steamships, a Steamship Yard | 2 | 1 Steam Cruiser (ca).<br>Can build CA units |
| Steam Battleship | 12 | R&D: Steam Cruiser, 3 Steamship Yards | 3 | 1 Steam Battleship (bb).<br>Can build BB units |
| Steam Dreadnaught | 12 | R&D: Steam Battleship, 6 Steamship Yards | 4 | 1 Steam Dreadnaught (dn).<br>Can build DN units |
| Steam Airship Carrier | 12 | R&D: Steam Battleship, R&D: Airships, 6 Steamship Yards | 3 | 1 Steam Airship Carrier (cv).<br>Can build CV units |
| Airships (Scout Airships) | 11 | (sample airship or plans) | 2 | 1 Scout Airship (zs).<br>Can build Airship Yards. |
| Standard Airships | 11 | R&D: Airships, 2 Airship Yards | 2 | 1 standard Airship (z).<br>Can build Z units. |
| Heavy Airships | 11 | R&D: Standard Airships, 4 Airship Yards | 3 | 1 Heavy Airship (zh).<br>Can build ZH units. |
| Transport Airships | 11 | R&D: Standard Airships, 2 Airship Yards | 1 | 1 Transport Airship (zt).<br>Can build ZT units. |
| Submersible | 11 | None | 2 | One Submarine (ss) unit.<br>Can build Submarine yards. |
| Internal Combustion Engine | 12 | R&D: Airships | 6 | A constant need for gasoline |
| Submarine | 12 | R&D: Submersible, R&D: Internal Combustion Engine, 4 Submarine Yards | 3 | 1 Advanced Submarine (sn).<br>Can build SN units. |
"""

TABLE_8_2 = r"""
| Unit Name | Code | GPc | NFPc | AP | Cargo | Combat | Siege | Support | Build At... |
|---|---|---|---|---|---|---|---|---|---|
| Cavalry | C | 5.0 | 1 | 9 | 3 | 1.5 | 0.5 | 0.5 | Hm,Fc |
| Elite Cavalry | EC | 10.0 | 2 | 10 | 3 | 2.3 | 0.8 | 1.0 | Fc |
| Heavy Cavalry | HC | 6.0 | 1 | 8 | 4 | 2.3 | 0.8 | 0.6 | Fc |
| Heavy Elite Cavalry | HEC | 11.0 | 2 | 9. | 4 | 3.4 | 1.1 | 1.1 | Fc |
| Inexperienced Cavalry | IC | 2.5 | 1 | 8 | 3 | 0.8 | 0.3 | 0.25 | Hm,Fc |
| Light Cavalry | LC | 4.0 | 1 | 10 | 2 | 0.8 | 0.3 | 0.4 | Hm,Fc,Csr |
| Light Elite Cavalry | LEC | 9.0 | 2 | 11 | 2 | 1.1 | 0.4 | 0.9 | Fc |
| Light Inexperienced Cavalry | LIC | 1.5 | 1 | 9 | 2 | 0.4 | 0.1 | 0.15 | Hm,Fc,Csr |
| Artillery | A | 5.0 | 1 | 7 | 2 | 2.0 | 2.0 | 0.5 | Fc |
| Elite Artillery | EA | 10.0 | 2 | 8 | 2 | 3.0 | 3.0 | 1.0 | Fc |
| Heavy Artillery | HA | 6.0 | 1 | 6 | 3 | 3.0 | 3.0 | 0.6 | Fc |
| Heavy Elite Artillery | HEA | 11.0 | 2 | 7 | 3 | 4.5 | 4.5 | 1.1 | Fc |
| Light Artillery | LA | 4.0 | 1 | 8 | 1 | 1.0 | 1.0 | 0.4 | Fc |
| Light Elite Artillery | LEA | 9.0 | 2 | 9 | 1 | 1.5 | 1.5 | 0.9 | Fc |
| Elite Infantry | EI | 6.0 | 2 | 9 | 2 | 1.5 | 2.3 | 0.6 | Fc |
| Heavy Elite Infantry | HEI | 7.0 | 2 | 8 | 3 | 2.3 | 3.4 | 0.7 | Fc |
| Heavy Infantry | HI | 4.0 | 1 | 7 | 3 | 1.5 | 2.3 | 0.4 | Fc |
| Infantry | I | 3.0 | 1 | 8 | 2 | 1.0 | 1.5 | 0.3 | Hm,Fc |
| Inexperienced Infantry | II | 1.5 | 1 | 7 | 2 | 0.5 | 0.8 | 0.15 | Hm,Fc |
| Light Elite Infantry | LEI | 5.0 | 2 | 10 | 1 | 0.8 | 1.1 | 0.5 | Fc |
| Light Infantry | LI | 2.0 | 1 | 9 | 1 | 0.5 | 0.8 | 0.2 | Hm,Fc,Crh |
| Light Inexperienced Infantry | LII | 0.5 | 1 | 8 | 1 | 0.3 | 0.4 | 0.05 | Hm,Fc,Crh |
| Field Fort | F | 3.0 | 1 | -- | -- | 5.0 | -- | 0.3 | Cr |
| Siege Engineers | S | 4.0 | 1 | 8 | 2 | 0.5 | 4.0 | 0.4 | Fc |
| Wall Point | WP | 5.0 | 1 | -- | -- | -- | 10.0 | 0.5 | Cc |
| Elite Warship | EW | 8.0 | 2 | 9+Nav | (1) | 1.5 | 1.5 | 0.8 | Pc |
| Heavy Elite Warship | HEW | 9.0 | 2 | 8+Nav | (2) | 2.3 | 2.3 | 0.9 | Pc |
| Heavy Transport | HT | 4.0 | 1 | 7+Nav | (4) | 0.8 | -- | 0.4 | Pc |
| Heavy Warship | HW | 5.0 | 1 | 7+Nav | (2) | 1.5 | 1.5 | 0.5 | Pc |
| Light Elite Warship | LEW | 7.0 | 2 | 10+Nav | (0) | 0.8 | 0.8 | 0.7 | Pc |
| Light Transport | LT | 2.0 | 1 | 9+Nav | (2) | 0.3 | -- | 0.2 | Pa |
| Light Warship | LW | 3.0 | 1 | 9+Nav | (0) | 0.5 | 0.5 | 0.3 | Pc |
| Transport | T | 3.0 | 1 | 8+Nav | (3) | 0.5 | -- | 0.3 | Pa |
| Warship | W | 4.0 | 1 | 8+Nav | (1) | 1.0 | 1.0 | 0.4 | Pc |
"""

TABLE_8_3 = r"""
| Unit Name | Code | GPc | NFPc | YardC | AP | Cargo | Support | Combat | Siege | Build At... |
|---|---|---|---|---|---|---|---|---|---|---|
| Airship | Z | 15.0 | 2 | 2 | 5 | 0 | 3.0 | 3.0 | 6.0 | Airship Yard |
| Heavy Airship | ZH | 20.0 | 3 | 4 | 5 | 0 | 5.0 | 6.0 | 9.0 | Airship Yard |
| Scout Airship | ZS | 8.0 | 1 | 1 | 7 | 0 | 2.0 | 1.0 | 1.0 | Airship Yard |
| Transport Airship | ZT | 10.0 | 2 | 2 | 7 | (1) | 2.0 | 1.0 | - | Airship Yard |
| Cavalry | C | 8.0 | 1 | - | 10 | 3 | 0.5 | 1.5 | 0.5 | Hm,Fc |
| Elite Cavalry | EC | 16.0 | 2 | - | 11 | 3 | 1.0 | 2.3 | 0.8 | Fc |
| Heavy Cavalry | HC | 9.0 | 1 | 1 | 9 | 4 | 0.6 | 2.3 | 0.8 | Fc |
| Heavy Elite Cavalry | HEC | 17.0 | 2 | 1 | 10 | 4 | 1.1 | 3.4 | 1.1 | Fc |
| Light Cavalry | XC | 7.0 | 1 | - | 11 | 2 | 0.4 | 0.8 | 0.3 | Hm,Fc,Csr |
| Light Elite Cavalry | XEC | 15.0 | 2 | - | 12 | 2 | 0.9 | 1.1 | 0.4 | Fc |
| Artillery | A | 5.0 | 1 | 1 | 8 | 2 | 0.5 | 2.0 | 2.0 | Fc |
| Elite Artillery | EA | 10.0 | 2 | 1 | 9 | 2 | 1.0 | 3.0 | 3.0 | Fc |
| Heavy Artillery | HA | 6.0 | 1 | 2 | 7 | 3 | 0.6 | 3.0 | 3.0 | Fc |
| Heavy Elite Artillery | HEA | 11.0 | 2 | 2 | 8 | 3 | 1.1 | 4.5 | 4.5 | Fc |
| Light Artillery | XA | 4.0 | 1 | 1 | 9 | 1 | 0.4 | 1.0 | 1.0 | Fc |
| Light Elite Artillery | XEA | 9.0 | 2 | 1 | 10 | 1 | 0.9 | 1.5 | 1.5 | Fc |
| Elite Infantry | EI | 6.0 | 2 | - | 10 | 2 | 0.6 | 1.5 | 2.3 | Fc |
| Heavy Elite Infantry | HEI | 7.0 | 2 | 1 | 9 | 3 | 0.7 | 2.3 | 3.4 | Fc |
| Heavy Infantry | HI | 4.0 | 1 | 1 | 8 | 3 | 0.4 | 1.5 | 2.3 | Fc |
| Infantry | I | 3.0 | 1 | - | 9 | 2 | 0.3 | 1.0 | 1.5 | Hm,Fc |
| Inexperienced Infantry | II | 1.5 | 1 | - | 8 | 2 | 0.15 | 0.5 | 0.8 | Hm,Fc |
| Force Point (Colonists) | NFP | N/A | N/A | - | 8 | 2 | 1.0 | 6.0 | - | Fr |
| Refugees (Tribal) | TBL | N/A | N/A | - | 9 | 10 | 9.0 | 5.0 | - | Cannot be built. |
| Point | | | | | | | | | | |
| Light Elite Infantry | XEI | 5.0 | 2 | - | 11 | 1 | 0.5 | 0.8 | 1.1 | Fc |
| Light Infantry | XI | 2.0 | 1 | - | 10 | 1 | 0.2 | 0.5 | 0.8 | Hm,Fc,Crh |
| Light Inexp. Infantry | XII | 0.5 | 1 | - | 9 | 1 | 0.05 | 0.3 | 0.4 | Hm,Fc,Crh |
| Field Fort | F | 3.0 | 1 | - | - | - | 0.3 | 5.0 | 5.0 | Cr |
| Siege Engineers | S | 4.0 | 1 | - | 9 | 2 | 0.4 | 0.5 | 4.0 | Fc |
| Wall Point | WP | 5.0 | 1 | 1 | - | - | 0.5 | - | 10.0 | Cc |
| Steam Battleship | BB | 25.0 | 5 | 3 | 6+Nav | (2) | 2.5 | 10.0 | 4.0 | Steamship Yard |
| Steam Cruiser | CA | 15.0 | 2 | 1 | 6+Nav | (1) | 1.5 | 6.0 | 2.0 | Steamship Yard |
| Steam Airship Carrier | CV | 30.0 | 8 | 6 | 6+Nav | [2] or (6) | 3.0 | 3.0 | - | Steamship Yard |
| Steam Dreadnought | DN | 50.0 | 10 | 6 | 6+Nav | (3) | 5.0 | 15.0 | 8.0 | Steamship Yard |
| Elite Warship | EW | 8.0 | 2 | 1 | 11+Nav | (1) | 0.8 | 1.5 | 1.5 | Shipyard |
| Heavy Elite Warship | HEW | 9.0 | 2 | 2 | 10+Nav | (2) | 0.9 | 2.3 | 2.3 | Shipyard |
| Heavy Transport | HT | 4.0 | 1 | 2 | 9+Nav | (4) | 0.4 | 0.8 | - | Shipyard |
| Heavy Warship | HW | 5.0 | 1 | 2 | 9+Nav | (2) | 0.5 | 1.5 | 1.5 | Shipyard |
| Clipper-ship | M | 8.0 | 1 | 3 | 11+Nav | (4) | 0.6 | 0.5 | 0.5 | Shipyard |
| Submersible | SM | 10.0 | 1 | 2 | 3 | - | 2.0 | 1.0 (*) | - | Submarine Yard |
| Steam Transport | ST | 10.0 | 1 | 1 | 7+Nav | (5) | 2.0 | 2.0 | - | Steamship Yard |
| Transport | T | 3.0 | 1 | 1 | 10+Nav | (3) | 0.3 | 0.5 | - | Shipyard |
| Warship | W | 4.0 | 1 | 1 | 10+Nav | (1) | 0.4 | 1.0 | 1.0 | Shipyard |
| Light Elite Warship | XEW | 7.0 | 2 | 1 | 12+Nav | - | 0.7 | 0.8 | 0.8 | Shipyard |
| Light Transport | XT | 2.0 | 1 | 1 | 11+Nav | (2) | 0.2 | 0.3 | - | Shipyard |
| Light Warship | XW | 3.0 | 1 | 1 | 11+Nav | - | 0.3 | 0.5 | 0.5 | Shipyard |
| Submarine | SS | 25.0 | 3 | 4 | 6+Nav | - | 2.5 | 5.0(*) | - | Submarine Yard |
"""

TABLE_YARD_COST_TYPES = r"""
| Yard Cost Type | Source of Capacity |
|---|---|
| Airship | Airship Factories |
| Steamship | Steamship Yard |
| Submarine | Submarine Yard |
| Ship | Port City generic Yard |
| Heavy Unit | Friendly City generic Yard |
| Railroad Train | Friendly City generic Yard |
| Artillery | Friendly City generic Yard |
"""

PROJECT_NAMES = {
    "Steamships (Steam Transports)": "steamships", "Steamships": "steamships", "Steam Cruiser": "steam_cruiser",
    "Steam Battleship": "steam_battleship", "Steam Dreadnaught": "steam_dreadnought",
    "Steam Airship Carrier": "steam_airship_carrier", "Airships (Scout Airships)": "airships",
    "Airships": "airships", "Standard Airships": "standard_airships", "Heavy Airships": "heavy_airships",
    "Transport Airships": "transport_airships", "Submersible": "submersibles",
    "Internal Combustion Engine": "internal_combustion", "Submarine": "submarines",
}
YARD_WORDS = {"Steamship": "steamship", "Airship": "airship", "Submarine": "submarine"}
COUNTS = {"a": 1, "2": 2, "3": 3, "4": 4, "6": 6}


def _prerequisites(text):
    projects, yards = set(), {}
    for part in text.split(", "):
        if part.startswith("R&D: "):
            projects.add(PROJECT_NAMES[part.removeprefix("R&D: ")])
        elif part.endswith(("Yard", "Yards")):
            count, kind, _ = part.split(" ")
            yards[YARD_WORDS[kind]] = COUNTS[count]
    return projects, yards


def test_table_8_1_research_and_development_project_summary():
    printed = rows(TABLE_8_1)
    assert len(printed) == 12
    charted = research.research_projects(research.AdvancesFrom.CHART)
    for name, tech, prerequisites, advances, _results in printed:
        project = charted[PROJECT_NAMES[name]]
        assert project.tech_level == int(tech), name
        assert project.advances == int(advances), name
        projects, yards = _prerequisites(prerequisites)
        assert set(project.projects) == projects, name
        assert dict(project.yards) == yards, name


# Section 4.2's boxes, transcribed: section -> (Tech Level, R&D Requirement, Advances Required).
SECTION_4_2 = {
    "4.2.2": ("steamships", 12, "None", 5),
    "4.2.3": ("steam_cruiser", 12, "Steamships, a Steamship Yard", 2),
    "4.2.4": ("steam_battleship", 12, "Steam Cruiser, Three Steamship Yards", 3),
    "4.2.5": ("steam_dreadnought", 12, "Steam Battleship, Six Steamship Yards", 4),
    "4.2.6": ("steam_airship_carrier", 12, "Steam Battleship, Airships, Six Steamship Yards", 3),
    "4.2.7": ("airships", 11, "(sample airship or plans)", 2),
    "4.2.8": ("standard_airships", 11, "Airships, Two Airship Yards", 2),
    "4.2.9": ("heavy_airships", 11, "Standard Airships, Four Airship Yards", 3),
    "4.2.10": ("transport_airships", 11, "Standard Airships, Two Airship Yards", 1),
    "4.2.11": ("submersibles", 11, "None", 2),
    "4.2.12": ("submarines", 12, "Submersibles, Internal Combustion, 4 Submarine Yards", 4),
    "4.2.13": ("internal_combustion", 12, "Airships", 6),
}
WORD_COUNTS = {"a": 1, "Two": 2, "Three": 3, "Four": 4, "Six": 6, "4": 4}
SECTION_NAMES = {"Steamships": "steamships", "Steam Cruiser": "steam_cruiser", "Steam Battleship": "steam_battleship",
                 "Airships": "airships", "Standard Airships": "standard_airships", "Submersibles": "submersibles",
                 "Internal Combustion": "internal_combustion"}


def test_section_4_2_industrial_research_project_boxes():
    raw = {p["section"]: p for p in chart("s4_research_projects")["project"]}
    assert set(raw) == set(SECTION_4_2)
    for section, (key, tech, requirement, advances) in SECTION_4_2.items():
        project = research.research_project(key)
        assert (project.section, project.tech_level, project.advances) == (section, tech, advances)
        assert raw[section]["requirement"] == requirement
        projects, yards = set(), {}
        for part in requirement.split(", "):
            if part in SECTION_NAMES:
                projects.add(SECTION_NAMES[part])
            elif part.endswith(("Yard", "Yards")):
                count, kind, _ = part.split(" ")
                yards[YARD_WORDS[kind]] = WORD_COUNTS[count]
        assert (set(project.projects), dict(project.yards)) == (projects, yards), section
    assert research.factory_tech_level() == 11
    # The chart and the section disagree on the Submarine project only.
    assert research.research_project("submarines", research.AdvancesFrom.CHART).advances == 3


def _cargo(unit, printed):
    if printed in ("-", "--"):
        return (None, None, None)
    if printed.startswith("["):
        return (None, int(printed.split("(")[1].rstrip(")")), int(printed[1:].split("]")[0]))
    if printed.startswith("("):
        return (None, int(printed.strip("()")), None)
    return (int(printed), None, None)


def _check_unit(unit, name, code, gp, nfp, yard, ap, cargo, combat, siege, support, build_at):
    assert unit.name == name and unit.code == code
    assert unit.gp == number(gp) and unit.nfp == number(nfp) and unit.yard == yard
    ap = ap.rstrip(".")
    if ap == "--" or ap == "-":
        assert unit.ap is None
    else:
        base, _, nav = ap.partition("+")
        assert (unit.ap, unit.ap_plus_navigation) == (int(base), nav == "Nav"), code
    assert (unit.cargo, unit.carries, unit.carries_airships) == _cargo(unit, cargo), code
    assert unit.combat == number(combat.replace("(*)", "")), code
    assert unit.combat_mark == ("(*)" if "(*)" in combat else ""), code
    assert unit.siege == number(siege) and unit.support == number(support), code
    assert unit.build_at == tuple(part.strip() for part in build_at.split(",")), code


def test_table_8_2_renaissance_unit_construction_chart():
    printed = rows(TABLE_8_2)
    assert len(printed) == 34 == len(military.build_chart(Culture.RENAISSANCE))
    for name, code, gp, nfp, ap, cargo, combat, siege, support, build_at in printed:
        unit = military.unit(code, Culture.RENAISSANCE)
        _check_unit(unit, name, code, gp, nfp, None, ap, cargo, combat, siege, support, build_at)


def test_table_8_3_industrial_build_chart():
    printed = rows(TABLE_8_3)
    body = []
    for row in printed:
        if row[0] == "Point":  # the second line of "Refugees (Tribal) Point"
            body[-1][0] += " Point"
            continue
        body.append(row)
    assert len(body) == 46 == len(military.build_chart(Culture.INDUSTRIAL_TWO))
    for name, code, gp, nfp, yard, ap, cargo, support, combat, siege, build_at in body:
        unit = military.unit(code, Culture.INDUSTRIAL_ONE)
        yard_cost = None if yard == "-" else int(yard)
        _check_unit(unit, name, code, gp, nfp, yard_cost, ap, cargo, combat, siege, support, build_at)
    assert not military.unit("TBL", Culture.INDUSTRIAL_ONE).buildable
    assert not military.unit("NFP", Culture.INDUSTRIAL_ONE).buildable
    assert military.unit("ss", Culture.INDUSTRIAL_ONE).ship and not military.unit("I", Culture.INDUSTRIAL_ONE).ship
    with pytest.raises(RulesError):
        military.unit("ST", Culture.RENAISSANCE)
    with pytest.raises(RulesError):
        military.build_chart(Culture.CIVILIZED)


def test_chart_8_6_unit_ap_adds_navigation():
    assert military.unit("W", Culture.RENAISSANCE).action_points(navigation=3) == 11
    assert military.unit("C", Culture.RENAISSANCE).action_points(navigation=3) == 9
    assert military.unit("F", Culture.RENAISSANCE).action_points(navigation=3) is None


def test_chart_8_6_yard_cost_types():
    printed = dict(rows(TABLE_YARD_COST_TYPES))
    assert printed == dict(chart("build_charts")["yard_sources"])
    assert len(printed) == 7
    assert set(chart("build_charts")["build_at"]) == {"Hm", "Fc", "Csr", "None", "Crh", "Pa", "Pc", "Fa"}
