"""Cards: what Herald shows as a Discord embed (a title, a colour, fields, a footer, the map), built from the
markdown the rulesets already write, and fitted to Discord's embed limits by splitting, never by cutting.

A card is kept as the JSON Discord takes (`Embed.to_dict()` reads it back), so an outbox row can hold it."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service.text import split_message

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
TOTAL = 6000  # every embed of one message together
PER_MESSAGE = 10
BLANK = "\u200b"  # Discord refuses an empty field name or value

# colours a person can tell apart on Discord's dark and light themes
PALETTE = (0x3B82F6, 0xEF4444, 0x10B981, 0xF59E0B, 0x8B5CF6, 0xEC4899, 0x14B8A6, 0xF97316, 0x6366F1, 0x84CC16)
HERALD = 0x5865F2  # what is nobody's in particular: status, the GM's news
GM = 0x99AAB5


def colour_of(name: str) -> int:
    """A colour of its own for a seat or a phase: the same name always gets the same colour."""
    return PALETTE[int(hashlib.sha256(name.encode()).hexdigest(), 16) % len(PALETTE)]


@dataclass
class Card:
    """One embed before it is fitted: a long description or many fields are split when it is fitted."""

    title: str = ""
    description: str = ""
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    colour: int | None = None
    footer: str = ""
    image: str | None = None  # the name of a file attached to the same message (the map)
    timestamp: str | None = None  # ISO 8601: Discord shows it in each reader's own time

    def add(self, name: str, value: str, *, inline: bool = False) -> Card:
        if value.strip():
            self.fields.append((name, value, inline))
        return self

    def dump(self) -> dict[str, Any]:
        """The embed as Discord's JSON."""
        out: dict[str, Any] = {"type": "rich"}
        if self.title:
            out["title"] = self.title
        if self.description:
            out["description"] = self.description
        if self.colour is not None:
            out["color"] = self.colour
        if self.fields:
            out["fields"] = [{"name": n or BLANK, "value": v or BLANK, "inline": i} for n, v, i in self.fields]
        if self.footer:
            out["footer"] = {"text": self.footer}
        if self.image:
            out["image"] = {"url": f"attachment://{self.image}"}
        if self.timestamp:
            out["timestamp"] = self.timestamp
        return out


BOLD_LEAD = re.compile(r"^\*\*(?P<name>[^*\n]{1,80})\*\*(?::)?(?:\s+(?P<rest>.*))?$")
SEGMENT = re.compile(r"\s+·\s+(?=\*\*)")
HEADING = re.compile(r"^#{1,3}\s+(?P<title>.+)$")


def from_markdown(text: str, *, title: str = "", colour: int | None = None, footer: str = "") -> Card:
    """A card from a ruleset's markdown: a heading or a leading bold line becomes the title, each
    `**Label** value` (or a `**Label**` line over a list) becomes a field, the rest is the description.
    Nothing is dropped: whatever is not a field stays in the description, in order."""
    lines = text.replace("\r\n", "\n").split("\n")
    card = Card(title=title, colour=colour, footer=footer)
    if not card.title and lines:
        head = lines[0].strip()
        heading = HEADING.match(head)
        bold = BOLD_LEAD.match(head)
        if heading:
            card.title, lines = _plain(heading["title"]), lines[1:]
        elif bold and not bold["rest"]:
            card.title, lines = _plain(bold["name"]), lines[1:]
    description: list[str] = []
    fields: list[tuple[str, list[str]]] = []
    in_code = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            in_code = not in_code
        if in_code or stripped.startswith("```"):
            _append(description, fields, line)
            continue
        heading = HEADING.match(stripped)
        if heading and not card.title and not description and not fields:
            card.title = _plain(heading["title"])
            continue
        if heading and len(_plain(heading["title"])) <= FIELD_NAME:
            # a heading further down (another nation's part of the GM's sheet) opens a section of its own
            fields.append((_plain(heading["title"]), []))
            continue
        segments = SEGMENT.split(stripped) if stripped.startswith("**") else [stripped]
        leads = [BOLD_LEAD.match(s) for s in segments]
        if stripped and all(leads) and not any((lead["rest"] or "").startswith("— ") for lead in leads if lead):
            for lead in leads:
                assert lead is not None
                rest = (lead["rest"] or "").removeprefix(": ").strip()
                fields.append((lead["name"], [rest] if rest else []))
            continue
        if fields and (stripped.startswith(("- ", "• ")) or line.startswith(("  ", "\t"))
                       or (stripped and fields[-1][1] == [])):
            fields[-1][1].append(line.rstrip())
            continue
        if not stripped and fields:
            continue
        if fields:  # prose after the fields: keep it in order, as a field of its own
            fields.append((BLANK, [line.rstrip()]))
            continue
        description.append(line.rstrip())
    card.description = "\n".join(description).strip("\n")
    for name, body in fields:
        value = "\n".join(body).strip("\n")
        if not value:
            # a bold line alone with nothing under it is a heading inside the text: keep it as text
            value, name = f"**{name}**", BLANK
        card.fields.append((name, value, name != BLANK and len(value) <= 40 and "\n" not in value))
    return card


