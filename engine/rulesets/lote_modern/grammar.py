"""Reading an order line into its value (the grammar of `orders.py`): names may be quoted, and multi-word
names are matched against the nation's own leaders, armies and projects."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.core import names as forgiving
from engine.core.errors import OrderError, RulesError
from engine.core.numbers import is_count
from engine.rulesets.lote_modern.orders import (
    BANK_SETTINGS,
    CARTEL_VERBS,
    FACTORY_ORDERS,
    INVEST_OTHER,
    INVEST_RATINGS,
    ROUTE_CHANGES,
    ROUTE_KINDS,
    Activate,
    Assist,
    BankOrder,
    Bombard,
    Borrow,
    Build,
    CartelOrder,
    CoBuild,
    Colonize,
    ConduitOrder,
    Construct,
    Engineers,
    Export,
    Fit,
    Fund,
    Grow,
    Hire,
    Improve,
    Invest,
    LeaderAction,
    LoanOrder,
    MonopolyOrder,
    MoveFactory,
    Note,
    Order,
    Pay,
    Payment,
    PlaceReserve,
    PoolOrder,
    Recruit,
    Research,
    RouteOrder,
    ShipsToMsp,
)
from engine.rulesets.lote_modern.sheet import fold, parse_units
from engine.rulesets.lote_modern.text import amount, is_number, join_amounts, number, tokens

_CODE = re.compile(r"^\(?[a-z]{1,4}\)?$", re.IGNORECASE)
_ACTION_CODE = re.compile(r"^[a-z]{1,5}$", re.IGNORECASE)
_PERCENT = re.compile(r"^([0-9]{1,9})%?$")


@dataclass(frozen=True, slots=True)
class Names:
    """The multi-word names a line may use without quotes: the nation's leaders, armies, projects."""

    leaders: tuple[str, ...] = ()
    armies: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()


# -- parsing ------------------------------------------------------------------------------------
class _Line:
    """A cursor over one line's tokens."""

    def __init__(self, text: str, names: Names) -> None:
        self.raw = text
        self.toks = join_amounts(tokens(text))
        self.i = 0
        self.names = names

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def peek(self) -> str:
        return self.toks[self.i] if self.i < len(self.toks) else ""

    def take(self, what: str) -> str:
        if self.done():
            raise OrderError(f"expected {what}")
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def word(self, *choices: str) -> str:
        tok = self.take(" or ".join(choices))
        for c in choices:
            if tok.lower() == c:
                return c
        raise OrderError(f"expected {' or '.join(choices)}, not `{tok}`")

    def optional(self, word: str) -> bool:
        if self.peek().lower() == word:
            self.i += 1
            return True
        return False

    def count(self, what: str = "a number") -> int:
        tok = self.take(what)
        if not is_count(tok) or int(tok) <= 0:
            raise OrderError(f"`{tok}` is not {what} (a whole number above 0)")
        return int(tok)

    def name_until(self, *stops: str, what: str = "a name", known: Sequence[str] = (), single: bool = False) -> str:
        """A name: a quoted token, the longest known name, or the words up to a stop word or amount
        (one word only when `single`: unknown multi-word names must then be quoted)."""
        if self.done():
            raise OrderError(f"expected {what}")
        for name in sorted(known, key=len, reverse=True):
            parts = name.split()
            chunk = self.toks[self.i:self.i + len(parts)]
            if [fold(w) for w in chunk] == [fold(w) for w in parts]:
                self.i += len(parts)
                return name
        words: list[str] = []
        while not self.done():
            tok = self.peek()
            if words and (tok.lower() in stops or amount(tok) is not None):
                break
            words.append(self.take(what))
            if len(words) == 1 and (" " in words[0] or single):
                break
        return " ".join(words)

    def amounts(self) -> dict[str, float]:
        out: dict[str, float] = {}
        while not self.done() and (a := amount(self.peek())) is not None:
            value, unit = a
            if unit in out:
                raise OrderError(f"{unit} is given twice")
            out[unit] = value
            self.i += 1
        return out

    def end(self) -> None:
        if not self.done():
            raise OrderError(f"unexpected `{' '.join(self.toks[self.i:])}` at the end")


def _whole(value: float, unit: str) -> int:
    if value != int(value):
        raise OrderError(f"{number(value)}{unit}: {unit} come in whole numbers")
    return int(value)


def _unit_code(tok: str) -> tuple[str, bool]:
    if not _CODE.match(tok):
        raise OrderError(f"`{tok}` is not a unit code (like i, hc, st, or (ha) for export)")
    export = tok.startswith("(")
    return tok.strip("()").lower(), export


