"""What an order handler works with: the nation's sheet, the `Budget` the lines so far have left, and a `Ctx`
that spends from both; `Refused` is how a handler says no.

A `Budget` carries what earlier lines used: GP, NFP, yard capacity, leader AP, shipping, units.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import OrderError, RulesError
from engine.core.names import Names as Forgiving
from engine.core.names import UnknownName
from engine.core.orders import Verdict
from engine.core.rng import Dice
from engine.core.visibility import GM_ONLY, Visibility
from engine.rulesets.lote_modern import accounts, campaign
from engine.rulesets.lote_modern.grammar import Names
from engine.rulesets.lote_modern.orders import LoanOrder, Order
from engine.rulesets.lote_modern.rules.banking import BankingOptions
from engine.rulesets.lote_modern.rules.merchant import MerchantOptions
from engine.rulesets.lote_modern.sheet import CityHolding, Leader, Nation, RegionHolding, fold
from engine.rulesets.lote_modern.state import GameState, Ruling
from engine.rulesets.lote_modern.text import number
from engine.rulesets.lote_modern.world import CampaignMap


class Refused(OrderError):
    """An order the rules do not allow here; the message is shown to the player."""


@dataclass(slots=True)
class Budget:
    """What the lines so far have left to spend."""

    gp: float
    nfp: int
    msp: int
    yard: dict[tuple[str, str], int]
    ap: dict[str, int]
    units: dict[str, dict[str, int]]
    reserves: dict[str, int]
    borrowed: float = 0.0
    placed: set[str] = field(default_factory=set)
    activated: set[str] = field(default_factory=set)
    started: set[str] = field(default_factory=set)
    defaults: set[str] = field(default_factory=set)
    used_gp: float = 0.0
    grown: set[str] = field(default_factory=set)
    cobuilt: dict[str, tuple[float, int]] = field(default_factory=dict)
    revoked: set[str] = field(default_factory=set)
    pools: dict[str, dict[str, int]] = field(default_factory=dict)
    steam: int = 0
    aerial: int = 0
    intervened: bool = False


@dataclass(slots=True)
class Outcome:
    verdict: Verdict
    message: str = ""


class Ctx:
    """One nation's order form being checked (`apply` False) or carried out (`apply` True)."""

    def __init__(self, state: GameState, nation: Nation, budget: Budget, *, apply: bool,
                 dice: Dice | None = None) -> None:
        self.state = state
        self.n = nation
        self.budget = budget
        self.apply = apply
        self.dice = dice
        self.lines: list[str] = []
        self.rulings: list[Ruling] = []
        self.rolls: list[str] = []
        self._hbz: set[str] | None = None
        self.others: dict[str, list[str]] = {}
        self.bids: list[Any] = []   # mercenaries.Bid: served once every nation's orders are in
        self.meant: dict[str, str] = {}  # names typed in this line -> the names they were read as

    # -- shared facts ------------------------------------------------------------------------------
    @property
    def world(self) -> CampaignMap:
        return self.state.world

    @property
    def banking(self) -> BankingOptions:
        return campaign.banking_options(self.state.options)

    @property
    def merchant(self) -> MerchantOptions:
        return campaign.merchant_options(self.state.options)

    @property
    def hbz(self) -> set[str]:
        if self._hbz is None:
            self._hbz = accounts.hbz(self.state, self.n)
        return self._hbz

    @property
    def private(self) -> Visibility:
        return Visibility.to(self.n.name)

    def read_as(self, typed: str, name: str) -> str:
        """Note that `typed` in this line was read as `name` (the accepted line is echoed with the full name)."""
        if typed != name:
            self.meant[typed] = name
        return name

    # -- spending ----------------------------------------------------------------------------------
    def spend(self, gp: float = 0.0, nfp: int = 0, what: str = "this") -> None:
        """Take GP and NFP from the budget (and the treasury when carrying out), or refuse."""
        b = self.budget
        if gp > b.gp + 1e-9:
            raise Refused(f"{what} costs {number(gp)} GP; only {number(max(b.gp, 0))} GP are left "
                          f"after upkeep, loans due and the lines above")
        if nfp > b.nfp:
            raise Refused(f"{what} needs {nfp} NFP; only {b.nfp} NFP are left")
        b.gp -= gp
        b.nfp -= nfp
        b.used_gp += gp
        if self.apply:
            self.n.gp = round(self.n.gp - gp, 2)
            self.n.nfp -= nfp

    def gain(self, gp: float = 0.0, nfp: int = 0) -> None:
        self.budget.gp += gp
        self.budget.nfp += nfp
        if self.apply:
            self.n.gp = round(self.n.gp + gp, 2)
            self.n.nfp += nfp

    def use_ap(self, leader: str, ap: int) -> None:
        have = self.budget.ap.get(leader, 0)
        if ap > have:
            raise Refused(f"{leader} has {have} AP left this turn; this takes {ap}")
        self.budget.ap[leader] = have - ap

    def use_yard(self, place: str, kind: str, points: int, what: str) -> None:
        if points <= 0:
            return
        key = (place, kind)
        have = self.budget.yard.get(key, 0)
        if points > have:
            where = f"{kind} capacity at {place}" if kind != accounts.GENERIC else f"generic yard capacity at {place}"
            raise Refused(f"{what} needs {points} points of {where}; {have} left this turn")
        self.budget.yard[key] = have - points

    def take_units(self, army: str, code: str, count: int) -> None:
        units = self.budget.units.get(army)
        if units is None:
            army = find_army(self, army)
            units = self.budget.units.get(army)
        if units is None:
            raise Refused(f"{self.n.name} has no army `{army}`")
        have = units.get(code, 0)
        if count > have:
            raise Refused(f"{army} has {have}{code}, not {count}")
        units[code] = have - count
        if self.apply:
            live = self.n.army(army)
            if live is not None:
                live.units[code] = live.units.get(code, 0) - count
                if not live.units[code]:
                    del live.units[code]

    # -- results -----------------------------------------------------------------------------------------
    def report(self, line: str) -> None:
        if self.apply:
            self.lines.append(line)

    def tell(self, nation: str, line: str) -> None:
        """A line for another nation's turn result (a loan granted, a monopoly revoked)."""
        if self.apply:
            self.others.setdefault(nation, []).append(line)

    def ruling(self, kind: str, text: str, *, rolls: list[str] | None = None, tables: list[str] | None = None,
               parties: list[str] | None = None, brief: str = "") -> None:
        if self.apply:
            self.rulings.append(Ruling(0, self.n.name, kind, text, rolls or [], tables or [],
                                       parties or [self.n.name], brief=brief))

    def d100(self, purpose: str, *, visibility: Visibility = GM_ONLY) -> int | None:
        if not self.apply or self.dice is None:
            return None
        roll = self.dice.roll(1, 100, purpose=f"{self.n.name}/{purpose}", visibility=visibility)
        if visibility.public or self.n.name in visibility.seats:  # the GM's chance rolls stay the GM's
            self.rolls.append(f"{purpose}: {roll.text()}")
        return roll.total


