"""LotE Modern Era 6.1 and chart 8.4: ruling wide domains, the Command Control Radius and its tracing.

Offers:
- `CommandOptions`, `campaign_options`; `command_control_radius` (6.1), `ccr_origin` (6.1.1).
- The map as the tracer sees it: `Link` (a border or sea crossing, with its base movement cost),
  `links_both_ways`, `Conduit` and `anchor_qualifies` (6.1.1 / 2.8.3).
- `ccr_costs` (Table 6-1 with the railroad quarter of 3.4.3), `trace_ccr`, `out_of_control`, and the
  general `shortest_costs` other tracers (the Merchant House control web, 7.3.7) use.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.core.errors import RulesError
from engine.core.ruleset import Option, OptionValue
from engine.core.tables import load_data
from engine.rulesets.lote_modern.rules.actions import option_list, options_of

PACKAGE = "engine.rulesets.lote_modern"
LinkKind = Literal["land", "road", "rail", "sea", "conduit"]


@functools.cache
def _data() -> dict[str, Any]:
    return load_data(PACKAGE, "data/s6_ccr.toml")


@dataclass(frozen=True, slots=True)
class CommandOptions:
    """Campaign choices for 6.1 (see docs/rulesets/lote-modern/sections-5-7.md)."""

    admin_only_when_ruling: bool = True     # the basic rules add the King's Administration only while he Rules

    @classmethod
    def from_campaign(cls, values: Mapping[str, OptionValue]) -> CommandOptions:
        return options_of(cls, "command", values)


def campaign_options() -> tuple[Option, ...]:
    """Section 6.1's campaign options (names `command-...`)."""
    return option_list(CommandOptions, "command", {
        "admin_only_when_ruling": "The King's Administration adds to the CCR only in turns he is Ruling",
    })


def command_control_radius(bureaucratic_level: int, king_administration: int, *, king_ruling: bool,
                           options: CommandOptions = CommandOptions()) -> int:
    """LotE 6.1: the CCR is the Bureaucratic Level plus the King's Administration (while he rules)."""
    admin = king_administration if king_ruling or not options.admin_only_when_ruling else 0
    return bureaucratic_level + admin


def ccr_origin(capital: str | None, king_location: str) -> str:
    """LotE 6.1.1: the CCR is traced from the Capital, or from the King where there is none."""
    return capital if capital else king_location


@dataclass(frozen=True, slots=True)
class Link:
    """Crossing from `a` into `b`, costing `cost` movement points before 6.1's supplements.

    `cost` is the base rulebook's cost of entering `b` (terrain and border features such as mountain
    ranges included). `kind`: an ordinary land border, a controlled border along a Royal or Postal
    Road, a railroad, a sea crossing (into or out of a sea zone), or a complete trade conduit.
    """

    a: str
    b: str
    cost: float = 1.0
    kind: LinkKind = "land"


def links_both_ways(a: str, b: str, cost: float = 1.0, kind: LinkKind = "land",
                    cost_back: float | None = None) -> tuple[Link, Link]:
    """A border crossed in either direction (with its own cost each way if they differ)."""
    return Link(a, b, cost, kind), Link(b, a, cost if cost_back is None else cost_back, kind)


@dataclass(frozen=True, slots=True)
class Conduit:
    """A trade conduit between the regions of its two anchor cities; `complete` when both anchor it."""

    a: str
    b: str
    complete: bool


def anchor_qualifies(*, port_city: bool, tributary_or_better: bool, besieged_or_blockaded: bool = False,
                     house_branch_office_or_better: bool = False) -> bool:
    """LotE 6.1.1 / 2.8.3: a controlled port city of at least Tributary (a House's Branch Office) not under siege."""
    return port_city and (tributary_or_better or house_branch_office_or_better) and not besieged_or_blockaded


def _row(key: str) -> dict[str, Any]:
    for row in _data()["table_6_1"]["rows"]:
        if row["key"] == key:
            return dict(row)
    raise RulesError(f"Table 6-1 has no `{key}` row")


def ccr_costs(*, unsettled: Iterable[str] = (), tsetse: Iterable[str] = ()) -> Callable[[Link], float]:
    """Table 6-1 (LotE 6.1.1) with 3.4.3: the CCR cost of each crossing."""
    unsettled_set, tsetse_set = frozenset(unsettled), frozenset(tsetse)
    road = float(_row("road")["value"])
    rail = float(_data()["tracing"]["railroad"])
    plus_unsettled, plus_tsetse = float(_row("unsettled")["value"]), float(_row("tsetse")["value"])
    conduit = float(_row("conduit")["value"])

    def cost(link: Link) -> float:
        if link.kind == "conduit":
            return conduit
        base = link.cost
        if link.b in unsettled_set:
            base += plus_unsettled
        if link.b in tsetse_set:
            base += plus_tsetse
        if link.kind == "road":
            return base * road
        if link.kind == "rail":
            return base * rail
        return base

    return cost


def shortest_costs(origin: str, links: Iterable[Link], cost: Callable[[Link], float] = lambda link: link.cost,
                   *, limit: float = math.inf) -> dict[str, float]:
    """The least cost from `origin` to every place it reaches within `limit` (Dijkstra over the links)."""
    graph: dict[str, list[Link]] = {}
    for link in links:
        graph.setdefault(link.a, []).append(link)
    best: dict[str, float] = {origin: 0.0}
    order = itertools.count()
    queue: list[tuple[float, int, str]] = [(0.0, next(order), origin)]
    while queue:
        spent, _, here = heapq.heappop(queue)
        if spent > best.get(here, math.inf):
            continue
        for link in graph.get(here, ()):
            step = cost(link)
            if step < 0:
                raise RulesError(f"a crossing from {link.a} to {link.b} cannot cost less than nothing")
            total = spent + step
            if total <= limit + 1e-9 and total < best.get(link.b, math.inf) - 1e-12:
                best[link.b] = total
                heapq.heappush(queue, (total, next(order), link.b))
    return best


def trace_ccr(origin: str, links: Iterable[Link], *, conduits: Iterable[Conduit] = (),
              unsettled: Iterable[str] = (), tsetse: Iterable[str] = ()) -> dict[str, float]:
    """LotE 6.1.1: the CCR points a messenger spends from the Capital (or King) to each place.

    A complete conduit costs one point from anchor to anchor; elsewhere, sea zones count one each
    through the `sea` links the map gives.
    """
    shortcuts = [Link(end, other, kind="conduit") for c in conduits if c.complete
                 for end, other in ((c.a, c.b), (c.b, c.a))]
    return shortest_costs(origin, [*links, *shortcuts], ccr_costs(unsettled=unsettled, tsetse=tsetse))


def out_of_control(costs: Mapping[str, float], regions: Iterable[str], ccr: float) -> list[str]:
    """LotE 6.1.1: the regions the CCR cannot reach at the end of the turn; they may revolt."""
    return [r for r in regions if costs.get(r, math.inf) > ccr + 1e-9]
