"""Guarded reading of uploaded text: a cheap scan caps size and shape before any parser runs.

Anyone may create a campaign and upload, so an upload is hostile until proven otherwise.
`tomllib` recurses on nested arrays (a 1000-deep array raises RecursionError) and a single
long dotted key (``a.a.a…``) costs it quadratic time and memory, so the text is scanned
first, in one linear pass, and refused with a clear message before `tomllib` sees it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from engine.core.errors import UploadError


@dataclass(frozen=True, slots=True)
class Limits:
    """What one uploaded file may hold."""

    chars: int = 256 * 1024     # the whole text (the bot reads at most 256 KiB of an attachment)
    lines: int = 20_000
    depth: int = 16             # nested [ and { (tables, arrays, inline tables)
    dotted: int = 8             # dots in one dotted key (a.b.c has 2)
    key_chars: int = 200        # one key, from the start of the line (or { or ,) to its =
    items: int = 50_000         # keys (=) plus array items (,)


LIMITS = Limits()


def _where(text: str, pos: int) -> str:
    return f"line {text.count(chr(10), 0, pos) + 1}"


def check_text(name: str, text: str, limits: Limits = LIMITS) -> None:
    """Refuse text too big for any upload: its size, line count, and NUL or other binary bytes."""
    if len(text) > limits.chars:
        raise UploadError(f"{name}: the file is {len(text) // 1024} KiB; uploads are at most "
                          f"{limits.chars // 1024} KiB")
    if text.count("\n") >= limits.lines:
        raise UploadError(f"{name}: the file has over {limits.lines} lines")
    if "\x00" in text:
        raise UploadError(f"{name}: the file holds NUL bytes; it is not a text file")


# Runs the scan can skip whole: they change no count (bare keys, numbers, blanks), and strings and comments
_PLAIN = re.compile(r"[A-Za-z0-9_+:\- \t\r]+")
_STRINGS = {
    '"""': re.compile(r'"""(?:[^\\"]|\\.|"(?!""))*(?:"""|$)', re.DOTALL),
    "'''": re.compile(r"'''(?:[^']|'(?!''))*(?:'''|$)"),
    '"': re.compile(r'"(?:[^"\\\n]|\\.)*"?'),
    "'": re.compile(r"'[^'\n]*'?"),
}
_COMMENT = re.compile(r"#[^\n]*")


def scan_toml(name: str, text: str, limits: Limits = LIMITS) -> None:
    """One linear pass over TOML text, outside strings and comments, refusing shapes too deep or too many."""
    check_text(name, text, limits)
    depth = dots = items = 0
    key_start = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        plain = _PLAIN.match(text, i)
        if plain:
            i = plain.end()
            continue
        if ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            found = _STRINGS[quote].match(text, i)
            i = found.end() if found else n
            continue  # a quoted key segment keeps the dotted chain going
        if ch == "#":
            comment = _COMMENT.match(text, i)
            i = comment.end() if comment else n
            continue
        if ch in "[{":
            depth += 1
            if depth > limits.depth:
                raise UploadError(f"{name}, {_where(text, i)}: nested more than {limits.depth} deep")
            if ch == "{":
                key_start = i + 1
            dots = 0
        elif ch in "]}":
            depth = max(0, depth - 1)
            dots = 0
        elif ch == ".":
            dots += 1
            if dots > limits.dotted:
                raise UploadError(f"{name}, {_where(text, i)}: a dotted key of more than "
                                  f"{limits.dotted + 1} parts")
        elif ch in "=,\n":
            if ch == "=" and i - key_start > limits.key_chars:
                raise UploadError(f"{name}, {_where(text, i)}: a key longer than {limits.key_chars} characters")
            if ch != "\n":
                items += 1
                if items > limits.items:
                    raise UploadError(f"{name}: more than {limits.items} keys and values")
            if ch != "=":
                key_start = i + 1
            dots = 0
        else:
            dots = 0  # any other character ends a dotted chain
        i += 1


def load_toml(name: str, text: str, limits: Limits = LIMITS) -> dict[str, Any]:
    """The TOML of an upload, after the guard scan; any problem is an `UploadError` naming the file."""
    scan_toml(name, text, limits)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UploadError(f"{name}: not valid TOML: {exc}") from exc
    except RecursionError:  # the scan bounds depth well below this; kept so no shape ever escapes
        raise UploadError(f"{name}: nested too deep") from None

