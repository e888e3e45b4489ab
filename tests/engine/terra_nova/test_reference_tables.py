"""Every cell of the reference tables, transcribed again here from the reference sheet (seed 000) and the
East Indies rules (seed 001), against the data files and the lookups that read them."""

from fractions import Fraction

import pytest

from engine.rulesets.terra_nova import reference as ref

# -- Purchase, Maintenance, Capacity, Combat -----------------------------------------------------------------
# name: cost, maintenance, cargo, combat, movement (as printed)
UNITS = {
    "Bound (or 8 hexes)": (2, "-", "-", "-", "-"),
    "Cannon": (8, 2, 2, "special", 2),
    "Captain": (8, 1, "-", "special", "-"),
    "Commodity (area output)": ("-", "-", 2, "-", "-"),
    "Factory": (0, 5, "-", 8, "-"),
    "Fort": (8, 2, "-", "doubles", "-"),
    "Gold (each 25 florins)": ("-", "-", "1/2", "-", "-"),
    "Mine": ("-", "-", "-", "-", "-"),
    "Mission": (2, 1, "-", 0, 5),
    "Plantation": ("-", 10, "-", 0, "-"),
    "Settler": ("-", 10, 3, "1*", 3),
    "Settlement": ("-", 10, "-", 2, "-"),
    "Slave": ("4**", 1, 1, 0, 3),
    "Soldier": (4, 1, 1, "5/1*", 5),
    "Town": (2, 10, "-", 8, "-"),
}


def test_purchase_table_every_cell():
    printed = {u.name: u.cells for u in ref.units().values()}
    assert printed == UNITS


@pytest.mark.parametrize(("key", "cost", "upkeep", "cargo_halves", "land", "naval", "move"), [
    ("soldier", 4, 1, 2, 5, 1, 5),       # 5/1*: 1 aboard ship
    ("settler", None, 10, 6, 1, 0, 3),   # 1*: no value at sea
    ("cannon", 8, 2, 4, 0, 0, 2),        # "special": the +1 modifier instead
    ("slave", 4, 1, 2, 0, 0, 3),         # 4** is a minimum
    ("gold", None, 0, 1, 0, 0, None),    # 1/2 a cargo point per 25 florins
    ("mission", 2, 1, 0, 0, 0, 5),
    ("town", 2, 10, 0, 8, 8, None),
])
def test_purchase_cells_are_read_as_numbers(key, cost, upkeep, cargo_halves, land, naval, move):
    unit = ref.units()[key]
    assert (unit.cost, unit.maintenance, unit.cargo_halves, unit.land, unit.movement) == (
        cost, upkeep, cargo_halves, land, move)
    if key in ("soldier", "settler", "cannon"):
        assert unit.naval == naval


SHIPS = {  # cost, maintenance, capacity, combat
    "Caravel (v)": (4, 1, 1, 1),
    "Carrack (c)": (8, 2, 2, 3),
    "Carrack rigged for war (c/f)": (10, 2, 1, 8),
    "Urca (u)*": (6, 1, 4, 0),
    "L Fluyt (f)": (8, 1, 6, 1),
    "L Spanish Galleass (gs)": (15, 4, 6, 12),
    "L Race-Built Galleon (g)": (12, 2, 2, 15),
}


def test_ships_table_every_cell_late_ships_and_the_urca():
    got = {s.name: (s.cost, s.maintenance, s.capacity, s.combat) for s in ref.ships().values()}
    assert got == SHIPS
    assert {k for k, s in ref.ships().items() if s.late} == {"fluyt", "galleass", "galleon"}
    assert [k for k, s in ref.ships().items() if s.hemispheric_only] == ["urca"]


def test_mission_levels():
    assert {r: ref.mission_levels().lookup(r).data["rating"] for r in range(1, 7)} == {
        1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 6: 4}


def test_domestic_investment_with_modifier_range():
    expected = {0: 30, 1: 35, 2: 40, 3: 45, 4: 45, 5: 50, 6: 55, 7: 60}
    assert {r: ref.domestic_investment().lookup(r).data["florins"] for r in range(8)} == expected
    assert ref.domestic_investment().lookup(-1).data["florins"] == 30
    assert ref.domestic_investment().lookup(8).data["florins"] == 60


