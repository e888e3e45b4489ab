"""Fitting text into Discord's limits by splitting, never by silently cutting."""

from __future__ import annotations

MESSAGE_LIMIT = 2000


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Chunks of at most `limit` characters, split at line breaks, then spaces; code fences re-opened. Line
    breaks become `\n`, and a chunk of only blank lines is dropped (Discord refuses an empty message)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) <= limit:
        return [text] if text.strip() else []
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    fence_open = False
    budget = limit - 8  # room to close and re-open a code fence

    def flush() -> None:
        nonlocal current, size
        if current:
            body = "\n".join(current)
            if fence_open:
                body += "\n```"
            if body.strip("`\n "):
                chunks.append(body)
            current, size = (["```"], 3) if fence_open else ([], 0)

    for line in text.split("\n"):
        pieces = _cut(line, budget)
        for piece in pieces:
            extra = len(piece) + (1 if current else 0)
            if size + extra > budget:
                flush()
                extra = len(piece) + (1 if current else 0)
            current.append(piece)
            size += extra
        if line.strip().startswith("```"):
            fence_open = not fence_open
    if current and "\n".join(current).strip("`\n "):
        chunks.append("\n".join(current))
    return chunks


def _cut(line: str, limit: int) -> list[str]:
    out = []
    while len(line) > limit:
        at = line.rfind(" ", 0, limit)
        if at <= limit // 2:
            at = limit
        out.append(line[:at])
        line = line[at:].lstrip(" ")
    out.append(line)
    return out
