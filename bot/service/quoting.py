"""Quoting what a user typed back to them, clipped so an error never outgrows a Discord message."""

from __future__ import annotations

QUOTE_LIMIT = 100


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """The text on one line, at most `limit` characters (an ellipsis marks a cut); NULs dropped."""
    flat = " ".join(str(text).replace("\x00", "").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