def test_settlers_available_and_its_reroll():
    table = ref.settlers_available()
    assert [(table.lookup(r).result, table.lookup(r).data["reroll"]) for r in range(1, 7)] == [
        ("0*", True), ("1", False), ("1", False), ("1", False), ("2", False), ("2*", True)]
    assert ref.settlers_reroll() == (frozenset({5, 6}), 1)


def test_settlement_table_by_coastal_and_non_coastal_hex():
    assert ref.settlement_faces("settler", coastal=False) == {5, 6}
    assert ref.settlement_faces("settler", coastal=True) == {4, 5, 6}
    assert ref.settlement_faces("depleted_settler", coastal=False) == {6}
    assert ref.settlement_faces("depleted_settler", coastal=True) == {5, 6}
    assert ref.settlement_faces("advance_to_town", coastal=False) == {4, 5, 6}
    assert ref.settlement_faces("advance_to_town", coastal=True) == {3, 4, 5, 6}


def test_resources_table():
    normal = {"mine": 0, "plantation": 5, "settler": 0, "settlement": 5, "town": 5}
    blighted = {"mine": 0, "plantation": 0, "settler": 0, "settlement": 1, "town": 5}
    assert {k: ref.resources(k, False) for k in normal} == normal
    assert {k: ref.resources(k, True) for k in blighted} == blighted
    assert ref.data("tables")["resources"]["factory"] == ["24 or 36 or 48", "-"]


ATTRITION = [  # die 1-6 across: 1,2 / 3 / 4 / 5 / 6 / 7 / 8 / 9 / 10+ / E
    "D* D* D* D* D* D* D* D* D* DN*",
    "• S S S S S S S S SN*",
    "• • D DS DS DS DS DS DS DSN",
    "• • • • 2D 2D 2D N N* 2N",
    "• • • • • N N 2N 2N 3N†",
    "• N N N N N 2N 3N* 3N† 4N†",
]


def test_naval_attrition_every_cell():
    assert ref.attrition_columns() == ["1,2", "3", "4", "5", "6", "7", "8", "9", "10+", "E"]
    for die, row in enumerate(ATTRITION, start=1):
        for column, cell in enumerate(row.split()):
            assert ref.attrition_table(column).lookup(die).result == cell, (die, column)


@pytest.mark.parametrize(("bounds", "column"), [(1, "1,2"), (2, "1,2"), (3, "3"), (7, "7"), (9, "9"), (10, "10+"),
                                                (16, "10+")])
def test_bounds_travelled_pick_the_column(bounds, column):
    assert ref.attrition_columns()[ref.attrition_column(bounds)] == column
    assert ref.attrition_columns()[ref.attrition_column(bounds, extreme=True)] == "E"


@pytest.mark.parametrize(("cell", "d", "s", "n", "leader", "reroll"), [
    ("D*", 1, 0, 0, True, False), ("DSN", 1, 1, 1, False, False), ("2D", 2, 0, 0, False, False),
    ("3N†", 0, 0, 3, False, True), ("SN*", 0, 1, 1, True, False), ("•", 0, 0, 0, False, False),
])
def test_attrition_cells_read_into_losses(cell, d, s, n, leader, reroll):
    got = ref.Attrition.read(cell)
    assert (got.depleted, got.soldiers, got.ships, got.leader, got.reroll) == (d, s, n, leader, reroll)


def test_combat_die_modifiers_and_ratio_rule():
    raw = ref.data("tables")["combat"]
    assert (raw["explode_on"], raw["explode_add"]) == (6, 5)
    assert ref.combat_modifiers() == {
        "Europeans fighting Native Civilisation": 2, "Europeans fighting other Natives": 3,
        "Leader, inc. Captain": "varies (0,+1,+3)", "Cannon unit(s) present": 1,
        "Galleon(s) or Galleas(s) present": 1, "Govenor (guards assumed present)": 1,
        "Advantage (won last round of combat)": 1, "Larger force": 1,
        "Larger force outnumbers smaller force by 2:1": 1, "Larger force outnumbers smaller force by 3:1": 1,
        "Larger force outnumbers smaller force by 4:1": 1}
    assert raw["ratio_rule"] == "continue adding +1 for each ratio increment"


