"""What each viewer reads: a nation's own sheet, the GM's desk, the public newsletter (markdown)."""

from __future__ import annotations

from engine.rulesets.lote_modern import accounts, campaign, statuses
from engine.rulesets.lote_modern.handlers import cartels, mercenaries
from engine.rulesets.lote_modern.rules import banking, military, research
from engine.rulesets.lote_modern.rules.trade import SeaRating, effective_msp, sea_rating_maximum
from engine.rulesets.lote_modern.sheet import CULTURE_NAMES, NATION_TYPE_NAMES, Nation, format_units
from engine.rulesets.lote_modern.state import GameState, Ruling, TurnReport
from engine.rulesets.lote_modern.text import number
from engine.rulesets.lote_modern.world import TERRAIN_NAMES


def _join(items: list[str], empty: str = "none") -> str:
    return " · ".join(items) if items else empty


def calendar(state: GameState) -> str:
    length = accounts.turn_length(state)
    return (f"turn {state.turn}, {accounts.date_text(state.year, state.month)} ({length} a turn, base tax "
            f"{float(length.base_tax_rate):.0%})")


def _project_name(key: str) -> str:
    info = research.research_projects().get(key)
    return info.name if info else key


def sheet(state: GameState, n: Nation) -> str:
    """A nation's stat sheet (LotE 8.1), compact but complete."""
    world = state.world
    zone = accounts.hbz(state, n)
    ledger, income = accounts.income(state, n)
    upkeep = accounts.upkeep(state, n)
    rate = accounts.tax_rate(state, n)
    out = [f"## {n.name} — {NATION_TYPE_NAMES[n.type]}",
           f"{CULTURE_NAMES[n.culture]}, Tech Level {n.tech_level} · {n.religion or 'no religion'} "
           f"(RS {n.religious_strength})" + "".join(f" · {x}" for x in (n.society, n.economy, n.government) if x),
           f"{calendar(state).capitalize()}; tax rate {rate:.1%}",
           f"**Treasury** {number(n.gp)} GP, {n.nfp} NFP (+{n.nfp_income} NFP a turn) · **Upkeep** "
           f"{number(upkeep.total)} GP · **Income** {number(income)} GP ({number(ledger.total)} × {rate:.1%}: "
           + ", ".join(f"{k} {number(v)}" for k, v in ledger.lines)
           + f") · **ITV** {number(accounts.trade_value(state, n))}",
           f"**Government** capital {n.capital or 'none'} · homeland {n.homeland or 'none'} · BL {n.bureaucratic_level}"
           f" · Imperial Size {n.imperial_size} · NMV {number(n.nmv)} · HBZ {n.hbz_range}: {', '.join(sorted(zone))}"]
    try:
        caps = military.max_quality_ratings(accounts.culture(n), n.tech_level)
        cap = {k: getattr(caps, k) for k in ("cavalry", "infantry", "warship", "siege", "artillery")}
    except Exception:
        cap = {}
    ratings = [f"{k} {v}" + (f"/{cap[k]}" if k in cap else "") for k, v in n.qr.items()]
    for label, value, rating in (("navigation", n.navigation, SeaRating.NAVIGATION),
                                 ("trade range", n.trade_range, SeaRating.TRADE_RANGE),
                                 ("conduit limit", n.conduit_limit, SeaRating.CONDUIT_LIMIT)):
        ratings.append(f"{label} {value}/{sea_rating_maximum(rating, n.tech_level)}")
    invested = [f"{k} {number(v)} GP" for k, v in n.invested.items()]
    out.append(f"**Ratings** {_join(ratings)}" + (f" · invested toward: {', '.join(invested)}" if invested else ""))
    regions = []
    for h in n.regions:
        r = world.regions[h.region]
        extra = [f"PWB {number(h.pwb)}"] if h.pwb else []
        extra += [f"{k} {v}" for k, v in h.factories.items()] + [f"hidden {k} {v}" for k, v in h.hidden.items()]
        regions.append(f"{r.name} ({r.terrain} {r.gpv} GPv, {statuses.get(h.status).name}, {r.religion or '-'}"
                       + (f", {', '.join(extra)}" if extra else "") + ")")
    out.append(f"**Regions** {_join(regions)}")
    cities = []
    for c in n.cities:
        city = world.cities[c.city]
        extra = [f"PWB {number(c.pwb)}"] if c.pwb else []
        extra += [f"{k} {v}" for k, v in c.factories.items()] + [f"hidden {k} {v}" for k, v in c.hidden.items()]
        cities.append(f"{city.name} ({city.gpv} GPv{' port' if city.port else ''}, {statuses.get(c.status).name}"
                      + (f", {', '.join(extra)}" if extra else "") + ")")
    out.append(f"**Cities** {_join(cities)}")
    out.append("**Armies**" + ("" if n.armies else " none"))
    for a in n.armies:
        led = f", led by {a.leader}" if a.leader else ""
        out.append(f"- {a.name} at {a.location} ({a.status}){led}: {format_units(a.units)}")
    out.append(f"**Reserves** {format_units(n.reserves) if n.reserves else 'none'}")
    leaders = [f"{x.name} ({x.title}{'' if x.allegiance == 'national' else ', ' + x.allegiance}; combat {x.combat}, "
               f"admin {x.admin}, charisma {x.charisma}, diplomacy {x.diplomacy}; age {x.age}; at {x.location or '?'}; "
               f"{accounts.leader_ap(state, n, x)} AP)" for x in n.leaders]
    out.append(f"**Leaders** {_join(leaders)}")
    projects = []
    for p in n.projects:
        if p.done:
            continue
        if p.kind == "rd":
            projects.append(f"{p.id} R&D {_project_name(p.name)} at {p.location}: {p.advances}/{p.advances_needed} "
                            f"Advances; {number(p.gp)} GP, {p.nfp} NFP, {number(p.years)} years invested")
        elif p.kind == "colony":
            projects.append(f"{p.id} colony {p.name}: {p.advances}/{p.level} GPv settled; {number(p.gp)} GP, "
                            f"{p.nfp} NFP toward the next")
        else:
            projects.append(f"{p.id} {p.kind} {p.name} at {p.location}: {number(p.gp)}/{number(p.gp_cost)} GP, "
                            f"{p.nfp}/{p.nfp_cost} NFP, {number(p.years)}/{number(p.years_cost)} years")
    out.append(f"**Projects** {_join(projects)}")
    if n.completed:
        out.append(f"**Completed** {', '.join(_project_name(k) for k in n.completed)}")
    yards: dict[str, list[str]] = {}
    for (place, kind), points in sorted(accounts.yard_capacity(state, n).items()):
        yards.setdefault(place, []).append(f"{kind} {points}")
    out.append(f"**Yard capacity** {_join([f'{p}: ' + ', '.join(v) for p, v in yards.items()])}")
    out += _bank(state, n)
    out += _trade(state, n)
    monopolies = [f"#{m.id} {m.good or 'unnamed'} in {m.nation} ({m.kind})" if m.house == n.name
                  else f"#{m.id} {m.good or 'unnamed'} held by {m.house} ({m.kind})"
                  for m in state.monopolies_of(n.name)]
    if monopolies:
        out.append(f"**Monopolies** {_join(monopolies)}")
    if n.charts or n.mapping:
        out.append(f"**Charts** {', '.join(n.charts) or 'none'}"
                   + (" · mapping " + ", ".join(f"{z} {v}/{world.zones[z].mapping}" for z, v in n.mapping.items())
                      if n.mapping else ""))
    if n.brokerages:
        owed = "; ".join(f"{label} {number(amount)} GP a turn" for label, amount in accounts.brokerage_upkeep(state, n))
        out.append(f"**Mercenary brokerages** {', '.join(n.brokerages)}" + (f" (upkeep: {owed})" if owed else ""))
    pools = mercenaries.view_line(state)
    if pools:
        out.append(pools)
    if n.notes:
        out.append(f"**Notes** {n.notes}")
    return "\n".join(out)


