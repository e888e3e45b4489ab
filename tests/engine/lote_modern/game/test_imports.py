"""Import formats: the example files read cleanly, and a bad file is refused with its line and field."""

from __future__ import annotations

import pytest

from engine.core import UploadError
from engine.rulesets.lote_modern.mapfile import parse_map
from engine.rulesets.lote_modern.sheetfile import parse_sheets, validate_against_map

MINI_MAP = '''
regions = """
name,terrain,gpv,coasts,neighbours
Sussex,c2,3,English Channel,Kent
Kent,c,2,English Channel,
"""
cities = """
name,region,gpv,port
London,Sussex,10,yes
"""
zones = """
name
English Channel
"""
'''

MINI_SHEETS = '''
[campaign]
year = 1600

[[nation]]
name = "England"
culture = "R"
tech_level = 9
capital = "London"
homeland = "Sussex"
regions = """
region,status
Sussex,Hm
"""
cities = """
city,status
London,Hm
"""
'''


def test_example_map_reads_with_symmetric_borders_and_port_zones(map_text):
    world = parse_map(map_text)
    assert len(world.regions) == 33 and len(world.zones) == 11
    assert "Sussex" in world.regions["Kent"].neighbours          # Kent lists no borders; Sussex lists Kent
    assert world.cities["London"].zones == ("English Channel", "North Sea")
    assert world.cities["Bordeaux"].port and world.regions["Morocco"].people == "B"


def test_example_sheets_read_four_nations_with_a_merchant_house(sheets_text, map_text):
    sheets = parse_sheets(sheets_text)
    validate_against_map(sheets.nations, parse_map(map_text))
    assert list(sheets.nations) == ["England", "France", "Spain", "Hansa"]
    hansa = sheets.nations["Hansa"]
    assert hansa.is_house and hansa.city("Hamburg").status == "ho"
    assert sheets.loans[0].lender == "England" and sheets.loans[0].due_turn == 2
    assert sheets.monopolies[0].house == "Hansa" and sheets.monopolies[0].nation == "Spain"
    assert sheets.nations["England"].bank.internal_rate == pytest.approx(0.30)


@pytest.mark.parametrize(("bad", "message"), [
    ("Kent,q,2,English Channel,", r"map line 5, regions `Kent`, field `terrain`: `q` is not one of"),
    ("Kent,c,two,English Channel,", r"map line 5, regions `Kent`, field `gpv`: expected a whole number"),
    ("Kent,c,2,English Chanel,", r"map line 5, regions `Kent`, field `coasts`: no sea zone `English Chanel`"),
    ("Kent,c,2,English Channel,Essex", r"map line 5, regions `Kent`, field `neighbours`: no region `Essex`"),
    ("Sussex,c,2,,", r"map line 5, regions `Sussex`, field `name`: `Sussex` is already the name of a region"),
])
def test_a_bad_map_row_is_refused_with_its_line_and_field(bad, message):
    text = MINI_MAP.replace("Kent,c,2,English Channel,", bad)
    with pytest.raises(UploadError, match=message):
        parse_map(text)


def test_a_misspelt_column_is_refused_with_a_suggestion():
    with pytest.raises(UploadError, match=r"unknown column `gvp` \(did you mean `gpv`\?\)"):
        parse_map(MINI_MAP.replace("name,terrain,gpv,", "name,terrain,gvp,"))


def test_a_port_must_touch_its_regions_coast():
    text = MINI_MAP.replace("London,Sussex,10,yes", "London,Sussex,10,yes\nYork,Kent,1,no")
    text = text.replace("gpv,port\n", "gpv,port,zones\n").replace("York,Kent,1,no", "York,Kent,1,no,English Channel")
    with pytest.raises(UploadError, match=r"regions? `?York|cities `York`, field `zones`: only a port"):
        parse_map(text)


@pytest.mark.parametrize(("change", "message"), [
    (("culture = \"R\"", "culture = \"Q\""), r"sheets line 5, \[\[nation\]\] \"England\", field `culture`"),
    (("Sussex,Hm", "Sussex,ma"), r"regions `Sussex`, field `status`: `ma` is a merchant status"),
    (("tech_level = 9", "tech_level = 30"), r"field `tech_level`: 30 is above the maximum 25"),
    (("capital = \"London\"", "capital = \"Paris\""), r"field `capital`: the capital `Paris` is not one of"),
    (("homeland = \"Sussex\"", "homeland = \"Sussex\"\ngpp = 5"), r"field `gpp`: unknown field \(did you mean `gp`"),
])
def test_a_bad_sheet_is_refused_with_its_line_and_field(change, message):
    with pytest.raises(UploadError, match=message):
        parse_sheets(MINI_SHEETS.replace(*change))


def test_a_merchant_house_needs_one_home_office():
    text = MINI_SHEETS.replace('culture = "R"', 'culture = "R"\ntype = "merchant"').replace("London,Hm", "London,bo")
    with pytest.raises(UploadError, match=r"exactly one Home Office"):
        parse_sheets(text)


def test_sheet_places_are_checked_against_the_map(map_text):
    sheets = parse_sheets(MINI_SHEETS.replace("Sussex,Hm", "Sussex,Hm\nAtlantis,F"))
    with pytest.raises(UploadError, match=r"\"England\": no region `Atlantis` on the map"):
        validate_against_map(sheets.nations, parse_map(map_text))


def test_keys_after_a_table_header_are_explained():
    text = MINI_SHEETS.replace('capital = "London"', '[nation.qr]\ninfantry = 5\n')
    with pytest.raises(UploadError, match=r"move them above"):
        parse_sheets(text)