def _append(description: list[str], fields: list[tuple[str, list[str]]], line: str) -> None:
    if fields:
        fields[-1][1].append(line.rstrip())
    else:
        description.append(line.rstrip())


def _plain(text: str) -> str:
    return text.replace("**", "").strip()


def size(embed: dict[str, Any]) -> int:
    """The characters Discord counts toward an embed's total."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _pieces(text: str, limit: int) -> list[str]:
    return split_message(text, limit) or [BLANK]


def normalise(embed: dict[str, Any]) -> list[dict[str, Any]]:
    """One embed as one or more, each within Discord's per-embed limits: a long description or field value is
    split (at line breaks, code fences re-opened) into continuation embeds or fields. The title, colour and
    image stay on the first; the footer and timestamp go on the last."""
    first = {k: v for k, v in embed.items() if k not in ("description", "fields", "footer", "timestamp")}
    if "title" in first:
        first["title"] = _clip(str(first["title"]), TITLE)
    colour = embed.get("color")
    out = [first]
    description = str(embed.get("description") or "")
    for i, piece in enumerate(_pieces(description, DESCRIPTION) if description.strip() else []):
        if i:
            out.append({"type": "rich", **({"color": colour} if colour is not None else {})})
        out[-1]["description"] = piece
    for f in embed.get("fields") or []:
        name = _clip(str(f.get("name") or BLANK), FIELD_NAME)
        for j, value in enumerate(_pieces(str(f.get("value") or BLANK), FIELD_VALUE)):
            if len(out[-1].get("fields") or []) >= FIELDS or size(out[-1]) + len(name) + len(value) > TOTAL - 200:
                out.append({"type": "rich", **({"color": colour} if colour is not None else {})})
            out[-1].setdefault("fields", []).append(
                {"name": name if j == 0 else f"{name} (cont.)"[:FIELD_NAME] if name != BLANK else BLANK,
                 "value": value, "inline": bool(f.get("inline"))})
    if embed.get("footer"):
        footer = _clip(str(embed["footer"].get("text") or ""), FOOTER)
        if size(out[-1]) + len(footer) > TOTAL:
            out.append({"type": "rich", **({"color": colour} if colour is not None else {})})
        out[-1]["footer"] = {"text": footer}
    if embed.get("timestamp"):
        out[-1]["timestamp"] = embed["timestamp"]
    return [e for e in out if size(e) or e.get("image")] or [first]


def fit(embeds: Iterable[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Embeds grouped into messages: each group at most 10 embeds and 6000 characters, each embed within its
    own limits. Nothing is cut but an over-long title; the order is kept."""
    groups: list[list[dict[str, Any]]] = []
    total = 0
    for embed in embeds:
        for piece in normalise(embed):
            n = size(piece)
            if not groups or len(groups[-1]) >= PER_MESSAGE or total + n > TOTAL:
                groups.append([])
                total = 0
            groups[-1].append(piece)
            total += n
    return groups


