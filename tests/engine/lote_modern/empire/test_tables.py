"""Every table of sections 5-7 and charts 8.3-8.5, cell by cell against the supplement as printed."""

from engine.core.tables import load_data
from engine.rulesets.lote_modern.rules import actions, actions_codes

PACKAGE = "engine.rulesets.lote_modern"


def data(name):
    return load_data(PACKAGE, f"data/{name}.toml")


def test_table_5_1_months_per_year_available_for_actions():
    printed = [("Civilized", "6"), ("Seafaring", "7"), ("Barbarian", "8"), ("Nomadic", "8"),
               ("Pre-Columbian", "5"), ("Renaissance Land Units", "8"), ("Renaissance Ships", "7 + Nav"),
               ("Industrial One W & T units", "8 + Nav")]
    rows = [(r.label, f"{r.months} + Nav" if r.plus_nav else str(r.months)) for r in actions.months_table()]
    assert rows == printed


def test_table_5_2_unit_type_modifiers():
    rows = [(r["label"], r["modifier"]) for r in data("s5_actions")["table_5_2"]["rows"]]
    assert rows == [("Leader", 2), ("Cavalry", 1), ("Infantry", 0), ("Siege", 0), ("Artillery", -1),
                    ("Tribe Points", -1)]


def test_table_5_3_equipment_type_modifiers():
    rows = [(r["label"], r["modifier"]) for r in data("s5_actions")["table_5_3"]["rows"]]
    assert rows == [("Heavy", -1), ("Medium", 0), ("Light", 1)]


def test_table_5_4_unit_training_modifiers():
    rows = [(r["label"], r["modifier"]) for r in data("s5_actions")["table_5_4"]["rows"]]
    assert rows == [("Elite", 1), ("Regular", 0), ("Inexperienced", -1)]


def test_table_5_5_leader_combat_rating_modifiers():
    expected = {1: -1, 2: -1, 3: -1, 4: -1, 5: 0, 6: 0, 7: 0, 8: 0, 9: 1, 10: 1, 11: 1}
    assert {rating: actions.leader_combat_modifier(rating) for rating in range(1, 12)} == expected


def test_table_8_4_renaissance_action_chart():
    # The months marked X in each printed row, January = J ... December = E.
    months = ["J", "F", "M", "A", "M2", "J2", "J3", "A2", "S", "C", "N", "E"]
    printed = {
        1: "J3", 2: "J2 J3", 3: "M2 J2 J3", 4: "M2 J2 J3 A2", 5: "A M2 J2 J3 A2", 6: "A M2 J2 J3 A2 S",
        7: "M A M2 J2 J3 A2 S", 8: "M A M2 J2 J3 A2 S C", 9: "M A M2 J2 J3 A2 S C N",
        10: "F M A M2 J2 J3 A2 S C N", 11: "F M A M2 J2 J3 A2 S C N E",
    }
    chart = actions.action_chart()
    assert len(chart) == 23
    assert data("s5_actions")["table_8_4"]["header"] == ["J", "F", "M", "A", "M", "J", "J", "A", "S", "C", "N", "E"]
    for ap in range(1, 24):
        marked = {months[m] for m in range(12) if chart[ap - 1][m]}
        assert marked == (set(printed[ap].split()) if ap in printed else set(months)), ap


def test_table_6_1_ccr_costs_supplement():
    rows = [(r["label"], r["printed"]) for r in data("s6_ccr")["table_6_1"]["rows"]]
    assert rows == [("Controlled land border along a Royal or Postal Road segment", "× ½"),
                    ("Unsettled (empty, Barbarian / Pre-Columbian / Nomadic) regions", "+1"),
                    ("Any kind of region within the tsetse Fly zone", "+1"),
                    ("'Anchored' Trade Conduit", "1")]
    applied = {r["key"]: (r["kind"], r["value"]) for r in data("s6_ccr")["table_6_1"]["rows"]}
    assert applied == {"road": ("multiply", 0.5), "unsettled": ("add", 1), "tsetse": ("add", 1),
                       "conduit": ("flat", 1)}


def test_table_7_1_merchant_house_control_statuses():
    rows = [(r["status"], r["code"], f"{r['taxes']:.2f}", r["nfp"], r["trade"], r["base"])
            for r in data("s7_merchant")["table_7_1"]["rows"]]
    yes, no = True, False
    assert rows == [("Merchant Agent", "ma", "0.10", no, yes, yes),
                    ("Merchant Factory", "mf", "0.20", no, yes, yes),
                    ("Branch Office", "bo", "0.30", no, yes, yes),
                    ("Cartel City", "ci", "0.40", yes, yes, yes),
                    ("Home Office", "ho", "0.50", yes, yes, yes),
                    ("Colony", "cl", "1.00", yes, yes, yes)]


def test_table_7_2_merchant_house_actions_table():
    def printed(r):
        return f"{r['ap']} AP and {r['gp']}GP / year" if r["per_year"] else f"{r['ap']} AP and {r['gp']} GP"

    rows = [(f"{r['action']} ({r['code']})", r["intel"], printed(r)) for r in data("s7_merchant")["table_7_2"]["rows"]]
    sd, ba = "Support Diplomacy", "Battle Assistance"
    assert rows == [("Acquire Agent (aa)", sd, "2 AP and 3 GP"),
                    ("Establish Factory (emf)", sd, "3 AP and 5 GP"),
                    ("Open Branch Office (obo)", sd, "6 AP and 10 GP"),
                    ("Acquire Monopoly (amn)", sd, "8 AP and 25 GP"),
                    ("Found Cartel City (fct)", sd, "8 AP and 25 GP"),
                    ("Establish Mercantile Colony (ecl)", ba, "8 AP and 25GP / year"),
                    ("Gain Preferential Treatment (gpt)", sd, "3 AP and 25 GP"),
                    ("Discredit Competitor (dcm)", sd, "6 AP and 25 GP"),
                    ("Seize Location (zl)", ba, "5 AP and 10 GP"),
                    ("Establish Mercenary Brokerage (emb)", sd, "12 AP and 25 GP"),
                    ("Destroy Location (dl)", ba, "3 AP and 5 GP")]