class UnknownVerb(OrderError):
    """A line whose first word is no order; the message names the closest verb. The form lists every verb
    once (`verb_list`), not on every such line."""

    def __init__(self, typed: str, meant: forgiving.Match) -> None:
        if meant.candidates:
            message = forgiving.unknown_message(meant, what="order")
        else:
            message = f"`{forgiving.shown(typed)}` is not an order{forgiving.hint(meant)}"
        super().__init__(message)
        self.typed = typed


def verb_list() -> str:
    """Every order verb, for the first line of a form that began with none."""
    return "orders: " + ", ".join(sorted(_PARSERS))


def parse_order(text: str, names: Names = Names()) -> Order:
    """One order line as a value; OrderError says what is wrong with it."""
    line = _Line(text, names)
    typed = line.take("an order")
    parser = _PARSERS.get(typed.lower())
    if parser is None:
        meant = VERBS.match(typed)  # forgiving: a unique prefix (`recr`) or another case is the verb
        if meant.name is None:
            raise UnknownVerb(typed, meant)
        parser = _PARSERS[meant.name]
    order = parser(line)
    line.end()
    return order


def _invest(line: _Line) -> Order:
    target = line.take("what to invest in").lower()
    place = ""
    if target == "public-works":
        place = line.name_until("gp", what="a region or city")
    elif target not in (*INVEST_RATINGS, "bank", *INVEST_OTHER):
        raise OrderError(f"`{target}` is not something to invest in ({', '.join((*INVEST_RATINGS, 'bank'))}, "
                         f"public-works <place>, or {', '.join(INVEST_OTHER)})")
    amounts = line.amounts()
    if set(amounts) != {"gp"} or amounts["gp"] <= 0:
        raise OrderError("an investment is an amount of gold, like 40gp")
    return Invest(target, amounts["gp"], place)


def _build(line: _Line) -> Order:
    count = line.count("how many units")
    code, export = _unit_code(line.take("a unit code"))
    line.word("at")
    place = line.name_until("reserve", what="where to build")
    reserve = line.optional("reserve")
    if reserve and export:
        raise OrderError("export units are not built as reserves")
    return Build(count, code, place, export, reserve)


def _reserve(line: _Line) -> Order:
    count = line.count("how many units")
    code, export = _unit_code(line.take("a unit code"))
    if export:
        raise OrderError("export units are not placed in reserve")
    line.word("from")
    return PlaceReserve(count, code, line.name_until(what="an army", known=line.names.armies))


def _activate(line: _Line) -> Order:
    count = line.count("how many units")
    code, export = _unit_code(line.take("a unit code"))
    if export:
        raise OrderError("export units are not held in reserve")
    line.word("at")
    return Activate(count, code, line.name_until(what="a city"))


def _research(line: _Line) -> Order:
    project = line.name_until("at", what="an R&D project", known=line.names.projects)
    amounts = line.amounts()
    if not set(amounts) <= {"gp", "nfp"} or not amounts:
        raise OrderError("give the GP and NFP to invest, like 100gp 2nfp")
    place = line.name_until(what="the project's location") if line.optional("at") else ""
    return Research(project, amounts.get("gp", 0.0), _whole(amounts.get("nfp", 0), "nfp"), place)


def _construct(line: _Line) -> Order:
    kind = line.take("what to construct").lower()
    if kind == "uwm":
        return Construct("uwm")
    if kind == "railroad":
        levels = 1
        if len(line.toks) >= 2 and line.toks[-1].lower() == "levels":
            if not is_number(line.toks[-2]) or int(float(line.toks[-2])) < 1:
                raise OrderError("write the capacity as a whole number of levels, like 2 levels")
            levels = int(float(line.toks[-2]))
            line.toks = line.toks[:-2]
        a = line.name_until("to", what="a region")
        line.word("to")
        b = line.name_until(what="a region")
        return Construct("railroad", levels, a, b)
    if kind not in FACTORY_ORDERS:
        raise OrderError(f"`{kind}` is not something to construct ({', '.join(FACTORY_ORDERS)}, railroad, uwm)")
    points = line.count("how many points")
    line.word("at")
    place = line.name_until("hidden", what="where to build it")
    return Construct(kind, points, place, hidden=line.optional("hidden"))


def _move_factory(line: _Line) -> Order:
    points = line.count("how many factory points")
    kind = line.take("which factory").lower()
    if kind not in FACTORY_ORDERS:
        raise OrderError(f"`{kind}` is not a factory or yard ({', '.join(FACTORY_ORDERS)})")
    line.word("from")
    source = line.name_until("to", what="where the factory stands")
    line.word("to")
    destination = line.name_until("by", "paying", what="the city it moves to")
    leader = line.name_until("paying", what="a leader", known=line.names.leaders) if line.optional("by") else ""
    nfp = False
    if line.optional("paying"):
        nfp = line.word("nfp", "gp") == "nfp"
    return MoveFactory(points, kind, source, destination, leader, nfp)


