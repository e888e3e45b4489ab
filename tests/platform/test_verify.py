"""Provably fair dice: the public export re-derives every roll; a changed roll or a wrong seed is caught."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from click.testing import CliRunner

from bot.__main__ import main
from bot.console.runner import Console
from bot.service.export import verify

SCRIPT = """
@gm #t /campaign create name:Dice ruleset:freeform
@pia /campaign join seat:Pia
@gm /campaign start
@pia /roll notation:3d6x6
@pia /roll notation:4d6h3 private:yes
@gm /gm table upload file:@weather.toml
@gm /gm table roll name:weather modifier:1
@gm /gm table roll name:weather private:yes
@gm /campaign end
@gm press "End the campaign"
@pia /campaign export
"""

WEATHER = '[weather]\ndice = "2d6"\ntitle = "Weather"\n"2-4" = "Storm"\n"5-9" = "Clear"\n"10+" = "Fog"\n'


async def public_export(con: Console, tmp_path: Path) -> dict[str, object]:
    (tmp_path / "weather.toml").write_text(WEATHER)
    await con.run_script(SCRIPT)
    sent = [s for s in con.fake.sent if s.files and s.files[0][0] == "dice-public.json"]
    return json.loads(sent[-1].files[0][1])  # type: ignore[no-any-return]


async def test_the_public_export_verifies_and_hides_private_rolls(lite: Console, tmp_path: Path) -> None:
    data = await public_export(lite, tmp_path)
    ok, lines = verify(data)
    assert ok, lines
    assert lines[0] == "✔ the seed matches the commitment posted at the start"
    assert lines[-1] == "2 rolls checked: all match."  # the two private rolls are not in the public record
    assert "4d6h3" not in json.dumps(data)


async def test_a_changed_face_and_a_wrong_seed_are_caught(lite: Console, tmp_path: Path) -> None:
    data = await public_export(lite, tmp_path)
    tampered = copy.deepcopy(data)
    for entry in tampered["log"]:  # type: ignore[union-attr]
        for roll in entry["body"].get("rolls", []):
            roll["faces"][0] = roll["faces"][0] % 6 + 1
            roll["total"] += 1
            break
    ok, lines = verify(tampered)
    assert not ok and any(line.startswith("✘ #") for line in lines)
    wrong = copy.deepcopy(data)
    wrong["campaign"]["seed"] = "00" * 32  # type: ignore[index]
    ok, lines = verify(wrong)
    assert not ok and lines[0].startswith("✘ the seed does NOT match")


async def test_herald_verify_on_the_command_line(lite: Console, tmp_path: Path) -> None:
    data = await public_export(lite, tmp_path)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "all match" in result.output
    data["campaign"]["seed"] = "11" * 32  # type: ignore[index]
    path.write_text(json.dumps(data))
    assert CliRunner().invoke(main, ["verify", str(path)]).exit_code == 1
