"""A. Start of turn: game development, deflation, events, modifiers, monarchs and leaders (TN Sequence A.1-A.9)."""

from __future__ import annotations

from engine.core.rng import Roll
from engine.core.visibility import Visibility
from engine.rulesets.terra_nova import indies
from engine.rulesets.terra_nova.context import Ctx, answer, procedure
from engine.rulesets.terra_nova.reference import (
    age_band,
    ascendancy_band,
    data,
    development,
    house,
    income_table,
    leader_footnote,
)
from engine.rulesets.terra_nova.state import Leader, Monarch, Question, TNState

DEFLATION_ANSWERS = ("none", "5", "10", "20", "25", "50")


@procedure("game_development")
def game_development(ctx: Ctx) -> None:
    """A.1: the row for this turn sets the R level and what may now be built or hired."""
    dev = development(ctx.state.turn)
    ctx.state.r_level = dev.r_level
    ctx.say(f"**{ctx.state.turn_label().capitalize()}** begins. Resource level R{dev.r_level}.", kind="turn")
    for line in dev.lines:
        ctx.say(f"Game development, {dev.date}: {line}", kind="development")


@procedure("deflation")
def deflation(ctx: Ctx) -> None:
    """A.2: the reference sheet names the check but not its rule: the GM rules (option `deflation`)."""
    state = ctx.state
    if state.options.get("deflation") == "off" or state.turn == 1:
        return
    treasuries = ", ".join(f"{p} {state.powers[p].treasury}" for p in state.seats)
    ctx.ask("deflation", f"Check for deflation in {state.year}: does deflation strike? Answer `none` or the "
            f"percentage every treasury loses. Treasuries now: {treasuries}.", DEFLATION_ANSWERS)


@answer("deflation")
def _deflation(ctx: Ctx, question: Question, choice: str) -> None:
    if choice == "none":
        ctx.say("No deflation this turn.", kind="economy")
        return
    pct = int(choice)
    ctx.say(f"Deflation: every treasury loses {pct}%.", kind="economy")
    for seat in ctx.state.seats:
        power = ctx.state.powers[seat]
        loss = power.treasury * pct // 100
        power.treasury -= loss
        ctx.say(f"{seat} loses {loss} florins to deflation (treasury {power.treasury}).", to=seat, kind="economy")


@procedure("random_events")
def random_events(ctx: Ctx) -> None:
    """A.3: the event cards are not available: the GM draws and applies them (option `random_events`)."""
    if ctx.state.options.get("random_events") == "off":
        return
    ctx.ask("event", f"Draw the random event card(s) for {ctx.state.year}. Apply the card with GM edits "
            "(`grant`, `add`, `remove`, `set native`, `announce`...), then answer `done`; or `none`.",
            ("done", "none"))


@answer("event")
def _event(ctx: Ctx, question: Question, choice: str) -> None:
    ctx.say("No random event this turn." if choice == "none" else "The random event has been applied.",
            kind="event")


@procedure("modifiers")
def modifiers(ctx: Ctx) -> None:
    """A.4: East Indies prices move (expansion 4.2.2); the slavery and fisheries modifiers stand as the GM set them."""
    state = ctx.state
    if state.options.get("east_indies"):
        indies.move_prices(ctx)
    slavery = state.modifiers.get("slavery", 0)
    fisheries = state.modifiers.get("fisheries", 0)
    if slavery or fisheries:
        ctx.say(f"Modifiers: slavery {slavery:+d} (a slave costs {4 + slavery}), fisheries {fisheries:+d}.",
                kind="economy")


@procedure("monarch_track")
def monarch_track(ctx: Ctx) -> None:
    """A.5: five years pass (the starting ages are already those of 1496)."""
    if ctx.state.turn == 1:
        return
    step = int(house()["calendar"]["years_per_turn"])
    for power in ctx.state.powers.values():
        power.monarch.age += step


def mortality_roll(ctx: Ctx, age: int, key: tuple[str, ...], whose: str) -> tuple[bool, Roll]:
    """Dies when the roll is at or under the Mortality number of the age band (option `mortality_roll`)."""
    band = age_band(age)
    sides = (1, 12) if ctx.state.options.get("mortality_roll") == "1d12" else (2, 6)
    roll = ctx.roll(*sides, *key, label=f"mortality {whose}")
    dies = roll.total <= band.mortality
    ctx.annotate(roll, table=f"Monarch Age ({band.printed}: mortality {band.mortality}) for {whose}",
                 result="dies" if dies else "lives")
    return dies, roll


@procedure("monarch_mortality")
def monarch_mortality(ctx: Ctx) -> None:
    """A.6: each monarch rolls against the Mortality number of their age band."""
    for seat in ctx.seats_in_order:
        monarch = ctx.state.powers[seat].monarch
        dies, roll = mortality_roll(ctx, monarch.age, ("monarch", seat), f"{monarch.name} of {seat}")
        if dies:
            monarch.dead = True
            ctx.say(f"{monarch.name} of {seat} dies aged {monarch.age} (rolled {roll.total}, "
                    f"mortality {age_band(monarch.age).mortality}).", kind="monarch")


