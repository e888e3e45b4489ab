"""Lords of the Earth: The Modern Era, as a Herald ruleset: sheets, order forms, turns, rulings, newsletters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction, OrderError, UploadError
from engine.core.events import Event, Step
from engine.core.orders import OrderCheck
from engine.core.phases import Phase, Window
from engine.core.records import from_data, to_data
from engine.core.rng import Dice
from engine.core.ruleset import OptionValue, Ruleset, SeatRule, Setup, View
from engine.core.tables import Table
from engine.core.visibility import GM_ONLY, PUBLIC, Viewer, Visibility
from engine.rulesets.lote_modern import campaign, dice_tables, gm, orderform, turn, views
from engine.rulesets.lote_modern import odds as lote_odds
from engine.rulesets.lote_modern.layout import lay_out
from engine.rulesets.lote_modern.mapfile import parse_map
from engine.rulesets.lote_modern.orders import ORDERS_HELP
from engine.rulesets.lote_modern.sheet import Nation, fold
from engine.rulesets.lote_modern.sheetfile import parse_sheets, validate_against_map, validate_cartels
from engine.rulesets.lote_modern.state import AuditEntry, GameState

LABEL = 80


def _short(text: str, limit: int = LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class LotEModern(Ruleset[GameState]):
    id = "lote-modern"
    version = "1.0"
    title = "Lords of the Earth: The Modern Era"
    options = campaign.options()
    uploads = {
        "sheets": "every nation's stat sheet and the campaign date (TOML with CSV blocks; see the LotE Modern notes)",
        "map": "the campaign map: regions, cities, sea zones and links (TOML with CSV blocks)",
    }
    orders_help = ORDERS_HELP

    # -- set-up -----------------------------------------------------------------------------------------
    def seat_rule(self, options: Mapping[str, OptionValue], files: Mapping[str, str]) -> SeatRule:
        if "sheets" not in files:
            raise UploadError("a Modern Era campaign takes its nations from the sheets file: upload `sheets` first")
        names = tuple(parse_sheets(files["sheets"]).nations)
        return SeatRule(len(names), len(names), names)

    def check_upload(self, kind: str, text: str) -> str:
        if kind == "sheets":
            sheets = parse_sheets(text)
            houses = sum(1 for n in sheets.nations.values() if n.is_house)
            return (f"{len(sheets.nations)} nations ({', '.join(sheets.nations)}), {houses} Merchant House"
                    f"{'s' if houses != 1 else ''}; the campaign opens in {sheets.year}")
        if kind == "map":
            world = parse_map(text)
            return f"{len(world.regions)} regions, {len(world.cities)} cities, {len(world.zones)} sea zones"
        return super().check_upload(kind, text)

    def setup(self, ctx: Setup) -> GameState:
        for kind in ("sheets", "map"):
            if kind not in ctx.files:
                raise UploadError(f"a Modern Era campaign needs its `{kind}` file ({self.uploads[kind]})")
        sheets = parse_sheets(ctx.files["sheets"])
        world = parse_map(ctx.files["map"])
        validate_against_map(sheets.nations, world, lines=sheets.lines)
        validate_cartels(sheets.cartels, world)
        world.layout = lay_out(world)   # laid out once, kept with the map: every picture draws from it
        if {fold(s) for s in ctx.seats} != {fold(n) for n in sheets.nations}:
            raise UploadError(f"the seats ({', '.join(ctx.seats)}) are not the nations of the sheets file "
                              f"({', '.join(sheets.nations)})")
        return GameState(sheets.title, sheets.year, sheets.month, sheets.turn, dict(sheets.nations), world,
                         options=dict(ctx.options), loans=list(sheets.loans), defaults=list(sheets.defaults),
                         monopolies=list(sheets.monopolies), cartels=list(sheets.cartels),
                         next_id=len(sheets.loans) + len(sheets.defaults) + len(sheets.monopolies)
                         + len(sheets.cartels) + 1)

    def upload(self, state: GameState, kind: str, text: str) -> Step[GameState]:
        if state.stage == "ended":
            raise UploadError("the campaign has ended")
        if kind == "map":
            return self._new_map(state, text)
        if kind == "sheets":
            return self._new_sheets(state, text)
        return super().upload(state, kind, text)

    def _new_map(self, state: GameState, text: str) -> Step[GameState]:
        world = parse_map(text)
        copies = {name: from_data(Nation, to_data(n)) for name, n in state.nations.items()}
        validate_against_map(copies, world, name="map (checked against the sheets)")
        world.layout = lay_out(world)
        state.world, state.nations = world, copies
        note = f"{len(world.regions)} regions, {len(world.cities)} cities, {len(world.zones)} sea zones"
        state.audit.append(AuditEntry(state.turn, "map", f"map upload: {note}"))
        return Step(state, [Event(f"The GM replaced the map: {note}.", PUBLIC, "map"),
                            Event(f"Map upload applied during turn {state.turn}.", GM_ONLY, "edit")])

    def _new_sheets(self, state: GameState, text: str) -> Step[GameState]:
        sheets = parse_sheets(text)
        unknown = [n for n in sheets.nations if state.find_nation(n) is None]
        if unknown:
            raise UploadError(f"sheets: {', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not a nation "
                              f"of this campaign; seats are fixed once it starts")
        validate_against_map(sheets.nations, state.world, lines=sheets.lines)
        validate_cartels(sheets.cartels, state.world)
        replaced = []
        for name, nation in sheets.nations.items():
            seat = state.nation(name).name
            nation.name = seat
            state.nations[seat] = nation
            replaced.append(seat)
        names = set(replaced)
        state.loans = [x for x in state.loans if x.borrower not in names] + list(sheets.loans)
        state.defaults = [x for x in state.defaults if x.borrower not in names] + list(sheets.defaults)
        state.monopolies = [m for m in state.monopolies if m.house not in names]
        for mono in sheets.monopolies:
            mono.id = state.take_id()
            state.monopolies.append(mono)
        state.cartels = [c for c in state.cartels if c.house not in names]
        for deal in sheets.cartels:
            deal.id = state.take_id()
            state.cartels.append(deal)
        state.audit.append(AuditEntry(state.turn, ", ".join(replaced), "sheets upload replaced these sheets"))
        events = [Event(f"Sheets upload replaced {', '.join(replaced)} on turn {state.turn} (date and turn in the "
                        "file ignored during play).", GM_ONLY, "edit")]
        events += [Event("The GM replaced your stat sheet.", Visibility.to(name), "edit", {"nation": name})
                   for name in replaced]
        return Step(state, events)

    # -- play ---------------------------------------------------------------------------------------------
    def phase(self, state: GameState) -> Phase:
        if state.stage == "ended":
            return Phase(state.turn, "ended", f"{state.title}: the campaign is over", Window.ENDED)
        date = views.calendar(state)
        if state.stage == "rulings":
            left = len(state.report.open()) if state.report else 0
            return Phase(state.turn, "rulings", f"Turn {state.turn}: the GM rules ({left} open)", Window.GM)
        return Phase(state.turn, "orders", f"Orders for {date}", Window.ORDERS, frozenset(state.nations))

    def view(self, state: GameState, viewer: Viewer) -> View:
        phase = self.phase(state)
        if viewer.is_gm:
            return View(phase, phase.label, views.gm_desk(state), self._gm_actions(state))
        if viewer.kind == "seat" and viewer.seat is not None and state.find_nation(viewer.seat) is not None:
            nation = state.nation(viewer.seat)
            waiting = {"orders": "your orders are open", "rulings": "the GM is ruling on the turn",
                       "ended": "the campaign is over"}[state.stage]
            summary = f"{nation.name}: {views.calendar(state)}; {waiting}."
            return View(phase, summary, views.sheet(state, nation))
        return View(phase, phase.label, views.public_summary(state))

    def _gm_actions(self, state: GameState) -> tuple[Action, ...]:
        if state.stage == "ended":
            return ()
        out: list[Action] = []
        if state.stage == "rulings" and state.report is not None:
            open_items = state.report.open()
            if not open_items:
                out.append(Action("publish", "Publish the turn: results to each nation, newsletter to all", "publish"))
            for r in state.report.rulings:
                verb = "Rule" if not r.ruled else "Re-rule"
                out.append(Action(f"rule {r.id} ", _short(f"{verb} #{r.id}: {r.text}"), "rule"))
        out.append(Action("news ", "Add a line to the next newsletter", "news"))
        for name in state.nations:
            out.append(Action(f"edit {name} ", _short(f"Edit {name}'s sheet (audited)"), "edit"))
        out.append(Action("edit map ", "Edit the map (audited)", "edit"))
        out.append(Action("capture ", "Record a place taken: its factories and yards pass, half lost (LotE 3.6.5)",
                          "capture"))
        for name, nation in state.nations.items():
            if nation.reserves:
                out.append(Action(f"divide-reserves {name} among ",
                                  _short(f"Divide {name}'s reserves in a civil war (LotE 3.2.2.4)"), "civil war"))
        out.append(Action("end campaign", "End the campaign", "end"))
        return tuple(out)

    def act(self, state: GameState, actor: Viewer, action: str, dice: Dice) -> Step[GameState]:
        if not actor.is_gm:
            raise IllegalAction("players send orders; the GM edits, rules and publishes")
        state, events = gm.act(state, action)
        return Step(state, events)

    def check(self, state: GameState, seat: str, text: str) -> list[OrderCheck]:
        if state.stage != "orders":
            raise OrderError("orders are closed while the GM rules on the turn")
        nation = state.find_nation(seat)
        if nation is None:
            raise OrderError(f"`{seat}` is not a nation of this campaign")
        return lote_odds.with_odds(state, nation, orderform.check_orders(state, nation, text))

    def odds(self, state: GameState, seat: str, text: str) -> str:
        nation = state.find_nation(seat)
        if nation is None:
            raise OrderError(f"`{seat}` is not a nation of this campaign")
        return lote_odds.odds_answer(state, nation, orderform.check_orders(state, nation, text))

    def resolve(self, state: GameState, orders: Mapping[str, Sequence[str]], dice: Dice) -> Step[GameState]:
        if state.stage != "orders":
            raise IllegalAction("the turn has been processed already: rule on it and publish")
        return Step(state, turn.process(state, orders, dice))

    # -- data ----------------------------------------------------------------------------------------------
    def tables(self) -> Mapping[str, Table]:
        return dice_tables.tables()

    def render(self, state: GameState, viewer: Viewer) -> bytes | None:
        """The map from the GM's map file, as `viewer` may see it (LotE has no map until one is uploaded)."""
        if not state.world.regions:
            return None
        return self.render_orders(state, viewer, ())

    def render_orders(self, state: GameState, viewer: Viewer, orders: Sequence[str]) -> bytes | None:
        """The map with a nation's own pending orders on it (builds, routes, conduits, actions' places)."""
        if not state.world.regions:
            return None
        from engine.rulesets.lote_modern.render import render_map  # Pillow only when a map is asked for
        return render_map(state, viewer, orders)

    # -- persistence -------------------------------------------------------------------------------------------
    def dump(self, state: GameState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> GameState:
        return GameState.load(data)

