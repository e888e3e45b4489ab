"""The order form (LotE 3, 8.2): one order per line, each a small frozen value with a canonical text form.

`text()` is the canonical line; `grammar.parse_order` reads any line into one of these values, and
`parse_order(o.text()).text() == o.text()` for every order. The grammar is documented in `ORDERS_HELP`
and in docs/rulesets/lote-modern.md ("The order form").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.lote_modern.sheet import QR_KINDS
from engine.rulesets.lote_modern.text import number, quote

INVEST_RATINGS = (*QR_KINDS, "navigation", "trade-range", "conduit-limit")
INVEST_OTHER = ("government", "infrastructure", "intel", "religion", "university", "agriculture", "isi")
FACTORY_ORDERS = {"airship-factory": "airship", "steamship-yard": "steamship", "submarine-yard": "submarine",
                  "mercantile-industry": "industry"}
BANK_SETTINGS = ("open", "closed", "close-to", "open-to", "rates")
CARTEL_VERBS = ("grant", "revoke", "carry", "drop")
ROUTE_CHANGES = ("open", "close", "msp", "base")
ROUTE_KINDS = ("aerial", "overland")


def _name(value: str) -> str:
    return quote(value)


def _amounts(gp: float = 0, nfp: int = 0, ap: int = 0) -> str:
    parts = []
    if ap:
        parts.append(f"{ap}ap")
    if gp:
        parts.append(f"{number(gp)}gp")
    if nfp:
        parts.append(f"{nfp}nfp")
    return " ".join(parts)


def _unit(code: str, export: bool = False) -> str:
    return f"({code})" if export else code


@dataclass(frozen=True, slots=True)
class Invest:
    """``invest artillery 40gp`` / ``invest public-works Sussex 20gp`` / ``invest bank 50gp``."""

    target: str
    gp: float
    place: str = ""

    def text(self) -> str:
        where = f" {_name(self.place)}" if self.place else ""
        return f"invest {self.target}{where} {number(self.gp)}gp"


@dataclass(frozen=True, slots=True)
class Build:
    """``build 10 i at London`` / ``build 4 (ha) at London`` (export) / ``build 5 i at London reserve``."""

    count: int
    code: str
    place: str
    export: bool = False
    reserve: bool = False

    def text(self) -> str:
        tail = " reserve" if self.reserve else ""
        return f"build {self.count} {_unit(self.code, self.export)} at {_name(self.place)}{tail}"


@dataclass(frozen=True, slots=True)
class PlaceReserve:
    """``reserve 5 i from "Home Army"``: put units that began the turn in a city into reserve (3.2.2.2)."""

    count: int
    code: str
    army: str

    def text(self) -> str:
        return f"reserve {self.count} {self.code} from {_name(self.army)}"


@dataclass(frozen=True, slots=True)
class Activate:
    """``activate 5 i at London``: call reserves up in a Friendly city of the HBZ (3.2.2.3)."""

    count: int
    code: str
    place: str

    def text(self) -> str:
        return f"activate {self.count} {self.code} at {_name(self.place)}"


@dataclass(frozen=True, slots=True)
class Research:
    """``research steamships 100gp 2nfp at London`` (the place only when starting, LotE 4)."""

    project: str
    gp: float
    nfp: int
    place: str = ""

    def text(self) -> str:
        where = f" at {_name(self.place)}" if self.place else ""
        return f"research {_name(self.project)} {_amounts(self.gp, self.nfp)}{where}".replace("  ", " ")


@dataclass(frozen=True, slots=True)
class Construct:
    """``construct steamship-yard 2 at Portsmouth [hidden]``, ``construct railroad Sussex to Kent [2 levels]``,
    ``construct uwm``."""

    kind: str
    points: int = 1
    place: str = ""
    to: str = ""
    hidden: bool = False

    def text(self) -> str:
        if self.kind == "uwm":
            return "construct uwm"
        if self.kind == "railroad":
            levels = f" {self.points} levels" if self.points != 1 else ""
            return f"construct railroad {_name(self.place)} to {_name(self.to)}{levels}"
        tail = " hidden" if self.hidden else ""
        return f"construct {self.kind} {self.points} at {_name(self.place)}{tail}"


@dataclass(frozen=True, slots=True)
class MoveFactory:
    """``move-factory 2 airship-factory from Paris to Lyon [by <leader>] [paying nfp]``: factory points crated and
    moved to a controlled city, by land within the HBZ range in AP, or by sea with a leader (LotE 3.6.4)."""

    points: int
    kind: str
    source: str
    destination: str
    leader: str = ""
    nfp: bool = False

    def text(self) -> str:
        by = f" by {_name(self.leader)}" if self.leader else ""
        paying = " paying nfp" if self.nfp else ""
        return f"move-factory {self.points} {self.kind} from {_name(self.source)} to {_name(self.destination)}{by}" \
               f"{paying}"


@dataclass(frozen=True, slots=True)
class Bombard:
    """``bombard steamship-yard at Brest with "Channel Fleet"``: airships, heavy artillery or ships offshore attack a
    factory or yard with their Siege strength (LotE 3.6.6); `city-yard` is a city's generic yard."""

    target: str
    place: str
    army: str

    def text(self) -> str:
        return f"bombard {self.target} at {_name(self.place)} with {_name(self.army)}"


