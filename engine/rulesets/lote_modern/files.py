"""Reading the GM's upload files: TOML with optional CSV blocks, and errors that name line and field.

Every error raised here is an `UploadError` whose message starts with where the problem is
(``sheets line 14, [[nation]] "England", field `culture`: ...``) so a GM can fix the file at once.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import UploadError
from engine.core.upload import load_toml as guarded_toml

MAX_ROWS = 5000


def load_toml(name: str, text: str) -> dict[str, Any]:
    """The file's TOML after the upload guard (size, depth, keys), or an error that quotes tomllib's line and column."""
    return guarded_toml(name, text)


_TABLE_HEADER = re.compile(r"^\s*\[\s*([^\[\]\s]+)\s*\]")
_LONG_QUOTE = re.compile(r"`([^`]{61,})`")  # a value quoted back whole, wherever the message was written


def shown(value: object, limit: int = 60) -> str:
    """A value from the file, quoted back short: the GM needs to spot it, not to read 3,000 characters again."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Source:
    """The raw lines of an uploaded file, for finding where a table or key was written."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.lines = text.splitlines()
        self._tables: dict[str, int] | None = None

    def headers(self, header: str, start: int = 1, end: int | None = None) -> list[int]:
        """Line numbers (1-based) of each ``[[header]]`` between `start` and `end`."""
        pattern = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]")
        stop = len(self.lines) if end is None else end
        return [n for n in range(start, stop + 1) if pattern.match(self.lines[n - 1])]

    def table(self, header: str) -> int | None:
        """Line number of a ``[header]`` table."""
        if self._tables is None:  # indexed once: asked per nation and key, a rescan each time grew quadratic
            self._tables = {}
            for n, line in enumerate(self.lines, start=1):
                if found := _TABLE_HEADER.match(line):
                    self._tables.setdefault(found[1], n)
        return self._tables.get(header)

    def key(self, key: str, start: int = 1, end: int | None = None) -> int | None:
        """Line number of the first ``key =`` between `start` and `end`."""
        pattern = re.compile(r"^\s*\"?" + re.escape(key) + r"\"?\s*=")
        stop = len(self.lines) if end is None else end
        for n in range(max(1, start), stop + 1):
            if pattern.match(self.lines[n - 1]):
                return n
        return None

    def block_start(self, key: str, start: int = 1, end: int | None = None) -> int | None:
        """The line of the first row of a ``key = \"\"\"...\"\"\"`` block (its CSV header line)."""
        line = self.key(key, start, end)
        if line is None:
            return None
        after = self.lines[line - 1].split('"""', 1)
        if len(after) == 2 and not after[1].strip():
            return line + 1
        return line


@dataclass(frozen=True, slots=True)
class Where:
    """A place in an uploaded file: the file, a line when known, and what is being read."""

    file: str
    line: int | None
    what: str

    def error(self, message: str, field: str | None = None) -> UploadError:
        place = self.file + (f" line {self.line}" if self.line else "")
        if self.what:
            place += f", {shown(self.what, 80)}"
        if field:
            place += f", field `{shown(field, 40)}`"
        return UploadError(f"{place}: {_LONG_QUOTE.sub(lambda m: f'`{shown(m[1])}`', message)}")