def _bank(state: GameState, n: Nation) -> list[str]:
    out = []
    bank = n.bank
    if bank is not None:
        options = campaign.banking_options(state.options)
        capacity = banking.loan_capacity(bank, state.turn, options=options)
        lent = sum(x.principal for x in state.loans if x.lender == n.name)
        shut = f"; closed to {', '.join(sorted(bank.closed_to))}" if bank.closed_to else ""
        status = banking.bank_status(bank)
        line = (f"**Bank** {status}; capacity {number(capacity)} (base {number(bank.base_capacity)} + invested "
                f"{number(bank.investment)}); rates {bank.internal_rate:.0%} / {bank.external_rate:.0%}; "
                f"{number(lent)} GP lent{shut}")
        if bank.collapsed:
            line += f"; COLLAPSED: rebuilding {number(bank.rebuild_paid)}/{number(banking.rebuild_cost(bank))} GP paid"
        out.append(line)
    penalty = banking.tax_rate_reduction(state.tax_penalties, n.name, state.turn)
    if penalty:
        out.append(f"- Tax rate cut by {penalty:.0%} this turn after defaults on your bank (LotE 6.2.6)")
    for x in state.loans:
        if x.lender == n.name and x.borrower != n.name:
            out.append(f"- Loan {x.id} to {x.borrower}: {number(x.principal)} GP at {x.rate:.0%}, "
                       f"{number(x.owed)} due turn {x.due_turn}")
        if x.borrower == n.name:
            out.append(f"- Loan {x.id} owed to {x.lender}: {number(x.principal)} GP at {x.rate:.0%}, "
                       f"{number(x.owed)} due turn {x.due_turn}")
    defaulted = [x for x in state.defaults if x.borrower == n.name]
    if defaulted:
        payment = banking.penalty_payment(defaulted, campaign.banking_options(state.options))
        out.append(f"- In default: penalty payment {number(payment)} GP restores borrowing")
    return out


