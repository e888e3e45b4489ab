"""Precise exceptions; their messages are shown to players as they are."""


class RulesError(Exception):
    """Something the rules do not allow; the message explains why, in the game's words."""


class IllegalAction(RulesError):
    """An action that is not legal for this actor in this state."""


class NotYourTurn(IllegalAction):
    """An action from a seat that is not the one to act."""


class OrderError(RulesError):
    """An order line that cannot be understood or is not allowed."""


class UploadError(RulesError):
    """An uploaded file (tables, regions, sheets) that does not validate."""