def _bombard(line: _Line) -> Order:
    target = line.take("what to bombard").lower()
    if target not in (*FACTORY_ORDERS, "city-yard"):
        raise OrderError(f"`{target}` is not a factory or yard ({', '.join(FACTORY_ORDERS)}, city-yard)")
    line.word("at")
    place = line.name_until("with", what="the place")
    line.word("with")
    return Bombard(target, place, line.name_until(what="an army", known=line.names.armies))


def _fund(line: _Line) -> Order:
    project = line.take("a project id, like P002").upper()
    amounts = line.amounts()
    if not amounts or not set(amounts) <= {"gp", "nfp"}:
        raise OrderError("give the GP and NFP to pay in, like 30gp 5nfp")
    return Fund(project, amounts.get("gp", 0.0), _whole(amounts.get("nfp", 0), "nfp"))


def _colonize(line: _Line) -> Order:
    region = line.name_until(what="a region")
    amounts = line.amounts()
    if not amounts or not set(amounts) <= {"gp", "nfp"}:
        raise OrderError("give the GP and NFP to spend, like 15gp 15nfp")
    return Colonize(region, amounts.get("gp", 0.0), _whole(amounts.get("nfp", 0), "nfp"))


def _improve(line: _Line) -> Order:
    return Improve(line.name_until(what="a region"))


def _grow(line: _Line) -> Order:
    return Grow(line.name_until(what="a city"))


def _cobuild(line: _Line) -> Order:
    city = line.name_until("by", what="a city")
    amounts = line.amounts()
    if not set(amounts) <= {"gp", "nfp"}:
        raise OrderError("a co-build pays GP and NFP, like 20gp 10nfp (or nothing: all that is left)")
    leader = line.name_until(what="a leader", known=line.names.leaders) if line.optional("by") else ""
    return CoBuild(city, amounts.get("gp", 0.0), _whole(amounts.get("nfp", 0), "nfp"), leader)


def _recruit(line: _Line) -> Order:
    blocks = line.count("how many blocks of 25 GP")
    line.word("for")
    return Recruit(blocks, line.take("a project id").upper())


def _engineers(line: _Line) -> Order:
    count = line.count("how many engineer units")
    line.word("from")
    army = line.name_until("for", what="an army", known=line.names.armies)
    line.word("for")
    return Engineers(count, army, line.take("a project id").upper())


def _assist(line: _Line) -> Order:
    nation = line.take("a nation")
    project = line.name_until(what="an R&D project")
    amounts = line.amounts()
    if set(amounts) != {"nfp"}:
        raise OrderError("technical assistance is NFP, like 1nfp")
    return Assist(nation, project, _whole(amounts["nfp"], "nfp"))


def _bank(line: _Line) -> Order:
    setting = line.take("a bank setting").lower()
    if setting not in BANK_SETTINGS:
        raise OrderError(f"`{setting}`: bank settings are {', '.join(BANK_SETTINGS)}")
    if setting in ("close-to", "open-to"):
        return BankOrder(setting, line.name_until(what="a nation"))
    if setting == "rates":
        rates = []
        for what in ("the internal rate", "the external rate"):
            m = _PERCENT.match(line.take(what))
            if not m:
                raise OrderError(f"{what} is a percentage, like 30%")
            rates.append(int(m[1]))
        return BankOrder("rates", internal=rates[0], external=rates[1])
    return BankOrder(setting)


def _borrow(line: _Line) -> Order:
    amounts = line.amounts()
    if set(amounts) != {"gp"}:
        raise OrderError("say how much to borrow, like 200gp")
    line.word("from")
    return Borrow(amounts["gp"], line.name_until(what="the lending nation"))


def _loan(verb: str) -> Callable[[_Line], Order]:
    def parse(line: _Line) -> Order:
        return LoanOrder(verb, line.take("a loan id, like L1").upper())
    return parse


def _payment(verb: str) -> Callable[[_Line], Order]:
    def parse(line: _Line) -> Order:
        amounts = line.amounts()
        if set(amounts) != {"gp"}:
            raise OrderError("give the amount, like 100gp")
        return Payment(verb, amounts["gp"])
    return parse


