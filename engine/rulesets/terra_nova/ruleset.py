"""Terra Nova (with the East Indies expansion as an option): the ruleset behind the contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.errors import IllegalAction, OrderError, RulesError
from engine.core.events import Event, Step
from engine.core.orders import OrderCheck
from engine.core.phases import Phase, Window
from engine.core.records import from_data, to_data
from engine.core.rng import Dice
from engine.core.ruleset import Option, OptionValue, Ruleset, SeatRule, Setup, View
from engine.core.tables import Table
from engine.core.visibility import Viewer

# The procedures register themselves with the phase machine when imported.
from engine.rulesets.terra_nova import autoplay as automatic
from engine.rulesets.terra_nova import (  # noqa: F401
    end_of_turn,
    gm,
    indies,
    land,
    natives,
    naval,
    planning,
    render,
    start_of_turn,
    views,
)
from engine.rulesets.terra_nova.checking import check_lines
from engine.rulesets.terra_nova.context import Ctx
from engine.rulesets.terra_nova.execution import report_notes
from engine.rulesets.terra_nova.geography import geography
from engine.rulesets.terra_nova.odds import battle_now, odds_answer
from engine.rulesets.terra_nova.orders import ORDERS_HELP
from engine.rulesets.terra_nova.reference import all_tables, city_kinds, commodities, data, development, starting_price
from engine.rulesets.terra_nova.sequence import advance, close_window, phase_of
from engine.rulesets.terra_nova.state import AreaState, City, Monarch, Power, TNState

POWERS: tuple[str, ...] = tuple(data("powers")["order"])


class TerraNova(Ruleset[TNState]):
    id = "terra-nova"
    version = "1.0"
    title = "Terra Nova"
    options = (
        Option("east_indies", False, "play with the East Indies expansion: second map, factories, commodities"),
        Option("random_events", "ask", "A.3 event cards: the GM draws and applies them (ask) or none (off)",
               choices=("ask", "off")),
        Option("deflation", "ask", "A.2 deflation: the GM rules each turn (ask) or never (off)",
               choices=("ask", "off")),
        Option("uprisings", "ask", "E.2 native uprisings: the GM rules area by area (ask) or none (off)",
               choices=("ask", "off")),
        Option("leader_assignment", "deal", "drawn leaders go round the seats (deal) or the GM assigns extras (gm)",
               choices=("deal", "gm")),
        Option("mortality_roll", "2d6", "mortality dies at or under the Monarch Age number on 2d6 or 1d12",
               choices=("2d6", "1d12")),
        Option("ascension_roll", "1d12", "the Ascendancy roll for a new monarch's age: 1d12 or 2d6",
               choices=("1d12", "2d6")),
        Option("resource_scaling", "era", "resources times the R level (era) or as printed (flat)",
               choices=("era", "flat")),
        Option("bounds_charge", "voyage", "2 florins a bound per voyage or per ship", choices=("voyage", "ship")),
        Option("late_ships_turn", 13, "the turn late ships (fluyt, galleass, galleon) become available",
               minimum=1, maximum=40),
        Option("native_strength", 5, "combat value of one native (one point of native level)", minimum=1,
               maximum=10),
        Option("spoils", "victor", "gold and goods of a side wiped out in a land battle: the victor takes them "
               "(victor) or they are lost (lost)", choices=("victor", "lost")),
        Option("sea_soldiers", "aboard", "soldiers who fight at sea: those who sailed in with the ships this turn "
               "(aboard), or every soldier in the place (all)", choices=("aboard", "all")),
        Option("withdrawal_to", "nearest", "where a withdrawing side retreats: a neighbouring area it holds, else "
               "home on its ships (nearest), or home on its ships first (europe)", choices=("nearest", "europe")),
        Option("r2_mines", "single", "mines and pearl fisheries in R2 areas: yield as the Mines table prints "
               "(single) or doubled like the area's resources (double)", choices=("single", "double")),
        Option("endgame_votes", False, "from turn 17, powers vote each turn; a unanimous vote ends the game"),
        Option("game_end_on", 6, "from turn 21 the game ends on a d6 roll of at least this", minimum=1, maximum=6),
        Option("treasury_vp", 100, "final scoring: one victory point per this many florins (0: none)",
               minimum=0, maximum=10_000),
    )
    orders_help = ORDERS_HELP
    slow_checks = True   # its order checks count the odds of the battles they order

    # -- set-up -------------------------------------------------------------------------------------------------
    def seat_rule(self, options: Mapping[str, OptionValue], files: Mapping[str, str]) -> SeatRule:
        return SeatRule(1, len(POWERS), POWERS)

    def setup(self, ctx: Setup) -> TNState:
        unknown = [s for s in ctx.seats if s not in POWERS]
        if unknown or not 1 <= len(ctx.seats) <= len(POWERS) or len(set(ctx.seats)) != len(ctx.seats):
            raise RulesError(f"seats are 1-5 of {', '.join(POWERS)}, each once")
        options = {o.name: ctx.options.get(o.name, o.default) for o in self.options}
        powers_data = data("powers")
        exchequer = development(1).exchequer
        powers = {s: Power(s, exchequer, Monarch(powers_data[s]["monarchs"][0], int(powers_data[s]["age"])))
                  for s in ctx.seats}
        state = TNState(seats=list(ctx.seats), options=dict(options), powers=powers)
        for place in geography().in_play(bool(options["east_indies"])):
            if place.kind in ("land", "indies"):
                state.areas[place.name] = AreaState(natives=place.native)
        for name, kind in city_kinds().items():
            state.cities[name] = City(name, geography().city_areas[name], kind.level)
        state.prices = {c: starting_price() for c in commodities()}
        state.modifiers = {"slavery": 0, "fisheries": 0}
        events: list[Event] = []
        run = Ctx(state, ctx.dice, events, "setup")
        start_of_turn.new_deck(state, run)
        advance(run)
        state.pending_events = [e.dump() for e in events]
        return state

    # -- play -----------------------------------------------------------------------------------------------------
    def phase(self, state: TNState) -> Phase:
        return phase_of(state)

    def view(self, state: TNState, viewer: Viewer) -> View:
        return views.view(state, viewer)

    def _ctx(self, state: TNState, dice: Dice) -> Ctx:
        """Events from the set-up's automated steps are handed over with the first step after it."""
        return Ctx(state, dice, [Event.load(e) for e in state.pending_events])

    def act(self, state: TNState, actor: Viewer, action: str, dice: Dice) -> Step[TNState]:
        if state.ended:
            raise IllegalAction("the game is over")
        ctx = self._ctx(state, dice)
        gm.act(ctx, actor, " ".join(action.split()))
        state.pending_events = []
        return Step(state, ctx.events)

    def timeout_action(self, state: TNState, seat: str) -> str | None:
        """A seat that lets a battle round's timer run out fights on without a tactic."""
        if state.battles and not state.questions and seat in phase_of(state).waiting:
            return "tactic none"
        return None

    def autoplay(self, state: TNState, seat: str, dice: Dice) -> str | None:
        """An automatic power: its tactic in a battle round, or its orders (lines with reasons) for a window."""
        return automatic.orders(state, seat)

    def check(self, state: TNState, seat: str, text: str) -> list[OrderCheck]:
        if phase_of(state).window is not Window.ORDERS:
            raise OrderError("no order window is open now")
        if seat not in state.seats:
            raise OrderError(f"{seat} is not a power in this game")
        return check_lines(state, seat, text, odds="brief")

    def odds(self, state: TNState, seat: str, text: str) -> str:
        if seat not in state.seats:
            raise OrderError(f"{seat} is not a power in this game")
        return battle_now(state, seat, text) or odds_answer(check_lines(state, seat, text, odds="full",
                                                                        any_window=True))

    def resolve(self, state: TNState, orders: Mapping[str, Sequence[str]], dice: Dice) -> Step[TNState]:
        if phase_of(state).window is not Window.ORDERS:
            raise IllegalAction("no order window is open to resolve")
        ctx = self._ctx(state, dice)
        lines = {seat: [" ".join(str(line).split()) for line in orders.get(seat, ())] for seat in state.seats}
        for seat, seat_lines in lines.items():
            if seat_lines:
                ctx.say(f"{seat}'s orders:\n" + "\n".join(f"> {line}" for line in seat_lines), to=seat, kind="orders")
        report_notes(ctx, lines)
        close_window(ctx, lines)
        state.pending_events = []
        return Step(state, ctx.events)

    # -- data and output --------------------------------------------------------------------------------------------
    def tables(self) -> Mapping[str, Table]:
        return all_tables()

    def render(self, state: TNState, viewer: Viewer) -> bytes | None:
        return render.render_map(state, viewer)

    def render_orders(self, state: TNState, viewer: Viewer, orders: Sequence[str]) -> bytes | None:
        return render.render_map(state, viewer, orders)

    def dump(self, state: TNState) -> dict[str, Any]:
        out: dict[str, Any] = to_data(state)
        return out

    def load(self, data: dict[str, Any]) -> TNState:
        return from_data(TNState, data)
