"""Where am I needed: /campaign mine lists a player's campaigns in every server with what each waits on from
them; /campaign notify sends a personal 'your turn' by DM or ping, once, pinging nobody else."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update

from bot.console.runner import Console
from bot.service import cards, orders
from bot.service.context import Caller
from bot.store.models import Campaign

SCRIPT = """
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@bo /campaign join seat:Bo
@ana /campaign start
@gaius #forum /campaign create name:Gaul ruleset:freeform
@bo /campaign join seat:Arverni
@cato /campaign join seat:Latins
@gaius /campaign start
@gaius /gm deadline set when:2d
"""
OTHER_GUILD = 2222000000000000


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


def replies(con: Console, mark: int) -> str:
    """The raw text of the answers since `mark` (as Discord receives it: <t:…:R> stamps unrendered)."""
    out = []
    for s in con.fake.sent[mark:]:
        if s.kind in ("edit_original", "followup", "interaction_response"):
            data = (s.payload or {}).get("data") or s.payload or {}
            out.append(str(data.get("content") or ""))
    return "\n".join(out)


async def test_mine_lists_campaigns_in_every_server_with_what_they_wait_on(console: Console) -> None:
    await console.run_script(SCRIPT)
    async with console.services.db.write() as session:  # Gaul lives in another server Bo is also in
        await session.execute(update(Campaign).where(Campaign.name == "Gaul").values(guild_id=OTHER_GUILD))
    assert "Gaul" not in await said(console, "@bo #lounge /campaign list")  # this server's campaigns only
    mark = len(console.fake.sent)
    out = await said(console, "@bo #lounge /campaign mine")
    assert "(only they see this)" in out
    assert "**2 of your 2 campaign(s) need you:**" in out
    assert "**Duo** (terra-prime, in #lounge) as **Bo**: 🎯 your turn — **Round 1 — Bo**" in out
    assert "**Gaul** (freeform, in #forum) as **Arverni**: 📜 your orders for **Turn 1 — orders** are due" in out
    assert "are due <t:" in replies(console, mark) and ":R>" in replies(console, mark)
    in_other_server = Caller(user_id=console.fake.user("bo"), name="bo", guild_id=OTHER_GUILD, channel_id=1)
    await orders.submit(console.services, in_other_server, "hold", "Gaul")  # Bo sends orders over there
    out = await said(console, "@bo #lounge /campaign mine")
    assert "**1 of your 2 campaign(s) need you:**" in out and "✅ your orders for **Turn 1 — orders** are in" in out
    out = await said(console, "@ana #lounge /campaign mine")
    assert "Nothing needs you now in your 1 campaign(s)." in out and "waits for **Bo**" in out
    out = await said(console, "@gaius #lounge /campaign mine")
    assert "**Gaul** (freeform, in #forum) as GM: nothing from you" in out
    assert "no running campaign" in await said(console, "@zed #lounge /campaign mine")


def posts_to(con: Console, channel_name: str) -> list[Any]:
    return [s for s in con.fake.sent if s.kind == "channel_message"
            and con.fake.channel_name(int(s.params["channel_id"])) == channel_name]


async def test_a_dm_notice_is_sent_once_and_pings_no_one(lite: Console) -> None:
    await lite.run_script("""
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@bo /campaign join seat:Bo
@bo /campaign notify how:dm
@ana /campaign start
""")
    dms = posts_to(lite, "DM @bo")
    assert len(dms) == 1
    assert "It's your turn in **Duo** as **Bo** — Round 1 — Bo" in dms[0].payload["content"]
    assert dms[0].payload["allowed_mentions"].get("users", []) == []
    await lite.pump()
    assert len(posts_to(lite, "DM @bo")) == 1  # delivered once
    turn = next(s for s in posts_to(lite, "Duo") if "it's your turn (Bo)" in s.payload["content"])
    assert "<@" not in turn.payload["content"]  # a DM instead of the campaign's ping
    assert posts_to(lite, "DM @ana") == []  # Ana asked for nothing


async def test_ping_pings_only_that_player_and_off_silences_the_campaign_ping(lite: Console) -> None:
    await lite.run_script("""
@gaius #forum /campaign create name:Gaul ruleset:freeform
@bo /campaign join seat:Arverni
@cato /campaign join seat:Latins
@bo /campaign notify how:ping
@gaius /campaign start
""")
    opening = next(s for s in posts_to(lite, "Gaul")
                   if "orders are open" in cards.as_text(s.payload.get("embeds") or []))
    bo, cato = lite.fake.user("bo"), lite.fake.user("cato")
    assert f"<@{bo}>" in opening.payload["content"] and f"<@{cato}>" not in opening.payload["content"]
    assert [int(u) for u in opening.payload["allowed_mentions"].get("users", [])] == [bo]
    assert [m["id"] for m in opening.result["mentions"]] == [str(bo)]  # Discord pings Bo alone

    await lite.run_script("""
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@bo /campaign join seat:Bo
@bo /campaign notify how:off
@ana /campaign start
""")
    turn = next(s for s in posts_to(lite, "Duo") if "it's your turn (Bo)" in s.payload["content"])
    assert "<@" not in turn.payload["content"] and turn.result["mentions"] == []
    assert "No notices from **Duo**" in await said(lite, "@bo #lounge /campaign notify how:off")
    assert "you have no seat" in await said(lite, "@zed #lounge /campaign notify how:dm")