def as_text(embeds: Sequence[dict[str, Any]]) -> str:
    """The cards as plain markdown: the whole of what they say, for an attachment when they run long."""
    out: list[str] = []
    for e in embeds:
        if e.get("title"):
            out.append(f"## {e['title']}")
        if e.get("description"):
            out.append(str(e["description"]))
        for f in e.get("fields") or []:
            name, value = f.get("name") or "", f.get("value") or ""
            if name in ("", BLANK):
                out.append(value)
            else:  # as the markdown it came from: `**Treasury** 370 GP`, or a `**Armies**` line over a list
                out.append(f"**{name}** {value}" if f.get("inline") else f"**{name}**\n{value}")
        if (e.get("footer") or {}).get("text"):
            out.append(f"-# {e['footer']['text']}")
    return "\n".join(out)


def signature(embeds: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """What recognises a message's embeds when reconciling: each one's title and start of description."""
    return tuple(f"{e.get('title') or ''}|{(e.get('description') or '')[:100]}|{len(e.get('fields') or [])}"
                 for e in embeds)


# -- answers shown as cards: the service says what an answer is, this turns its text into a card ----------------

TITLE_LINE = re.compile(r"^\*\*(?P<campaign>[^*\n]+)\*\*\s+—\s+(?P<rest>.+)$")
LABELLED = re.compile(r"^(?P<name>[A-Z][\w ]{0,30}):\s+(?P<value>.+)$")
ROLL = re.compile(r"^(?P<who>🎲 \*\*[^*\n]+\*\* rolls)\s+(?P<result>.+)$")


def present(kind: str, text: str) -> tuple[str, list[dict[str, Any]]]:
    """An answer's text as (message text, cards) for its kind: `sheet`, `status`, `roll`, `news` (what a GM
    action did: its events, its dice in a field) or `catchup`; any other kind, or a text that does not have the expected
    shape, stays plain text."""
    lines = text.replace("\r\n", "\n").split("\n")
    if kind == "catchup":  # "since you last looked": a heading and lists under bold labels (bot/service/catchup.py)
        return "", [from_markdown(text, colour=HERALD).dump()]
    if kind == "news":
        dice = [line for line in lines if line.startswith("🎲 ")]
        card = Card(description="\n".join(line for line in lines if not line.startswith("🎲 ")), colour=GM)
        card.add("🎲 Dice", "\n".join(dice))
        return "", [card.dump()]
    head = TITLE_LINE.match(lines[0]) if lines else None
    if kind == "sheet" and head:
        who = head["rest"].strip()
        card = from_markdown("\n".join(lines[1:]), colour=colour_of(who) if who not in ("gm", "spectator") else GM)
        footer = f"{head['campaign']} · {who}"
        if not card.title:
            card.title, footer = f"{head['campaign']} — {'GM' if who == 'gm' else who}", ""
        card.footer = footer
        return "", [card.dump()]
    if kind == "status" and head:
        card = Card(title=_plain(lines[0]), colour=HERALD)
        rest: list[str] = []
        orders: list[str] = []
        for line in lines[1:]:
            labelled = LABELLED.match(line)
            if labelled and len(card.fields) < 5:
                card.add(labelled["name"], labelled["value"], inline=len(labelled["value"]) <= 60)
            elif line.startswith(("✅", "⏳")):
                orders.append(line)
            else:
                rest.append(line)
        card.add("Orders", "\n".join(orders))
        card.description = "\n".join(rest).strip()
        return "", [card.dump()]
    if kind == "roll" and lines and (roll := ROLL.match(lines[0])):
        notes = [line.removeprefix("-# ") for line in lines[1:] if line.strip()]
        card = Card(title=_plain(roll["who"]), description="\n".join([roll["result"], *[
            line for line in lines[1:] if line.strip() and not line.startswith("-# ")]]),
                    colour=colour_of(_plain(roll["who"])), footer=" · ".join(
                        n for n, line in zip(notes, [x for x in lines[1:] if x.strip()], strict=True)
                        if line.startswith("-# ")))
        return "", [card.dump()]
    return text, []
