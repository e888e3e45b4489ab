"""Lords of the Earth (Modern Era) in Discord: a GM and four players run two full turns from the example script;
each nation's turn result and sheet reach that nation alone, the newsletter reaches the campaign thread, and a
rollback before publication re-processes the turn with the same dice."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bot.console.runner import Console
from bot.service import cards

EXAMPLES = Path(__file__).parents[2] / "examples" / "lote-modern"
SCRIPT = EXAMPLES / "two-turns.txt"
THREAD = "The Narrow Seas"
PLAYERS = {"England": "victoria", "France": "louis", "Spain": "isabella", "Hansa": "hanssen"}
GM = "gm"
# a sheet's heading: a card's title, or a section of a result card
SHEET_HEADS = {"England": "England — Open Nation", "France": "France — Open Nation",
               "Spain": "Spain — Open Nation", "Hansa": "Hansa — Merchant House"}
# Lines only that nation's sheet or result holds (its armies, its bookkeeping, a ruling only it may read).
SECRETS = {
    "England": ["Conduit Portsmouth-Gibraltar", "The Dutch are flattered", "Bank: 50 GP invested"],
    "France": ["Garde de Paris at Paris", "R&D Airships (Scout Airships) (P001): d100"],
    "Spain": ["Madrid Garrison at Madrid", "Loan L1 repaid to England: 140 GP."],
    "Hansa": ["Danzig Garrison at Danzig", "The merchants of Rouen will not deal with Rothmann"],
}


@dataclass(frozen=True)
class Delivery:
    """One message the bot sent, with where it went: a channel or thread by name, or a reply to one user."""

    where: str            # "#<channel>" or "@<user>"
    text: str             # the content and any attached text files


def _text(payload: dict[str, object], files: list[tuple[str, bytes]]) -> str:
    content = str(payload.get("content") or "")
    embeds = cards.as_text(payload.get("embeds") or [])  # type: ignore[arg-type]
    attached = [blob.decode("utf-8", "replace") for name, blob in files if name.endswith((".md", ".txt"))]
    return "\n".join([content, embeds, *attached])


async def run(con: Console) -> tuple[list[Delivery], dict[str, list[str]]]:
    """Run the script line by line: every message with its destination, and each command's printed output."""
    deliveries: list[Delivery] = []
    outputs: dict[str, list[str]] = {}
    for raw in SCRIPT.read_text().splitlines():
        mark = len(con.fake.sent)
        printed = await con.run_line(raw)
        if printed:
            outputs.setdefault(raw.strip(), []).append("\n".join(printed))
        for sent in con.fake.sent[mark:]:
            payload = sent.payload or {}
            if sent.kind == "channel_message":
                where = "#" + con.fake.channel_name(int(sent.params["channel_id"]))
                deliveries.append(Delivery(where, _text(payload, sent.files)))
            elif sent.kind == "interaction_response" and payload.get("type") in (4, 7):
                deliveries.append(Delivery(f"@{con.user}", _text(payload.get("data") or {}, sent.files)))
            elif sent.kind in ("followup", "edit_original"):
                deliveries.append(Delivery(f"@{con.user}", _text(payload, sent.files)))
    return deliveries, outputs


def private_thread(con: Console, seat: str) -> tuple[str, set[str]]:
    """The seat's private thread: its name and the people in it."""
    name = f"{THREAD} — {seat}"
    tid = next(cid for cid, data in con.fake.channels.items() if data["name"] == name)
    assert con.fake.channels[tid]["type"] == 12, f"{name} is not a private thread"
    people = {con.fake.users[uid] for uid in con.fake.thread_members[tid] if uid in con.fake.users}
    return "#" + name, people


async def test_two_turns_of_lords_of_the_earth_through_the_console(lite: Console) -> None:
    lite.base_dir = EXAMPLES
    deliveries, outputs = await run(lite)
    thread = [d.text for d in deliveries if d.where == f"#{THREAD}"]

    # The campaign published two turns: two newsletters in the thread, and turn 3's orders are open.
    for turn in (1, 2):
        letters = [t for t in thread if f"the news of turn {turn}**" in t]
        assert len(letters) == 1, f"turn {turn}'s newsletter was posted {len(letters)} times"
    letter_1 = next(t for t in thread if "the news of turn 1**" in t)
    assert "The Great Exhibition opens in London." in letter_1
    assert "The Hansa installs an agent in Antwerp." in letter_1            # a public ruling
    assert "The Dutch are flattered" not in letter_1                        # a private one
    assert any("Orders for turn 3, 1847" in t and "orders are open" in t for t in thread)

    # Each nation's result and sheet reached that nation, in its private thread and its own replies ...
    for seat, player in PLAYERS.items():
        where, people = private_thread(lite, seat)
        assert people == {player}, f"{where} holds {people}"
        mine = [d for d in deliveries if d.where == where]
        for turn in (1, 2):
            assert any(f"turn {turn} results for {seat}" in d.text for d in mine), (seat, turn)
        assert any(SHEET_HEADS[seat] in d.text for d in mine)
        assert any(SHEET_HEADS[seat] in d.text for d in deliveries if d.where == f"@{player}")   # /sheet
        # ... and nowhere else but the GM's own replies: not the campaign thread, not another nation.
        allowed = {where, f"@{player}", f"@{GM}"}
        for marker in [f"results for {seat}**", SHEET_HEADS[seat], *SECRETS[seat]]:
            seen = {d.where for d in deliveries if marker in d.text}
            assert seen, f"`{marker}` never reached {seat}"
            assert seen <= allowed, f"`{marker}` reached {sorted(seen - allowed)}"

    # The rollback before publication: the re-processing rolled the very same dice (GM-only ones too),
    # on the sheet the GM corrected in between.
    history = outputs["@gm /history turn:1"][0]
    undone = re.search(r"~~`#\d+` resolution — GM~~ \(undone by a rollback\)\n(.*?)\n\s+`#", history, re.S)
    redone = re.search(r"`#\d+` resolution — GM\n(.*?)(?:\n\s+`#|\Z)", history[undone.end():] if undone else "", re.S)
    assert undone and redone, history
    rolls_before = re.findall(r"🎲 .*", undone[1])
    rolls_after = re.findall(r"🎲 .*", redone[1])
    assert len(rolls_before) == 4 and rolls_before == rolls_after
    research = [d.text for d in deliveries
                if d.where == f"#{THREAD} — England" and "🎲 England research P001" in d.text]
    assert len(research) == 3 and research[0] == research[1]                # turn 1 twice, then turn 2
    assert any("rolled **The Narrow Seas** back" in t and "Spain's silver fleet" in t for t in thread)
    spain = next(d.text for d in deliveries if d.where == f"#{THREAD} — Spain" and "turn 1 results" in d.text)
    assert "Treasury now 184.8 GP" in spain                                 # 180 GP + the GM's 40, then the turn
