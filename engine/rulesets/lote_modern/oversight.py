"""What the GM checks at the end of every turn, prepared for a ruling: forces that meet, regions beyond the
Command Control Radius (LotE 6.1.1), and Merchant House sites cut off from the House's control web (7.3.7).

Distances follow the campaign map: one point for each region or sea zone entered (the basic rulebook's
terrain costs are not in the supplement, so these are the GM's starting point, not the last word), a
quarter along the nation's own railroads (3.4.3), one for a complete trade conduit (6.1.1).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from engine.core.errors import RulesError
from engine.rulesets.lote_modern import accounts, campaign, reach, statuses
from engine.rulesets.lote_modern.orders import LeaderAction, parse_order
from engine.rulesets.lote_modern.rules import command, merchant, military
from engine.rulesets.lote_modern.sheet import Army, Nation, format_units
from engine.rulesets.lote_modern.state import GameState, Ruling
from engine.rulesets.lote_modern.text import number
from engine.rulesets.lote_modern.world import CampaignMap

RULE_CODES = ("R", "RULE")     # the basic rulebook's Rule action: the King's Administration counts (6.1)
SEARCH_PAST = 6                # CCR points traced beyond the radius, to show the GM the near misses


def review(state: GameState, orders: Mapping[str, Sequence[str]]) -> list[Ruling]:
    """Every end-of-turn item for the GM, nations in seat order."""
    out = encounters(state)
    for n in state.nations.values():
        out += coaling(state, n)
        if n.is_house:
            out += control_web(state, n)
        else:
            out += command_radius(state, n, ruling=king_rules(n, orders.get(n.name, ())))
    return out


def encounters(state: GameState) -> list[Ruling]:
    """Armies of different nations in one place: a battle, a siege, or a meeting, as the GM rules."""
    at: dict[str, list[tuple[str, Army]]] = defaultdict(list)
    for n in state.nations.values():
        for army in n.armies:
            if army.units:
                at[army.location].append((n.name, army))
    out = []
    for place, present in sorted(at.items()):
        nations = sorted({name for name, _ in present})
        if len(nations) < 2:
            continue
        forces = "; ".join(f"{name}: {army.name} ({format_units(army.units)}, status {army.status})"
                           for name, army in present)
        owner = [m.name for m in state.nations.values()
                 if (h := accounts.holding_of(m, state.world, place)) is not None and statuses.get(h.status).tax > 0]
        held = f"; held by {', '.join(owner)}" if owner else ""
        out.append(Ruling(0, "", "battle", f"Forces of {', '.join(nations)} meet at {place} ({forces}){held}: "
                                           "battle, siege or peaceful meeting?",
                          tables=["Basic Rulebook combat", "Table 2-4 army status"], parties=nations))
    return out


def coaling_ports(n: Nation, world: CampaignMap) -> list[str]:
    """Ports that coal the nation's steamships: held at Tributary or better (a House: Branch Office or better)."""
    out = []
    for c in n.cities:
        city = world.cities.get(c.city)
        if city is None or not city.port:
            continue
        info = statuses.get(c.status)
        if (info.ladder == "nation" and statuses.at_least(c.status, "T")) or (info.ladder != "nation" and info.anchor):
            out.append(c.city)
    return out


def coaling(state: GameState, n: Nation) -> list[Ruling]:
    """Steamship fleets at sea beyond their operating range from a coaling port (LotE 3.2.1.2.2), with the losses
    the attrition rate gives; the GM confirms them against the fleet's movement."""
    world = state.world
    reach_ap = military.steamship_operating_range(n.tech_level)
    percent = int(state.options.get("steamship-attrition-percent", 25))
    rate = Fraction(percent, 100)
    ports = coaling_ports(n, world)
    out = []
    for army in n.armies:
        if army.location not in world.zones:
            continue
        steam = {code: count for code, count in army.units.items() if not code.startswith("(") and _steam(n, code)}
        if not steam:
            continue
        distances = reach.sea_ap(world, army.location, ports)
        nearest = min(distances.items(), key=lambda item: item[1]) if distances else None
        if nearest is not None and nearest[1] <= reach_ap:
            continue
        if nearest is None:
            text = (f"{n.name}'s {army.name} ({format_units(steam)}) at {army.location} has no coaling port it can "
                    f"reach (operating range {reach_ap} AP): rule the AP it spent beyond range and its losses, "
                    f"{percent}% an AP (LotE 3.2.1.2.2).")
        else:
            beyond = int(nearest[1]) - reach_ap
            losses = {code: military.steamship_attrition_losses(count, beyond, rate=rate)
                      for code, count in steam.items()}
            lost = format_units({c: k for c, k in losses.items() if k})
            text = (f"{n.name}'s {army.name} ({format_units(steam)}) at {army.location} is {number(nearest[1])} AP "
                    f"from its nearest coaling port ({nearest[0]}), {beyond} beyond its operating range of "
                    f"{reach_ap} AP (Tech Level - 10): at {percent}% an AP it loses {lost} (LotE 3.2.1.2.2); "
                    f"`edit {n.name} army[{army.name}].units -{lost}` as you rule.")
        out.append(Ruling(0, n.name, "attrition", text, tables=["LotE 3.2.1.2.2 Steamship Range"]))
    return out