@dataclass(frozen=True, slots=True)
class Fund:
    """``fund P002 30gp 5nfp``: pay into a construction project already begun."""

    project: str
    gp: float
    nfp: int

    def text(self) -> str:
        return f"fund {self.project} {_amounts(self.gp, self.nfp)}"


@dataclass(frozen=True, slots=True)
class Colonize:
    """``colonize Morocco 15gp 15nfp``: settle an inhabited region next to one we control (3.3.1)."""

    region: str
    gp: float
    nfp: int

    def text(self) -> str:
        return f"colonize {_name(self.region)} {_amounts(self.gp, self.nfp)}"


@dataclass(frozen=True, slots=True)
class Improve:
    """``improve Kent``: raise a cultivated region's GPv by one (3.3.2, 3.3.3)."""

    region: str

    def text(self) -> str:
        return f"improve {_name(self.region)}"


@dataclass(frozen=True, slots=True)
class Grow:
    """``grow London``: the nation adds a GPv to a city of its own (Basic Rulebook; Table 3-5 at TL 12+)."""

    city: str

    def text(self) -> str:
        return f"grow {_name(self.city)}"


@dataclass(frozen=True, slots=True)
class CoBuild:
    """``cobuild Antwerp 20gp 10nfp by Castorp``: a House, Primacy or Order adds a GPv to another's city
    (LotE 3.3.5); without amounts it pays all that is left; `by` names the leader who brings the gold."""

    city: str
    gp: float = 0
    nfp: int = 0
    leader: str = ""

    def text(self) -> str:
        paid = _amounts(self.gp, self.nfp)
        by = f" by {_name(self.leader)}" if self.leader else ""
        return f"cobuild {_name(self.city)}{' ' + paid if paid else ''}{by}"


@dataclass(frozen=True, slots=True)
class Recruit:
    """``recruit 2 for P001``: 25 GP a block, 1d6-1 project NFP each (4.3)."""

    blocks: int
    project: str

    def text(self) -> str:
        return f"recruit {self.blocks} for {self.project}"


@dataclass(frozen=True, slots=True)
class Engineers:
    """``engineers 2 from "Home Army" for P002``: siege engineers working a construction project (4.6)."""

    count: int
    army: str
    project: str

    def text(self) -> str:
        return f"engineers {self.count} from {_name(self.army)} for {self.project}"


@dataclass(frozen=True, slots=True)
class Assist:
    """``assist France Airships 1nfp``: technicians sent to another nation's R&D project (4.4)."""

    nation: str
    project: str
    nfp: int

    def text(self) -> str:
        return f"assist {_name(self.nation)} {_name(self.project)} {self.nfp}nfp"


@dataclass(frozen=True, slots=True)
class BankOrder:
    """``bank open`` / ``bank closed`` / ``bank close-to Spain`` / ``bank open-to Spain`` / ``bank rates 30% 40%``."""

    setting: str
    nation: str = ""
    internal: int = 0
    external: int = 0

    def text(self) -> str:
        if self.setting == "rates":
            return f"bank rates {self.internal}% {self.external}%"
        if self.setting in ("close-to", "open-to"):
            return f"bank {self.setting} {_name(self.nation)}"
        return f"bank {self.setting}"


