"""The ruleset contract: small and fixed. A ruleset never knows it is on Discord.

A ruleset is data plus a few overridable methods. The platform calls them with a state it
loaded from the campaign record and treats the input state as consumed: a method may change
it and return it in its `Step`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction, RulesError, UploadError
from engine.core.events import Event, Step
from engine.core.numbers import is_count
from engine.core.orders import OrderCheck
from engine.core.phases import Phase
from engine.core.rng import Dice
from engine.core.tables import Table
from engine.core.visibility import Viewer

S = TypeVar("S")
OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class Option:
    """A campaign option; its type is the type of its default."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, raw: str) -> OptionValue:
        text = raw.strip()
        if isinstance(self.default, bool):
            if text.lower() in ("1", "yes", "true", "on"):
                return True
            if text.lower() in ("0", "no", "false", "off"):
                return False
            raise RulesError(f"option `{self.name}` is yes or no, not `{raw[:40]}`")
        if isinstance(self.default, int):
            if not is_count(text.removeprefix("-")):  # ASCII digits only: int() would take "٣"
                raise RulesError(f"option `{self.name}` is a whole number, not `{raw[:40]}`")
            value = int(text)
            if self.minimum is not None and value < self.minimum:
                raise RulesError(f"option `{self.name}` is at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise RulesError(f"option `{self.name}` is at most {self.maximum}")
            return value
        if self.choices and text not in self.choices:
            raise RulesError(f"option `{self.name}` is one of {', '.join(self.choices)}; not `{raw[:40]}`")
        return text


@dataclass(frozen=True, slots=True)
class SeatRule:
    """How many seats, and their names: fixed choices, or named freely by whoever joins."""

    minimum: int
    maximum: int
    names: tuple[str, ...] = ()

    @property
    def free_names(self) -> bool:
        return not self.names


@dataclass(frozen=True, slots=True)
class Setup:
    """What `setup` is given: the seats in join order, options, uploaded files and dice."""

    seats: tuple[str, ...]
    options: Mapping[str, OptionValue]
    dice: Dice
    files: Mapping[str, str] = field(default_factory=dict)
    automatic: frozenset[str] = frozenset()
    name: str = ""


@dataclass(frozen=True, slots=True)
class View:
    """What one viewer may see now, and what they may do."""

    phase: Phase
    summary: str
    sheet: str = ""
    actions: tuple[Action, ...] = ()


class Ruleset(ABC, Generic[S]):
    """Base of every ruleset. Override what the game uses; the defaults refuse politely."""

    id: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]
    reads_versions: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()
    uploads: ClassVar[Mapping[str, str]] = {}
    orders_help: ClassVar[str] = ""
    # event kinds that show a player something hidden (a tile turned over): an action that did so is never undone
    revealing: ClassVar[frozenset[str]] = frozenset()
    # whether `check` may take long enough (counting a battle's odds) to be run off the event loop
    slow_checks: ClassVar[bool] = False

    # -- set-up -------------------------------------------------------------------------
    @abstractmethod
    def seat_rule(self, options: Mapping[str, OptionValue], files: Mapping[str, str]) -> SeatRule:
        """The seats this campaign offers."""

    @abstractmethod
    def setup(self, ctx: Setup) -> S:
        """The starting state."""

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, OptionValue]:
        """Options given by name; unknown names are an error; missing ones take their defaults."""
        def norm(name: str) -> str:
            return name.strip().lower().replace("-", "_")

        known = {norm(o.name): o for o in self.options}
        given = {norm(k): v for k, v in raw.items()}
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(o.name for o in self.options) or "none"
            shown = ", ".join(name[:40] for name in unknown[:5])
            raise RulesError(f"unknown option {shown} (options: {names})")
        return {o.name: (o.parse(given[key]) if key in given else o.default) for key, o in known.items()}

    def can_read(self, version: str) -> bool:
        """Whether a campaign started under `version` can go on under this code."""
        return version == self.version or version in self.reads_versions

    # -- play -----------------------------------------------------------------------------
    @abstractmethod
    def phase(self, state: S) -> Phase:
        """Where the game is and whom it waits for."""

    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> View:
        """What `viewer` may see, with their legal actions."""

    def act(self, state: S, actor: Viewer, action: str, dice: Dice) -> Step[S]:
        """Apply one action in its canonical text form."""
        raise IllegalAction(f"{self.title} has no actions to take here")

    def reveals(self, events: Sequence[Event]) -> bool:
        """Whether these events showed anyone something that was hidden: a kind the ruleset names as revealing,
        or anything told to some seats only. A player may take back an action only if it did not."""
        return any(e.kind in self.revealing or (not e.visibility.public and e.visibility.seats) for e in events)

    def check(self, state: S, seat: str, text: str) -> list[OrderCheck]:
        """Check a seat's order text line by line, without changing anything."""
        raise IllegalAction(f"{self.title} takes no written orders now")

    def odds(self, state: S, seat: str, text: str) -> str:
        """What may happen if `seat` gave these orders (or took this action): exact odds, counted only from what
        that seat may know, read from the tables and modifiers the rules roll on."""
        raise IllegalAction(f"{self.title} has no dice to count here")

    def resolve(self, state: S, orders: Mapping[str, Sequence[str]], dice: Dice) -> Step[S]:
        """Close the order window: apply every seat's accepted (canonical) order lines."""
        raise IllegalAction(f"{self.title} has no order window to resolve")

    def autoplay(self, state: S, seat: str, dice: Dice) -> str | None:
        """The action an automatic player would take for `seat` now, or None if it has none."""
        return None

    def timeout_action(self, state: S, seat: str) -> str | None:
        """What happens when `seat` lets its turn timer run out (None: nothing automatic)."""
        return None

    # -- data ---------------------------------------------------------------------------------
    def tables(self) -> Mapping[str, Table]:
        """The ruleset's own dice tables, for `/gm table roll`."""
        return {}

    def check_upload(self, kind: str, text: str) -> str:
        """Validate an uploaded file before the campaign starts; returns a one-line summary."""
        raise UploadError(f"{self.title} takes no `{kind}` files")

    def upload(self, state: S, kind: str, text: str) -> Step[S]:
        """Take an uploaded file during play."""
        raise UploadError(f"{self.title} takes no `{kind}` files during play")

    # -- output ---------------------------------------------------------------------------------
    def render(self, state: S, viewer: Viewer) -> bytes | None:
        """A PNG map of what `viewer` may see, or None when the campaign has no map."""
        return None

    def render_focus(self, state: S, viewer: Viewer) -> bytes | None:
        """A focused crop posted beside the map with a turn's news, where the whole board cannot be legible at
        preview size (Terra Prime: the sector just played); None when the ruleset has none."""
        return None

    def render_orders(self, state: S, viewer: Viewer, orders: Sequence[str]) -> bytes | None:
        """The seat's map with its own pending `orders` (canonical lines) drawn on it; rulesets that can draw
        them (movement arrows, builds) say so by overriding this."""
        return self.render(state, viewer)

    # -- persistence ----------------------------------------------------------------------------
    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]:
        """The state as JSON-compatible data."""

    @abstractmethod
    def load(self, data: dict[str, Any]) -> S:
        """The state from `dump`'s data."""
