"""Terra Prime v1.5: explore, colonize and trade around the Terra Prime outpost (2-5 players)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.events import Event, Step
from engine.core.phases import Phase, Window
from engine.core.rng import Dice
from engine.core.ruleset import Option, OptionValue, Ruleset, SeatRule, Setup, View
from engine.core.visibility import Viewer
from engine.rulesets.terra_prime import odds as tp_odds
from engine.rulesets.terra_prime import state as state_io
from engine.rulesets.terra_prime.autoplay import choose
from engine.rulesets.terra_prime.commands import parse
from engine.rulesets.terra_prime.effects import decide, perform
from engine.rulesets.terra_prime.flow import new_game, run
from engine.rulesets.terra_prime.legal import actions, legal
from engine.rulesets.terra_prime.legality import check, describe, pending
from engine.rulesets.terra_prime.render import render_board, render_played
from engine.rulesets.terra_prime.search import DIFFICULTIES, LEVELS, choose_searching, seat_level
from engine.rulesets.terra_prime.sheets import sheet, summary
from engine.rulesets.terra_prime.space import board_of, design
from engine.rulesets.terra_prime.state import GameState


class TerraPrime(Ruleset[GameState]):
    id = "terra-prime"
    version = "1.0"
    title = "Terra Prime"
    options = (
        Option("board", "wedge", "board shape: the designer's one-way wedge, or a ring around Terra Prime",
               choices=("wedge", "ring")),
        Option("production", "planet", "colonies produce their planet's colour, or (the designer's alternative) "
               "any planet colour in their sector", choices=("planet", "sector")),
        Option("timeout", "pass", "when a turn timer runs out: pass (and take the safest answer to a question), "
               "or let the automatic player act", choices=("pass", "auto")),
        Option("module_loss", "choose", "who picks the module a hit destroys: its owner, or the dice",
               choices=("choose", "random")),
        Option("refill_at", "outpost", "where colony markers are taken aboard", choices=("outpost", "anywhere")),
        Option("modules_need_colony", False, "modules come only from colonized planets (not any planet)"),
        Option("visit_ends_with_turn", False, "a visit also ends when your turn ends (not only when you leave)"),
        Option("credits_score", "credit", "final scoring: 1 leadership per credit, or per Credit chip (the fewest "
               "chips of 10, 5 and 1 that make the sum)", choices=("credit", "chip")),
        Option("green_asteroids", "few", "green tiles: a few small asteroids (the designer's notes) or none (his "
               "components list: planets or deep space only)", choices=("few", "none")),
        Option("leadership_floor", False, "leadership never falls below 0 (a hit with no module left takes what "
               "there is); by default scores may go negative"),
        Option("tech_costs", "board", "tech upgrade costs: ours for the Earth board (later steps need the rarer "
               "cubes, every last step a red one), or cheap (a first step one green or blue cube, every later step "
               "one green and one blue)", choices=("board", "cheap")),
        Option("automatic", "easy", "how hard automatic players try: easy (plays by rule of thumb), medium or "
               "hard (each searches futures of its choices)", choices=DIFFICULTIES),
        Option("automatic_seats", "", "a level for particular automatic seats, e.g. `Ana=hard, Ben=easy` (others "
               "take `automatic`)"),
        Option("final_round", "trigger-last", "when the end is triggered: everyone takes one more turn, the "
               "triggering seat last (the rulebook), or the round is played out and one more whole round so every "
               "seat has as many turns", choices=("trigger-last", "equal-turns")),
        Option("round_limit", 0, "end the game after this many rounds (0: only the rulebook's end triggers)",
               minimum=0, maximum=200),
    )
    revealing = frozenset({"explore", "peek"})  # a face-down tile turned over, or looked at with the scanner
    orders_help = ("Terra Prime is played turn by turn with the action buttons; every action also has a text "
                   "form such as `move 4`, `explore 12`, `orient 3`, `deliver green red`, `install shield`.")

    def seat_rule(self, options: Mapping[str, OptionValue], files: Mapping[str, str]) -> SeatRule:
        return SeatRule(2, 5)

    def setup(self, ctx: Setup) -> GameState:
        for seat in ctx.seats:
            seat_level(ctx.options, seat)            # a bad `automatic_seats` is refused before the game starts
        state, _ = new_game(ctx.seats, {**{o.name: o.default for o in self.options}, **ctx.options}, ctx.dice)
        return state

    # -- play -------------------------------------------------------------------------------
    def phase(self, state: GameState) -> Phase:
        if state.ended:
            return Phase(state.turn, "ended", f"Game over — {', '.join(state.winners)} won", Window.ENDED)
        # the label names the phase (it heads the turn summary); what the seat is doing is in the summary
        return Phase(state.turn, "turn", f"Round {state.round} — {state.seat}", Window.TURN, frozenset({state.seat}),
                     round_opens=state.current == state.start)

    def view(self, state: GameState, viewer: Viewer) -> View:
        text = summary(state)
        if viewer.kind == "seat" and viewer.seat in state.ships:
            own = sheet(state, viewer.seat)
        elif viewer.is_gm:
            b = board_of(state)
            hidden = "; ".join(f"{p} {design(state, p).id}" for p in range(1, b.position_count() + 1)
                               if not state.tile(p).revealed)
            own = "\n\n".join([*(sheet(state, s) for s in state.seats), f"Face-down tiles (GM): {hidden or 'none'}"])
        else:
            own = ""
        acts = actions(state) if not state.ended and viewer.kind == "seat" and viewer.seat == state.seat else ()
        return View(self.phase(state), text, own, acts)

    def odds(self, state: GameState, seat: str, text: str) -> str:
        return tp_odds.odds(state, seat, text)

    def act(self, state: GameState, actor: Viewer, action: str, dice: Dice) -> Step[GameState]:
        if state.ended:
            raise IllegalAction("the game is over")
        if not actor.is_gm and (actor.kind != "seat" or actor.seat != state.seat):
            item = pending(state)
            doing = f"to {describe(state, item)}" if item else "to act"
            raise NotYourTurn(f"not your turn: it is **{state.seat}**'s turn {doing}")
        cmd = parse(action)
        check(state, cmd)
        events: list[Event] = []
        item = pending(state)
        if item is not None:
            state.queue.pop(0)
            decide(state, item, cmd, dice, events)
        else:
            perform(state, cmd, dice, events)
        run(state, dice, events)
        return Step(state, events)

    def autoplay(self, state: GameState, seat: str, dice: Dice) -> str | None:
        if state.ended or seat != state.seat:
            return None
        level = seat_level(state.options, seat)
        return choose(state) if level == "easy" else choose_searching(state, dice, LEVELS[level])

    def timeout_action(self, state: GameState, seat: str) -> str | None:
        if state.ended or seat != state.seat:
            return None
        if state.options.get("timeout", "pass") == "auto":
            return choose(state)
        options = legal(state)
        for cmd, _ in options:
            if cmd.verb in ("pass", "ignore"):
                return cmd.text()
        item = pending(state)
        if item is not None and item["do"] == "overflow":
            return choose(state)
        return options[0][0].text()

    # -- output -----------------------------------------------------------------------------
    def render(self, state: GameState, viewer: Viewer) -> bytes | None:
        return render_board(state, viewer)

    def render_focus(self, state: GameState, viewer: Viewer) -> bytes | None:
        return render_played(state, viewer)

    # -- persistence --------------------------------------------------------------------------
    def dump(self, state: GameState) -> dict[str, Any]:
        return state_io.dump(state)

    def load(self, data: dict[str, Any]) -> GameState:
        return state_io.load(data)
