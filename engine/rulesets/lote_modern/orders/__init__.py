"""The order form (LotE 3, 8.2): one order per line, each a small frozen value that reads its own line.

Every kind of order is an `OrderKind` (`grammar`): `Build.parse(line)` reads a line of its kind, `text()` writes the
canonical line, and `Build.parse(o.text()) == o`. `ORDER_KINDS` is the table of every kind; `parse_order` reads any
line by its verb. The grammar is documented in `ORDERS_HELP` and in docs/rulesets/lote-modern.md ("The order form").
"""

from __future__ import annotations

from engine.rulesets.lote_modern.grammar import Names, OrderKind, UnknownVerb, read_line
from engine.rulesets.lote_modern.orders.dealings import (
    BANK_SETTINGS,
    CARTEL_VERBS,
    ROUTE_CHANGES,
    ROUTE_KINDS,
    BankOrder,
    Borrow,
    CartelOrder,
    ConduitOrder,
    Export,
    Fit,
    Hire,
    LeaderAction,
    LoanOrder,
    MonopolyOrder,
    Note,
    Pay,
    Payment,
    PoolOrder,
    RouteOrder,
    ShipsToMsp,
)
from engine.rulesets.lote_modern.orders.home import (
    FACTORY_ORDERS,
    INVEST_OTHER,
    INVEST_RATINGS,
    Activate,
    Assist,
    Bombard,
    Build,
    CoBuild,
    Colonize,
    Construct,
    Engineers,
    Fund,
    Grow,
    Improve,
    Invest,
    MoveFactory,
    PlaceReserve,
    Recruit,
    Research,
)

__all__ = [
    "BANK_SETTINGS",
    "CARTEL_VERBS",
    "FACTORY_ORDERS",
    "INVEST_OTHER",
    "INVEST_RATINGS",
    "ORDERS_HELP",
    "ORDER_KINDS",
    "ORDER_VERBS",
    "ROUTE_CHANGES",
    "ROUTE_KINDS",
    "Activate",
    "Assist",
    "BankOrder",
    "Bombard",
    "Borrow",
    "Build",
    "CartelOrder",
    "CoBuild",
    "Colonize",
    "ConduitOrder",
    "Construct",
    "Engineers",
    "Export",
    "Fit",
    "Fund",
    "Grow",
    "Hire",
    "Improve",
    "Invest",
    "LeaderAction",
    "LoanOrder",
    "MonopolyOrder",
    "MoveFactory",
    "Names",
    "Note",
    "Order",
    "OrderKind",
    "Pay",
    "Payment",
    "PlaceReserve",
    "PoolOrder",
    "Recruit",
    "Research",
    "RouteOrder",
    "ShipsToMsp",
    "UnknownVerb",
    "parse_order",
    "verb_list",
]

Order = (Invest | Build | PlaceReserve | Activate | Research | Construct | MoveFactory | Bombard | Fund | Colonize
         | Improve | Grow | CoBuild | Recruit | Engineers | Assist | BankOrder | Borrow | LoanOrder | Payment
         | ConduitOrder | RouteOrder | ShipsToMsp | CartelOrder | Pay | PoolOrder | Hire | Export | Fit | LeaderAction
         | MonopolyOrder | Note)

# Every kind of order, in the order the help lists them.
ORDER_KINDS: tuple[type[Order], ...] = (
    Invest, Build, Export, Fit, PlaceReserve, Activate, Research, Assist, Construct, Fund, MoveFactory, Bombard,
    Recruit, Engineers, Colonize, Improve, Grow, CoBuild, BankOrder, Borrow, LoanOrder, Payment, ConduitOrder,
    RouteOrder, ShipsToMsp, Pay, CartelOrder, LeaderAction, Hire, PoolOrder, MonopolyOrder, Note,
)
# The kind each verb starts.
ORDER_VERBS: dict[str, type[OrderKind]] = {verb: kind for kind in ORDER_KINDS for verb in kind.verbs}


def parse_order(text: str, names: Names = Names()) -> Order:
    """Any order line as its value, read by the kind its verb names; OrderError says what is wrong with it."""
    order = read_line(text, names, ORDER_VERBS)
    assert isinstance(order, ORDER_KINDS)
    return order


def verb_list() -> str:
    """Every order verb, for the first line of a form that began with none."""
    return "orders: " + ", ".join(sorted(ORDER_VERBS))


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
