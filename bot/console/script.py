"""The console's line format: who, where, and what they do.

    [@user] [#channel] /command [subcommand…] [words] option:value option:"a value" file:@path
                                          no @user yet: you act as @you; bare words fill the first option
    [@user] press "Button label"
    [@user] select "menu option (label or value)"
    [@user] form field:"value"            submit the last form shown to that user
    [@user] complete /command option:"partial"   show autocomplete choices for the last option
    gm @user | admin @user                give the GM role | Manage Server
    clock +2d                             move time on; due deadlines, reminders and timers fire
    expect "text" | expect-not "text"     check the output of the previous line
    echo text
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field


class ScriptError(ValueError):
    """A line the console cannot read; the message says how to write it."""


@dataclass
class Line:
    verb: str                      # slash | press | select | form | complete | gm | admin | clock | expect | ...
    user: str | None = None
    channel: str | None = None
    words: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    text: str = ""


def unescape(value: str) -> str:
    return value.replace("\\n", "\n").replace("\\t", "\t")


def parse(raw: str) -> Line | None:
    stripped = raw.strip()
    if not stripped or stripped.startswith("# ") or stripped == "#":
        return None  # a comment: "# " (a channel is "#name", with no space)
    echo = re.match(r"^(?:[@#]\S+\s+)*echo(?:\s+(.*))?$", stripped)
    if echo:  # said as written: apostrophes and all
        return Line(verb="echo", text=echo[1] or "")
    try:
        tokens = shlex.split(stripped, comments=False, posix=True)
    except ValueError as exc:
        raise ScriptError(f"cannot read `{stripped}`: {exc}") from None
    line = Line(verb="")
    while tokens and tokens[0][:1] in "@#" and len(tokens[0]) > 1:
        token = tokens.pop(0)
        if token[0] == "@":
            line.user = token[1:]
        else:
            line.channel = token[1:]
    if not tokens:
        raise ScriptError(f"`{stripped}`: nothing to do after the user and channel")
    head = tokens.pop(0)
    if head.startswith("/"):
        line.verb, line.words = "slash", [head[1:]]
        _options(line, tokens)
        return line
    line.verb = head.lower()
    if line.verb in ("press", "select", "expect", "expect-not", "echo"):
        line.text = unescape(" ".join(tokens))
    elif line.verb == "form":
        _options(line, tokens)
    elif line.verb == "complete":
        if not tokens or not tokens[0].startswith("/"):
            raise ScriptError("complete takes a command: complete /gm act action:\"res\"")
        line.words = [tokens.pop(0)[1:]]
        _options(line, tokens)
    elif line.verb in ("gm", "admin"):
        if len(tokens) != 1 or not tokens[0].startswith("@"):
            raise ScriptError(f"{line.verb} takes one user: {line.verb} @alice")
        line.text = tokens[0][1:]
    elif line.verb == "clock":
        if len(tokens) != 1:
            raise ScriptError("clock takes a duration: clock +25h")
        line.text = tokens[0]
    else:
        raise ScriptError(f"unknown line `{head}`: start with /command, press, select, form, complete, gm, admin, "
                          f"clock, expect or echo")
    return line


def _options(line: Line, tokens: list[str]) -> None:
    for token in tokens:
        if ":" in token:
            key, value = token.split(":", 1)
            line.options[key] = unescape(value)
        elif line.options:
            raise ScriptError(f"`{token}`: options are name:value (quote values with spaces)")
        else:
            line.words.append(token)
