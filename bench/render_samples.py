"""Fixed campaign states for every map: the golden-image tests, the pictures in docs/maps/ and bench_render."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core import Dice, Setup, Viewer
from engine.rulesets import get

SEED = bytes(range(32))
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

FREEFORM_REGIONS = """
[[region]]
name = "Gaul"
x = 30
y = 20
owner = "Rome"
links = ["Iberia", "Italia", "Germania", "Britannia"]
[[region]]
name = "Iberia"
x = 8
y = 55
owner = "Carthage"
links = ["Mauretania"]
[[region]]
name = "Italia"
x = 52
y = 45
owner = "Rome"
links = ["Sicilia", "Illyria"]
[[region]]
name = "Sicilia"
x = 55
y = 72
links = ["Africa"]
[[region]]
name = "Africa"
x = 45
y = 92
owner = "Carthage"
links = ["Mauretania", "Numidia"]
[[region]]
name = "Mauretania"
x = 10
y = 92
owner = "Carthage"
[[region]]
name = "Numidia"
x = 30
y = 85
[[region]]
name = "Germania"
x = 55
y = 8
owner = "Suebi"
links = ["Illyria"]
[[region]]
name = "Britannia"
x = 15
y = 2
[[region]]
name = "Illyria"
x = 75
y = 35
owner = "Macedon"
links = ["Macedonia"]
[[region]]
name = "Macedonia"
x = 90
y = 50
owner = "Macedon"
links = ["Graecia", "Asia"]
[[region]]
name = "Graecia"
x = 85
y = 72
owner = "Macedon"
[[region]]
name = "Asia"
x = 100
y = 60
owner = "Seleucids"
links = ["Aegyptus"]
[[region]]
name = "Aegyptus"
x = 95
y = 100
owner = "Seleucids"
"""
FREEFORM_SEATS = ("Rome", "Carthage", "Macedon", "Seleucids", "Suebi")
RING_REGIONS = "".join(f'[[region]]\nname = "Province {n}"\nlinks = ["Province {n % 10 + 1}"]\n'
                       + (f'owner = "{FREEFORM_SEATS[n % 5]}"\n' if n % 3 else "") for n in range(1, 11))


def freeform(regions: str = FREEFORM_REGIONS, **options: str) -> Any:
    ff = get("freeform")
    return ff.setup(Setup(FREEFORM_SEATS, ff.parse_options(options), Dice(SEED, "setup"), {"regions": regions},
                          name="The Punic Wars"))


def terra_prime(moves: int = 120) -> Any:
    tp = get("terra-prime")
    state = tp.setup(Setup(("Ana", "Ben", "Red", "Yellow"), tp.parse_options({}), Dice(SEED, "setup")))
    for n in range(moves):
        if state.ended:
            break
        text = tp.autoplay(state, state.seat, Dice(SEED, f"auto/{n}"))
        state = tp.act(state, Viewer.of_seat(state.seat), text, Dice(SEED, f"act/{n}")).state
    return state


def lote_modern() -> Any:
    lm = get("lote-modern")
    files = {"map": (EXAMPLES / "lote-modern" / "map.toml").read_text(),
             "sheets": (EXAMPLES / "lote-modern" / "sheets.toml").read_text()}
    rule = lm.seat_rule({}, files)
    return lm.setup(Setup(rule.names, lm.parse_options({}), Dice(SEED, "setup"), files))


def maps() -> dict[str, tuple[str, Callable[[], Any], Viewer]]:
    """Name -> (ruleset id, a fixed state's maker, the viewer drawn for)."""
    return {
        "freeform": ("freeform", freeform, Viewer.spectator()),
        "freeform-ring": ("freeform", lambda: freeform(RING_REGIONS), Viewer.spectator()),
        "freeform-fog-rome": ("freeform", lambda: freeform(fog="yes"), Viewer.of_seat("Rome")),
        "terra-prime": ("terra-prime", terra_prime, Viewer.spectator()),
        "terra-nova": ("terra-nova", terra_nova, Viewer.spectator()),
        "lote-modern-gm": ("lote-modern", lote_modern, Viewer.gm()),
        "lote-modern-england": ("lote-modern", lote_modern, Viewer.of_seat("England")),
    }


def crops() -> dict[str, tuple[str, Callable[[], Any], Viewer]]:
    """Name -> (ruleset id, a fixed state's maker, the viewer): the focused crops posted beside a turn's map
    (Ruleset.render_focus)."""
    return {"terra-prime-played": ("terra-prime", terra_prime, Viewer.spectator())}


def terra_nova(east_indies: bool = True) -> Any:
    tn = get("terra-nova")
    options = {"east_indies": "yes" if east_indies else "no", "random_events": "off"}
    state = tn.setup(Setup(("Spain", "Portugal", "England", "France"), tn.parse_options(options),
                           Dice(SEED, "setup")))
    state.holding("Hispaniola", "Spain").settlements = 2
    state.holding("Hispaniola", "Spain").forts = 1
    state.force("Hispaniola", "Spain").units["conquistador"] = 3
    state.holding("Puerto Rico", "Spain").settlements = 1
    state.holding("Cuba", "Spain").towns = 1
    state.force("Cuba", "England").ships["carrack"] = 2
    state.holding("Vera Cruz", "Portugal").settlements = 2
    state.holding("Southern Brasil", "Portugal").plantations = 1
    state.holding("Norumbega", "England").settlements = 1
    state.holding("St Lawrence", "France").settlements = 1
    state.force("Command of the Seas", "England").ships["carrack"] = 3
    state.force("Command of the Seas", "Spain").ships["galleon"] = 2
    if east_indies:
        state.holding("Malacca", "Portugal").factories = 1
        state.holding("Malabar", "Portugal").factories = 1
        state.force("Indies Command of the Seas", "Portugal").ships["carrack"] = 2
    return state


def chart_states() -> list[tuple[int, Any]]:
    """Terra Prime after 0, 25, 50 ... automatic moves, as if each were a turn on record."""
    return [(turn, terra_prime(25 * (turn - 1))) for turn in range(1, 9)]


def charts() -> dict[str, tuple[str, Callable[[], list[tuple[int, Any]]], Viewer]]:
    """Name -> (ruleset id, the states by turn, the viewer charted for)."""
    return {"chart-terra-prime": ("terra-prime", chart_states, Viewer.spectator())}
