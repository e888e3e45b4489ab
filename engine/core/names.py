"""Forgiving names: whatever a person types for a campaign, seat, place, leader, verb or table.

One rule everywhere: case and accents do not matter (``cote d'ivoire`` is ``Côte d'Ivoire``); an exact name
wins; otherwise a prefix that fits one name only is that name; a prefix that fits several lists them; and a
name that fits none gets "did you mean …?" from RapidFuzz's closest match, never a guess made silently.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz, process, utils

from engine.core.errors import RulesError

MAX_TYPED = 200  # longer than any name: refused before matching, so a pasted essay costs nothing
SUGGEST_CUTOFF = 60.0  # RapidFuzz WRatio (0-100) below which a "closest" name is no help
MAX_LISTED = 8  # candidates named in an "ambiguous" message
MIN_SUGGESTED = 3  # two letters resemble too many names for a suggestion to mean anything


def fold(text: str) -> str:
    """The form names are compared in: accents stripped, case folded, underscores and blanks one space."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().replace("_", " ").split())


@dataclass(frozen=True, slots=True)
class Match:
    """What a typed name matched: one name, several (an ambiguous prefix), or none (with the closest)."""

    typed: str
    name: str | None = None
    candidates: tuple[str, ...] = ()
    closest: str | None = None

    @property
    def found(self) -> bool:
        return self.name is not None


class UnknownName(RulesError):
    """A typed name that names nothing (or several things); the message says what was meant, if anything."""

    def __init__(self, message: str, match: Match) -> None:
        super().__init__(message)
        self.match = match


def shown(text: str) -> str:
    """Typed text safe to quote in backticks, at most 40 characters."""
    printable = "".join(c if c.isprintable() and c != "`" else "?" for c in text.strip())
    return printable if len(printable) <= 40 else printable[:39] + "…"


class Names:
    """A fixed set of names, folded once, to match many typed names against."""

    def __init__(self, names: Iterable[str], *, aliases: Mapping[str, str] | None = None) -> None:
        """`names` (a dict gives its keys), and `aliases`: other ways to type one of them (a title for an id)."""
        self._folded: dict[str, str] = {}
        for name in names:
            self._folded.setdefault(fold(name), name)
        for typed, name in (aliases or {}).items():
            self._folded.setdefault(fold(typed), name)
        self.names = tuple(dict.fromkeys(self._folded.values()))

    def match(self, typed: str) -> Match:
        """The exact name, else the only name `typed` begins, else the candidates or the closest."""
        if len(typed) > MAX_TYPED:
            return Match(typed)
        wanted = fold(typed)
        if not wanted:
            return Match(typed)
        exact = self._folded.get(wanted)
        if exact is not None:
            return Match(typed, exact)
        starts = list(dict.fromkeys(name for key, name in self._folded.items() if key.startswith(wanted)))
        if len(starts) == 1:
            return Match(typed, starts[0])
        if starts:
            return Match(typed, candidates=tuple(starts))
        return Match(typed, closest=self.closest(wanted))

    def closest(self, wanted: str) -> str | None:
        keys = list(self._folded)
        if not keys or len(wanted) < MIN_SUGGESTED:
            return None
        best = process.extractOne(wanted, keys, scorer=fuzz.WRatio, processor=utils.default_process,
                                  score_cutoff=SUGGEST_CUTOFF)
        return self._folded[best[0]] if best else None

    def resolve(self, typed: str, *, what: str = "name") -> str:
        """The name meant by `typed`, or UnknownName saying why not (with "did you mean …?")."""
        found = self.match(typed)
        if found.name is not None:
            return found.name
        raise UnknownName(unknown_message(found, what=what), found)


def unknown_message(found: Match, *, what: str = "name") -> str:
    """``no seat `Cubs` — did you mean **Cuba**?`` or ```c` could be Cuba, Chile or Congo``."""
    typed = shown(found.typed)
    if found.candidates:
        listed = [f"**{c}**" for c in found.candidates[:MAX_LISTED]]
        more = len(found.candidates) - len(listed)
        tail = f" and {more} more" if more else ""
        names = ", ".join(listed[:-1]) + f" or {listed[-1]}" if len(listed) > 1 else listed[0]
        return f"`{typed}` could be {names}{tail}: type more of the {what}"
    hint = f" — did you mean **{found.closest}**?" if found.closest else ""
    return f"no {what} `{typed}`{hint}"


def hint(found: Match) -> str:
    """`` — did you mean **x**?`` when a close name was found, else ``""``."""
    return f" — did you mean **{found.closest}**?" if found.closest else ""


def resolve(typed: str, names: Iterable[str], *, what: str = "name") -> str:
    """One-off `Names(names).resolve(typed)`."""
    return Names(names).resolve(typed, what=what)


def suggestion(typed: str, names: Iterable[str]) -> str:
    """`` — did you mean **x**?`` when one of `names` is close to `typed`, else ``""``."""
    closest = Names(names).closest(fold(typed)) if len(typed) <= MAX_TYPED else None
    return f" — did you mean **{closest}**?" if closest else ""


def meant_action(typed: str, actions: Iterable[tuple[str, str]]) -> str | None:
    """What a typed action most likely says, given the legal actions as (text, label) pairs: the one action whose
    text or label it begins (``Move to sector 3`` is ``move 3``), else the same words after a verb written out
    (``rul q1 none`` is ``rule q1 none``); None when neither fits exactly one. Used only once the typed text
    was refused as it stands, so a well-formed action is never second-guessed."""
    pairs = [(text.strip(), label.strip()) for text, label in actions if text.strip()]
    wanted = fold(typed)
    if not wanted or len(typed) > MAX_TYPED:
        return None

    def begins(name: str) -> bool:  # a prefix that stops inside a number names no action: `tile 2` is not 26
        key = fold(name)
        return key.startswith(wanted) and not (
            len(key) > len(wanted) and wanted[-1].isdigit() and key[len(wanted)].isdigit())

    fits = list(dict.fromkeys(text for text, label in pairs if not text.endswith(":")
                              and (begins(text) or (label and begins(label)))))
    if len(fits) == 1 and fold(fits[0]) != wanted:
        return fits[0]
    verb, _, rest = typed.strip().partition(" ")
    verbs = Names(dict.fromkeys(t.split(" ", 1)[0] for t, _ in pairs))
    meant = verbs.match(verb).name if verb and len(verb) <= MAX_TYPED else None
    if meant is None or fold(meant) == fold(verb):
        return None
    return f"{meant} {rest}".strip()
