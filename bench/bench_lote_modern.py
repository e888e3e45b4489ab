"""Lords of the Earth, Modern Era: a large campaign (30 nations, 400 regions) generated here, then its order
forms checked, a turn processed, and the results published."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

from engine.core import Dice, Setup, Verdict, Viewer
from engine.rulesets import get

SEED = bytes(32)
WIDTH, HEIGHT = 20, 20
NATIONS = 30
HOUSES = 5
TERRAINS = ("c", "c2", "c", "w", "m", "c", "s", "i", "c", "d")


def _region(x: int, y: int) -> str:
    return f"R{x:02d}-{y:02d}"


def _zone(x: int, y: int) -> str | None:
    """Coastal regions on the grid's edge touch a sea zone for each stretch of five."""
    if y == 0:
        return f"North {x // 5}"
    if y == HEIGHT - 1:
        return f"South {x // 5}"
    if x == 0:
        return f"West {y // 5}"
    if x == WIDTH - 1:
        return f"East {y // 5}"
    return None


def generate() -> dict[str, str]:
    """A map and sheets files: a 20 x 20 grid of regions, ringed by sea, shared among 30 nations."""
    regions, cities, zones = ["name,terrain,gpv,religion,resistance,coasts,neighbours"], ["name,region,gpv,port"], set()
    for y in range(HEIGHT):
        for x in range(WIDTH):
            zone = _zone(x, y)
            if zone:
                zones.add(zone)
            near = ";".join(_region(a, b) for a, b in ((x + 1, y), (x, y + 1)) if a < WIDTH and b < HEIGHT)
            terrain = TERRAINS[(x * 7 + y * 3) % len(TERRAINS)]
            regions.append(f"{_region(x, y)},{terrain},{1 + (x + y) % 4},Faith,2,{zone or ''},{near}")
            if (x + y) % 2 == 0:
                cities.append(f"City {x:02d}-{y:02d},{_region(x, y)},{2 + (x * y) % 6},{'yes' if zone else 'no'}")
    ring = sorted(zones)
    links = ["a,b,a_to_b,b_to_a"] + [f"{a},{b},1,1" for a, b in itertools.pairwise(ring)]
    map_text = "\n".join([
        'title = "Bench World"',
        'regions = """', *regions, '"""',
        'cities = """', *cities, '"""',
        'zones = """', "name", *ring, '"""',
        'links = """', *links, '"""',
    ])
    return {"map": map_text, "sheets": _sheets()}


def _sheets() -> str:
    cells = [(x, y) for y in range(HEIGHT) for x in range(WIDTH)]
    share = len(cells) // NATIONS
    out = ["[campaign]", 'title = "Bench World"', "year = 1845"]
    for i in range(NATIONS):
        mine = cells[i * share:(i + 1) * share]
        house = i < HOUSES
        name = f"Nation {i:02d}"
        city_cells = [c for c in mine if (c[0] + c[1]) % 2 == 0]
        capital = f"City {city_cells[0][0]:02d}-{city_cells[0][1]:02d}"
        out += ["", "[[nation]]", f'name = "{name}"', f'type = "{"merchant" if house else "open"}"',
                'culture = "I1"', "tech_level = 13", 'religion = "Faith"', "religious_strength = 3",
                f'capital = "{"" if house else capital}"', f'homeland = "{_region(*mine[0])}"',
                "bureaucratic_level = 4", "imperial_size = 3", "hbz_range = 6", "navigation = 4", "trade_range = 6",
                "conduit_limit = 3", "gp = 800", "nfp = 60", "nfp_income = 10", "msp = 40",
                'completed = ["steamships"]']
        if house:
            out += ['society = "open"', 'economy = "guild"', 'government = "oligarchy"']
        out += ['regions = """', "region,status,pwb"] + [f"{_region(*c)},{'Hm' if j == 0 else 'F'},10"
                                                         for j, c in enumerate(mine)] + ['"""']
        statuses = ["ho" if house and j == 0 else ("Hm" if j == 0 else "F") for j in range(len(city_cells))]
        out += ['cities = """', "city,status,industry"] + [
            f"City {c[0]:02d}-{c[1]:02d},{s},{1 if s == 'ho' else 0}" for c, s in zip(city_cells, statuses, strict=True)
        ] + ['"""']
        home = _region(*mine[0])
        out += ['armies = """', "name,location,status,leader,units",
                f"First Army,{home},G,General {i},20i 6c 4a 2ha",
                f"Second Army,{_region(*mine[-1])},N,,12i 4xc 2s",
                f"Garrison,{capital},G,,6i 1a", '"""']
        out += ['leaders = """', "name,title,combat,admin,charisma,diplomacy,location",
                f"King {i},king,5,6,6,7,{capital}", f"General {i},leader,8,5,5,5,{home}",
                f"Envoy {i},lieutenant,4,5,7,8,{capital}", '"""']
        out += ['projects = """', "id,kind,name,location,gp,nfp,years,advances,advances_needed",
                f"P001,rd,steam_cruiser,{capital},40,2,1,0,2", '"""']
        partners = [f"Nation {(i + k) % NATIONS:02d}" for k in (1, 2, 3)]
        out += ['routes = """', "partner,kind,income"] + [f"{p},land,{5 + k}" for k, p in enumerate(partners)] + ['"""']
        out += ["qr = { cavalry = 10, infantry = 14, warship = 20, siege = 16, artillery = 12 }",
                "bank = { base_capacity = 200, internal_rate = 30, external_rate = 40 }"]
    return "\n".join(out)