@dataclass(frozen=True, slots=True)
class Borrow:
    """``borrow 200gp from England`` (from one's own bank: an internal loan) (6.2)."""

    gp: float
    lender: str

    def text(self) -> str:
        return f"borrow {number(self.gp)}gp from {_name(self.lender)}"


@dataclass(frozen=True, slots=True)
class LoanOrder:
    """``repay L1`` (early, in full) / ``default L1`` (refuse to pay when due) (6.2.1, 6.2.6)."""

    verb: str
    loan: str

    def text(self) -> str:
        return f"{self.verb} {self.loan}"


@dataclass(frozen=True, slots=True)
class Payment:
    """``pay-penalty 200gp`` (6.2.7) / ``rebuild-bank 100gp`` (6.2.8)."""

    verb: str
    gp: float

    def text(self) -> str:
        return f"{self.verb} {number(self.gp)}gp"


@dataclass(frozen=True, slots=True)
class ConduitOrder:
    """``conduit London to Gibraltar [via English Channel; Bay of Biscay]`` / ``drop-conduit London to Gibraltar``."""

    a: str
    b: str
    zones: tuple[str, ...] = ()
    drop: bool = False

    def text(self) -> str:
        if self.drop:
            return f"drop-conduit {_name(self.a)} to {_name(self.b)}"
        via = f" via {'; '.join(self.zones)}" if self.zones else ""
        return f"conduit {_name(self.a)} to {_name(self.b)}{via}"


@dataclass(frozen=True, slots=True)
class RouteOrder:
    """Trade routes. Sea: ``route Spain open from London to Cadiz 10msp [steam]`` / ``route Spain close`` /
    ``route Spain msp +5 [steam]`` / ``route Spain base Portsmouth`` (`steam`: Steam Transport MSP, 3.2.1.2.3).
    A House's aerial trade: ``route Spain aerial open 4msp`` (2.8.5); overland: ``route Spain overland open from
    Cadiz [via Andalusia; Castile] 4msp`` (7.1.5). Under hands-off trade the MSP of `open` may be left out (2.9)."""

    partner: str
    change: str
    port: str = ""
    target: str = ""
    msp: int = 0
    kind: str = "sea"
    via: tuple[str, ...] = ()
    steam: bool = False

    def text(self) -> str:
        kind = f" {self.kind}" if self.kind != "sea" else ""
        head = f"route {_name(self.partner)}{kind} {self.change}"
        tail = " steam" if self.steam else ""
        msp = f" {self.msp}msp" if self.msp else ""
        if self.change == "open":
            if self.kind == "aerial":
                return f"{head}{msp}"
            if self.kind == "overland":
                via = f" via {'; '.join(self.via)}" if self.via else ""
                return f"{head} from {_name(self.port)}{via}{msp}"
            return f"{head} from {_name(self.port)} to {_name(self.target)}{msp}{tail}"
        if self.change == "msp":
            return f"{head} {self.msp:+d}{tail}"
        if self.change == "base":
            return f"{head} {_name(self.port)}"
        return head


@dataclass(frozen=True, slots=True)
class CartelOrder:
    """Cartel trade (LotE 7.1.3). A nation: ``cartel grant Hansa Spain`` / ``cartel revoke Hansa Spain`` (its trade
    with Spain, carried by the Hansa). The House: ``cartel carry England Spain from London to Cadiz 10msp at
    Hamburg`` (England's port, Spain's port, the MSP and where they are based) / ``cartel drop England Spain``."""

    verb: str
    party: str
    target: str
    port: str = ""
    target_port: str = ""
    msp: int = 0
    base: str = ""

    def text(self) -> str:
        head = f"cartel {self.verb} {_name(self.party)} {_name(self.target)}"
        if self.verb != "carry":
            return head
        return (f"{head} from {_name(self.port)} to {_name(self.target_port)} {self.msp}msp "
                f"at {_name(self.base)}")


