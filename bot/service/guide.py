"""/help about the games themselves: which rulesets there are, and one ruleset's options and order grammar."""

from __future__ import annotations

from typing import Any

from engine.core import RulesError, Ruleset
from engine.core.names import Names, unknown_message
from engine.core.ruleset import Option
from engine.rulesets import available, find, get

GENERAL_TOPICS = ("start", "orders", "gm", "tables", "dice", "rulesets")


def rulesets_help() -> str:
    """Every ruleset this build runs, one line each, with how to read more."""
    lines = ["**Rulesets** — start one with `/campaign create name ruleset [options]`:"]
    for ruleset_id in available():
        ruleset = get(ruleset_id)
        options = f"{len(ruleset.options)} option{'s' if len(ruleset.options) != 1 else ''}"
        lines.append(f"• `{ruleset.id}` — **{ruleset.title}**, {_seats(ruleset)}; {options}")
    lines.append("More on one: `/help terra-nova` (any id or title, or the start of one).")
    return "\n".join(lines)


def _seats(ruleset: Ruleset[Any]) -> str:
    """``2-5 seats: Spain, Portugal…``, or where the seats come from when a file names them."""
    try:
        seats = ruleset.seat_rule({o.name: o.default for o in ruleset.options}, {})
    except RulesError:  # the seats are the nations of an uploaded file
        return "seats from the file the GM uploads"
    count = f"{seats.minimum}-{seats.maximum}" if seats.minimum != seats.maximum else str(seats.minimum)
    names = f": {', '.join(seats.names)}" if seats.names else " (named by whoever joins)"
    return f"{count} seats{names}"


def _option_line(option: Option) -> str:
    default = ("yes" if option.default else "no") if isinstance(option.default, bool) else option.default
    kinds = f" ({' | '.join(option.choices)})" if option.choices else ""
    bounds = ""
    if option.minimum is not None or option.maximum is not None:
        bounds = f" ({option.minimum if option.minimum is not None else '…'}-"
        bounds += f"{option.maximum if option.maximum is not None else '…'})"
    return f"• `{option.name}` = `{default}`{kinds}{bounds} — {option.help}"


def ruleset_help(typed: str) -> str:
    """One ruleset: its seats, its options with their defaults, the files it takes, and its order grammar."""
    ruleset: Ruleset[Any] = find(typed)
    lines = [f"**{ruleset.title}** (`{ruleset.id}`, version {ruleset.version}): {_seats(ruleset)}"]
    if ruleset.options:
        lines.append(f"**Options** (`/campaign create … options:\"{ruleset.options[0].name}=…\"`; defaults shown):")
        lines += [_option_line(o) for o in ruleset.options]
    if ruleset.uploads:
        lines.append("**Files** (`/gm upload kind file`): "
                     + "; ".join(f"`{kind}` — {what}" for kind, what in ruleset.uploads.items()))
    if ruleset.orders_help:
        lines += ["**Orders**", grammar_blocks(ruleset.orders_help)]
    return "\n".join(lines)


def grammar_blocks(text: str) -> str:
    """An order grammar laid out in columns keeps them: its indented run (with the heading above it) goes in a
    code block. A grammar written as Markdown, with no indented lines, is left as it is."""
    lines = text.rstrip("\n").split("\n")
    indented = [i for i, line in enumerate(lines) if line.startswith((" ", "\t")) and line.strip()]
    if not indented:
        return text
    first, last = max(0, indented[0] - 1), indented[-1]
    block = [line.replace("```", "'''") for line in lines[first:last + 1]]
    return "\n".join([*lines[:first], "```text", *block, "```", *lines[last + 1:]])


def topic_of(typed: str) -> tuple[str, str]:
    """(``"topic"``, name) for a general topic, or (``"ruleset"``, id); RulesError with "did you mean" else."""
    ids = available()
    aliases = {alias: i for i in ids for alias in (i.replace("-", " "), get(i).title)}
    meant = Names([*GENERAL_TOPICS, *ids], aliases=aliases).match(typed)
    if meant.name is None:
        raise RulesError(f"{unknown_message(meant, what='help topic')} (topics: {', '.join(GENERAL_TOPICS)}, "
                         f"or a ruleset: {', '.join(ids)})")
    return ("ruleset" if meant.name in ids else "topic"), meant.name