def _conduit(drop: bool) -> Callable[[_Line], Order]:
    def parse(line: _Line) -> Order:
        a = line.name_until("to", what="the first anchor city")
        line.word("to")
        b = line.name_until("via", what="the second anchor city")
        zones: tuple[str, ...] = ()
        if not drop and line.optional("via"):
            rest = " ".join(line.toks[line.i:])
            line.i = len(line.toks)
            zones = tuple(" ".join(z.split()) for z in rest.split(";") if z.strip())
        return ConduitOrder(a, b, zones, drop)
    return parse


def _route(line: _Line) -> Order:
    partner = line.name_until(*ROUTE_CHANGES, *ROUTE_KINDS, what="the trading partner")
    kind = line.word(*ROUTE_KINDS) if line.peek().lower() in ROUTE_KINDS else "sea"
    change = line.word(*ROUTE_CHANGES)
    if change == "open":
        port = target = ""
        via: tuple[str, ...] = ()
        if kind != "aerial":
            line.word("from")
            port = line.name_until("to", "via", what="the base port")
        if kind == "sea":
            line.word("to")
            target = line.name_until("msp", "steam", what="the partner's port")
        elif kind == "overland" and line.optional("via"):
            words = []
            while not line.done() and amount(line.peek()) is None:
                words.append(line.take("a region"))
            via = tuple(" ".join(z.split()) for z in " ".join(words).split(";") if z.strip())
        amounts = line.amounts()
        if not set(amounts) <= {"msp"}:
            raise OrderError("allocate merchant shipping, like 10msp (at least 1, LotE 2.8.3.3)")
        steam = kind == "sea" and line.optional("steam")
        return RouteOrder(partner, "open", port, target, _whole(amounts.get("msp", 0), "msp"), kind, via, steam)
    if change == "msp":
        tok = line.take("a change like +5 or -3")
        if not re.match(r"^[+-][0-9]{1,9}$", tok):
            raise OrderError(f"`{tok}`: write the change with its sign, like +5 or -3")
        return RouteOrder(partner, "msp", msp=int(tok), kind=kind, steam=kind == "sea" and line.optional("steam"))
    if change == "base":
        if kind != "sea":
            raise OrderError("only a sea route changes its base port")
        return RouteOrder(partner, "base", line.name_until(what="the new base port"))
    return RouteOrder(partner, change, kind=kind)


def _cartel(line: _Line) -> Order:
    verb = line.word(*CARTEL_VERBS)
    party = line.take("the Merchant House" if verb in ("grant", "revoke") else "the Cartel nation")
    target = line.take("the target nation")
    if verb != "carry":
        return CartelOrder(verb, party, target)
    line.word("from")
    port = line.name_until("to", what="the Cartel nation's port")
    line.word("to")
    target_port = line.name_until("msp", what="the target nation's port")
    amounts = line.amounts()
    if set(amounts) != {"msp"}:
        raise OrderError("give the merchant shipping the House puts on it, like 10msp (LotE 7.1.3)")
    line.word("at")
    return CartelOrder("carry", party, target, port, target_port, _whole(amounts["msp"], "msp"),
                       line.name_until(what="the port the MSP are based at"))


def _unit_list(line: _Line, *stops: str) -> tuple[tuple[str, int], ...]:
    """Units like ``10i 4c`` or ``10 i 4 c`` up to a stop word."""
    words: list[str] = []
    while not line.done() and line.peek().lower() not in stops and amount(line.peek()) is None:
        words.append(line.take("units"))
    glued: list[str] = []
    for word in words:
        if glued and is_count(glued[-1]) and not is_count(word):
            glued[-1] += word
        else:
            glued.append(word)
    try:
        units = parse_units(" ".join(glued))
    except RulesError as exc:
        raise OrderError(str(exc)) from None
    if not units or any(code.startswith("(") for code in units):
        raise OrderError("name the units, like 10i 4c")
    return tuple(units.items())


def _pool(line: _Line) -> Order:
    pool = line.name_until("convert", "price", what="a mercenary pool")
    verb = line.word("convert", "price")
    if verb == "price":
        amounts = line.amounts()
        if set(amounts) != {"gp"}:
            raise OrderError("the price of a unit, like 3gp")
        return PoolOrder(pool, "price", price=amounts["gp"])
    old = _unit_list(line, "to")
    line.word("to")
    return PoolOrder(pool, "convert", old, _unit_list(line))


def _hire(line: _Line) -> Order:
    units = _unit_list(line, "from")
    line.word("from")
    pool = line.name_until("at", what="a mercenary pool")
    line.word("at")
    city = line.name_until(what="the city where they are hired")
    amounts = line.amounts()
    if not set(amounts) <= {"gp"}:
        raise OrderError("a bid is gold, like 40gp")
    return Hire(units, pool, city, amounts.get("gp", 0.0))


