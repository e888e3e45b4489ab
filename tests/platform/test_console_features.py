"""The rest of the Discord surface: the orders form and files, buttons, seat hand-over, following,
deadlines that advance, the map, and long answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.runner import Console

SETUP = """
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
"""


@pytest.fixture
async def gaul(lite: Console) -> Console:
    await lite.run_script(SETUP)
    return lite


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


async def test_orders_by_form_prefilled_and_by_attached_file(gaul: Console, tmp_path: Path) -> None:
    out = await said(gaul, "@vercingetorix /orders submit")
    assert "form for @vercingetorix: Your orders" in out
    out = await said(gaul, '@vercingetorix form orders:"hold Gergovia\\nsend scouts north"')
    assert "2 accepted" in out and "`send scouts north`" in out
    assert "(filled: 31 chars)" in await said(gaul, "@vercingetorix /orders submit")  # the form shows them again
    (tmp_path / "orders.txt").write_text("# my turn\nburn the farms\nretreat to Alesia\n")
    out = await said(gaul, "@ambiorix /orders submit file:@orders.txt")
    assert "✅ 2: `burn the farms`" in out and "✅ 3: `retreat to Alesia`" in out
    (tmp_path / "bad.bin").write_bytes(b"\xff\xfe\x00bad")
    assert "is not UTF-8 text" in await said(gaul, "@ambiorix /orders submit file:@bad.bin")


async def test_the_write_orders_button_opens_the_form(gaul: Console) -> None:
    out = await said(gaul, '@ambiorix press "Write orders"')
    assert "form for @ambiorix: Your orders" in out
    assert "2 accepted" in await said(gaul, '@ambiorix form orders:"one\\ntwo"')


async def test_check_saves_nothing_and_withdraw_takes_orders_back(gaul: Console) -> None:
    assert "Dry run" in await said(gaul, '@ambiorix /orders check text:"march"')
    assert "⏳ not yet — **Eburones**" in await said(gaul, "@gaius /campaign status")
    await gaul.run_line('@ambiorix /orders submit text:"march"')
    assert "withdrawn" in await said(gaul, "@ambiorix /orders withdraw")
    assert "⏳ not yet — **Eburones**" in await said(gaul, "@gaius /campaign status")


async def test_a_replaced_seat_moves_its_private_thread_to_the_new_player(gaul: Console) -> None:
    await gaul.run_line('@gaius /gm note text:"The druids whisper." seat:Arverni')
    assert "Hand **Arverni**" in await said(gaul, "@gaius /gm seat replace seat:Arverni user:@critognatus")
    out = await said(gaul, '@gaius press "Replace them"')
    assert "@critognatus replaces @vercingetorix as **Arverni**" in out
    assert "#Gaul — Arverni: +@critognatus" in out and "#Gaul — Arverni: −@vercingetorix" in out
    assert "druids" in await said(gaul, "@critognatus /history turn:1")
    assert "you have no seat" in await said(gaul, '@vercingetorix /orders submit text:"x"')


async def test_following_adds_a_spectator_to_the_thread(gaul: Console) -> None:
    assert "#Gaul: +@caesar" in await said(gaul, "@caesar /campaign follow")
    assert "#Gaul: −@caesar" in await said(gaul, "@caesar /campaign unfollow")


async def test_a_deadline_with_auto_advance_resolves_the_turn_and_opens_the_next(gaul: Console) -> None:
    await gaul.run_line("@gaius /gm settings key:auto_advance value:deadline")
    await gaul.run_line("@gaius /gm settings key:deadline_every value:3d")
    await gaul.run_line("@gaius /gm deadline set when:1d")
    await gaul.run_line('@vercingetorix /orders submit text:"hold"')
    out = await said(gaul, "clock +1d")
    assert "The deadline for **Turn 1 — orders** has passed." in out
    assert "**Eburones** ordered:\n      ┃ > (no orders)" in out
    assert "**Turn 2 — orders**: orders are open" in out and "Deadline: 2026-01-09 12:00 UTC (in 3d)" in out
    without = await said(gaul, "@gaius /gm settings key:auto_advance value:off")
    assert "`auto_advance` = off" in without
    out = await said(gaul, "clock +3d")
    assert "the GM will advance" in out and "Turn 3" not in out


async def test_the_map_needs_regions_and_then_draws_them(gaul: Console, tmp_path: Path) -> None:
    assert "has no map" in await said(gaul, "@caesar /map")
    (tmp_path / "regions.toml").write_text('[[region]]\nname = "Alesia"\nowner = "Arverni"\n')
    assert "taken into play" in await said(gaul, "@gaius /gm upload kind:regions file:@regions.toml")
    assert "gaul-map.png" in await said(gaul, "@caesar /map")
    (tmp_path / "bad.toml").write_text('[[region]]\nname = "X"\nowner = "Romans"\n')
    assert "owner `Romans` is not a seat" in await said(gaul, "@gaius /gm upload kind:regions file:@bad.toml")


async def test_long_answers_are_split_or_attached_never_cut(gaul: Console) -> None:
    order = "march " + "very " * 80 + "far"
    text = " | ".join([order] * 24)
    out = await said(gaul, f'@ambiorix /orders submit text:"{text}"')
    assert "the whole text" in out and "is attached" in out and "herald.md" in out
    sent = [s for s in gaul.fake.sent if s.files and s.files[0][0] == "herald.md"]
    assert sent[-1].files[0][1].decode().count("✅") == 24


async def test_the_gm_reads_the_gm_only_news_of_a_resolution_and_timers_tell_the_gm_thread(lite: Console) -> None:
    """Found by playing LotE and Terra Nova: the GM's advance reply said only 'resolved'."""
    import engine.rulesets as registry

    registry._REGISTRY["secretive"] = "tests.platform.secretive:Secretive"
    registry.get.cache_clear()
    try:
        await lite.run_script("""
@gm #t /campaign create name:Whispers ruleset:secretive
@pat /campaign join seat:Pat
@gm /campaign start
""")
        assert "0 of 1 in" in "\n".join(await lite.run_line("@gm /gm advance"))
        out = "\n".join(await lite.run_line('@gm press "Advance anyway"'))
        assert "For the GM only:" in out and "the spy reports" in out
        await lite.run_line("@gm /gm settings key:auto_advance value:deadline")
        await lite.run_line("@gm /gm deadline set when:1h")
        out = "\n".join(await lite.run_line("clock +2h"))
        assert "#Whispers — GM: the spy reports" in out
        assert "#Whispers: the spy reports" not in out
    finally:
        del registry._REGISTRY["secretive"]
        registry.get.cache_clear()


async def test_relative_times_read_as_discord_shows_them(gaul: Console) -> None:
    """`<t:…:R>` in the console: "in 2d", "3d ago", and "just now" for the very moment (not "now ago")."""
    assert "(just now)" in await said(gaul, "@ambiorix /catchup")
    await gaul.run_line("clock +3d")
    assert "(3d ago)" in await said(gaul, "@ambiorix /catchup")
