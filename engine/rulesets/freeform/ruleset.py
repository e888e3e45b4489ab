"""The freeform ruleset: each turn is an order window; the GM writes the results."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction, OrderError
from engine.core.events import Event, Step
from engine.core.names import Names, UnknownName, shown
from engine.core.orders import OrderCheck, Verdict, read_form
from engine.core.phases import Phase, Window
from engine.core.records import from_data, to_data
from engine.core.rng import Dice
from engine.core.ruleset import Option, OptionValue, Ruleset, SeatRule, Setup, View
from engine.core.visibility import Viewer, Visibility
from engine.rulesets.freeform.regions import Region, in_sight, parse_regions, render_regions

MAX_ORDER_LINE = 500
MAX_ORDER_LINES = 500   # the platform's own limit on a submission


@dataclass(frozen=True, slots=True)
class FreeOrder:
    """A free-text order: its canonical form is its words, single-spaced."""

    words: str

    @classmethod
    def parse(cls, line: str) -> FreeOrder:
        words = " ".join(line.split())
        if len(words) > MAX_ORDER_LINE:
            raise OrderError(f"a line is at most {MAX_ORDER_LINE} characters; split it")
        return cls(words)

    def text(self) -> str:
        return self.words
MAX_RESULT = 4000

_RESULT = re.compile(r"^result\s+(?P<to>[^:]+?)\s*:\s*(?P<text>.+)$", re.IGNORECASE | re.DOTALL)
_SHEET = re.compile(r"^sheet\s+(?P<seat>[^:]+?)\s*:\s*(?P<text>.*)$", re.IGNORECASE | re.DOTALL)
_OWNER = re.compile(r"^region\s+(?P<region>.+?)\s+owner\s+(?P<seat>.+)$", re.IGNORECASE)


GM_VERBS = Names(("result", "sheet", "region", "clear"))


def _full_verb(text: str) -> str:
    """The GM's action with its first word written out when it is the start of one verb only (`res` is result)."""
    first, _, rest = text.partition(" ")
    head, colon, after = first.partition(":")  # `res all: …` or `res:`
    meant = GM_VERBS.match(head).name if head else None
    if meant is None:
        return text
    return f"{meant}{colon}{after} {rest}".rstrip() if rest or colon else meant


@dataclass
class Result:
    to: str | None          # None: everyone
    text: str


@dataclass
class FreeformState:
    seats: list[str]
    turn: int = 1
    title: str = "Campaign"
    reveal_orders: bool = True
    fog: bool = False
    regions: list[Region] = field(default_factory=list)
    pending: list[Result] = field(default_factory=list)
    sheets: dict[str, str] = field(default_factory=dict)


