"""Provably fair randomness: a secret seed, per-purpose derived streams, every roll logged.

Each roll draws from its own stream, keyed ``scope/purpose#n``: the bytes are
HMAC-SHA256(seed, key + "#" + block number), so adding a roll in one place never shifts
another, and anyone holding the revealed seed can re-derive every logged roll
(:func:`rederive`). The commitment posted at the start is SHA-256 of the seed.
"""

from __future__ import annotations

import contextvars
import copy
import functools
import hashlib
import hmac
import random
import re
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

import dice as dice_notation
import dice.elements
import dice.utilities

from engine.core.dice_notation import breakdown, split_label, to_library
from engine.core.errors import RulesError
from engine.core.visibility import GM_ONLY, PUBLIC, Visibility

T = TypeVar("T")
RollKind = Literal["dice", "notation", "shuffle"]

MAX_DICE = 100
MAX_SIDES = 1000
MAX_NOTATION = 100
MAX_NOTATION_SIDES = 10**6
_NOTATION_CHARS = re.compile(r"[0-9a-zA-Z%+\-*/^().,<>=!\s]+")
_NUMBER = re.compile(r"[0-9]+")
_SIDES = re.compile(r"[dD]\s*([0-9]+)")
# the common forms (2d6, d20+3, 3d8 - 1, d%) are rolled without the library: one die per randint, left to right,
# exactly the draws the library makes for them (tests/engine/test_rng.py compares the two on many notations)
_SIMPLE = re.compile(r"([0-9]*)[dD]([0-9]+|%)(?:[ \t\r\n]*([+-])[ \t\r\n]*([0-9]+))?")  # pyparsing's blanks
PARSED_NOTATIONS = 512  # distinct notations whose parse tree is kept (a parse costs ~2.5 ms of pyparsing)


def new_seed() -> bytes:
    """A fresh secret campaign seed (the caller supplies the entropy source: `secrets`)."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed, posted when a campaign starts."""
    return hashlib.sha256(seed).hexdigest()


class Stream(random.Random):
    """A `random.Random` whose bits come from HMAC-SHA256 of the seed and one key."""

    def __init__(self, seed: bytes, key: str) -> None:
        self._secret = seed
        self._key = key.encode()
        self._block = 0
        self._buffer = b""
        self.draws: list[int] = []
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:  # the HMAC key is the seed
        return None

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            msg = self._key + b"#" + self._block.to_bytes(8, "big")
            self._buffer += hmac.new(self._secret, msg, hashlib.sha256).digest()
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def getrandbits(self, k: int) -> int:
        if k <= 0:
            return 0
        n = (k + 7) // 8
        return int.from_bytes(self._take(n), "big") >> (n * 8 - k)

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53

    def randint(self, a: int, b: int) -> int:
        value = super().randint(a, b)
        self.draws.append(value)
        return value

    def getstate(self) -> Any:
        raise NotImplementedError("derived streams are re-created from their key, not saved")

    def setstate(self, state: Any) -> None:
        raise NotImplementedError("derived streams are re-created from their key, not saved")


@dataclass(frozen=True, slots=True)
class Roll:
    """One logged roll: enough to show it and to re-derive it from the revealed seed."""

    key: str
    purpose: str
    kind: RollKind
    notation: str
    faces: tuple[int, ...]
    total: int
    visibility: Visibility = PUBLIC
    modifier: int = 0
    table: str | None = None
    result: str | None = None
    label: str = ""  # how summaries name the roll, when its purpose (which keys its stream) reads poorly
    note: str = ""  # what the roller said it is for: `1d20+5 to hit`

    @property
    def name(self) -> str:
        return self.label or self.purpose.replace("/", " ")

    def text(self) -> str:
        """A short human form, e.g. ``2d6 [3, 5] +1 = 9 → Drought``."""
        if self.kind == "shuffle":
            return f"shuffled {len(self.faces)} ({self.purpose})"
        if self.kind == "notation":
            return self._notation_text()
        faces = ", ".join(str(f) for f in self.faces)
        mod = f" {self.modifier:+d}" if self.modifier else ""
        out = f"{self.notation} [{faces}]{mod} = {self.total + self.modifier}"
        if self.table:
            out = f"{self.table}: {out}"
        if self.result is not None:
            out += f" → {self.result}"
        return out

    def _notation_text(self) -> str:
        """``1d20+5 adv (to hit): (~~3~~, 17) + 5 = 22``: each die shown, dropped ones struck through."""
        try:
            shown = breakdown(to_library(self.notation), self.faces)
        except RulesError:  # logged before our words existed; shown as the library read it
            shown = None
        if shown is None:
            shown = "[" + ", ".join(str(f) for f in self.faces) + "]"
        note = f" ({self.note})" if self.note else ""
        return f"{self.notation}{note}: {shown} = **{self.total}**"

    def dump(self) -> dict[str, Any]:
        return {
            "key": self.key, "purpose": self.purpose, "kind": self.kind, "notation": self.notation,
            "faces": list(self.faces), "total": self.total, "visibility": self.visibility.dump(),
            "modifier": self.modifier, "table": self.table, "result": self.result, "label": self.label,
            **({"note": self.note} if self.note else {}),
        }

    @classmethod
    def load(cls, raw: dict[str, Any]) -> Roll:
        return cls(
            key=raw["key"], purpose=raw["purpose"], kind=raw["kind"], notation=raw["notation"],
            faces=tuple(raw["faces"]), total=raw["total"], visibility=Visibility.load(raw["visibility"]),
            modifier=raw.get("modifier", 0), table=raw.get("table"), result=raw.get("result"),
            label=raw.get("label", ""), note=raw.get("note", ""),
        )