def suggest(word: str, known: Iterable[str]) -> str:
    """`` (did you mean `x`?)`` when one of `known` is close to `word`."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean `{close[0]}`?)" if close else ""


class Fields:
    """Typed reads of one record (a TOML table or a CSV row), with errors naming the field."""

    def __init__(self, raw: Mapping[str, Any], where: Where, *, csv_row: bool = False) -> None:
        self.raw = raw
        self.where = where
        self.csv_row = csv_row
        self.read: set[str] = set()

    def error(self, field: str, message: str) -> UploadError:
        return self.where.error(message, field)

    def has(self, key: str) -> bool:
        value = self.raw.get(key)
        return value is not None and not (isinstance(value, str) and not value.strip() and self.csv_row)

    def _get(self, key: str, required: bool) -> Any:
        self.read.add(key)
        if not self.has(key):
            if required:
                raise self.where.error(f"`{key}` is required")
            return None
        return self.raw[key]

    def text(self, key: str, default: str | None = None, *, required: bool = False, limit: int = 80) -> str:
        value = self._get(key, required and default is None)
        if value is None:
            return default if default is not None else ""
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise self.error(key, f"expected text, got `{shown(value)}`")
        out = str(value).strip()
        if len(out) > limit:
            raise self.error(key, f"at most {limit} characters")
        return out

    def name(self, key: str) -> str:
        value = self.text(key, required=True, limit=60)
        if not value:
            raise self.error(key, "a name is required")
        if any(c in value for c in '"[]#,;'):
            raise self.error(key, f"`{shown(value)}`: names may not contain quotes, brackets, #, commas or semicolons")
        return value

    def integer(self, key: str, default: int | None = None, *, minimum: int | None = None,
                maximum: int | None = None, required: bool = False) -> int:
        value = self._get(key, required or default is None)
        if value is None:
            assert default is not None
            return default
        if isinstance(value, bool):
            raise self.error(key, f"expected a whole number, got `{shown(value)}`")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise self.error(key, f"expected a whole number, got `{shown(value)}`") from None
        if isinstance(value, float):
            if not value.is_integer():
                raise self.error(key, f"expected a whole number, got `{shown(value)}`")
            value = int(value)
        if not isinstance(value, int):
            raise self.error(key, f"expected a whole number, got `{shown(value)}`")
        self._bounds(key, value, minimum, maximum)
        return value

    def number(self, key: str, default: float | None = None, *, minimum: float | None = None,
               maximum: float | None = None, required: bool = False) -> float:
        value = self._get(key, required or default is None)
        if value is None:
            assert default is not None
            return default
        if isinstance(value, bool):
            raise self.error(key, f"expected a number, got `{shown(value)}`")
        if isinstance(value, str):
            try:
                value = float(value.strip())
            except ValueError:
                raise self.error(key, f"expected a number, got `{shown(value)}`") from None
        if not isinstance(value, int | float):
            raise self.error(key, f"expected a number, got `{shown(value)}`")
        self._bounds(key, float(value), minimum, maximum)
        return float(value)

    def _bounds(self, key: str, value: float, minimum: float | None, maximum: float | None) -> None:
        if minimum is not None and value < minimum:
            raise self.error(key, f"{value:g} is below the minimum {minimum:g}")
        if maximum is not None and value > maximum:
            raise self.error(key, f"{value:g} is above the maximum {maximum:g}")

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._get(key, False)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("yes", "true", "y", "1", "port", "x"):
            return True
        if isinstance(value, str) and value.strip().lower() in ("no", "false", "n", "0", "-"):
            return False
        raise self.error(key, f"expected yes or no, got `{shown(value)}`")

    def choice(self, key: str, choices: Sequence[str], default: str | None = None, *,
               fold: bool = True) -> str:
        value = self.text(key, default, required=default is None)
        for c in choices:
            if value == c or (fold and value.lower() == c.lower()):
                return c
        raise self.error(key, f"`{shown(value)}` is not one of {', '.join(choices)}{suggest(value, choices)}")

    def names(self, key: str) -> list[str]:
        """A list of names: a TOML array, or text separated by semicolons."""
        value = self._get(key, False)
        if value is None:
            return []
        if isinstance(value, str):
            items = [v.strip() for v in value.split(";")]
        elif isinstance(value, list):
            items = [str(v).strip() for v in value]
        else:
            raise self.error(key, f"expected a list of names, got `{shown(value)}`")
        return [i for i in items if i]

    def table(self, key: str) -> dict[str, Any]:
        value = self._get(key, False)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.error(key, "expected a [table]")
        return value

    def tables(self, key: str) -> list[dict[str, Any]]:
        value = self._get(key, False)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.error(key, f"expected [[{key}]] tables")
        if len(value) > MAX_ROWS:
            raise self.error(key, f"at most {MAX_ROWS} entries")
        return value

    def done(self, allowed_extra: Iterable[str] = ()) -> None:
        """Refuse fields nobody read: they are usually typos."""
        extra = set(allowed_extra)
        for key in self.raw:
            if key not in self.read and key not in extra:
                raise self.error(key, f"unknown field{suggest(key, sorted(self.read | extra))}")


def rows(source: Source, raw: Mapping[str, Any], key: str, *, what: str, start: int = 1,
         end: int | None = None, columns: Sequence[str] = ()) -> list[Fields]:
    """The records under `key`: a CSV block (``key = \"\"\"...\"\"\"``) or ``[[key]]`` tables."""
    value = raw.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        return csv_rows(source, value, key=key, what=what, start=start, end=end, columns=columns)
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        line = source.key(key, start, end)
        raise Where(source.name, line, what).error(f"`{key}` is a CSV block (\"\"\"...\"\"\") or [[{key}]] tables")
    if len(value) > MAX_ROWS:
        raise Where(source.name, None, what).error(f"at most {MAX_ROWS} `{key}` entries")
    lines = _array_lines(source, key, start, end)
    out = []
    for i, entry in enumerate(value):
        line = lines[i] if i < len(lines) else None
        label = entry.get("name") or entry.get("region") or entry.get("city") or f"#{i + 1}"
        out.append(Fields(entry, Where(source.name, line, f"[[{key}]] \"{label}\"")))
    return out


def _array_lines(source: Source, key: str, start: int, end: int | None) -> list[int]:
    for header in (key, *(f"{prefix}.{key}" for prefix in ("nation",))):
        found = source.headers(header, start, end)
        if found:
            return found
    return []


def csv_rows(source: Source, text: str, *, key: str, what: str, start: int = 1, end: int | None = None,
             columns: Sequence[str] = ()) -> list[Fields]:
    """Rows of a CSV block with a header line; blank lines and lines starting with # are skipped."""
    first = source.block_start(key, start, end)
    reader = csv.reader(io.StringIO(text), skipinitialspace=True)
    header: list[str] | None = None
    out: list[Fields] = []
    header_line: int | None = None
    for offset, row in enumerate(_rows(reader, source, what, key, first)):
        line = first + offset if first is not None else None
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        if header is None:
            header = [h.strip().lower() for h in row]
            header_line = line
            unknown = [h for h in header if columns and h not in columns]
            if unknown:
                raise Where(source.name, line, f"{what} `{key}` header").error(
                    f"unknown column `{unknown[0]}`{suggest(unknown[0], columns)} (columns: {', '.join(columns)})")
            continue
        if len(row) > len(header):
            raise Where(source.name, line, f"{what} `{key}` row").error(
                f"{len(row)} values for {len(header)} columns ({', '.join(header)})")
        record = {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header)}
        label = record.get(header[0], "") or f"row {len(out) + 1}"
        out.append(Fields(record, Where(source.name, line, f"{key} `{label}`"), csv_row=True))
        if len(out) > MAX_ROWS:
            raise Where(source.name, line, f"{what} `{key}`").error(f"at most {MAX_ROWS} rows")
    if header is None:
        raise Where(source.name, header_line or first, f"{what} `{key}`").error("the CSV block has no header line")
    return out


def _rows(reader: Any, source: Source, what: str, key: str, first: int | None) -> Iterable[list[str]]:
    """The CSV reader's rows; a malformed block (a field over csv's size limit…) is an upload error."""
    try:
        yield from reader
    except csv.Error as exc:
        raise Where(source.name, first, f"{what} `{key}`").error(f"not readable as CSV: {exc}") from None
