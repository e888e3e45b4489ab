"""/map for Lords of the Earth once the GM uploads the map file, and /chart for each viewer, through the console."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from PIL import Image

from bot.console.runner import Console
from bot.service import cache

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

LOTE = f"""
gm @gm
@gm #forum /campaign create name:Narrow ruleset:lote-modern
@gm /gm upload kind:map file:@{EXAMPLES}/lote-modern/map.toml
@gm /gm upload kind:sheets file:@{EXAMPLES}/lote-modern/sheets.toml
@alice /campaign join seat:England
@bob /campaign join seat:France
@carl /campaign join seat:Spain
@dora /campaign join seat:Hansa
@gm /campaign start
"""


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


def saved_png(out: str) -> Image.Image:
    return Image.open(io.BytesIO(Path(out.split("[file: ")[-1].split("]")[0]).read_bytes()))


def sent(out_dir: Path, name: str) -> Image.Image:
    """The picture the console saved for an attachment called `name` (saved as NNN-name)."""
    return Image.open(next(out_dir.glob(f"*-{name}")))


async def test_lords_of_the_earth_has_a_map_once_uploaded_and_charts_each_nations_treasury(lite: Console,
                                                                                           tmp_path: Path) -> None:
    await lite.run_script(LOTE)
    lite.out_dir = tmp_path
    out = await said(lite, "@alice /map")
    assert "narrow-map.png" in out and "has no map" not in out
    assert saved_png(out).width == 1100
    out = await said(lite, "@alice /chart")
    assert "narrow-treasury.png" in out
    assert "narrow-income.png" in await said(lite, "@alice /chart what:income")
    assert "no chart you may see" in await said(lite, "@eve /chart")      # a spectator sees no treasury
    assert "no `score` chart here" in await said(lite, "@alice /chart what:score")
    assert "narrow-treasury.png" in await said(lite, "@gm /chart")


async def test_a_freeform_chart_of_regions_held(console: Console, tmp_path: Path) -> None:
    lite = console   # both databases: the chart reads each turn's snapshot with a grouped query
    await lite.run_script("""
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
""")
    assert "no chart you may see" in await said(lite, "@ambiorix /chart")   # no regions yet
    (tmp_path / "regions.toml").write_text('[[region]]\nname = "Alesia"\nowner = "Arverni"\n')
    await lite.run_line("@gaius /gm upload kind:regions file:@regions.toml")
    assert "advance **Turn 1 — orders** anyway?" in await said(lite, "@gaius /gm advance")
    out = await said(lite, '@gaius press "Advance anyway"')
    assert "gaul-chart-turn2.png" in out     # the thread gets the chart with the new turn, on the phase post
    out = await said(lite, "@ambiorix /chart")
    assert "gaul-score.png" in out


async def test_a_seats_map_shows_its_own_pending_orders_and_no_one_elses(lite: Console, tmp_path: Path) -> None:
    await lite.run_script("""
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
""")
    (tmp_path / "regions.toml").write_text('[[region]]\nname = "Alesia"\nowner = "Arverni"\nlinks = ["Gergovia"]\n'
                                           '[[region]]\nname = "Gergovia"\nx = 80\ny = 80\n')
    await lite.run_line("@gaius /gm upload kind:regions file:@regions.toml")
    lite.out_dir = tmp_path
    before = saved_png(await said(lite, "@vercingetorix /map"))
    await lite.run_line('@vercingetorix /orders submit text:"march from Alesia to Gergovia"')
    drawn = saved_png(await said(lite, "@vercingetorix /map"))
    assert drawn.tobytes() != before.tobytes()
    assert saved_png(await said(lite, "@ambiorix /map")).tobytes() == before.tobytes()   # not on another seat's
    assert saved_png(await said(lite, "@gaius /map")).tobytes() == before.tobytes()      # nor the GM's


async def test_every_map_and_chart_is_drawn_off_the_event_loop(lite: Console, tmp_path: Path, monkeypatch) -> None:
    """/map (kept or with the seat's orders), /chart, and the map and chart a phase post carries through the
    outbox: each picture is written in a worker thread, never on the loop that serves everyone."""
    from engine.render.palette import Palette

    written: list[bool] = []
    real = Palette.png

    def noting(self: Palette, image: Image.Image) -> bytes:
        try:
            asyncio.get_running_loop()
            written.append(True)
        except RuntimeError:
            written.append(False)
        return real(self, image)

    monkeypatch.setattr(Palette, "png", noting)
    cache.MAPS.clear()  # a map an earlier test kept (the same campaign id, turn and data) is not drawn again
    await lite.run_script("""
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
""")
    (tmp_path / "regions.toml").write_text('[[region]]\nname = "Alesia"\nowner = "Arverni"\nlinks = ["Gergovia"]\n'
                                           '[[region]]\nname = "Gergovia"\nx = 80\ny = 80\n')
    await lite.run_line("@gaius /gm upload kind:regions file:@regions.toml")
    lite.out_dir = tmp_path
    assert "gaul-map.png" in await said(lite, "@ambiorix /map")
    await lite.run_line('@vercingetorix /orders submit text:"march from Alesia to Gergovia"')
    assert "gaul-map.png" in await said(lite, "@vercingetorix /map")
    await said(lite, "@gaius /gm advance")
    out = await said(lite, '@gaius press "Advance anyway"')
    assert "gaul-chart-turn2.png" in out     # the phase post's map and chart, drawn by the outbox's delivery
    assert "gaul-score.png" in await said(lite, "@ambiorix /chart")
    assert len(written) >= 5 and not any(written)


async def test_a_nations_lote_map_shows_its_pending_orders(lite: Console, tmp_path: Path) -> None:
    await lite.run_script(LOTE)
    lite.out_dir = tmp_path
    before = saved_png(await said(lite, "@alice /map"))
    gm = saved_png(await said(lite, "@gm /map"))
    out = await said(lite, '@alice /orders submit text:"build 4 i at London\nconduit Portsmouth to Gibraltar"')
    assert "London" in out
    assert saved_png(await said(lite, "@alice /map")).tobytes() != before.tobytes()
    assert saved_png(await said(lite, "@gm /map")).tobytes() == gm.tobytes()      # England's orders are its own


async def test_a_terra_prime_turn_post_carries_the_sector_just_played_beside_the_board(lite: Console,
                                                                                       tmp_path: Path) -> None:
    """The whole board cannot be read at preview size: the post of each new turn has, beside it, the sector
    just played drawn large, as everyone may see it (none on the first post: nothing played yet)."""
    lite.out_dir = tmp_path
    await lite.run_script("""
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@ana /gm seat auto seat:Robo
@ana /campaign start
""")
    thread = "\n".join(lite.transcript)  # type: ignore[attr-defined]
    assert "[image: duo-turn1.png]" in thread and "duo-turn1-played.png" not in thread
    assert "**Just played — Round 1 — Robo**" in thread and "[image: duo-turn2-played.png]" in thread
    crop, board = sent(tmp_path, "duo-turn2-played.png"), sent(tmp_path, "duo-turn2.png")
    assert crop.size == (1100, 640) and board.width == 1100
