"""Leadership: every change goes through `score`, which leaves a scoring event behind."""

from __future__ import annotations

from engine.core.events import Event
from engine.rulesets.terra_prime.command_ship import markers_left
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.state import GameState


def score(state: GameState, seat: str, points: int, reason: str, events: list[Event]) -> None:
    """Add (or take) leadership and record why; the sum of these events is every seat's score."""
    if points < 0 and state.options.get("leadership_floor", False):
        points = max(points, -max(0, state.ships[seat].score))
    if not points:
        return
    state.ships[seat].score += points
    events.append(Event(f"**{seat}** {points:+d} leadership ({reason}).", kind="score",
                        data={"seat": seat, "points": points, "reason": reason}))


def trigger_end(state: GameState, reason: str, events: list[Event]) -> None:
    """Start the final round: every seat takes one more turn, the triggering seat last (TP Game End).

    Option `final_round=equal-turns`: the round is played out and then one more whole round, so every seat has
    had as many turns as every other (the start player's seat no longer gains a turn from the rule).
    """
    if state.final_turns is not None or state.ended:
        return
    seats = len(state.seats)
    state.trigger = reason
    if state.options.get("final_round", "trigger-last") == "equal-turns":
        left_in_round = seats - 1 - (state.current - state.start) % seats
        state.final_turns = seats + left_in_round
        last = state.seats[(state.start - 1) % seats]
        events.append(Event(f"**The end is near**: {reason}. This round is played out and then one more; "
                            f"**{last}** plays last.", kind="end-trigger"))
        return
    state.final_turns = seats
    events.append(Event(f"**The end is near**: {reason}. Everyone takes one more turn; "
                        f"**{state.seat}** plays last.", kind="end-trigger"))


def check_markers(state: GameState, seat: str, events: list[Event]) -> None:
    """Game End 1: a seat placed a marker and has only 2 left between supply and ship."""
    if markers_left(state.ships[seat]) <= rules().printed.end_markers_left:
        trigger_end(state, f"{seat} is down to {markers_left(state.ships[seat])} colony markers", events)


def finish(state: GameState, events: list[Event]) -> None:
    """Final scoring (credits 1:1) and the winner: most leadership; ties go to more markers placed."""
    if state.ended:
        return
    printed = rules().printed
    by_chip = state.options.get("credits_score", "credit") == "chip"
    for seat in state.seats:
        credits = state.ships[seat].credits
        if by_chip:
            chips = credit_chips(credits)
            score(state, seat, chips * printed.credit_points, f"{credits} credits in {chips} chips at the end", events)
        else:
            score(state, seat, credits * printed.credit_points, f"{credits} credits at the end", events)
    best = max(_rank(state, s) for s in state.seats)
    state.winners = [s for s in state.seats if _rank(state, s) == best]
    state.ended = True
    state.queue = []
    names = " and ".join(f"**{w}**" for w in state.winners)
    table = ", ".join(f"{s} {state.ships[s].score}" for s in sorted(state.seats, key=lambda s: -state.ships[s].score))
    verb = "share the victory" if len(state.winners) > 1 else "wins and is promoted to Lieutenant"
    events.append(Event(f"**Game over.** {names} {verb}! Final leadership: {table}.", kind="game-over",
                        data={"winners": state.winners}))


def credit_chips(credits: int) -> int:
    """The fewest Credit chips that make a sum (TP Components: chips of 1, 5 and 10)."""
    chips = 0
    for value in sorted(rules().printed_chips, reverse=True):
        chips += credits // value
        credits %= value
    return chips


def _rank(state: GameState, seat: str) -> tuple[int, int]:
    ship = state.ships[seat]
    return (ship.score, rules().printed.colony_markers - markers_left(ship))
