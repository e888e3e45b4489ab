"""Order handlers for cartel trade (LotE 7.1.3) and gold sent between nations.

A nation grants a Merchant House the right to carry its sea trade with a target nation; from the next turn
the House may open the route with its own MSP, Trade Range and conduits. The House collects the income at
the end of each turn and passes on the nation's share with `pay`, which reaches the nation to spend the
following turn. Revoking the rights returns the route to the nation; they pass to another House a turn later.
"""

from __future__ import annotations

from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, statuses
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, nation_named, place_named, refuse_if
from engine.rulesets.lote_modern.orders import CartelOrder, Pay
from engine.rulesets.lote_modern.rules import mercantile, trade
from engine.rulesets.lote_modern.sheet import Nation
from engine.rulesets.lote_modern.shipping import check_basing
from engine.rulesets.lote_modern.state import Cartel, GameState
from engine.rulesets.lote_modern.text import number

OK = Verdict.ACCEPTED
RULE = "LotE 7.1.3 Cartel Trade"


def _nation(ctx: Ctx, name: str, what: str) -> Nation:
    try:
        return nation_named(ctx, name, besides=ctx.n)
    except Refused as exc:
        raise Refused(f"{exc} ({what})") from None


def find(state: GameState, house: str, nation: str, target: str, *statuses_: str) -> Cartel | None:
    return next((c for c in state.cartels if (c.house, c.nation, c.target) == (house, nation, target)
                 and c.status in statuses_), None)


def _house_status(n: Nation, city: str) -> str | None:
    holding = n.city(city)
    return holding.status if holding is not None and statuses.is_merchant(holding.status) else None


def cartel(ctx: Ctx, o: CartelOrder) -> Outcome:
    if o.verb in ("grant", "revoke"):
        return _rights(ctx, o)
    return _carry(ctx, o) if o.verb == "carry" else _drop(ctx, o)


def _rights(ctx: Ctx, o: CartelOrder) -> Outcome:
    """The Cartel nation grants or revokes the House's right to carry its trade with the target."""
    n, state = ctx.n, ctx.state
    if n.is_house:
        raise Refused("a Merchant House's own trade is not cartel trade; a House carries another nation's (LotE 7.1.3)")
    house = _nation(ctx, o.party, "the Merchant House")
    if not house.is_house:
        raise Refused(f"{house.name} is not a Merchant House")
    target = _nation(ctx, o.target, "the target nation")
    if o.verb == "revoke":
        found = find(state, house.name, n.name, target.name, "granted", "open")
        if found is None:
            raise Refused(f"{house.name} holds no cartel rights to your trade with {target.name}")
        ctx.budget.revoked.add(target.name)
        if ctx.apply:
            found.status, found.turn, msp = "revoked", state.turn, found.msp
            found.msp = 0
            ctx.report(f"Cartel rights for your trade with {target.name} revoked from {house.name}: the route is "
                       "yours to carry again (LotE 7.1.3).")
            ctx.tell(house.name, f"{n.name} revoked your cartel rights to its trade with {target.name}; "
                                 f"{msp} MSP return to you (LotE 7.1.3).")
        return Outcome(OK, f"{house.name} no longer carries your trade with {target.name}; the rights may pass to "
                           "another House from next turn (LotE 7.1.3)")
    route = n.route(target.name)
    if target.is_house:
        raise Refused(f"your trade with {target.name}, a Merchant House, cannot be carried by a second House ({RULE})")
    if route is not None and route.open and route.kind in ("land", "rail"):
        raise Refused(f"your trade with {target.name} goes by land: a House does not carry land trade ({RULE})")
    if target.name in ctx.budget.revoked or any(c.nation == n.name and c.target == target.name
                                                and c.status == "revoked" and c.turn == state.turn
                                                for c in state.cartels):
        raise Refused(f"rights revoked this turn pass to a House from the following turn ({RULE})")
    held = next((c for c in state.cartels if c.nation == n.name and c.target == target.name
                 and c.status in ("granted", "open")), None)
    if held is not None:
        raise Refused(f"{held.house} already holds the rights to your trade with {target.name}")
    if ctx.apply:
        state.cartels.append(Cartel(state.take_id(), house.name, n.name, target.name, "granted", state.turn))
        ctx.report(f"Cartel rights for your trade with {target.name} granted to {house.name} (LotE 7.1.3).")
        ctx.tell(house.name, f"{n.name} grants you cartel rights to its sea trade with {target.name}: open it from "
                             f"next turn with `cartel carry {n.name} {target.name} from <port> to <port> <MSP>msp at "
                             "<base port>` (LotE 7.1.3).")
    return Outcome(OK, f"{house.name} may carry your sea trade with {target.name} from next turn, with its own "
                       "shipping; it collects the gold and passes on your share (LotE 7.1.3)")


