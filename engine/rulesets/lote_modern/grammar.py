"""The grammar of an order line: a cursor that reads one (names may be quoted; multi-word names are matched
against the nation's own leaders, armies and projects), helpers that write one, and `OrderKind`, the base of
every order, which reads its own line (`Build.parse`) as its `text()` writes it (python-chess's
`Move.from_uci`/`uci()`). The table of every kind, and `parse_order` for any line, are in `orders`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from engine.core import names as forgiving
from engine.core.errors import OrderError, RulesError
from engine.core.numbers import is_count
from engine.rulesets.lote_modern.sheet import fold, parse_units
from engine.rulesets.lote_modern.text import AMOUNT_UNITS, amount, join_amounts, number, quote, tokens

_CODE = re.compile(r"^\(?[a-z]{1,4}\)?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Names:
    """The multi-word names a line may use without quotes: the nation's leaders, armies, projects."""

    leaders: tuple[str, ...] = ()
    armies: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()


# -- reading --------------------------------------------------------------------------------------------------
class Reader:
    """A cursor over one order line's tokens."""

    def __init__(self, text: str, names: Names) -> None:
        self.raw = text
        self.toks = join_amounts(tokens(text))
        self.i = 0
        self.names = names

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def peek(self) -> str:
        return self.toks[self.i] if self.i < len(self.toks) else ""

    def take(self, what: str) -> str:
        if self.done():
            raise OrderError(f"expected {what}")
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def word(self, *choices: str) -> str:
        tok = self.take(" or ".join(choices))
        for c in choices:
            if tok.lower() == c:
                return c
        raise OrderError(f"expected {' or '.join(choices)}, not `{tok}`")

    def optional(self, word: str) -> bool:
        if self.peek().lower() == word:
            self.i += 1
            return True
        return False

    def count(self, what: str = "a number") -> int:
        tok = self.take(what)
        if not is_count(tok) or int(tok) <= 0:
            raise OrderError(f"`{tok}` is not {what} (a whole number above 0)")
        return int(tok)

    def name_until(self, *stops: str, what: str = "a name", known: Sequence[str] = (), single: bool = False) -> str:
        """A name: a quoted token, the longest known name, or the words up to a stop word or amount
        (one word only when `single`: unknown multi-word names must then be quoted)."""
        if self.done():
            raise OrderError(f"expected {what}")
        for name in sorted(known, key=len, reverse=True):
            parts = name.split()
            chunk = self.toks[self.i:self.i + len(parts)]
            if [fold(w) for w in chunk] == [fold(w) for w in parts]:
                self.i += len(parts)
                return name
        words: list[str] = []
        while not self.done():
            tok = self.peek()
            if words and (tok.lower() in stops or amount(tok) is not None):
                break
            words.append(self.take(what))
            if len(words) == 1 and (" " in words[0] or single):
                break
        return " ".join(words)

    def amounts(self) -> dict[str, float]:
        out: dict[str, float] = {}
        while not self.done() and (a := amount(self.peek())) is not None:
            value, unit = a
            if unit in out:
                raise OrderError(f"{unit} is given twice")
            out[unit] = value
            self.i += 1
        return out

    def end(self) -> None:
        if not self.done():
            raise OrderError(f"unexpected `{' '.join(self.toks[self.i:])}` at the end")


def whole(value: float, unit: str) -> int:
    if value != int(value):
        raise OrderError(f"{number(value)}{unit}: {unit} come in whole numbers")
    return int(value)


def unit_code(tok: str) -> tuple[str, bool]:
    if not _CODE.match(tok):
        raise OrderError(f"`{tok}` is not a unit code (like i, hc, st, or (ha) for export)")
    export = tok.startswith("(")
    code = tok.strip("()").lower()
    if code in AMOUNT_UNITS:  # `1 ap` reads as one amount, 1ap: such a code could never be read back
        raise OrderError(f"`{tok}` is an amount's unit (like 4{code}), not a unit code")
    return code, export


class UnknownVerb(OrderError):
    """A line whose first word is no order; the message names the closest verb. The form lists every verb
    once (`verb_list`), not on every such line."""

    def __init__(self, typed: str, meant: forgiving.Match) -> None:
        if meant.candidates:
            message = forgiving.unknown_message(meant, what="order")
        else:
            message = f"`{forgiving.shown(typed)}` is not an order{forgiving.hint(meant)}"
        super().__init__(message)
        self.typed = typed


def unit_list(line: Reader, *stops: str) -> tuple[tuple[str, int], ...]:
    """Units like ``10i 4c`` or ``10 i 4 c`` up to a stop word."""
    words: list[str] = []
    while not line.done() and line.peek().lower() not in stops and amount(line.peek()) is None:
        words.append(line.take("units"))
    glued: list[str] = []
    for word in words:
        if glued and is_count(glued[-1]) and not is_count(word):
            glued[-1] += word
        else:
            glued.append(word)
    try:
        units = parse_units(" ".join(glued))
    except RulesError as exc:
        raise OrderError(str(exc)) from None
    if not units or any(code.startswith("(") for code in units):
        raise OrderError("name the units, like 10i 4c")
    return tuple(units.items())


# -- writing --------------------------------------------------------------------------------------------------
def name(value: str) -> str:
    """A name as one token of a line."""
    return quote(value)


def amounts_text(gp: float = 0, nfp: int = 0, ap: int = 0) -> str:
    parts = []
    if ap:
        parts.append(f"{ap}ap")
    if gp:
        parts.append(f"{number(gp)}gp")
    if nfp:
        parts.append(f"{nfp}nfp")
    return " ".join(parts)


def unit_text(code: str, export: bool = False) -> str:
    return f"({code})" if export else code


def units_text(units: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{count}{code}" for code, count in units)


# -- order kinds ----------------------------------------------------------------------------------------------
class OrderKind:
    """One kind of order: the verbs it is written with, its grammar after the verb (`read`), and its canonical line
    (`text`). `Kind.parse(o.text()) == o` for every order `o`."""

    __slots__ = ()
    verbs: ClassVar[tuple[str, ...]]

    @classmethod
    def read(cls, line: Reader, verb: str) -> Self:
        """The order from the rest of its line, after `verb` (one of `verbs`)."""
        raise NotImplementedError

    @classmethod
    def parse(cls, text: str, names: Names = Names()) -> Self:
        """This kind of order from a line; OrderError says what is wrong with it."""
        order = read_line(text, names, dict.fromkeys(cls.verbs, cls))
        assert isinstance(order, cls)
        return order

    def text(self) -> str:
        raise NotImplementedError


def read_line(text: str, names: Names, kinds: Mapping[str, type[OrderKind]]) -> OrderKind:
    """A line read by the kind its first word names in `kinds` (another case, or a unique prefix, names it too)."""
    line = Reader(text, names)
    typed = line.take("an order")
    verb = typed.lower()
    if verb not in kinds:
        meant = forgiving.Names(kinds).match(typed)   # `recr` is recruit
        if meant.name is None:
            raise UnknownVerb(typed, meant)
        verb = meant.name
    order = kinds[verb].read(line, verb)
    line.end()
    return order
