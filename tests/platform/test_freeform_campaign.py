"""A whole freeform campaign, scripted in the console, as a GM and three players would run it."""

from __future__ import annotations

import json

from bot.console.runner import Console
from bot.service.export import verify

SCRIPT = """
gm @gaius
@gaius #forum /campaign create name:"Punic Wars" ruleset:freeform
@hanno /campaign join seat:Carthage
@livia /campaign join seat:Rome
@ptolemy /campaign join seat:Egypt
@gaius /campaign start
expect "Dice commitment"
@gaius /gm settings key:auto_advance value:both
@gaius /gm deadline set when:2d
expect "Deadline"
@hanno /orders submit text:"raise a levy in Iberia | send Hannibal over the Alps"
expect "2 accepted"
@livia /orders submit text:"hold Sicily"
@gaius /gm note text:"Snow falls early in the Alps."
@gaius /gm note text:"A messenger brings you grain prices." seat:Egypt
@gaius /gm act action:"result all: Hannibal crosses the Alps with 30 elephants."
@gaius /gm act action:"result Rome: Your scouts lose sight of the Carthaginian army."
clock +25h
expect "@ptolemy: orders for **Turn 1 — orders** are due in 23h"
expect-not "@hanno"
@ptolemy /orders submit text:"trade grain with both"
expect "Every seat has sent orders"
expect "Hannibal crosses the Alps"
expect "**Turn 2 — orders**: orders are open"
@gaius /gm rollback reason:"Egypt's grain fleet was mis-ordered"
expect "rolled **Punic Wars** back"
@gaius /campaign status
expect "✅ submitted — **Carthage**"
@gaius /gm advance
expect "Turn 1 — orders** resolved"
@hanno /roll notation:2d6+1
expect "roll #1"
@gaius /campaign end
expect "End **Punic Wars** for good?"
@gaius press "End the campaign"
expect "The seed was"
"""


async def test_a_freeform_campaign_from_create_to_verify(console: Console) -> None:
    await console.run_script(SCRIPT)
    transcript = "\n".join(console.transcript)  # type: ignore[attr-defined]
    # the private result went to Rome's private thread only, never to the campaign thread
    assert "#Punic Wars — Rome: Your scouts lose sight" in transcript
    assert "#Punic Wars: Your scouts" not in transcript
    assert "#Punic Wars — Egypt: 📜 **The GM:** A messenger brings you grain prices." in transcript
    # the turn resolved once before the rollback and once after it
    assert transcript.count("Hannibal crosses the Alps with 30 elephants.") >= 2
    # after the end, anyone can export the public record and verify every roll
    await console.run_line('@livia /campaign export campaign:"Punic Wars"')
    exported = [s for s in console.fake.sent if s.files and s.files[0][0].endswith("-public.json")]
    data = json.loads(exported[-1].files[0][1])
    ok, lines = verify(data)
    assert ok, lines
    assert lines[-1].startswith("1 rolls checked: all match")
    public = json.dumps(data)
    for secret in ("Your scouts lose sight", "A messenger brings you grain prices"):
        assert secret not in public


async def test_the_example_script_runs(lite: Console, tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(__file__).parents[2] / "examples" / "freeform"
    lite.base_dir = folder
    lite.out_dir = Path(str(tmp_path)) / "out"
    await lite.run_script((folder / "campaign.txt").read_text())
    maps = sorted(lite.out_dir.glob("*.png"))
    assert len(maps) >= 3 and all(m.read_bytes()[:4] == b"\x89PNG" for m in maps)