ORDERS = """invest artillery 20gp
invest bank 30gp
construct railroad {a} to {b}
build 6 i at {capital}
build 2 ha at {capital}
research steam_cruiser 20gp 1nfp
borrow 50gp from {lender}
action King{n} RULE {capital} 3ap
action General{n} MV {home} 4ap
note We seek alliances."""


@functools.cache
def campaign() -> tuple[Any, dict[str, Any], dict[str, str]]:
    """The ruleset, the started campaign's dumped state, and each nation's order form."""
    lm = get("lote-modern")
    files = generate()
    names = lm.seat_rule({}, files).names
    state = lm.setup(Setup(names, lm.parse_options({}), Dice(SEED, "setup"), files))
    forms = {}
    for i, name in enumerate(names):
        n = state.nations[name]
        home = n.regions[0].region
        city_regions = [state.world.cities[c.city].region for c in n.cities]
        a, b = next((r, nb) for r in city_regions for nb in state.world.regions[r].neighbours
                    if n.region(nb) is not None)
        forms[name] = ORDERS.format(capital=n.cities[0].city if n.is_house else n.capital, a=a, b=b,
                                    lender=f"Nation {(i + 1) % NATIONS:02d}", n=f" {i}", home=home)
    return lm, lm.dump(state), forms


def _check() -> None:
    lm, data, forms = campaign()
    state = lm.load(data)
    for name, text in forms.items():
        lm.check(state, name, text)


def _load() -> None:
    lm, data, _ = campaign()
    for _ in range(5):
        lm.load(data)


def _dump() -> None:
    lm, data, _ = campaign()
    state = lm.load(data)
    for _ in range(5):
        lm.dump(state)


def _turn() -> Any:
    lm, data, forms = campaign()
    state = lm.load(data)
    orders = {name: [c.canonical for c in lm.check(state, name, text) if c.verdict is not Verdict.REJECTED]
              for name, text in forms.items()}
    return lm.resolve(state, orders, Dice(SEED, "turn")).state


def _publish() -> None:
    lm, _, _ = campaign()
    state = _turn()
    for item in state.report.rulings:
        state = lm.act(state, Viewer.gm(), f"rule {item.id} Ruled.", Dice(SEED, "r")).state
    state = lm.act(state, Viewer.gm(), "publish", Dice(SEED, "p")).state
    lm.dump(state)


def _import() -> None:
    lm = get("lote-modern")
    files = generate()
    lm.setup(Setup(lm.seat_rule({}, files).names, lm.parse_options({}), Dice(SEED, "setup"), files))


def cases() -> dict[str, Callable[[], object]]:
    return {
        "lote-modern: import 30 sheets, 400 regions": _import,
        "lote-modern: load the state, 30 nations, ×5": _load,
        "lote-modern: dump the state, 30 nations, ×5": _dump,
        "lote-modern: check 30 order forms": _check,
        "lote-modern: resolve a turn, 30 nations": _turn,
        "lote-modern: resolve, rule, publish": _publish,
    }