def test_tactics_and_native_tactics():
    assert {k: t.modifier for k, t in ref.tactics().items()} == {
        "defend": 1, "charge": 2, "restraint": -2, "massacre": 0, "withdrawal": 2}
    assert [ref.native_tactics().lookup(r).result for r in range(1, 7)] == [
        "No tactic", "No tactic", "No tactic", "No tactic", "Defend", "Charge"]


def test_combat_losses_fractions_and_winner_minus_one():
    expected = [Fraction(0), Fraction(1, 6), Fraction(1, 2), Fraction(1, 2), Fraction(1), Fraction(1), Fraction(2)]
    assert [ref.loss_fraction(r) for r in range(7)] == expected
    assert ref.combat_losses().lookup(0).result == "No loss"
    assert ref.winner_loss_modifier() == -1


RCT = [  # mission rating 0-4 across
    ["1", "2", "2", "2", "3"],
    ["1", "1", "2", "2", "2"],
    ["0", "1", "1", "2", "2"],
    ["X", "0", "0", "1", "2"],
    ["X*", "X*", "0*", "0", "2"],
    ["X/M", "X/M", "X†", "X†", "0†"],
]


def test_religious_conversion_every_cell_and_its_reroll():
    for die, row in enumerate(RCT, start=1):
        for rating, cell in enumerate(row):
            assert ref.conversion_table(rating).lookup(die).result == cell
            assert ref.conversion_cell(die, rating).cell == cell
    assert ref.conversion_reroll_faces() == {4, 5, 6}
    xm = ref.Conversion.read("X/M")
    assert (xm.lose_unit, xm.mission_lost, xm.reroll) == (True, True, False)
    assert ref.Conversion.read("0*").double and ref.Conversion.read("X†").reroll


NAT = {
    "Coureur des Bois": ["0", "1", "1", "1", "2", "2"],
    "Conquistador": ["•", "0", "0", "1", "1", "1"],
    "Paulista": ["•", "0", "0", "0", "1", "1"],
    "Pioneer": ["•", "0", "1", "1", "1", "2"],
}


def test_native_alliance_every_cell_and_bribes():
    for kind, row in NAT.items():
        assert [ref.alliance_table(kind).lookup(r).result for r in range(1, 7)] == row
    assert [ref.bribe_modifier(f) for f in (0, 1, 2, 3, 4, 9)] == [0, 0, 1, 1, 2, 4]


def test_land_results():
    table = ref.land_results()
    got = [(t, table.lookup(t).result, table.lookup(t).data["name"]) for t in (2, 8, 9, 10, 11, 12, 14)]
    assert got == [(2, "*", ""), (8, "*", ""), (9, "A", "Bad harvests"), (10, "B", "Drought"),
                   (11, "B", "Plague (insects or disease)"), (12, "B", "Severe Weather"), (14, "B", "Severe Weather")]


def test_mines_and_pearls_every_cell():
    got = {k: (sorted(m.discover), sorted(m.deplete), m.production) for k, m in ref.mine_kinds().items()}
    assert got == {
        "Caribbean Gold Mines": (list(range(2, 9)), [2, 3, 4, 5], (20, 25, 30)),
        "Mainland Gold Mines": ([2, 3, 4, 5], [2, 3], (30, 40, 60)),
        "Potosi Silver Mine": ([2, 3, 4, 5], [2], (35, 50, 70)),
        "Pearl Fisheries": ([2, 3, 4, 5], [], (25, 35, 45)),
    }
    potosi = ref.mine_kinds()["Potosi Silver Mine"]
    assert [potosi.output(r) for r in range(1, 6)] == [35, 35, 50, 50, 70]


def test_treasure_cities_every_cell():
    got = {k: (c.level, sorted(c.deplete), c.production) for k, c in ref.city_kinds().items()}
    assert got == {"Aztec Temples": (2, [2, 3, 4, 5], 45), "Cuzco": (4, [2, 3, 4, 5], 100),
                   "El Dorado": (4, [2, 3, 4, 5], 75), "Nazca": (2, [2, 3, 4, 5], 30),
                   "Tenochtitlan": (4, [2, 3, 4, 5], 80)}