Handler = Callable[[Ctx, Any], Outcome]


def names_of(n: Nation) -> Names:
    """The multi-word names a nation's lines may use without quotes."""
    return Names(tuple(x.name for x in n.leaders), tuple(a.name for a in n.armies),
                 tuple(p.name for p in n.projects))


def start_budget(state: GameState, n: Nation, parsed: list[Order | None]) -> Budget:
    """What this nation may spend: the treasury less upkeep and the loans due that it does not refuse."""
    refused = {o.loan for o in parsed if isinstance(o, LoanOrder) and o.verb == "default"}
    due = sum(x.owed for x in accounts.loans_due(state, n) if x.id not in refused)
    return Budget(
        gp=round(n.gp - accounts.upkeep(state, n).total - due, 2), nfp=n.nfp, msp=accounts.msp_free(state, n),
        yard=accounts.yard_capacity(state, n),
        ap={x.name: accounts.leader_ap(state, n, x) for x in n.leaders},
        units={a.name: dict(a.units) for a in n.armies}, reserves=dict(n.reserves), defaults=refused,
        steam=accounts.steam_free(n), aerial=accounts.aerial_free(n))


@contextmanager
def citing(rule: str) -> Iterator[None]:
    """A rules module's refusal, with the rule it comes from (any other `RulesError` is refused as it is, by the
    order loop)."""
    try:
        yield
    except Refused:
        raise
    except RulesError as exc:
        raise Refused(f"{exc} ({rule})") from None