def test_section_7_4_action_entries_as_printed():
    entries = data("s7_merchant")["actions"]

    def bac(code):
        e = entries[code]
        ap = f"{e['bac_ap']}{'+' if e['open_ended'] else ''} AP"
        gp = f"{e['bac_gp']} GP per Year" if e.get("per_year") else f"{e['bac_gp']} GP"
        return f"{ap} and {gp}", e["stat"], e["section"]

    assert {code: bac(code) for code in entries} == {
        "aa": ("3+ AP and 3 GP", "Diplomacy", "7.4.1"),
        "emf": ("3+ AP and 5 GP", "Diplomacy", "7.4.2"),
        "obo": ("6+ AP and 10 GP", "Diplomacy", "7.4.3"),
        "fct": ("8+ AP and 25 GP", "Diplomacy", "7.4.4"),
        "ecl": ("8 AP and 25 GP per Year", "Combat", "7.4.5"),
        "amn": ("8+ AP and 25 GP", "Diplomacy", "7.4.6"),
        "gpt": ("3+ AP and 25 GP", "Diplomacy", "7.4.7"),
        "dcm": ("6+ AP and 25 GP", "Diplomacy", "7.4.8"),
        "zl": ("5+ AP and 10 GP", "Combat", "7.4.9"),
        "dl": ("3+ AP and 5 GP", "Combat", "7.4.10"),
        "emb": ("12+ AP and 25 GP", "Diplomacy", "7.4.11"),
    }


def test_section_5_2_action_codes_as_printed():
    rows = [(a.code, f"{a.bac}{'+' if a.open_ended else ''}{' King' if a.king_only else ''} AP", a.stat)
            for a in actions_codes.action_codes()]
    assert rows == [("RU", "8 AP", "Combat"), ("EX", "3+ AP", "Charisma"), ("NM", "6 King AP", "Diplomacy"),
                    ("CIR", "8 AP", "Charisma"), ("DCL", "2 AP", "Combat")]


def test_table_7_3_export_unit_conversions():
    rows = [(", ".join(f"({e})" for e in r["export"]), r["turns"], r["into"])
            for r in data("s7_export")["table_7_3"]["rows"]]
    assert rows == [("(hi)", "i or ei", "hi or hei"),
                    ("(hc)", "c or ec", "hc or hec"),
                    ("(hw)", "w", "hw"),
                    ("(ht)", "t", "ht"),
                    ("(xa)", "xi, xei or xc, xec", "xa or xea"),
                    ("(a)", "i, c or ei, ec", "a or ea"),
                    ("(ha)", "i, c or ei, ec", "ha or hea"),
                    ("(st)", "t", "st"),
                    ("(ca), (bb), (dn), (cv)", "w (nfp equivalent)", "ca, bb, dn, cv"),
                    ("(zs), (z), (zh), (zt)", "c (or d)", "zs, z, zh, zt"),
                    ("(ss)", "w", "ss"),
                    ("(m)", "w", "m")]


def test_banking_numbers_as_printed():
    bank = data("s6_banking")
    assert bank["banks"]["min_tech_level"] == 8
    assert bank["schedule"]["due_after_turns"] == 3
    assert bank["capacity"]["gp_invested_per_capacity"] == 10
    assert bank["rates"] == {"internal": 0.30, "external": 0.40, "internal_after_default": 0.40,
                             "external_after_default": 0.50, "recovery_boost": 0.10, "internal_minimum": 0.20}
    assert bank["default"] == {"tax_penalty_factors": [1.0, 0.5, 0.25], "collapse_turns": 4}
    assert bank["penalty"]["multiple"] == 2
    assert bank["rebuild"]["gp_per_capacity"] == 4


def test_merchant_house_numbers_as_printed():
    mh = data("s7_merchant")
    assert mh["coexistence"]["ma_other_agents"] == 10
    assert mh["coexistence"]["mf_other_factories"] == 3
    assert (mh["coexistence"]["bo_other_factories"], mh["coexistence"]["bo_other_branch_offices"]) == (2, 1)
    assert mh["monopolies"] == {"trade_value_per_monopoly": 1, "nmv_per_monopoly": 0.01}
    assert mh["colonies"] == {"gp_per_level": 15, "nfp_per_level": 15, "payment_gp": 25, "settlers_min": 0,
                              "settlers_max": 5}
    assert mh["brokerage"]["min_upkeep_per_unit"] == 0.5
    assert mh["overland"]["range_divisor"] == 2
    assert mh["support"]["gp_per_msp"] == 0.1
    assert mh["movement"]["uncontrolled_extra_ap"] == 1
    assert mh["restrictions"] == {"societies": ["Clan", "Caste", "Open"], "economies": ["Guild", "Free"],
                                  "governments": ["Oligarchy", "Dictatorship"]}
    export = data("s7_export")["export"]
    assert (export["nfp"], export["cargo_factor"], export["upgrade_ap"]) == (0, 0.5, 6)
