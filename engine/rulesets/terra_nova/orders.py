"""The written orders: one line each, parsed into values that format back to the canonical line.

The grammar is `ORDERS_HELP` (also in the notes file, docs/rulesets/terra-nova.md).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from engine.core import names as forgiving
from engine.core.errors import OrderError
from engine.core.numbers import is_count
from engine.rulesets.terra_nova.geography import geography, normal
from engine.rulesets.terra_nova.reference import city_kinds, commodities, ships, tactics
from engine.rulesets.terra_nova.state import TNState

ORDERS_HELP = """\
One order per line; `#` starts a comment. Each window takes the orders of its step (the view says which).
Areas with two coasts are written with the coast: `Aztec Empire/w`, `Incan Empire/s`.

B.5 purchases
  buy <n> <unit or ship> [at <area>]      soldier, cannon, mission, captain (turn 13+), fort (at <area>);
                                          caravel, carrack, war-carrack (c/f), urca, fluyt, galleass, galleon
                                          (late ships later; `at <area>` builds in the New World, turn 9+)
  pay <florins> to <power>
C.1 and F.1 trans-oceanic movement; C.2 hemispheric movement
  sail <ships> from <place> to <place>[/<coast>] [via guinea] [carrying <cargo>] [leaders <names>]
       cargo: soldier, settler, depleted settler, cannon, slave (C.1 via guinea, bought on the way),
       mission, <florins> gold, goods such as `1 tea/3`
  intercept <power>                       C.1, F.1: from a command-of-the-seas box
  attack <power> at sea in <place>        C.2
  factory <area> [bribe <florins>]        C.2, tried at C.3 (East Indies)
D.3 land orders (missions at D.3, settlement at D.4, marches and attacks at D.5)
  mission <area>
  settle <area> [with depleted settler]
  town <area>                             turn 9+, 2 florins
  plantation <area>                       turn 9+, areas marked P, a settlement and a slave there
  move <units> [leaders <names>] from <area> to <area>
  attack natives in <area> [city <treasure city>] [tactic <tactic>]
  attack <power> in <area> [tactic <tactic>]
  tactic <area> <tactic>                  your standing tactic if attacked there
E.1 native alliance
  ally <area> leader <name> [bribe <florins>]
G.7 endgame vote (when the campaign plays votes, from turn 17)
  vote end  |  vote continue
Any window
  note <anything for the GM>              flagged for the GM to read and rule on
