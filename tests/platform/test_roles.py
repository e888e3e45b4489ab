"""Every command through real interaction payloads, as the right role and as the wrong one."""

from __future__ import annotations

import pytest

from bot.console.runner import Console

SETUP = """
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
@vercingetorix /orders submit text:"hold Gergovia"
@gaius /gm act action:"result Arverni: Your druids foresee a siege."
"""


@pytest.fixture
async def gaul(lite: Console) -> Console:
    (lite.base_dir / "r.toml").write_text('[[region]]\nname = "Alesia"\n')
    await lite.run_script(SETUP)
    return lite


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


GM_ONLY = [
    "/campaign start", "/gm upload kind:regions file:@r.toml", "/gm table upload file:@r.toml",
    "/gm seat replace seat:Arverni user:@ambiorix", "/gm seat auto seat:Arverni",
    "/gm advance", "/gm rollback", "/gm deadline set when:2d", "/gm deadline clear",
    "/gm seat assign seat:Arverni user:@ambiorix", "/gm seat kick seat:Arverni", "/gm note text:hello",
    "/gm table list", '/gm act action:"result all: x"', "/gm settings", "/campaign end",
]


@pytest.mark.parametrize("command", GM_ONLY)
async def test_players_and_spectators_cannot_use_gm_commands(gaul: Console, command: str) -> None:
    for who in ("@vercingetorix", "@caesar"):
        out = await said(gaul, f"{who} #forum {command}")
        if command == "/gm table list":
            out = await said(gaul, f"{who} #forum /gm table roll name:x")
        assert "only the GM of **Gaul**" in out, (who, command, out)


async def test_the_gm_role_and_manage_server_may_run_any_campaign(gaul: Console) -> None:
    assert "only the GM" in await said(gaul, "@labienus #forum /gm note text:hail")
    await gaul.run_line("gm @labienus")
    assert "Note posted" in await said(gaul, "@labienus #forum /gm note text:hail")
    await gaul.run_line("admin @brutus")
    assert "1 of 2 in" in await said(gaul, "@brutus #forum /gm advance")
    assert "resolved" in await said(gaul, '@brutus #forum press "Advance anyway"')


async def test_orders_are_private_to_their_seat_and_the_gm(gaul: Console) -> None:
    assert "orders are private" in await said(gaul, "@ambiorix #forum /orders list seat:Arverni")
    assert "you have no seat" in await said(gaul, "@caesar #forum /orders list seat:Arverni")
    assert "hold Gergovia" in await said(gaul, "@vercingetorix #forum /orders list")
    assert "hold Gergovia" in await said(gaul, "@gaius #forum /orders list")
    assert "you have no seat" in await said(gaul, '@caesar #forum /orders submit text:"invade"')


async def test_status_says_who_has_submitted_but_never_what(gaul: Console) -> None:
    out = await said(gaul, "@ambiorix #forum /campaign status")
    assert "✅ submitted — **Arverni**" in out and "⏳ not yet — **Eburones**" in out
    assert "Gergovia" not in out


async def test_sheets_are_private(gaul: Console) -> None:
    await gaul.run_line('@gaius #forum /gm act action:"sheet Arverni: 40 warbands"')
    assert "40 warbands" in await said(gaul, "@vercingetorix #forum /sheet")
    assert "private to that seat" in await said(gaul, "@ambiorix #forum /sheet seat:Arverni")
    assert "40 warbands" not in await said(gaul, "@caesar #forum /sheet")
    assert "40 warbands" in await said(gaul, "@gaius #forum /sheet seat:Arverni")


