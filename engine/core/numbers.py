"""Numbers as players type them: ASCII digits only, and few enough to be a sane count.

`str.isdigit()` and `int()` accept "²" and "٣" and thousands of digits; a count in an order
must be plain 0-9, so "build ² i at London" is refused with a message, never a traceback.
"""

from __future__ import annotations

MAX_DIGITS = 9


def is_count(text: str) -> bool:
    """True for 1-9 ASCII digits."""
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()
