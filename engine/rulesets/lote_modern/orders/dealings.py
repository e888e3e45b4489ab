"""Orders that deal with others (LotE 2, 5, 6, 7): the bank and loans, conduits and trade routes, cartels,
payments, mercenaries, export arms, leaders' actions, monopolies and notes for the GM. Each reads its own line
(`parse`) as its `text()` writes it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from engine.core.errors import OrderError
from engine.rulesets.lote_modern.grammar import (
    OrderKind,
    Reader,
    amounts_text,
    name,
    unit_code,
    unit_list,
    units_text,
    whole,
)
from engine.rulesets.lote_modern.text import amount, number

BANK_SETTINGS = ("open", "closed", "close-to", "open-to", "rates")
CARTEL_VERBS = ("grant", "revoke", "carry", "drop")
ROUTE_CHANGES = ("open", "close", "msp", "base")
ROUTE_KINDS = ("aerial", "overland")
_ACTION_CODE = re.compile(r"^[a-z]{1,5}$", re.IGNORECASE)
_PERCENT = re.compile(r"^([0-9]{1,9})%?$")


@dataclass(frozen=True, slots=True)
class BankOrder(OrderKind):
    """``bank open`` / ``bank closed`` / ``bank close-to Spain`` / ``bank open-to Spain`` / ``bank rates 30% 40%``."""

    verbs: ClassVar[tuple[str, ...]] = ("bank",)

    setting: str
    nation: str = ""
    internal: int = 0
    external: int = 0

    @classmethod
    def read(cls, line: Reader, verb: str) -> BankOrder:
        setting = line.take("a bank setting").lower()
        if setting not in BANK_SETTINGS:
            raise OrderError(f"`{setting}`: bank settings are {', '.join(BANK_SETTINGS)}")
        if setting in ("close-to", "open-to"):
            return cls(setting, line.name_until(what="a nation"))
        if setting == "rates":
            rates = []
            for what in ("the internal rate", "the external rate"):
                m = _PERCENT.match(line.take(what))
                if not m:
                    raise OrderError(f"{what} is a percentage, like 30%")
                rates.append(int(m[1]))
            return cls("rates", internal=rates[0], external=rates[1])
        return cls(setting)

    def text(self) -> str:
        if self.setting == "rates":
            return f"bank rates {self.internal}% {self.external}%"
        if self.setting in ("close-to", "open-to"):
            return f"bank {self.setting} {name(self.nation)}"
        return f"bank {self.setting}"


@dataclass(frozen=True, slots=True)
class Borrow(OrderKind):
    """``borrow 200gp from England`` (from one's own bank: an internal loan) (6.2)."""

    verbs: ClassVar[tuple[str, ...]] = ("borrow",)

    gp: float
    lender: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Borrow:
        amounts = line.amounts()
        if set(amounts) != {"gp"}:
            raise OrderError("say how much to borrow, like 200gp")
        line.word("from")
        return cls(amounts["gp"], line.name_until(what="the lending nation"))

    def text(self) -> str:
        return f"borrow {number(self.gp)}gp from {name(self.lender)}"


@dataclass(frozen=True, slots=True)
class LoanOrder(OrderKind):
    """``repay L1`` (early, in full) / ``default L1`` (refuse to pay when due) (6.2.1, 6.2.6)."""

    verbs: ClassVar[tuple[str, ...]] = ("repay", "default")

    verb: str
    loan: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> LoanOrder:
        return cls(verb, line.take("a loan id, like L1").upper())

    def text(self) -> str:
        return f"{self.verb} {self.loan}"


@dataclass(frozen=True, slots=True)
class Payment(OrderKind):
    """``pay-penalty 200gp`` (6.2.7) / ``rebuild-bank 100gp`` (6.2.8)."""

    verbs: ClassVar[tuple[str, ...]] = ("pay-penalty", "rebuild-bank")

    verb: str
    gp: float

    @classmethod
    def read(cls, line: Reader, verb: str) -> Payment:
        amounts = line.amounts()
        if set(amounts) != {"gp"}:
            raise OrderError("give the amount, like 100gp")
        return cls(verb, amounts["gp"])

    def text(self) -> str:
        return f"{self.verb} {number(self.gp)}gp"


@dataclass(frozen=True, slots=True)
class ConduitOrder(OrderKind):
    """``conduit London to Gibraltar [via English Channel; Bay of Biscay]`` / ``drop-conduit London to Gibraltar``."""

    verbs: ClassVar[tuple[str, ...]] = ("conduit", "drop-conduit")

    a: str
    b: str
    zones: tuple[str, ...] = ()
    drop: bool = False

    @classmethod
    def read(cls, line: Reader, verb: str) -> ConduitOrder:
        drop = verb == "drop-conduit"
        a = line.name_until("to", what="the first anchor city")
        line.word("to")
        b = line.name_until("via", what="the second anchor city")
        zones: tuple[str, ...] = ()
        if not drop and line.optional("via"):
            rest = " ".join(line.toks[line.i:])
            line.i = len(line.toks)
            zones = tuple(" ".join(z.split()) for z in rest.split(";") if z.strip())
        return cls(a, b, zones, drop)

    def text(self) -> str:
        if self.drop:
            return f"drop-conduit {name(self.a)} to {name(self.b)}"
        via = f" via {'; '.join(self.zones)}" if self.zones else ""
        return f"conduit {name(self.a)} to {name(self.b)}{via}"


@dataclass(frozen=True, slots=True)
class RouteOrder(OrderKind):
    """Trade routes. Sea: ``route Spain open from London to Cadiz 10msp [steam]`` / ``route Spain close`` /
    ``route Spain msp +5 [steam]`` / ``route Spain base Portsmouth`` (`steam`: Steam Transport MSP, 3.2.1.2.3).
    A House's aerial trade: ``route Spain aerial open 4msp`` (2.8.5); overland: ``route Spain overland open from
    Cadiz [via Andalusia; Castile] 4msp`` (7.1.5). Under hands-off trade the MSP of `open` may be left out (2.9)."""

    verbs: ClassVar[tuple[str, ...]] = ("route",)

    partner: str
    change: str
    port: str = ""
    target: str = ""
    msp: int = 0
    kind: str = "sea"
    via: tuple[str, ...] = ()
    steam: bool = False

    @classmethod
    def read(cls, line: Reader, verb: str) -> RouteOrder:
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
            return cls(partner, "open", port, target, whole(amounts.get("msp", 0), "msp"), kind, via, steam)
        if change == "msp":
            tok = line.take("a change like +5 or -3")
            if not re.match(r"^[+-][0-9]{1,9}$", tok):
                raise OrderError(f"`{tok}`: write the change with its sign, like +5 or -3")
            return cls(partner, "msp", msp=int(tok), kind=kind, steam=kind == "sea" and line.optional("steam"))
        if change == "base":
            if kind != "sea":
                raise OrderError("only a sea route changes its base port")
            return cls(partner, "base", line.name_until(what="the new base port"))
        return cls(partner, change, kind=kind)

    def text(self) -> str:
        kind = f" {self.kind}" if self.kind != "sea" else ""
        head = f"route {name(self.partner)}{kind} {self.change}"
        tail = " steam" if self.steam else ""
        msp = f" {self.msp}msp" if self.msp else ""
        if self.change == "open":
            if self.kind == "aerial":
                return f"{head}{msp}"
            if self.kind == "overland":
                via = f" via {'; '.join(self.via)}" if self.via else ""
                return f"{head} from {name(self.port)}{via}{msp}"
            return f"{head} from {name(self.port)} to {name(self.target)}{msp}{tail}"
        if self.change == "msp":
            return f"{head} {self.msp:+d}{tail}"
        if self.change == "base":
            return f"{head} {name(self.port)}"
        return head


@dataclass(frozen=True, slots=True)
class CartelOrder(OrderKind):
    """Cartel trade (LotE 7.1.3). A nation: ``cartel grant Hansa Spain`` / ``cartel revoke Hansa Spain`` (its trade
    with Spain, carried by the Hansa). The House: ``cartel carry England Spain from London to Cadiz 10msp at
    Hamburg`` (England's port, Spain's port, the MSP and where they are based) / ``cartel drop England Spain``."""

    verbs: ClassVar[tuple[str, ...]] = ("cartel",)

    verb: str
    party: str
    target: str
    port: str = ""
    target_port: str = ""
    msp: int = 0
    base: str = ""

    @classmethod
    def read(cls, line: Reader, verb: str) -> CartelOrder:
        verb = line.word(*CARTEL_VERBS)
        party = line.take("the Merchant House" if verb in ("grant", "revoke") else "the Cartel nation")
        target = line.take("the target nation")
        if verb != "carry":
            return cls(verb, party, target)
        line.word("from")
        port = line.name_until("to", what="the Cartel nation's port")
        line.word("to")
        target_port = line.name_until("msp", what="the target nation's port")
        amounts = line.amounts()
        if set(amounts) != {"msp"}:
            raise OrderError("give the merchant shipping the House puts on it, like 10msp (LotE 7.1.3)")
        line.word("at")
        return cls("carry", party, target, port, target_port, whole(amounts["msp"], "msp"),
                           line.name_until(what="the port the MSP are based at"))

    def text(self) -> str:
        head = f"cartel {self.verb} {name(self.party)} {name(self.target)}"
        if self.verb != "carry":
            return head
        return (f"{head} from {name(self.port)} to {name(self.target_port)} {self.msp}msp "
                f"at {name(self.base)}")


@dataclass(frozen=True, slots=True)
class Pay(OrderKind):
    """``pay England 30gp``: gold sent to another nation (a cartel's share, a price, a subsidy); it reaches the
    other treasury at processing, to spend the next turn (LotE 7.1.3)."""

    verbs: ClassVar[tuple[str, ...]] = ("pay",)

    nation: str
    gp: float

    @classmethod
    def read(cls, line: Reader, verb: str) -> Pay:
        nation = line.take("the nation paid")
        amounts = line.amounts()
        if set(amounts) != {"gp"} or amounts["gp"] <= 0:
            raise OrderError("say how much gold, like 30gp")
        return cls(nation, amounts["gp"])

    def text(self) -> str:
        return f"pay {name(self.nation)} {number(self.gp)}gp"


@dataclass(frozen=True, slots=True)
class PoolOrder(OrderKind):
    """A broker's mercenary pool (LotE 7.1.4.1): ``pool "Low Countries" convert 10i to 10c`` rebuilds units at the
    House's cost; ``pool "Low Countries" price 3gp`` sets what a unit costs to hire."""

    verbs: ClassVar[tuple[str, ...]] = ("pool",)

    pool: str
    verb: str
    old: tuple[tuple[str, int], ...] = ()
    new: tuple[tuple[str, int], ...] = ()
    price: float = 0

    @classmethod
    def read(cls, line: Reader, verb: str) -> PoolOrder:
        pool = line.name_until("convert", "price", what="a mercenary pool")
        verb = line.word("convert", "price")
        if verb == "price":
            amounts = line.amounts()
            if set(amounts) != {"gp"}:
                raise OrderError("the price of a unit, like 3gp")
            return cls(pool, "price", price=amounts["gp"])
        old = unit_list(line, "to")
        line.word("to")
        return cls(pool, "convert", old, unit_list(line))

    def text(self) -> str:
        if self.verb == "price":
            return f"pool {name(self.pool)} price {number(self.price)}gp"
        return f"pool {name(self.pool)} convert {units_text(self.old)} to {units_text(self.new)}"


@dataclass(frozen=True, slots=True)
class Hire(OrderKind):
    """``hire 10i 4c from "Low Countries" at Antwerp 40gp``: a bid for mercenaries, hired at a city of their pool
    (LotE 7.1.4.2); a brokered pool's units cost at least the broker's price, paid to the broker."""

    verbs: ClassVar[tuple[str, ...]] = ("hire",)

    units: tuple[tuple[str, int], ...]
    pool: str
    city: str
    gp: float = 0

    @classmethod
    def read(cls, line: Reader, verb: str) -> Hire:
        units = unit_list(line, "from")
        line.word("from")
        pool = line.name_until("at", what="a mercenary pool")
        line.word("at")
        city = line.name_until(what="the city where they are hired")
        amounts = line.amounts()
        if not set(amounts) <= {"gp"}:
            raise OrderError("a bid is gold, like 40gp")
        return cls(units, pool, city, amounts.get("gp", 0.0))

    def text(self) -> str:
        paid = f" {number(self.gp)}gp" if self.gp else ""
        return f"hire {units_text(self.units)} from {name(self.pool)} at {name(self.city)}{paid}"


@dataclass(frozen=True, slots=True)
class Export(OrderKind):
    """``export 2 (ha) from "Danzig Garrison" to Spain``: export units handed to the buying nation where the army
    stands, in the buyer's land or beside its army (LotE 7.5)."""

    verbs: ClassVar[tuple[str, ...]] = ("export",)

    count: int
    code: str
    army: str
    nation: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Export:
        count = line.count("how many export units")
        code, export = unit_code(line.take("an export unit, like (ha)"))
        if not export:
            raise OrderError(f"export units are written in parentheses, like ({code})")
        line.word("from")
        army = line.name_until("to", what="an army", known=line.names.armies)
        line.word("to")
        return cls(count, code, army, line.name_until(what="the buying nation"))

    def text(self) -> str:
        return f"export {self.count} ({self.code}) from {name(self.army)} to {name(self.nation)}"


@dataclass(frozen=True, slots=True)
class Fit(OrderKind):
    """``fit 2 (ha) to i in "Home Army" by Wellington``: export units upgrade national units (Table 7-3), 6 AP of a
    leader (the army's own when `by` is left out); ships at a Port City or Port Area (LotE 7.5)."""

    verbs: ClassVar[tuple[str, ...]] = ("fit",)

    count: int
    code: str
    unit: str
    army: str
    leader: str = ""

    @classmethod
    def read(cls, line: Reader, verb: str) -> Fit:
        count = line.count("how many export units")
        code, export = unit_code(line.take("an export unit, like (ha)"))
        if not export:
            raise OrderError(f"export units are written in parentheses, like ({code})")
        line.word("to")
        unit, national_export = unit_code(line.take("the national unit they upgrade, like i"))
        if national_export:
            raise OrderError("export units upgrade national units, not other export units")
        line.word("in")
        army = line.name_until("by", what="an army", known=line.names.armies)
        leader = line.name_until(what="a leader", known=line.names.leaders) if line.optional("by") else ""
        return cls(count, code, unit, army, leader)

    def text(self) -> str:
        by = f" by {name(self.leader)}" if self.leader else ""
        return f"fit {self.count} ({self.code}) to {self.unit} in {name(self.army)}{by}"


@dataclass(frozen=True, slots=True)
class ShipsToMsp(OrderKind):
    """``msp 4 t from "Channel Fleet"``: transports broken up into merchant shipping (1 MSP a cargo point)."""

    verbs: ClassVar[tuple[str, ...]] = ("msp",)

    count: int
    code: str
    army: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> ShipsToMsp:
        count = line.count("how many transports")
        code, export = unit_code(line.take("a transport code"))
        if export:
            raise OrderError("export units are not merchant shipping")
        line.word("from")
        return cls(count, code, line.name_until(what="an army", known=line.names.armies))

    def text(self) -> str:
        return f"msp {self.count} {self.code} from {name(self.army)}"


@dataclass(frozen=True, slots=True)
class LeaderAction(OrderKind):
    """``action Franklin EX "Atlantic Ocean" 4ap`` / ``action Hanssen AA Antwerp 2ap 3gp`` /
    ``action Wellington RU 10 ii at London``. AP, GP and NFP are the totals committed."""

    verbs: ClassVar[tuple[str, ...]] = ("action",)

    leader: str
    code: str
    target: str = ""
    ap: int = 0
    gp: float = 0
    nfp: int = 0
    count: int = 0
    unit: str = ""

    @classmethod
    def read(cls, line: Reader, verb: str) -> LeaderAction:
        leader = line.name_until(what="a leader", known=line.names.leaders, single=True)
        code = line.take("an action code").upper()
        if not _ACTION_CODE.match(code):
            raise OrderError(f"`{code}` is not an action code")
        count, unit, target = 0, "", ""
        if code == "RU":
            count = line.count("how many units to retrain")
            unit, export = unit_code(line.take("a unit code"))
            if export:
                raise OrderError("export units are not retrained")
            line.word("at")
        if not line.done() and amount(line.peek()) is None:
            target = line.name_until(what="the target")
        amounts = line.amounts()
        if not set(amounts) <= {"ap", "gp", "nfp"}:
            raise OrderError("an action commits ap, gp and nfp, like 4ap 25gp")
        return cls(leader, code, target, whole(amounts.get("ap", 0), "ap"), amounts.get("gp", 0.0),
                            whole(amounts.get("nfp", 0), "nfp"), count, unit)

    def text(self) -> str:
        parts = ["action", name(self.leader), self.code]
        if self.count:
            parts += [str(self.count), self.unit]
            if self.target:
                parts += ["at", name(self.target)]
        elif self.target:
            parts.append(name(self.target))
        tail = amounts_text(self.gp, self.nfp, self.ap)
        return " ".join(parts) + (f" {tail}" if tail else "")


@dataclass(frozen=True, slots=True)
class MonopolyOrder(OrderKind):
    """``grant Hansa wool`` / ``revoke Hansa wool``: a nation gives a House a monopoly, or takes a granted one
    back (LotE 7.1.1)."""

    verbs: ClassVar[tuple[str, ...]] = ("grant", "revoke")

    verb: str
    house: str
    good: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> MonopolyOrder:
        house = line.take("the Merchant House")
        good = line.name_until(what="the good or trade, like wool")
        return cls(verb, house, good)

    def text(self) -> str:
        return f"{self.verb} {name(self.house)} {name(self.good)}"


@dataclass(frozen=True, slots=True)
class Note(OrderKind):
    """``note <anything>`` / ``diplomacy <anything>``: words for the GM, who rules on them."""

    verbs: ClassVar[tuple[str, ...]] = ("note", "diplomacy")

    kind: str
    body: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Note:
        body = " ".join(line.raw.split()[1:])
        line.i = len(line.toks)
        if not body:
            raise OrderError(f"`{verb}` needs some words for the GM")
        return cls(verb, body)

    def text(self) -> str:
        return f"{self.kind} {self.body}"
