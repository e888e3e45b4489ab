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
