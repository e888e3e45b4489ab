"""Dice the way Avrae players type them, translated onto the `dice` library's notation.

``4d6kh3`` / ``4d6kl1`` keep the highest or lowest, ``4d6dl1`` / ``2d20dh1`` drop them, ``adv`` / ``dis`` roll a
d20 twice and keep the better or worse, and words after the notation are a label (``1d20+5 to hit``). The library
does the rolling (its `h`/`l` keep dice); this module only rewrites our forms onto it and, afterwards, shows which
dice were kept and which were dropped (struck through), from the draws the roll logged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import RulesError
from engine.core.names import shown

MAX_LABEL = 60
# a word that starts a label: two letters or more, and not one of our own words (adv, dis, kh3, dl…)
_LABEL_WORD = re.compile(r"[^\W\d_]{2,}\S*")
_OUR_WORD = re.compile(r"(adv|dis|[kd][hl]?[0-9]*)", re.IGNORECASE)
_ADVANTAGE = re.compile(r"(?<![a-z])(adv|dis)(?![a-z])", re.IGNORECASE)
_A_D20 = re.compile(r"(?<![0-9a-z])1?d20(?![0-9a-z%])", re.IGNORECASE)
_KEEP = re.compile(r"([0-9]*)d([0-9]+)(kh|kl|dh|dl|k)([0-9]*)", re.IGNORECASE)
# what a breakdown can follow: plain and keep dice, numbers, + - * / and brackets (no x, r, F, % or ^)
_TERM = re.compile(r"([0-9]*)d([0-9]+)(?:([hl])([0-9]*))?", re.IGNORECASE)
_SHOWABLE = re.compile(r"(?:[0-9]*d[0-9]+(?:[hl][0-9]*)?|[0-9]+|[-+*/() \t])+", re.IGNORECASE)
_LABEL_CHARS = re.compile(r"[^\w '\-.,!?()/&+]|_")  # no markdown (`*_~|>`), mentions (<@…>) or code


class DiceWordsError(RulesError):
    """Our own notation (kh, adv…) used in a way that cannot roll; the message says how to write it."""


@dataclass(frozen=True, slots=True)
class Typed:
    """A dice request as typed: the notation part, its label, and the notation the library rolls."""

    notation: str
    label: str
    library: str


def split_label(text: str) -> tuple[str, str]:
    """``1d20+5 to hit`` → (``1d20+5``, ``to hit``): the label begins at the first word that is no dice."""
    words = text.split()
    for i, word in enumerate(words):
        if i and _LABEL_WORD.fullmatch(word) and not _OUR_WORD.fullmatch(word):
            return " ".join(words[:i]), clean_label(" ".join(words[i:]))
    return text.strip(), ""


def clean_label(text: str) -> str:
    """A label safe to show: no markdown or mention characters, at most MAX_LABEL characters."""
    label = " ".join(_LABEL_CHARS.sub("", text).split())
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def to_library(notation: str) -> str:
    """Our notation rewritten onto the library's (unchanged when it uses none of our words)."""
    text = notation
    wanted = {m.lower() for m in _ADVANTAGE.findall(text)}
    if wanted:
        if len(wanted) > 1:
            raise DiceWordsError(f"`{shown(notation)}`: adv and dis cancel out, roll the d20 plainly")
        text = _ADVANTAGE.sub("", text).strip()
        if not _A_D20.search(text):
            raise DiceWordsError(f"`{shown(notation)}`: adv and dis roll a d20 twice; write one after a d20, "
                                 "like 1d20+5 adv")
        keep = "h1" if wanted == {"adv"} else "l1"
        text = _A_D20.sub(f"2d20{keep}", text, count=1)
    return _KEEP.sub(_keep_on_library, text)


def _keep_on_library(m: re.Match[str]) -> str:
    count = int(m[1]) if m[1] else 1
    how, n = m[3].lower(), int(m[4]) if m[4] else 1
    if how == "k":
        how = "kh"
    if how in ("dh", "dl"):
        if n >= count:
            raise DiceWordsError(f"`{m[0]}` drops every die: drop fewer than {count}")
        how, n = ("kl" if how == "dh" else "kh"), count - n
    if not 1 <= n <= count:
        raise DiceWordsError(f"`{m[0]}` keeps {n} of {count} dice: keep 1 to {count}")
    return f"{count}d{m[2]}{'h' if how == 'kh' else 'l'}{n}"


def typed(text: str) -> Typed:
    """Split off the label and translate the rest."""
    notation, label = split_label(text)
    return Typed(notation, label, to_library(notation))


def breakdown(library: str, draws: tuple[int, ...]) -> str | None:
    """The dice of a roll shown term by term, dropped dice struck through: ``(~~3~~, 17) + 5``.

    None when the notation has dice whose draws cannot be told apart (exploding, rerolled, fudge, d%)."""
    if not _SHOWABLE.fullmatch(library):
        return None
    terms = list(_TERM.finditer(library))
    if sum(int(t[1]) if t[1] else 1 for t in terms) != len(draws):
        return None
    out, at, used = [], 0, 0
    for term in terms:
        count = int(term[1]) if term[1] else 1
        faces = draws[used:used + count]
        used += count
        out.append(library[at:term.start()])
        out.append("(" + ", ".join(_shown_faces(faces, term[3], term[4])) + ")")
        at = term.end()
    out.append(library[at:])
    return " ".join("".join(out).replace("+", " + ").replace("-", " - ").split())


def _shown_faces(faces: tuple[int, ...], how: str | None, n_text: str | None) -> list[str]:
    if not how:
        return [str(f) for f in faces]
    n = int(n_text) if n_text else 1
    order = sorted(range(len(faces)), key=lambda i: faces[i], reverse=how.lower() == "h")
    kept = set(order[:n])
    return [str(f) if i in kept else f"~~{f}~~" for i, f in enumerate(faces)]