@dataclass(frozen=True, slots=True)
class Pay:
    """``pay England 30gp``: gold sent to another nation (a cartel's share, a price, a subsidy); it reaches the
    other treasury at processing, to spend the next turn (LotE 7.1.3)."""

    nation: str
    gp: float

    def text(self) -> str:
        return f"pay {_name(self.nation)} {number(self.gp)}gp"


def _units(units: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{count}{code}" for code, count in units)


@dataclass(frozen=True, slots=True)
class PoolOrder:
    """A broker's mercenary pool (LotE 7.1.4.1): ``pool "Low Countries" convert 10i to 10c`` rebuilds units at the
    House's cost; ``pool "Low Countries" price 3gp`` sets what a unit costs to hire."""

    pool: str
    verb: str
    old: tuple[tuple[str, int], ...] = ()
    new: tuple[tuple[str, int], ...] = ()
    price: float = 0

    def text(self) -> str:
        if self.verb == "price":
            return f"pool {_name(self.pool)} price {number(self.price)}gp"
        return f"pool {_name(self.pool)} convert {_units(self.old)} to {_units(self.new)}"


@dataclass(frozen=True, slots=True)
class Hire:
    """``hire 10i 4c from "Low Countries" at Antwerp 40gp``: a bid for mercenaries, hired at a city of their pool
    (LotE 7.1.4.2); a brokered pool's units cost at least the broker's price, paid to the broker."""

    units: tuple[tuple[str, int], ...]
    pool: str
    city: str
    gp: float = 0

    def text(self) -> str:
        paid = f" {number(self.gp)}gp" if self.gp else ""
        return f"hire {_units(self.units)} from {_name(self.pool)} at {_name(self.city)}{paid}"


@dataclass(frozen=True, slots=True)
class Export:
    """``export 2 (ha) from "Danzig Garrison" to Spain``: export units handed to the buying nation where the army
    stands, in the buyer's land or beside its army (LotE 7.5)."""

    count: int
    code: str
    army: str
    nation: str

    def text(self) -> str:
        return f"export {self.count} ({self.code}) from {_name(self.army)} to {_name(self.nation)}"


@dataclass(frozen=True, slots=True)
class Fit:
    """``fit 2 (ha) to i in "Home Army" by Wellington``: export units upgrade national units (Table 7-3), 6 AP of a
    leader (the army's own when `by` is left out); ships at a Port City or Port Area (LotE 7.5)."""

    count: int
    code: str
    unit: str
    army: str
    leader: str = ""

    def text(self) -> str:
        by = f" by {_name(self.leader)}" if self.leader else ""
        return f"fit {self.count} ({self.code}) to {self.unit} in {_name(self.army)}{by}"


@dataclass(frozen=True, slots=True)
class ShipsToMsp:
    """``msp 4 t from "Channel Fleet"``: transports broken up into merchant shipping (1 MSP a cargo point)."""

    count: int
    code: str
    army: str

    def text(self) -> str:
        return f"msp {self.count} {self.code} from {_name(self.army)}"


@dataclass(frozen=True, slots=True)
class LeaderAction:
    """``action Franklin EX "Atlantic Ocean" 4ap`` / ``action Hanssen AA Antwerp 2ap 3gp`` /
    ``action Wellington RU 10 ii at London``. AP, GP and NFP are the totals committed."""

    leader: str
    code: str
    target: str = ""
    ap: int = 0
    gp: float = 0
    nfp: int = 0
    count: int = 0
    unit: str = ""

    def text(self) -> str:
        parts = ["action", _name(self.leader), self.code]
        if self.count:
            parts += [str(self.count), self.unit]
            if self.target:
                parts += ["at", _name(self.target)]
        elif self.target:
            parts.append(_name(self.target))
        tail = _amounts(self.gp, self.nfp, self.ap)
        return " ".join(parts) + (f" {tail}" if tail else "")


@dataclass(frozen=True, slots=True)
class MonopolyOrder:
    """``grant Hansa wool`` / ``revoke Hansa wool``: a nation gives a House a monopoly, or takes a granted one
    back (LotE 7.1.1)."""

    verb: str
    house: str
    good: str

    def text(self) -> str:
        return f"{self.verb} {_name(self.house)} {_name(self.good)}"


@dataclass(frozen=True, slots=True)
class Note:
    """``note <anything>`` / ``diplomacy <anything>``: words for the GM, who rules on them."""

    kind: str
    body: str

    def text(self) -> str:
        return f"{self.kind} {self.body}"


Order = (Invest | Build | PlaceReserve | Activate | Research | Construct | MoveFactory | Bombard | Fund | Colonize
         | Improve | Grow | CoBuild | Recruit | Engineers | Assist | BankOrder | Borrow | LoanOrder | Payment
         | ConduitOrder | RouteOrder | ShipsToMsp | CartelOrder | Pay | PoolOrder | Hire | Export | Fit | LeaderAction
         | MonopolyOrder | Note)

ORDERS_HELP = """\
One order per line; `#` starts a comment. Names with spaces may be written "in quotes".
**Investments** `invest <cavalry|infantry|warship|siege|artillery|navigation|trade-range|conduit-limit> 40gp` · \
`invest bank 50gp` · `invest public-works <place> 20gp` · `invest <government|intel|religion|...> 10gp` (GM rules)
**Builds** `build 10 i at London` · `build 4 (ha) at London` (export) · `build 5 i at London reserve`
**Export arms** `export 2 (ha) from <army> to <nation>` · `fit 2 (ha) to i in <army> [by <leader>]` (Table 7-3, \
6 AP)
**Reserves** `reserve 5 i from <army>` · `activate 5 i at <city>`
**R&D** `research <project> 100gp 2nfp at <place>` (place when starting) · `assist <nation> <project> 1nfp`
**Projects** `construct <airship-factory|steamship-yard|submarine-yard|mercantile-industry> 2 at <place> [hidden]` · \
`construct railroad <region> to <region> [2 levels]` · `construct uwm` · `fund P002 30gp 5nfp` · \
`move-factory 2 airship-factory from <place> to <city> [by <leader>] [paying nfp]` · \
`bombard <airship-factory|steamship-yard|submarine-yard|mercantile-industry|city-yard> at <place> with <army>` · \
`recruit 2 for P002` · `engineers 2 from <army> for P002` · `colonize <region> 15gp 15nfp` · `improve <region>`
**Cities** `grow London` (your own city, +1 GPv) · `cobuild <city> 20gp 10nfp [by <leader>]` (a House, Primacy \
or Order adds a GPv to another's city; the owner's permission is for the GM)
**Bank & loans** `bank open|closed` · `bank close-to <nation>` · `bank open-to <nation>` · `bank rates 30% 40%` · \
`borrow 200gp from <nation>` · `repay L1` · `default L1` · `pay-penalty 200gp` · `rebuild-bank 100gp`
**Trade** `conduit London to Gibraltar [via <zone>; <zone>]` · `drop-conduit London to Gibraltar` · \
`route <partner> open from <port> to <port> 10msp [steam]` · `route <partner> close` · \
`route <partner> msp +5 [steam]` · `route <partner> base <port>` · `msp 4 t from <army>` (st: steam MSP; zt: aerial \
MSP) · `pay <nation> 30gp`; a House also `route <partner> aerial open 4msp` · \
`route <partner> overland open from <port> [via <region>; <region>] 4msp`
**Cartel trade** (a nation) `cartel grant <house> <target>` · `cartel revoke <house> <target>`; \
(the House) `cartel carry <nation> <target> from <port> to <port> 10msp at <base port>` · \
`cartel drop <nation> <target>`
**Leaders** `action <leader> <CODE> [target] [4ap] [25gp] [15nfp]`: RU (`action <leader> RU 10 ii at <city>`), \
EX, NM, CIR, DCL; IMA (hands-off trade: the King moves MSP by hand, 6 AP); Merchant Houses AA, EMF, OBO, FCT, \
ECL, AMN, GPT, DCM, ZL, EMB, DL; other codes go to the GM
**Mercenaries** `hire 10i 4c from <pool> at <city> 40gp` (a bid; a brokered pool's price or more) · \
(the broker) `pool <pool> convert 10i to 10c` · `pool <pool> price 3gp`
**Monopolies** `grant <house> <good>` · `revoke <house> <good>` (granted ones; acquired ones need NM)
**For the GM** `note <text>` · `diplomacy <text>`"""
