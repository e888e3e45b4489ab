"""The Areas table cell by cell (seed 000), transcribed again here, and how the map reads it."""

from engine.rulesets.terra_nova.geography import CSB, DIRECT, EUROPE, GUINEA, geography
from engine.rulesets.terra_nova.reference import data

# #, area as printed, bounds fm Europe, via Guinea, native level, land modifier, markers
AREAS = [
    ("1,1", "Amazon•", "4", "5", "3", "3", []),
    ("1,2", "Amiche", "4", "6", "2", "1", []),
    ("1,3", "Aracua", "7", "8", "4", "2", []),
    ("1,4", "Atlantic Coast", "3", "6", "2", "0", ["R2", "P"]),
    ("1,5", "Aztec Empire", "4e/12w", "6e/13w", "7+T", "2", ["N"]),
    ("1,6", "California", "14", "15", "1", "-1", ["R2"]),
    ("", "Caribbean", "3", "5", "special", "-1", ["R2", "P"]),
    ("2,1", "Cauca", "10", "11", "3", "1", []),
    ("2,2", "Deep South", "4", "6", "4", "0", ["R2", "P"]),
    ("2,3", "Esseouibo", "4", "6", "4", "1", ["P"]),
    ("2,4", "Gran Chaco", "-", "-", "3", "1", []),
    ("2,5", "Great Lakes", "-", "-", "3", "0", ["R2", "ft"]),
    ("2,6", "Guatemala", "4e/11w", "6/12", "2", "2", []),
    ("3,1", "Guiana", "4", "5", "4", "1", ["R2"]),
    ("3,2", "Incan Empire", "8s/9n", "10s/11n", "8+T", "2", ["N"]),
    ("3,3", "Labrador", "3", "8", "1", "1", ["ft"]),
    ("3,4", "The Main", "4e/10w", "6/11", "1", "1", []),
    ("3,5", "Matto Grosso", "-", "-", "2", "2", ["P"]),
    ("3,6", "Mid West", "-", "-", "4", "1", ["ft"]),
    ("4,1", "Mississippi", "4", "6", "3", "0", ["R2"]),
    ("", "New Found Land", "2", "7", "0", "0", ["ft"]),
    ("4,2", "North West", "15", "16", "1", "2", ["ft"]),
    ("4,3", "Norumbega", "2", "7", "1", "1", ["ft"]),
    ("4,4", "Patagonia", "6", "7", "1", "1", []),
    ("4,5", "Rio del Plate", "5", "6", "2", "0", ["R2", "P"]),
    ("4,6", "Rockies", "-", "-", "2", "2", ["ft"]),
    ("5,1", "Saguenay", "4", "9", "2", "1", ["ft"]),
    ("5,2", "St Lawrence", "2", "6", "3", "0", ["R2", "ft"]),
    ("5,3", "Sonora", "13", "14", "2", "3", []),
    ("5,4", "Southern Brasil", "4", "5", "3", "1", ["R2", "P"]),
    ("5,5", "Vera Cruz", "3", "4", "3", "1", ["R2"]),
    ("5,6", "Yucatan", "4", "6", "4+T", "1", ["N"]),
    ("", "Cuba", "3", "5", "3", "0", ["R2", "P"]),
    ("", "Caribbean minor isles", "3", "5", "1 each", "0", ["R2"]),
    ("", "Hispaniola", "3", "5", "3", "0", ["R2", "P"]),
]
SEAS = [
    ("Hudson Bay**", ["3", "5", "-", "-"]),
    ("Cape Hexes", ["6", "7"]),
    ("Hudson’s Strait", ["3", "5"]),
    ("North West Passage", ["4", "6"]),
    ("Command of Seas Box", ["0 but 2 to enter / operate in"]),
    ("All E. Indies areas", ["14", "15"]),
    ("E. Indies/CSB", ["0 fm Indies, 2 to enter/operate"]),
    ("E. Indies/New World†", ["12", "15"]),
]


def test_areas_table_every_cell():
    rows = [(r["number"], r["printed"], *r["cells"], r["markers"]) for r in data("areas")["area"]]
    assert rows == AREAS
    assert [(r["printed"], r["cells"]) for r in data("areas")["sea"]] == SEAS


def test_two_coast_bounds_are_read_per_coast_and_route():
    geo = geography()
    aztec = geo.places["Aztec Empire"]
    assert aztec.bounds == {(DIRECT, "e"): 4, (DIRECT, "w"): 12, (GUINEA, "e"): 6, (GUINEA, "w"): 13}
    assert geo.places["Guatemala"].bounds[(GUINEA, "w")] == 12        # "6/12": east then west
    assert geo.places["Incan Empire"].bounds == {(DIRECT, "s"): 8, (DIRECT, "n"): 9, (GUINEA, "s"): 10,
                                                 (GUINEA, "n"): 11}
    assert geo.ocean_bounds(EUROPE, "The Main", GUINEA, "w") == 11


def test_inland_areas_have_no_bounds_and_the_lakes_count_as_coastal():
    geo = geography()
    for name in ("Gran Chaco", "Great Lakes", "Matto Grosso", "Mid West", "Rockies"):
        assert not geo.places[name].bounds
        assert geo.ocean_bounds(EUROPE, name, DIRECT) is None
    assert geo.places["Great Lakes"].coastal and not geo.places["Mid West"].coastal


def test_markers_native_levels_and_the_minor_isles():
    geo = geography()
    assert geo.places["Amazon"].no_control and not geo.places["Cuba"].no_control
    assert geo.places["Aztec Empire"].native == 7 and geo.places["Aztec Empire"].treasure
    assert geo.places["Incan Empire"].civilisation and geo.places["Yucatan"].civilisation
    assert geo.places["California"].land_modifier == -1 and geo.places["Sonora"].land_modifier == 3
    for isle in ("Trinidad", "Puerto Rico", "Jamaica"):
        place = geo.places[isle]
        got = (place.native, place.r2, place.bounds[(DIRECT, "")], place.group)
        assert got == (1, True, 3, "Caribbean minor isles")
    assert geo.places["Caribbean"].kind == "sea"          # its land is the islands listed below it


def test_revival_numbers_are_two_coloured_dice():
    geo = geography()
    assert geo.by_number(1, 1) == "Amazon" and geo.by_number(3, 2) == "Incan Empire"
    assert geo.by_number(5, 6) == "Yucatan"
    assert geo.by_number(6, 1) is None                  # not on the table: no recovery


def test_sea_boxes_and_the_indies():
    geo = geography()
    assert geo.ocean_bounds(EUROPE, CSB, DIRECT) == 0 and geo.places[CSB].enter_cost == 2
    assert geo.ocean_bounds(EUROPE, "Java", DIRECT) == 14 and geo.ocean_bounds(EUROPE, "Java", GUINEA) == 15
    assert geo.ocean_bounds("Java", "Cuba", DIRECT) == 12 and geo.ocean_bounds("Cuba", "Java", GUINEA) == 15
    assert geo.places["Hudson Bay"].bounds[(DIRECT, "")] == 3 and geo.places["Cape Hexes"].bounds[(GUINEA, "")] == 7
    assert geo.places["North West Passage"].extreme