def _carry(ctx: Ctx, o: CartelOrder) -> Outcome:
    """The House opens the route it holds the rights to, with its own MSP, Trade Range and conduits."""
    n, state, world = ctx.n, ctx.state, ctx.world
    if not n.is_house:
        raise Refused("only a Merchant House carries cartel trade (LotE 7.1.3)")
    nation = _nation(ctx, o.party, "the Cartel nation")
    target = _nation(ctx, o.target, "the target nation")
    rights = find(state, n.name, nation.name, target.name, "granted", "open")
    if rights is None or (rights.status == "granted" and rights.turn >= state.turn):
        raise Refused(f"{nation.name} has not granted you cartel rights to its trade with {target.name} on an "
                      "earlier turn (LotE 7.1.3)")
    if rights.status == "open":
        raise Refused(f"you carry {nation.name}'s trade with {target.name} already")
    ports = []
    for name in (o.port, o.target_port, o.base):
        key = place_named(ctx, name, ("city",), why="a cartel works from port cities")
        if not world.cities[key].port:
            raise Refused(f"`{key}` is not a port city")
        ports.append(key)
    port, target_port, base = ports
    if o.msp < 1:
        raise Refused("a route carries at least 1 MSP (LotE 2.8.3.3)")
    if o.msp > ctx.budget.msp:
        raise Refused(f"{ctx.budget.msp} MSP are free to allocate; this takes {o.msp}")
    # Whether a House carries the other side is another nation's arrangement: looked at only at processing.
    other_side = ctx.apply and any(c.nation == target.name and c.target == nation.name and c.status == "open"
                                   for c in state.cartels)
    limit = accounts.basing_limit(state, n, base)
    room = max(0.0, limit - accounts.msp_based(state, n, base))
    refuse_if(mercantile.check_cartel_route(
        house_status_in_cartel_port=_house_status(n, port), house_status_in_target_port=_house_status(n, target_port),
        target_is_house=target.is_house, other_side_carried_by_house=other_side,
        base_port_status=_house_status(n, base), base_port_free_msp=room, msp=float(o.msp)), RULE)
    check_basing(ctx, base, o.msp)
    anchors = {c for conduit in n.conduits for c in (conduit.a, conduit.b)} & accounts.anchors(state, n)
    traced = trade.trace_sea_route(accounts.sea_map(world), origins=[port], anchors=anchors | {port},
                                   target=target_port, trade_range=n.trade_range, conduit_limit=n.conduit_limit,
                                   access=accounts.sea_access(state, n))
    if traced is None:
        raise Refused(f"you cannot trace {port} to {target_port} through your own conduits (at most "
                      f"{n.conduit_limit}) and a last stretch within your Trade Range {n.trade_range} (LotE 7.1.3)")
    length = max(1, sum(len(leg.zones) for leg in traced.legs))
    ctx.budget.msp -= o.msp
    if ctx.apply:
        rights.status, rights.turn = "open", state.turn
        rights.nation_port, rights.target_port, rights.base_port = port, target_port, base
        rights.msp, rights.length = o.msp, length
        rights.conduits = [f"{a}-{b}" for a, b in zip(traced.anchors, traced.anchors[1:], strict=False)]
        own = nation.route(target.name)
        if own is not None and own.open and own.kind == "sea":
            own.open, returned = False, own.msp
            own.msp = 0
            ctx.tell(nation.name, f"{n.name} now carries your sea trade with {target.name}: your own route closes "
                                  f"and its {returned} MSP return to port (LotE 7.1.3).")
        else:
            ctx.tell(nation.name, f"{n.name} now carries your sea trade with {target.name} (LotE 7.1.3).")
        ctx.report(f"Cartel #{rights.id}: {nation.name}'s trade with {target.name} carried from {port} to "
                   f"{target_port}, {o.msp} MSP based at {base} ({length} zones).")
        ctx.ruling("trade", f"{n.name} opened cartel trade #{rights.id}: {nation.name}'s sea trade with {target.name}, "
                            f"{port} to {target_port}, {o.msp} MSP at {base}, {length} zones, {traced.conduits} "
                            f"conduits, NMV {number(n.nmv)}, Trade Range {n.trade_range}: assess its income "
                            f"(`edit {n.name} cartel[{rights.id}].income =<GP>`); the House collects it (LotE 7.1.3).",
                   parties=[n.name, nation.name], tables=[RULE])
    emsp = trade.effective_msp(o.msp, n.trade_range, length)
    return Outcome(OK, f"{nation.name}'s trade with {target.name}: {port} to {target_port}, {traced.conduits} "
                       f"conduit(s), {length} zones, {o.msp} MSP at {base} ({number(emsp)} effective); the GM "
                       "assesses its income, which you collect and share with `pay` (LotE 7.1.3)")