def _trade(state: GameState, n: Nation) -> list[str]:
    free = accounts.msp_free(state, n)
    extra = f"; {n.steam_msp} steam MSP ({accounts.steam_free(n)} free)" if n.steam_msp else ""
    extra += f"; {n.aerial_msp} aerial MSP ({accounts.aerial_free(n)} free)" if n.aerial_msp else ""
    out = [f"**Trade** {n.msp} MSP ({n.msp - free} on routes, {free} free){extra}"]
    for r in n.routes:
        if not r.open:
            continue
        if r.kind == "sea":
            eff = effective_msp(r.msp, n.trade_range, r.length) if r.length else 0
            via = f", via {', '.join(r.conduits)}" if r.conduits else ""
            cartel = f", carried for {r.cartel_for}" if r.cartel_for else ""
            steam = f" ({r.steam} steam)" if r.steam else ""
            out.append(f"- {r.partner}: sea from {r.base_port} to {r.target_port}, {r.msp} MSP{steam} "
                       f"({number(eff)} effective), {r.length} zones{via}{cartel}; income {number(r.income)} GP")
        elif r.kind == "aerial":
            out.append(f"- {r.partner}: aerial, {' - '.join([*r.conduits, r.target_port])}, {r.msp} aerial MSP, "
                       f"{r.length} hops; income {number(r.income)} GP")
        elif r.kind == "overland":
            out.append(f"- {r.partner}: overland from {r.base_port} through {'; '.join(r.conduits)} to "
                       f"{r.target_port}, {r.msp} MSP, length {r.length}; income {number(r.income)} GP")
        else:
            out.append(f"- {r.partner}: {r.kind} trade; income {number(r.income)} GP")
    out += cartels.view_lines(state, n)
    for c in n.conduits:
        out.append(f"- Conduit {c.key}: {', '.join(c.zones)}")
    if n.railroads:
        out.append("- Railroads: " + ", ".join(f"{s.a}-{s.b} ({s.levels})" for s in n.railroads))
    based = {r.base_port for r in n.routes if r.open and r.base_port} | {c.base_port for c in state.carried_by(n.name)}
    if based:
        out.append("- Basing: " + ", ".join(f"{p} {accounts.msp_based(state, n, p)}/"
                                            f"{number(accounts.basing_limit(state, n, p))}" for p in sorted(based)))
    return out


