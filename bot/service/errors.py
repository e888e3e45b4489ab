"""Errors a user caused; their messages are shown to that user as they are."""


class ServiceError(Exception):
    """A request that cannot be done as asked; the message says why and what to do instead."""


class NotAllowed(ServiceError):
    """The caller may not do this (not the GM, not seated, not their seat)."""


class NotFound(ServiceError):
    """No such campaign, seat, table or turn."""


class Conflict(ServiceError):
    """Someone changed the campaign at the same moment; nothing of this request was saved, and a retry may work."""

    retryable = True