def refuse_if(problems: list[str], rule: str) -> None:
    """Refuse with every reason a rules module gave, citing the rule."""
    if problems:
        raise Refused("; ".join(problems) + f" ({rule})")


KIND_WORDS = {("region", "city"): "region or city", ("city",): "city", ("zone",): "sea zone",
              ("region",): "region", ("region", "city", "zone"): "place"}


def place_named(ctx: Ctx, typed: str, kinds: tuple[str, ...] = ("region", "city"), *, why: str = "") -> str:
    """The map's spelling of the place `typed` names among `kinds` (case, accents and a unique prefix forgiven),
    or Refused saying what was meant ("did you mean …?", or the candidates) and `why` that kind was needed.

    An exact name of another kind (a region where a city is wanted) is refused as such, never taken as a prefix."""
    world = ctx.world
    what = KIND_WORDS.get(kinds, "place")
    tail = f": {why}" if why else ""
    exact = world.canonical(typed)
    if exact is not None:
        tables: dict[str, Mapping[str, Any]] = {"region": world.regions, "city": world.cities, "zone": world.zones}
        if any(exact in tables[kind] for kind in kinds):
            return ctx.read_as(typed, exact)
        raise Refused(f"`{exact}` is not a {what}{tail}")
    try:
        return ctx.read_as(typed, world.names(kinds).resolve(typed, what=what))
    except UnknownName as exc:
        raise Refused(f"{exc}{tail}") from None


def holding_at(ctx: Ctx, place: str) -> tuple[str, RegionHolding | CityHolding]:
    """A region or city the nation holds, by any forgiving spelling of its name."""
    key = place_named(ctx, place)
    holding = accounts.holding_of(ctx.n, ctx.world, key)
    if holding is None:
        raise Refused(f"{ctx.n.name} holds nothing at {key}")
    return key, holding


def find_army(ctx: Ctx, name: str) -> str:
    """An army of the nation's by a forgiving spelling of its name; refused with the closest or the candidates."""
    n = ctx.n
    army = n.army(name)
    if army is not None:
        return ctx.read_as(name, army.name)
    try:
        return ctx.read_as(name, Forgiving(a.name for a in n.armies).resolve(name, what="army"))
    except UnknownName as exc:
        listed = ", ".join(a.name for a in n.armies) or "none"
        raise Refused(f"{n.name}: {exc} (armies: {listed})" if len(listed) <= 300 else f"{n.name}: {exc}") from None


def nation_named(ctx: Ctx, typed: str, *, besides: Nation | None = None) -> Nation:
    """A nation of the campaign by a forgiving spelling of its name (not `besides`, the one giving the order)."""
    state = ctx.state
    found = state.find_nation(typed)
    if found is None:
        try:
            found = state.nations[Forgiving(state.nations).resolve(typed, what="nation")]
        except UnknownName as exc:
            raise Refused(str(exc)) from None
    if found is besides:
        raise Refused(f"`{found.name}` is not another nation of this campaign")
    ctx.read_as(typed, found.name)
    return found


def find_leader(ctx: Ctx, name: str) -> Leader:
    """A leader of the nation's by a forgiving spelling of the name; refused with the closest or the candidates."""
    n = ctx.n
    leader = n.leader(name)
    if leader is not None:
        ctx.read_as(name, leader.name)
        return leader
    try:
        found = Forgiving(x.name for x in n.leaders).resolve(name, what="leader")
    except UnknownName as exc:
        listed = ", ".join(x.name for x in n.leaders) or "none"
        raise Refused(f"{n.name}: {exc} (leaders: {listed})" if len(listed) <= 300 else f"{n.name}: {exc}") from None
    leader = n.leader(found)
    assert leader is not None
    ctx.read_as(name, leader.name)
    return leader


def same(a: str, b: str) -> bool:
    return fold(a) == fold(b)
