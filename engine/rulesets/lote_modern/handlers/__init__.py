"""Every LotE order and the handler that checks and carries it out, in one explicit table.

A handler takes the `Ctx` and its order, spends from the budget, and returns an `Outcome`, or refuses
(`Refused`, or a rules module's `RulesError`, which the order loop turns into the refusal).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.rulesets.lote_modern.context import Handler
from engine.rulesets.lote_modern.handlers import (
    builds,
    cartels,
    cobuilds,
    exports,
    factories,
    finance,
    leaders,
    mercenaries,
    projects,
    trade_orders,
)
from engine.rulesets.lote_modern.orders import (
    ORDER_KINDS,
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
    Pay,
    Payment,
    PlaceReserve,
    PoolOrder,
    Recruit,
    Research,
    RouteOrder,
    ShipsToMsp,
)

HANDLERS: Mapping[type, Handler] = {
    Invest: builds.invest,
    Build: builds.build,
    PlaceReserve: builds.place_reserve,
    Activate: builds.activate,
    CartelOrder: cartels.cartel,
    Pay: cartels.pay,
    Grow: cobuilds.grow,
    CoBuild: cobuilds.cobuild,
    Export: exports.hand_over,
    Fit: exports.fit,
    MoveFactory: factories.move_factory,
    Bombard: factories.bombard,
    BankOrder: finance.bank_setting,
    Borrow: finance.borrow,
    LoanOrder: finance.loan_order,
    Payment: finance.payment,
    LeaderAction: leaders.leader_action,
    Note: leaders.note,
    PoolOrder: mercenaries.pool_order,
    Hire: mercenaries.hire,
    Research: projects.start_research,
    Assist: projects.assist,
    Construct: projects.construct,
    Fund: projects.fund,
    Recruit: projects.recruit,
    Engineers: projects.engineers,
    Colonize: projects.colonize,
    Improve: projects.improve,
    ConduitOrder: trade_orders.conduit,
    RouteOrder: trade_orders.route,
    ShipsToMsp: trade_orders.ships_to_msp,
    MonopolyOrder: trade_orders.monopoly,
}

__all__ = ["HANDLERS", "ORDER_KINDS"]
