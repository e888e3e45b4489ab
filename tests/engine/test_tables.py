"""Dice tables: ranges, clamping, and the campaign's own TOML table format."""

import pytest

from engine.core import Dice, UploadError
from engine.core.tables import parse_range, parse_tables, table_from_rows

SEED = b"\x01" * 32


@pytest.mark.parametrize(("text", "expected"), [("4", (4, 4)), ("2-5", (2, 5)), ("12+", (12, 10**6)),
                                                ("0-", (-(10**6), 0)), ("-1", (-1, -1)), (" 3 - 4 ", (3, 4))])
def test_ranges(text, expected):
    assert parse_range(text) == expected


def test_modified_totals_beyond_the_table_take_its_ends():
    table = table_from_rows("land", "2d6", [{"roll": "2-8", "result": "*"}, {"roll": "9", "result": "A"},
                                            {"roll": "10-11", "result": "B"}, {"roll": "12+", "result": "B"}])
    assert table.lookup(1).result == "*"
    assert table.lookup(15).result == "B"
    assert table.lookup(9).result == "A"


def test_table_roll_logs_the_lookup():
    tables = parse_tables(
        '[weather]\ndice = "2d6"\ntitle = "Weather"\n"2-4" = "Storm"\n"5-9" = "Clear"\n"10+" = "Fog"\n')
    dice = Dice(SEED, "t")
    outcome = tables["weather"].roll(dice, modifier=-1)
    assert dice.rolls[-1].table == "Weather"
    assert dice.rolls[-1].result == outcome.result
    assert dice.rolls[-1].modifier == -1


@pytest.mark.parametrize(("text", "message"), [
    ("not toml [", "not valid TOML"),
    ('[w]\n"2-4" = "x"', "no `dice` key"),
    ('[w]\ndice = "2d6"\n"2-4" = "x"', "no result for 5"),
    ('[w]\ndice = "2d6"\n"2-7" = "x"\n"6-12" = "y"', "overlap"),
    ('["W W"]\ndice = "d6"\n"1-6" = "x"', "table name"),
    ('[w]\ndice = "2x6"\n"1-6" = "x"', "not a simple dice count"),
])
def test_bad_tables_say_what_is_wrong(text, message):
    with pytest.raises(UploadError, match=message):
        parse_tables(text)