def _export(line: _Line) -> Order:
    count = line.count("how many export units")
    code, export = _unit_code(line.take("an export unit, like (ha)"))
    if not export:
        raise OrderError(f"export units are written in parentheses, like ({code})")
    line.word("from")
    army = line.name_until("to", what="an army", known=line.names.armies)
    line.word("to")
    return Export(count, code, army, line.name_until(what="the buying nation"))


def _fit(line: _Line) -> Order:
    count = line.count("how many export units")
    code, export = _unit_code(line.take("an export unit, like (ha)"))
    if not export:
        raise OrderError(f"export units are written in parentheses, like ({code})")
    line.word("to")
    unit, national_export = _unit_code(line.take("the national unit they upgrade, like i"))
    if national_export:
        raise OrderError("export units upgrade national units, not other export units")
    line.word("in")
    army = line.name_until("by", what="an army", known=line.names.armies)
    leader = line.name_until(what="a leader", known=line.names.leaders) if line.optional("by") else ""
    return Fit(count, code, unit, army, leader)


def _pay(line: _Line) -> Order:
    nation = line.take("the nation paid")
    amounts = line.amounts()
    if set(amounts) != {"gp"} or amounts["gp"] <= 0:
        raise OrderError("say how much gold, like 30gp")
    return Pay(nation, amounts["gp"])


def _msp(line: _Line) -> Order:
    count = line.count("how many transports")
    code, export = _unit_code(line.take("a transport code"))
    if export:
        raise OrderError("export units are not merchant shipping")
    line.word("from")
    return ShipsToMsp(count, code, line.name_until(what="an army", known=line.names.armies))


def _action(line: _Line) -> Order:
    leader = line.name_until(what="a leader", known=line.names.leaders, single=True)
    code = line.take("an action code").upper()
    if not _ACTION_CODE.match(code):
        raise OrderError(f"`{code}` is not an action code")
    count, unit, target = 0, "", ""
    if code == "RU":
        count = line.count("how many units to retrain")
        unit, export = _unit_code(line.take("a unit code"))
        if export:
            raise OrderError("export units are not retrained")
        line.word("at")
    if not line.done() and amount(line.peek()) is None:
        target = line.name_until(what="the target")
    amounts = line.amounts()
    if not set(amounts) <= {"ap", "gp", "nfp"}:
        raise OrderError("an action commits ap, gp and nfp, like 4ap 25gp")
    return LeaderAction(leader, code, target, _whole(amounts.get("ap", 0), "ap"), amounts.get("gp", 0.0),
                        _whole(amounts.get("nfp", 0), "nfp"), count, unit)


def _monopoly(verb: str) -> Callable[[_Line], Order]:
    def parse(line: _Line) -> Order:
        house = line.take("the Merchant House")
        good = line.name_until(what="the good or trade, like wool")
        return MonopolyOrder(verb, house, good)
    return parse


def _note(kind: str) -> Callable[[_Line], Order]:
    def parse(line: _Line) -> Order:
        body = " ".join(line.raw.split()[1:])
        line.i = len(line.toks)
        if not body:
            raise OrderError(f"`{kind}` needs some words for the GM")
        return Note(kind, body)
    return parse


_PARSERS: dict[str, Callable[[_Line], Order]] = {
    "invest": _invest, "build": _build, "reserve": _reserve, "activate": _activate, "research": _research,
    "construct": _construct, "fund": _fund, "colonize": _colonize, "colonise": _colonize, "improve": _improve,
    "grow": _grow, "cobuild": _cobuild, "co-build": _cobuild,
    "recruit": _recruit, "engineers": _engineers, "assist": _assist, "bank": _bank, "borrow": _borrow,
    "repay": _loan("repay"), "default": _loan("default"), "pay-penalty": _payment("pay-penalty"),
    "rebuild-bank": _payment("rebuild-bank"), "conduit": _conduit(False), "drop-conduit": _conduit(True),
    "route": _route, "msp": _msp, "cartel": _cartel, "pay": _pay, "pool": _pool, "hire": _hire, "action": _action,
    "export": _export, "fit": _fit, "move-factory": _move_factory, "bombard": _bombard,
    "note": _note("note"),
    "diplomacy": _note("diplomacy"),
    "grant": _monopoly("grant"), "revoke": _monopoly("revoke"),
}


@dataclass(slots=True)
class Parsed:
    """A numbered line and what it parsed to (or why not)."""

    line: int
    text: str
    order: Order | None = None
    error: str = ""
    notes: list[str] = field(default_factory=list)


VERBS = forgiving.Names(_PARSERS)
