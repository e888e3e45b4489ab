"""Quoting what a user typed back to them, clipped so an error never outgrows a Discord message."""

from __future__ import annotations

import re

QUOTE_LIMIT = 100
_LONG_QUOTE = re.compile(r"`([^`]{101,})`")


def clip(text: object, limit: int = QUOTE_LIMIT, *, one_line: bool = True) -> str:
    """The text (on one line unless told), at most `limit` characters (an ellipsis marks a cut); NULs dropped."""
    flat = str(text).replace("\x00", "")
    if one_line:
        flat = " ".join(flat.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def clip_quotes(message: str, limit: int = QUOTE_LIMIT) -> str:
    """A rules message with every `quoted` value in it clipped: the rules quote what they were given."""
    return _LONG_QUOTE.sub(lambda m: f"`{clip(m[1], limit, one_line=False)}`", message)
