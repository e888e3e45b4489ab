"""Quoting what a user typed back to them, clipped so an error never outgrows a Discord message."""

from __future__ import annotations

QUOTE_LIMIT = 100


def clip(text: object, limit: int = QUOTE_LIMIT, *, one_line: bool = True) -> str:
    """The text (on one line unless told), at most `limit` characters (an ellipsis marks a cut); NULs dropped."""
    flat = str(text).replace("\x00", "")
    if one_line:
        flat = " ".join(flat.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