def _drop(ctx: Ctx, o: CartelOrder) -> Outcome:
    n, state = ctx.n, ctx.state
    if not n.is_house:
        raise Refused("a nation revokes cartel rights with `cartel revoke <house> <target>`")
    nation = _nation(ctx, o.party, "the Cartel nation")
    target = _nation(ctx, o.target, "the target nation")
    found = find(state, n.name, nation.name, target.name, "granted", "open")
    if found is None:
        raise Refused(f"you hold no cartel rights to {nation.name}'s trade with {target.name}")
    ctx.budget.msp += found.msp
    if ctx.apply:
        state.cartels.remove(found)
        ctx.report(f"Cartel #{found.id} given up: {nation.name}'s trade with {target.name}; {found.msp} MSP return.")
        ctx.tell(nation.name, f"{n.name} gives up carrying your trade with {target.name} (LotE 7.1.3).")
    return Outcome(OK, f"you give up {nation.name}'s trade with {target.name}; its {found.msp} MSP return")


def pay(ctx: Ctx, o: Pay) -> Outcome:
    other = _nation(ctx, o.nation, "to pay")
    ctx.spend(o.gp, what=f"paying {other.name}")
    if ctx.apply:
        other.gp = round(other.gp + o.gp, 2)
        ctx.report(f"Paid {other.name} {number(o.gp)} GP.")
        ctx.tell(other.name, f"{ctx.n.name} paid you {number(o.gp)} GP (in your treasury for next turn).")
    return Outcome(OK, f"{number(o.gp)} GP to {other.name}, in its treasury for next turn")


def view_lines(state: GameState, n: Nation) -> list[str]:
    """The cartel arrangements on a sheet: the House's and the Cartel nation's."""
    out = []
    for c in state.cartels_of(n.name):
        if c.status == "revoked":
            continue
        if c.status == "granted":
            who = f"rights to {c.nation}'s trade with {c.target}" if c.house == n.name else \
                f"your trade with {c.target} granted to {c.house}"
            out.append(f"- Cartel #{c.id}: {who}, not yet carried")
            continue
        house = state.nation(c.house)
        eff = trade.effective_msp(c.msp, house.trade_range, c.length) if c.length else 0
        route = f"{c.nation_port} to {c.target_port}, {c.length} zones"
        if c.house == n.name:
            out.append(f"- Cartel #{c.id}: {c.nation}'s trade with {c.target}, {route}, {c.msp} MSP at {c.base_port} "
                       f"({number(eff)} effective); income {number(c.income)} GP, {c.nation}'s share yours to pay")
        else:
            out.append(f"- Cartel #{c.id}: {c.house} carries your trade with {c.target}, {route}; its gold goes to "
                       f"{c.house}, who pays your share")
    return out
