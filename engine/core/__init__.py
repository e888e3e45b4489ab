"""The ruleset contract and the values every ruleset shares."""

from engine.core.actions import Action
from engine.core.errors import IllegalAction, NotYourTurn, OrderError, RulesError, UploadError
from engine.core.events import Event, Step
from engine.core.orders import OrderCheck, Verdict
from engine.core.phases import Phase, Window
from engine.core.rng import Dice, Roll, commitment, new_seed, rederive
from engine.core.ruleset import Option, Ruleset, SeatRule, Setup, View
from engine.core.tables import Table, TableResult
from engine.core.visibility import Viewer, Visibility

__all__ = [
    "Action",
    "Dice",
    "Event",
    "IllegalAction",
    "NotYourTurn",
    "Option",
    "OrderCheck",
    "OrderError",
    "Phase",
    "Roll",
    "RulesError",
    "Ruleset",
    "SeatRule",
    "Setup",
    "Step",
    "Table",
    "TableResult",
    "UploadError",
    "Verdict",
    "View",
    "Viewer",
    "Visibility",
    "Window",
    "commitment",
    "new_seed",
    "rederive",
]
