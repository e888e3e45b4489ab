"""An automatic Terra Nova power in Discord: the GM seats it, and in each order window it writes its own orders,
checked like a player's, kept private to its seat and read by the GM before the window closes."""

from __future__ import annotations

from bot.console.runner import Console


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


async def test_an_automatic_power_writes_its_orders_in_every_window(lite: Console) -> None:
    await lite.run_line("@gm #colonies /campaign create name:Armada ruleset:terra-nova "
                        "options:\"random_events=off deflation=off uprisings=off\"")
    await lite.run_line("@isabel /campaign join seat:Spain")
    assert "automatic player" in await said(lite, "@gm /gm seat auto seat:England")
    out = await said(lite, "@gm /campaign start")
    assert "B.5 Declare Purchases" in out
    listed = await said(lite, "@gm /orders list")
    assert "**England** — B.5" in listed and "✅ 1: `buy 1 " in listed
    assert "buy 1 " not in await said(lite, "@isabel /orders list seat:England")   # private to its seat
    await lite.run_line("@isabel /orders submit text:\"buy 1 caravel\"")
    out = await said(lite, "@gm /gm advance")
    assert "C.1" in out
    assert "sail " in await said(lite, "@gm /orders list")           # the new window's orders, written at once


def thread_texts(con: Console, name: str) -> str:
    """Everything posted in the campaign's public thread (message text and embeds)."""
    thread = next(int(c["id"]) for c in con.fake.channels.values() if c["name"] == name)
    out = []
    for m in con.fake.messages.values():
        if int(m["channel_id"]) == thread:
            out.append(m.get("content") or "")
            out.extend(str(e) for e in m.get("embeds") or [])
    return "\n".join(out)


async def test_two_players_and_three_automatic_powers_play_the_five_power_game(lite: Console) -> None:
    await lite.run_line("@gm #colonies /campaign create name:Flotilla ruleset:terra-nova "
                        "options:\"random_events=off deflation=off uprisings=off\"")
    await lite.run_line("@isabel /campaign join seat:Spain")
    await lite.run_line("@manuel /campaign join seat:Portugal")
    autos = ("England", "France", "Holland")
    for power in autos:
        assert "automatic player" in await said(lite, f"@gm /gm seat auto seat:{power}")
    await lite.run_line("@gm /campaign start")
    written: dict[str, list[str]] = {p: [] for p in autos}     # the windows each power wrote orders in
    reasons: set[str] = set()
    for _ in range(12):                                      # two turns' order windows
        listed = await said(lite, "@gm /orders list")
        for power in autos:
            rest = listed.partition(f"**{power}** — ")[2]
            if not rest:
                continue
            window = rest.split(" ", 1)[0]
            lines = []
            for ln in rest.splitlines()[1:]:
                if ln.strip().startswith("**"):
                    break                                    # the next seat's orders
                if ln.strip()[:1] in ("✅", "⚠", "❌"):
                    lines.append(ln.strip())
            assert lines and not [ln for ln in lines if ln.startswith("❌")], listed  # legal, every line
            assert all(" # " in ln for ln in lines), lines                          # each with its reason
            written[power].append(window)
            reasons.update(ln.split(" # ", 1)[1] for ln in lines)
        out = await said(lite, "@gm /gm advance")
        if "Advance anyway" in out:                          # the two people took no part in this window
            await lite.run_line('@gm press "Advance anyway"')
    for power in autos:                                      # buys and sails, turn after turn
        assert written[power].count("B.5") == 2 and written[power].count("C.1") >= 1, written[power]
    public = thread_texts(lite, "Flotilla")                  # none of their plans reached the public thread
    assert reasons and not [r for r in reasons if r in public]
