"""Small text helpers shared by the order form and the GM's commands: tokens, quoting, numbers."""

from __future__ import annotations

import re

from engine.core.errors import OrderError

_NUMBER = re.compile(r"^[+-]?[0-9]{1,9}(?:\.[0-9]{1,9})?$")
_AMOUNT = re.compile(r"^([0-9]{1,9}(?:\.[0-9]{1,9})?)\s*(gp|nfp|ap|msp)$", re.IGNORECASE)


def tokens(text: str) -> list[str]:
    """Split on spaces; "double quotes" make one token; [brackets] never split a token."""
    out: list[str] = []
    current: list[str] = []
    quoted = False
    depth = 0
    for ch in text.strip():
        if quoted:
            if ch == '"':
                quoted = False
                out.append("".join(current))
                current = []
            else:
                current.append(ch)
        elif ch == '"' and depth == 0 and not current:
            quoted = True
        elif ch == "[":
            depth += 1
            current.append(ch)
        elif ch == "]":
            depth = max(0, depth - 1)
            current.append(ch)
        elif ch.isspace() and depth == 0:
            if current:
                out.append("".join(current))
                current = []
        else:
            current.append(ch)
    if quoted:
        raise OrderError('a "quoted name" is not closed')
    if depth:
        raise OrderError("a [bracket] is not closed")
    if current:
        out.append("".join(current))
    return out


def quote(name: str) -> str:
    """A name as one token: quoted when it has spaces."""
    return f'"{name}"' if (not name or any(c.isspace() for c in name)) else name


def number(value: float) -> str:
    """``50`` for 50.0, ``2.5`` for 2.5; at most two decimals."""
    rounded = round(value, 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.2f}".rstrip("0")


def is_number(token: str) -> bool:
    return bool(_NUMBER.match(token))


def amount(token: str) -> tuple[float, str] | None:
    """``50gp`` → (50.0, "gp"); also nfp, ap, msp; None when the token is not an amount."""
    m = _AMOUNT.match(token)
    return (float(m[1]), m[2].lower()) if m else None


AMOUNT_UNITS = ("gp", "nfp", "ap", "msp")  # what an amount is counted in: never a unit's code (``4 ap`` is 4ap)


def join_amounts(tokens_in: list[str]) -> list[str]:
    """Glue ``50 gp`` into ``50gp`` so later parsing sees one token."""
    out: list[str] = []
    for tok in tokens_in:
        if out and tok.lower() in AMOUNT_UNITS and is_number(out[-1]):
            out[-1] = out[-1] + tok.lower()
        else:
            out.append(tok)
    return out