class Freeform(Ruleset[FreeformState]):
    id = "freeform"
    version = "1.0"
    title = "Freeform"
    options = (
        Option("reveal_orders", True, "show every seat's orders in the turn summary once a turn resolves"),
        Option("fog", False, "fog of war on the map: a seat sees only its own regions and their neighbours"),
        Option("max_seats", 20, "how many seats may join", minimum=1, maximum=50),
    )
    uploads = {"regions": "the campaign's regions for /map (TOML: [[region]] name, x, y, owner, links)"}
    orders_help = "Write your orders in your own words, one per line; the GM reads every line."

    def seat_rule(self, options: Mapping[str, OptionValue], files: Mapping[str, str]) -> SeatRule:
        return SeatRule(1, int(options.get("max_seats", 20)))

    def setup(self, ctx: Setup) -> FreeformState:
        regions = parse_regions(ctx.files["regions"], ctx.seats) if "regions" in ctx.files else []
        return FreeformState(seats=list(ctx.seats), reveal_orders=bool(ctx.options.get("reveal_orders", True)),
                             fog=bool(ctx.options.get("fog", False)),
                             regions=regions, title=ctx.name or "Campaign")

    def check_upload(self, kind: str, text: str) -> str:
        if kind != "regions":
            return super().check_upload(kind, text)
        return f"{len(parse_regions(text))} regions"

    def upload(self, state: FreeformState, kind: str, text: str) -> Step[FreeformState]:
        if kind != "regions":
            return super().upload(state, kind, text)
        state.regions = parse_regions(text, state.seats)
        return Step(state, [Event(f"The GM updated the map: {len(state.regions)} regions.", kind="map")])

    # -- play ------------------------------------------------------------------------------
    def phase(self, state: FreeformState) -> Phase:
        return Phase(state.turn, "orders", f"Turn {state.turn} — orders", Window.ORDERS,
                     frozenset(state.seats))

    def view(self, state: FreeformState, viewer: Viewer) -> View:
        phase = self.phase(state)
        held = {s: [r.name for r in state.regions if r.owner == s] for s in state.seats}
        summary = f"Turn {state.turn}: orders are open for {', '.join(state.seats)}."
        if viewer.kind == "seat" and viewer.seat in state.sheets:
            sheet = state.sheets[viewer.seat]
        elif viewer.kind == "seat" and viewer.seat:
            sheet = f"**{viewer.seat}** — no sheet yet; the GM writes it."
        elif state.fog and not viewer.is_gm:
            sheet = "Fog of war: who holds what is not shown to spectators."
        else:
            sheet = "\n".join(f"**{s}**: {', '.join(held[s]) or 'no regions'}" for s in state.seats)
        actions: tuple[Action, ...] = ()
        if viewer.is_gm:
            actions = (
                Action("result all: ", "Result for everyone", "result"),
                *(Action(f"result {s}: ", f"Private result for {s}", "result") for s in state.seats),
                *(Action(f"sheet {s}: ", f"Write {s}'s sheet", "sheet") for s in state.seats),
                Action("clear results", "Discard the results written so far", "clear"),
            )
            if state.pending:
                summary += f"\n{len(state.pending)} result(s) written, to be posted on advance."
        return View(phase, summary, sheet, actions)

    def act(self, state: FreeformState, actor: Viewer, action: str, dice: Dice) -> Step[FreeformState]:
        if not actor.is_gm:
            raise IllegalAction("only the GM writes results in a freeform campaign; send orders instead")
        text = _full_verb(action.strip())
        if m := _RESULT.match(text):
            to = m["to"].strip()
            body = m["text"].strip()
            if len(body) > MAX_RESULT:
                raise IllegalAction(f"a result is at most {MAX_RESULT} characters; split it")
            if to.lower() == "all":
                state.pending.append(Result(None, body))
                return Step(state, [Event("Result noted for everyone.", Visibility.gm_only(), "gm")])
            seat = self._seat(state, to)
            state.pending.append(Result(seat, body))
            return Step(state, [Event(f"Result noted for {seat}.", Visibility.gm_only(), "gm")])
        if m := _SHEET.match(text):
            seat = self._seat(state, m["seat"].strip())
            state.sheets[seat] = m["text"].strip()
            return Step(state, [Event(f"{seat}'s sheet was updated.", Visibility.to(seat), "sheet")])
        if m := _OWNER.match(text):
            return self._set_owner(state, m["region"].strip(), m["seat"].strip())
        if text.lower() == "clear results":
            state.pending.clear()
            return Step(state, [Event("Results so far discarded.", Visibility.gm_only(), "gm")])
        raise IllegalAction(
            "GM actions are `result all: …`, `result <seat>: …`, `sheet <seat>: …`, "
            "`region <name> owner <seat|none>` and `clear results`")

    def _seat(self, state: FreeformState, name: str) -> str:
        try:  # forgiving: any case, no accents, a unique start
            return Names(state.seats).resolve(name, what="seat")
        except UnknownName as exc:
            raise IllegalAction(f"{exc} (seats: {', '.join(state.seats)})") from None

    def _set_owner(self, state: FreeformState, region_name: str, seat_name: str) -> Step[FreeformState]:
        owner = None if seat_name.lower() == "none" else self._seat(state, seat_name)
        try:
            name = Names(r.name for r in state.regions).resolve(region_name, what="region")
        except UnknownName as exc:
            raise IllegalAction(str(exc) if state.regions else
                                f"no region `{shown(region_name)}`: the map has none yet") from None
        for i, region in enumerate(state.regions):
            if region.name == name:
                state.regions[i] = Region(region.name, region.x, region.y, owner, region.links)
        return Step(state, [Event(f"{name} is now held by {owner or 'no one'}.", kind="map")])

    def check(self, state: FreeformState, seat: str, text: str) -> list[OrderCheck]:
        lines = read_form(text, FreeOrder.parse, max_lines=MAX_ORDER_LINES)
        return [line.answer(Verdict.ACCEPTED) if line.order else line.refused() for line in lines]

    def resolve(self, state: FreeformState, orders: Mapping[str, Sequence[str]],
                dice: Dice) -> Step[FreeformState]:
        events: list[Event] = []
        for result in state.pending:
            if result.to is None:
                events.append(Event(result.text, kind="result"))
            else:
                events.append(Event(result.text, Visibility.to(result.to), "result", {"seat": result.to}))
        if not state.pending:
            events.append(Event("The GM posted no results this turn.", kind="result"))
        if state.reveal_orders:
            for seat in state.seats:
                lines = orders.get(seat, ())
                body = "\n".join(f"> {line}" for line in lines) if lines else "> (no orders)"
                events.append(Event(f"**{seat}** ordered:\n{body}", kind="orders", data={"seat": seat}))
        state.pending = []
        state.turn += 1
        return Step(state, events)

    # -- output -----------------------------------------------------------------------------
    def render(self, state: FreeformState, viewer: Viewer) -> bytes | None:
        return self.render_orders(state, viewer, ())

    def render_orders(self, state: FreeformState, viewer: Viewer, orders: Sequence[str]) -> bytes | None:
        if not state.regions:
            return None
        seat = viewer.seat if viewer.kind == "seat" and viewer.seat in state.seats else None
        title, turn = state.title, state.turn
        if not state.fog or viewer.is_gm:
            return render_regions(state.regions, state.seats, title=title, turn=turn, orders=orders, seat=seat)
        if seat is not None:
            return render_regions(state.regions, state.seats, title=title, turn=turn, suffix=f" ({seat}'s view)",
                                  visible=in_sight(state.regions, seat), orders=orders, seat=seat)
        return render_regions(state.regions, state.seats, title=title, turn=turn, owners_shown=False)

    # -- persistence ----------------------------------------------------------------------------
    def dump(self, state: FreeformState) -> dict[str, Any]:
        out: dict[str, Any] = to_data(state)
        return out

    def load(self, data: dict[str, Any]) -> FreeformState:
        return from_data(FreeformState, data)
