"""The GM's actions: audited edits, rulings, news for the newsletter, publication, and ending the campaign.

    edit England treasury.gp +50 "Spanish silver"      (any time; see edits.py)
    rule 3 The attempt succeeds: the Branch Office opens.   (GM window: private to the parties)
    rule 3 public The Hansa opens a Branch Office in Antwerp.   (also in the newsletter)
    news The Pope has died.                            (a line for the next newsletter)
    capture Lyon by England [surprise]                 (factories and yards of a place taken, LotE 3.6.5)
    divide-reserves England among England (London); Jacobites (Edinburgh)   (civil war, LotE 3.2.2.4)
    publish                                            (GM window, once every item is ruled)
    end campaign
"""

from __future__ import annotations

import re

from engine.core.errors import IllegalAction, RulesError
from engine.core.events import Event
from engine.core.visibility import GM_ONLY, PUBLIC, Visibility
from engine.rulesets.lote_modern import accounts, civil_war, views
from engine.rulesets.lote_modern.edits import apply_edit, parse_edit
from engine.rulesets.lote_modern.handlers import factories
from engine.rulesets.lote_modern.state import AuditEntry, GameState

MAX_TEXT = 1500
_RULE = re.compile(r"^rule\s+#?(?P<id>\d+)\s+(?P<public>public\s+)?(?P<text>.+)$", re.IGNORECASE | re.DOTALL)
_NEWS = re.compile(r"^news\s+(?P<text>.+)$", re.IGNORECASE | re.DOTALL)
HELP = ("GM actions: `edit <nation|map> <path> <+|-|=><value> \"<reason>\"`, `rule <id> [public] <text>`, "
        "`news <text>`, `capture <place> by <nation> [surprise]`, "
        "`divide-reserves <nation> among <side> (<city>, ...); <side> (<city>, ...)`, `publish`, `end campaign`")


def act(state: GameState, text: str) -> tuple[GameState, list[Event]]:
    """Apply one GM action in its canonical text form; the state returned is the one to keep."""
    try:
        lowered = text.strip().lower()
        changes = {"edit ": edit, "capture ": factories.capture, "divide-reserves ": civil_war.divide}
        verb = next((v for v in changes if lowered.startswith(v)), None)
        if verb is not None:
            # A change may fail halfway (an edit creating an entry): it works on a copy, kept only on success.
            if state.stage == "ended":
                raise IllegalAction("the campaign has ended")
            work = GameState.load(state.dump())
            return work, changes[verb](work, text.strip())
        return state, _act(state, text.strip())
    except IllegalAction:
        raise
    except RulesError as exc:
        raise IllegalAction(str(exc)) from None


def _act(state: GameState, line: str) -> list[Event]:
    if state.stage == "ended":
        raise IllegalAction("the campaign has ended")
    if m := _RULE.match(line):
        return rule(state, int(m["id"]), " ".join(m["text"].split()), public=bool(m["public"]))
    if m := _NEWS.match(line):
        body = " ".join(m["text"].split())
        if len(body) > MAX_TEXT:
            raise IllegalAction(f"a news item is at most {MAX_TEXT} characters")
        state.pending_news.append(body)
        return [Event(f"News noted for the next newsletter: {body}", GM_ONLY, "gm")]
    if line.lower() == "publish":
        return publish(state)
    if line.lower() == "end campaign":
        state.stage = "ended"
        return [Event(f"**{state.title}** ends with turn {state.turn}.", PUBLIC, "ended")]
    raise IllegalAction(HELP)


def edit(state: GameState, text: str) -> list[Event]:
    """An audited edit: a GM event with the change, and a private event to the nation concerned."""
    if state.stage == "ended":
        raise IllegalAction("the campaign has ended")
    parsed = parse_edit(text)
    change = apply_edit(state, parsed)
    target = change.edit.target
    state.audit.append(AuditEntry(state.turn, target, f"{change.edit.text()} [{change.before} → {change.after}]"))
    gm = Event(f"GM edit, {target}: {change.line()} ({parsed.reason})", GM_ONLY, "edit",
               {"nation": target, "path": change.edit.path, "before": change.before, "after": change.after})
    if target.lower() == "map":
        return [gm, Event(f"The map changed: {change.line()} ({parsed.reason}).", PUBLIC, "map")]
    private = Event(f"The GM changed your sheet: {change.line()} ({parsed.reason}).", Visibility.to(target), "edit",
                    {"nation": target, "path": change.edit.path})
    return [gm, private]


def rule(state: GameState, rid: int, text: str, *, public: bool) -> list[Event]:
    if state.stage != "rulings" or state.report is None:
        raise IllegalAction("rulings are recorded after the turn is processed, before it is published")
    if len(text) > MAX_TEXT:
        raise IllegalAction(f"a ruling is at most {MAX_TEXT} characters")
    item = state.report.ruling(rid)
    item.ruling, item.public, item.ruled = text, public, True
    left = len(state.report.open())
    return [Event(f"Ruling #{rid} recorded{' (public)' if public else ''}; {left} still open.", GM_ONLY, "ruling",
                  {"id": rid})]


def publish(state: GameState) -> list[Event]:
    """Each nation's private turn result with its new sheet, the public newsletter, and the next turn."""
    report = state.report
    if state.stage != "rulings" or report is None:
        raise IllegalAction("there is no processed turn to publish")
    waiting = report.open()
    if waiting:
        raise IllegalAction(f"{len(waiting)} item(s) still need a ruling: "
                            f"{', '.join('#' + str(r.id) for r in waiting[:20])}")
    turn = state.turn
    before = state.year
    accounts.advance_date(state)
    for nation in state.nations.values():
        for leader in nation.leaders:
            leader.age += state.year - before
    state.turn += 1
    events: list[Event] = []
    for name in state.nations:
        body = views.turn_result(state, report, name)
        events.append(Event(body, Visibility.to(name), "result", {"nation": name, "turn": turn}))
    letter = views.newsletter(state, report, turn)
    state.newsletters.append(letter)
    events.append(Event(letter, PUBLIC, "newsletter", {"turn": turn}))
    state.pending_news = []
    state.report = None
    state.stage = "orders"
    return events