def turn_result(state: GameState, report: TurnReport, name: str) -> str:
    """A nation's private turn result: what the bot did, its rolls, the GM's rulings for it, its new sheet."""
    out = [f"**{state.title} — turn {report.turn} results for {name}**"]
    out += [f"- {line}" for line in report.lines.get(name, [])]
    rolls = report.rolls.get(name, [])
    if rolls:
        out.append("**Rolls** " + "; ".join(rolls))
    mine = [r for r in report.rulings if name in r.parties or r.nation == name]
    if mine:
        out.append("**Rulings**")
        out += [f"- {_label(r, name)}: {r.ruling}" for r in mine]
    out.append("")
    out.append(sheet(state, state.nations[name]))
    return "\n".join(out)


def _label(r: Ruling, viewer: str) -> str:
    """What a party is told the ruling is about: the full item only for the nation that caused it."""
    if r.nation == viewer:
        return f"#{r.id} {r.brief or r.text}"
    return f"#{r.id} ({r.kind})"


def newsletter(state: GameState, report: TurnReport, turn: int) -> str:
    """The public newsletter: only what the GM chose to make public, and the calendar."""
    out = [f"**{state.title} — the news of turn {turn}**"]
    items = list(state.pending_news) + [r.ruling for r in report.rulings if r.public]
    out += [f"- {item}" for item in items] or ["- No news reached the coffee houses this turn."]
    out.append(f"Orders are open for {calendar(state)}.")
    return "\n".join(out)


def gm_desk(state: GameState) -> str:
    """The GM's view: every nation's accounts, the rulings waiting, recent edits, then every sheet."""
    out = [f"**{state.title}** — {calendar(state)}; stage: {state.stage}"]
    for n in state.nations.values():
        _, income = accounts.income(state, n)
        out.append(f"- {n.name} ({NATION_TYPE_NAMES[n.type]}): {number(n.gp)} GP, {n.nfp} NFP; upkeep "
                   f"{number(accounts.upkeep(state, n).total)}; income {number(income)}")
    report = state.report
    if report is not None:
        out.append(f"**Turn {report.turn}: {len(report.open())} of {len(report.rulings)} items await a ruling**")
        for r in report.rulings:
            mark = "✓" if r.ruled else "•"
            out.append(f"{mark} #{r.id} [{r.kind}] {r.text}")
            if r.rolls:
                out.append(f"  rolls: {'; '.join(r.rolls)}")
            if r.tables:
                out.append(f"  tables: {'; '.join(r.tables)}")
            if r.ruled:
                out.append(f"  ruling{' (public)' if r.public else ''}: {r.ruling}")
        for name, lines in report.lines.items():
            out.append(f"**{name}** " + " | ".join(lines))
    if state.pending_news:
        out.append("**News for the next newsletter** " + " | ".join(state.pending_news))
    if state.audit:
        out.append("**Recent edits** " + " | ".join(f"T{a.turn} {a.text}" for a in state.audit[-10:]))
    for n in state.nations.values():
        out.append("")
        out.append(sheet(state, n))
    return "\n".join(out)


def public_summary(state: GameState) -> str:
    """What a spectator sees: the campaign, its date and nations, and the last newsletter."""
    world = state.world
    terrains = ", ".join(sorted({TERRAIN_NAMES[r.terrain] for r in world.regions.values()}))
    out = [f"**{state.title}** — {calendar(state)}",
           f"Nations: {', '.join(state.nations)}",
           f"Map: {len(world.regions)} regions ({terrains}), {len(world.cities)} cities, {len(world.zones)} sea zones"]
    if state.newsletters:
        out += ["", state.newsletters[-1]]
    return "\n".join(out)
