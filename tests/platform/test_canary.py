"""Canaries: a unique secret in every private place of every ruleset; every other viewer's output and the logs searched.

Each canary is a string that may reach only its seat's holder and the GM (or the GM alone). Every
request Herald makes to the fake Discord is read with who could see it: a public channel or thread is
everyone, a private thread is its members at that moment, an ephemeral reply is the one who asked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.console.fake import Sent
from bot.console.runner import Console
from bot.store.models import Campaign
from tests.platform.conftest import Capture

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EVERYONE = None  # who can read a public channel or thread


@dataclass(frozen=True)
class Canary:
    text: str
    readers: frozenset[str]  # besides the GM
    where: str  # the private place it was put, for the failure message


@dataclass
class Seen:
    readers: frozenset[str] | None
    text: str
    where: str


class Watch:
    """Runs script lines on the console and keeps every delivery with the people who could read it."""

    def __init__(self, con: Console) -> None:
        self.con = con
        self.seen: list[Seen] = []

    async def run(self, script: str) -> None:
        for raw in script.strip().splitlines():
            mark = len(self.con.fake.sent)
            await self.con.run_line(raw)
            ephemeral = False
            for sent in self.con.fake.sent[mark:]:
                ephemeral = self._keep(sent, raw, ephemeral)

    def _members(self, channel_id: int) -> frozenset[str] | None:
        fake = self.con.fake
        if fake.channels.get(channel_id, {}).get("type") != 12:
            return EVERYONE
        return frozenset(fake.users[u] for u in fake.thread_members.get(channel_id, set()) if u in fake.users)

    def _keep(self, sent: Sent, line: str, ephemeral: bool) -> bool:
        payload = sent.payload if isinstance(sent.payload, dict) else {}
        text = json.dumps(sent.payload, ensure_ascii=False) + "".join(
            data.decode("utf-8", "ignore") for _, data in sent.files)
        asker = self.con.user or ""
        here = self._members(self.con.fake.channel(self.con.channel))
        if sent.kind == "channel_message":
            readers = self._members(int(sent.params["channel_id"]))
        elif sent.kind == "interaction_response":
            data = payload.get("data") or {}
            if payload.get("type") in (4, 5):
                ephemeral = bool(int(data.get("flags") or 0) & 64)
            readers = frozenset({asker}) if ephemeral else here
        elif sent.kind in ("followup", "edit_original", "edit_followup"):
            private = ephemeral if sent.kind != "followup" else bool(int(payload.get("flags") or 0) & 64)
            readers = frozenset({asker}) if private else here
        else:
            return ephemeral  # thread creation, members, command sync: no text anyone reads
        self.seen.append(Seen(readers, text, f"{sent.kind} after `{line.strip()}`"))
        return ephemeral


SETUPS = {
    "freeform": ("""
@alice /campaign join seat:North
@bob /campaign join seat:South
@gm /campaign start
""", {"North": "alice", "South": "bob"}),
    "terra-prime": ("""
@alice /campaign join seat:Red
@bob /campaign join seat:Blue
@gm /campaign start
""", {"Red": "alice", "Blue": "bob"}),
    "terra-nova": ("""
@alice /campaign join seat:Spain
@bob /campaign join seat:Portugal
@carl /campaign join seat:England
@gm /campaign start
@gm /gm act action:"rule q1 none"
""", {"Spain": "alice", "Portugal": "bob", "England": "carl"}),
    "lote-modern": (f"""