def _steam(n: Nation, code: str) -> bool:
    try:
        return "Steamship Yard" in military.unit(code, accounts.culture(n)).build_at
    except RulesError:
        return False


def king_rules(n: Nation, lines: Iterable[str]) -> bool:
    king = n.king()
    if king is None:
        return False
    for line in lines:
        if not line.lower().startswith("action "):
            continue
        order = parse_order(line)
        if isinstance(order, LeaderAction) and order.leader == king.name and order.code in RULE_CODES:
            return True
    return False


def command_radius(state: GameState, n: Nation, *, ruling: bool) -> list[Ruling]:
    """Regions the CCR does not reach at the end of the turn (LotE 6.1, 6.1.1): they may revolt."""
    world = state.world
    king = n.king()
    origin = world.cities[n.capital].region if n.capital in world.cities else (
        reach.node(world, king.location) if king and king.location else n.homeland)
    if not origin:
        return []
    ccr = command.command_control_radius(n.bureaucratic_level, king.admin if king else 0, king_ruling=ruling,
                                         options=campaign.command_options(state.options))
    conduits = [command.Conduit(world.cities[c.a].region, world.cities[c.b].region,
                                accounts.anchor_ok(state, n, c.a) and accounts.anchor_ok(state, n, c.b))
                for c in n.conduits if c.a in world.cities and c.b in world.cities]
    unsettled = [r.name for r in world.regions.values() if r.people in ("P", "N", "B")]
    tsetse = [r.name for r in world.regions.values() if "tsetse" in r.features]
    # trace_ccr's tracing (rules/command.py, LotE 6.1.1), stopped a little past the radius: the GM sees how far
    # the near misses are, and the far side of a large map is not searched for every nation.
    shortcuts = [command.Link(end, other, kind="conduit") for c in conduits if c.complete
                 for end, other in ((c.a, c.b), (c.b, c.a))]
    costs = command.shortest_costs(origin, [*reach.links(state, n), *shortcuts],
                                   command.ccr_costs(unsettled=unsettled, tsetse=tsetse), limit=ccr + SEARCH_PAST)
    held = sorted(accounts.held_regions(n, world))
    away = command.out_of_control(costs, held, ccr)
    if not away:
        return []
    detail = ", ".join(f"{r} ({number(costs[r]) if r in costs else f'over {ccr + SEARCH_PAST}'})" for r in away)
    king_part = f" + {king.name}'s Administration {king.admin}" if king and ruling else ""
    return [Ruling(0, n.name, "ccr", f"{n.name}'s CCR is {ccr} (BL {n.bureaucratic_level}{king_part}) from {origin}; "
                                     f"beyond it: {detail}. Check them for revolt (LotE 6.1.1).",
                   tables=["Table 6-1 CCR Costs Supplement", "Basic Rulebook revolt"])]


def isolated(state: GameState, n: Nation) -> list[merchant.Site]:
    """A House's sites that no chain of its sites reaches within the Action Range (LotE 7.3.7)."""
    world = state.world
    options = campaign.merchant_options(state.options)
    sites = [merchant.Site(h.city if hasattr(h, "city") else h.region, h.status)
             for h in n.holdings() if statuses.is_merchant(h.status)]
    if not sites:
        return []
    regular = [h.city if hasattr(h, "city") else h.region for h in n.holdings()
               if statuses.get(h.status).ladder == "nation" and statuses.at_least(h.status, "T")]
    graph = reach.links(state, n)
    reach_range = merchant.action_range(n.tech_level, options)
    cache: dict[str, dict[str, float]] = {}

    def within(location: str) -> Mapping[str, float]:
        start = reach.node(world, location)
        if start not in cache:
            by_region = command.shortest_costs(start, graph, limit=reach_range)
            cache[start] = {place: by_region[reach.node(world, place)] for place in
                            {*(s.location for s in sites), *regular} if reach.node(world, place) in by_region}
        return cache[start]

    return merchant.isolated_sites(sites, tributary_or_better=regular, reach=within, action_range_ap=reach_range,
                                   options=options)


def control_web(state: GameState, n: Nation) -> list[Ruling]:
    """Merchant House sites no chain of sites reaches within the Action Range: each degrades a level (7.3.7)."""
    cut = isolated(state, n)
    if not cut:
        return []
    reach_range = merchant.action_range(n.tech_level, campaign.merchant_options(state.options))
    proposals = []
    for site in cut:
        after = merchant.degrade(site)
        proposals.append(f"{site.location} {site.code} → {after.code if after else 'gone'}")
    return [Ruling(0, n.name, "control web", f"{n.name}'s sites out of reach of its control web (Action Range "
                                            f"{reach_range} AP): {'; '.join(proposals)}. Each degrades one level "
                                            "this turn (LotE 7.3.7); `edit` the sheet as you rule.",
                   tables=["LotE 7.3.7 Controlling the Domains of a Merchant House"])]