@procedure("new_monarchs")
def new_monarchs(ctx: Ctx) -> None:
    """A.7: an heir ascends at the age the Ascendancy roll names (option `ascension_roll`)."""
    powers = data("powers")
    for seat in ctx.seats_in_order:
        power = ctx.state.powers[seat]
        if not power.monarch.dead:
            continue
        sides = (2, 6) if ctx.state.options.get("ascension_roll") == "2d6" else (1, 12)
        roll = ctx.roll(*sides, "ascendancy", seat, label=f"ascendancy {seat}")
        band = ascendancy_band(roll.total)
        ctx.annotate(roll, table=f"Monarch Age (Ascendancy) for {seat}'s heir", result=band.printed)
        income = ctx.lookup(income_table(), "income", seat, label=f"income modifier {seat}", whose=f"for {seat}",
                            visibility=Visibility.to(seat)).row.data["modifier"]
        reign = power.monarch.reign + 1
        names = powers[seat]["monarchs"]
        name = names[reign] if reign < len(names) else f"Monarch {reign + 1} of {seat}"
        power.monarch = Monarch(name, band.new_age, int(income), reign)
        ctx.say(f"{name} ascends the throne of {seat}, aged {band.new_age}.", kind="monarch")
        ctx.say(f"{name}'s Monarch Income Modifier is {int(income):+d}.", to=seat, kind="monarch")


@procedure("leader_mortality")
def leader_mortality(ctx: Ctx) -> None:
    """A.8: leaders age with the track and roll on the Monarch Age table as monarchs do (house rule)."""
    state = ctx.state
    if state.turn > 1:
        for leader in state.leaders:
            leader.age += int(house()["calendar"]["years_per_turn"])
    for leader in list(state.leaders):
        dies, _ = mortality_roll(ctx, leader.age, ("leader", leader.power, leader.name),
                                 f"{leader.name} ({leader.power})")
        if dies:
            state.leaders.remove(leader)
            ctx.say(f"{leader.name} ({leader.power}) dies aged {leader.age}.", kind="leader")


def draw_count(ctx: Ctx) -> int:
    """How many leaders this turn's Game Development row draws, with its footnote on leaders alive."""
    state = ctx.state
    dev = development(state.turn)
    count = dev.leaders_per_player * len(state.seats) + dev.leaders_fixed
    if dev.leaders_dice:
        count += ctx.roll(dev.leaders_dice, 6, "leaders", label="leaders drawn").total
    if dev.footnote_applies:
        few, extra, many, only = leader_footnote()
        alive = len(state.leaders)
        if alive <= few:
            count += extra
        elif alive > many:
            count = only
    return count


@procedure("draw_leaders")
def draw_leaders(ctx: Ctx) -> None:
    """A.9: draw from the leader deck; each seat takes one in turn, starting with the turn's first seat."""
    state = ctx.state
    dev = development(state.turn)
    if dev.no_italians:
        state.deck = [name for name in state.deck if _card(name)[1] != "Italian"]
    count = draw_count(ctx)
    drawn = [state.deck.pop(0) for _ in range(min(count, len(state.deck)))]
    if not drawn:
        ctx.say("No leaders are drawn this turn.", kind="leader")
        return
    n = len(state.seats)
    per_player = dev.leaders_per_player * n
    for i, name in enumerate(drawn):
        if i < per_player or state.options.get("leader_assignment") != "gm":
            seat = state.seats[(state.turn - 1 + i) % n]
            _give(ctx, name, seat)
        else:
            ctx.ask("leader", f"Leader drawn: {_describe(name)}. Which power takes them?",
                    [*state.seats, "discard"], leader=name)


def _card(name: str) -> tuple[str, str, str, int]:
    for card in data("leaders")["cards"]:
        if card[0] == name:
            return card[0], card[1], card[2], int(card[3])
    raise KeyError(name)


def _describe(name: str) -> str:
    _, nation, kind, rating = _card(name)
    return f"{name} ({nation} {kind}, {rating:+d})"


def _give(ctx: Ctx, name: str, seat: str) -> None:
    _, nation, kind, rating = _card(name)
    age = int(house()["leaders"]["entry_age"])
    ctx.state.leaders.append(Leader(name, nation, kind, rating, age, seat, "Europe"))
    ctx.say(f"{seat} draws {_describe(name)}.", kind="leader")


@answer("leader")
def _leader(ctx: Ctx, question: Question, choice: str) -> None:
    name = str(question.data["leader"])
    if choice == "discard":
        ctx.say(f"{name} is set aside.", kind="leader")
        return
    _give(ctx, name, choice)


def new_deck(state: TNState, ctx: Ctx) -> None:
    """The shuffled leader deck (its order is secret: GM-only roll)."""
    names = [card[0] for card in data("leaders")["cards"]]
    state.deck = ctx.dice.shuffle(names, purpose="setup/leader-deck")
    ctx.relabel(ctx.dice.rolls[-1], "leader deck")