@gm /gm upload kind:map file:@{EXAMPLES}/lote-modern/map.toml
@gm /gm upload kind:sheets file:@{EXAMPLES}/lote-modern/sheets.toml
@alice /campaign join seat:England
@bob /campaign join seat:France
@carl /campaign join seat:Spain
@dora /campaign join seat:Hansa
@gm /campaign start
""", {"England": "alice", "France": "bob", "Spain": "carl", "Hansa": "dora"}),
}


def _secret(ruleset: str, place: str) -> str:
    return f"canary{ruleset.replace('-', '')}{place}zq"


def _private_places(ruleset: str, seats: dict[str, str], table: Path) -> tuple[str, list[Canary]]:
    """Script lines that put a canary in each private place the ruleset has, and the canaries."""
    (first, holder), (_, other) = list(seats.items())[:2]
    canaries = []
    lines = []

    def put(place: str, readers: set[str], line: str) -> None:
        secret = _secret(ruleset, place)
        canaries.append(Canary(secret, frozenset(readers), place))
        lines.append(line.format(secret=secret))

    table.write_text(f'[omens]\ndice = "1d6"\n"1-6" = "{_secret(ruleset, "table")}"\n', encoding="utf-8")
    put("table", set(), f"@gm /gm table upload file:@{table}")
    lines.append("@gm /gm table roll name:omens private:true")
    put("note", {holder}, f'@gm /gm note seat:{first} text:"{{secret}}"')
    if ruleset != "terra-prime":  # Terra Prime plays turns; it has no order window to check against
        put("check", {holder}, f'@{holder} /orders check text:"note {{secret}}"')
    if ruleset == "freeform":
        put("orders", {holder}, f'@{holder} /orders submit text:"{{secret}}"')
        put("result", {holder}, f'@gm /gm act action:"result {first}: {{secret}}"')
        put("sheet", {holder}, f'@gm /gm act action:"sheet {first}: {{secret}}"')
    elif ruleset in ("terra-nova", "lote-modern"):
        put("orders", {holder}, f'@{holder} /orders submit text:"note {{secret}}"')
    lines += [  # then everyone looks wherever they may
        f"@{holder} /orders list", f"@{other} /orders list", f"@{other} /orders list seat:{first}",
        f"@{holder} /sheet", f"@{other} /sheet", f"@{other} /sheet seat:{first}", "@eve /sheet seat:" + first,
        "@eve /campaign status", f"@{other} /campaign status", "@eve /map", f"@{other} /map",
        "@gm /gm advance", '@gm press "Advance anyway"', "@eve /history", f"@{other} /history", f"@{holder} /history",
        "clock +2d", f"@{other} /campaign status", "@eve /catchup", f"@{other} /catchup", f"@{holder} /catchup",
        "@eve /campaign export", f"@{other} /campaign export", "@gm /campaign export",
    ]
    return "\n".join(lines), canaries


async def _scan(watch: Watch, seats: dict[str, str]) -> Canary:
    """Terra Prime: whoever's turn it is scans a face-down tile; what the scanner shows is theirs alone."""
    for user in seats.values():
        mark = len(watch.seen)
        await watch.run(f"@{user} /act")
        found = re.search(r'"label": "(Scan face-down [^"]+)"', "".join(s.text for s in watch.seen[mark:]))
        if found:
            mark = len(watch.seen)
            await watch.run(f'@{user} select "{found[1]}"')
            shown = "".join(s.text for s in watch.seen[mark:])
            peek = re.search(r"Scanner: tile \d+ \(\w+\) shows [^.\n\\\"]+", shown)
            assert peek, "the scan showed its seat nothing"
            return Canary(peek[0], frozenset({user}), "a satellite scan")
    raise AssertionError("nobody could scan")


@pytest.mark.parametrize("ruleset", list(SETUPS))
async def test_every_secret_reaches_only_its_seat_and_the_gm(lite: Console, debug_log: Capture, tmp_path: Path,
                                                             ruleset: str) -> None:
    setup, seats = SETUPS[ruleset]
    watch = Watch(lite)
    uploaded: list[Canary] = []
    if ruleset == "lote-modern":  # a private sheet from the GM's upload: England's army, named by a canary
        secret = _secret(ruleset, "sheetfile")
        sheets = (EXAMPLES / "lote-modern" / "sheets.toml").read_text(encoding="utf-8")
        assert "\nHome Army,Sussex," in sheets
        (tmp_path / "sheets.toml").write_text(sheets.replace("\nHome Army,Sussex,", f"\n{secret},Sussex,"),
                                              encoding="utf-8")
        setup = setup.replace(f"{EXAMPLES}/lote-modern/sheets.toml", str(tmp_path / "sheets.toml"))
        uploaded.append(Canary(secret, frozenset({seats["England"]}), "England's uploaded sheet"))
    options = ' options:"reveal_orders=no"' if ruleset == "freeform" else ""  # else shown when the turn resolves
    await watch.run(f"gm @gm\n@gm #table /campaign create name:Canary ruleset:{ruleset}{options}\n{setup}")
    if ruleset == "terra-prime":
        uploaded.append(await _scan(watch, seats))
    script, canaries = _private_places(ruleset, seats, tmp_path / "omens.toml")
    canaries += uploaded
    await watch.run(script)
    async with lite.services.db.read() as session:
        seed = await session.scalar(select(Campaign.seed).where(Campaign.name == "Canary"))
    assert seed and len(seed) == 64
    canaries.append(Canary(seed, frozenset(), "the dice seed, secret until the end"))
    before_end = len(watch.seen)
    await watch.run('@gm /campaign end\n@gm press "End the campaign"\n'  # the public record
                    "@eve /campaign export\n@bob /history turn:1")
    assert any(s.readers is None and seed in s.text for s in watch.seen[before_end:]), "the end reveals the seed"
    assert any("The public record of **Canary**" in s.text and '"commitment"' in s.text
               for s in watch.seen[before_end:]), "a spectator got the public export, with its file"

    for canary in canaries:
        allowed = canary.readers | {"gm"}
        seen = watch.seen[:before_end] if canary.where.startswith("the dice seed") else watch.seen
        where = [s for s in seen if canary.text in s.text]
        leaks = [s.where + f" (read by {'everyone' if s.readers is None else sorted(s.readers)})"
                 for s in where if s.readers is None or not s.readers <= allowed]
        assert not leaks, f"{canary.where}: {canary.text} leaked in {leaks}"
        assert canary.text not in debug_log.text, f"{canary.where}: {canary.text} is in the log"
        if canary.where.startswith("the dice seed"):
            assert not where, f"the seed was shown before the end: {[s.where for s in where]}"
        else:  # it did reach the one it was for, so the search above could have found a leak
            intended = canary.readers or {"gm"}
            assert any(s.readers is not None and intended <= s.readers for s in where), (
                f"{canary.where}: {canary.text} never reached {sorted(intended)}")
