"""Forgiving names wherever a person types one, through the fake Discord: order verbs and units (Terra Nova),
the GM's verbs, seats and regions (freeform), actions typed from a menu's label (Terra Prime), rulings, settings
and their values, time zones, table titles and one's own seat. A unique start, any case, no accents: accepted;
a misspelling: "did you mean …?"; several: the candidates."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.runner import Console

GAUL = """
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@gaius /gm upload kind:regions file:@regions.toml
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Éburons
@gaius /campaign start
"""


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


@pytest.fixture
async def gaul(lite: Console, tmp_path: Path) -> Console:
    (tmp_path / "regions.toml").write_text('[[region]]\nname = "Gergovia"\nowner = "Arverni"\n'
                                           '[[region]]\nname = "Aduatuca"\nowner = "Éburons"\n', encoding="utf-8")
    lite.base_dir = tmp_path
    await lite.run_script(GAUL)
    return lite


async def test_the_gms_verbs_seats_and_regions_in_freeform(gaul: Console) -> None:
    assert "Gergovia is now held by Éburons." in await said(gaul, '@gaius /gm act action:"region gerg owner ebu"')
    assert "did you mean **Gergovia**?" in await said(gaul, '@gaius /gm act action:"region Gergvia owner none"')
    assert "did you mean **Arverni**?" in await said(gaul, '@gaius /gm act action:"region Aduatuca owner Arvreni"')
    assert "Result noted for Éburons." in await said(gaul, '@gaius /gm act action:"res EBURONS: the woods are quiet"')
    assert "Arverni's sheet was updated." in await said(gaul, '@gaius /gm act action:"sheet arv: **Gold** 40"')


async def test_settings_their_values_and_time_zones(gaul: Console) -> None:
    assert "`time_zone` = Europe/Paris" in await said(gaul, "@gaius /gm settings key:tim value:paris")
    assert "`digest` = daily" in await said(gaul, "@gaius /gm settings key:Digest value:DAILY")
    assert "`auto_advance` = deadline" in await said(gaul, "@gaius /gm settings key:auto-advance value:dead")
    out = await said(gaul, "@gaius /gm settings key:digest value:daly")
    assert "did you mean **daily**?" in out and "digest is one of off, daily" in out
    assert "did you mean **America/New_York**?" in await said(gaul, '@gaius /gm settings key:tz value:"new yrok"')
    assert "no setting `colour`" in await said(gaul, "@gaius /gm settings key:colour value:red")


async def test_a_player_names_their_own_seat_short_and_only_their_own(gaul: Console) -> None:
    await gaul.run_line('@vercingetorix /orders submit text:"hold Gergovia"')
    assert "hold Gergovia" in await said(gaul, "@vercingetorix /orders list seat:arv")
    assert "orders are private" in await said(gaul, "@vercingetorix /orders list seat:ebu")


async def test_orders_in_the_lobby_say_the_campaign_has_not_started(lite: Console) -> None:
    await lite.run_script("gm @gaius\n@gaius #forum /campaign create name:Gaul ruleset:freeform\n"
                          "@vercingetorix /campaign join seat:Arverni")
    out = await said(lite, "@gaius /orders list seat:arv")
    assert "has not started yet" in out and "None" not in out


async def test_a_menu_label_or_a_short_verb_is_the_action_it_says(lite: Console) -> None:
    await lite.run_script("""
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@bo /campaign join seat:Bo
@ana /campaign start
""")  # with the console's seed Bo plays first, and may move to sector 3
    assert "**Bo** moves to sector 3." in await said(lite, '@bo /act action:"Move to sector 3"')
    await lite.run_line("@bo /undo")
    assert "**Bo** moves to sector 3." in await said(lite, '@bo /act action:"mov 3"')
    out = await said(lite, '@bo /act action:"move 2"')  # no such move: refused in the rules' own words
    assert "moves to sector 2" not in out and "(only they see this)" in out


async def test_terra_nova_order_verbs_units_rulings_and_table_titles(lite: Console) -> None:
    await lite.run_script("""
gm @gm
@gm #colonies /campaign create name:Tordesillas ruleset:"terra nova"
@isabel /campaign join seat:spa
@manuel /campaign join seat:port
@gm /campaign start
@gm /gm act action:"rul q1 none"
""")
    assert "orders are open" in "\n".join(lite.last_output), "the ruling with its verb written short was made"
    out = await said(lite, '@isabel /orders check text:"bu 2 sold | biy 4 soldier | buy 3 carack | s 1 carrack"')
    assert "✅ 1: `buy 2 soldier`" in out
    assert "`biy` is not an order I know — did you mean **buy**?" in out
    assert "`carack` is not a unit or ship I know — did you mean **carrack**?" in out
    assert "`s` could be **sail** or **settle**: type more of the order" in out
    out = await said(lite, '@gm /gm table roll name:"naval attrition table (3)"')
    assert "Naval Attrition Table (3): 1d6" in out
    assert "could be" in await said(lite, '@gm /gm table roll name:"naval attr"')