Tactics: defend (defenders only), charge, restraint, massacre, withdrawal, none.
"""

CARGO_ORDER = ("soldier", "settler", "depleted", "cannon", "slave", "mission")
UNIT_NAMES = {"depleted": "depleted settler"}
BUYABLE = ("soldier", "cannon", "mission", "captain", "fort")


def _words() -> dict[str, str]:
    """Every way a player may name a unit or a ship, to its key."""
    out: dict[str, str] = {}
    for key in ("soldier", "settler", "cannon", "slave", "mission", "captain", "fort", "settlement", "town",
                "plantation"):
        out[key] = key
        out[key + "s"] = key
    out["factory"] = out["factories"] = "factory"
    for word in ("depleted", "depleted settler", "depleted settlers", "depleted-settler"):
        out[word] = "depleted"
    for key, ship in ships().items():
        plain = re.sub(r"^l\s+|\s*\(.*\)\*?$", "", ship.name.lower())
        for word in (key, key + "s", ship.code, plain, plain + "s", key.replace("-", " ")):
            out[word] = key
    out.update({"war carrack": "war-carrack", "galleasses": "galleass", "spanish galleass": "galleass",
                "hulk": "urca", "galleas": "galleass"})
    return out


WORDS = _words()
_UNITS = forgiving.Names(sorted(set(WORDS.values())), aliases=WORDS)  # `carr` is carrack; `carack` gets a guess


def unit_word(text: str) -> str:
    key = WORDS.get(normal(text))
    if key is None:
        return _meant(_UNITS, text, "unit or ship", f"`{text[:40]}` is not a unit or ship I know",
                      otherwise=" (e.g. soldier, settler, cannon, carrack, caravel)")
    return key


def _count_list(text: str) -> list[tuple[int, str]]:
    out = []
    for part in re.split(r",|\band\b", text):
        part = part.strip()
        if not part:
            continue
        m = re.match(r"^([0-9]{1,9})\s+(.+)$", part)
        if m:
            out.append((int(m.group(1)), m.group(2).strip()))
        else:
            out.append((1, re.sub(r"^(a|an)\s+", "", part)))
    return out


def ship_list(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for n, word in _count_list(text):
        key = unit_word(word)
        if key not in ships():
            raise OrderError(f"`{word}` is not a ship (ships: {', '.join(ships())})")
        out[key] = out.get(key, 0) + n
    if not out or any(n <= 0 for n in out.values()):
        raise OrderError("name the ships, e.g. `2 carrack, 1 caravel`")
    return out


@dataclass(frozen=True)
class Cargo:
    units: Mapping[str, int] = field(default_factory=dict)
    gold: int = 0
    goods: Mapping[str, int] = field(default_factory=dict)    # "tea/3" -> markers

    def text(self) -> str:
        parts = [f"{self.units[u]} {UNIT_NAMES.get(u, u)}" for u in CARGO_ORDER if self.units.get(u)]
        if self.gold:
            parts.append(f"{self.gold} gold")
        parts += [f"{n} {code}" for code, n in sorted(self.goods.items())]
        return ", ".join(parts)

    @property
    def empty(self) -> bool:
        return not (self.units or self.gold or self.goods)


def cargo_list(text: str, *, land_only: bool = False) -> Cargo:
    units: dict[str, int] = {}
    goods: dict[str, int] = {}
    gold = 0
    names = {c.lower() for c in commodities()}
    for n, word in _count_list(text):
        w = normal(word)
        if w in ("gold", "florins", "florins of gold") and not land_only:
            gold += n
            continue
        m = re.match(r"^([a-z]+)/([0-9]{1,9})$", w)
        if m and m.group(1) in names and not land_only:
            code = f"{m.group(1)}/{int(m.group(2))}"
            goods[code] = goods.get(code, 0) + n
            continue
        key = unit_word(word)
        if key not in CARGO_ORDER:
            raise OrderError(f"`{word}` cannot be carried or moved that way")
        units[key] = units.get(key, 0) + n
    if any(v <= 0 for v in units.values()) or gold < 0:
        raise OrderError("counts must be positive")
    return Cargo(units, gold, goods)


def leader_list(state: TNState, seat: str, text: str) -> tuple[str, ...]:
    out = []
    own = {normal(ld.name): ld.name for ld in state.leaders_of(seat)}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name = own.get(normal(part)) or _meant(forgiving.Names(own.values()), part, "leader",
                                               f"{seat} has no leader called `{part}`")
        out.append(name)
    return tuple(out)


@functools.cache
def _places() -> forgiving.Names:
    return forgiving.Names(geography().places)


def _meant(names: forgiving.Names, text: str, what: str, refusal: str, *, otherwise: str = "") -> str:
    """A forgiving look-up (another case, no accents, a unique prefix) refused in `refusal`'s words, with the
    closest name if there is one, else `otherwise`."""
    meant = names.match(text)
    if meant.name is not None:
        return meant.name
    if meant.candidates:
        raise OrderError(forgiving.unknown_message(meant, what=what))
    raise OrderError(refusal + (forgiving.hint(meant) or otherwise))


def place(state: TNState, text: str) -> str:
    name = geography().find(text) or _meant(_places(), text, "place", f"`{text}` is not a place on the map")
    if geography().places[name].is_indies and not state.options.get("east_indies"):
        raise OrderError(f"{name} is on the East Indies map, which this campaign does not use")
    return name


def land_area(state: TNState, text: str) -> str:
    name = place(state, text)
    if geography().places[name].kind not in ("land", "indies"):
        raise OrderError(f"{name} is not a land area")
    return name


def power(state: TNState, text: str) -> str:
    for seat in state.seats:
        if normal(seat) == normal(text):
            return seat
    return _meant(forgiving.Names(state.seats), text, "power",
                  f"`{text}` is not a power in this game ({', '.join(state.seats)})")


def tactic_word(text: str) -> str:
    word = normal(text)
    word = {"withdraw": "withdrawal", "retreat": "withdrawal"}.get(word, word)
    if word != "none" and word not in tactics():
        raise OrderError(f"`{text}` is not a tactic ({', '.join(tactics())}, none)")
    return word


# -- the orders -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Order:
    """One written order. Each kind has the verbs it is written with, reads the rest of its line (`read`) and writes
    the canonical line (`text`); `Order.parse` reads any line by its verb, and `Order.parse(o.text()) == o`."""

    kind: str
    verbs: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def fits(cls, rest: str) -> bool:
        """Whether the rest of a line is this kind's, where a verb starts more than one kind (`attack`)."""
        return True

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Order:
        """The order from the rest of its line, after `verb` (one of `verbs`)."""
        raise NotImplementedError

    @classmethod
    def parse(cls, line: str, state: TNState, seat: str) -> Order:
        """One order line as an order value (of this kind, or of any kind on `Order`); OrderError says what is
        wrong in the player's words."""
        text = " ".join(line.split())
        verb = text.split(" ", 1)[0].lower()
        rest = text[len(verb):].strip()
        kinds = ORDER_VERBS if cls is Order else dict.fromkeys(cls.verbs, (cls,))
        if verb not in kinds:  # forgiving: `sai` is sail, `sial` gets "did you mean sail?"
            verb = _meant(forgiving.Names(kinds), verb, "order", f"`{forgiving.shown(verb)}` is not an order I know",
                          otherwise="; see the order help")
        kind = next((k for k in kinds[verb] if k.fits(rest)), kinds[verb][-1])
        return kind.read(verb, rest, state, seat)

    def text(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Buy(Order):
    verbs: ClassVar[tuple[str, ...]] = ("buy",)
    count: int = 1
    item: str = ""
    at: str | None = None

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Buy:
        m = re.match(r"^(?:([0-9]{1,9})\s+)?(.+?)(?:\s+at\s+(.+))?$", rest, re.I)
        if not m:
            raise OrderError("write `buy <number> <unit>`, e.g. `buy 3 soldier`")
        item = unit_word(re.sub(r"^(a|an)\s+", "", m.group(2), flags=re.I))
        at = land_area(state, m.group(3)) if m.group(3) else None
        count = _int(m.group(1) or "1", "the number bought")
        if count < 1:
            raise OrderError("buy at least one")
        return cls(verb, count, item, at)

    def text(self) -> str:
        return f"buy {self.count} {self.item}" + (f" at {self.at}" if self.at else "")


@dataclass(frozen=True)
class Pay(Order):
    verbs: ClassVar[tuple[str, ...]] = ("pay",)
    amount: int = 0
    to: str = ""

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Pay:
        m = re.match(r"^([0-9]{1,9})\s+(?:florins\s+)?to\s+(.+)$", rest, re.I)
        if not m:
            raise OrderError("write `pay <florins> to <power>`")
        return cls(verb, _int(m.group(1), "the payment"), power(state, m.group(2)))

    def text(self) -> str:
        return f"pay {self.amount} to {self.to}"


@dataclass(frozen=True)
class Sail(Order):
    verbs: ClassVar[tuple[str, ...]] = ("sail",)
    ships: Mapping[str, int] = field(default_factory=dict)
    origin: str = ""
    dest: str = ""
    coast: str = ""
    guinea: bool = False
    cargo: Cargo = field(default_factory=Cargo)
    leaders: tuple[str, ...] = ()

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Sail:
        m = _SAIL.match(rest)
        if not m:
            raise OrderError("write `sail <ships> from <place> to <place> [via guinea] [carrying <cargo>] "
                             "[leaders <names>]`")
        dest, coast = _dest(state, m.group("dest"))
        cargo = cargo_list(m.group("cargo")) if m.group("cargo") else Cargo()
        leaders = leader_list(state, seat, m.group("leaders")) if m.group("leaders") else ()
        return cls(verb, ship_list(m.group("ships")), place(state, m.group("origin")), dest, coast,
                   bool(m.group("guinea")), cargo, leaders)

    def text(self) -> str:
        fleet = ", ".join(f"{self.ships[k]} {k}" for k in ships() if self.ships.get(k))
        out = f"sail {fleet} from {self.origin} to {self.dest}" + (f"/{self.coast}" if self.coast else "")
        if self.guinea:
            out += " via guinea"
        if not self.cargo.empty:
            out += f" carrying {self.cargo.text()}"
        if self.leaders:
            out += f" leaders {', '.join(self.leaders)}"
        return out


@dataclass(frozen=True)
class Intercept(Order):
    verbs: ClassVar[tuple[str, ...]] = ("intercept",)
    target: str = ""

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Intercept:
        return cls(verb, power(state, rest))

    def text(self) -> str:
        return f"intercept {self.target}"


@dataclass(frozen=True)
class SeaAttack(Order):
    verbs: ClassVar[tuple[str, ...]] = ("attack",)
    target: str = ""
    area: str = ""

    @classmethod
    def fits(cls, rest: str) -> bool:
        return _SEA.match(rest) is not None

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> SeaAttack:
        m = _SEA.match(rest)
        if not m:
            raise OrderError("write `attack <power> at sea in <place>`")
        return cls("attack-at-sea", power(state, m.group("target")), place(state, m.group("area")))

    def text(self) -> str:
        return f"attack {self.target} at sea in {self.area}"


@dataclass(frozen=True)
class Factory(Order):
    verbs: ClassVar[tuple[str, ...]] = ("factory",)
    area: str = ""
    bribe: int = 0

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Factory:
        m = _BRIBE.match(rest)
        if not m or not rest:
            raise OrderError("write `factory <area> [bribe <florins>]`")
        return cls(verb, land_area(state, m.group("rest")), _int(m.group("bribe") or "0", "the bribe"))

    def text(self) -> str:
        return f"factory {self.area}" + (f" bribe {self.bribe}" if self.bribe else "")


@dataclass(frozen=True)
class AreaOrder(Order):
    """mission, town and plantation: a verb and an area."""

    verbs: ClassVar[tuple[str, ...]] = ("mission", "town", "plantation")
    area: str = ""

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> AreaOrder:
        if not rest:
            raise OrderError(f"write `{verb} <area>`")
        return cls(verb, land_area(state, rest))

    def text(self) -> str:
        return f"{self.kind} {self.area}"


@dataclass(frozen=True)
class Settle(Order):
    verbs: ClassVar[tuple[str, ...]] = ("settle",)
    area: str = ""
    depleted: bool = False

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Settle:
        m = re.match(r"^(.+?)(\s+with\s+(?:a\s+)?depleted(?:\s+settler)?)?$", rest, re.I)
        if not m:
            raise OrderError("write `settle <area>`")
        return cls(verb, land_area(state, m.group(1)), bool(m.group(2)))

    def text(self) -> str:
        return f"settle {self.area}" + (" with depleted settler" if self.depleted else "")


@dataclass(frozen=True)
class Move(Order):
    verbs: ClassVar[tuple[str, ...]] = ("move",)
    cargo: Cargo = field(default_factory=Cargo)
    leaders: tuple[str, ...] = ()
    origin: str = ""
    dest: str = ""

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Move:
        m = _MOVE.match(rest)
        if not m:
            raise OrderError("write `move <units> [leaders <names>] from <area> to <area>`")
        what = m.group("what")
        lm = re.match(r"^(?P<units>.*?)\s*\bleaders?\s+(?P<names>.+)$", what, re.I)
        units_text, names = (lm.group("units"), lm.group("names")) if lm else (what, "")
        cargo = cargo_list(units_text, land_only=True) if units_text.strip() else Cargo()
        leaders = leader_list(state, seat, names) if names else ()
        if cargo.empty and not leaders:
            raise OrderError("name what moves")
        return cls(verb, cargo, leaders, land_area(state, m.group("origin")), land_area(state, m.group("dest")))

    def text(self) -> str:
        what = self.cargo.text()
        if self.leaders:
            what = (what + " " if what else "") + f"leaders {', '.join(self.leaders)}"
        return f"move {what} from {self.origin} to {self.dest}"


@dataclass(frozen=True)
class Attack(Order):
    verbs: ClassVar[tuple[str, ...]] = ("attack",)
    target: str = ""
    area: str = ""
    city: str | None = None
    tactic: str | None = None

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Attack:
        m = _ATTACK.match(rest)
        if not m:
            raise OrderError("write `attack natives in <area>` or `attack <power> in <area>`")
        target = "natives" if normal(m.group("target")) == "natives" else power(state, m.group("target"))
        city = None
        if m.group("city"):
            city = next((c for c in city_kinds() if normal(c) == normal(m.group("city"))), None)
            if city is None:
                raise OrderError(f"`{m.group('city')}` is not a treasure city ({', '.join(city_kinds())})")
            if target != "natives":
                raise OrderError("only the natives hold treasure cities")
        tactic = tactic_word(m.group("tactic")) if m.group("tactic") else None
        return cls(verb, target, land_area(state, m.group("area")), city, tactic)

    def text(self) -> str:
        out = f"attack {self.target} in {self.area}"
        if self.city:
            out += f" city {self.city}"
        if self.tactic:
            out += f" tactic {self.tactic}"
        return out


@dataclass(frozen=True)
class Tactic(Order):
    verbs: ClassVar[tuple[str, ...]] = ("tactic",)
    area: str = ""
    tactic: str = ""

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Tactic:
        parts = rest.rsplit(" ", 1)
        if len(parts) != 2:
            raise OrderError("write `tactic <area> <tactic>`")
        return cls(verb, land_area(state, parts[0]), tactic_word(parts[1]))

    def text(self) -> str:
        return f"tactic {self.area} {self.tactic}"


@dataclass(frozen=True)
class Ally(Order):
    verbs: ClassVar[tuple[str, ...]] = ("ally",)
    area: str = ""
    leader: str = ""
    bribe: int = 0

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Ally:
        m = re.match(r"^(?P<area>.+?)\s+leader\s+(?P<leader>.+?)(?:\s+bribe\s+(?P<bribe>[0-9]{1,9}))?$", rest, re.I)
        if not m:
            raise OrderError("write `ally <area> leader <name> [bribe <florins>]`")
        leader = leader_list(state, seat, m.group("leader"))[0]
        return cls(verb, land_area(state, m.group("area")), leader, _int(m.group("bribe") or "0", "the bribe"))

    def text(self) -> str:
        return f"ally {self.area} leader {self.leader}" + (f" bribe {self.bribe}" if self.bribe else "")


@dataclass(frozen=True)
class Vote(Order):
    verbs: ClassVar[tuple[str, ...]] = ("vote",)
    end: bool = False

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Vote:
        if normal(rest) not in ("end", "continue"):
            raise OrderError("write `vote end` or `vote continue`")
        return cls(verb, normal(rest) == "end")

    def text(self) -> str:
        return "vote end" if self.end else "vote continue"


@dataclass(frozen=True)
class Note(Order):
    verbs: ClassVar[tuple[str, ...]] = ("note",)
    note: str = ""

    @classmethod
    def read(cls, verb: str, rest: str, state: TNState, seat: str) -> Note:
        if not rest:
            raise OrderError("write what the GM should read after `note`")
        return cls(verb, rest[:400])

    def text(self) -> str:
        return f"note {self.note}"


# -- parsing ------------------------------------------------------------------------------------------------------

_SAIL = re.compile(r"^(?P<ships>.+?)\s+from\s+(?P<origin>.+?)\s+to\s+(?P<dest>.+?)"
                   r"(?P<guinea>\s+via\s+guinea)?(?:\s+carrying\s+(?P<cargo>.+?))?"
                   r"(?:\s+leaders?\s+(?P<leaders>.+))?$", re.I)
_MOVE = re.compile(r"^(?P<what>.+?)\s+from\s+(?P<origin>.+?)\s+to\s+(?P<dest>.+)$", re.I)
_ATTACK = re.compile(r"^(?P<target>.+?)\s+in\s+(?P<area>.+?)(?:\s+city\s+(?P<city>.+?))?"
                     r"(?:\s+tactic\s+(?P<tactic>\w+))?$", re.I)
_SEA = re.compile(r"^(?P<target>.+?)\s+at\s+sea\s+in\s+(?P<area>.+)$", re.I)
_BRIBE = re.compile(r"^(?P<rest>.+?)(?:\s+bribe\s+(?P<bribe>[0-9]{1,9}))?$", re.I)
_COAST = re.compile(r"^(?P<name>.+?)(?:\s*/\s*|\s+coast\s+)(?P<coast>[a-z])$", re.I)


def _dest(state: TNState, text: str) -> tuple[str, str]:
    m = _COAST.match(text.strip())
    if m and geography().find(m.group("name")):
        name = place(state, m.group("name"))
        coast = m.group("coast").lower()
        if coast not in geography().places[name].coasts:
            raise OrderError(f"{name} has no coast `{coast}` (coasts: {', '.join(geography().places[name].coasts)})")
        return name, coast
    return place(state, text), ""


def _int(text: str, what: str) -> int:
    if text.startswith("-") and is_count(text[1:]):
        raise OrderError(f"{what} cannot be negative")
    if not is_count(text):
        raise OrderError(f"{what} must be a whole number, not `{text[:20]}`")
    return int(text)


# Every kind of order, and the kinds each verb starts (tried in turn: `attack ... at sea` before `attack`).
ORDER_KINDS: tuple[type[Order], ...] = (Buy, Pay, Sail, Intercept, SeaAttack, Factory, AreaOrder, Settle, Move, Attack,
                                        Tactic, Ally, Vote, Note)
ORDER_VERBS: dict[str, tuple[type[Order], ...]] = {
    verb: tuple(kind for kind in ORDER_KINDS if verb in kind.verbs)
    for verb in dict.fromkeys(verb for kind in ORDER_KINDS for verb in kind.verbs)
}
VERBS = tuple(ORDER_VERBS)
