"""Read a chart as the supplement prints it (markdown table rows), so tests compare data to the document."""

from __future__ import annotations


def rows(text: str) -> list[list[str]]:
    """The body cells of a printed table: header and rule lines are dropped, cells stripped."""
    out = []
    lines = [line.strip() for line in text.strip().splitlines() if line.strip().startswith("|")]
    for line in lines[2:]:
        out.append([cell.strip() for cell in line.strip("|").split("|")])
    return out


def number(cell: str) -> float | None:
    """A printed number; ``-``, ``--``, ``N/A`` and ``NA`` are None."""
    cell = cell.strip()
    if cell in ("-", "--", "N/A", "NA", ""):
        return None
    return float(cell)