_evaluating: contextvars.ContextVar[Stream | None] = contextvars.ContextVar("herald_dice_stream", default=None)


class _StreamOfThisRoll:
    """dice 4.0 forgets to pass `random=` on to exploded and rerolled dice (`x`, `r`), which then
    fall back to its module-level `random`. That fallback is routed here, to the stream of the
    roll being evaluated, so no die ever escapes the campaign seed."""

    def __getattr__(self, name: str) -> Any:
        stream = _evaluating.get()
        if stream is None:
            raise RuntimeError("dice notation is only rolled through Dice.notation")
        return getattr(stream, name)


dice.elements.random = _StreamOfThisRoll()


def _notation_total(value: Any) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    return sum(int(v) for v in value)


def _not_notation(text: str) -> RulesError:
    """Our own words, never the parser's (its text quotes the input and runs long)."""
    printable = "".join(c if c.isprintable() and c != "`" else "?" for c in text)
    shown = printable if len(printable) <= 40 else printable[:39] + "…"
    return RulesError(f"`{shown}` is not dice notation I can roll: try 2d6+1, 4d6kh3, 1d20+5 adv, 3d6x6 or d% "
                      f"(up to {MAX_DICE} dice of up to {MAX_NOTATION_SIDES:,} sides)")


def _check_notation(text: str) -> None:
    """Refuse before parsing: only ASCII notation, numbers of at most 7 digits, sides within MAX_NOTATION_SIDES."""
    if not _NOTATION_CHARS.fullmatch(text) or any(len(n) > 7 for n in _NUMBER.findall(text)):
        raise _not_notation(text)
    if any(int(sides) > MAX_NOTATION_SIDES for sides in _SIDES.findall(text)):
        raise _not_notation(text)


@functools.lru_cache(maxsize=PARSED_NOTATIONS)
def _parsed(text: str) -> tuple[Any, ...]:
    """The library's parse tree of `text`, never evaluated: each roll evaluates a deep copy of it, because the
    library caches results and rewrites operands inside the tree it evaluates."""
    return tuple(dice_notation.parse_expression(text))


def _simple_total(stream: Stream, text: str) -> int | None:
    """The total of a plain ``NdS(+/-k)`` roll, or None when `text` is not one."""
    match = _SIMPLE.fullmatch(text)
    if match is None:
        return None
    count = int(match[1]) if match[1] else 1
    sides = 100 if match[2] == "%" else int(match[2])
    if count > MAX_DICE or sides < 1:
        raise _not_notation(text)
    total = sum(stream.randint(1, sides) for _ in range(count))
    if match[3]:
        total += int(match[4]) if match[3] == "+" else -int(match[4])
    return total


def _evaluate_notation(stream: Stream, typed: str) -> int:
    """Roll `typed` (our notation: kh, dl, adv… are rewritten onto the library's first)."""
    text = to_library(typed)
    if text != typed:
        _check_notation(text)
    simple = _simple_total(stream, text)
    if simple is not None:
        return simple
    token = _evaluating.set(stream)
    try:
        elements = copy.deepcopy(_parsed(text))
        value = dice.utilities.single([e.evaluate_cached(random=stream, max_dice=MAX_DICE) for e in elements])
        return _notation_total(value)
    except (dice_notation.DiceBaseException, dice_notation.ParseBaseException, ZeroDivisionError, ValueError,
            RecursionError, OverflowError, TypeError, AttributeError, IndexError, KeyError) as exc:
        # the library's own internals fail on some odd notations (`-0F0`: AttributeError): a refusal all the same
        raise _not_notation(typed) from exc
    finally:
        _evaluating.reset(token)


