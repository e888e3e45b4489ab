"""What the sheet shows, and the order-form help that players read."""

from __future__ import annotations

import re

from engine.core import Viewer
from engine.rulesets.lote_modern.orders import ORDERS_HELP, Names, parse_order


def test_every_example_in_the_order_form_help_reads_and_round_trips():
    names = Names(armies=("Home Army",))
    examples = [e for e in re.findall(r"`([^`]+)`", ORDERS_HELP) if "<" not in e and "|" not in e and e != "#"]
    assert len(examples) >= 12
    for example in examples:
        order = parse_order(example, names)
        assert parse_order(order.text(), names) == order, example


def test_a_nations_sheet_is_complete(lm, state):
    sheet = lm.view(state, Viewer.of_seat("England")).sheet
    for part in ("## England — Open Nation", "Industrial One, Tech Level 13", "1845 (1 year a turn, base tax 20%)",
                 "**Treasury** 400 GP, 30 NFP", "**Upkeep** 3.83 GP", "**Income** 17.7 GP",
                 "artillery 15/22", "trade range 6/11", "Sussex (c2 3 GPv, Homeland", "London (10 GPv port, Homeland",
                 "- Home Army at Sussex (G), led by Wellington: 10i 4c 2a 1ha", "Victoria (king;",
                 "P001 R&D Steam Cruiser at London: 1/2 Advances", "**Completed** Steamships (Steam Transport)",
                 "London: generic 50, steamship 2", "**Bank** Open; capacity 320", "Loan L1 to Spain",
                 "Conduit London-Gibraltar", "Railroads: Sussex-Kent (1)"):
        assert part in sheet, part


def test_a_houses_sheet_shows_its_sites_and_monopolies(lm, state):
    sheet = lm.view(state, Viewer.of_seat("Hansa")).sheet
    assert "## Hansa — Merchant House" in sheet
    assert "Hamburg (6 GPv port, Home Office" in sheet and "London (10 GPv port, Merchant Agent)" in sheet
    assert "**Monopolies** #1 wool in Spain (granted)" in sheet


def test_the_gm_desk_lists_every_nation_and_sheet(lm, state):
    desk = lm.view(state, Viewer.gm()).sheet
    assert desk.count("## ") == 4 and "- Hansa (Merchant House)" in desk
