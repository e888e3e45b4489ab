"""The supplement's rollable tables, for the GM's `/gm table roll` (numbers from lote-rules' s4_rules.toml)."""

from __future__ import annotations

import functools

from engine.core.tables import Table, table_from_rows
from engine.rulesets.lote_modern.rules.tech import chart


@functools.cache
def tables() -> dict[str, Table]:
    """Project recruitment (4.3), mercantile colony settlers (7.1.2), engineers' NFP and GP (4.6)."""
    rules = chart("s4_rules")
    die, minus = int(rules["recruitment"]["die"]), int(rules["recruitment"]["die_minus"])
    settlers = [{"roll": str(face), "result": f"{face - minus} NFP"} for face in range(1, die + 1)]
    low_n, high_n = rules["engineers"]["nfp"]
    low_g, high_g = rules["engineers"]["gp"]
    eng_nfp = [{"roll": str(face), "result": f"{face - 1 + low_n} NFP"} for face in range(1, high_n - low_n + 2)]
    eng_gp = [{"roll": str(face), "result": f"{face - 1 + low_g} GP"} for face in range(1, high_g - low_g + 2)]
    return {
        "recruitment": table_from_rows("recruitment", f"1d{die}", settlers,
                                       title="LotE 4.3 Project recruitment (NFP per 25 GP block)"),
        "colony-settlers": table_from_rows("colony-settlers", f"1d{die}", settlers,
                                           title="LotE 7.1.2 Mercantile colony settlers (NFP per payment)"),
        "engineer-nfp": table_from_rows("engineer-nfp", f"1d{high_n - low_n + 1}", eng_nfp,
                                        title="LotE 4.6 Engineer NFP (per engineer unit)"),
        "engineer-gp": table_from_rows("engineer-gp", f"1d{high_g - low_g + 1}", eng_gp,
                                       title="LotE 4.6 Engineer GP (per engineer unit)"),
    }