def test_east_indies_commodity_prices_every_cell():
    expected = {"Pepper": [-1, -1, -1, 1, 1, 1], "Silk": [-1, 0, 0, 0, 0, 1], "Spices": [-1, 0, 0, 0, 1, 2],
                "Tea": [-2, -1, 0, 0, 0, 1]}
    assert ref.commodities() == list(expected)
    assert {c: [ref.price_change(c, r) for r in range(1, 7)] for c in expected} == expected
    assert ref.starting_price() == 36
    assert ref.price_ranks() == [24, 36, 48]     # RME 4.2: 24, 36 or 48 florins


MONARCH_AGE = [("65 +", 11, None), ("60 – 64", 9, 12), ("55 – 59", 7, 11), ("50 – 54", 4, 10), ("45 – 49", 4, 9),
               ("40 – 44", 4, 8), ("35 – 39", 3, 7), ("30 – 34", 3, 6), ("25 – 29", 3, 5), ("20 – 24", 2, 4),
               ("15 – 19", 2, 3), ("10 – 14", 2, 2), ("10 or less", 2, 1)]


def test_monarch_age_every_cell_and_bands():
    assert [(b.printed, b.mortality, b.ascendancy) for b in ref.age_bands()] == MONARCH_AGE
    assert ref.age_band(70).mortality == 11 and ref.age_band(62).mortality == 9
    assert ref.age_band(10).printed == "10 – 14" and ref.age_band(9).printed == "10 or less"
    assert ref.ascendancy_band(12).printed == "60 – 64" and ref.ascendancy_band(1).printed == "10 or less"


GAME_DEVELOPMENT = [
    ("1", 1496, ["R1, Exhequers start at 275 Florins", "Draw 1 leader/player + 1d6 leaders*"]),
    ("2", 1501, ["Draw 2 + 1d6 leaders*"]),
    ("6", 1521, ["No more Italian leaders to be drawn", "Draw 1d6 leaders (no asterix!)"]),
    ("9", 1536, ["R2, Build towns, Plantations", "Build ships in New World"]),
    ("13", 1556, ["R3, Captains may be employed"]),
    ("17", 1576, ["R4, Endgame votes begin (optional)"]),
    ("21+", 1591, ["R5, Roll 1d6/turn for game end"]),
]


def test_game_development_every_cell_and_its_reading():
    assert [(r["turn"], r["date"], r["development"]) for r in ref.development_rows()] == GAME_DEVELOPMENT
    assert ref.leader_footnote() == (4, 2, 9, 2)
    one, two, six = ref.development(1), ref.development(2), ref.development(6)
    assert (one.exchequer, one.r_level, one.leaders_per_player, one.leaders_dice, one.footnote_applies) == (
        275, 1, 1, 1, True)
    assert (two.leaders_per_player, two.leaders_fixed, two.leaders_dice) == (0, 2, 1)
    assert (six.no_italians, six.leaders_fixed, six.footnote_applies) == (True, 0, False)
    assert ref.development(9).towns and ref.development(9).new_world_ships and not ref.development(8).towns
    assert ref.development(13).captains and not ref.development(12).captains
    assert [ref.development(t).r_level for t in (1, 8, 9, 13, 17, 21, 30)] == [1, 1, 2, 3, 4, 5, 5]
    assert ref.development(21).end_roll and not ref.development(20).end_roll


def test_the_keys_printed_under_the_tables():
    attrition = ref.data("tables")["naval_attrition"]["key"]
    assert attrition == {"D": "Settler is depleted (place depletion marker on it)", "S": "soldier unit eliminated",
                         "N": "ship eliminated", "*": "One leader eliminated (player’s choice)",
                         "†": "Take loss indicated & re-roll, same column (losses cumulative)",
                         "E": "Emergency or Extreme Bounds column"}
    assert ref.data("areas")["markers"] == {
        "ft": "Fur Trade available", "P": "Plantations may be laid", "N": "Native civilisation present",
        "•": "Political control not awarded",
        "T": "Treasure cities have their own Native Level (see Gold Table).",
        "R2": "All resources drawn from this area are doubled"}
    assert ref.data("units")["footnotes"]["*"].startswith("Soldiers have a combat value of 1 on board ships")
    assert ref.data("tables")["domestic_investment"]["footnote"] == "* Add Monarch Income Modifier to die roll"