async def test_private_results_reach_only_their_seat(gaul: Console) -> None:
    await gaul.run_line("@gaius #forum /gm advance")
    await gaul.run_line('@gaius #forum press "Advance anyway"')
    assert "druids" in await said(gaul, "@vercingetorix #forum /history turn:1")
    assert "druids" not in await said(gaul, "@ambiorix #forum /history turn:1")
    assert "druids" not in await said(gaul, "@caesar #forum /history turn:1")
    public_posts = [s for s in gaul.fake.sent if s.kind == "channel_message"
                    and gaul.fake.channel_name(int(s.params["channel_id"])) == "Gaul"]
    assert not any("druids" in (s.payload.get("content") or "") for s in public_posts)


async def test_exports_gm_everything_public_only_after_the_end(gaul: Console) -> None:
    assert "published when it ends" in await said(gaul, "@caesar #forum /campaign export")
    out = await said(gaul, "@gaius #forum /campaign export")
    assert "gaul-full.json" in out and "seed stays secret" in out


async def test_joining_twice_leaving_and_a_started_campaign(gaul: Console) -> None:
    assert "already have a seat" in await said(gaul, "@ambiorix #forum /campaign join seat:Other")
    assert "has started" in await said(gaul, "@caesar #forum /campaign join seat:Rome")
    assert "waits for the GM" in await said(gaul, "@ambiorix #forum /campaign leave")
    assert "takes the seat **Eburones**" in await said(gaul, "@gaius #forum /gm seat assign seat:Eburones user:@caesar")


async def test_bad_input_gets_a_clear_message(gaul: Console) -> None:
    assert "not dice notation" in await said(gaul, "@ambiorix #forum /roll notation:2d")
    assert "is not a time I can read" in await said(gaul, "@gaius #forum /gm deadline set when:soon")
    assert "no setting `colour`" in await said(gaul, "@gaius #forum /gm settings key:colour value:red")
    assert "no campaign called **Rome**" in await said(gaul, "@gaius #forum /campaign status campaign:Rome")
    assert "unknown option" in await said(gaul, "@gaius #forum /campaign create name:Other ruleset:freeform "
                                               "options:speed=fast")
    assert "no ruleset `chess`" in await said(gaul, "@gaius #forum /campaign create name:Other ruleset:chess")


async def test_several_campaigns_in_one_channel_must_be_named(gaul: Console) -> None:
    await gaul.run_line("@gaius #forum /campaign create name:Britannia ruleset:freeform")
    out = await said(gaul, "@caesar #forum /campaign status")
    assert "several campaigns run in this channel" in out
    assert "Britannia" in await said(gaul, "@caesar #forum /campaign status campaign:Britannia")
    assert "**Gaul**" in await said(gaul, "@caesar #forum /campaign list")


async def test_help_and_autocomplete(gaul: Console) -> None:
    assert "/campaign create" in await said(gaul, "@caesar #forum /help")
    assert "Storm" in await said(gaul, "@caesar #forum /help topic:tables")
    assert "Orders in Gaul** (freeform)" in await said(gaul, "@caesar #forum /help topic:orders")
    out = await said(gaul, '@gaius #forum complete /gm act action:"result"')
    assert "result all:" in out and "result Arverni:" in out
    out = await said(gaul, '@gaius #forum complete /campaign status campaign:"Ga"')
    assert "Gaul" in out
    # the GM's actions name pending rulings and results: nobody else sees even the list
    assert "(none)" in await said(gaul, '@vercingetorix #forum complete /gm act action:"result"')
    assert "(none)" in await said(gaul, '@caesar #forum complete /gm rollback to:"Turn"')


async def test_no_export_holds_the_seed_before_the_end(gaul: Console) -> None:
    import json

    from sqlalchemy import select

    from bot.store.models import Campaign

    async with gaul.services.db.read() as session:
        seed = (await session.scalars(select(Campaign.seed))).one()
    await gaul.run_line("@gaius #forum /campaign export")
    full = [s for s in gaul.fake.sent if s.files and s.files[0][0] == "gaul-full.json"][-1].files[0][1].decode()
    assert seed not in full and "seed" not in json.loads(full)["campaign"]
    assert "Your druids foresee a siege" in full  # the GM's export is complete otherwise