def rederive(seed: bytes, roll: Roll) -> Roll:
    """Roll again from the seed and the logged key; equal faces and total prove the roll fair."""
    stream = Stream(seed, roll.key)
    if roll.kind == "dice":
        count, sides = (int(x) for x in roll.notation.split("d"))
        faces = tuple(stream.randint(1, sides) for _ in range(count))
        return replace(roll, faces=faces, total=sum(faces))
    if roll.kind == "notation":
        total = _evaluate_notation(stream, roll.notation)
        return replace(roll, faces=tuple(stream.draws), total=total)
    order = list(range(len(roll.faces)))
    stream.shuffle(order)
    return replace(roll, faces=tuple(order), total=0)


class Dice:
    """The dice a rule may use, for one logged step. Every roll is recorded in `rolls`."""

    def __init__(self, seed: bytes, scope: str) -> None:
        self._seed = seed
        self.scope = scope
        self._counts: Counter[str] = Counter()
        self.rolls: list[Roll] = []

    def _stream(self, purpose: str) -> tuple[str, Stream]:
        n = self._counts[purpose]
        self._counts[purpose] += 1
        key = f"{self.scope}/{purpose}#{n}"
        return key, Stream(self._seed, key)

    def roll(
        self, count: int, sides: int, *, purpose: str, visibility: Visibility = PUBLIC,
        modifier: int = 0, table: str | None = None, result: str | None = None,
    ) -> Roll:
        """Roll `count` dice of `sides` faces."""
        if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
            raise RulesError(f"{count}d{sides} is outside what I roll (1-{MAX_DICE} dice of 2-{MAX_SIDES})")
        key, stream = self._stream(purpose)
        faces = tuple(stream.randint(1, sides) for _ in range(count))
        return self._log(Roll(key, purpose, "dice", f"{count}d{sides}", faces, sum(faces), visibility,
                              modifier, table, result))

    def d6(self, purpose: str, *, visibility: Visibility = PUBLIC) -> int:
        """One six-sided die."""
        return self.roll(1, 6, purpose=purpose, visibility=visibility).total

    def notation(self, text: str, *, purpose: str, visibility: Visibility = PUBLIC) -> Roll:
        """Roll free dice notation (``2d6+1``, ``4d6kh3``, ``1d20+5 adv to hit``, ``3d6x6``…) with the `dice`
        library; words after the dice are the roll's note."""
        text = text.strip()
        if not text or len(text) > MAX_NOTATION:
            raise RulesError(f"dice notation must be 1-{MAX_NOTATION} characters")
        notation, note = split_label(text)
        _check_notation(notation)
        key, stream = self._stream(purpose)
        total = _evaluate_notation(stream, notation)
        return self._log(Roll(key, purpose, "notation", notation, tuple(stream.draws), total, visibility,
                              note=note))

    def shuffle(self, items: Sequence[T], *, purpose: str, visibility: Visibility = GM_ONLY) -> list[T]:
        """A shuffled copy of `items` (secret by default: a shuffled stack is hidden information)."""
        key, stream = self._stream(purpose)
        order = list(range(len(items)))
        stream.shuffle(order)
        self._log(Roll(key, purpose, "shuffle", f"shuffle {len(items)}", tuple(order), 0, visibility))
        return [items[i] for i in order]

    def annotate(self, roll: Roll, *, table: str | None = None, result: str | None = None,
                 modifier: int | None = None, label: str | None = None) -> Roll:
        """Attach a table lookup or a readable label to a roll already made (it replaces the logged record)."""
        noted = replace(roll, table=table if table is not None else roll.table,
                        result=result if result is not None else roll.result,
                        modifier=modifier if modifier is not None else roll.modifier,
                        label=label if label is not None else roll.label)
        for i in range(len(self.rolls) - 1, -1, -1):
            if self.rolls[i].key == roll.key:
                self.rolls[i] = noted
                break
        return noted

    def _log(self, roll: Roll) -> Roll:
        self.rolls.append(roll)
        return roll
